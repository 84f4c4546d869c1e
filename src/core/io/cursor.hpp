// meshio++ core I/O: number parsing and the one input cursor every reader uses.
//
// parse_number() is the inner primitive (fast_float's contract): it never throws and
// returns the end of the number or nullptr. It wraps std::from_chars (locale-independent,
// and as fast as fast_float in libstdc++ 12), additionally accepting a leading '+'.
// parse_uint() is the hot-loop integer path (an inlined digit loop; from_chars is an
// out-of-line call that costs more than the parse of a short index). parse_count() reads a
// count a file declares and applies the one cap every reader shares (kMaxCount).
//
// Cursor walks a whole file held in memory (FileBytes) as text (tokens, lines, numbers)
// or as binary (typed loads in either byte order, bulk array reads), or as a mix of both
// (Gmsh, legacy VTK, Medit and PLY switch between the two inside one file). need() checks
// a declared count against the bytes left before anything is allocated from it: it is the
// one such check of every reader. window() bounds a cursor to part of the file (an XML
// element's text, an appended block) while positions still count from the file's start. Every
// failure throws ReadError carrying the format, the path, the line and the byte offset,
// with "expected X, found Y"; the line number is computed only when an error is raised, so
// the hot path counts nothing. Safe for untrusted input: every read is bounded by the end.
#pragma once

#include <charconv>
#include <cstring>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>

#include "core/io/byteorder.hpp"
#include "core/io/decode.hpp"
#include "core/io/file.hpp"
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

// Opt-in real-number spellings beyond from_chars' (fast_float's contract: strictness is
// chosen per format, never guessed). `fortran_d`: 'D'/'d' as the exponent letter
// (1.5D+03; Fortran output, I-DEAS Universal files). `implicit_exponent`: an exponent sign
// straight after the mantissa means "times ten to" (1.5-3 is 1.5e-3, 1.+4 is 1e4; the
// Nastran bulk-data real, https://nexus.hexagon.com/documentationcenter -> MSC Nastran
// Quick Reference Guide, "Format of Bulk Data Entries").
struct RealSyntax {
  bool fortran_d = false;
  bool implicit_exponent = false;
};

// parse_number for a real with the opted-in spellings: the end of the number, or nullptr.
// The plain spelling takes the from_chars path unchanged; only a number that stops at a
// 'D' or at an exponent sign is re-read from a small rewritten copy (at most 64 chars).
template <class T> const char* parse_real(const char* first, const char* last, T& out, RealSyntax syntax) {
  static_assert(std::is_floating_point_v<T>);
  const char* end = parse_number(first, last, out);
  if (!end || end == last) return end;
  const char c = *end;
  const bool d = syntax.fortran_d && (c == 'D' || c == 'd');
  const bool sign = syntax.implicit_exponent && (c == '+' || c == '-');
  if (!d && !sign) return end;
  char buf[66];
  const std::size_t mant = static_cast<std::size_t>(end - first);
  if (mant > 40) return end;
  std::memcpy(buf, first, mant);
  std::size_t n = mant;
  buf[n++] = 'e';
  const char* q = d ? end + 1 : end;
  // The exponent: an optional sign and at most 5 digits (from_chars does the range check).
  if (q != last && (*q == '+' || *q == '-')) buf[n++] = *q++;
  const char* digits = q;
  while (q != last && static_cast<unsigned char>(*q - '0') < 10 && q - digits < 5) buf[n++] = *q++;
  if (q == digits) return nullptr;  // "1.5D", "1.5-": an exponent without digits
  T v{};
  const char* r = parse_number(buf, buf + n, v);
  if (r != buf + n) return nullptr;
  out = v;
  return q;
}

inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

// Whitespace, then up to 19 decimal digits ending at whitespace or the end of the text.
// Returns false (with `p` at the token) when the token is not such a number.
inline bool parse_uint(const char*& p, const char* end, std::uint64_t& out) {
  while (p != end && is_space(*p)) ++p;
  const char* q = p;
  std::uint64_t v = 0;
  while (q != end && static_cast<unsigned char>(*q - '0') < 10 && q - p < 19) v = v * 10 + static_cast<unsigned>(*q++ - '0');
  if (q == p || (q != end && !is_space(*q))) return false;
  out = v;
  p = q;
  return true;
}

