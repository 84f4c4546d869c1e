// meshio++ core codec: zlib blocks (see zlib.hpp).
#include "core/codec/zlib.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/parallel.hpp"

#if MESHIOPP_HAVE_ZLIB
#include <zlib.h>
#endif

namespace meshioplusplus::codec {

#if MESHIOPP_HAVE_ZLIB

bool zlib_available() { return true; }

namespace {

// Inflates one stream (zlib's window_bits: 15 a zlib stream, 31 a gzip member) into exactly
// dst_nbytes bytes: the output size is known, so there is no intermediate buffer and nothing
// is written past dst + dst_nbytes. `whole`: the stream must end where the input ends.
std::string inflate_exactly(int window_bits, bool whole, const void* src, std::size_t src_nbytes, void* dst, std::size_t dst_nbytes) {
  z_stream zs{};
  if (inflateInit2(&zs, window_bits) != Z_OK) return "zlib inflateInit failed";
  std::string err;
  const auto* in = static_cast<const Bytef*>(src);
  auto* out = static_cast<Bytef*>(dst);
  std::size_t in_left = src_nbytes, out_left = dst_nbytes;
  int rc = Z_OK;
  for (;;) {
    const uInt in_chunk = static_cast<uInt>(std::min<std::size_t>(in_left, 1u << 30));
    const uInt out_chunk = static_cast<uInt>(std::min<std::size_t>(out_left, 1u << 30));
    zs.next_in = const_cast<Bytef*>(in);
    zs.avail_in = in_chunk;
    zs.next_out = out;
    zs.avail_out = out_chunk;
    rc = inflate(&zs, Z_NO_FLUSH);
    const std::size_t used_in = in_chunk - zs.avail_in, made = out_chunk - zs.avail_out;
    in += used_in, in_left -= used_in, out += made, out_left -= made;
    if (rc == Z_STREAM_END) break;
    if (rc == Z_OK && (used_in > 0 || made > 0)) continue;
    if (rc == Z_BUF_ERROR || rc == Z_OK) {
      err = out_left == 0 ? "the block decompresses to more than the " + std::to_string(dst_nbytes) + " bytes the header declares"
                          : "the compressed block ends early";
    } else {
      err = std::string("zlib: ") + (zs.msg ? zs.msg : "corrupt data");
    }
    break;
  }
  inflateEnd(&zs);
  if (err.empty() && out_left != 0)
    err = "the block decompresses to " + std::to_string(dst_nbytes - out_left) + " bytes, the header declares " +
          std::to_string(dst_nbytes);
  if (err.empty() && whole && in_left != 0) err = std::to_string(in_left) + " bytes follow the compressed stream (a second gzip member?)";
  return err;
}

std::vector<unsigned char> deflate_all(int window_bits, const void* data, std::size_t nbytes, int level, bool rle) {
  z_stream zs{};
  if (deflateInit2(&zs, level, Z_DEFLATED, window_bits, 8, rle ? Z_RLE : Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("zlib deflateInit2 failed");
  std::vector<unsigned char> out(deflateBound(&zs, static_cast<uLong>(nbytes)));
  zs.next_in = const_cast<Bytef*>(static_cast<const Bytef*>(data));
  zs.avail_in = static_cast<uInt>(nbytes);
  zs.next_out = out.data();
  zs.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&zs, Z_FINISH);  // one call: the output buffer holds the bound
  const std::size_t produced = out.size() - zs.avail_out;
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) throw std::runtime_error("zlib deflate failed (" + std::to_string(rc) + ")");
  out.resize(produced);
  return out;
}

}  // namespace

std::string zlib_inflate(const void* src, std::size_t src_nbytes, void* dst, std::size_t dst_nbytes) {
  return inflate_exactly(15, false, src, src_nbytes, dst, dst_nbytes);
}

std::string gzip_inflate(const void* src, std::size_t src_nbytes, void* dst, std::size_t dst_nbytes) {
  return inflate_exactly(31, true, src, src_nbytes, dst, dst_nbytes);
}

std::vector<unsigned char> gzip_compress(const void* data, std::size_t nbytes, int level) {
  if (nbytes > 0xffffffffu) throw std::runtime_error("gzip_compress: more than 4 GiB in one member");
  return deflate_all(31, data, nbytes, level, false);
}

std::vector<unsigned char> zlib_compress(const void* data, std::size_t nbytes, int level, bool rle) {
  return deflate_all(15, data, nbytes, level, rle);
}

#else

bool zlib_available() { return false; }

std::string zlib_inflate(const void*, std::size_t, void*, std::size_t) {
  throw std::runtime_error("meshio++ was built without zlib");
}

std::vector<unsigned char> zlib_compress(const void*, std::size_t, int, bool) {
  throw std::runtime_error("meshio++ was built without zlib");
}

std::string gzip_inflate(const void*, std::size_t, void*, std::size_t) { throw std::runtime_error("meshio++ was built without zlib"); }

std::vector<unsigned char> gzip_compress(const void*, std::size_t, int) { throw std::runtime_error("meshio++ was built without zlib"); }

#endif

long long gzip_declared_size(const void* src, std::size_t src_nbytes) {
  const auto* b = static_cast<const unsigned char*>(src);
  if (src_nbytes < 18 || b[0] != 0x1f || b[1] != 0x8b || b[2] != 8) return -1;
  const unsigned char* t = b + src_nbytes - 4;
  return static_cast<long long>(t[0] | (t[1] << 8) | (t[2] << 16) | (static_cast<unsigned long>(t[3]) << 24));
}

std::vector<std::vector<unsigned char>> zlib_compress_blocks(const void* data, std::size_t nbytes,
                                                             std::size_t block_size, int level, unsigned threads,
                                                             bool rle) {
  if (block_size == 0) throw std::invalid_argument("zlib_compress_blocks: block_size is 0");
  const std::size_t nblocks = (nbytes + block_size - 1) / block_size;
  std::vector<std::vector<unsigned char>> blocks(nblocks);
  const auto* bytes = static_cast<const unsigned char*>(data);
  parallel_for(nblocks, threads, [&](std::size_t k) {
    const std::size_t begin = k * block_size;
    blocks[k] = zlib_compress(bytes + begin, std::min(block_size, nbytes - begin), level, rle);
  });
  return blocks;
}

}  // namespace meshioplusplus::codec
