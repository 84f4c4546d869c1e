// meshio++ core: meshio's whole-mesh operations (see mesh_ops.hpp).
#include "meshioplusplus/mesh_ops.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "meshioplusplus/cell_types.hpp"

namespace meshioplusplus {

namespace {

bool is_int(const NDArray& a) { return a.dtype() != DType::float32 && a.dtype() != DType::float64; }

std::vector<std::string> split_names(const std::string& key) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t dash = key.find('-', start);
    std::string part = key.substr(start, dash == std::string::npos ? std::string::npos : dash - start);
    if (std::find(out.begin(), out.end(), part) == out.end()) out.push_back(part);
    if (dash == std::string::npos) break;
    start = dash + 1;
  }
  return out;
}

std::vector<std::string> set_names(const std::string& key, const std::vector<std::int64_t>& tags) {
  std::vector<std::string> names = split_names(key);
  if (names.size() == tags.size()) return names;
  names.clear();
  for (auto t : tags) names.push_back("set-" + key + "-" + std::to_string(t));
  return names;
}

NDArray int64_vector(const std::vector<std::int64_t>& v) { return NDArray::from_vector(v, {v.size()}); }

int block_dim(const CellBlock& b) {
  const auto info = find_cell_type(b.type);
  return info ? info->dim : -1;
}

}  // namespace

namespace {

// meshio's join_strings + replace_space: names joined so they split back uniquely.
std::string meshio_joined_name(const std::vector<std::string>& names) {
  auto in_any = [&](char c) {
    for (const auto& n : names)
      if (n.find(c) != std::string::npos) return true;
    return false;
  };
  char join = '-';
  for (char c : {'-', '_', '#', '+', '/'})
    if (!in_any(c)) { join = c; break; }
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) out += (i ? std::string(1, join) : "") + names[i];
  char space = '_';
  for (char c : {'_', '-', '+', 'X', '/', '#'})
    if (out.find(c) == std::string::npos) { space = c; break; }
  std::replace(out.begin(), out.end(), ' ', space);
  return out;
}

void sets_to_int_data_named(Mesh& mesh, bool meshio_writer_names) {
  std::vector<std::string> point_names, cell_names;
  for (const Region& r : mesh.regions) {
    if (r.kind == RegionKind::point) point_names.push_back(r.name);
    if (r.kind == RegionKind::cell) cell_names.push_back(r.name);
  }
  sets_to_int_data(mesh);
  if (!meshio_writer_names) return;
  auto rename = [&](auto& data, const std::vector<std::string>& names) {
    if (names.empty()) return;
    std::string plain;
    for (std::size_t i = 0; i < names.size(); ++i) plain += (i ? "-" : "") + names[i];
    auto node = data.extract(plain);
    if (!node.empty()) {
      node.key() = meshio_joined_name(names);
      data.insert(std::move(node));
    }
  };
  rename(mesh.point_data, point_names);
  rename(mesh.cell_data, cell_names);
}

}  // namespace

Mesh sets_as_data(const Mesh& mesh) {
  Mesh out = mesh;
  sets_to_int_data_named(out, true);
  return out;
}

void sets_to_int_data(Mesh& mesh) {
  std::string point_name, cell_name;
  std::vector<std::int64_t> point_values(mesh.num_points(), -1);
  std::vector<std::int64_t> cell_values(mesh.num_cells(), -1);
  std::int64_t np = 0, nc = 0;
  std::vector<Region> kept;
  for (Region& r : mesh.regions) {
    if (r.kind == RegionKind::point) {
      point_name += (np ? "-" : "") + r.name;
      for (std::size_t i = 0; i < r.entries.size(); ++i) point_values[static_cast<std::size_t>(r.entries.value_as_int64(i))] = np;
      ++np;
    } else if (r.kind == RegionKind::cell) {
      cell_name += (nc ? "-" : "") + r.name;
      for (std::size_t i = 0; i < r.entries.size(); ++i) cell_values[static_cast<std::size_t>(r.entries.value_as_int64(i))] = nc;
      ++nc;
    } else {
      kept.push_back(std::move(r));
    }
  }
  mesh.regions = std::move(kept);
  if (np) mesh.point_data[point_name] = int64_vector(point_values);
  if (nc) {
    const auto bases = block_bases(mesh.cells);
    std::vector<NDArray> per_block;
    for (std::size_t b = 0; b < mesh.cells.size(); ++b)
      per_block.push_back(int64_vector(std::vector<std::int64_t>(cell_values.begin() + bases[b], cell_values.begin() + bases[b + 1])));
    mesh.cell_data[cell_name] = std::move(per_block);
  }
}

