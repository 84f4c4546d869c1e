// meshio++ binding: NDArray <-> numpy, without copies.
//
// C++ -> numpy: the numpy array points at the NDArray's bytes and its base is a capsule
// owning a copy of the NDArray handle (so the Buffer, and the allocator it was born with,
// live exactly as long as numpy needs them). pybind11 copies when no base is given, so
// one is always given.
// numpy -> C++: the data policy (storage_dtype) says which core dtype an array is stored
// as; C-contiguous native-endian arrays already of that dtype are wrapped as views (no
// copy); anything else is converted once by numpy, and the converted array is kept alive
// in `keep` for the duration of the call. The Python hand-offs ask the same policy
// (_core.storage_dtype, used by meshioplusplus._policy.share).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <optional>
#include <string>
#include <vector>

#include "meshioplusplus/ndarray.hpp"

namespace meshioplusplus::python {

namespace py = pybind11;

py::dtype to_numpy_dtype(DType dtype);

// The data policy: the core dtype a numpy dtype is stored as, or nothing when it has no
// numeric representation (object, complex, strings, datetimes, structured).
//   integers (any byte order)         -> the same kind and width, native
//   float32 / float64 (any byte order) -> the same, native
//   other floats (float16, longdouble) -> float64
//   bool                               -> uint8
std::optional<DType> storage_dtype(const py::dtype& dtype);

py::array to_numpy(const NDArray& array);

// A view over `obj` (converted once if needed, then kept in `keep`). `what` names the
// array in errors. `want` forces a dtype (e.g. int64 for offsets) when given. Throws
// std::invalid_argument naming `what` for an array with no numeric representation.
NDArray from_numpy(const py::handle& obj, const std::string& what, std::vector<py::object>& keep,
                   const DType* want = nullptr);

}  // namespace meshioplusplus::python
