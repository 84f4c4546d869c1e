// meshio++ core I/O: parsing a long run of text rows on several threads.
//
// Many text formats write one record per line (Gmsh elements, Medit vertices and elements)
// without promising it. parallel_rows() cuts the text at line starts into a few pieces of
// whole rows (one pass counting line breaks), parses each piece on its own thread, then
// checks the cut: each piece must have ended exactly where the next one began (white space
// between them allowed, so rows may be indented). If the cut was wrong, or a piece threw
// ReadError, it returns nullptr and the caller parses the rows sequentially, which also
// gives the first error in file order.
// Pieces write disjoint rows, so the output never depends on the thread count.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <vector>

#include "core/io/cursor.hpp"
#include "core/parallel.hpp"
#include "meshioplusplus/errors.hpp"

namespace meshioplusplus::io {

// Rows below this many are parsed on one thread: the split costs more than it saves.
inline constexpr std::size_t kParallelRowsMin = 1 << 15;

// `parse(start, r0, r1)` parses rows [r0, r1) from `start` and returns the end of the last
// one. Returns the end of all `rows` rows from `p`, or nullptr when the caller must parse
// them sequentially (too few rows or threads, rows not one per line, or a ReadError).
template <class F>
const char* parallel_rows(const char* p, const char* end, std::size_t rows, unsigned threads, F&& parse) {
  if (rows < kParallelRowsMin || threads <= 1) return nullptr;
  while (p != end && is_space(*p)) ++p;
  const std::size_t chunks = std::min<std::size_t>({threads, 16, rows / (kParallelRowsMin / 2)});
  if (chunks <= 1) return nullptr;
  std::vector<std::size_t> first(chunks + 1);
  for (std::size_t j = 0; j <= chunks; ++j) first[j] = rows * j / chunks;
  std::vector<const char*> start(chunks, nullptr), stop(chunks, nullptr);
  start[0] = p;
  const char* q = p;
  std::size_t line = 0, next = 1;
  while (next < chunks && q < end) {
    // Whole blocks that end before the wanted line start are passed by counting their line
    // breaks (a loop the compiler vectorises); the last stretch goes a line at a time.
    constexpr std::size_t kBlock = 4096;
    while (static_cast<std::size_t>(end - q) > kBlock) {
      std::size_t n = 0;
      for (std::size_t i = 0; i < kBlock; ++i) n += q[i] == '\n';
      if (line + n >= first[next]) break;
      line += n;
      q += kBlock;
    }
    const void* nl = std::memchr(q, '\n', static_cast<std::size_t>(end - q));
    if (!nl) break;
    q = static_cast<const char*>(nl) + 1;
    if (++line == first[next]) start[next++] = q;
  }
  if (next != chunks) return nullptr;
  try {
    parallel_for(chunks, static_cast<unsigned>(chunks), [&](std::size_t j) { stop[j] = parse(start[j], first[j], first[j + 1]); });
  } catch (const ReadError&) {
    return nullptr;
  }
  // White space on either side of the cut: rows may be indented (XML lists are).
  auto past_space = [end](const char* s) {
    while (s != end && is_space(*s)) ++s;
    return s;
  };
  for (std::size_t j = 0; j + 1 < chunks; ++j)
    if (past_space(stop[j]) != past_space(start[j + 1])) return nullptr;
  return stop[chunks - 1];
}

// All `rows` rows from the cursor's position, in parallel where parallel_rows() can, else
// sequentially (`parse(start, 0, rows)`); the cursor ends after the last row.
template <class F> void parse_rows(Cursor& cur, std::size_t rows, unsigned threads, F&& parse) {
  const char* p = parallel_rows(cur.ptr(), cur.end(), rows, threads, parse);
  if (!p) p = parse(cur.ptr(), 0, rows);
  cur.set_ptr(p);
}

}  // namespace meshioplusplus::io
