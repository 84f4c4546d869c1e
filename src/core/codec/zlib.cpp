// meshio++ core codec: zlib blocks (see zlib.hpp), through zlib, libdeflate or ISA-L.
// libdeflate: https://github.com/ebiggers/libdeflate (libdeflate.h)
// ISA-L igzip: https://github.com/intel/isa-l (include/igzip_lib.h)
#include "core/codec/zlib.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <stdexcept>

#include "core/parallel.hpp"

#if MESHIOPP_HAVE_ZLIB
#include <zlib.h>
#endif
#if MESHIOPP_HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif
#if MESHIOPP_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif

namespace meshioplusplus::codec {

namespace {

// The messages every engine gives for the same fault, so errors do not depend on the build.
std::string too_long(std::size_t dst_nbytes) {
  return "the block decompresses to more than the " + std::to_string(dst_nbytes) + " bytes the header declares";
}
std::string too_short(std::size_t made, std::size_t dst_nbytes) {
  return "the block decompresses to " + std::to_string(made) + " bytes, the header declares " + std::to_string(dst_nbytes);
}
const char* const kEndsEarly = "the compressed block ends early";

[[noreturn]] void not_built(ZlibEngine e) {
  throw std::invalid_argument("meshio++ was built without " + zlib_engine_name(e));
}

#if MESHIOPP_HAVE_ZLIB
std::string inflate_zlib(const void* src, std::size_t src_nbytes, void* dst, std::size_t dst_nbytes) {
  // One inflate() call per 1 GiB: the output size is known exactly, so there is no
  // intermediate buffer and nothing is written past dst + dst_nbytes.
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
      err = out_left == 0 ? too_long(dst_nbytes) : kEndsEarly;
    } else {
      err = std::string("zlib: ") + (zs.msg ? zs.msg : "corrupt data");
    }
    break;
  }
  inflateEnd(&zs);
  if (err.empty() && out_left != 0) err = too_short(dst_nbytes - out_left, dst_nbytes);
  return err;
}

