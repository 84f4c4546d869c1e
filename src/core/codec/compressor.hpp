// meshio++ core codec: the block compressors of VTK's XML formats, behind one interface.
//
//   zlib  vtkZLibDataCompressor: one zlib (RFC 1950) stream per block (zlib.hpp)
//   lzma  vtkLZMADataCompressor: one .xz container per block (liblzma's
//         lzma_easy_buffer_encode / lzma_stream_buffer_decode; Python's lzma module,
//         and so meshio, writes and reads the same), lzma.hpp
//   lz4   vtkLZ4DataCompressor: one raw LZ4 block per block (LZ4_compress_fast /
//         LZ4_decompress_safe; no frame), lz4.hpp
// https://vtk.org/doc/nightly/html/classvtkDataCompressor.html
//
// Each library is optional at build time (CMake defines MESHIOPP_HAVE_ZLIB / _LZMA / _LZ4);
// available() says whether this build has one and package() names the Debian package
// that enables it, for the formats' error messages.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace meshioplusplus::codec {

enum class Compressor { zlib, lzma, lz4 };

// "zlib" / "lzma" / "lz4" (meshio's compression= values); nullopt otherwise.
std::optional<Compressor> compressor_from_name(std::string_view name);
// "vtkZLibDataCompressor" ...; nullopt otherwise.
std::optional<Compressor> compressor_from_vtk_name(std::string_view vtk_name);
std::string_view compressor_name(Compressor c);
std::string_view compressor_vtk_name(Compressor c);
// The -dev package whose library enables `c` in a build ("zlib1g-dev", ...).
std::string_view compressor_package(Compressor c);
bool compressor_available(Compressor c);

// Decodes one block src[0, src_nbytes) into exactly dst_nbytes bytes at dst; "" on
// success, else why it failed. Never writes past dst + dst_nbytes.
std::string decompress(Compressor c, const void* src, std::size_t src_nbytes, void* dst, std::size_t dst_nbytes);
// Encodes one block at `level` (zlib 0..9, lzma 0..9, lz4: acceleration = 10 - level).
std::vector<unsigned char> compress(Compressor c, const void* data, std::size_t nbytes, int level);
// The most compressed bytes `nbytes` decoded bytes can come from, for rejecting a header
// that declares more than a compressor could produce before allocating it.
double max_expansion(Compressor c);

}  // namespace meshioplusplus::codec
