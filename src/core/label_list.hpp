// meshio++ core: LabelList, the labels a deck gives its entities, in definition order, held
// without memory while they count up by one (1, 2, 3, ...: how nearly every mesher numbers).
//
// A reader keeps every element's label to build the LabelMap that sets and surfaces are
// resolved through, and to name an element in an error. Stored one by one that is 8 bytes
// per element, as much again as a tetrahedron's connectivity's quarter, held until the map
// is built. Here the list is (first, count) until a label breaks the run; from then on it
// is a plain array (the run written out once). LabelMap::build(const LabelList&) maps a
// consecutive list without a table either.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace meshioplusplus {

class LabelList {
 public:
  void push_back(std::int64_t label) {
    if (values_.empty()) {
      if (count_ == 0) {
        first_ = label;
        ++count_;
        return;
      }
      // (unsigned: labels come from files, and no difference of two may overflow)
      const std::int64_t last = static_cast<std::int64_t>(static_cast<std::uint64_t>(first_) + (count_ - 1));
      if (label > last && static_cast<std::uint64_t>(label) - static_cast<std::uint64_t>(last) == 1) {
        ++count_;
        return;
      }
      spill();
    }
    values_.push_back(label);
    ++count_;
  }
  // Appends every label of `other`, in order.
  void append(const LabelList& other) {
    for (std::size_t i = 0; i < other.size(); ++i) push_back(other[i]);
  }
  std::size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  std::int64_t back() const { return (*this)[count_ - 1]; }
  std::int64_t operator[](std::size_t i) const {
    return values_.empty() ? static_cast<std::int64_t>(static_cast<std::uint64_t>(first_) + i) : values_[i];
  }
  // True while the labels are first(), first() + 1, ... (no array behind them).
  bool consecutive() const { return values_.empty(); }
  std::int64_t first() const { return first_; }
  // The labels as an array (written out now if they were consecutive).
  const std::vector<std::int64_t>& values() {
    if (values_.empty() && count_ > 0) spill();
    return values_;
  }
  void clear() {
    std::vector<std::int64_t>().swap(values_);
    count_ = 0;
  }

 private:
  void spill() {
    values_.reserve(count_ + count_ / 2 + 16);
    for (std::size_t i = 0; i < count_; ++i) values_.push_back(static_cast<std::int64_t>(static_cast<std::uint64_t>(first_) + i));
  }

  std::int64_t first_ = 0;
  std::size_t count_ = 0;
  std::vector<std::int64_t> values_;
};

}  // namespace meshioplusplus
