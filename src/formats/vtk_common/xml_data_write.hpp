// meshio++ formats: what every VTK XML dataset writer shares (VTU, VTP, VTS, VTR, VTI):
// the writer options, the VTKFile header, DataArray encoding (ascii, inline base64,
// appended raw) with or without block compression, and the AppendedData section.
// Spec: https://docs.vtk.org/en/latest/design_documents/VTKFileFormats.html#xml-file-formats
//
// Options (meshio's vtu names first), read by XmlWriteOptions::read:
//   binary=true             false -> data_mode "ascii"
//   compression="zlib"      "zlib", "lzma", "lz4" or None (core/codec/compressor.hpp)
//   data_mode               "ascii" | "binary" (inline base64) | "appended" (raw bytes)
//   header_type="UInt64"    or "UInt32"; None (meshio's default) means UInt64
//   compression_level       0..9; zlib: 1 by default (VTK's own writer uses 5, meshio 6),
//                           level 1 uses zlib's Z_RLE strategy (twice as fast, ~3% larger);
//                           lzma: xz preset, 6 by default (Python's lzma, so meshio);
//                           lz4: acceleration 10 - level, 9 by default (acceleration 1)
//   threads=0               compression threads (0 = all cores); output never depends on it
//   float_fmt=""            ASCII floats: meshio's float_fmt ("" = shortest round-trip)
//
// Compressed arrays are cut into 32 KiB blocks (VTK's default) that are compressed
// independently, all arrays' blocks in one parallel loop, so the file is byte-identical
// whatever the thread count. Byte order is the host's (LittleEndian on x86/ARM).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/codec/compressor.hpp"
#include "core/io/array_writer.hpp"
#include "core/io/file.hpp"
#include "core/io/text_writer.hpp"
#include "meshioplusplus/format.hpp"
#include "meshioplusplus/mesh.hpp"

namespace meshioplusplus::vtk {

struct XmlWriteOptions {
  enum class Mode { ascii, binary, appended };
  Mode mode = Mode::binary;
  bool compress = true;
  std::size_t header_bytes = 8;
  int level = 1;
  unsigned threads = 1;
  io::FloatFormat float_format;
  codec::Compressor compressor = codec::Compressor::zlib;

  // Reads the options above from `opts` (the caller calls opts.finish() after its own);
  // bad values are std::invalid_argument naming `format`.
  static XmlWriteOptions read(OptionReader& opts, std::string_view format);
};


// Collects the arrays of one dataset, grouped by element, then writes the file:
//   <VTKFile type=... version=... byte_order header_type [compressor]>
//     <`type` `dataset_attrs`> [FieldData] <Piece `piece_attrs`> groups... </Piece> </`type`>
//     [AppendedData]
class XmlDataWriter {
 public:
  XmlDataWriter(std::string format, std::string path, const XmlWriteOptions& options);

  // Starts a group element (Points, Cells, PointData, ...) inside the Piece; "FieldData"
  // goes before the Piece. Arrays added next belong to it.
  void group(std::string tag);
  // Adds a DataArray: (n,) or (n, components); `extra_attrs` start with a space.
  void add(const std::string& name, NDArray data, const std::string& extra_attrs = {});
  // Field data of `mesh` as a FieldData group (nothing when it has none).
  void add_field_data(const Mesh& mesh);

  void write(std::string_view type, std::string_view version, const std::string& dataset_attrs,
             const std::string& piece_attrs);

 private:
  struct OutArray {
    std::string attrs;
    NDArray data;
    std::size_t comps = 1;
    std::vector<std::vector<unsigned char>> blocks;  // compressed payload, one stream per block
  };
  struct Group {
    std::string tag;
    std::vector<OutArray> arrays;
  };
  void compress_all();
  void put_header_value(std::vector<unsigned char>& h, std::uint64_t v) const;
  std::vector<unsigned char> header_of(const OutArray& a) const;
  std::size_t payload_size(const OutArray& a) const;
  void write_array(io::TextWriter& w, const OutArray& a);
  void write_raw_payload(io::AtomicFile& f, const OutArray& a) const;

  std::string format_, path_;
  XmlWriteOptions o_;
  std::vector<Group> groups_;
  std::size_t appended_offset_ = 0;
};

}  // namespace meshioplusplus::vtk
