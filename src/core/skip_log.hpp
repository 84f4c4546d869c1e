// meshio++ core: what a tolerant reader passes over, and where (docs/CONTRIBUTING-formats.md:
// skip what is not mesh with a warning naming the keyword and its line).
//
// LineCounter gives the 1-based line of a position in a text, counting on from the position
// asked last, so a reader that asks in file order counts the file once (and nothing on the
// hot path: it is asked only where something is noted). SkipLog keeps one entry per kind of
// thing skipped ("$MATERIAL record", "record GPGROUP") with its count and first line, and
// turns them into one warning each: "skipped <what> (<n> time(s), the first at line <l>):
// <reason>".
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

namespace meshioplusplus {

class LineCounter {
 public:
  explicit LineCounter(const char* begin) : begin_(begin), pos_(begin) {}
  std::size_t line_at(const char* at) {
    if (at < pos_) pos_ = begin_, line_ = 1;
    for (; pos_ < at; ++pos_) line_ += (*pos_ == '\n');
    return line_;
  }

 private:
  const char* begin_;
  const char* pos_;
  std::size_t line_ = 1;
};

class SkipLog {
 public:
  // One more `what` skipped at `line` (the first one's line and reason are kept).
  void add(const std::string& what, std::size_t line, const std::string& reason) {
    auto it = index_.find(what);
    if (it == index_.end()) {
      it = index_.emplace(what, entries_.size()).first;
      entries_.push_back({what, reason, 0, line});
    }
    ++entries_[it->second].count;
  }
  // The warnings, in the order the kinds were first met.
  std::vector<std::string> messages() const {
    std::vector<std::string> out;
    for (const Entry& e : entries_)
      out.push_back("skipped " + e.what + " (" + std::to_string(e.count) + (e.count == 1 ? " time" : " times") + ", the first at line " +
                    std::to_string(e.line) + "): " + e.reason);
    return out;
  }

 private:
  struct Entry {
    std::string what, reason;
    std::size_t count = 0, line = 0;
  };
  std::vector<Entry> entries_;
  std::unordered_map<std::string, std::size_t> index_;
};

}  // namespace meshioplusplus
