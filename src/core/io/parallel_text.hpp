// meshio++ core I/O: long runs of text rows (node and element lines) formatted on several
// threads and written in order.
//
// write_rows(w, rows, threads, format) cuts [0, rows) into chunks of kTextChunkRows rows,
// and `threads` threads take them in order: each formats its chunk through its own
// TextWriter onto its own string (format(chunk_writer, first, last) writes rows
// [first, last)), waits for the chunk before it to be handed to `w`, hands its own, and
// takes the next. So the write into the file (the kernel's copy into the page cache, and
// the writeback it starts) overlaps the formatting of the chunks after it, instead of
// every thread waiting for it. The bytes never depend on the thread count; the memory held
// at once is `threads` chunks (a few MB), never the whole text. One thread, or rows that
// fit one chunk, are formatted straight into `w`.
//
// The chunk strings are kept from call to call on the calling thread (thread_local): fresh
// memory costs a page fault per page, dear in a virtual machine (docs/benchmarks.md), and
// a writer calls this for the nodes, every cell block and every set. What stays allocated
// is `threads` strings of a chunk's size; one grown past kKeepChunkBytes is released.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <mutex>
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
  // Chunks are taken in order; the ones taken and not yet written are a run of at most
  // `slots` consecutive numbers, so chunk i's string text[i % slots] is its own.
  std::mutex turn_mutex;
  std::condition_variable turn_changed;
  std::size_t turn = 0;  // the chunk to be written next
  bool failed = false;   // a chunk failed: the ones waiting for their turn give up
  parallel_for(chunks, static_cast<unsigned>(slots), [&](std::size_t i) {
    try {
      const std::size_t r0 = i * kTextChunkRows, r1 = std::min(rows, r0 + kTextChunkRows);
      std::string& slot = text[i % slots];
      std::string mine;  // on this thread's stack while it grows: the string objects in
                         // `text` share cache lines, which every append would contend for
      {
        // Under the lock: the thread that wrote chunk i - slots put the string back under it,
        // and the chunk counter alone (relaxed) orders nothing between the two threads.
        const std::lock_guard<std::mutex> lock(turn_mutex);
        mine.swap(slot);
      }
      mine.clear();
      {
        TextWriter chunk(mine);
        format(chunk, r0, r1);
      }  // gone: `mine` holds what it wrote
      std::unique_lock<std::mutex> lock(turn_mutex);
      turn_changed.wait(lock, [&] { return turn == i || failed; });
      if (failed) return;
      w.str(mine);  // under the lock, in order; the other threads go on formatting
      slot.swap(mine);
      ++turn;
    } catch (...) {
      {
        const std::lock_guard<std::mutex> lock(turn_mutex);
        failed = true;
      }
      turn_changed.notify_all();
      throw;
    }
    turn_changed.notify_all();
  });
  for (std::string& t : text)
    if (t.capacity() > kKeepChunkBytes) std::string().swap(t);
}

}  // namespace meshioplusplus::io
