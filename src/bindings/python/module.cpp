// meshio++ binding: the extension module meshioplusplus._core.
//
// read(path, format, options) -> the parts dict (_schema.CoreParts; every array handed over
// without a copy, see numpy_bridge.hpp). write(path, format, parts, options) wraps numpy
// arrays as views and serialises. The GIL is released while C++ parses or serialises. C++
// exceptions are mapped to Python here, once: ReadError, WriteError, std::invalid_argument
// and std::length_error -> ValueError, std::bad_alloc -> MemoryError.
//
// Besides I/O, the Python package asks this module for everything the core owns, so that
// nothing is defined twice: format deduction, the data policy (storage_dtype), region
// canonical form, block_bases, the mesh summary, the cell vocabulary, the VTK tables
// (vtk_arrays.hpp) and the version. Test-only hooks live in meshioplusplus._testing.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <string>
#include <vector>

#include "allocator_shim.hpp"
#include "formats/pvd/pvd.hpp"
#include "mesh_dict.hpp"
#include "meshioplusplus/meshioplusplus.hpp"
#include "numpy_bridge.hpp"
#include "vtk_arrays.hpp"
#include "xdmf_time_series.hpp"


namespace py = pybind11;
using namespace meshioplusplus;
using meshioplusplus::python::dict_to_mesh;
using meshioplusplus::python::from_numpy;
using meshioplusplus::python::mesh_to_dict;
using meshioplusplus::python::raise_core_warnings;
using meshioplusplus::python::to_options;
using meshioplusplus::python::to_numpy;