std::vector<unsigned char> compress_zlib(const void* data, std::size_t nbytes, int level, bool rle) {
  z_stream zs{};
  if (deflateInit2(&zs, level, Z_DEFLATED, 15, 8, rle ? Z_RLE : Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("zlib deflateInit2 failed");
  std::vector<unsigned char> out(deflateBound(&zs, static_cast<uLong>(nbytes)));
  const auto* in = static_cast<const Bytef*>(data);
  std::size_t in_left = nbytes;
  zs.next_out = out.data();
  zs.avail_out = static_cast<uInt>(std::min<std::size_t>(out.size(), 1u << 30));
  int rc = Z_OK;
  do {  // input in chunks of at most 1 GiB (avail_in is 32-bit); the output holds the bound
    const uInt chunk = static_cast<uInt>(std::min<std::size_t>(in_left, 1u << 30));
    zs.next_in = const_cast<Bytef*>(in);
    zs.avail_in = chunk;
    in_left -= chunk, in += chunk;
    const std::size_t out_used = static_cast<std::size_t>(zs.next_out - out.data());
    zs.avail_out = static_cast<uInt>(std::min<std::size_t>(out.size() - out_used, 1u << 30));
    rc = deflate(&zs, in_left == 0 ? Z_FINISH : Z_NO_FLUSH);
  } while (in_left > 0 && rc == Z_OK);
  const std::size_t produced = static_cast<std::size_t>(zs.next_out - out.data());
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) throw std::runtime_error("zlib deflate failed (" + std::to_string(rc) + ")");
  out.resize(produced);
  return out;
}
#endif

#if MESHIOPP_HAVE_LIBDEFLATE
// libdeflate's (de)compressors hold tables worth reusing; one per thread (and per level),
// freed with the thread: a caller's, or a thread of the parallel_for pool (parallel.cpp),
// which keeps its own for the next call.
struct LibdeflateState {
  libdeflate_decompressor* decompressor = nullptr;
  std::array<libdeflate_compressor*, 13> compressors{};
  ~LibdeflateState() {
    if (decompressor) libdeflate_free_decompressor(decompressor);
    for (auto* c : compressors)
      if (c) libdeflate_free_compressor(c);
  }
};
thread_local LibdeflateState libdeflate_state;

std::string inflate_libdeflate(const void* src, std::size_t src_nbytes, void* dst, std::size_t dst_nbytes) {
  auto& d = libdeflate_state.decompressor;
  if (!d && !(d = libdeflate_alloc_decompressor())) throw std::bad_alloc();
  std::size_t made = 0;
  switch (libdeflate_zlib_decompress(d, src, src_nbytes, dst, dst_nbytes, &made)) {
    case LIBDEFLATE_SUCCESS: return made == dst_nbytes ? "" : too_short(made, dst_nbytes);
    case LIBDEFLATE_INSUFFICIENT_SPACE: return too_long(dst_nbytes);
    case LIBDEFLATE_SHORT_OUTPUT: return too_short(made, dst_nbytes);
    default: return "zlib: corrupt or truncated data (libdeflate)";
  }
}

std::vector<unsigned char> compress_libdeflate(const void* data, std::size_t nbytes, int level) {
  level = level < 0 ? 6 : std::min(level, 12);
  auto& c = libdeflate_state.compressors[static_cast<std::size_t>(level)];
  if (!c && !(c = libdeflate_alloc_compressor(level))) throw std::bad_alloc();
  std::vector<unsigned char> out(libdeflate_zlib_compress_bound(c, nbytes));
  const std::size_t produced = libdeflate_zlib_compress(c, data, nbytes, out.data(), out.size());
  if (produced == 0) throw std::runtime_error("libdeflate compression failed");
  out.resize(produced);
  return out;
}
#endif

#if MESHIOPP_HAVE_ISAL
// igzip's stateless calls take 32-bit sizes: larger buffers go to another engine.
constexpr std::size_t kIsalMaxBytes = std::size_t{1} << 31;

std::string inflate_isal(const void* src, std::size_t src_nbytes, void* dst, std::size_t dst_nbytes) {
  inflate_state st;
  isal_inflate_init(&st);
  st.crc_flag = ISAL_ZLIB;
  st.next_in = const_cast<std::uint8_t*>(static_cast<const std::uint8_t*>(src));
  st.avail_in = static_cast<std::uint32_t>(src_nbytes);
  st.next_out = static_cast<std::uint8_t*>(dst);
  st.avail_out = static_cast<std::uint32_t>(dst_nbytes);
  const int rc = isal_inflate_stateless(&st);
  const std::size_t made = dst_nbytes - st.avail_out;
  switch (rc) {
    case ISAL_DECOMP_OK: return made == dst_nbytes ? "" : too_short(made, dst_nbytes);
    case ISAL_OUT_OVERFLOW: return too_long(dst_nbytes);
    case ISAL_END_INPUT: return kEndsEarly;
    case ISAL_INCORRECT_CHECKSUM: return "zlib: incorrect data check";
    default: return "zlib: corrupt data (isa-l " + std::to_string(rc) + ")";
  }
}

// ISA-L levels 1..3 (0 is Huffman only); compress_isal serves zlib levels 1..3.
std::vector<unsigned char> compress_isal(const void* data, std::size_t nbytes, int level) {
  static constexpr std::array<std::uint32_t, 4> kLevelBuf = {0, ISAL_DEF_LVL1_DEFAULT, ISAL_DEF_LVL2_DEFAULT,
                                                               ISAL_DEF_LVL3_DEFAULT};
  const std::size_t isal_level = static_cast<std::size_t>(std::clamp(level, 1, 3));
  thread_local std::array<std::unique_ptr<std::uint8_t[]>, 4> level_bufs;
  auto& buf = level_bufs[isal_level];
  if (!buf) buf = std::make_unique<std::uint8_t[]>(kLevelBuf[isal_level]);
  // Incompressible input grows by the stored-block overhead (5 bytes per 64 KiB) + header.
  std::vector<unsigned char> out(nbytes + nbytes / 1000 + 5 * (nbytes / 65535 + 1) + ISAL_DEF_MAX_HDR_SIZE + 64);
  isal_zstream zs;
  isal_deflate_stateless_init(&zs);
  zs.level = static_cast<std::uint32_t>(isal_level);
  zs.level_buf = buf.get();
  zs.level_buf_size = kLevelBuf[isal_level];
  zs.gzip_flag = IGZIP_ZLIB;
  zs.end_of_stream = 1;
  zs.flush = NO_FLUSH;
  zs.next_in = const_cast<std::uint8_t*>(static_cast<const std::uint8_t*>(data));
  zs.avail_in = static_cast<std::uint32_t>(nbytes);
  zs.next_out = out.data();
  zs.avail_out = static_cast<std::uint32_t>(out.size());
  const int rc = isal_deflate_stateless(&zs);
  if (rc != COMP_OK) throw std::runtime_error("isa-l compression failed (" + std::to_string(rc) + ")");
  out.resize(out.size() - zs.avail_out);
  return out;
}
#endif

}  // namespace

