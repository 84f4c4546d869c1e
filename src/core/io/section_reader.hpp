// meshio++ core I/O: a binary section of fixed-size records, read from the file with pread
// (FileBytes::copy_out) a chunk at a time into a buffer per thread, and decoded from there.
//
// Why not decode through the mapping: the first touch of each page of a fresh mapping is a
// fault (in a virtual machine a costlier one), ~0.3 ms per MB here even after
// MAP_POPULATE, while pread copies from the page cache at memory speed into a buffer that
// stays in cache (docs/benchmarks.md). Readers that take their large sections this way open
// FileBytes with populate = false.
//
// read_chunks(file, offset, rows, row_bytes, threads, decode) cuts [0, rows) into
// chunk_ranges(rows, threads) contiguous ranges, one per thread, and calls
// decode(range, first_row, n, bytes) for each chunk of a range in order, `bytes` holding the
// n records from row first_row. decode returns false to stop its range (a bad value
// found: the caller records where, per range, and reports the first in file order). The
// caller has bounded [offset, offset + rows * row_bytes) against the file first.
//
// Two shapes every binary reader has are written once on top of it: read_values() (values
// stored as the array holds them: pread straight into the array, byte-swapped in place)
// and read_indices() (file integers to 0-based int64, returning the largest for one range
// check afterwards, as decode_indices does).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/io/byteorder.hpp"
#include "core/io/decode.hpp"
#include "core/io/file.hpp"
#include "core/parallel.hpp"

namespace meshioplusplus::io {

inline constexpr std::size_t kSectionChunkBytes = std::size_t{1} << 19;  // fits a core's L2 cache

inline constexpr std::size_t kMaxChunkRanges = 16;

inline std::size_t chunk_ranges(std::size_t rows, unsigned threads) {
  constexpr std::size_t kRowsPerRange = std::size_t{1} << 16;
  return std::max<std::size_t>(1, std::min<std::size_t>({threads == 0 ? 1 : threads, kMaxChunkRanges, rows / kRowsPerRange + 1}));
}

template <class F>
void read_chunks(const FileBytes& file, std::size_t offset, std::size_t rows, std::size_t row_bytes, unsigned threads, F&& decode) {
  if (rows == 0 || row_bytes == 0) return;
  const std::size_t ranges = chunk_ranges(rows, threads);
  const std::size_t chunk = std::max<std::size_t>(1, kSectionChunkBytes / row_bytes);
  parallel_for(ranges, static_cast<unsigned>(ranges), [&](std::size_t r) {
    const std::size_t r0 = rows * r / ranges, r1 = rows * (r + 1) / ranges;
    const std::unique_ptr<char[]> buffer(new char[std::min(chunk, r1 - r0) * row_bytes]);  // overwritten before read
    for (std::size_t c0 = r0; c0 < r1; c0 += chunk) {
      const std::size_t n = std::min(chunk, r1 - c0);
      file.copy_out(offset + c0 * row_bytes, n * row_bytes, buffer.get());
      if (!decode(r, c0, n, static_cast<const char*>(buffer.get()))) return;
    }
  });
}

// `count` values of `width` bytes at `offset`, read on `threads` threads straight into
// `dst` a chunk at a time and byte-swapped there when `swap`; visit(range, first, n) is
// called on each chunk (values [first, first + n) of `dst`) as soon as it landed, while
// it is still in cache. Chunks of one range come in order; ranges run in parallel
// (range < chunk_ranges(count, threads)).
template <class V>
void read_values(const FileBytes& file, std::size_t offset, std::size_t count, std::size_t width, bool swap, unsigned threads, void* dst,
                 V&& visit) {
  if (count == 0 || width == 0) return;
  char* out = static_cast<char*>(dst);
  const std::size_t ranges = chunk_ranges(count, threads);
  const std::size_t chunk = std::max<std::size_t>(1, kSectionChunkBytes / width);
  parallel_for(ranges, static_cast<unsigned>(ranges), [&](std::size_t r) {
    const std::size_t r0 = count * r / ranges, r1 = count * (r + 1) / ranges;
    for (std::size_t c0 = r0; c0 < r1; c0 += chunk) {
      const std::size_t n = std::min(chunk, r1 - c0);
      file.copy_out(offset + c0 * width, n * width, out + c0 * width);
      if (swap) byteswap_inplace(out + c0 * width, n, width);
      visit(static_cast<unsigned>(r), c0, n);
    }
  });
}

inline void read_values(const FileBytes& file, std::size_t offset, std::size_t count, std::size_t width, bool swap, unsigned threads, void* dst) {
  read_values(file, offset, count, width, swap, threads, dst, [](unsigned, std::size_t, std::size_t) {});
}

// `count` integers I at `offset` (`base`-based, swapped when `swap`) into 0-based int64
// `out`; returns the largest taken as unsigned (decode_indices).
template <class I>
std::uint64_t read_indices(const FileBytes& file, std::size_t offset, std::size_t count, bool swap, std::int64_t base, unsigned threads,
                           std::int64_t* out) {
  std::vector<std::uint64_t> tops(chunk_ranges(count, threads), 0);
  read_chunks(file, offset, count, sizeof(I), threads, [&](std::size_t r, std::size_t i0, std::size_t n, const char* src) {
    tops[r] = std::max(tops[r], decode_indices<I>(out + i0, src, n, swap, base));
    return true;
  });
  return *std::max_element(tops.begin(), tops.end());
}

}  // namespace meshioplusplus::io
