// meshio++ core codec: raw LZ4 blocks (see lz4.hpp).
#include "core/codec/lz4.hpp"

#include <climits>
#include <stdexcept>

#if MESHIOPP_HAVE_LZ4
#include <lz4.h>
#endif

namespace meshioplusplus::codec {

#if MESHIOPP_HAVE_LZ4

bool lz4_available() { return true; }

std::string lz4_decode(const void* src, std::size_t src_nbytes, void* dst, std::size_t dst_nbytes) {
  if (src_nbytes > INT_MAX || dst_nbytes > INT_MAX) return "LZ4 block larger than 2 GiB";
  const int made = LZ4_decompress_safe(static_cast<const char*>(src), static_cast<char*>(dst), static_cast<int>(src_nbytes),
                                       static_cast<int>(dst_nbytes));
  if (made < 0) return "corrupt LZ4 block";
  if (static_cast<std::size_t>(made) != dst_nbytes)
    return "LZ4 block decodes to " + std::to_string(made) + " bytes, expected " + std::to_string(dst_nbytes);
  return "";
}

std::vector<unsigned char> lz4_encode(const void* data, std::size_t nbytes, int level) {
  if (nbytes > static_cast<std::size_t>(LZ4_MAX_INPUT_SIZE)) throw std::runtime_error("LZ4: block larger than LZ4_MAX_INPUT_SIZE");
  const int acceleration = level < 0 ? 1 : (level >= 9 ? 1 : 10 - level);
  std::vector<unsigned char> out(static_cast<std::size_t>(LZ4_compressBound(static_cast<int>(nbytes))));
  const int made = LZ4_compress_fast(static_cast<const char*>(data), reinterpret_cast<char*>(out.data()), static_cast<int>(nbytes),
                                     static_cast<int>(out.size()), acceleration);
  if (made <= 0 && nbytes > 0) throw std::runtime_error("LZ4: compression failed");
  out.resize(static_cast<std::size_t>(made));
  return out;
}

#else

namespace {
[[noreturn]] void missing() { throw std::runtime_error("lz4 compression needs liblz4; rebuild meshio++ with liblz4-dev installed"); }
}  // namespace

bool lz4_available() { return false; }
std::string lz4_decode(const void*, std::size_t, void*, std::size_t) { missing(); }
std::vector<unsigned char> lz4_encode(const void*, std::size_t, int) { missing(); }

#endif

}  // namespace meshioplusplus::codec
