// meshio++ binding: NDArray <-> numpy without copies (see numpy_bridge.hpp).
#include "numpy_bridge.hpp"

#include <stdexcept>

namespace meshioplusplus::python {

py::dtype to_numpy_dtype(DType dtype) {
  return visit_dtype(dtype, [](auto v) { return py::dtype::of<decltype(v)>(); });
}

std::optional<DType> storage_dtype(const py::dtype& dtype) {
  const char kind = dtype.kind();
  const auto size = static_cast<std::size_t>(dtype.itemsize());
  if (kind == 'b') return DType::uint8;
  if (kind == 'f') return size == 4 ? DType::float32 : DType::float64;
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
  return std::nullopt;
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
  const std::optional<DType> stored = storage_dtype(arr.dtype());
  if (!stored)
    throw std::invalid_argument(what + ": dtype " + std::string(py::str(py::handle(arr.dtype()))) +
                                " has no numeric representation (expected an integer, float or bool array)");
  const DType dtype = want ? *want : *stored;
  const py::dtype target = to_numpy_dtype(dtype);
  const bool contiguous = (arr.flags() & py::array::c_style) != 0;
  if (!contiguous || !arr.dtype().equal(target) || !arr.dtype().attr("isnative").cast<bool>())
    arr = np.attr("ascontiguousarray")(arr, target);  // the one conversion
  keep.push_back(arr);
  NDArray::Shape shape(arr.shape(), arr.shape() + arr.ndim());
  return NDArray::view(const_cast<void*>(arr.data()), dtype, std::move(shape));
}

}  // namespace meshioplusplus::python