void int_data_to_sets(Mesh& mesh) {
  for (auto it = mesh.point_data.begin(); it != mesh.point_data.end();) {
    const NDArray& a = it->second;
    if (!is_int(a) || a.ndim() != 1) { ++it; continue; }
    std::map<std::int64_t, std::vector<std::int64_t>> members;
    for (std::size_t i = 0; i < a.size(); ++i) members[a.value_as_int64(i)].push_back(static_cast<std::int64_t>(i));
    std::vector<std::int64_t> tags;
    for (auto& kv : members) tags.push_back(kv.first);
    const auto names = set_names(it->first, tags);
    std::size_t k = 0;
    for (auto& kv : members) {
      Region r{names[k++], RegionKind::point, -1, -1, int64_vector(kv.second)};
      r.canonicalize();
      mesh.regions.push_back(std::move(r));
    }
    it = mesh.point_data.erase(it);
  }
  const auto bases = block_bases(mesh.cells);
  for (auto it = mesh.cell_data.begin(); it != mesh.cell_data.end();) {
    bool all_int = it->second.size() == mesh.cells.size();
    for (const auto& a : it->second) all_int = all_int && is_int(a) && a.ndim() == 1;
    if (!all_int) { ++it; continue; }
    std::map<std::int64_t, std::vector<std::int64_t>> members;
    for (std::size_t b = 0; b < it->second.size(); ++b)
      for (std::size_t i = 0; i < it->second[b].size(); ++i)
        members[it->second[b].value_as_int64(i)].push_back(bases[b] + static_cast<std::int64_t>(i));
    std::vector<std::int64_t> tags;
    for (auto& kv : members) tags.push_back(kv.first);
    const auto names = set_names(it->first, tags);
    std::size_t k = 0;
    for (auto& kv : members) {
      Region r{names[k++], RegionKind::cell, -1, -1, int64_vector(kv.second)};
      r.canonicalize();
      mesh.regions.push_back(std::move(r));
    }
    it = mesh.cell_data.erase(it);
  }
}

void prune_z_0(Mesh& mesh, double tol) {
  const std::size_t n = mesh.num_points();
  if (n == 0 || mesh.points.ndim() != 2 || mesh.points.dim(1) != 3) return;
  for (std::size_t i = 0; i < n; ++i)
    if (!(std::fabs(mesh.points.value_as_double(3 * i + 2)) < tol)) return;
  NDArray xy = NDArray::uninit(DType::float64, {n, 2});
  double* p = xy.data<double>();
  for (std::size_t i = 0; i < n; ++i) {
    p[2 * i] = mesh.points.value_as_double(3 * i);
    p[2 * i + 1] = mesh.points.value_as_double(3 * i + 1);
  }
  mesh.points = std::move(xy);
}