namespace {

// Region entries in canonical form (Region::canonicalize): int64, sorted, unique; the very
// array given when it already is. Integral floats are accepted, other dtypes are not.
py::object canonical_region_entries(const py::handle& obj, const std::string& kind_name, const py::handle& name_obj) {
  py::module_ np = py::module_::import("numpy");
  const std::string name = meshioplusplus::python::name_bytes(name_obj);  // any name a file holds
  Region region;
  region.name = name;
  region.kind = region_kind_from_name(kind_name);
  const bool side = region.kind == RegionKind::side;
  py::array a = np.attr("asarray")(obj);
  if (a.size() == 0) {
    std::vector<py::ssize_t> shape = side ? std::vector<py::ssize_t>{0, 2} : std::vector<py::ssize_t>{0};
    return py::array(py::dtype::of<std::int64_t>(), shape);
  }
  const char k = a.dtype().kind();
  if (k != 'i' && k != 'u') {
    const bool integral = k == 'f' && np.attr("array_equal")(np.attr("floor")(a), a).cast<bool>();
    if (!integral)
      throw std::invalid_argument("region '" + name + "': entries must be integers, found dtype " +
                                  std::string(py::str(py::handle(a.dtype()))));
  }
  if (side && (a.ndim() != 2 || a.shape(1) != 2))
    throw std::invalid_argument("region '" + name + "': side entries must have shape (n, 2), found " +
                                std::string(py::str(a.attr("shape"))));
  if (!side && a.ndim() != 1) a = a.attr("reshape")(-1);
  static const DType kInt64 = DType::int64;
  std::vector<py::object> keep;
  region.entries = from_numpy(a, "region '" + name + "'", keep, &kInt64);
  const void* given = region.entries.raw();
  region.canonicalize();
  if (region.entries.raw() == given) return keep.back();
  return to_numpy(region.entries);
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "meshio++ C++ core (readers, writers, zero-copy numpy hand-off)";
  m.attr("__version__") = meshioplusplus::version();

  py::register_exception<ReadError>(m, "ReadError", PyExc_Exception);
  py::register_exception<WriteError>(m, "WriteError", PyExc_Exception);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const std::length_error& e) {  // a size that overflows: a bad argument
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const std::bad_alloc&) {
      const std::string why = meshioplusplus::python::take_allocator_error();
      PyErr_SetString(PyExc_MemoryError, why.empty() ? "out of memory" : ("buffer allocator failed: " + why).c_str());
    }
  });

  m.def(
      "read",
      [](const std::string& path, const std::string& format, const py::dict& options) {
        Options opts = to_options(options);
        Mesh mesh;
        {
          py::gil_scoped_release release;
          mesh = meshioplusplus::read(path, format, opts);  // its warnings travel in mesh.warnings
        }
        raise_core_warnings(std::move(mesh.warnings));
        return mesh_to_dict(mesh);
      },
      py::arg("path"), py::arg("format") = "", py::arg("options") = py::dict(),
      "Read `path` -> the parts dict (meshioplusplus._schema.CoreParts).");

  m.def(
      "write",
      [](const std::string& path, const std::string& format, const py::dict& parts, const py::dict& options) {
        std::vector<py::object> keep;  // arrays converted for the call stay alive until it returns
        Mesh mesh = dict_to_mesh(parts, keep);
        Options opts = to_options(options);
        std::vector<std::string> notes;
        {
          py::gil_scoped_release release;
          take_warnings();
          meshioplusplus::write(path, mesh, format, opts);
          notes = take_warnings();
        }
        raise_core_warnings(std::move(notes));
      },
      py::arg("path"), py::arg("format"), py::arg("parts"), py::arg("options") = py::dict(),
      "Write the parts dict (meshioplusplus._schema.CoreParts) to `path`, atomically.");

  m.def(
      "write_pieces",
      [](const std::string& path, const std::string& format, const py::list& pieces, const py::dict& options) {
        std::vector<py::object> keep;
        std::vector<Mesh> meshes;
        for (const auto& parts : pieces) meshes.push_back(dict_to_mesh(parts.cast<py::dict>(), keep));
        Options opts = to_options(options);
        std::vector<std::string> notes;
        {
          py::gil_scoped_release release;
          take_warnings();
          meshioplusplus::write_pieces(path, meshes, format, opts);
          notes = take_warnings();
        }
        raise_core_warnings(std::move(notes));
      },
      py::arg("path"), py::arg("format"), py::arg("pieces"), py::arg("options") = py::dict(),
      "Write one piece file per parts dict and the collection file `path` (pvtu, pvtp).");

  m.def(
      "pvd_datasets",
      [](const std::string& path) {
        py::list out;
        for (const auto& d : pvd::read_datasets(path)) out.append(py::make_tuple(d.timestep, d.part, d.file));
        return out;
      },
      py::arg("path"), "The (timestep, part, file) entries of a .pvd, in file order (formats/pvd/pvd.hpp).");
  m.def(
      "write_pvd_datasets",
      [](const std::string& path, const std::vector<std::tuple<double, int, std::string>>& entries) {
        std::vector<pvd::DataSet> list;
        for (const auto& [t, part, file] : entries) list.push_back({t, part, file});
        pvd::write_datasets(path, list);
      },
      py::arg("path"), py::arg("datasets"), "Write a .pvd listing (timestep, part, file) entries, atomically.");

  m.def(
      "validate",
      [](const py::dict& parts) {
        std::vector<py::object> keep;
        dict_to_mesh(parts, keep).validate();
      },
      py::arg("parts"), "Raise ValueError naming the offending array if the mesh is malformed.");

  m.def(
      "summary",
      [](const py::dict& parts) {
        std::vector<py::object> keep;
        return meshioplusplus::python::name_str(summary(dict_to_mesh(parts, keep)));  // names need not be UTF-8
      },
      py::arg("parts"), "The core's multi-line summary of a mesh (what the CLI's `info` prints).");

  m.def("formats", [] {
    py::list out;
    for (const auto& f : formats())
      out.append(py::make_tuple(f.name, f.extensions, f.read != nullptr, f.write != nullptr));
    return out;
  });
  m.def(
      "write_format_aliases", [] { return write_format_aliases(); },
      "meshio's write-only format names (gmsh22, vtk42, vtk51), which write() maps to a format and version.");
  m.def(
      "deduce_format", [](const std::string& path, bool for_write) { return deduce_format(path, for_write).name; },
      py::arg("path"), py::arg("for_write"),
      "The format a read (write) of `path` uses when none is named; ValueError when none fits.");

  m.def(
      "block_bases",
      [](const std::vector<std::size_t>& sizes) { return to_numpy(NDArray::from_vector(block_bases_of_sizes(sizes))); },
      py::arg("sizes"), "Prefix sums of block lengths (int64, len(sizes) + 1): global cell numbering.");

  m.def("canonical_region_entries", &canonical_region_entries, py::arg("entries"), py::arg("kind"), py::arg("name"),
        "Region entries in canonical form (int64, sorted, unique); the same array when already canonical.");

  m.def(
      "storage_dtype",
      [](const py::dtype& dtype) -> py::object {
        auto stored = meshioplusplus::python::storage_dtype(dtype);
        if (!stored) return py::none();
        return meshioplusplus::python::to_numpy_dtype(*stored);
      },
      py::arg("dtype"), "The native dtype the core stores an array of `dtype` as; None when it has no numeric form.");

  m.def("cell_types", [] {
    py::dict out;
    for (const auto& t : cell_types()) out[py::str(std::string(t.name))] = py::make_tuple(t.num_nodes, t.dim, std::string(t.linear));
    return out;
  });
  m.def("cell_facets", [](const std::string& type) { return cell_facets(type); }, py::arg("cell_type"));

  meshioplusplus::python::register_vtk_arrays(m);
  meshioplusplus::python::register_allocator_shim(m);
  meshioplusplus::python::register_xdmf_time_series(m);
}
