// meshio++ core I/O: long runs of text rows (node and element lines) formatted on several
// threads and written in order.
//
// write_rows(w, rows, threads, format) cuts [0, rows) into chunks of kTextChunkRows rows,
// formats up to `threads` chunks at a time, each through its own TextWriter onto its own
// string (format(chunk_writer, first, last) writes rows [first, last)), and hands the
// strings to `w` in order. The bytes never depend on the thread count; the memory held at
// once is `threads` chunks (a few MB), never the whole text. One thread, or rows that fit
// one chunk, are formatted straight into `w`.
//
// The chunk strings are kept from call to call on the calling thread (thread_local): fresh
// memory costs a page fault per page, dear in a virtual machine (docs/benchmarks.md), and
// a writer calls this for the nodes, every cell block and every set. What stays allocated
// is `threads` strings of a chunk's size; one grown past kKeepChunkBytes is released.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "core/io/text_writer.hpp"
#include "core/parallel.hpp"

namespace meshioplusplus::io {

inline constexpr std::size_t kTextChunkRows = std::size_t{1} << 15;
inline constexpr std::size_t kKeepChunkBytes = std::size_t{1} << 24;

// The calling thread's chunk strings (format must not call write_rows itself).
inline std::vector<std::string>& chunk_strings() {
  static thread_local std::vector<std::string> strings;
  return strings;
}

template <class F>
void write_rows(TextWriter& w, std::size_t rows, unsigned threads, F&& format) {
  threads = std::max(1u, threads);
  if (threads == 1 || rows <= kTextChunkRows) {
    format(w, std::size_t{0}, rows);
    return;
  }
  const std::size_t chunks = (rows + kTextChunkRows - 1) / kTextChunkRows;
  const std::size_t slots = std::min<std::size_t>(threads, chunks);
  std::vector<std::string>& text = chunk_strings();
  text.resize(std::max(text.size(), slots));
  for (std::size_t first = 0; first < chunks; first += slots) {
    const std::size_t batch = std::min(slots, chunks - first);
    parallel_for(batch, threads, [&](std::size_t t) {
      const std::size_t r0 = (first + t) * kTextChunkRows, r1 = std::min(rows, r0 + kTextChunkRows);
      std::string mine;  // on this thread's stack while it grows: the string objects in
      mine.swap(text[t]);  // `text` share cache lines, which every append would contend for
      mine.clear();
      {
        TextWriter chunk(mine);
        format(chunk, r0, r1);
      }  // gone: `mine` holds what it wrote
      text[t].swap(mine);
    });
    for (std::size_t t = 0; t < batch; ++t) w.str(text[t]);
  }
  for (std::string& t : text)
    if (t.capacity() > kKeepChunkBytes) std::string().swap(t);
}

}  // namespace meshioplusplus::io
