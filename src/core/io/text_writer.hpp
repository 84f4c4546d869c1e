// meshio++ core I/O: fast text output for the ASCII writers.
//
// TextWriter appends numbers with std::to_chars into a 1 MiB buffer and flushes it to an
// AtomicFile, or straight onto the end of a string (a text compressed whole, a chunk
// formatted on another thread), so writers never go through iostreams or printf on the hot
// path. FloatFormat parses meshio's float_fmt keyword
// (".16e", ".6f", "g", ...) once; the default (shortest) writes the shortest string that
// reads back to the same value. Whole arrays go out through array_writer.hpp.
#pragma once

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

#include "core/io/file.hpp"

namespace meshioplusplus::io {

struct FloatFormat {
  bool shortest = true;
  std::chars_format style = std::chars_format::general;
  int precision = 0;
  // With `shortest`: at most this many characters (0 = no limit). A shortest string that is
  // longer falls back to scientific notation with the most digits that fit, for formats
  // whose readers take fixed-width numbers (CalculiX's 20 characters, Nastran's 8 and 16).
  int max_width = 0;
  // Parses "[.P](e|E|f|F|g|G)"; "" means shortest. Throws std::invalid_argument.
  static FloatFormat parse(std::string_view spec);
};

// Numbers are formatted straight into the buffer (room() keeps enough free space at its
// end), never through a temporary and a library copy per token.
class TextWriter {
 public:
  explicit TextWriter(AtomicFile& file, std::size_t capacity = 1 << 20) : file_(&file), buf_(&own_), cap_(capacity) {
    own_.resize(capacity + kSlack);
  }
  // Onto the end of `memory` instead, with no buffer between (a text compressed as a whole
  // afterwards: Netgen's .vol.gz; a chunk of rows: parallel_text.hpp). The string holds
  // exactly what was written after flush() and when the writer goes.
  explicit TextWriter(std::string& memory) : buf_(&memory), used_(memory.size()), cap_(static_cast<std::size_t>(-1)) {}
  ~TextWriter() {
    if (!file_) buf_->resize(used_);
  }
  TextWriter(const TextWriter&) = delete;
  TextWriter& operator=(const TextWriter&) = delete;

  TextWriter& str(std::string_view s) {
    if (s.size() > 256 && file_) {
      flush();
      sink(s);
      return *this;
    }
    std::memcpy(room(s.size()), s.data(), s.size());
    used_ += s.size();
    maybe_flush();
    return *this;
  }
  TextWriter& ch(char c) {
    *room(1) = c;
    ++used_;
    maybe_flush();
    return *this;
  }
  template <class T> TextWriter& integer(T v) {
    char* at = room(24);
    used_ = static_cast<std::size_t>(std::to_chars(at, at + 24, v).ptr - buf_->data());
    maybe_flush();
    return *this;
  }
  // double or float: the shortest string that reads back to the same value of that type,
  // or the FloatFormat's fixed style and precision.
  template <class T> TextWriter& real(T v, const FloatFormat& f) {
    static_assert(std::is_floating_point_v<T>);
    constexpr std::size_t kMost = 400;  // fixed notation of 1e308 needs ~310 chars
    char* at = room(kMost);
    auto r = f.shortest ? std::to_chars(at, at + kMost, v) : std::to_chars(at, at + kMost, v, f.style, f.precision);
    if (f.shortest && f.max_width > 0 && r.ptr - at > f.max_width) r.ptr = fit(at, kMost, static_cast<double>(v), f.max_width);
    used_ = static_cast<std::size_t>(r.ptr - buf_->data());
    maybe_flush();
    return *this;
  }
  // Raw bytes (binary sections of mixed files): large blocks bypass the buffer.
  TextWriter& bytes(const void* data, std::size_t n) {
    if (n > 4096 && file_) {
      flush();
      sink(std::string_view(static_cast<const char*>(data), n));
      return *this;
    }
    std::memcpy(room(n), data, n);
    used_ += n;
    maybe_flush();
    return *this;
  }
  // Hands the buffer to the file; a string target is cut to what was written.
  void flush() {
    if (!file_) {
      buf_->resize(used_);
      return;
    }
    if (used_) sink(std::string_view(buf_->data(), used_));
    used_ = 0;
  }

 private:
  static constexpr std::size_t kSlack = 512;  // past the capacity: the largest token fits
  // `v` in scientific notation with the most digits that fit in `width` characters.
  static char* fit(char* out, std::size_t size, double v, int width);
  // Where `n` more bytes go (the end of what was written), growing the string if needed.
  char* room(std::size_t n) {
    if (buf_->size() - used_ < n) buf_->resize(std::max(used_ + n, 2 * buf_->size()));
    return buf_->data() + used_;
  }
  void maybe_flush() {
    if (used_ >= cap_) flush();
  }
  void sink(std::string_view s) { file_->write(s); }
  AtomicFile* file_ = nullptr;
  std::string own_;     // the buffer before the file
  std::string* buf_;    // own_, or the caller's string; bytes [0, used_) written
  std::size_t used_ = 0;
  std::size_t cap_;
};

}  // namespace meshioplusplus::io
