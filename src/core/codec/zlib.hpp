// meshio++ core codec: zlib blocks (RFC 1950 streams), as vtkZLibDataCompressor writes them.
// https://www.rfc-editor.org/rfc/rfc1950 (zlib), https://www.rfc-editor.org/rfc/rfc1951 (deflate)
//
// Three libraries make and read the same standard streams, and differ only in speed
// (bench/micro/primitives.cpp measures them on mesh arrays; docs/benchmarks.md has the
// numbers): zlib itself, libdeflate (whole-buffer, Debian libdeflate-dev) and Intel's ISA-L
// igzip (Debian libisal-dev). VTU blocks are independent whole buffers of known size, the
// case the latter two are built for. Each is optional at build time (CMake defines
// MESHIOPP_HAVE_ZLIB / _LIBDEFLATE / _ISAL); zlib_inflate and zlib_compress use the
// fastest one the build has, and any engine reads any other's streams.
//
// Without any of them zlib_available() is false and every other function throws
// std::runtime_error saying so; the formats check zlib_available() first and raise their
// own ReadError/WriteError.
//
// Untrusted input: zlib_inflate writes at most `dst_nbytes` bytes and reports a stream
// that is corrupt, ends early, or decodes to a size other than the expected one.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace meshioplusplus::codec {

bool zlib_available();

enum class ZlibEngine { zlib, libdeflate, isal };

// The engines this build has, and their names ("zlib", "libdeflate", "isa-l").
std::vector<ZlibEngine> zlib_engines();
std::string zlib_engine_name(ZlibEngine e);
// The engines zlib_inflate and zlib_compress use (the fastest built in, as measured).
ZlibEngine zlib_inflate_engine();
ZlibEngine zlib_compress_engine(int level, bool rle);

// zlib_inflate / zlib_compress with a given engine (for the micro-benchmarks and the tests
// that check every engine reads every other's streams); throws std::invalid_argument for
// an engine the build does not have.
std::string zlib_inflate_with(ZlibEngine e, const void* src, std::size_t src_nbytes, void* dst, std::size_t dst_nbytes);
std::vector<unsigned char> zlib_compress_with(ZlibEngine e, const void* data, std::size_t nbytes, int level, bool rle = false);

// Inflates the zlib stream src[0, src_nbytes) into exactly dst_nbytes bytes at dst.
// Returns "" on success, else why it failed.
std::string zlib_inflate(const void* src, std::size_t src_nbytes, void* dst, std::size_t dst_nbytes);

// Compresses `nbytes` bytes at `data` (one zlib stream) at `level` (0..9, -1 = default).
// `rle` selects zlib's Z_RLE strategy (run-length matches only): about twice as fast as
// level 1 on mesh arrays (int64 indices, doubles) for a ~3% larger output, and still a
// plain zlib stream that any inflater (VTK, meshio) reads.
std::vector<unsigned char> zlib_compress(const void* data, std::size_t nbytes, int level, bool rle = false);

// Compresses data[0, nbytes) in blocks of `block_size` bytes (the last one shorter), each
// an independent zlib stream, on up to `threads` threads. The output never depends on the
// thread count.
std::vector<std::vector<unsigned char>> zlib_compress_blocks(const void* data, std::size_t nbytes,
                                                             std::size_t block_size, int level, unsigned threads,
                                                             bool rle = false);

// gzip files (RFC 1952), as gzip(1) and Python's gzip module write them (.vol.gz): the
// members of src[0, src_nbytes) inflated one after another into `out`, which never grows
// past `max_nbytes` (the caller's bound: deflate expands at most 1032:1, so a caller
// passes min(its own limit, 1032 * src_nbytes + slack)). Returns "" on success, else why
// it failed (not gzip, corrupt, cut short, or larger than max_nbytes).
std::string gzip_inflate(const void* src, std::size_t src_nbytes, std::size_t max_nbytes, std::vector<char>& out);

// A file that may be gzip-compressed (.vol.gz, .dato.gz): `raw` itself when it does not
// start with gzip's magic (1f 8b), else its members inflated into `inflated`, bounded by
// deflate's 1032:1 expansion and by `limit`. Sets `text` to what was read; returns "" on
// success, else why it failed (built without zlib, corrupt, cut short, too large).
std::string gunzip_if_gzip(std::string_view raw, std::size_t limit, std::vector<char>& inflated, std::string_view& text);

// One gzip member holding `nbytes` bytes at `data`, at `level` (0..9, -1 = default).
std::vector<unsigned char> gzip_compress(const void* data, std::size_t nbytes, int level);

// A gzip file of one member per `block_size` bytes (a valid gzip file: gzip(1), Python's
// gzip and gzip_inflate read the members one after another), compressed on up to `threads`
// threads. The output never depends on the thread count.
std::vector<unsigned char> gzip_compress_members(const void* data, std::size_t nbytes, std::size_t block_size, int level,
                                                 unsigned threads);

}  // namespace meshioplusplus::codec
