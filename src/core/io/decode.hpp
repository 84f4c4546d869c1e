// meshio++ core I/O: binary sections decoded straight into their final arrays, in one pass.
//
// decode_values() copies n values of T from file bytes into the output, swapping each
// value's bytes on the way when the file's byte order is not the host's (one loop over
// the data that the compiler vectorises, instead of a memcpy followed by an in-place
// swap). decode_indices() turns file integers I (1-based or `base`-based, in either byte
// order) into 0-based int64 and returns the largest of them taken as unsigned, so one
// comparison against the point count afterwards checks the whole range (an index below
// `base` wraps to a huge value). Both run on disjoint ranges from several threads
// (parallel_ranges in core/parallel.hpp). Callers bound `src` first (Cursor::need / take).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "core/cpu_features.hpp"
#include "core/io/byteorder.hpp"

namespace meshioplusplus::io {

// `v` with its bytes reversed (byteswap_inplace on one value: the width is a constant, so
// the switch folds away and this is one bswap instruction).
template <class T> [[gnu::always_inline]] inline T swapped(T v) {
  if constexpr (sizeof(T) > 1) byteswap_inplace(&v, 1, sizeof(T));
  return v;
}

// The value of T stored at `p` (unaligned), byte-swapped when `Swap`.
template <class T, bool Swap> [[gnu::always_inline]] inline T load_as(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  if constexpr (Swap) v = swapped(v);
  return v;
}

template <class T> void decode_values(T* out, const char* src, std::size_t n, bool swap) {
  if constexpr (sizeof(T) == 1) {
    swap = false;
  } else if (swap) {
    // Integers of T's width carry the swap (a float swap through integers vectorises).
    using U = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint16_t>>;
    static_assert(sizeof(T) == sizeof(U));
    auto* dst = reinterpret_cast<unsigned char*>(out);
    for (std::size_t i = 0; i < n; ++i) {
      const U u = load_as<U, true>(src + i * sizeof(T));
      std::memcpy(dst + i * sizeof(T), &u, sizeof u);
    }
    return;
  }
  if (n) std::memcpy(out, src, n * sizeof(T));
}

template <class I, bool Swap> [[gnu::always_inline]] inline std::uint64_t decode_indices_as(std::int64_t* out, const char* src, std::size_t n, std::int64_t base) {
  std::uint64_t top = 0;
  for (std::size_t i = 0; i < n; ++i) {
    // Unsigned arithmetic: no signed overflow whatever the file holds.
    const auto v = static_cast<std::uint64_t>(static_cast<std::int64_t>(load_as<I, Swap>(src + i * sizeof(I)))) - static_cast<std::uint64_t>(base);
    out[i] = static_cast<std::int64_t>(v);
    top = std::max(top, v);
  }
  return top;
}

// int32 and int64 file indices also have an AVX2 build of the loop (decode.cpp, the same C++
// compiled with target("avx2")), taken when the CPU has AVX2 (core/cpu_features.hpp): the
// baseline (SSE2) has no 64-bit compare and no byte shuffle, so it takes one index at a time.
#ifdef MESHIOPP_AVX2_DISPATCH
std::uint64_t decode_int32_indices_avx2(std::int64_t* out, const char* src, std::size_t n, bool swap, std::int64_t base);
std::uint64_t decode_int64_indices_avx2(std::int64_t* out, const char* src, std::size_t n, bool swap, std::int64_t base);
#endif

template <class I> std::uint64_t decode_indices(std::int64_t* out, const char* src, std::size_t n, bool swap, std::int64_t base) {
#ifdef MESHIOPP_AVX2_DISPATCH
  if constexpr (std::is_same_v<I, std::int32_t>)
    if (cpu_has_avx2()) return decode_int32_indices_avx2(out, src, n, swap, base);
  if constexpr (std::is_same_v<I, std::int64_t>)
    if (cpu_has_avx2()) return decode_int64_indices_avx2(out, src, n, swap, base);
#endif
  return swap ? decode_indices_as<I, true>(out, src, n, base) : decode_indices_as<I, false>(out, src, n, base);
}

// The largest of `n` integers taken as unsigned (a negative one, or an unsigned one past
// INT64_MAX, is huge): one pass, one compare per value, for a range check of ids already in
// memory (one comparison with the bound afterwards).
template <class T> [[gnu::always_inline]] inline std::uint64_t largest_as_unsigned(const T* v, std::size_t n) {
  std::uint64_t top = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto x = static_cast<std::uint64_t>(static_cast<std::int64_t>(v[i]));
    top = x > top ? x : top;
  }
  return top;
}
// int64 (every mesh's connectivity): the same loop, with AVX2 where the CPU has it (decode.cpp).
std::uint64_t largest_as_unsigned(const std::int64_t* v, std::size_t n);

}  // namespace meshioplusplus::io
