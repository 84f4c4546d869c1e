// meshio++ core codec: base64 (RFC 4648, standard alphabet, '=' padding), encoding and a
// streaming decoder.
//
// VTK's XML writer encodes the header of a compressed array and its data as two separate
// padded base64 streams written back to back, while meshio encodes header and data as one
// stream; Base64Reader decodes either, because it restarts after every padded quad.
// Safe for untrusted input: every read is bounded by the end of the text, each loop step
// consumes at least one character, and errors report the offending character.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace meshioplusplus::codec {

// Characters needed to encode `nbytes` bytes (with padding).
constexpr std::size_t base64_encoded_size(std::size_t nbytes) { return (nbytes + 2) / 3 * 4; }

// Writes base64_encoded_size(nbytes) characters at `out`.
void base64_encode(const void* data, std::size_t nbytes, char* out);
// Appends the encoding of `data` to `out`.
void base64_append(std::string& out, const void* data, std::size_t nbytes);

// The base64 of a byte stream given in pieces (append), handed to `sink` a window of text
// at a time, never the whole text at once: the text is that of the pieces' concatenation as
// one padded stream (finish() pads it; the writer may then start another). Large pieces are
// encoded on up to `threads` threads, in chunks of whole 3-byte groups.
class Base64Writer {
 public:
  using Sink = std::function<void(const char* text, std::size_t n)>;
  Base64Writer(Sink sink, unsigned threads);
  void append(const void* data, std::size_t nbytes);
  void finish();

 private:
  void encode_groups(const unsigned char* p, std::size_t nbytes);  // nbytes % 3 == 0
  Sink sink_;
  unsigned threads_;
  unsigned char carry_[3] = {0, 0, 0};
  std::size_t ncarry_ = 0;
  std::unique_ptr<char[]> window_;  // encoded text of one window, overwritten each time
};

class Base64Reader {
 public:
  Base64Reader(const char* begin, const char* end) : p_(begin), end_(end) {}

  // Decodes exactly `nbytes` bytes into `out`. Returns false on an invalid character, a
  // misplaced '=' or the end of the text; error_at() and error() then say where and why.
  // `threads` > 1: a long run of whole groups (no whitespace or padding inside, as every
  // writer makes them) is decoded in contiguous ranges on up to that many threads; the
  // result and the errors are the same as with one.
  bool read(void* out, std::size_t nbytes, unsigned threads = 1);
  // An upper bound of the bytes left to decode (to validate a declared size up front).
  std::size_t max_remaining() const { return static_cast<std::size_t>(end_ - p_) / 4 * 3 + (npending_ - ipending_) + 3; }
  // Skips whitespace, then reports whether only the end of text is left.
  bool at_end();
  const char* position() const { return p_; }
  const char* error_at() const { return error_at_; }
  const char* error() const { return error_; }

 private:
  bool decode_quad_slow();  // one quad with whitespace / padding into pending_
  // Whole groups of 4 alphabet characters from p_ straight into `out` (at most `groups`);
  // stops at the first other character. Returns the groups decoded.
  std::size_t decode_groups(unsigned char* out, std::size_t groups, unsigned threads);

  const char* p_;
  const char* end_;
  unsigned char pending_[3] = {0, 0, 0};
  unsigned npending_ = 0, ipending_ = 0;
  const char* error_at_ = nullptr;
  const char* error_ = "";
};

}  // namespace meshioplusplus::codec
