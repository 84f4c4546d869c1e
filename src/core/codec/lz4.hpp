// meshio++ core codec: raw LZ4 blocks as vtkLZ4DataCompressor writes them (no frame:
// https://github.com/lz4/lz4/blob/dev/doc/lz4_Block_format.md;
// https://vtk.org/doc/nightly/html/classvtkLZ4DataCompressor.html). liblz4 is optional:
// CMake defines MESHIOPP_HAVE_LZ4=1 when it finds it; without it lz4_available() is false
// and the other functions throw std::runtime_error naming liblz4-dev.
//
// Untrusted input: LZ4_decompress_safe never writes past `dst_nbytes` and rejects
// malformed blocks; a block that decodes to another size is reported.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace meshioplusplus::codec {

bool lz4_available();
std::string lz4_decode(const void* src, std::size_t src_nbytes, void* dst, std::size_t dst_nbytes);
// `level` 0..9 maps to LZ4 acceleration 10 - level (a higher level compresses harder); -1 = 1.
std::vector<unsigned char> lz4_encode(const void* data, std::size_t nbytes, int level);

}  // namespace meshioplusplus::codec
