// meshio++ core: Mesh model, block_bases and validation (see mesh.hpp).
#include "meshioplusplus/mesh.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "core/io/decode.hpp"
#include "core/parallel.hpp"
#include "meshioplusplus/cell_types.hpp"

namespace meshioplusplus {

namespace {

[[noreturn]] void bad(const std::string& what) { throw std::invalid_argument(what); }

bool is_integer(DType d) { return !dtype_is_float(d); }

// Checks every value of an integer array lies in [0, upper); names `what` otherwise. int64
// (the usual connectivity) is checked in one vectorised pass first, the value and position
// of a bad index then found by the loop below.
void check_index_range(const NDArray& a, std::int64_t upper, const std::string& what) {
  if (a.dtype() == DType::int64 && upper >= 0 && io::largest_as_unsigned(static_cast<const std::int64_t*>(a.raw()), a.size()) < static_cast<std::uint64_t>(upper))
    return;
  visit_dtype(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* p = static_cast<const T*>(a.raw());
    const std::size_t n = a.size();
    for (std::size_t i = 0; i < n; ++i) {
      const auto v = static_cast<std::int64_t>(p[i]);
      if (v < 0 || v >= upper || (std::is_unsigned_v<T> && static_cast<std::uint64_t>(p[i]) >= static_cast<std::uint64_t>(upper)))
        bad(what + ": index " + std::to_string(static_cast<long long>(v)) + " at position " +
            std::to_string(i) + " is outside [0, " + std::to_string(upper) + ")");
    }
  });
}

// Offsets must start at 0, never decrease and end at `total`.
void check_offsets(const NDArray& offsets, std::size_t total, const std::string& what) {
  if (offsets.dtype() != DType::int64 || offsets.ndim() != 1 || offsets.size() == 0)
    bad(what + ": offsets must be a non-empty 1-D int64 array");
  const std::int64_t* o = offsets.data<const std::int64_t>();
  if (o[0] != 0) bad(what + ": offsets must start at 0");
  for (std::size_t i = 1; i < offsets.size(); ++i)
    if (o[i] < o[i - 1]) bad(what + ": offsets decrease at position " + std::to_string(i));
  if (static_cast<std::size_t>(o[offsets.size() - 1]) != total)
    bad(what + ": last offset " + std::to_string(o[offsets.size() - 1]) + " does not match " +
        std::to_string(total) + " entries");
}

}  // namespace

CellBlock CellBlock::rectangular(std::string type, NDArray connectivity) {
  CellBlock b;
  b.type = std::move(type);
  b.connectivity = std::move(connectivity);
  return b;
}

CellBlock CellBlock::polygons(NDArray offsets, NDArray indices) {
  CellBlock b;
  b.type = "polygon";
  b.offsets = std::move(offsets);
  b.indices = std::move(indices);
  b.ragged = true;
  return b;
}

CellBlock CellBlock::polyhedra(NDArray offsets, NDArray face_offsets, NDArray indices) {
  CellBlock b;
  b.type = "polyhedron";
  b.offsets = std::move(offsets);
  b.face_offsets = std::move(face_offsets);
  b.indices = std::move(indices);
  b.ragged = true;
  return b;
}

std::size_t CellBlock::size() const {
  if (ragged) return offsets.size() == 0 ? 0 : offsets.size() - 1;
  return connectivity.dim(0);
}

std::int64_t CellBlock::nodes_per_cell() const {
  return ragged ? -1 : static_cast<std::int64_t>(connectivity.ndim() == 2 ? connectivity.dim(1) : 1);
}

const char* region_kind_name(RegionKind kind) {
  switch (kind) {
    case RegionKind::point: return "point";
    case RegionKind::cell: return "cell";
    case RegionKind::side: break;
  }
  return "side";
}

RegionKind region_kind_from_name(const std::string& name) {
  if (name == "point") return RegionKind::point;
  if (name == "cell") return RegionKind::cell;
  if (name == "side") return RegionKind::side;
  bad("unknown region kind '" + name + "' (expected point, cell or side)");
}

namespace {

// Whether p[0..n) rises strictly, looked over in `threads` ranges for a long one.
bool rises_strictly(const std::int64_t* p, std::size_t n, unsigned threads) {
  constexpr std::size_t kPerRange = std::size_t{1} << 18;
  const std::size_t ranges = std::max<std::size_t>(1, std::min<std::size_t>(threads, n / kPerRange));
  std::vector<char> rises(ranges, 0);
  parallel_for(ranges, static_cast<unsigned>(ranges), [&](std::size_t r) {
    const std::size_t from = n * r / ranges, to = std::min(n, n * (r + 1) / ranges + 1);  // + 1: the seam
    rises[r] = std::adjacent_find(p + from, p + to, [](auto a, auto b) { return !(a < b); }) == p + to;
  });
  return std::all_of(rises.begin(), rises.end(), [](char c) { return c != 0; });
}

}  // namespace

