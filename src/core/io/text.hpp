// meshio++ core I/O: number parsing and a text cursor for the ASCII formats.
//
// parse_number() is the inner primitive (fast_float's contract): it never throws and
// returns the end of the number or nullptr. It wraps std::from_chars (locale-independent,
// and as fast as fast_float in libstdc++ 12), additionally accepting a leading '+'.
//
// TextCursor walks a whole file held in memory (FileBytes) and throws ReadError carrying
// the format, the path, the line and the byte offset, with "expected X, found Y". The line
// number is computed only when an error is raised, so the hot path counts nothing.
// Safe for untrusted input: every read is bounded by the end of the text.
#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "meshioplusplus/errors.hpp"

namespace meshioplusplus::io {

template <class T> const char* parse_number(const char* first, const char* last, T& out) {
  if (first != last && *first == '+') {
    ++first;
    if (first != last && (*first == '+' || *first == '-')) return nullptr;
  }
  std::from_chars_result r;
  if constexpr (std::is_floating_point_v<T>)
    r = std::from_chars(first, last, out, std::chars_format::general);
  else
    r = std::from_chars(first, last, out);
  return r.ec == std::errc{} ? r.ptr : nullptr;
}

inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

class TextCursor {
 public:
  TextCursor(std::string_view text, std::string_view format, std::string_view path)
      : begin_(text.data()), p_(text.data()), end_(text.data() + text.size()), format_(format), path_(path) {}

  bool at_end() const { return p_ == end_; }
  std::size_t offset() const { return static_cast<std::size_t>(p_ - begin_); }
  void seek(std::size_t offset) { p_ = begin_ + offset; }
  const char* ptr() const { return p_; }
  const char* end() const { return end_; }
  std::string_view rest() const { return {p_, static_cast<std::size_t>(end_ - p_)}; }

  void skip_space() {
    while (p_ != end_ && is_space(*p_)) ++p_;
  }
  // Spaces and tabs only: stays on the current line.
  void skip_blank() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\r')) ++p_;
  }
  // The next whitespace-delimited token (empty at the end of the text).
  std::string_view token() {
    skip_space();
    const char* start = p_;
    while (p_ != end_ && !is_space(*p_)) ++p_;
    return {start, static_cast<std::size_t>(p_ - start)};
  }
  // The rest of the current line without its '\n' (and a trailing '\r'); moves past it.
  std::string_view line() {
    const char* start = p_;
    while (p_ != end_ && *p_ != '\n') ++p_;
    std::string_view out(start, static_cast<std::size_t>(p_ - start));
    if (p_ != end_) ++p_;
    if (!out.empty() && out.back() == '\r') out.remove_suffix(1);
    return out;
  }
  // The next line that is not blank, trimmed of surrounding whitespace.
  std::string_view nonblank_line() {
    for (;;) {
      if (at_end()) return {};
      std::string_view l = trim(line());
      if (!l.empty()) return l;
    }
  }

  // The next number, skipping whitespace before it; `what` names it in the error.
  template <class T> T number(std::string_view what) {
    skip_space();
    T out{};
    const char* next = parse_number(p_, end_, out);
    if (!next || (next != end_ && !is_space(*next))) fail_expected(what, p_);
    p_ = next;
    return out;
  }

  // Throws ReadError at byte offset `at` (default: here).
  [[noreturn]] void fail(std::string_view what) const { fail_at(what, p_); }
  [[noreturn]] void fail_at(std::string_view what, const char* at) const {
    throw ReadError(error_message(format_, path_, position(at), what));
  }
  [[noreturn]] void fail_expected(std::string_view expected, const char* at) const {
    const char* stop = at;
    while (stop != end_ && !is_space(*stop) && stop - at < 64) ++stop;
    fail_at(expected_found(expected, std::string_view(at, static_cast<std::size_t>(stop - at))), at);
  }

  Position position(const char* at) const {
    std::int64_t line = 1;
    for (const char* q = begin_; q < at && q < end_; ++q) line += (*q == '\n');
    return {line, static_cast<std::int64_t>(at - begin_)};
  }

  static std::string_view trim(std::string_view s) {
    while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
    return s;
  }

 private:
  const char* begin_;
  const char* p_;
  const char* end_;
  std::string format_;
  std::string path_;
};

}  // namespace meshioplusplus::io
