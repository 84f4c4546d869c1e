// meshio++ core codec: base64 (see base64.hpp).
#include "core/codec/base64.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <vector>

#include "core/cpu_features.hpp"
#include "core/parallel.hpp"

#ifdef MESHIOPP_AVX2_DISPATCH
#include <immintrin.h>
#endif

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

// The decoding of one character at position 0..3 of a group, already shifted into place
// in a 24-bit big-endian word (stored little-endian: byte 0 is the group's first byte);
// kBad (bit 24 up) for anything but the 64 alphabet characters, so one OR of four lookups
// decodes a group and one test checks it.
constexpr std::uint32_t kBad = 0x01000000u;
constexpr std::array<std::uint32_t, 256> make_shifted(int pos) {
  std::array<std::uint32_t, 256> t{};
  for (int c = 0; c < 256; ++c) {
    const std::uint8_t v = make_table()[static_cast<std::size_t>(c)];
    if (v >= 64) {
      t[static_cast<std::size_t>(c)] = kBad;
      continue;
    }
    const std::uint32_t w = std::uint32_t(v) << (18 - 6 * pos);  // big-endian 24-bit word
    // Byte order in memory: w >> 16 first, then w >> 8, then w.
    t[static_cast<std::size_t>(c)] = ((w >> 16) & 0xff) | (w & 0xff00) | ((w & 0xff) << 16);
  }
  return t;
}
constexpr std::array<std::uint32_t, 256> kD0 = make_shifted(0), kD1 = make_shifted(1), kD2 = make_shifted(2),
                                         kD3 = make_shifted(3);

#ifdef MESHIOPP_AVX2_DISPATCH
// Groups [0, n) of `src` into `out` 8 at a time (32 characters to 24 bytes) with AVX2, the
// method of Mula and Lemire, "Faster Base64 Encoding and Decoding Using AVX2 Instructions"
// (ACM Transactions on the Web, 2018): each character's low and high nibbles index two
// 16-entry tables whose AND is zero only for the 64 alphabet characters; a third table,
// indexed by the high nibble ('/' moved to its own slot), holds the offset that turns each
// range of the alphabet into its 6-bit value; two multiply-adds then join four 6-bit values
// into 24 bits and two shuffles pack the 3-byte groups together. Returns the first group of
// the first step holding anything but alphabet characters (the scalar loop then finds
// which), or where fewer than 11 groups are left: each step stores 32 bytes, 8 of them over
// the next step's output, and those must stay inside this run's 3n bytes (runs are decoded
// side by side on several threads).
__attribute__((target("avx2"))) std::size_t decode_run_avx2(const unsigned char* src, unsigned char* out, std::size_t n) {
  const __m256i lut_lo = _mm256_setr_epi8(0x15, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x13, 0x1A, 0x1B, 0x1B, 0x1B, 0x1A,
                                          0x15, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x13, 0x1A, 0x1B, 0x1B, 0x1B, 0x1A);
  const __m256i lut_hi = _mm256_setr_epi8(0x10, 0x10, 0x01, 0x02, 0x04, 0x08, 0x04, 0x08, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10,
                                          0x10, 0x10, 0x01, 0x02, 0x04, 0x08, 0x04, 0x08, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10);
  // Offsets by high nibble: 2 '+' (43 -> 62), 1 '/' (47 -> 63), 3 digits, 4-5 'A'-'Z', 6-7 'a'-'z'.
  const __m256i lut_roll = _mm256_setr_epi8(0, 16, 19, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0,
                                            0, 16, 19, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0);
  const __m256i nibble = _mm256_set1_epi8(0x0F), slash = _mm256_set1_epi8(0x2F);
  const __m256i join_pairs = _mm256_set1_epi32(0x01400140), join_quads = _mm256_set1_epi32(0x00011000);
  const __m256i pack_lane = _mm256_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1,
                                             2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
  const __m256i pack_lanes = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 7, 7);
  std::size_t g = 0;
  for (; g + 11 <= n; g += 8) {
    const __m256i text = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + 4 * g));
    const __m256i hi_nibbles = _mm256_and_si256(_mm256_srli_epi32(text, 4), nibble);
    const __m256i lo_nibbles = _mm256_and_si256(text, nibble);
    if (!_mm256_testz_si256(_mm256_shuffle_epi8(lut_lo, lo_nibbles), _mm256_shuffle_epi8(lut_hi, hi_nibbles))) break;
    const __m256i roll = _mm256_shuffle_epi8(lut_roll, _mm256_add_epi8(_mm256_cmpeq_epi8(text, slash), hi_nibbles));
    const __m256i values = _mm256_add_epi8(text, roll);
    const __m256i quads = _mm256_madd_epi16(_mm256_maddubs_epi16(values, join_pairs), join_quads);
    const __m256i packed = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(quads, pack_lane), pack_lanes);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 3 * g), packed);
  }
  return g;
}
#endif