void Region::canonicalize(unsigned threads) {
  if (entries.dtype() != DType::int64) entries = entries.as_dtype(DType::int64);
  if (kind == RegionKind::side) {
    if (entries.ndim() != 2 || entries.dim(1) != 2)
      bad("region '" + name + "': side entries must have shape (n, 2)");
    const std::size_t n = entries.dim(0);
    auto* p = entries.data<std::int64_t>();
    bool canonical = true;  // checked in place: a sorted region (the usual case) is not copied
    for (std::size_t i = 1; i < n && canonical; ++i)
      canonical = std::pair(p[2 * i - 2], p[2 * i - 1]) < std::pair(p[2 * i], p[2 * i + 1]);
    if (canonical) return;
    std::vector<std::pair<std::int64_t, std::int64_t>> pairs(n);
    for (std::size_t i = 0; i < n; ++i) pairs[i] = {p[2 * i], p[2 * i + 1]};
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
    NDArray out = NDArray::uninit(DType::int64, {pairs.size(), 2});
    auto* q = out.data<std::int64_t>();
    for (std::size_t i = 0; i < pairs.size(); ++i) q[2 * i] = pairs[i].first, q[2 * i + 1] = pairs[i].second;
    entries = std::move(out);
    return;
  }
  if (entries.ndim() != 1) bad("region '" + name + "': entries must be 1-D");
  auto* p = entries.data<std::int64_t>();
  const std::size_t n = entries.size();
  if (rises_strictly(p, n, threads)) return;
  NDArray out = entries.copy();  // never reorder a buffer the caller may share
  auto* q = out.data<std::int64_t>();
  std::sort(q, q + n);
  const auto m = static_cast<std::size_t>(std::unique(q, q + n) - q);
  if (m == n) {
    entries = std::move(out);
    return;
  }
  NDArray exact = NDArray::uninit(DType::int64, {m});
  std::copy(q, q + m, exact.data<std::int64_t>());
  entries = std::move(exact);
}

std::size_t Mesh::num_cells() const {
  std::size_t n = 0;
  for (const auto& b : cells) n += b.size();
  return n;
}

std::vector<std::int64_t> block_bases_of_sizes(const std::vector<std::size_t>& sizes) {
  std::vector<std::int64_t> bases(sizes.size() + 1, 0);
  for (std::size_t i = 0; i < sizes.size(); ++i) bases[i + 1] = bases[i] + static_cast<std::int64_t>(sizes[i]);
  return bases;
}

std::vector<std::int64_t> block_bases(const std::vector<CellBlock>& cells) {
  std::vector<std::size_t> sizes;
  sizes.reserve(cells.size());
  for (const auto& b : cells) sizes.push_back(b.size());
  return block_bases_of_sizes(sizes);
}