void remove_lower_dimensional_cells(Mesh& mesh) {
  int max_dim = -1;
  for (const auto& b : mesh.cells) max_dim = std::max(max_dim, block_dim(b));
  const auto bases = block_bases(mesh.cells);
  std::vector<std::int64_t> new_index(static_cast<std::size_t>(bases.back()), -1);
  std::vector<CellBlock> cells;
  std::map<std::string, std::vector<NDArray>> cell_data;
  std::int64_t at = 0;
  for (std::size_t b = 0; b < mesh.cells.size(); ++b) {
    if (block_dim(mesh.cells[b]) != max_dim) continue;
    for (std::int64_t c = bases[b]; c < bases[b + 1]; ++c) new_index[static_cast<std::size_t>(c)] = at++;
    cells.push_back(std::move(mesh.cells[b]));
    for (auto& [name, arrays] : mesh.cell_data)
      if (b < arrays.size()) cell_data[name].push_back(std::move(arrays[b]));
  }
  mesh.cells = std::move(cells);
  mesh.cell_data = std::move(cell_data);
  for (Region& r : mesh.regions) {
    if (r.kind == RegionKind::point) continue;
    const std::size_t width = r.kind == RegionKind::side ? 2 : 1;
    std::vector<std::int64_t> kept;
    for (std::size_t i = 0; i < r.entries.size() / width; ++i) {
      const std::int64_t c = new_index[static_cast<std::size_t>(r.entries.value_as_int64(i * width))];
      if (c < 0) continue;
      kept.push_back(c);
      if (width == 2) kept.push_back(r.entries.value_as_int64(i * width + 1));
    }
    r.entries = width == 2 ? NDArray::from_vector(kept, {kept.size() / 2, 2}) : int64_vector(kept);
  }
}

void remove_orphaned_nodes(Mesh& mesh) {
  const std::size_t n = mesh.num_points();
  std::vector<bool> used(n, false);
  auto each_node = [&](CellBlock& b, auto&& f) {
    NDArray& a = b.ragged ? b.indices : b.connectivity;
    for (std::size_t i = 0; i < a.size(); ++i) f(a, i);
  };
  for (auto& b : mesh.cells) each_node(b, [&](NDArray& a, std::size_t i) { used[static_cast<std::size_t>(a.value_as_int64(i))] = true; });
  std::vector<std::int64_t> new_index(n, -1);
  std::int64_t kept = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (used[i]) new_index[i] = kept++;
  if (static_cast<std::size_t>(kept) == n) return;
  auto take_rows = [&](const NDArray& a) {
    NDArray::Shape shape = a.shape();
    shape[0] = static_cast<std::size_t>(kept);
    NDArray out = NDArray::uninit(a.dtype(), shape);
    const std::size_t row = a.nbytes() / n;
    for (std::size_t i = 0; i < n; ++i)
      if (used[i]) std::memcpy(static_cast<char*>(out.raw()) + static_cast<std::size_t>(new_index[i]) * row, static_cast<const char*>(a.raw()) + i * row, row);
    return out;
  };
  mesh.points = take_rows(mesh.points);
  for (auto& [name, a] : mesh.point_data) a = take_rows(a);
  if (auto it = mesh.point_data.find("GLOBAL_ID"); it != mesh.point_data.end()) {
    std::vector<std::int64_t> ids(static_cast<std::size_t>(kept));
    for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<std::int64_t>(i) + 1;
    it->second = int64_vector(ids);
  }
  for (auto& b : mesh.cells) {
    NDArray& a = b.ragged ? b.indices : b.connectivity;
    NDArray renumbered = NDArray::uninit(DType::int64, a.shape());
    for (std::size_t i = 0; i < a.size(); ++i) renumbered.data<std::int64_t>()[i] = new_index[static_cast<std::size_t>(a.value_as_int64(i))];
    a = std::move(renumbered);
  }
  for (Region& r : mesh.regions) {
    if (r.kind != RegionKind::point) continue;
    std::vector<std::int64_t> e;
    for (std::size_t i = 0; i < r.entries.size(); ++i) {
      const std::int64_t p = new_index[static_cast<std::size_t>(r.entries.value_as_int64(i))];
      if (p >= 0) e.push_back(p);
    }
    r.entries = int64_vector(e);
  }
}

}  // namespace meshioplusplus
