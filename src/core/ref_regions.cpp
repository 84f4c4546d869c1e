// meshio++ core: cell regions from per-cell integer references (ref_regions.hpp).
#include "core/ref_regions.hpp"

#include <map>
#include <string>
#include <utility>

#include "meshioplusplus/cell_types.hpp"

namespace meshioplusplus {

namespace {

using Key = std::pair<int, std::int64_t>;  // (dimension, reference)

// Runs of one reference are handled with one map lookup (references come in long runs).
template <class R> void count_refs(const R* r, std::size_t n, int dim, std::map<Key, std::size_t>& counts) {
  std::size_t i = 0;
  while (i < n) {
    std::size_t j = i + 1;
    while (j < n && r[j] == r[i]) ++j;
    counts[{dim, static_cast<std::int64_t>(r[i])}] += j - i;
    i = j;
  }
}

template <class R> void fill_refs(const R* r, std::size_t n, std::int64_t base, int dim, std::map<Key, std::int64_t*>& out) {
  std::size_t i = 0;
  while (i < n) {
    std::size_t j = i + 1;
    while (j < n && r[j] == r[i]) ++j;
    std::int64_t*& p = out[{dim, static_cast<std::int64_t>(r[i])}];
    for (std::size_t k = i; k < j; ++k) *p++ = base + static_cast<std::int64_t>(k);
    i = j;
  }
}

// Calls f(typed pointer) when `a` is an integer array.
template <class F> void visit_int(const NDArray* a, F&& f) {
  if (!a || dtype_is_float(a->dtype())) return;
  visit_dtype(a->dtype(), [&](auto t) {
    using R = decltype(t);
    if constexpr (std::is_integral_v<R>) f(a->data<R>());
  });
}

}  // namespace

void add_ref_regions(Mesh& mesh, std::string_view prefix, const std::vector<const NDArray*>& refs) {
  std::map<Key, std::size_t> counts;
  for (std::size_t b = 0; b < mesh.cells.size() && b < refs.size(); ++b) {
    const int dim = cell_type(mesh.cells[b].type).dim;
    visit_int(refs[b], [&](auto* r) { count_refs(r, refs[b]->size(), dim, counts); });
  }
  std::map<Key, std::int64_t*> cursor;
  for (const auto& [key, size] : counts) {
    Region r;
    r.name = std::string(prefix) + "_" + std::to_string(key.first) + "_" + std::to_string(key.second);
    r.kind = RegionKind::cell;
    r.dim = key.first;
    r.tag = key.second >= -2147483647 && key.second <= 2147483647 ? static_cast<int>(key.second) : -1;
    r.entries = NDArray::uninit(DType::int64, {size});
    cursor[key] = r.entries.data<std::int64_t>();
    mesh.regions.push_back(std::move(r));
  }
  std::int64_t base = 0;
  for (std::size_t b = 0; b < mesh.cells.size(); ++b) {
    if (b < refs.size()) {
      const int dim = cell_type(mesh.cells[b].type).dim;
      visit_int(refs[b], [&](auto* r) { fill_refs(r, refs[b]->size(), base, dim, cursor); });
    }
    base += static_cast<std::int64_t>(mesh.cells[b].size());
  }
}

}  // namespace meshioplusplus
