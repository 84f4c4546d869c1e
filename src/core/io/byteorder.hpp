// meshio++ core I/O: byte order helpers for binary formats (in-place swaps, one pass).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace meshioplusplus::io {

constexpr bool host_is_little_endian() { return std::endian::native == std::endian::little; }

// Reverses the bytes of each of `count` elements of `width` bytes (1, 2, 4 or 8) in place.
inline void byteswap_inplace(void* data, std::size_t count, std::size_t width) {
  auto* p = static_cast<unsigned char*>(data);
  switch (width) {
    case 2:
      for (std::size_t i = 0; i < count; ++i) {
        std::uint16_t v;
        std::memcpy(&v, p + 2 * i, 2);
        v = __builtin_bswap16(v);
        std::memcpy(p + 2 * i, &v, 2);
      }
      break;
    case 4:
      for (std::size_t i = 0; i < count; ++i) {
        std::uint32_t v;
        std::memcpy(&v, p + 4 * i, 4);
        v = __builtin_bswap32(v);
        std::memcpy(p + 4 * i, &v, 4);
      }
      break;
    case 8:
      for (std::size_t i = 0; i < count; ++i) {
        std::uint64_t v;
        std::memcpy(&v, p + 8 * i, 8);
        v = __builtin_bswap64(v);
        std::memcpy(p + 8 * i, &v, 8);
      }
      break;
    default:
      break;
  }
}

// Reads a T stored at `p` (unaligned) in little- or big-endian order.
template <class T> T load(const void* p, bool little_endian) {
  T v;
  std::memcpy(&v, p, sizeof v);
  if (little_endian != host_is_little_endian()) byteswap_inplace(&v, 1, sizeof v);
  return v;
}

}  // namespace meshioplusplus::io
