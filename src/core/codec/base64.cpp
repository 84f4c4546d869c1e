// meshio++ core codec: base64 (see base64.hpp).
#include "core/codec/base64.hpp"

#include <array>
#include <cstring>

namespace meshioplusplus::codec {

namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// 0..63 for alphabet characters, 64 for '=', 65 for whitespace, 255 for anything else.
constexpr std::array<std::uint8_t, 256> make_table() {
  std::array<std::uint8_t, 256> t{};
  for (auto& v : t) v = 255;
  for (int i = 0; i < 64; ++i) t[static_cast<unsigned char>(kAlphabet[i])] = static_cast<std::uint8_t>(i);
  t['='] = 64;
  for (unsigned char c : {' ', '\t', '\n', '\r', '\v', '\f'}) t[c] = 65;
  return t;
}
constexpr std::array<std::uint8_t, 256> kTable = make_table();

}  // namespace

void base64_encode(const void* data, std::size_t nbytes, char* out) {
  const auto* s = static_cast<const unsigned char*>(data);
  std::size_t i = 0;
  // Full triples: 3 bytes -> 4 characters.
  for (; i + 3 <= nbytes; i += 3) {
    const std::uint32_t v = (std::uint32_t(s[i]) << 16) | (std::uint32_t(s[i + 1]) << 8) | s[i + 2];
    out[0] = kAlphabet[v >> 18];
    out[1] = kAlphabet[(v >> 12) & 63];
    out[2] = kAlphabet[(v >> 6) & 63];
    out[3] = kAlphabet[v & 63];
    out += 4;
  }
  const std::size_t rest = nbytes - i;
  if (rest == 0) return;
  const std::uint32_t v = (std::uint32_t(s[i]) << 16) | (rest == 2 ? std::uint32_t(s[i + 1]) << 8 : 0u);
  out[0] = kAlphabet[v >> 18];
  out[1] = kAlphabet[(v >> 12) & 63];
  out[2] = rest == 2 ? kAlphabet[(v >> 6) & 63] : '=';
  out[3] = '=';
}

void base64_append(std::string& out, const void* data, std::size_t nbytes) {
  const std::size_t old = out.size();
  out.resize(old + base64_encoded_size(nbytes));
  base64_encode(data, nbytes, out.data() + old);
}

bool Base64Reader::decode_quad_slow() {
  std::uint8_t v[4];
  const char* at[4];
  unsigned n = 0;
  while (n < 4) {
    while (p_ != end_ && kTable[static_cast<unsigned char>(*p_)] == 65) ++p_;
    if (p_ == end_) {
      error_at_ = p_;
      error_ = n == 0 ? "base64 data ended before the declared size" : "base64 data ended inside a 4-character group";
      return false;
    }
    const std::uint8_t t = kTable[static_cast<unsigned char>(*p_)];
    if (t == 255) {
      error_at_ = p_;
      error_ = "invalid base64 character";
      return false;
    }
    at[n] = p_;
    v[n++] = t;
    ++p_;
  }
  // '=' may only pad the last one or two characters of a group.
  unsigned out = 3;
  if (v[0] == 64 || v[1] == 64) {
    error_at_ = v[0] == 64 ? at[0] : at[1];
    error_ = "misplaced base64 padding";
    return false;
  }
  if (v[2] == 64) {
    if (v[3] != 64) {
      error_at_ = at[3];
      error_ = "misplaced base64 padding";
      return false;
    }
    out = 1;
  } else if (v[3] == 64) {
    out = 2;
  }
  const std::uint32_t w = (std::uint32_t(v[0]) << 18) | (std::uint32_t(v[1]) << 12) |
                          (std::uint32_t(v[2] & 63) << 6) | (v[3] & 63);
  pending_[0] = static_cast<unsigned char>(w >> 16);
  pending_[1] = static_cast<unsigned char>(w >> 8);
  pending_[2] = static_cast<unsigned char>(w);
  npending_ = out;
  ipending_ = 0;
  return true;
}

bool Base64Reader::read(void* out_void, std::size_t nbytes) {
  auto* out = static_cast<unsigned char*>(out_void);
  while (nbytes > 0) {
    if (ipending_ < npending_) {
      *out++ = pending_[ipending_++];
      --nbytes;
      continue;
    }
    // Fast path: whole groups of 4 alphabet characters straight into the destination.
    while (nbytes >= 3 && end_ - p_ >= 4) {
      const std::uint8_t a = kTable[static_cast<unsigned char>(p_[0])], b = kTable[static_cast<unsigned char>(p_[1])],
                         c = kTable[static_cast<unsigned char>(p_[2])], d = kTable[static_cast<unsigned char>(p_[3])];
      if ((a | b | c | d) >= 64) break;
      const std::uint32_t w = (std::uint32_t(a) << 18) | (std::uint32_t(b) << 12) | (std::uint32_t(c) << 6) | d;
      out[0] = static_cast<unsigned char>(w >> 16);
      out[1] = static_cast<unsigned char>(w >> 8);
      out[2] = static_cast<unsigned char>(w);
      out += 3;
      nbytes -= 3;
      p_ += 4;
    }
    if (nbytes == 0) break;
    if (!decode_quad_slow()) return false;
  }
  return true;
}

bool Base64Reader::at_end() {
  while (p_ != end_ && kTable[static_cast<unsigned char>(*p_)] == 65) ++p_;
  return p_ == end_ && ipending_ == npending_;
}

}  // namespace meshioplusplus::codec
