// meshio++ core codec: VTK block compressors, dispatched by kind (see compressor.hpp).
#include "core/codec/compressor.hpp"

#include <stdexcept>

#include "core/codec/lz4.hpp"
#include "core/codec/lzma.hpp"
#include "core/codec/zlib.hpp"

namespace meshioplusplus::codec {

std::optional<Compressor> compressor_from_name(std::string_view name) {
  if (name == "zlib") return Compressor::zlib;
  if (name == "lzma") return Compressor::lzma;
  if (name == "lz4") return Compressor::lz4;
  return std::nullopt;
}

std::optional<Compressor> compressor_from_vtk_name(std::string_view vtk_name) {
  for (Compressor c : {Compressor::zlib, Compressor::lzma, Compressor::lz4})
    if (compressor_vtk_name(c) == vtk_name) return c;
  return std::nullopt;
}

std::string_view compressor_name(Compressor c) {
  switch (c) {
    case Compressor::zlib: return "zlib";
    case Compressor::lzma: return "lzma";
    case Compressor::lz4: return "lz4";
  }
  return "";
}

std::string_view compressor_vtk_name(Compressor c) {
  switch (c) {
    case Compressor::zlib: return "vtkZLibDataCompressor";
    case Compressor::lzma: return "vtkLZMADataCompressor";
    case Compressor::lz4: return "vtkLZ4DataCompressor";
  }
  return "";
}

std::string_view compressor_package(Compressor c) {
  switch (c) {
    case Compressor::zlib: return "zlib1g-dev";
    case Compressor::lzma: return "liblzma-dev";
    case Compressor::lz4: return "liblz4-dev";
  }
  return "";
}

bool compressor_available(Compressor c) {
  switch (c) {
    case Compressor::zlib: return zlib_available();
    case Compressor::lzma: return lzma_available();
    case Compressor::lz4: return lz4_available();
  }
  return false;
}

std::string decompress(Compressor c, const void* src, std::size_t src_nbytes, void* dst, std::size_t dst_nbytes) {
  switch (c) {
    case Compressor::zlib: return zlib_inflate(src, src_nbytes, dst, dst_nbytes);
    case Compressor::lzma: return lzma_decode(src, src_nbytes, dst, dst_nbytes);
    case Compressor::lz4: return lz4_decode(src, src_nbytes, dst, dst_nbytes);
  }
  return "unknown compressor";
}

std::vector<unsigned char> compress(Compressor c, const void* data, std::size_t nbytes, int level) {
  switch (c) {
    case Compressor::zlib: return zlib_compress(data, nbytes, level, level == 1);
    case Compressor::lzma: return lzma_encode(data, nbytes, level);
    case Compressor::lz4: return lz4_encode(data, nbytes, level);
  }
  throw std::logic_error("unknown compressor");
}

double max_expansion(Compressor c) {
  // zlib: 1032:1 at best (deflate's longest match per bit); LZ4: 255 bytes per byte of a
  // length run; xz: LZMA2 can exceed 7000:1 on constant data, so bound it generously.
  switch (c) {
    case Compressor::zlib: return 1032.0;
    case Compressor::lzma: return 1.0e6;
    case Compressor::lz4: return 256.0;
  }
  return 1.0;
}

}  // namespace meshioplusplus::codec
