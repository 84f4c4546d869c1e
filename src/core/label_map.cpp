// meshio++ core: LabelMap (see label_map.hpp).
#include "core/label_map.hpp"

#include <algorithm>

namespace meshioplusplus {

LabelMap::BuildResult LabelMap::build(const std::int64_t* labels, std::size_t n) {
  BuildResult out;
  count_ = n;
  table_.clear();
  sorted_.clear();
  min_ = 0, max_ = -1;
  dense_ = true;
  consecutive_ = false;
  if (n == 0) return out;
  min_ = max_ = labels[0];
  bool consecutive = true;
  for (std::size_t i = 1; i < n; ++i) {
    min_ = std::min(min_, labels[i]), max_ = std::max(max_, labels[i]);
    // (unsigned: labels come from files, and no difference of two may overflow)
    consecutive = consecutive && labels[i] > labels[i - 1] &&
                  static_cast<std::uint64_t>(labels[i]) - static_cast<std::uint64_t>(labels[i - 1]) == 1;
  }
  if (consecutive) {  // no duplicates either
    consecutive_ = true;
    return out;
  }
  // Dense when the table is at most a few times the label count (the common case: labels
  // 1..n, perhaps with gaps); unsigned arithmetic keeps the span well defined.
  const auto span = static_cast<std::uint64_t>(max_) - static_cast<std::uint64_t>(min_);
  dense_ = span < 4 * static_cast<std::uint64_t>(n) + 1024;
  if (dense_) {
    table_.assign(static_cast<std::size_t>(span) + 1, -1);
    for (std::size_t i = 0; i < n; ++i) {
      std::int64_t& entry = table_[static_cast<std::size_t>(labels[i] - min_)];
      if (entry >= 0 && out.duplicates++ == 0) out.first_duplicate = labels[i];
      entry = static_cast<std::int64_t>(i);
    }
    return out;
  }
  sorted_.resize(n);
  for (std::size_t i = 0; i < n; ++i) sorted_[i] = {labels[i], static_cast<std::int64_t>(i)};
  std::sort(sorted_.begin(), sorted_.end());
  // Keep the last definition of each label (the largest position among equal labels).
  std::size_t w = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (w > 0 && sorted_[w - 1].first == sorted_[i].first) {
      if (out.duplicates++ == 0) out.first_duplicate = sorted_[i].first;
      sorted_[w - 1] = sorted_[i];
    } else {
      sorted_[w++] = sorted_[i];
    }
  }
  sorted_.resize(w);
  return out;
}

LabelMap::BuildResult LabelMap::build(LabelList& labels) {
  if (!labels.consecutive() || labels.empty()) return build(labels.values());
  table_.clear();
  sorted_.clear();
  dense_ = consecutive_ = true;
  count_ = labels.size();
  min_ = labels.first();
  max_ = labels[labels.size() - 1];
  return {};
}

std::size_t LabelMap::lower_bound(std::int64_t label) const {
  auto it = std::lower_bound(sorted_.begin(), sorted_.end(), label, [](const auto& e, std::int64_t l) { return e.first < l; });
  return static_cast<std::size_t>(it - sorted_.begin());
}

std::int64_t LabelMap::find_sparse(std::int64_t label) const {
  const std::size_t i = lower_bound(label);
  return (i < sorted_.size() && sorted_[i].first == label) ? sorted_[i].second : -1;
}

std::string duplicate_labels_note(const LabelMap::BuildResult& r, const std::string& entity, const std::string& users) {
  if (!r.duplicates) return {};
  return std::to_string(r.duplicates) + " " + entity + " id(s) are defined more than once (" + entity + " " +
         std::to_string(r.first_duplicate) + ", for one); " + users + " use the last definition";
}

}  // namespace meshioplusplus