// The largest count a file may declare (2^48 items): far above any real mesh, low enough
// that count * item size cannot overflow 64 bits.
inline constexpr std::uint64_t kMaxCount = std::uint64_t(1) << 48;

// A whole token of decimal digits (optionally '+'-signed) no larger than kMaxCount.
inline bool parse_count(std::string_view token, std::uint64_t& out) {
  const char* e = parse_number(token.data(), token.data() + token.size(), out);
  return e && e == token.data() + token.size() && out <= kMaxCount;
}

// Whether `count` items of at least `min_bytes` each fit in `left` bytes: the one
// "declared count vs bytes left" test (Cursor::need; sources that are not a cursor, such
// as a base64 stream, ask it directly).
inline bool fits(std::uint64_t count, std::size_t min_bytes, std::size_t left) {
  return min_bytes == 0 || count <= left / min_bytes;
}

// Splits the next `sep`-separated field off `rest` (comma-separated decks: Abaqus, Nastran
// free field) and returns it without surrounding blanks; `rest` moves past the separator.
// A field is empty between two separators; `rest` is empty after the last field.
inline std::string_view next_field(std::string_view& rest, char sep = ',') {
  const std::size_t cut = rest.find(sep);
  std::string_view f = rest.substr(0, cut);
  rest = cut == std::string_view::npos ? std::string_view() : rest.substr(cut + 1);
  while (!f.empty() && (f.front() == ' ' || f.front() == '\t' || f.front() == '\r')) f.remove_prefix(1);
  while (!f.empty() && (f.back() == ' ' || f.back() == '\t' || f.back() == '\r')) f.remove_suffix(1);
  return f;
}

// Splits `line` into words at blanks (with `commas`, at commas too: the Itasca grid format's
// optional separators), keeping at most `max` of them in `out`; returns how many words the
// line holds, which may be more than `max`. Nothing is allocated.
inline std::size_t split_words(std::string_view line, std::string_view* out, std::size_t max, bool commas = false) {
  std::size_t n = 0, i = 0;
  const auto sep = [commas](char c) { return is_space(c) || (commas && c == ','); };
  while (i < line.size()) {
    while (i < line.size() && sep(line[i])) ++i;
    const std::size_t b = i;
    while (i < line.size() && !sep(line[i])) ++i;
    if (i > b) {
      if (n < max) out[n] = line.substr(b, i - b);
      ++n;
    }
  }
  return n;
}

// The whole of `field` as a number (parse_number, then nothing may follow).
template <class T> bool parse_field(std::string_view field, T& out) {
  const char* end = field.data() + field.size();
  return !field.empty() && parse_number(field.data(), end, out) == end;
}

class Cursor {
 public:
  Cursor(std::string_view bytes, std::string_view format, std::string_view path)
      : begin_(bytes.data()), p_(bytes.data()), end_(bytes.data() + bytes.size()), format_(format), path_(path) {}

  // --- position ------------------------------------------------------------------------
  bool at_end() const { return p_ == end_; }
  std::size_t offset() const { return static_cast<std::size_t>(p_ - begin_); }
  std::size_t size() const { return static_cast<std::size_t>(end_ - begin_); }
  std::size_t left() const { return static_cast<std::size_t>(end_ - p_); }
  // Moves to byte `offset` of the text; past the end is an error naming `what`.
  void seek(std::size_t offset, std::string_view what = "seek target") {
    if (offset > size()) fail("truncated " + std::string(what) + ": offset " + std::to_string(offset) + " is past the end (" + std::to_string(size()) + " bytes)");
    p_ = begin_ + offset;
  }
  const char* begin() const { return begin_; }
  const char* ptr() const { return p_; }
  const char* end() const { return end_; }
  std::string_view rest() const { return {p_, left()}; }
  const std::string& format() const { return format_; }
  const std::string& path() const { return path_; }
  // Moves to `at`, a pointer into this cursor's text (after a raw-pointer hot loop).
  void set_ptr(const char* at) {
    if (at < begin_ || at > end_) fail("internal: position outside the text");
    p_ = at;
  }
  // A cursor over [from, to) of the same file: same format, path, byte order and line
  // numbering; bounds and at_end() are those of the window.
  Cursor window(const char* from, const char* to) const {
    Cursor c(*this);
    if (from < begin_ || to > end_ || from > to) fail("internal: window outside the text");
    c.p_ = from;
    c.end_ = to;
    return c;
  }

