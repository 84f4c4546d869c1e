// meshio++ core: merging points given by value (STL facet corners, WKT ring points) into
// shared points, numbered in the order of their first occurrence.
//
// STL stores every facet's three corners by value, so a closed surface repeats each point
// about six times; WKT repeats every ring's points. meshio merges them with
// numpy.unique(axis=0, return_index=True) and keeps the points in the order of their first
// occurrence; the result is exactly "a vertex takes the id of the first earlier vertex whose
// coordinates compare equal (==), else a new id". Two consequences the weld reproduces:
// -0.0 and +0.0 are one point (the first occurrence's bits are kept), and a vertex with a
// NaN coordinate never equals anything, so each such vertex is its own point.
//
// Implementation: open addressing (linear probing) over a power-of-two table of 32-bit
// point ids, at most half full (doubled and rehashed when it fills); the coordinates live
// once, in the growing point array (a GrowableBuffer, handed over as the mesh's points
// without a copy), and equality is tested there with ==. The hash folds -0.0 into +0.0 and
// mixes all 96 (or 192) bits with a 64x64->128-bit multiply, so planar faces (many equal
// coordinates) do not cluster. Two prefetch stages run ahead of the vertex being merged: 32
// vertices ahead its table slot, 16 ahead the point that slot names, so the random accesses
// overlap instead of stalling one after the other. Linear in the number of vertices; no
// sort.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <algorithm>
#include <type_traits>
#include <vector>

#include "core/growable_buffer.hpp"

