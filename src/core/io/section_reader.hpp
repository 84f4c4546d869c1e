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
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "core/io/file.hpp"
#include "core/parallel.hpp"

namespace meshioplusplus::io {

inline constexpr std::size_t kSectionChunkBytes = std::size_t{1} << 19;  // fits a core's L2 cache

inline std::size_t chunk_ranges(std::size_t rows, unsigned threads) {
  constexpr std::size_t kRowsPerRange = std::size_t{1} << 16;
  return std::max<std::size_t>(1, std::min<std::size_t>({threads == 0 ? 1 : threads, 16, rows / kRowsPerRange + 1}));
}

template <class F>
void read_chunks(const FileBytes& file, std::size_t offset, std::size_t rows, std::size_t row_bytes, unsigned threads, F&& decode) {
  if (rows == 0 || row_bytes == 0) return;
  const std::size_t ranges = chunk_ranges(rows, threads);
  const std::size_t chunk = std::max<std::size_t>(1, kSectionChunkBytes / row_bytes);
  parallel_for(ranges, static_cast<unsigned>(ranges), [&](std::size_t r) {
    const std::size_t r0 = rows * r / ranges, r1 = rows * (r + 1) / ranges;
    std::vector<char> buffer(std::min(chunk, r1 - r0) * row_bytes);
    for (std::size_t c0 = r0; c0 < r1; c0 += chunk) {
      const std::size_t n = std::min(chunk, r1 - c0);
      file.copy_out(offset + c0 * row_bytes, n * row_bytes, buffer.data());
      if (!decode(r, c0, n, static_cast<const char*>(buffer.data()))) return;
    }
  });
}

}  // namespace meshioplusplus::io
