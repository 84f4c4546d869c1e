// meshio++ core I/O: long runs of text rows (node and element lines) formatted on several
// threads and written in order.
//
// write_rows(w, rows, threads, format) cuts [0, rows) into chunks of kTextChunkRows rows,
// formats up to `threads` chunks at a time, each through its own TextWriter into its own
// string (format(chunk_writer, first, last) writes rows [first, last)), and hands the
// strings to `w` in order. The bytes never depend on the thread count; the memory held at
// once is `threads` chunks (a few MB), never the whole text. One thread, or rows that fit
// one chunk, are formatted straight into `w`.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "core/io/text_writer.hpp"
#include "core/parallel.hpp"

namespace meshioplusplus::io {

inline constexpr std::size_t kTextChunkRows = std::size_t{1} << 15;

template <class F>
void write_rows(TextWriter& w, std::size_t rows, unsigned threads, F&& format) {
  threads = std::max(1u, threads);
  if (threads == 1 || rows <= kTextChunkRows) {
    format(w, std::size_t{0}, rows);
    return;
  }
  const std::size_t chunks = (rows + kTextChunkRows - 1) / kTextChunkRows;
  std::vector<std::string> text(std::min<std::size_t>(threads, chunks));
  for (std::size_t first = 0; first < chunks; first += text.size()) {
    const std::size_t batch = std::min(text.size(), chunks - first);
    parallel_for(batch, threads, [&](std::size_t t) {
      const std::size_t r0 = (first + t) * kTextChunkRows, r1 = std::min(rows, r0 + kTextChunkRows);
      text[t].clear();
      TextWriter chunk(text[t], std::size_t{1} << 16);
      format(chunk, r0, r1);
      chunk.flush();
    });
    for (std::size_t t = 0; t < batch; ++t) w.str(text[t]);
  }
}

}  // namespace meshioplusplus::io
