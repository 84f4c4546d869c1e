// meshio++ formats: what every VTK XML dataset reader shares (VTU, VTP, VTS, VTR, VTI):
// the VTKFile root (type, byte_order, header_type, compressor), the AppendedData
// section, and the decoding of any DataArray into an NDArray.
// Spec: https://docs.vtk.org/en/latest/design_documents/VTKFileFormats.html#xml-file-formats
//
//   format="ascii"     numbers in the DataArray text, parsed in place (from_chars)
//   format="binary"    base64 in the DataArray text: [header][data]
//   format="appended"  at `offset` in <AppendedData>, raw bytes or base64 text
//   header             UInt32 or UInt64 (header_type), in the file's byte_order:
//                        uncompressed: [nbytes]
//                        compressed:   [nblocks][block size][last block size][csize_0..]
//   compressor         vtkZLibDataCompressor, vtkLZMADataCompressor, vtkLZ4DataCompressor
//                      (core/codec/compressor.hpp; others are reported by name)
//
// Every array is allocated once, at its final size, after its declared size was checked
// against the bytes left in the file; base64 is decoded and compressed blocks are
// inflated (in parallel) straight into it. Errors are ReadError naming the format, the
// file, the line and the byte.
#pragma once

#include <array>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/codec/compressor.hpp"
#include "core/io/cursor.hpp"
#include "core/io/file.hpp"
#include "core/io/xml.hpp"
#include "meshioplusplus/mesh.hpp"

namespace meshioplusplus::vtk {

// Named arrays in file order (a Piece's PointData or CellData).
using NamedArrays = std::vector<std::pair<std::string, NDArray>>;

class XmlDataReader {
 public:
  // Maps and parses `path`; checks that the root is <VTKFile type="`dataset`"> and that it
  // holds exactly one <`dataset`> element (plus an optional AppendedData).
  XmlDataReader(const std::string& path, const char* format, std::string_view dataset, unsigned threads);

  const io::XmlElement& dataset() const { return *dataset_; }
  const io::XmlDocument& document() const { return doc_; }
  const io::Cursor& cursor() const { return cur_; }
  std::size_t file_size() const { return file_.size(); }

  // Called on a DataArray's values as they land in the array read_array returns (values
  // [first, first + count) of the file's dtype, in the host's byte order): an appended raw
  // array a cache-sized piece at a time, on several threads (the pieces of one range in
  // order, range < io::kMaxChunkRanges), so checks of the values cost no second pass over
  // memory; any other encoding once, with the whole array, as range 0.
  using PieceVisitor = std::function<void(unsigned range, DType dtype, std::size_t first, std::size_t count, const void* values)>;

  // Visits a one-component DataArray of `count` values without keeping it: an appended
  // raw array in the host's byte order is read a cache-sized piece at a time into a buffer
  // of its own (pieces of one range in order, ranges in parallel, range <
  // io::kMaxChunkRanges); visit returns false to stop its range. Any other array is
  // decoded whole (every check of read_array), visited once as range 0, and returned, so a
  // caller that needs it after all does not decode it twice (drop it with drop_scanned).
  using ScanVisitor = std::function<bool(unsigned range, DType dtype, std::size_t first, std::size_t count, const void* values)>;
  std::optional<NDArray> scan_array(const io::XmlElement& da, std::size_t count, const ScanVisitor& visit);
  // Drops what scan_array decoded, its buffer back to the system rather than into the
  // buffer cache (core/uncached_scope.hpp): kept, it would raise the read's peak memory.
  static void drop_scanned(std::optional<NDArray>& decoded);

  // A one-component integer DataArray of `count` values as int64 into `out`: straight from
  // the file when it is appended raw Int64 in the host's order, else decoded (every check of
  // read_array) and converted. Returns the file's dtype; a floating-point one leaves `out`
  // unwritten (the caller names the array in its error).
  DType read_int64(const io::XmlElement& da, std::size_t count, std::int64_t* out);
  // An integer array's values converted into `out` (read_int64's last step, for an array
  // already decoded).
  static void copy_as_int64(const NDArray& a, std::int64_t* out);

  // Decodes a DataArray. `tuples`: the expected tuple count when known (checked), else
  // taken from the data. Shape (tuples,) for one component, else (tuples, components).
  NDArray read_array(const io::XmlElement& da, std::optional<std::size_t> tuples, const PieceVisitor* visit = nullptr);
  // The <Points> element's one DataArray: (num_points, 3), floating point.
  NDArray read_points(const io::XmlElement& points, std::size_t num_points);
  // Every DataArray of a PointData / CellData element, `tuples` rows each; names unique.
  NamedArrays read_data(const io::XmlElement& group, std::size_t tuples);
  // Every DataArray of a FieldData element into `field_data` (NumberOfTuples honoured).
  void read_field_data(const io::XmlElement& group, std::map<std::string, NDArray>& field_data);

  [[noreturn]] void fail_at(const io::XmlElement& el, const std::string& what) const { cur_.fail_at(what, el.begin); }
  [[noreturn]] void fail_ptr(const char* at, const std::string& what) const { cur_.fail_at(what, at); }
  std::string attr(const io::XmlElement& el, std::string_view key) const;
  std::size_t parse_count(const io::XmlElement& el, std::string_view key, const std::string& v) const;
  std::size_t count_attr(const io::XmlElement& el, std::string_view key) const { return parse_count(el, key, attr(el, key)); }
  void expect_data_array(const io::XmlElement& el) const;
  // Six integers (x0 x1 y0 y1 z0 z1) of an Extent / WholeExtent attribute.
  std::array<std::int64_t, 6> extent_attr(const io::XmlElement& el, std::string_view key) const;
  // `n` numbers of a float-valued attribute (Origin, Spacing, Direction).
  std::vector<double> doubles_attr(const io::XmlElement& el, std::string_view key, std::size_t n) const;

 private:
  NDArray read_ascii(const io::XmlElement& da, DType dt, std::optional<std::size_t> expected);
  NDArray read_binary(const io::XmlElement& da, DType dt, std::size_t width, std::optional<std::size_t> expected,
                      bool appended, const PieceVisitor* visit);
  // Where the `count` values of an appended raw, uncompressed, one-component DataArray in
  // the host's byte order lie in the file (byte offset); nullopt for any other array, and
  // for one whose header or size is wrong (read_array then says what is wrong).
  struct RawValues { DType dtype; std::size_t offset; };
  std::optional<RawValues> raw_values(const io::XmlElement& da, std::size_t count) const;
  void check_size(const char* where, const std::string& nm, std::size_t total, std::size_t width,
                  std::optional<std::size_t> expected) const;
  std::uint64_t header_value(const unsigned char* p) const;

  io::FileBytes file_;
  io::Cursor cur_;
  unsigned threads_;
  io::XmlDocument doc_;
  const io::XmlElement* dataset_ = nullptr;
  bool little_ = true;
  std::size_t header_bytes_ = 4;
  bool compressed_ = false;
  codec::Compressor compressor_ = codec::Compressor::zlib;
  const io::XmlElement* appended_ = nullptr;
  const char* app_b64_begin_ = nullptr;
  const char* app_b64_end_ = nullptr;
};

// Concatenates one kind of data (point or cell) over pieces: the arrays named in the first
// piece, present with the same dtype and row size in every piece. `fail` must not return.
NamedArrays concat_piece_data(const std::vector<const NamedArrays*>& pieces, std::size_t total_rows,
                              const std::function<void(const std::string&)>& fail);

}  // namespace meshioplusplus::vtk
