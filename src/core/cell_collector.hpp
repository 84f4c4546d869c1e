// meshio++ core: CellCollector, the element rows of a solver deck gathered by cell type and
// turned into cell blocks in file order.
//
// Decks such as Nastran bulk data and I-DEAS universal files list elements one by one, of any
// type in any order, and refer to nodes by label. Rows are appended to one slot per type
// (in chunks, so a long run of one type is never copied to grow, and each chunk is freed as
// soon as its labels are resolved), and each change of type in the file
// starts a new run; blocks() gives one block per run, in file order, with node labels
// resolved to 0-based positions through a LabelMap, so global cell numbers follow the file.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

#include "core/label_map.hpp"
#include "meshioplusplus/ndarray.hpp"

namespace meshioplusplus {

class CellCollector {
 public:
  struct Chunk {  // consecutive rows of one slot; freed as soon as blocks() has resolved them
    std::unique_ptr<std::int64_t[]> labels;  // node labels, `nodes` per row (uninitialised past `rows`)
    std::unique_ptr<std::size_t[]> offsets;  // byte offset of each row's record (for errors)
    std::size_t capacity = 0, rows = 0;
  };
  struct Slot {  // the rows of one cell type, in file order
    std::string_view type;
    std::size_t nodes = 0;
    std::size_t rows = 0;
    std::vector<Chunk> chunks;
  };
  struct Run {  // consecutive rows of one slot: one cell block
    std::size_t slot, first, count;
  };
  struct Block {
    std::string_view type;
    NDArray connectivity;  // (count, nodes) int64 positions
    std::size_t first;     // global (file-order) index of the block's first row
    std::size_t count;
  };

  // Appends one row of `type` (whose name outlives the collector) with `nodes` nodes, read at
  // byte `offset`; returns where its `nodes` labels are to be written.
  std::int64_t* add(std::string_view type, std::size_t nodes, std::size_t offset) {
    Slot& s = slot(type, nodes);
    const std::size_t si = last_;
    if (s.chunks.empty() || s.chunks.back().rows == s.chunks.back().capacity) grow(s);
    Chunk& c = s.chunks.back();
    c.offsets[c.rows] = offset;
    std::int64_t* out = c.labels.get() + c.rows * s.nodes;
    ++c.rows;
    if (runs_.empty() || runs_.back().slot != si) runs_.push_back({si, s.rows, 0});
    ++runs_.back().count;
    ++s.rows;
    ++rows_;
    return out;
  }

  std::size_t rows() const { return rows_; }
  bool empty() const { return rows_ == 0; }
  const std::vector<Slot>& slots() const { return slots_; }
  const std::vector<Run>& runs() const { return runs_; }

  // One block per run, in file order, resolving the labels: this takes the rows (each chunk
  // is freed once resolved, so the labels and the blocks are never all in memory at once;
  // a second call is a logic_error). A label `nodes` does not define calls
  // missing(type, label, offset of the row), which is to throw.
  template <class Missing> std::vector<Block> blocks(const LabelMap& nodes, Missing&& missing) {
    if (taken_) throw std::logic_error("CellCollector::blocks: the rows were taken already");
    taken_ = true;
    std::vector<Block> out;
    out.reserve(runs_.size());
    // Each slot's runs take its rows in order: one cursor (chunk, row in it) per slot.
    std::vector<std::pair<std::size_t, std::size_t>> cursor(slots_.size(), {0, 0});
    std::size_t global = 0;
    for (const Run& r : runs_) {
      Slot& s = slots_[r.slot];
      const std::size_t k = s.nodes;
      NDArray conn = NDArray::uninit(DType::int64, {r.count, k});
      std::int64_t* dst = conn.data<std::int64_t>();
      auto& [ci, ri] = cursor[r.slot];
      for (std::size_t left = r.count; left > 0;) {
        Chunk& c = s.chunks[ci];
        const std::size_t take = std::min(left, c.rows - ri);
        const std::int64_t* src = c.labels.get() + ri * k;
        for (std::size_t e = 0; e < take * k; ++e) {
          const std::int64_t pos = nodes.find(src[e]);
          if (pos < 0) missing(s.type, src[e], c.offsets[ri + e / k]);
          dst[e] = pos;
        }
        dst += take * k;
        left -= take;
        ri += take;
        if (ri == c.rows) {
          c = Chunk{};  // resolved: freed
          ++ci;
          ri = 0;
        }
      }
      out.push_back({s.type, std::move(conn), global, r.count});
      global += r.count;
    }
    return out;
  }

 private:
  // Chunks double from 64 rows up to about 1 MiB of labels: no reallocation ever copies
  // rows, and a small file allocates little.
  static constexpr std::size_t kFirstChunkRows = 64;
  static constexpr std::size_t kChunkBytes = std::size_t{1} << 20;

  static void grow(Slot& s) {
    const std::size_t row_bytes = std::max<std::size_t>(s.nodes, 1) * sizeof(std::int64_t);
    const std::size_t most = std::max<std::size_t>(kChunkBytes / row_bytes, 1);
    Chunk c;
    c.capacity = std::min(s.chunks.empty() ? kFirstChunkRows : s.chunks.back().capacity * 2, most);
    c.labels.reset(new std::int64_t[c.capacity * s.nodes]);
    c.offsets.reset(new std::size_t[c.capacity]);
    s.chunks.push_back(std::move(c));
  }

  Slot& slot(std::string_view type, std::size_t nodes) {
    if (last_ < slots_.size() && slots_[last_].type == type) return slots_[last_];
    for (std::size_t i = 0; i < slots_.size(); ++i)
      if (slots_[i].type == type) return slots_[last_ = i];
    slots_.push_back({});
    slots_.back().type = type;
    slots_.back().nodes = nodes;
    last_ = slots_.size() - 1;
    return slots_.back();
  }

  std::vector<Slot> slots_;
  std::vector<Run> runs_;
  std::size_t last_ = 0, rows_ = 0;
  bool taken_ = false;
};

}  // namespace meshioplusplus
