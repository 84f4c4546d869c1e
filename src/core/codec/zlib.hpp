// meshio++ core codec: zlib blocks (RFC 1950 streams), as vtkZLibDataCompressor writes them.
//
// zlib is optional: CMake defines MESHIOPP_HAVE_ZLIB=1 when it finds it. Without it
// zlib_available() is false and every other function throws std::runtime_error saying
// so; the formats check zlib_available() first and raise their own ReadError/WriteError.
//
// Untrusted input: zlib_inflate writes at most `dst_nbytes` bytes and reports a stream
// that is corrupt, ends early, or decodes to a size other than the expected one.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace meshioplusplus::codec {

bool zlib_available();

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

// One gzip member holding `nbytes` bytes at `data`, at `level` (0..9, -1 = default).
std::vector<unsigned char> gzip_compress(const void* data, std::size_t nbytes, int level);

// A gzip file of one member per `block_size` bytes (a valid gzip file: gzip(1), Python's
// gzip and gzip_inflate read the members one after another), compressed on up to `threads`
// threads. The output never depends on the thread count.
std::vector<unsigned char> gzip_compress_members(const void* data, std::size_t nbytes, std::size_t block_size, int level,
                                                 unsigned threads);

}  // namespace meshioplusplus::codec