  // --- bounds --------------------------------------------------------------------------
  // A declared `count` of items, each at least `min_bytes` long, must fit in what is
  // left: the one check that comes before every allocation sized by the file.
  void need(std::uint64_t count, std::size_t min_bytes, std::string_view what) const {
    if (!fits(count, min_bytes, left()))
      fail("declared " + std::to_string(count) + " " + std::string(what) + " but only " + std::to_string(left()) + " bytes remain");
  }

  // `count` whitespace-separated text values must fit: each takes a character and a
  // separator, except the last, which may end the text.
  void need_values(std::uint64_t count, std::string_view what) const {
    if (count > left() / 2 + 1)
      fail("declared " + std::to_string(count) + " " + std::string(what) + " but only " + std::to_string(left()) + " bytes remain");
  }

  // --- text ----------------------------------------------------------------------------
  void skip_space() {
    while (p_ != end_ && is_space(*p_)) ++p_;
  }
  // Whitespace and comments, a comment running from `marker` to the end of its line
  // ('#' in OFF and OBJ).
  void skip_space_and_comments(char marker) {
    for (;;) {
      while (p_ != end_ && is_space(*p_)) ++p_;
      if (p_ == end_ || *p_ != marker) return;
      while (p_ != end_ && *p_ != '\n') ++p_;
    }
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
  // The words of the rest of the current line (at most `max` kept), moving past the line;
  // returns how many were kept. Nothing is allocated.
  std::size_t words(std::string_view* out, std::size_t max) {
    const std::size_t n = split_words(line(), out, max);
    return n < max ? n : max;
  }
  bool starts_with(std::string_view s) const { return left() >= s.size() && std::memcmp(p_, s.data(), s.size()) == 0; }
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
  // The next real in the opted-in spellings (parse_real), e.g. Fortran's 1.0D+00.
  template <class T> T real(std::string_view what, RealSyntax syntax) {
    skip_space();
    T out{};
    const char* next = parse_real(p_, end_, out, syntax);
    if (!next || (next != end_ && !is_space(*next))) fail_expected(what, p_);
    p_ = next;
    return out;
  }
  // The hot-loop form of number<std::uint64_t>: digits only, no sign.
  std::uint64_t index(std::string_view what) {
    std::uint64_t v = 0;
    if (!parse_uint(p_, end_, v)) fail_expected(what, p_);
    return v;
  }
  // number<std::int64_t> with index()'s speed where the token is plain digits; a sign or
  // anything else takes number()'s path (and its error).
  std::int64_t int64(std::string_view what) {
    std::uint64_t v = 0;
    const char* q = p_;
    if (parse_uint(q, end_, v) && v <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      p_ = q;
      return static_cast<std::int64_t>(v);
    }
    return number<std::int64_t>(what);
  }
  // `token` (read at `at`) as a count of at most kMaxCount.
  std::uint64_t count(std::string_view token, std::string_view what, const char* at) const {
    std::uint64_t v = 0;
    if (!parse_count(token, v)) fail_at(expected_found(what, token), at);
    return v;
  }
  // a * b items (rows x components) as one count; an overflow is a ReadError at `at`.
  std::size_t product(std::size_t a, std::size_t b, std::string_view what, const char* at) const {
    std::size_t out = 0;
    if (__builtin_mul_overflow(a, b, &out))
      fail_at(std::string(what) + ": " + std::to_string(a) + " x " + std::to_string(b) + " values overflow a count", at);
    return out;
  }
  // `n` whitespace-separated text values into `out`, after need_values(); 8-bit integers
  // are written as numbers (as VTK writes chars) and must be in range.
  template <class T> void text_values(T* out, std::size_t n, std::string_view what) {
    need_values(n, what);
    for (std::size_t i = 0; i < n; ++i) {
      skip_space();
      if (at_end()) fail("the " + std::string(what) + " end after " + std::to_string(i) + " of " + std::to_string(n) + " values");
      if constexpr (std::is_integral_v<T> && sizeof(T) == 1) {
        const char* at = p_;
        const int v = number<int>("a number");
        if (v < std::numeric_limits<T>::min() || v > std::numeric_limits<T>::max())
          fail_at(expected_found("a number in the range of the declared 8-bit type", std::to_string(v)), at);
        out[i] = static_cast<T>(v);
      } else {
        out[i] = number<T>("a number");
      }
    }
  }

  // --- binary --------------------------------------------------------------------------
  // Byte order of the binary values that follow (files may switch: Gmsh, Medit, PLY).
  void set_little_endian(bool little) { little_ = little; }
  bool little_endian() const { return little_; }
  // `n` raw bytes, which must remain; moves past them.
  const char* take(std::size_t n, std::string_view what) {
    if (left() < n) fail("truncated " + std::string(what) + ": expected " + std::to_string(n) + " bytes, found " + std::to_string(left()));
    const char* p = p_;
    p_ += n;
    return p;
  }
  template <class T> T load(std::string_view what) {
    const char* p = take(sizeof(T), what);
    return io::load<T>(through_ ? through_->bytes_at(static_cast<std::size_t>(p - begin_), sizeof(T)) : p, little_);
  }
  // From here on, load() and read_array() read `file` (this cursor's text) with pread
  // (FileBytes::bytes_at, copy_out) instead of through its mapping, which they then never
  // touch: for a binary reader whose large sections are taken with copy_out.
  void load_through(const FileBytes& file) {
    if (file.data() != begin_ || file.size() < size()) fail("internal: load_through another file");
    through_ = &file;
  }
  // `n` values of T copied to `out` in one pass (decode_values: a memcpy, or a swapping
  // copy if the byte order differs from the host's); the bytes must remain.
  template <class T> void read_array(T* out, std::size_t n, std::string_view what) {
    need(n, sizeof(T), what);
    const char* src = take(n * sizeof(T), what);
    if (through_) {
      through_->copy_out(static_cast<std::size_t>(src - begin_), n * sizeof(T), out);
      if (little_ != host_is_little_endian()) byteswap_inplace(out, n, sizeof(T));
      return;
    }
    decode_values(out, src, n, little_ != host_is_little_endian());
  }

  // --- errors --------------------------------------------------------------------------
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
  [[noreturn]] void fail_expected(std::string_view expected) const { fail_expected(expected, p_); }

  Position position(const char* at) const {
    std::int64_t line = 1;
    const char* q = begin_;
    if (forgotten_) {  // counted before the text was let go (a place inside it gets its end)
      line += forgotten_lines_;
      q = forgotten_;
    }
    for (; q < at && q < end_; ++q) line += (*q == '\n');
    return {line, static_cast<std::int64_t>(at - begin_)};
  }
  // The text before `at` (not before earlier calls' `at`) will not be read again, and its
  // memory may be given back: its line breaks are counted now, so position() stays right
  // for every place from `at` on.
  void forget_before(const char* at) {
    if (at < begin_ || at > end_ || (forgotten_ && at < forgotten_)) fail("internal: forget_before outside the text");
    for (const char* q = forgotten_ ? forgotten_ : begin_; q < at; ++q) forgotten_lines_ += (*q == '\n');
    forgotten_ = at;
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
  bool little_ = true;
  const FileBytes* through_ = nullptr;  // load_through()
  const char* forgotten_ = nullptr;    // forget_before()
  std::int64_t forgotten_lines_ = 0;
  std::string format_;
  std::string path_;
};

}  // namespace meshioplusplus::io
