// meshio++ core I/O: fast text output for the ASCII writers.
//
// TextWriter appends numbers with std::to_chars into a 1 MiB buffer and flushes it to an
// AtomicFile (or a string, for a text compressed whole), so writers never go through
// iostreams or printf on the hot path. FloatFormat parses meshio's float_fmt keyword
// (".16e", ".6f", "g", ...) once; the default (shortest) writes the shortest string that
// reads back to the same value. Whole arrays go out through array_writer.hpp.
#pragma once

#include <charconv>
#include <cstdint>
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

class TextWriter {
 public:
  explicit TextWriter(AtomicFile& file, std::size_t capacity = 1 << 20) : file_(&file) { buf_.reserve(capacity + 512); cap_ = capacity; }
  // Into memory instead (a text compressed as a whole afterwards: Netgen's .vol.gz).
  explicit TextWriter(std::string& memory, std::size_t capacity = 1 << 20) : memory_(&memory) {
    buf_.reserve(capacity + 512);
    cap_ = capacity;
  }
  ~TextWriter() = default;

  TextWriter& str(std::string_view s) {
    if (s.size() > 256) {
      flush();
      sink(s);
      return *this;
    }
    buf_.append(s);
    maybe_flush();
    return *this;
  }
  TextWriter& ch(char c) { buf_.push_back(c); maybe_flush(); return *this; }
  template <class T> TextWriter& integer(T v) {
    char tmp[24];
    auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
    buf_.append(tmp, static_cast<std::size_t>(r.ptr - tmp));
    maybe_flush();
    return *this;
  }
  // double or float: the shortest string that reads back to the same value of that type,
  // or the FloatFormat's fixed style and precision.
  template <class T> TextWriter& real(T v, const FloatFormat& f) {
    static_assert(std::is_floating_point_v<T>);
    char tmp[400];  // fixed notation of 1e308 needs ~310 chars
    auto r = f.shortest ? std::to_chars(tmp, tmp + sizeof tmp, v)
                        : std::to_chars(tmp, tmp + sizeof tmp, v, f.style, f.precision);
    if (f.shortest && f.max_width > 0 && r.ptr - tmp > f.max_width) r.ptr = fit(tmp, sizeof tmp, static_cast<double>(v), f.max_width);
    buf_.append(tmp, static_cast<std::size_t>(r.ptr - tmp));
    maybe_flush();
    return *this;
  }
  // Raw bytes (binary sections of mixed files): large blocks bypass the buffer.
  TextWriter& bytes(const void* data, std::size_t n) {
    if (n > 4096) {
      flush();
      sink(std::string_view(static_cast<const char*>(data), n));
      return *this;
    }
    buf_.append(static_cast<const char*>(data), n);
    maybe_flush();
    return *this;
  }
  void flush() {
    if (!buf_.empty()) sink(buf_);
    buf_.clear();
  }

 private:
  // `v` in scientific notation with the most digits that fit in `width` characters.
  static char* fit(char* out, std::size_t size, double v, int width);
  void maybe_flush() {
    if (buf_.size() >= cap_) flush();
  }
  void sink(std::string_view s) {
    if (file_) file_->write(s);
    else memory_->append(s);
  }
  AtomicFile* file_ = nullptr;
  std::string* memory_ = nullptr;
  std::string buf_;
  std::size_t cap_;
};

}  // namespace meshioplusplus::io
