// meshio++ binding: meshioplusplus._testing, hooks the Python tests use to see what the
// C++ side of the binding does. Built only with the tests (CMake MESHIOPP_BUILD_TESTS),
// never part of the product module _core.
//
// This module links its own copy of the core; owned_array() allocates through the
// allocator installed in _core (read through _core._allocator_api), exactly as a reader
// called from _core would.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "allocator_shim.hpp"
#include "mesh_dict.hpp"
#include "meshioplusplus/meshioplusplus.hpp"
#include "numpy_bridge.hpp"

namespace py = pybind11;
using namespace meshioplusplus;
using meshioplusplus::python::dict_to_mesh;
using meshioplusplus::python::from_numpy;
using meshioplusplus::python::to_numpy;

namespace {

std::shared_ptr<const BufferAllocator> core_allocator() {
  using CurrentAllocatorFn = std::shared_ptr<const BufferAllocator> (*)();
  py::object api = py::module_::import("meshioplusplus._core").attr("_allocator_api");
  auto* fn = static_cast<CurrentAllocatorFn*>(PyCapsule_GetPointer(api.ptr(), meshioplusplus::python::kAllocatorApiName));
  if (!fn) throw py::error_already_set();
  return (*fn)();
}

std::uintptr_t address(const NDArray& a) { return reinterpret_cast<std::uintptr_t>(a.raw()); }

}  // namespace

PYBIND11_MODULE(_testing, m) {
  m.doc() = "meshio++ test hooks (built with the tests only)";

  m.def(
      "view_addresses",
      [](const py::dict& parts) {
        // The data addresses the C++ side would write from (zero-copy proof).
        std::vector<py::object> keep;
        Mesh mesh = dict_to_mesh(parts, keep);
        py::dict out;
        out["points"] = address(mesh.points);
        py::list cells;
        for (const auto& b : mesh.cells) cells.append(address(b.ragged ? b.indices : b.connectivity));
        out["cells"] = cells;
        py::dict pd;
        for (const auto& [name, a] : mesh.point_data) pd[py::str(name)] = address(a);
        out["point_data"] = pd;
        return out;
      },
      py::arg("parts"));

  m.def(
      "owned_array",
      [](std::size_t n) {
        // One owning core allocation (through _core's current allocator) handed to numpy
        // exactly as a reader's arrays are; returns (array, address of the C++ buffer).
        const auto previous = current_buffer_allocator();
        set_buffer_allocator(core_allocator());
        NDArray a;
        try {
          a = NDArray::uninit(DType::float64, {n});
        } catch (...) {
          set_buffer_allocator(previous);
          throw;
        }
        set_buffer_allocator(previous);
        for (std::size_t i = 0; i < n; ++i) a.data<double>()[i] = static_cast<double>(i);
        return py::make_tuple(to_numpy(a), reinterpret_cast<std::uintptr_t>(a.buffer()->data()));
      },
      py::arg("n"));

  m.def(
      "bridge",
      [](const py::handle& array) {
        // What the write path stores an array as: (dtype, shape, data address).
        std::vector<py::object> keep;
        NDArray a = from_numpy(array, "array", keep);
        return py::make_tuple(meshioplusplus::python::to_numpy_dtype(a.dtype()), py::tuple(py::cast(a.shape())), address(a));
      },
      py::arg("array"));

  m.def(
      "formats_for_path_among",
      [](const std::string& path, const std::vector<std::pair<std::string, std::vector<std::string>>>& among) {
        // The core's deduction rule over a made-up registry (e.g. two formats sharing a suffix).
        std::vector<Format> formats;
        for (const auto& [name, exts] : among) formats.push_back(Format{name, exts});
        std::vector<std::string> out;
        for (const Format* f : formats_for_path(path, formats)) out.push_back(f->name);
        return out;
      },
      py::arg("path"), py::arg("among"));
}
