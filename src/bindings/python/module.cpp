// meshio++ binding: the extension module meshioplusplus._core.
//
// read(path, format, options) -> dict of numpy arrays (every array handed over without a
// copy; see numpy_bridge.hpp). write(path, format, parts, options) wraps numpy arrays as
// views and serialises. The GIL is released while C++ parses or serialises. C++ exceptions
// are mapped to Python here, once: ReadError, WriteError, std::invalid_argument and
// std::length_error -> ValueError, std::bad_alloc -> MemoryError.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <string>
#include <vector>

#include "allocator_shim.hpp"
#include "meshioplusplus/meshioplusplus.hpp"
#include "numpy_bridge.hpp"

namespace py = pybind11;
using namespace meshioplusplus;
using meshioplusplus::python::from_numpy;
using meshioplusplus::python::to_numpy;

namespace {

// Re-raises the C++ warnings of the read or write just done (warnings.hpp) as UserWarning.
// A note may quote bytes of the file that are not UTF-8: they are shown backslash-escaped.
void raise_core_warnings(std::vector<std::string> notes) {
  if (notes.empty()) return;
  py::object warn = py::module_::import("warnings").attr("warn");
  for (const auto& note : notes) {
    PyObject* s = PyUnicode_DecodeUTF8(note.data(), static_cast<Py_ssize_t>(note.size()), "backslashreplace");
    if (!s) throw py::error_already_set();
    warn(py::reinterpret_steal<py::str>(s), py::handle(PyExc_UserWarning), 2);  // the caller of mio.read/write
  }
}

Options to_options(const py::dict& options) {
  Options out;
  for (auto [key, value] : options) out[py::str(key)] = py::str(value);
  return out;
}

// Names (data arrays, regions) come from files and need not be UTF-8 (a Latin-1 Gmsh
// physical name, a corrupted byte): they decode with "surrogateescape", so reading never
// fails on them and writing the name back restores the original bytes (name_bytes).
py::str name_str(const std::string& name) {
  PyObject* s = PyUnicode_DecodeUTF8(name.data(), static_cast<Py_ssize_t>(name.size()), "surrogateescape");
  if (!s) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(s);
}

std::string name_bytes(py::handle name) {
  if (!PyUnicode_Check(name.ptr())) return name.cast<std::string>();
  PyObject* b = PyUnicode_AsEncodedString(name.ptr(), "utf-8", "surrogateescape");
  if (!b) throw py::error_already_set();
  return py::reinterpret_steal<py::bytes>(b).cast<std::string>();
}

py::dict mesh_to_dict(const Mesh& mesh) {
  py::dict out;
  out["points"] = to_numpy(mesh.points);
  py::list cells;
  for (const CellBlock& b : mesh.cells) {
    if (!b.ragged)
      cells.append(py::make_tuple(b.type, to_numpy(b.connectivity)));
    else if (b.type == "polyhedron")
      cells.append(py::make_tuple(b.type, py::make_tuple(to_numpy(b.offsets), to_numpy(b.face_offsets), to_numpy(b.indices))));
    else
      cells.append(py::make_tuple(b.type, py::make_tuple(to_numpy(b.offsets), to_numpy(b.indices))));
  }
  out["cells"] = cells;
  py::dict point_data, cell_data, field_data;
  for (const auto& [name, a] : mesh.point_data) point_data[name_str(name)] = to_numpy(a);
  for (const auto& [name, list] : mesh.cell_data) {
    py::list arrays;
    for (const auto& a : list) arrays.append(to_numpy(a));
    cell_data[name_str(name)] = arrays;
  }
  for (const auto& [name, a] : mesh.field_data) field_data[name_str(name)] = to_numpy(a);
  out["point_data"] = point_data;
  out["cell_data"] = cell_data;
  out["field_data"] = field_data;
  py::list regions;
  for (const Region& r : mesh.regions)
    regions.append(py::make_tuple(name_str(r.name), region_kind_name(r.kind), to_numpy(r.entries), r.dim, r.tag));
  out["regions"] = regions;
  py::list periodic;
  for (const PeriodicLink& p : mesh.gmsh_periodic) {
    py::object affine = py::none();
    if (!p.affine.empty()) affine = to_numpy(NDArray::from_vector(p.affine));
    periodic.append(py::make_tuple(p.dim, py::make_tuple(p.tag, p.master_tag), affine, to_numpy(p.node_pairs)));
  }
  out["gmsh_periodic"] = periodic;
  return out;
}

// The Python package normalises a Mesh into plain containers (_mesh.Mesh._core_parts):
//   points, cells [(type, array) | (type, (offsets, indices)) | (type, (offsets, face_offsets, indices))],
//   point_data {name: array}, cell_data {name: [array]}, field_data {name: array},
//   regions [(name, kind, entries, dim, tag)], gmsh_periodic [(dim, (tag, master), affine|None, pairs)]
Mesh dict_to_mesh(const py::dict& parts, std::vector<py::object>& keep) {
  static const DType kInt64 = DType::int64;
  Mesh mesh;
  mesh.points = from_numpy(parts["points"], "points", keep);
  std::size_t i = 0;
  for (auto item : parts["cells"].cast<py::list>()) {
    auto block = item.cast<py::tuple>();
    auto type = block[0].cast<std::string>();
    const std::string what = "cells[" + std::to_string(i++) + "] (" + type + ")";
    if (py::isinstance<py::tuple>(block[1])) {
      auto ragged = block[1].cast<py::tuple>();
      if (ragged.size() == 3)
        mesh.cells.push_back(CellBlock::polyhedra(from_numpy(ragged[0], what + " offsets", keep, &kInt64),
                                                  from_numpy(ragged[1], what + " face offsets", keep, &kInt64),
                                                  from_numpy(ragged[2], what + " indices", keep, &kInt64)));
      else
        mesh.cells.push_back(CellBlock::polygons(from_numpy(ragged[0], what + " offsets", keep, &kInt64),
                                                 from_numpy(ragged[1], what + " indices", keep, &kInt64)));
      mesh.cells.back().type = type;
    } else {
      mesh.cells.push_back(CellBlock::rectangular(type, from_numpy(block[1], what, keep)));
    }
  }
  for (auto [name, a] : parts["point_data"].cast<py::dict>()) {
    auto key = name_bytes(name);
    mesh.point_data[key] = from_numpy(a, "point_data['" + key + "']", keep);
  }
  for (auto [name, list] : parts["cell_data"].cast<py::dict>()) {
    auto key = name_bytes(name);
    std::size_t k = 0;
    for (auto a : list.cast<py::list>())
      mesh.cell_data[key].push_back(from_numpy(a, "cell_data['" + key + "'][" + std::to_string(k++) + "]", keep));
  }
  for (auto [name, a] : parts["field_data"].cast<py::dict>()) {
    auto key = name_bytes(name);
    mesh.field_data[key] = from_numpy(a, "field_data['" + key + "']", keep);
  }
  for (auto item : parts["regions"].cast<py::list>()) {
    auto r = item.cast<py::tuple>();
    Region region;
    region.name = name_bytes(r[0]);
    region.kind = region_kind_from_name(r[1].cast<std::string>());
    region.entries = from_numpy(r[2], "region '" + region.name + "'", keep, &kInt64);
    region.dim = r[3].cast<int>();
    region.tag = r[4].cast<int>();
    mesh.regions.push_back(std::move(region));
  }
  for (auto item : parts["gmsh_periodic"].cast<py::list>()) {
    auto p = item.cast<py::tuple>();
    PeriodicLink link;
    link.dim = p[0].cast<int>();
    auto tags = p[1].cast<py::tuple>();
    link.tag = tags[0].cast<int>();
    link.master_tag = tags[1].cast<int>();
    if (!p[2].is_none()) link.affine = p[2].cast<std::vector<double>>();
    link.node_pairs = from_numpy(p[3], "gmsh_periodic pairs", keep, &kInt64);
    mesh.gmsh_periodic.push_back(std::move(link));
  }
  return mesh;
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "meshio++ C++ core (readers, writers, zero-copy numpy hand-off)";

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
        std::vector<std::string> notes;
        {
          py::gil_scoped_release release;
          take_warnings();
          mesh = meshioplusplus::read(path, format, opts);
          notes = take_warnings();
        }
        raise_core_warnings(std::move(notes));
        return mesh_to_dict(mesh);
      },
      py::arg("path"), py::arg("format") = "", py::arg("options") = py::dict());

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
      py::arg("path"), py::arg("format"), py::arg("parts"), py::arg("options") = py::dict());

  m.def(
      "_core_view_addresses",
      [](const py::dict& parts) {
        // Test hook: the data addresses the C++ side would write from (zero-copy proof).
        std::vector<py::object> keep;
        Mesh mesh = dict_to_mesh(parts, keep);
        py::dict out;
        out["points"] = reinterpret_cast<std::uintptr_t>(mesh.points.raw());
        py::list cells;
        for (const auto& b : mesh.cells)
          cells.append(reinterpret_cast<std::uintptr_t>(b.ragged ? b.indices.raw() : b.connectivity.raw()));
        out["cells"] = cells;
        py::dict pd;
        for (const auto& [name, a] : mesh.point_data) pd[py::str(name)] = reinterpret_cast<std::uintptr_t>(a.raw());
        out["point_data"] = pd;
        return out;
      },
      py::arg("parts"));

  m.def(
      "_owned_array",
      [](std::size_t n) {
        // Test hook: one owning core allocation (through the current allocator) handed to
        // numpy exactly as a reader's arrays are; returns (array, address of the C++ buffer).
        NDArray a = NDArray::uninit(DType::float64, {n});
        for (std::size_t i = 0; i < n; ++i) a.data<double>()[i] = static_cast<double>(i);
        return py::make_tuple(to_numpy(a), reinterpret_cast<std::uintptr_t>(a.buffer()->data()));
      },
      py::arg("n"));

  m.def(
      "validate",
      [](const py::dict& parts) {
        std::vector<py::object> keep;
        dict_to_mesh(parts, keep).validate();
      },
      py::arg("parts"), "Raise ValueError naming the offending array if the mesh is malformed.");

  m.def(
      "summary",
      [](const std::string& path, const std::string& format) {
        Mesh mesh;
        {
          py::gil_scoped_release release;
          mesh = meshioplusplus::read(path, format);
        }
        return summary(mesh);
      },
      py::arg("path"), py::arg("format") = "");

  m.def("formats", [] {
    py::list out;
    for (const auto& f : formats())
      out.append(py::make_tuple(f.name, f.extensions, f.read != nullptr, f.write != nullptr));
    return out;
  });

  m.def("block_bases", [](const py::list& sizes) {
    // Mirrors the C++ definition for the Python twin's cross-check test.
    std::vector<CellBlock> blocks;
    for (auto s : sizes) {
      CellBlock b;
      b.connectivity = NDArray::zeros(DType::int64, {s.cast<std::size_t>(), 1});
      blocks.push_back(std::move(b));
    }
    return block_bases(blocks);
  });

  m.def("cell_types", [] {
    py::dict out;
    for (const auto& t : cell_types()) out[py::str(std::string(t.name))] = py::make_tuple(t.num_nodes, t.dim, std::string(t.linear));
    return out;
  });
  m.def("cell_facets", [](const std::string& type) { return cell_facets(type); }, py::arg("cell_type"));

  meshioplusplus::python::register_allocator_shim(m);
}
