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

std::string zlib_inflate(const void* src, std::size_t src_nbytes, void* dst, std::size_t dst_nbytes) {
  // One inflate() call over the whole block: the output size is known exactly, so there
  // is no intermediate buffer and nothing is written past dst + dst_nbytes.
  z_stream zs{};
  if (inflateInit(&zs) != Z_OK) return "zlib inflateInit failed";
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
  return err;
}

std::vector<unsigned char> zlib_compress(const void* data, std::size_t nbytes, int level, bool rle) {
  z_stream zs{};
  if (deflateInit2(&zs, level, Z_DEFLATED, 15, 8, rle ? Z_RLE : Z_DEFAULT_STRATEGY) != Z_OK)
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

std::string gzip_inflate(const void* src, std::size_t src_nbytes, std::size_t max_nbytes, std::vector<char>& out) {
  out.clear();
  const auto* in = static_cast<const Bytef*>(src);
  std::size_t in_left = src_nbytes;
  if (in_left < 18 || in[0] != 0x1f || in[1] != 0x8b) return "not a gzip file (no 1f 8b magic)";
  // The last member's trailer gives its size modulo 2^32: a first guess for the buffer,
  // never trusted past max_nbytes.
  const std::size_t hint = static_cast<std::size_t>(in[src_nbytes - 4]) | static_cast<std::size_t>(in[src_nbytes - 3]) << 8 |
                           static_cast<std::size_t>(in[src_nbytes - 2]) << 16 | static_cast<std::size_t>(in[src_nbytes - 1]) << 24;
  out.resize(std::min(std::max<std::size_t>(hint, 1 << 16), max_nbytes));
  std::size_t made = 0;
  z_stream zs{};
  if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) return "zlib inflateInit2 failed";
  std::string err;
  for (;;) {
    if (made == out.size()) {
      if (out.size() >= max_nbytes) {
        err = "the gzip data inflates to more than " + std::to_string(max_nbytes) + " bytes";
        break;
      }
      out.resize(std::min(max_nbytes, out.size() * 2));
    }
    const uInt in_chunk = static_cast<uInt>(std::min<std::size_t>(in_left, 1u << 30));
    const uInt out_chunk = static_cast<uInt>(std::min<std::size_t>(out.size() - made, 1u << 30));
    zs.next_in = const_cast<Bytef*>(in);
    zs.avail_in = in_chunk;
    zs.next_out = reinterpret_cast<Bytef*>(out.data() + made);
    zs.avail_out = out_chunk;
    const int rc = inflate(&zs, Z_NO_FLUSH);
    const std::size_t used = in_chunk - zs.avail_in;
    in += used, in_left -= used, made += out_chunk - zs.avail_out;
    if (rc == Z_STREAM_END) {
      if (in_left == 0) break;
      if (in[0] != 0x1f) break;  // trailing garbage after the last member: gzip(1) ignores it too
      inflateReset(&zs);         // the next member
      continue;
    }
    if (rc == Z_OK) continue;
    if (rc == Z_BUF_ERROR && zs.avail_out == 0) continue;  // the buffer grows above
    err = rc == Z_BUF_ERROR ? "the gzip data ends early" : std::string("zlib: ") + (zs.msg ? zs.msg : "corrupt data");
    break;
  }
  inflateEnd(&zs);
  out.resize(err.empty() ? made : 0);
  return err;
}

std::vector<unsigned char> gzip_compress(const void* data, std::size_t nbytes, int level) {
  z_stream zs{};
  if (deflateInit2(&zs, level, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("zlib deflateInit2 failed");
  std::vector<unsigned char> out(deflateBound(&zs, static_cast<uLong>(nbytes)) + 32);
  zs.next_in = const_cast<Bytef*>(static_cast<const Bytef*>(data));
  zs.next_out = out.data();
  std::size_t in_left = nbytes, out_left = out.size();
  int rc = Z_OK;
  while (rc == Z_OK) {  // chunks of at most 1 GiB (avail_in is 32 bits)
    const uInt in_chunk = static_cast<uInt>(std::min<std::size_t>(in_left, 1u << 30));
    const uInt out_chunk = static_cast<uInt>(std::min<std::size_t>(out_left, 1u << 30));
    zs.avail_in = in_chunk, zs.avail_out = out_chunk;
    rc = deflate(&zs, in_left == in_chunk ? Z_FINISH : Z_NO_FLUSH);
    in_left -= in_chunk - zs.avail_in, out_left -= out_chunk - zs.avail_out;
    if (rc == Z_BUF_ERROR) rc = Z_OK;
  }
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) throw std::runtime_error("zlib deflate failed (" + std::to_string(rc) + ")");
  out.resize(out.size() - out_left);
  return out;
}

#else

bool zlib_available() { return false; }

std::string gzip_inflate(const void*, std::size_t, std::size_t, std::vector<char>&) {
  throw std::runtime_error("meshio++ was built without zlib");
}

std::vector<unsigned char> gzip_compress(const void*, std::size_t, int) {
  throw std::runtime_error("meshio++ was built without zlib");
}

std::string zlib_inflate(const void*, std::size_t, void*, std::size_t) {
  throw std::runtime_error("meshio++ was built without zlib");
}

std::vector<unsigned char> zlib_compress(const void*, std::size_t, int, bool) {
  throw std::runtime_error("meshio++ was built without zlib");
}

#endif

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

std::vector<unsigned char> gzip_compress_members(const void* data, std::size_t nbytes, std::size_t block_size, int level,
                                                 unsigned threads) {
  if (block_size == 0) throw std::invalid_argument("gzip_compress_members: block_size is 0");
  const std::size_t nblocks = std::max<std::size_t>(1, (nbytes + block_size - 1) / block_size);
  std::vector<std::vector<unsigned char>> members(nblocks);
  const auto* bytes = static_cast<const unsigned char*>(data);
  parallel_for(nblocks, threads, [&](std::size_t k) {
    const std::size_t begin = k * block_size;
    members[k] = gzip_compress(bytes + begin, std::min(block_size, nbytes - begin), level);
  });
  std::vector<unsigned char> out;
  std::size_t total = 0;
  for (const auto& m : members) total += m.size();
  out.reserve(total);
  for (const auto& m : members) out.insert(out.end(), m.begin(), m.end());
  return out;
}

}  // namespace meshioplusplus::codec
