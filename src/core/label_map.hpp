// meshio++ core: LabelMap, from the labels a file gives its entities (finite-element node and
// element numbers: positive, sparse, in any order) to their 0-based positions.
//
// Solver decks (Abaqus, Nastran, UNV, Kratos) refer to nodes and elements by label. A map is
// built once per label space from the labels in definition order; dense label ranges use a
// direct table (one load per lookup), sparse ones a sorted (label, position) array (binary
// search), so memory stays proportional to the number of labels whatever their values.
// Labels that count up by one from the first (1..n, the usual numbering) need no table at
// all: a position is the label minus the first, so such a map costs no memory.
// A label defined twice maps to its later definition; build() reports how many were.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/label_list.hpp"

namespace meshioplusplus {

class LabelMap {
 public:
  struct BuildResult {
    std::size_t duplicates = 0;       // labels defined more than once
    std::int64_t first_duplicate = 0;  // one such label (for a message)
  };

  // Positions are 0..n-1 in the order of `labels`.
  BuildResult build(const std::int64_t* labels, std::size_t n);
  BuildResult build(const std::vector<std::int64_t>& labels) { return build(labels.data(), labels.size()); }
  // A consecutive list is mapped without reading (or writing out) its labels.
  BuildResult build(LabelList& labels);

  // The position of `label`, or -1 when it was not defined.
  std::int64_t find(std::int64_t label) const {
    if (dense_) {
      if (label < min_ || label > max_) return -1;
      return slot(label);
    }
    return find_sparse(label);
  }

  // Calls f(position) for every defined label in first, first+step, ..., <= last (step >= 1),
  // in label order. Work is bounded by the number of defined labels, never by the range.
  template <class F> void for_each_in_range(std::int64_t first, std::int64_t last, std::int64_t step, F&& f) const {
    if (step < 1 || last < first) return;
    if (dense_) {
      if (last < min_ || first > max_) return;
      // 128-bit arithmetic: labels and steps come from files, so no sum may overflow.
      const __int128 lo = min_, hi = last < max_ ? last : max_;
      __int128 l = first;
      if (l < lo) l += ((lo - l + step - 1) / step) * step;
      for (; l <= hi; l += step) {
        const std::int64_t p = slot(static_cast<std::int64_t>(l));
        if (p >= 0) f(p);
      }
      return;
    }
    for (std::size_t i = lower_bound(first); i < sorted_.size() && sorted_[i].first <= last; ++i)
      if ((sorted_[i].first - first) % step == 0) f(sorted_[i].second);
  }

  // How many steps for_each_in_range(first, last, step) takes (an upper bound of the calls
  // it makes): what a caller charges to a work budget before running it on hostile ranges.
  std::uint64_t range_steps(std::int64_t first, std::int64_t last, std::int64_t step) const {
    if (step < 1 || last < first) return 0;
    if (dense_) {
      if (last < min_ || first > max_) return 0;
      const __int128 lo = first > min_ ? first : min_, hi = last < max_ ? last : max_;
      return static_cast<std::uint64_t>((hi - lo) / step + 1);
    }
    std::size_t i = lower_bound(first), j = i;
    for (std::size_t n = sorted_.size(), k = n - i; k > 0;) {  // upper bound of last, by halving
      const std::size_t half = k / 2;
      if (sorted_[j + half].first <= last) j += half + 1, k -= half + 1;
      else k = half;
    }
    return j - i;
  }

  std::size_t size() const { return count_; }
  // Bytes of the lookup structure (0 for consecutive labels).
  std::size_t table_bytes() const { return table_.size() * sizeof(table_[0]) + sorted_.size() * sizeof(sorted_[0]); }

 private:
  std::int64_t find_sparse(std::int64_t label) const;
  // Dense: the position of a label in [min_, max_] (-1: not defined).
  std::int64_t slot(std::int64_t label) const {
    return consecutive_ ? label - min_ : table_[static_cast<std::size_t>(label - min_)];
  }
  std::size_t lower_bound(std::int64_t label) const;

  bool dense_ = true;
  bool consecutive_ = false;  // dense, labels min_..max_ in order: no table
  std::int64_t min_ = 0, max_ = -1;
  std::size_t count_ = 0;
  std::vector<std::int64_t> table_;                             // dense: label - min -> position
  std::vector<std::pair<std::int64_t, std::int64_t>> sorted_;  // sparse: (label, position)
};

// The warning a reader gives for labels defined more than once, or "" when none were:
// "<n> <entity> id(s) are defined more than once (<entity> <label>, for one); <users> use
// the last definition".
std::string duplicate_labels_note(const LabelMap::BuildResult& r, const std::string& entity, const std::string& users);

}  // namespace meshioplusplus
