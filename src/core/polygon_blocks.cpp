// meshio++ core: ragged polygon / polyhedron blocks -> meshio's block shapes (see
// polygon_blocks.hpp).
#include "core/polygon_blocks.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace meshioplusplus {

namespace {

// Rows [begin, end) of a cell-data array, copied.
NDArray row_slice(const NDArray& a, std::size_t begin, std::size_t end) {
  NDArray::Shape shape = a.shape();
  if (shape.empty()) return a;
  const std::size_t rows = a.dim(0);
  const std::size_t row_bytes = rows == 0 ? 0 : a.nbytes() / rows;
  shape[0] = end - begin;
  NDArray out = NDArray::uninit(a.dtype(), shape);
  if (end > begin)
    std::memcpy(out.raw(), static_cast<const char*>(a.raw()) + begin * row_bytes, (end - begin) * row_bytes);
  return out;
}

struct Run {
  std::size_t begin, end;  // cells [begin, end) of the source block
  std::int64_t nodes;      // node count of every cell in the run
};

std::vector<Run> polygon_runs(const CellBlock& b) {
  std::vector<Run> runs;
  const auto* off = b.offsets.data<std::int64_t>();
  const std::size_t m = b.size();
  for (std::size_t i = 0; i < m; ++i) {
    const std::int64_t k = off[i + 1] - off[i];
    if (runs.empty() || runs.back().nodes != k) runs.push_back({i, i + 1, k});
    else runs.back().end = i + 1;
  }
  return runs;
}

std::vector<Run> polyhedron_runs(const CellBlock& b) {
  std::vector<Run> runs;
  const auto* off = b.offsets.data<std::int64_t>();
  const auto* foff = b.face_offsets.data<std::int64_t>();
  const auto* idx = b.indices.data<std::int64_t>();
  const std::size_t m = b.size();
  std::vector<std::int64_t> nodes;
  for (std::size_t i = 0; i < m; ++i) {
    nodes.assign(idx + foff[off[i]], idx + foff[off[i + 1]]);
    std::sort(nodes.begin(), nodes.end());
    const auto k = static_cast<std::int64_t>(std::unique(nodes.begin(), nodes.end()) - nodes.begin());
    if (runs.empty() || runs.back().nodes != k) runs.push_back({i, i + 1, k});
    else runs.back().end = i + 1;
  }
  return runs;
}

CellBlock polygon_block(const CellBlock& b, const Run& r) {
  const auto* off = b.offsets.data<std::int64_t>();
  const auto* idx = b.indices.data<std::int64_t>();
  const auto k = static_cast<std::size_t>(r.nodes);
  NDArray conn = NDArray::uninit(DType::int64, {r.end - r.begin, k});
  if (r.end > r.begin && k > 0)
    std::memcpy(conn.raw(), idx + off[r.begin], (r.end - r.begin) * k * sizeof(std::int64_t));
  return CellBlock::rectangular("polygon", std::move(conn));
}

CellBlock polyhedron_block(const CellBlock& b, const Run& r) {
  const auto* off = b.offsets.data<std::int64_t>();
  const auto* foff = b.face_offsets.data<std::int64_t>();
  const auto* idx = b.indices.data<std::int64_t>();
  const std::int64_t f0 = off[r.begin], f1 = off[r.end];
  const std::int64_t i0 = foff[f0], i1 = foff[f1];
  NDArray offsets = NDArray::uninit(DType::int64, {r.end - r.begin + 1});
  NDArray face_offsets = NDArray::uninit(DType::int64, {static_cast<std::size_t>(f1 - f0 + 1)});
  NDArray indices = NDArray::uninit(DType::int64, {static_cast<std::size_t>(i1 - i0)});
  for (std::size_t i = r.begin; i <= r.end; ++i) offsets.data<std::int64_t>()[i - r.begin] = off[i] - f0;
  for (std::int64_t f = f0; f <= f1; ++f) face_offsets.data<std::int64_t>()[f - f0] = foff[f] - i0;
  if (i1 > i0) std::memcpy(indices.raw(), idx + i0, static_cast<std::size_t>(i1 - i0) * sizeof(std::int64_t));
  return CellBlock::polyhedra(std::move(offsets), std::move(face_offsets), std::move(indices));
}

}  // namespace

void split_variable_blocks(Mesh& mesh) {
  bool any = false;
  for (const auto& b : mesh.cells) any = any || b.ragged;
  if (!any) return;
  std::vector<CellBlock> cells;
  std::map<std::string, std::vector<NDArray>> cell_data;
  for (auto& [name, arrays] : mesh.cell_data) cell_data[name];
  for (std::size_t bi = 0; bi < mesh.cells.size(); ++bi) {
    CellBlock& b = mesh.cells[bi];
    const bool polyhedra = b.ragged && b.face_offsets.size() != 0;
    if (!b.ragged) {
      cells.push_back(std::move(b));
      for (auto& [name, arrays] : mesh.cell_data) cell_data[name].push_back(std::move(arrays[bi]));
      continue;
    }
    const std::vector<Run> runs = polyhedra ? polyhedron_runs(b) : polygon_runs(b);
    for (const Run& r : runs) {
      cells.push_back(polyhedra ? polyhedron_block(b, r) : polygon_block(b, r));
      for (auto& [name, arrays] : mesh.cell_data)
        cell_data[name].push_back(runs.size() == 1 ? std::move(arrays[bi]) : row_slice(arrays[bi], r.begin, r.end));
    }
  }
  mesh.cells = std::move(cells);
  mesh.cell_data = std::move(cell_data);
}

}  // namespace meshioplusplus