std::vector<ZlibEngine> zlib_engines() {
  std::vector<ZlibEngine> all;
#if MESHIOPP_HAVE_ZLIB
  all.push_back(ZlibEngine::zlib);
#endif
#if MESHIOPP_HAVE_LIBDEFLATE
  all.push_back(ZlibEngine::libdeflate);
#endif
#if MESHIOPP_HAVE_ISAL
  all.push_back(ZlibEngine::isal);
#endif
  return all;
}

bool zlib_available() { return !zlib_engines().empty(); }

std::string zlib_engine_name(ZlibEngine e) {
  switch (e) {
    case ZlibEngine::zlib: return "zlib";
    case ZlibEngine::libdeflate: return "libdeflate";
    case ZlibEngine::isal: return "isa-l";
  }
  return "?";
}

// The choices follow bench/micro (docs/benchmarks.md, "zlib engines"): libdeflate inflates
// fastest and deflates faster than zlib at every level with a better ratio. ISA-L deflates
// faster still, but its stateless deflate keeps match history in the per-thread level
// buffer between calls, so the same block could compress to other (valid) bytes after
// other blocks: files must be byte-identical whatever the thread count, so it is not a
// default; zlib_compress_with(isal, ...) stays for measurement.
ZlibEngine zlib_inflate_engine() {
#if MESHIOPP_HAVE_LIBDEFLATE
  return ZlibEngine::libdeflate;
#elif MESHIOPP_HAVE_ISAL
  return ZlibEngine::isal;
#else
  return ZlibEngine::zlib;
#endif
}

ZlibEngine zlib_compress_engine(int, bool) {
#if MESHIOPP_HAVE_LIBDEFLATE
  return ZlibEngine::libdeflate;
#else
  return ZlibEngine::zlib;
#endif
}

std::string zlib_inflate_with(ZlibEngine e, const void* src, std::size_t src_nbytes, void* dst, std::size_t dst_nbytes) {
  switch (e) {
    case ZlibEngine::zlib:
#if MESHIOPP_HAVE_ZLIB
      return inflate_zlib(src, src_nbytes, dst, dst_nbytes);
#else
      break;
#endif
    case ZlibEngine::libdeflate:
#if MESHIOPP_HAVE_LIBDEFLATE
      return inflate_libdeflate(src, src_nbytes, dst, dst_nbytes);
#else
      break;
#endif
    case ZlibEngine::isal:
#if MESHIOPP_HAVE_ISAL
      if (src_nbytes < kIsalMaxBytes && dst_nbytes < kIsalMaxBytes) return inflate_isal(src, src_nbytes, dst, dst_nbytes);
      return "the block is larger than the 2 GiB isa-l inflates at once";
#else
      break;
#endif
  }
  not_built(e);
}

