// meshio++ core codec: zlib blocks (RFC 1950 streams), as vtkZLibDataCompressor writes them,
// and one-member gzip files (RFC 1952).
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

// gzip files (RFC 1952, one member; the PERMAS .post.gz / .dato.gz decks): the size the
// member's trailer declares (ISIZE: the inflated size modulo 2^32), or -1 when `src` is no
// gzip stream (magic 1f 8b, method 8, at least a header and a trailer). Inflating can make
// at most kMaxInflateRatio bytes per compressed byte (deflate's limit), which bounds what
// a caller allocates from the declared size.
long long gzip_declared_size(const void* src, std::size_t src_nbytes);
inline constexpr std::size_t kMaxInflateRatio = 1032;
// Inflates the gzip member src[0, src_nbytes) into exactly dst_nbytes bytes at dst (header
// fields and CRC checked by zlib). "" on success, else why it failed; bytes after the
// member (a second member) are an error.
std::string gzip_inflate(const void* src, std::size_t src_nbytes, void* dst, std::size_t dst_nbytes);
// One gzip member holding data[0, nbytes), at `level` (0..9, -1 = default).
std::vector<unsigned char> gzip_compress(const void* data, std::size_t nbytes, int level);

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

}  // namespace meshioplusplus::codec
