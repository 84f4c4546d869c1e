// meshio++ STL: merging the repeated corners of STL facets into shared points.
//
// STL stores every facet's three corners by value, so a closed surface repeats each point
// about six times. meshio merges them with numpy.unique(axis=0, return_index=True) and
// keeps the points in the order of their first occurrence; the result is exactly "a vertex
// takes the id of the first earlier vertex whose coordinates compare equal (==), else a new
// id". Two consequences the weld reproduces: -0.0 and +0.0 are one point (the first
// occurrence's bits are kept), and a vertex with a NaN coordinate never equals anything, so
// each such vertex is its own point.
//
// Implementation: open addressing over a power-of-two table of slots that carry the
// canonical coordinates (-0.0 folded into +0.0, so equality is bitwise) and the point id,
// at most half full (doubled and rehashed when it fills). The slot of the vertex a few
// places ahead is prefetched, so the random accesses into the table overlap instead of
// stalling one after the other. Linear in the number of vertices; no sort.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace meshioplusplus::stl {

template <class T> struct WeldSlot {
  T c[3];
  std::uint32_t id;  // kEmpty when free
};

template <class T> inline std::uint64_t weld_hash(const T c[3]) {
  if constexpr (sizeof(T) == 4) {
    std::uint32_t b[3];
    std::memcpy(b, c, sizeof b);
    std::uint64_t h = (std::uint64_t(b[0]) | (std::uint64_t(b[1]) << 32)) * 0x9E3779B97F4A7C15ull;
    h ^= std::uint64_t(b[2]) * 0xC2B2AE3D27D4EB4Full;
    return h ^ (h >> 29);
  } else {
    std::uint64_t b[3];
    std::memcpy(b, c, sizeof b);
    std::uint64_t h = b[0] * 0x9E3779B97F4A7C15ull;
    h ^= (b[1] + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
    h ^= (b[2] + 0x165667B19E3779F9ull) * 0xD6E8FEB86659FD93ull;
    return h ^ (h >> 31);
  }
}

// Welds `n` vertices of type T (3 coordinates each). `load(i, T out[3])` fetches vertex i.
// Writes the point id of every vertex to ids[0..n), appends the index of each point's first
// vertex to `first` (so point p's coordinates are vertex first[p]'s), and returns the number
// of points. Point ids are 32-bit: more than 2^32 - 2 distinct points is reported by
// returning SIZE_MAX (the caller raises ReadError).
template <class T, class Load>
std::size_t weld(std::size_t n, Load&& load, std::int64_t* ids, std::vector<std::uint64_t>& first) {
  static_assert(std::is_floating_point_v<T>);
  constexpr std::uint32_t kEmpty = 0xFFFFFFFFu;
  constexpr std::size_t kAhead = 16;
  // A closed triangulated surface has about n / 6 points: start with room for n / 6 at
  // half load and double on demand.
  std::size_t cap = 64;
  while (cap < n / 3) cap <<= 1;
  std::vector<WeldSlot<T>> table(cap);
  for (auto& s : table) s.id = kEmpty;
  std::size_t mask = cap - 1;
  std::size_t count = 0;
  first.clear();

  T ring[kAhead][3];
  std::uint64_t hashes[kAhead];
  auto stage = [&](std::size_t i) {
    T* c = ring[i % kAhead];
    load(i, c);
    for (int k = 0; k < 3; ++k) c[k] = c[k] + T(0);  // -0.0 + 0.0 == +0.0: one bit pattern per value
    hashes[i % kAhead] = weld_hash(c);
    __builtin_prefetch(&table[hashes[i % kAhead] & mask]);
  };
  auto grow = [&] {
    std::vector<WeldSlot<T>> bigger(table.size() * 2);
    for (auto& s : bigger) s.id = kEmpty;
    const std::size_t m = bigger.size() - 1;
    for (const auto& s : table) {
      if (s.id == kEmpty) continue;
      std::size_t j = weld_hash(s.c) & m;
      while (bigger[j].id != kEmpty) j = (j + 1) & m;
      bigger[j] = s;
    }
    table.swap(bigger);
    mask = m;
  };

  for (std::size_t i = 0; i < n && i < kAhead; ++i) stage(i);
  for (std::size_t i = 0; i < n; ++i) {
    T c[3];
    std::memcpy(c, ring[i % kAhead], sizeof c);
    const std::uint64_t h = hashes[i % kAhead];
    if (i + kAhead < n) stage(i + kAhead);
    if (c[0] != c[0] || c[1] != c[1] || c[2] != c[2]) {  // NaN: equal to nothing
      if (count >= kEmpty - 1) return SIZE_MAX;
      ids[i] = static_cast<std::int64_t>(count++);
      first.push_back(i);
      continue;
    }
    std::size_t j = h & mask;
    for (;;) {
      WeldSlot<T>& s = table[j];
      if (s.id == kEmpty) {
        if (count >= kEmpty - 1) return SIZE_MAX;
        std::memcpy(s.c, c, sizeof c);
        s.id = static_cast<std::uint32_t>(count);
        ids[i] = static_cast<std::int64_t>(count++);
        first.push_back(i);
        if (count * 2 > table.size()) grow();
        break;
      }
      if (s.c[0] == c[0] && s.c[1] == c[1] && s.c[2] == c[2]) {
        ids[i] = s.id;
        break;
      }
      j = (j + 1) & mask;
    }
  }
  return count;
}

}  // namespace meshioplusplus::stl