std::vector<unsigned char> zlib_compress_with(ZlibEngine e, const void* data, std::size_t nbytes, int level, bool rle) {
  if (level < -1 || level > 9) throw std::invalid_argument("zlib level " + std::to_string(level) + " is not in -1..9");
  switch (e) {
    case ZlibEngine::zlib:
#if MESHIOPP_HAVE_ZLIB
      return compress_zlib(data, nbytes, level, rle);
#else
      break;
#endif
    case ZlibEngine::libdeflate:
#if MESHIOPP_HAVE_LIBDEFLATE
      return compress_libdeflate(data, nbytes, rle ? 1 : level);
#else
      break;
#endif
    case ZlibEngine::isal:
#if MESHIOPP_HAVE_ISAL
      // Level 0 (stored blocks) and buffers past igzip's 32-bit sizes: another engine.
      if (level != 0 && nbytes < kIsalMaxBytes / 2) return compress_isal(data, nbytes, rle ? 1 : level < 0 ? 3 : level);
#if MESHIOPP_HAVE_LIBDEFLATE
      return compress_libdeflate(data, nbytes, level);
#elif MESHIOPP_HAVE_ZLIB
      return compress_zlib(data, nbytes, level, rle);
#else
      throw std::invalid_argument("isa-l cannot write zlib level 0 (stored) blocks");
#endif
#else
      break;
#endif
  }
  not_built(e);
}

std::string zlib_inflate(const void* src, std::size_t src_nbytes, void* dst, std::size_t dst_nbytes) {
  if (!zlib_available()) throw std::runtime_error("meshio++ was built without zlib");
  ZlibEngine engine = zlib_inflate_engine();
#if MESHIOPP_HAVE_ISAL && MESHIOPP_HAVE_ZLIB
  if (engine == ZlibEngine::isal && (src_nbytes >= kIsalMaxBytes || dst_nbytes >= kIsalMaxBytes)) engine = ZlibEngine::zlib;
#endif
  return zlib_inflate_with(engine, src, src_nbytes, dst, dst_nbytes);
}

std::vector<unsigned char> zlib_compress(const void* data, std::size_t nbytes, int level, bool rle) {
  if (!zlib_available()) throw std::runtime_error("meshio++ was built without zlib");
  return zlib_compress_with(zlib_compress_engine(level, rle), data, nbytes, level, rle);
}

// gzip files (see zlib.hpp): zlib's own gzip wrapper; multi-member files as gzip(1) reads them.
#if MESHIOPP_HAVE_ZLIB
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
std::string gzip_inflate(const void*, std::size_t, std::size_t, std::vector<char>&) {
  throw std::runtime_error("meshio++ was built without zlib");
}

std::vector<unsigned char> gzip_compress(const void*, std::size_t, int) {
  throw std::runtime_error("meshio++ was built without zlib");
}
#endif

std::string gunzip_if_gzip(std::string_view raw, std::size_t limit, std::vector<char>& inflated, std::string_view& text) {
  text = raw;
  if (raw.size() < 2 || static_cast<unsigned char>(raw[0]) != 0x1f || static_cast<unsigned char>(raw[1]) != 0x8b) return "";
  if (!zlib_available()) return "a gzip file, and meshio++ was built without zlib";
  // deflate makes at most 1032 bytes per compressed byte: the bound on what is allocated
  const std::size_t bound = std::min<std::uint64_t>(limit, 1032 * static_cast<std::uint64_t>(raw.size()) + (1 << 16));
  std::string err = gzip_inflate(raw.data(), raw.size(), bound, inflated);
  if (!err.empty()) return "gzip: " + err;
  text = std::string_view(inflated.data(), inflated.size());
  return "";
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
