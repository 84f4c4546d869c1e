// meshio++ SU2 writer.
// Spec: https://su2code.github.io/docs_v7/Mesh-File/
//
// meshio's layout: NDIME, NPOIN and the coordinates, NELEM and the volume cells (triangles
// and quads in 2-D; tetrahedra, hexahedra, wedges and pyramids in 3-D) as "type nodes...",
// then NMARK and the markers. Markers, two ways:
//  - a mesh with side regions (as read from SU2) writes one marker per side region, named
//    after it, its elements the facets it lists, plus one per cell region of boundary cells
//    (lines in 2-D, triangles / quads in 3-D): what the reader returns reads back the same;
//  - otherwise, as meshio: the boundary cells grouped by the first integer cell data
//    ("su2:tag", then gmsh:physical, preferred), one marker per value, named by the value
//    (1 when there is none).
// Coordinates are written as the shortest text that reads back exactly.
#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "core/io/text_writer.hpp"
#include "formats/su2/su2_internal.hpp"
#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/cell_types.hpp"
#include "meshioplusplus/warnings.hpp"

namespace meshioplusplus::su2 {

namespace {

int facet_type(std::size_t nodes) { return nodes == 2 ? 3 : nodes == 3 ? 5 : 9; }

const std::vector<NDArray>* tag_data(const Mesh& mesh) {
  auto ok = [&](const std::vector<NDArray>& list) {
    if (list.size() != mesh.cells.size() || list.empty()) return false;
    for (std::size_t b = 0; b < list.size(); ++b)
      if (dtype_is_float(list[b].dtype()) || list[b].ndim() != 1 || list[b].dim(0) != mesh.cells[b].size()) return false;
    return true;
  };
  for (const char* preferred : {"su2:tag", "gmsh:physical"}) {  // gmsh:physical: what meshio picks for a Gmsh mesh
    auto it = mesh.cell_data.find(preferred);
    if (it != mesh.cell_data.end() && ok(it->second)) return &it->second;
  }
  for (const auto& [name, list] : mesh.cell_data)
    if (ok(list)) return &list;
  return nullptr;
}

}  // namespace

void write_su2(const std::string& path, const Mesh& mesh, const Options& options) {
  OptionReader opts(options, "su2");
  opts.finish();
  const std::size_t dim = mesh.points.dim(1);
  if (dim != 2 && dim != 3) throw WriteError("su2: points must have 2 or 3 coordinates, found " + std::to_string(dim));
  const NDArray pts = mesh.points.as_dtype(DType::float64);
  std::vector<NDArray> conn(mesh.cells.size());
  for (std::size_t b = 0; b < mesh.cells.size(); ++b)
    if (!mesh.cells[b].ragged) conn[b] = mesh.cells[b].connectivity.as_dtype(DType::int64);
  const auto bases = block_bases(mesh.cells);
  auto locate = [&](std::int64_t cell) {
    const auto b = static_cast<std::size_t>(std::upper_bound(bases.begin(), bases.end(), cell) - bases.begin() - 1);
    return std::pair<std::size_t, std::size_t>{b, static_cast<std::size_t>(cell - bases[b])};
  };

  io::AtomicFile file(path, "su2");
  io::TextWriter w(file);
  const io::FloatFormat shortest;
  w.str("NDIME= ").integer(dim).ch('\n');
  w.str("NPOIN= ").integer(pts.dim(0)).ch('\n');
  const double* x = pts.data<double>();
  for (std::size_t i = 0; i < pts.dim(0); ++i) {
    for (std::size_t c = 0; c < dim; ++c) {
      if (c) w.ch(' ');
      w.real(x[i * dim + c], shortest);
    }
    w.ch('\n');
  }
  auto row = [&](int type, const std::int64_t* nodes, std::size_t k) {
    w.integer(type);
    for (std::size_t j = 0; j < k; ++j) w.ch(' ').integer(nodes[j]);
    w.ch('\n');
  };
  auto is_volume = [&](const std::string& t) { return dim == 2 ? (t == "triangle" || t == "quad") : (t == "tetra" || t == "hexahedron" || t == "wedge" || t == "pyramid"); };
  // Other blocks are left out, as meshio leaves them out, with a warning.
  for (const auto& b : mesh.cells)
    if (b.ragged || !(is_volume(b.type) || is_boundary_type(b.type, dim)))
      warn("su2: cell type '" + b.type + "' is neither a volume nor a boundary element of a " + std::to_string(dim) +
           "-D mesh; skipping " + std::to_string(b.size()) + " cells");
  std::size_t nvol = 0;
  for (const auto& b : mesh.cells)
    if (!b.ragged && is_volume(b.type)) nvol += b.size();
  w.str("NELEM= ").integer(nvol).ch('\n');
  for (std::size_t b = 0; b < mesh.cells.size(); ++b) {
    const auto& blk = mesh.cells[b];
    if (blk.ragged || !is_volume(blk.type)) continue;
    const auto* t = type_by_name(blk.type);
    const std::size_t k = static_cast<std::size_t>(t->nodes);
    for (std::size_t i = 0; i < blk.size(); ++i) row(t->id, conn[b].data<std::int64_t>() + i * k, k);
  }

  bool from_regions = false;
  for (const auto& r : mesh.regions) from_regions = from_regions || r.kind == RegionKind::side;
  if (from_regions) {
    std::vector<const Region*> markers;
    for (const auto& r : mesh.regions) {
      if (r.kind == RegionKind::side) markers.push_back(&r);
      if (r.kind != RegionKind::cell || r.entries.size() == 0) continue;
      bool boundary = true;
      for (std::size_t i = 0; i < r.entries.size() && boundary; ++i) {
        const auto [b, j] = locate(r.entries.value_as_int64(i));
        boundary = !mesh.cells[b].ragged && is_boundary_type(mesh.cells[b].type, dim);
      }
      if (boundary) markers.push_back(&r);
    }
    w.str("NMARK= ").integer(markers.size()).ch('\n');
    for (const Region* r : markers) {
      if (r->name.find('\n') != std::string::npos) throw WriteError("su2: a marker name cannot hold a line break: region '" + r->name + "'");
      const std::size_t n = r->kind == RegionKind::side ? r->entries.dim(0) : r->entries.size();
      w.str("MARKER_TAG= ").str(r->name).ch('\n').str("MARKER_ELEMS= ").integer(n).ch('\n');
      const NDArray e = r->entries.as_dtype(DType::int64);
      const std::int64_t* v = e.data<std::int64_t>();
      for (std::size_t i = 0; i < n; ++i) {
        if (r->kind == RegionKind::side) {
          const auto [b, j] = locate(v[2 * i]);
          const auto& blk = mesh.cells[b];
          if (blk.ragged) throw WriteError("su2: side region '" + r->name + "' refers to a polygon or polyhedron");
          const auto& facets = cell_facets(blk.type);
          if (v[2 * i + 1] < 0 || static_cast<std::size_t>(v[2 * i + 1]) >= facets.size())
            throw WriteError("su2: side region '" + r->name + "': facet " + std::to_string(v[2 * i + 1]) + " of a " + blk.type);
          const auto& f = facets[static_cast<std::size_t>(v[2 * i + 1])];
          const std::int64_t* c = conn[b].data<std::int64_t>() + j * conn[b].dim(1);
          std::vector<std::int64_t> nodes;
          for (int l : f) nodes.push_back(c[l]);
          row(facet_type(nodes.size()), nodes.data(), nodes.size());
        } else {
          const auto [b, j] = locate(v[i]);
          const auto* t = type_by_name(mesh.cells[b].type);
          row(t->id, conn[b].data<std::int64_t>() + j * static_cast<std::size_t>(t->nodes), static_cast<std::size_t>(t->nodes));
        }
      }
    }
  } else {
    // meshio: per tag value (in order of first appearance over the blocks, each block's
    // values ascending), the boundary cells of that value, block by block.
    const std::vector<NDArray>* tags = tag_data(mesh);
    std::vector<std::int64_t> order;
    std::set<std::int64_t> seen;
    for (std::size_t b = 0; b < mesh.cells.size(); ++b) {
      if (mesh.cells[b].ragged || !is_boundary_type(mesh.cells[b].type, dim)) continue;
      std::set<std::int64_t> values;
      for (std::size_t i = 0; i < mesh.cells[b].size(); ++i) values.insert(tags ? (*tags)[b].value_as_int64(i) : 1);
      for (auto v : values)
        if (seen.insert(v).second) order.push_back(v);
    }
    w.str("NMARK= ").integer(order.size()).ch('\n');
    for (std::int64_t tag : order) {
      std::size_t n = 0;
      for (std::size_t b = 0; b < mesh.cells.size(); ++b)
        if (!mesh.cells[b].ragged && is_boundary_type(mesh.cells[b].type, dim))
          for (std::size_t i = 0; i < mesh.cells[b].size(); ++i) n += (tags ? (*tags)[b].value_as_int64(i) : 1) == tag;
      w.str("MARKER_TAG= ").integer(tag).ch('\n').str("MARKER_ELEMS= ").integer(n).ch('\n');
      for (std::size_t b = 0; b < mesh.cells.size(); ++b) {
        if (mesh.cells[b].ragged || !is_boundary_type(mesh.cells[b].type, dim)) continue;
        const auto* t = type_by_name(mesh.cells[b].type);
        const std::size_t k = static_cast<std::size_t>(t->nodes);
        for (std::size_t i = 0; i < mesh.cells[b].size(); ++i)
          if ((tags ? (*tags)[b].value_as_int64(i) : 1) == tag) row(t->id, conn[b].data<std::int64_t>() + i * k, k);
      }
    }
  }
  w.flush();
  file.commit();
}

}  // namespace meshioplusplus::su2
