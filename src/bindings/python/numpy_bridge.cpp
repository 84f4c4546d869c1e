// meshio++ binding: NDArray <-> numpy without copies (see numpy_bridge.hpp).
#include "numpy_bridge.hpp"

#include <stdexcept>

namespace meshioplusplus::python {

py::dtype to_numpy_dtype(DType dtype) {
  return visit_dtype(dtype, [](auto v) { return py::dtype::of<decltype(v)>(); });
}

DType from_numpy_dtype(const py::dtype& dtype, const std::string& what) {
  const char kind = dtype.kind();
  const auto size = static_cast<std::size_t>(dtype.itemsize());
  if (kind == 'f' && size == 4) return DType::float32;
  if (kind == 'f' && size == 8) return DType::float64;
  if (kind == 'i' || kind == 'u') {
    const bool s = kind == 'i';
    switch (size) {
      case 1: return s ? DType::int8 : DType::uint8;
      case 2: return s ? DType::int16 : DType::uint16;
      case 4: return s ? DType::int32 : DType::uint32;
      case 8: return s ? DType::int64 : DType::uint64;
      default: break;
    }
  }
  throw std::invalid_argument(what + ": dtype " + std::string(py::str(py::handle(dtype))) +
                              " is not supported (expected an integer or float32/float64 array)");
}

py::array to_numpy(const NDArray& array) {
  std::vector<py::ssize_t> shape(array.shape().begin(), array.shape().end());
  auto* handle = new NDArray(array);  // owned by the capsule below
  py::capsule owner(handle, [](void* p) { delete static_cast<NDArray*>(p); });
  return py::array(to_numpy_dtype(array.dtype()), shape, {}, array.raw(), owner);
}

NDArray from_numpy(const py::handle& obj, const std::string& what, std::vector<py::object>& keep, const DType* want) {
  py::module_ np = py::module_::import("numpy");
  py::array arr = py::reinterpret_borrow<py::object>(np.attr("asarray")(obj));
  const char kind = arr.dtype().kind();
  if (kind == 'b') {  // bool: widened to uint8 (a copy by definition)
    arr = np.attr("ascontiguousarray")(arr, py::dtype::of<std::uint8_t>());
  } else if (kind == 'O' || kind == 'c' || kind == 'U' || kind == 'S' || kind == 'V' || kind == 'M' || kind == 'm') {
    throw std::invalid_argument(what + ": dtype " + std::string(py::str(py::handle(arr.dtype()))) +
                                " cannot be stored (expected a numeric array)");
  }
  DType dtype = want ? *want : from_numpy_dtype(arr.dtype(), what);
  const bool native = arr.dtype().attr("isnative").cast<bool>();
  const bool contiguous = (arr.flags() & py::array::c_style) != 0;
  if (!native || !contiguous || !arr.dtype().equal(to_numpy_dtype(dtype)))
    arr = np.attr("ascontiguousarray")(arr, to_numpy_dtype(dtype));  // the one conversion
  keep.push_back(arr);
  NDArray::Shape shape(arr.shape(), arr.shape() + arr.ndim());
  return NDArray::view(const_cast<void*>(arr.data()), dtype, std::move(shape));
}

}  // namespace meshioplusplus::python
