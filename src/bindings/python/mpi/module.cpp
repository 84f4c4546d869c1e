// meshio++ binding: meshioplusplus._mpi, the collective read / write of
// include/meshioplusplus/mpi.hpp for mio.read(path, comm=...) / mio.write(path, mesh,
// comm=...). Built only with MPI and mpi4py (CMake MESHIOPP_WITH_MPI), imported only when
// a comm is given, so a plain `import meshioplusplus` loads neither MPI nor mpi4py.
//
// The mpi4py communicator becomes an MPI_Comm through mpi4py's C API (PyMPIComm_Get,
// mpi4py/mpi4py.h), as dolfinx converts it; import_mpi4py() runs on the first call.
// This module links its own copy of the core (as _testing does): each read first installs
// _core's current buffer allocator (mio.use_allocator) in that copy, through the capsule
// _core._allocator_api; the parts dict is the one _core hands over (mesh_dict.hpp), errors
// are _core's ReadError / WriteError classes.
#include <mpi4py/mpi4py.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "allocator_shim.hpp"
#include "mesh_dict.hpp"
#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/mpi.hpp"
#include "meshioplusplus/warnings.hpp"

namespace py = pybind11;
using namespace meshioplusplus;

namespace {

MPI_Comm to_comm(const py::handle& obj) {
  static bool imported = false;
  if (!imported) {
    if (import_mpi4py() < 0) throw py::error_already_set();
    imported = true;
  }
  MPI_Comm* comm = PyMPIComm_Get(obj.ptr());
  if (!comm) throw py::error_already_set();  // mpi4py's TypeError: not an mpi4py Comm
  return *comm;
}

// The allocator installed in _core now (nullptr: the default heap).
std::shared_ptr<const BufferAllocator> core_allocator() {
  using CurrentAllocatorFn = std::shared_ptr<const BufferAllocator> (*)();
  py::object api = py::module_::import("meshioplusplus._core").attr("_allocator_api");
  auto* fn = static_cast<CurrentAllocatorFn*>(PyCapsule_GetPointer(api.ptr(), python::kAllocatorApiName));
  if (!fn) throw py::error_already_set();
  return (*fn)();
}

}  // namespace

PYBIND11_MODULE(_mpi, m) {
  m.doc() = "meshio++ collective partitioned I/O over an mpi4py communicator (include/meshioplusplus/mpi.hpp)";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ReadError& e) {
      PyErr_SetString(py::module_::import("meshioplusplus._core").attr("ReadError").ptr(), e.what());
    } catch (const WriteError& e) {
      PyErr_SetString(py::module_::import("meshioplusplus._core").attr("WriteError").ptr(), e.what());
    }
  });

  m.def(
      "read",
      [](const py::object& comm, const std::string& path, const std::string& format, const py::dict& options) {
        const MPI_Comm c = to_comm(comm);
        const Options opts = python::to_options(options);
        set_buffer_allocator(core_allocator());
        Mesh mesh;
        {
          py::gil_scoped_release release;
          mesh = meshioplusplus::read(path, c, format, opts);
        }
        python::raise_core_warnings(std::move(mesh.warnings));
        return python::mesh_to_dict(mesh);
      },
      py::arg("comm"), py::arg("path"), py::arg("format") = "", py::arg("options") = py::dict(),
      "Collective read: this rank's part of `path` as the parts dict (global ids, ghosts, counts).");

  m.def(
      "write",
      [](const py::object& comm, const std::string& path, const std::string& format, const py::dict& parts,
         const py::dict& options) {
        const MPI_Comm c = to_comm(comm);
        std::vector<py::object> keep;
        Mesh mesh = python::dict_to_mesh(parts, keep);
        const Options opts = python::to_options(options);
        std::vector<std::string> notes;
        {
          py::gil_scoped_release release;
          take_warnings();
          meshioplusplus::write(path, mesh, c, format, opts);
          notes = take_warnings();
        }
        python::raise_core_warnings(std::move(notes));
      },
      py::arg("comm"), py::arg("path"), py::arg("format"), py::arg("parts"), py::arg("options") = py::dict(),
      "Collective write of this rank's parts dict as its piece of `path` (.pvtu).");
}