namespace meshioplusplus {

template <class T> inline std::uint64_t weld_hash(const T c[3]) {
  T d[3] = {c[0] + T(0), c[1] + T(0), c[2] + T(0)};  // -0.0 + 0.0 == +0.0: one bit pattern per value
  std::uint64_t a, b;
  if constexpr (sizeof(T) == 4) {
    std::uint32_t u[3];
    std::memcpy(u, d, sizeof u);
    a = (std::uint64_t(u[0]) | (std::uint64_t(u[1]) << 32));
    b = u[2];
  } else {
    std::uint64_t u[3];
    std::memcpy(u, d, sizeof u);
    a = u[0] ^ (u[2] << 29 | u[2] >> 35);
    b = u[1] ^ (u[2] * 0x9E3779B97F4A7C15ull);
  }
  const __uint128_t m = static_cast<__uint128_t>(a ^ 0x9E3779B97F4A7C15ull) * (b ^ 0xC2B2AE3D27D4EB4Full);
  return static_cast<std::uint64_t>(m) ^ static_cast<std::uint64_t>(m >> 64);
}

// One hash table of points: ids in a power-of-two table (linear probing, at most half
// full), coordinates in `points`.
template <class T> class WeldTable {
 public:
  static constexpr std::uint32_t kEmpty = 0xFFFFFFFFu;
  static constexpr std::size_t kFull = SIZE_MAX;  // more than 2^32 - 2 points

  explicit WeldTable(std::size_t expected_points) {
    std::size_t cap = 64;
    while (cap < 2 * expected_points) cap <<= 1;
    table_.assign(cap, kEmpty);
    mask_ = cap - 1;
  }
  std::size_t size() const { return count_; }
  // The points' coordinates, 3 T per point, in the order of their ids.
  GrowableBuffer& points() { return points_; }
  void prefetch_slot(std::uint64_t h) const { __builtin_prefetch(&table_[h & mask_]); }
  void prefetch_point(std::uint64_t h) const {
    const std::uint32_t s = table_[h & mask_];
    if (s != kEmpty) __builtin_prefetch(points_.as<T>() + 3 * static_cast<std::size_t>(s));
  }

  // The id of the point equal to c (hash h), added if new; kFull when ids run out.
  std::size_t find_or_add(const T c[3], std::uint64_t h) {
    if (count_ >= kEmpty - 1) return kFull;
    if (c[0] != c[0] || c[1] != c[1] || c[2] != c[2]) return add(c);  // NaN: equal to nothing, not in the table
    std::size_t j = h & mask_;
    for (;;) {
      const std::uint32_t s = table_[j];
      if (s == kEmpty) {
        table_[j] = static_cast<std::uint32_t>(count_);
        const std::size_t id = add(c);
        if (2 * count_ > table_.size()) grow();
        return id;
      }
      const T* q = points_.as<T>() + 3 * static_cast<std::size_t>(s);
      if (q[0] == c[0] && q[1] == c[1] && q[2] == c[2]) return s;
      j = (j + 1) & mask_;
    }
  }

  // Merges vertices [begin, end): ids[i] = point id. Returns false when ids ran out.
  template <class Load> bool run(std::size_t begin, std::size_t end, Load& load, std::int64_t* ids) {
    constexpr std::size_t kAhead = 32, kAhead2 = 16;
    T ring[kAhead][3];
    std::uint64_t hashes[kAhead];
    auto stage = [&](std::size_t i) {
      T* c = ring[i % kAhead];
      load(i, c);
      hashes[i % kAhead] = weld_hash(c);
      prefetch_slot(hashes[i % kAhead]);
    };
    for (std::size_t i = begin; i < end && i < begin + kAhead; ++i) stage(i);
    for (std::size_t i = begin; i < end && i < begin + kAhead2; ++i) prefetch_point(hashes[i % kAhead]);
    for (std::size_t i = begin; i < end; ++i) {
      T c[3];
      std::memcpy(c, ring[i % kAhead], sizeof c);
      const std::uint64_t h = hashes[i % kAhead];
      if (i + kAhead2 < end) prefetch_point(hashes[(i + kAhead2) % kAhead]);
      if (i + kAhead < end) stage(i + kAhead);
      const std::size_t id = find_or_add(c, h);
      if (id == kFull) return false;
      ids[i] = static_cast<std::int64_t>(id);
    }
    return true;
  }

 private:
  std::size_t add(const T c[3]) {
    std::memcpy(points_.extend(3 * sizeof(T)), c, 3 * sizeof(T));
    return count_++;
  }
  void grow() {
    std::vector<std::uint32_t> bigger(table_.size() * 2, kEmpty);
    const std::size_t m = bigger.size() - 1;
    for (std::size_t p = 0; p < count_; ++p) {
      const T* q = points_.as<T>() + 3 * p;
      if (q[0] != q[0] || q[1] != q[1] || q[2] != q[2]) continue;
      std::size_t j = weld_hash(q) & m;
      while (bigger[j] != kEmpty) j = (j + 1) & m;
      bigger[j] = static_cast<std::uint32_t>(p);
    }
    table_.swap(bigger);
    mask_ = m;
  }

  std::vector<std::uint32_t> table_;
  std::size_t mask_ = 0;
  GrowableBuffer points_;
  std::size_t count_ = 0;
};

// Welds `n` vertices of type T (3 coordinates each). `load(i, T out[3])` fetches vertex i.
// Writes the point id of every vertex to ids[0..n) and leaves each point's coordinates
// (those of its first vertex, bit for bit) in `points` (3 T per point); returns the number
// of points, or SIZE_MAX past 2^32 - 2 points (the caller raises ReadError).
//
// One table, on one thread. Welding ranges on several threads needs a table per range and a
// serial merge of the later ranges' points into the first's: on the 2-core VM of
// docs/benchmarks.md that read the skin's binary STL (1.3M facets) in 172-210 ms against 114-160
// ms on one thread, and its peak memory was 1.38x the arrays returned against 1.15x (the
// second table and the points it held twice). The table starts at the size a closed
// surface needs (about one point per six vertices), so such a surface never rehashes.
template <class T, class Load>
std::size_t weld(std::size_t n, Load&& load, std::int64_t* ids, GrowableBuffer& points) {
  static_assert(std::is_floating_point_v<T>);
  WeldTable<T> table(n / 6);
  if (!table.run(0, n, load, ids)) return SIZE_MAX;
  points = std::move(table.points());
  return table.size();
}

}  // namespace meshioplusplus