// Groups [0, n) of `src` into `out`; returns the first group that is not 4 alphabet
// characters (n when all are).
std::size_t decode_run(const unsigned char* src, unsigned char* out, std::size_t n) {
#ifdef MESHIOPP_AVX2_DISPATCH
  std::size_t g = cpu_has_avx2() ? decode_run_avx2(src, out, n) : 0;
#else
  std::size_t g = 0;
#endif
  // All but the last group store 4 bytes (the 4th overwritten by the next group).
  for (; g + 1 < n; ++g) {
    const unsigned char* q = src + 4 * g;
    const std::uint32_t w = kD0[q[0]] | kD1[q[1]] | kD2[q[2]] | kD3[q[3]];
    if (w & kBad) return g;
    if constexpr (std::endian::native == std::endian::little) std::memcpy(out + 3 * g, &w, 4);
    else out[3 * g] = static_cast<unsigned char>(w), out[3 * g + 1] = static_cast<unsigned char>(w >> 8), out[3 * g + 2] = static_cast<unsigned char>(w >> 16);
  }
  for (; g < n; ++g) {
    const unsigned char* q = src + 4 * g;
    const std::uint32_t w = kD0[q[0]] | kD1[q[1]] | kD2[q[2]] | kD3[q[3]];
    if (w & kBad) return g;
    out[3 * g] = static_cast<unsigned char>(w), out[3 * g + 1] = static_cast<unsigned char>(w >> 8), out[3 * g + 2] = static_cast<unsigned char>(w >> 16);
  }
  return n;
}

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

namespace {
constexpr std::size_t kEncodeChunk = std::size_t{3} << 18;  // bytes per thread and window: whole groups
}

Base64Writer::Base64Writer(Sink sink, unsigned threads) : sink_(std::move(sink)), threads_(std::max(1u, threads)) {}

void Base64Writer::append(const void* data, std::size_t nbytes) {
  auto p = static_cast<const unsigned char*>(data);
  if (ncarry_ > 0) {  // complete the group the last piece left open
    while (ncarry_ < 3 && nbytes > 0) carry_[ncarry_++] = *p++, --nbytes;
    if (ncarry_ < 3) return;
    char quad[4];
    base64_encode(carry_, 3, quad);
    sink_(quad, 4);
    ncarry_ = 0;
  }
  const std::size_t whole = nbytes / 3 * 3;
  encode_groups(p, whole);
  for (std::size_t i = whole; i < nbytes; ++i) carry_[ncarry_++] = p[i];
}

void Base64Writer::encode_groups(const unsigned char* p, std::size_t nbytes) {
  const unsigned threads = nbytes > (std::size_t{4} << 20) ? threads_ : 1;
  const std::size_t window = kEncodeChunk * threads;
  if (nbytes > 0 && !window_) {
    window_.reset(new char[base64_encoded_size(kEncodeChunk * threads_)]);  // the largest window; overwritten before use
  }
  for (std::size_t at = 0; at < nbytes; at += window) {
    const std::size_t n = std::min(window, nbytes - at);
    const std::size_t chunks = (n + kEncodeChunk - 1) / kEncodeChunk;
    parallel_for(chunks, threads, [&](std::size_t c) {
      const std::size_t b = c * kEncodeChunk;
      base64_encode(p + at + b, std::min(kEncodeChunk, n - b), window_.get() + b / 3 * 4);
    });
    sink_(window_.get(), n / 3 * 4);
  }
}

void Base64Writer::finish() {
  if (ncarry_ > 0) {
    char quad[4];
    base64_encode(carry_, ncarry_, quad);
    sink_(quad, 4);
  }
  ncarry_ = 0;
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

std::size_t Base64Reader::decode_groups(unsigned char* out, std::size_t groups, unsigned threads) {
  groups = std::min(groups, static_cast<std::size_t>(end_ - p_) / 4);
  const auto* src = reinterpret_cast<const unsigned char*>(p_);
  std::size_t done = groups;
  constexpr std::size_t kGroupsPerThread = std::size_t(1) << 18;  // 768 KiB out
  if (threads > 1 && groups >= 2 * kGroupsPerThread) {
    // Contiguous ranges; the decoded prefix is the ranges before the first one that stopped.
    const std::size_t nr = std::min<std::size_t>({threads, 16, groups / kGroupsPerThread});
    std::vector<std::size_t> stop(nr);
    parallel_for(nr, static_cast<unsigned>(nr), [&](std::size_t r) {
      const std::size_t g0 = groups * r / nr, g1 = groups * (r + 1) / nr;
      stop[r] = g0 + decode_run(src + 4 * g0, out + 3 * g0, g1 - g0);
    });
    for (std::size_t r = 0; r < nr; ++r)
      if (stop[r] != groups * (r + 1) / nr) {
        done = stop[r];
        break;
      }
  } else {
    done = decode_run(src, out, groups);
  }
  p_ += 4 * done;
  return done;
}

bool Base64Reader::read(void* out_void, std::size_t nbytes, unsigned threads) {
  auto* out = static_cast<unsigned char*>(out_void);
  while (nbytes > 0) {
    if (ipending_ < npending_) {
      *out++ = pending_[ipending_++];
      --nbytes;
      continue;
    }
    // Fast path: whole groups of 4 alphabet characters straight into the destination.
    const std::size_t done = decode_groups(out, nbytes / 3, threads);
    out += 3 * done;
    nbytes -= 3 * done;
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
