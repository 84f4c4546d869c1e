// meshio++ core codec: xz (LZMA2) blocks as vtkLZMADataCompressor writes them
// (https://vtk.org/doc/nightly/html/classvtkLZMADataCompressor.html; container:
// https://tukaani.org/xz/xz-file-format.txt). liblzma is optional: CMake defines
// MESHIOPP_HAVE_LZMA=1 when it finds it; without it lzma_available() is false and the
// other functions throw std::runtime_error naming liblzma-dev.
//
// Untrusted input: lzma_decode writes at most `dst_nbytes` bytes, with a bounded decoder
// memory limit, and reports a corrupt stream or one that decodes to another size.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace meshioplusplus::codec {

bool lzma_available();
std::string lzma_decode(const void* src, std::size_t src_nbytes, void* dst, std::size_t dst_nbytes);
// `level`: xz preset 0..9 (-1 = 6, xz's default).
std::vector<unsigned char> lzma_encode(const void* data, std::size_t nbytes, int level);

}  // namespace meshioplusplus::codec
