// meshio++ core: CellCollector, the element rows of a solver deck gathered by cell type and
// turned into cell blocks in file order.
//
// Decks such as Nastran bulk data and I-DEAS universal files list elements one by one, of any
// type in any order, and refer to nodes by label. Each change of type (or node count) in the
// file starts a new run; a run's rows are appended to a GrowableBuffer of their own, which
// grows without copying once it is large. blocks() resolves each run's node labels to
// 0-based positions through a LabelMap in place, and hands the run's buffer over as the
// block's connectivity (uncopied where GrowableBuffer can), so the labels and the blocks are
// never both in memory and global cell numbers follow the file. Each row also keeps the byte
// offset of its record, for the error that names an undefined label: as its distance from
// the row before, a variable-length number (LEB128: one byte up to 126 bytes apart, two up
// to 16382, as a deck's rows nearly always are; a row before the previous one, rare, is
// kept aside whole), so the bookkeeping costs about a byte a row, not a quarter of a
// tetrahedron's connectivity.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

#include "core/growable_buffer.hpp"
#include "core/label_map.hpp"
#include "meshioplusplus/ndarray.hpp"

namespace meshioplusplus {

class CellCollector {
 public:
  struct Run {  // consecutive rows of one type: one cell block
    std::string_view type;
    std::size_t nodes = 0;
    std::size_t first = 0;  // global (file-order) index of the run's first row
    std::size_t count = 0;
    GrowableBuffer labels;  // count * nodes int64 node labels
    GrowableBuffer deltas;  // per row, LEB128: 1 + its byte offset minus the previous row's
                            // (the first row's: minus `base`, itself, so the byte 0x01);
                            // 0: the row is in `far`
    std::size_t base = 0, last = 0;  // byte offsets of the first and of the last row
    std::vector<std::pair<std::size_t, std::size_t>> far;  // (row, offset) of rows before their previous one

    // The byte offset of row `row` of the run's record (the error path: a walk over the run).
    std::size_t offset(std::size_t row) const {
      const auto* d = reinterpret_cast<const unsigned char*>(deltas.data());
      std::size_t at = base;
      auto next_far = far.begin();
      for (std::size_t i = 0; i <= row; ++i) {
        std::uint64_t v = 0;
        for (unsigned shift = 0;; shift += 7) {
          const unsigned char b = *d++;
          v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
          if (!(b & 0x80)) break;
        }
        if (v != 0) {
          at += v - 1;
          continue;
        }
        while (next_far->first != i) ++next_far;
        at = next_far->second;
      }
      return at;
    }
    // Appends the offset of row `count` (the caller counts it).
    void record(std::size_t at) {
      if (count == 0) base = last = at;
      if (at >= last) {
        std::uint64_t v = static_cast<std::uint64_t>(at - last) + 1;
        if (v < 0x80) {
          deltas.push(static_cast<unsigned char>(v));
        } else {
          unsigned char bytes[10];
          std::size_t n = 0;
          for (; v >= 0x80; v >>= 7) bytes[n++] = static_cast<unsigned char>(v | 0x80);
          bytes[n++] = static_cast<unsigned char>(v);
          std::memcpy(deltas.extend(n), bytes, n);
        }
      } else {
        deltas.push(static_cast<unsigned char>(0));
        far.emplace_back(count, at);
      }
      last = at;
    }
  };
  struct Block {
    std::string_view type;
    NDArray connectivity;  // (count, nodes) int64 positions
    std::size_t first;     // global (file-order) index of the block's first row
    std::size_t count;
  };

  // Appends one row of `type` (whose name outlives the collector) with `nodes` nodes, read at
  // byte `offset`; returns where its `nodes` labels are to be written (valid until the next
  // add()).
  std::int64_t* add(std::string_view type, std::size_t nodes, std::size_t offset) {
    if (runs_.empty() || runs_.back().type != type || runs_.back().nodes != nodes) {
      runs_.emplace_back();
      runs_.back().type = type;
      runs_.back().nodes = nodes;
      runs_.back().first = rows_;
    }
    Run& r = runs_.back();
    r.record(offset);
    ++r.count;
    ++rows_;
    return reinterpret_cast<std::int64_t*>(r.labels.extend(nodes * sizeof(std::int64_t)));
  }

  // Appends the rows of `other` (a later piece of the same file, parsed on another thread)
  // after these: its runs move over, its first joining the last one here when both are of
  // one type (those rows copied once, their pages given back as they are copied). `other`
  // is left empty.
  void append(CellCollector&& other) {
    for (Run& r : other.runs_) {
      if (!runs_.empty() && runs_.back().type == r.type && runs_.back().nodes == r.nodes) {
        Run& last = runs_.back();
        last.labels.append_consuming(std::move(r.labels));
        // r's first delta (the byte 0x01: from itself) becomes its distance from last's last row.
        const std::size_t joined = last.count;
        last.record(r.base);
        if (r.count > 1) std::memcpy(last.deltas.extend(r.deltas.size() - 1), r.deltas.data() + 1, r.deltas.size() - 1);
        for (const auto& [row, at] : r.far)
          if (row > 0) last.far.emplace_back(joined + row, at);
        last.last = r.last;
        last.count += r.count;
        r.deltas.clear();
        continue;
      }
      r.first += rows_;
      runs_.push_back(std::move(r));
    }
    rows_ += other.rows_;
    other.runs_.clear();
    other.rows_ = 0;
  }

  std::size_t rows() const { return rows_; }
  bool empty() const { return rows_ == 0; }
  const std::vector<Run>& runs() const { return runs_; }

  // One block per run, in file order, resolving the labels: this takes the rows (a second
  // call is a logic_error). A label `nodes` does not define calls missing(type, label, offset
  // of the row), which is to throw.
  template <class Missing> std::vector<Block> blocks(const LabelMap& nodes, Missing&& missing) {
    if (taken_) throw std::logic_error("CellCollector::blocks: the rows were taken already");
    taken_ = true;
    std::vector<Block> out;
    out.reserve(runs_.size());
    for (Run& r : runs_) {
      auto* labels = r.labels.as<std::int64_t>();
      const std::size_t n = r.count * r.nodes;
      for (std::size_t e = 0; e < n; ++e) {
        const std::int64_t pos = nodes.find(labels[e]);
        if (pos < 0) missing(r.type, labels[e], r.offset(e / r.nodes));
        labels[e] = pos;
      }
      r.deltas.clear();
      std::vector<std::pair<std::size_t, std::size_t>>().swap(r.far);
      out.push_back({r.type, r.labels.take(DType::int64, {r.count, r.nodes}), r.first, r.count});
    }
    return out;
  }

 private:
  std::vector<Run> runs_;
  std::size_t rows_ = 0;
  bool taken_ = false;
};

}  // namespace meshioplusplus
