// meshio++ core I/O: ASCII and binary array output (see array_writer.hpp).
#include "core/io/array_writer.hpp"

#include <algorithm>
#include <type_traits>
#include <vector>

#include "core/io/byteorder.hpp"
#include "core/io/decode.hpp"

namespace meshioplusplus::io {

void write_ascii(TextWriter& w, const NDArray& a, const FloatFormat& ff, const AsciiLayout& layout) {
  const std::size_t n = a.size();
  const std::size_t per_line = layout.per_line ? layout.per_line : std::max<std::size_t>(a.row_size(), 1);
  visit_dtype(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* p = static_cast<const T*>(a.raw());
    for (std::size_t i = 0; i < n; ++i) {
      if constexpr (std::is_floating_point_v<T>)
        w.real(p[i], ff);
      else if constexpr (sizeof(T) == 1)
        w.integer(static_cast<int>(p[i]));
      else
        w.integer(p[i]);
      if ((i + 1) % per_line == 0) {
        if (i + 1 != n || layout.final_newline) w.ch('\n');
      } else if (i + 1 != n) {
        w.str(layout.separator);
      } else if (layout.final_newline) {
        w.ch('\n');
      }
    }
  });
}

void write_binary(TextWriter& w, const NDArray& a, bool little_endian) {
  const std::size_t width = dtype_size(a.dtype());
  const std::size_t nbytes = a.nbytes();
  const auto* src = static_cast<const unsigned char*>(a.raw());
  if (little_endian == host_is_little_endian() || width == 1) {
    w.bytes(src, nbytes);
    return;
  }
  constexpr std::size_t kChunk = 1 << 20;  // a multiple of every width
  std::vector<unsigned char> scratch(std::min(kChunk, nbytes));
  for (std::size_t b = 0; b < nbytes; b += kChunk) {
    const std::size_t len = std::min(kChunk, nbytes - b);
    // One swapping copy (decode_values' loop, which vectorises) rather than a copy then a swap.
    const char* from = reinterpret_cast<const char*>(src + b);
    if (width == 2) decode_values(reinterpret_cast<std::uint16_t*>(scratch.data()), from, len / 2, true);
    else if (width == 4) decode_values(reinterpret_cast<std::uint32_t*>(scratch.data()), from, len / 4, true);
    else decode_values(reinterpret_cast<std::uint64_t*>(scratch.data()), from, len / 8, true);
    w.bytes(scratch.data(), len);
  }
}

}  // namespace meshioplusplus::io
