// meshio++ binding: NDArray <-> numpy, without copies.
//
// C++ -> numpy: the numpy array points at the NDArray's bytes and its base is a capsule
// owning a copy of the NDArray handle (so the Buffer, and the allocator it was born with,
// live exactly as long as numpy needs them). pybind11 copies when no base is given, so
// one is always given.
// numpy -> C++: C-contiguous native-endian arrays of a core dtype are wrapped as views (no
// copy); anything else is converted once by numpy, and the converted array is kept alive
// in `keep` for the duration of the call.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "meshioplusplus/ndarray.hpp"

namespace meshioplusplus::python {

namespace py = pybind11;

py::dtype to_numpy_dtype(DType dtype);
// The core dtype of a numpy dtype; throws std::invalid_argument naming `what` when the
// dtype is not a numeric dtype the core stores (bool is widened by the caller).
DType from_numpy_dtype(const py::dtype& dtype, const std::string& what);

py::array to_numpy(const NDArray& array);

// A view over `obj` (converted once if needed, then kept in `keep`). `what` names the
// array in errors. `want` forces a dtype (e.g. int64 for offsets) when given.
NDArray from_numpy(const py::handle& obj, const std::string& what, std::vector<py::object>& keep,
                   const DType* want = nullptr);

}  // namespace meshioplusplus::python
