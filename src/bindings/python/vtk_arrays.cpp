// meshio++ binding: cell blocks <-> VTK's in-memory arrays (see vtk_arrays.hpp).
#include "vtk_arrays.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "formats/vtk_common/cell_blocks.hpp"
#include "formats/vtk_common/vtk_cells.hpp"
#include "mesh_dict.hpp"
#include "numpy_bridge.hpp"

namespace meshioplusplus::python {

namespace py = pybind11;

namespace {

// The node order a VTK cell of type `id` with `k` nodes is read with (empty = as stored),
// or nullptr when meshio++ has no cell type for it.
const std::vector<int>* read_order(std::int64_t id, std::int64_t k, vtk::VtkReadType& lagrange) {
  const vtk::VtkReadType& rt = vtk::vtk_read_type(id);
  if (rt.name.empty()) return nullptr;
  if (!rt.lagrange) return &rt.order;
  lagrange = vtk::lagrange_type(id, k);
  return lagrange.name.empty() ? nullptr : &lagrange.order;
}

py::dict cells_from_blocks(const py::list& cells) {
  std::vector<py::object> keep;
  std::vector<CellBlock> blocks;
  std::size_t i = 0;
  for (auto item : cells) blocks.push_back(tuple_to_block(item, "cells[" + std::to_string(i++) + "]", keep));
  py::dict out;
  out["face_locations"] = py::none();
  out["faces"] = py::none();
  // One rectangular block VTK stores as is: its connectivity is handed over (no copy).
  if (blocks.size() == 1 && !blocks[0].ragged && blocks[0].connectivity.ndim() == 2) {
    const CellBlock& b = blocks[0];
    const vtk::VtkWriteType wt = vtk::vtk_type_for(b.type);
    const DType dt = b.connectivity.dtype();
    if (wt.id >= 0 && wt.order.empty() && (dt == DType::int32 || dt == DType::int64)) {
      const std::size_t m = b.connectivity.dim(0), k = b.connectivity.dim(1);
      NDArray types = NDArray::uninit(DType::uint8, {m});
      for (std::size_t c = 0; c < m; ++c) types.data<std::uint8_t>()[c] = static_cast<std::uint8_t>(wt.id);
      NDArray offsets = NDArray::uninit(dt, {m + 1});
      visit_dtype(dt, [&](auto tag) {
        using T = decltype(tag);
        for (std::size_t c = 0; c <= m; ++c) offsets.data<T>()[c] = static_cast<T>(c * k);
      });
      out["types"] = to_numpy(types);
      out["offsets"] = to_numpy(offsets);
      out["connectivity"] = keep.back().attr("reshape")(-1);
      return out;
    }
  }
  vtk::FlatOut flat = vtk::flat_from_blocks(blocks, false, "to_vtk");
  out["types"] = to_numpy(flat.types);
  out["offsets"] = to_numpy(flat.offsets);
  out["connectivity"] = to_numpy(flat.connectivity);
  if (flat.has_polyhedra) {
    // VTU's faceoffsets hold where each cell's stream ends; VTK's face locations where it starts.
    std::vector<std::int64_t> locations(flat.face_ends.size(), -1);
    std::int64_t begin = 0;
    for (std::size_t c = 0; c < locations.size(); ++c)
      if (flat.face_ends[c] >= 0) locations[c] = begin, begin = flat.face_ends[c];
    out["face_locations"] = to_numpy(NDArray::from_vector(locations));
    out["faces"] = to_numpy(NDArray::from_vector(flat.face_stream));
  }
  return out;
}

py::dict blocks_from_cells(const py::handle& types_obj, const py::handle& offsets_obj, const py::handle& conn_obj,
                           const py::handle& locations_obj, const py::handle& faces_obj, std::size_t num_points) {
  static const DType kInt64 = DType::int64, kUInt8 = DType::uint8;
  std::vector<py::object> keep;
  const NDArray types = from_numpy(types_obj, "cell types", keep, &kUInt8);
  const NDArray offsets = from_numpy(offsets_obj, "offsets", keep, &kInt64);
  const NDArray conn = from_numpy(conn_obj, "connectivity", keep, &kInt64);
  NDArray locations, faces;
  if (!locations_obj.is_none()) locations = from_numpy(locations_obj, "face locations", keep, &kInt64);
  if (!faces_obj.is_none()) faces = from_numpy(faces_obj, "faces", keep, &kInt64);
  const py::object original_conn = py::reinterpret_borrow<py::object>(conn_obj);
  const std::size_t n = types.size();
  auto fail = [](const std::string& why) -> void { throw std::invalid_argument(why); };
  if (offsets.size() != n + 1)
    fail("expected " + std::to_string(n + 1) + " offsets for " + std::to_string(n) + " cells, found " + std::to_string(offsets.size()));
  const auto* t = types.data<const std::uint8_t>();
  const auto* off = offsets.data<const std::int64_t>();
  const auto nconn = static_cast<std::int64_t>(conn.size());
  for (std::size_t c = 0; c < n; ++c)
    if (off[c] < 0 || off[c + 1] < off[c] || off[c + 1] > nconn)
      fail("cell " + std::to_string(c) + ": offsets [" + std::to_string(off[c]) + ", " + std::to_string(off[c + 1]) +
           ") are not within the " + std::to_string(nconn) + " connectivity values");

  py::list blocks, dropped;
  std::size_t s = 0;
  while (s < n) {
    vtk::VtkReadType lagrange;
    // A segment of cells meshio++ can hold (or cannot), read with the writers' reader code.
    auto holdable = [&](std::size_t c) {
      vtk::VtkReadType l;
      return read_order(t[c], off[c + 1] - off[c], l) != nullptr;
    };
    const bool ok = holdable(s);
    std::size_t e = s + 1;
    while (e < n && holdable(e) == ok) ++e;
    if (!ok) {
      dropped.append(py::make_tuple(s, e, vtk::vtk_type_label(t[s]), off[s + 1] - off[s]));
      s = e;
      continue;
    }
    const std::int64_t first = off[s];
    NDArray seg_offsets = NDArray::uninit(DType::int64, {e - s + 1});
    for (std::size_t c = s; c <= e; ++c) seg_offsets.data<std::int64_t>()[c - s] = off[c] - first;
    vtk::FlatCells flat;
    flat.offsets = seg_offsets;
    flat.connectivity = NDArray::view(const_cast<std::int64_t*>(conn.data<const std::int64_t>()) + first, DType::int64,
                                      {static_cast<std::size_t>(off[e] - first)});
    flat.types = NDArray::view(const_cast<std::uint8_t*>(t) + s, DType::uint8, {e - s});
    if (faces.size()) {
      flat.stream = faces.data<const std::int64_t>();
      flat.stream_size = faces.size();
    }
    const std::int64_t* loc = locations.size() ? locations.data<const std::int64_t>() : nullptr;
    const std::size_t nloc = locations.size();
    flat.face_range = [&, s](std::size_t c) -> std::pair<std::int64_t, std::int64_t> {
      const std::size_t cell = s + c;
      if (!loc || cell >= nloc) return {-1, -1};
      return {loc[cell], static_cast<std::int64_t>(faces.size())};
    };
    vtk::BlocksOut got = vtk::blocks_from_flat(flat, num_points, [&](const std::string& why) {
      throw std::invalid_argument(why + " (cells counted from " + std::to_string(s) + ")");
    });
    for (std::size_t b = 0; b < got.blocks.size(); ++b) {
      const std::size_t bs = s + got.starts[b], be = s + got.starts[b + 1];
      const CellBlock& block = got.blocks[b];
      py::object data;
      const std::vector<int>* order = read_order(t[bs], off[bs + 1] - off[bs], lagrange);
      if (!block.ragged && order && order->empty()) {
        // Stored as VTK has it: a view of the caller's connectivity, whatever its dtype.
        const auto k = static_cast<py::ssize_t>(off[bs + 1] - off[bs]);
        data = original_conn[py::slice(off[bs], off[be], 1)].attr("reshape")(static_cast<py::ssize_t>(be - bs), k);
      } else if (block.ragged && block.type != "polyhedron") {
        // Ragged polygons keep VTK's node runs: new offsets over a view of `connectivity`.
        data = py::make_tuple(to_numpy(block.offsets), original_conn[py::slice(off[bs], off[be], 1)]);
      } else {
        data = block_to_tuple(block)[1];
      }
      blocks.append(py::make_tuple(block.type, data, bs, be));
    }
    s = e;
  }
  py::dict out;
  out["blocks"] = blocks;
  out["dropped"] = dropped;
  return out;
}

}  // namespace

void register_vtk_arrays(py::module_& m) {
  m.def(
      "vtk_cell_type",
      [](const std::string& name) {
        const vtk::VtkWriteType wt = vtk::vtk_type_for(name);
        return py::make_tuple(wt.id, !wt.order.empty());
      },
      py::arg("cell_type"),
      "(VTK cell type id, whether the nodes are reordered) for a meshio++ cell type; id -1 when VTK has none.");
  m.def("vtk_cells_from_blocks", &cells_from_blocks, py::arg("cells"),
        "Cell blocks (the `cells` list of _schema.CoreParts) -> {types, offsets, connectivity, face_locations, "
        "faces}: VTK's in-memory arrays, exactly as the VTU writer lays them out. A single rectangular int32/int64 "
        "block VTK stores as is hands its own connectivity over (a view); otherwise the arrays are new. Raises "
        "WriteError for a cell type VTK has no id for.");
  m.def("vtk_blocks_from_cells", &blocks_from_cells, py::arg("types"), py::arg("offsets"), py::arg("connectivity"),
        py::arg("face_locations"), py::arg("faces"), py::arg("num_points"),
        "VTK's in-memory arrays -> {blocks: [(type, data, first cell, end cell)], dropped: [(first cell, end cell, "
        "VTK type label, nodes)]}, read exactly as the VTU reader reads them. Blocks stored as VTK has them are views "
        "of `connectivity`; cells meshio++ has no type for are dropped; malformed arrays raise ValueError.");
}

}  // namespace meshioplusplus::python
