// meshio++ Medit: what the ASCII and binary halves share: turning parsed sections into a Mesh
// (index checks, medit:ref data, regions) and choosing the references a writer stores.
// Spec: https://github.com/LoicMarechal/libMeshb.
//
// Regions: one cell region per (topological dimension, reference), named
// "medit_ref_<dim>_<ref>" (add_ref_regions, src/core/ref_regions.hpp).
#include <algorithm>
#include <utility>

#include "core/io/cursor.hpp"
#include "core/ref_regions.hpp"
#include "formats/medit/medit_internal.hpp"

namespace meshioplusplus::medit {

namespace {

bool is_int(const NDArray& a) { return !dtype_is_float(a.dtype()); }

}  // namespace

Mesh finish(Parsed&& parsed, std::string_view path, std::string_view bytes, unsigned threads) {
  const io::Cursor cur(bytes, "medit", path);
  if (!parsed.have_vertices) cur.fail_at("expected a Vertices section, found none before the end", bytes.data() + bytes.size());
  const std::size_t n = parsed.points.dim(0);
  for (const auto& b : parsed.blocks) {
    if (b.checked) continue;
    const std::int64_t* c = b.connectivity.data<std::int64_t>();
    const std::size_t total = b.connectivity.size();
    for (std::size_t i = 0; i < total; ++i)
      if (static_cast<std::uint64_t>(c[i]) >= n) {
        const std::size_t k = static_cast<std::size_t>(b.kind->nodes);
        cur.fail_at(std::string(b.kind->keyword) + ": element " + std::to_string(i / k + 1) + " lists vertex " +
                        std::to_string(c[i] + 1) + ", outside 1.." + std::to_string(n),
                    bytes.data() + b.at);
      }
  }

  Mesh m;
  m.points = std::move(parsed.points);
  m.point_data["medit:ref"] = std::move(parsed.point_refs);
  std::vector<NDArray> refs;
  for (auto& b : parsed.blocks) {
    m.cells.push_back(CellBlock::rectangular(std::string(b.kind->type), std::move(b.connectivity)));
    refs.push_back(std::move(b.refs));
  }
  std::vector<const NDArray*> ref_ptrs;
  for (const auto& r : refs) ref_ptrs.push_back(&r);
  add_ref_regions(m, "medit_ref", ref_ptrs, threads);
  if (!refs.empty()) m.cell_data["medit:ref"] = std::move(refs);
  return m;
}

// "medit:ref" when it is integer (its shape is checked); else (cells) gmsh:physical; else
// the first integer array of one value per point / cell in name order (so gmsh:dim_tags,
// two per point, is passed over); else none.
const NDArray* point_refs(const Mesh& mesh) {
  const std::size_t n = mesh.num_points();
  auto it = mesh.point_data.find("medit:ref");
  if (it != mesh.point_data.end() && is_int(it->second)) {
    if (it->second.ndim() != 1 || it->second.dim(0) != n)
      throw WriteError("medit: point data 'medit:ref' must have one value per point");
    return &it->second;
  }
  for (const auto& [name, a] : mesh.point_data)
    if (is_int(a) && a.ndim() == 1 && a.dim(0) == n) return &a;
  return nullptr;
}

const std::vector<NDArray>* cell_refs(const Mesh& mesh) {
  auto it = mesh.cell_data.find("medit:ref");
  if (it != mesh.cell_data.end() && !it->second.empty() && is_int(it->second.front())) return &it->second;
  auto usable = [&](const std::vector<NDArray>& list) {
    bool ok = !list.empty() && list.size() == mesh.cells.size();
    for (std::size_t b = 0; ok && b < list.size(); ++b)
      ok = is_int(list[b]) && list[b].ndim() == 1 && list[b].dim(0) == mesh.cells[b].size();
    return ok;
  };
  // A mesh read from Gmsh: meshio's dict order puts gmsh:physical first, so meshio writes
  // the physical tags; name order would pick gmsh:geometrical.
  it = mesh.cell_data.find("gmsh:physical");
  if (it != mesh.cell_data.end() && usable(it->second)) return &it->second;
  for (const auto& [name, list] : mesh.cell_data)
    if (usable(list)) return &list;
  return nullptr;
}

}  // namespace meshioplusplus::medit