void Mesh::validate() const {
  if (points.ndim() != 2) bad("points: expected a 2-D (n, dim) array");
  if (points.dim(1) != 2 && points.dim(1) != 3)
    bad("points: expected 2 or 3 coordinates per point, found " + std::to_string(points.dim(1)));
  if (!dtype_is_float(points.dtype())) bad("points: expected a float array, found " + std::string(dtype_name(points.dtype())));
  const auto npoints = static_cast<std::int64_t>(num_points());

  for (std::size_t i = 0; i < cells.size(); ++i) {
    const CellBlock& b = cells[i];
    const std::string what = "cells[" + std::to_string(i) + "] (" + b.type + ")";
    const auto info = find_cell_type(b.type);
    if (!info) bad(what + ": unknown cell type '" + b.type + "'");
    if (b.ragged) {
      if (info->num_nodes != -1) bad(what + ": only polygon and polyhedron blocks may be ragged");
      if (!is_integer(b.indices.dtype()) || b.indices.ndim() != 1) bad(what + ": indices must be a 1-D integer array");
      if (info->dim == 3) {
        check_offsets(b.face_offsets, b.indices.size(), what + " face_offsets");
        check_offsets(b.offsets, b.face_offsets.size() - 1, what + " offsets");
      } else {
        check_offsets(b.offsets, b.indices.size(), what + " offsets");
      }
      check_index_range(b.indices, npoints, what);
      continue;
    }
    if (!is_integer(b.connectivity.dtype())) bad(what + ": connectivity must be an integer array");
    if (b.connectivity.ndim() != 2) bad(what + ": connectivity must be a 2-D (cells, nodes) array");
    if (info->num_nodes > 0 && b.connectivity.dim(1) != static_cast<std::size_t>(info->num_nodes))
      bad(what + ": expected " + std::to_string(info->num_nodes) + " nodes per cell, found " +
          std::to_string(b.connectivity.dim(1)));
    check_index_range(b.connectivity, npoints, what);
  }

  for (const auto& [name, a] : point_data)
    if (a.ndim() == 0 || a.dim(0) != num_points())
      bad("point_data['" + name + "']: expected " + std::to_string(num_points()) + " rows, found " +
          std::to_string(a.ndim() ? a.dim(0) : 0));
  for (const auto& [name, list] : cell_data) {
    if (list.size() != cells.size())
      bad("cell_data['" + name + "']: expected one array per cell block (" + std::to_string(cells.size()) +
          "), found " + std::to_string(list.size()));
    for (std::size_t i = 0; i < list.size(); ++i)
      if (list[i].ndim() == 0 || list[i].dim(0) != cells[i].size())
        bad("cell_data['" + name + "'][" + std::to_string(i) + "]: expected " + std::to_string(cells[i].size()) +
            " rows, found " + std::to_string(list[i].ndim() ? list[i].dim(0) : 0));
  }

  const auto bases = block_bases(cells);
  for (const Region& r : regions) {
    const std::string what = "region '" + r.name + "'";
    if (!is_integer(r.entries.dtype())) bad(what + ": entries must be integers");
    if (r.kind == RegionKind::side) {
      if (r.entries.ndim() != 2 || r.entries.dim(1) != 2) bad(what + ": side entries must have shape (n, 2)");
      for (std::size_t k = 0; k < r.entries.dim(0); ++k) {
        const std::int64_t cell = r.entries.value_as_int64(2 * k), facet = r.entries.value_as_int64(2 * k + 1);
        if (cell < 0 || cell >= bases.back()) bad(what + ": cell " + std::to_string(cell) + " out of range");
        const auto block = static_cast<std::size_t>(std::upper_bound(bases.begin(), bases.end(), cell) - bases.begin() - 1);
        const auto nf = static_cast<std::int64_t>(cell_facets(cells[block].type).size());
        if (facet < 0 || facet >= nf)
          bad(what + ": facet " + std::to_string(facet) + " of cell " + std::to_string(cell) + " (" +
              cells[block].type + ") is outside [0, " + std::to_string(nf) + ")");
      }
    } else {
      if (r.entries.ndim() != 1) bad(what + ": entries must be 1-D");
      check_index_range(r.entries, r.kind == RegionKind::point ? npoints : bases.back(), what);
    }
  }
}

}  // namespace meshioplusplus

namespace meshioplusplus {

std::string summary(const Mesh& mesh) {
  // meshio's Mesh.__repr__ layout, line for line: points, cells per block (polygons and
  // VTK_LAGRANGE_* with their node count), then the names of point sets, cell sets, point,
  // cell and field data. Side regions (which meshio has not) follow the cell sets.
  auto join = [](const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names) out.append(out.empty() ? "" : ", ").append(n);
    return out;
  };
  auto keys = [](const auto& map) {
    std::vector<std::string> out;
    for (const auto& kv : map) out.push_back(kv.first);
    return out;
  };
  auto regions_of = [&](RegionKind kind) {
    std::vector<std::string> out;
    for (const auto& r : mesh.regions)
      if (r.kind == kind) out.push_back(r.name);
    return out;
  };
  std::string out = "<meshio++ mesh object>\n";
  out += "  Number of points: " + std::to_string(mesh.num_points()) + "\n";
  if (mesh.cells.empty()) {
    out += "  No cells.\n";
  } else {
    out += "  Number of cells:\n";
    for (const auto& b : mesh.cells) {
      std::string name = b.type;
      const bool counted = b.type == "polygon" || b.type.rfind("VTK_LAGRANGE_", 0) == 0;
      if (counted && b.nodes_per_cell() >= 0) name += "(" + std::to_string(b.nodes_per_cell()) + ")";
      out += "    " + name + ": " + std::to_string(b.size()) + "\n";
    }
  }
  const std::pair<const char*, std::vector<std::string>> lines[] = {
      {"Point sets", regions_of(RegionKind::point)}, {"Cell sets", regions_of(RegionKind::cell)},
      {"Side sets", regions_of(RegionKind::side)},   {"Point data", keys(mesh.point_data)},
      {"Cell data", keys(mesh.cell_data)},           {"Field data", keys(mesh.field_data)},
  };
  for (const auto& [label, names] : lines)
    if (!names.empty()) out += std::string("  ") + label + ": " + join(names) + "\n";
  return out;
}

}  // namespace meshioplusplus
