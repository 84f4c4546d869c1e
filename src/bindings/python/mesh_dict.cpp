// meshio++ binding: the core Mesh <-> the dict that crosses into Python (see mesh_dict.hpp).
#include "mesh_dict.hpp"

#include <pybind11/stl.h>

#include <algorithm>

#include "numpy_bridge.hpp"

namespace meshioplusplus::python {

namespace py = pybind11;

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

py::tuple block_to_tuple(const CellBlock& b) {
  if (!b.ragged) return py::make_tuple(b.type, to_numpy(b.connectivity));
  if (b.type == "polyhedron")
    return py::make_tuple(b.type, py::make_tuple(to_numpy(b.offsets), to_numpy(b.face_offsets), to_numpy(b.indices)));
  return py::make_tuple(b.type, py::make_tuple(to_numpy(b.offsets), to_numpy(b.indices)));
}

namespace {

// Rows given as a list of 1-D arrays -> (offsets, indices), int64 (a gather: a copy).
std::pair<NDArray, NDArray> gather_rows(const py::list& rows, const std::string& what, std::vector<py::object>& keep) {
  static const DType kInt64 = DType::int64;
  std::vector<NDArray> views;
  views.reserve(rows.size());
  NDArray offsets = NDArray::uninit(DType::int64, {rows.size() + 1});
  auto* po = offsets.data<std::int64_t>();
  po[0] = 0;
  std::size_t k = 0;
  for (auto row : rows) {
    views.push_back(from_numpy(row, what + " row " + std::to_string(k), keep, &kInt64));
    po[k + 1] = po[k] + static_cast<std::int64_t>(views.back().size());
    ++k;
  }
  NDArray indices = NDArray::uninit(DType::int64, {static_cast<std::size_t>(po[k])});
  auto* pi = indices.data<std::int64_t>();
  for (std::size_t r = 0; r < views.size(); ++r)
    std::copy_n(views[r].data<const std::int64_t>(), views[r].size(), pi + po[r]);
  return {std::move(offsets), std::move(indices)};
}

}  // namespace

CellBlock tuple_to_block(const py::handle& item, const std::string& where, std::vector<py::object>& keep) {
  static const DType kInt64 = DType::int64;
  auto block = item.cast<py::tuple>();
  auto type = block[0].cast<std::string>();
  const std::string what = where + " (" + type + ")";
  if (py::isinstance<py::list>(block[1])) {  // ragged, as meshio holds it: rows, or cells of faces
    auto rows = block[1].cast<py::list>();
    CellBlock out;
    if (type.rfind("polyhedron", 0) == 0) {
      py::list faces;
      NDArray offsets = NDArray::uninit(DType::int64, {rows.size() + 1});
      auto* po = offsets.data<std::int64_t>();
      po[0] = 0;
      std::size_t c = 0;
      for (auto cell : rows) {
        auto cell_faces = py::reinterpret_borrow<py::sequence>(cell);
        for (auto face : cell_faces) faces.append(face);
        po[c + 1] = po[c] + static_cast<std::int64_t>(py::len(cell_faces));
        ++c;
      }
      auto [face_offsets, indices] = gather_rows(faces, what + " faces", keep);
      out = CellBlock::polyhedra(std::move(offsets), std::move(face_offsets), std::move(indices));
    } else {
      auto [offsets, indices] = gather_rows(rows, what, keep);
      out = CellBlock::polygons(std::move(offsets), std::move(indices));
    }
    out.type = type;
    return out;
  }
  if (!py::isinstance<py::tuple>(block[1])) return CellBlock::rectangular(type, from_numpy(block[1], what, keep));
  auto ragged = block[1].cast<py::tuple>();
  CellBlock out = ragged.size() == 3
                      ? CellBlock::polyhedra(from_numpy(ragged[0], what + " offsets", keep, &kInt64),
                                             from_numpy(ragged[1], what + " face offsets", keep, &kInt64),
                                             from_numpy(ragged[2], what + " indices", keep, &kInt64))
                      : CellBlock::polygons(from_numpy(ragged[0], what + " offsets", keep, &kInt64),
                                            from_numpy(ragged[1], what + " indices", keep, &kInt64));
  out.type = type;
  return out;
}

py::dict mesh_to_dict(const Mesh& mesh) {
  py::dict out;
  out["points"] = to_numpy(mesh.points);
  py::list cells;
  for (const CellBlock& b : mesh.cells) cells.append(block_to_tuple(b));
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

Mesh dict_to_mesh(const py::dict& parts, std::vector<py::object>& keep) {
  static const DType kInt64 = DType::int64;
  Mesh mesh;
  mesh.points = from_numpy(parts["points"], "points", keep);
  std::size_t i = 0;
  for (auto item : parts["cells"].cast<py::list>())
    mesh.cells.push_back(tuple_to_block(item, "cells[" + std::to_string(i++) + "]", keep));
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

// Re-raises the C++ warnings of the read (Mesh::warnings) or write (take_warnings) just done
// (warnings.hpp) as UserWarning.
// A note may quote bytes of the file that are not UTF-8: they are shown backslash-escaped.
void raise_core_warnings(std::vector<std::string> notes) {
  if (notes.empty()) return;
  pybind11::object warn = pybind11::module_::import("warnings").attr("warn");
  for (const auto& note : notes) {
    PyObject* s = PyUnicode_DecodeUTF8(note.data(), static_cast<Py_ssize_t>(note.size()), "backslashreplace");
    if (!s) throw pybind11::error_already_set();
    warn(pybind11::reinterpret_steal<pybind11::str>(s), pybind11::handle(PyExc_UserWarning), 2);  // the caller of mio.read/write
  }
}

Options to_options(const pybind11::dict& options) {
  Options out;
  for (auto [key, value] : options) out[pybind11::str(key)] = pybind11::str(value);
  return out;
}

}  // namespace meshioplusplus::python
