// meshio++ core: CellCollector, the element rows of a solver deck gathered by cell type and
// turned into cell blocks in file order.
//
// Decks such as Nastran bulk data and I-DEAS universal files list elements one by one, of any
// type in any order, and refer to nodes by label. Rows are appended to one slot per type
// (so a long run of one type is one contiguous array), and each change of type in the file
// starts a new run; blocks() gives one block per run, in file order, with node labels
// resolved to 0-based positions through a LabelMap, so global cell numbers follow the file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/label_map.hpp"
#include "meshioplusplus/ndarray.hpp"

namespace meshioplusplus {

class CellCollector {
 public:
  struct Slot {  // the rows of one cell type, in file order
    std::string_view type;
    std::size_t nodes = 0;
    std::vector<std::int64_t> labels;  // node labels, `nodes` per row
    std::vector<std::size_t> offsets;  // byte offset of each row's record (for errors)
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
    const std::size_t row = s.offsets.size();
    s.offsets.push_back(offset);
    if (runs_.empty() || runs_.back().slot != si) runs_.push_back({si, row, 0});
    ++runs_.back().count;
    ++rows_;
    s.labels.resize(s.labels.size() + nodes);
    return s.labels.data() + row * nodes;
  }

  std::size_t rows() const { return rows_; }
  bool empty() const { return rows_ == 0; }
  const std::vector<Slot>& slots() const { return slots_; }
  const std::vector<Run>& runs() const { return runs_; }

  // One block per run, in file order. A label `nodes` does not define calls
  // missing(type, label, offset of the row), which is to throw.
  template <class Missing> std::vector<Block> blocks(const LabelMap& nodes, Missing&& missing) const {
    std::vector<Block> out;
    out.reserve(runs_.size());
    std::size_t global = 0;
    for (const Run& r : runs_) {
      const Slot& s = slots_[r.slot];
      const std::size_t k = s.nodes;
      NDArray conn = NDArray::uninit(DType::int64, {r.count, k});
      std::int64_t* dst = conn.data<std::int64_t>();
      const std::int64_t* src = s.labels.data() + r.first * k;
      for (std::size_t e = 0; e < r.count * k; ++e) {
        const std::int64_t pos = nodes.find(src[e]);
        if (pos < 0) missing(s.type, src[e], s.offsets[r.first + e / k]);
        dst[e] = pos;
      }
      out.push_back({s.type, std::move(conn), global, r.count});
      global += r.count;
    }
    return out;
  }

 private:
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
};

}  // namespace meshioplusplus
