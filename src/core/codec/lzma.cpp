// meshio++ core codec: xz blocks (see lzma.hpp).
#include "core/codec/lzma.hpp"

#include <stdexcept>

#if MESHIOPP_HAVE_LZMA
#include <lzma.h>
#endif

namespace meshioplusplus::codec {

#if MESHIOPP_HAVE_LZMA

bool lzma_available() { return true; }

std::string lzma_decode(const void* src, std::size_t src_nbytes, void* dst, std::size_t dst_nbytes) {
  // 256 MiB of decoder state at most: enough for every preset (-9 needs 65 MiB).
  std::uint64_t memlimit = 256u << 20;
  std::size_t in_pos = 0, out_pos = 0;
  const lzma_ret rc = lzma_stream_buffer_decode(&memlimit, 0, nullptr, static_cast<const std::uint8_t*>(src), &in_pos,
                                                src_nbytes, static_cast<std::uint8_t*>(dst), &out_pos, dst_nbytes);
  if (rc == LZMA_BUF_ERROR) return "xz stream decodes to more than the declared " + std::to_string(dst_nbytes) + " bytes, or ends early";
  if (rc != LZMA_OK) return "corrupt xz stream (liblzma error " + std::to_string(static_cast<int>(rc)) + ")";
  if (out_pos != dst_nbytes)
    return "xz stream decodes to " + std::to_string(out_pos) + " bytes, expected " + std::to_string(dst_nbytes);
  if (in_pos != src_nbytes) return "bytes after the end of the xz stream";
  return "";
}

std::vector<unsigned char> lzma_encode(const void* data, std::size_t nbytes, int level) {
  const std::uint32_t preset = level < 0 ? 6u : static_cast<std::uint32_t>(level > 9 ? 9 : level);
  std::vector<unsigned char> out(lzma_stream_buffer_bound(nbytes));
  std::size_t out_pos = 0;
  const lzma_ret rc = lzma_easy_buffer_encode(preset, LZMA_CHECK_CRC32, nullptr, static_cast<const std::uint8_t*>(data),
                                              nbytes, out.data(), &out_pos, out.size());
  if (rc != LZMA_OK) throw std::runtime_error("liblzma: encoding failed (error " + std::to_string(static_cast<int>(rc)) + ")");
  out.resize(out_pos);
  return out;
}

#else

namespace {
[[noreturn]] void missing() { throw std::runtime_error("lzma compression needs liblzma; rebuild meshio++ with liblzma-dev installed"); }
}  // namespace

bool lzma_available() { return false; }
std::string lzma_decode(const void*, std::size_t, void*, std::size_t) { missing(); }
std::vector<unsigned char> lzma_encode(const void*, std::size_t, int) { missing(); }

#endif

}  // namespace meshioplusplus::codec
