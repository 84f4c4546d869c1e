// meshio++ core: cell regions from per-cell integer references (ref_regions.hpp).
//
// The cells are cut into slices (a block's cells, cut at kSliceCells), each counted and then
// filled on its own thread: counting gives each slice its own (dim, ref) -> count map, the
// offsets of slice s in region (dim, ref) are the counts of the slices before it, so the
// entries come out in cell order whatever the thread count. A run of one reference (they
// come in long runs: a volume's cells, a boundary's faces) costs one map lookup, found by
// comparing a few references at a time.
#include "core/ref_regions.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "core/parallel.hpp"
#include "meshioplusplus/cell_types.hpp"

namespace meshioplusplus {

namespace {

using Key = std::pair<int, std::int64_t>;  // (dimension, reference)

constexpr std::size_t kSliceCells = std::size_t{1} << 16;

// The end of the run of r[i]'s value that starts at i: eight references compared at once
// (a loop the compiler vectorizes), then one at a time.
template <class R> std::size_t run_end(const R* r, std::size_t i, std::size_t n) {
  const R v = r[i];
  std::size_t j = i + 1;
  while (j + 8 <= n) {
    bool differs = false;
    for (std::size_t t = 0; t < 8; ++t) differs |= r[j + t] != v;
    if (differs) break;
    j += 8;
  }
  while (j < n && r[j] == v) ++j;
  return j;
}

// Calls f(typed pointer) when `a` is an integer array.
template <class F> void visit_int(const NDArray* a, F&& f) {
  if (!a || dtype_is_float(a->dtype())) return;
  visit_dtype(a->dtype(), [&](auto t) {
    using R = decltype(t);
    if constexpr (std::is_integral_v<R>) f(a->data<R>());
  });
}

struct Slice {
  const NDArray* refs;    // the block's references
  int dim;                // the block's topological dimension
  std::size_t first, n;   // cells [first, first + n) of the block
  std::int64_t base;      // the global index of the block's first cell
  std::map<Key, std::size_t> counts;
  std::map<Key, std::int64_t*> cursor;  // where the slice's entries of each region go
};

// f(key, i, j) for each run [i, j) of one reference in the slice (slice-local cell numbers).
template <class F> void for_each_run(const Slice& s, F&& f) {
  visit_int(s.refs, [&](auto* all) {
    const auto* r = all + s.first;
    for (std::size_t i = 0; i < s.n;) {
      const std::size_t j = run_end(r, i, s.n);
      f(Key{s.dim, static_cast<std::int64_t>(r[i])}, i, j);
      i = j;
    }
  });
}

void count_slice(Slice& s) {
  for_each_run(s, [&](const Key& key, std::size_t i, std::size_t j) { s.counts[key] += j - i; });
}

void fill_slice(Slice& s) {
  const std::int64_t base = s.base + static_cast<std::int64_t>(s.first);
  for_each_run(s, [&](const Key& key, std::size_t i, std::size_t j) {
    std::int64_t*& p = s.cursor[key];
    for (std::size_t k = i; k < j; ++k) *p++ = base + static_cast<std::int64_t>(k);
  });
}

}  // namespace

void add_ref_regions(Mesh& mesh, std::string_view prefix, const std::vector<const NDArray*>& refs, unsigned threads) {
  std::vector<Slice> slices;
  std::int64_t base = 0;
  for (std::size_t b = 0; b < mesh.cells.size(); ++b) {
    const std::size_t m = mesh.cells[b].size();
    if (b < refs.size() && refs[b] && !dtype_is_float(refs[b]->dtype())) {
      const int dim = cell_type(mesh.cells[b].type).dim;
      const std::size_t n = std::min(m, refs[b]->size());  // never past the references
      for (std::size_t first = 0; first < n; first += kSliceCells)
        slices.push_back(Slice{refs[b], dim, first, std::min(kSliceCells, n - first), base, {}, {}});
    }
    base += static_cast<std::int64_t>(m);
  }
  parallel_for(slices.size(), threads, [&](std::size_t s) { count_slice(slices[s]); });

  std::map<Key, std::size_t> totals;
  for (const Slice& s : slices)
    for (const auto& [key, count] : s.counts) totals[key] += count;
  std::map<Key, std::int64_t*> next;  // each region's next free entry, slice after slice
  for (const auto& [key, size] : totals) {
    Region r;
    r.name = std::string(prefix) + "_" + std::to_string(key.first) + "_" + std::to_string(key.second);
    r.kind = RegionKind::cell;
    r.dim = key.first;
    r.tag = key.second >= -2147483647 && key.second <= 2147483647 ? static_cast<int>(key.second) : -1;
    r.entries = NDArray::uninit(DType::int64, {size});
    next[key] = r.entries.data<std::int64_t>();
    mesh.regions.push_back(std::move(r));
  }
  for (Slice& s : slices)
    for (const auto& [key, count] : s.counts) {
      s.cursor[key] = next[key];
      next[key] += count;
    }
  parallel_for(slices.size(), threads, [&](std::size_t s) { fill_slice(slices[s]); });
}

}  // namespace meshioplusplus
