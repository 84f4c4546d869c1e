// meshio++ formats: VTK's flat cell arrays <-> meshio++ cell blocks, shared by VTU and
// legacy VTK (reading and writing), so the cell table and the polyhedron face stream are
// interpreted in one place.
//
// Flat form (VTK's vtkCellArray): cell i has type types[i] and nodes
// connectivity[offsets[i], offsets[i+1]). A polyhedron also has a face stream
// (nfaces, n0, ids..., n1, ids..., ...) with global point ids: VTU keeps it in the
// "faces"/"faceoffsets" arrays, legacy VTK in place of the cell's connectivity.
//
// Reading groups consecutive cells of one type into a block (Lagrange cells also by node
// count; a run of a type meshio++ cannot hold is skipped with a note, as meshio does); a run of polygons is one block, rectangular when every polygon has the same
// node count, ragged otherwise; a run of polyhedra is one ragged block. Every count and
// index is checked (offsets monotonic and within the connectivity, node ids within the
// points, face streams within their cell) before anything is allocated from it.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "meshioplusplus/mesh.hpp"

namespace meshioplusplus::vtk {

struct FlatCells {
  NDArray offsets;       // (n + 1,) int64, offsets[0] == 0
  NDArray connectivity;  // (offsets[n],) int64
  NDArray types;         // (n,) uint8
  // Polyhedra: the face stream of cell i is stream[begin, end) from face_range(i).
  const std::int64_t* stream = nullptr;
  std::size_t stream_size = 0;
  std::function<std::pair<std::int64_t, std::int64_t>(std::size_t)> face_range;
  // The connectivity is the reader's own, decoded for this call: the blocks share its
  // buffer (views kept alive by it, no copy) and node orders are applied in place. Otherwise (a
  // caller's array) every block is a copy and `connectivity` is left as it was.
  bool owned = false;
  // The connectivity's largest value taken as unsigned, when the reader found it while
  // decoding: below the point count, no run's ids are scanned again.
  std::optional<std::uint64_t> largest_id;
};


struct BlocksOut {
  std::vector<CellBlock> blocks;
  std::vector<std::size_t> starts;  // first cell of each block, plus the total at the end
  std::vector<std::size_t> ends;    // one past the last cell of each block
  // Runs of cell types meshio++ cannot hold are skipped, as meshio skips them: one note
  // each ("VTK_POLY_LINE (4): 3 cells skipped"), for Mesh::warnings.
  std::vector<std::string> skipped;
};

// Throws via `fail` (which must not return) on any inconsistency.
using FailFn = std::function<void(const std::string&)>;
BlocksOut blocks_from_flat(const FlatCells& cells, std::size_t num_points, const FailFn& fail);

// Checks of the flat arrays made while they are read, piece by piece (fed by
// XmlDataReader::PieceVisitor: `range` < io::kMaxChunkRanges, the pieces of one range in
// order), so a grid of one cell type needs no pass over them afterwards:
//   UniformEnds   VTK's end offsets (no leading 0) are k, 2k, 3k, ...: every cell has k nodes
//   SameValue     every value is the same (the cell types)
//   IdRange       every value in [0, limit) (the connectivity's point ids)
// A scan that sees anything else only says so; blocks_from_flat, on the flat arrays, then
// finds and reports what is wrong, or builds the blocks of a mixed grid.
inline constexpr unsigned kScanRanges = 16;  // io::kMaxChunkRanges (static_assert in the .cpp)

class UniformEnds {
 public:
  // false once this range cannot be uniform (a ScanVisitor may stop there).
  bool feed(unsigned range, DType dtype, std::size_t first, std::size_t count, const void* values);
  // k when `count` offsets were fed and each is (i + 1) * k for one k >= 1; else 0.
  std::int64_t step(std::size_t count) const;

 private:
  struct Range { std::int64_t k = 0; std::size_t seen = 0; bool ok = true; };
  Range ranges_[kScanRanges];
};

class SameValue {
 public:
  bool feed(unsigned range, DType dtype, std::size_t first, std::size_t count, const void* values);
  // The one value, when `count` values were fed and all are equal.
  std::optional<std::int64_t> value(std::size_t count) const;

 private:
  struct Range { std::int64_t v = 0; std::size_t seen = 0; bool ok = true; };
  Range ranges_[kScanRanges];
};

class IdRange {
 public:
  void feed(unsigned range, DType dtype, std::size_t first, std::size_t count, const void* values);
  // Whether every value fed is in [0, limit) (true when none was fed).
  bool within(std::int64_t limit) const;

 private:
  struct Range { std::uint64_t top = 0; bool any = false; };  // the largest id as unsigned (negative ones are huge)
  Range ranges_[kScanRanges];
};

// The cells of a grid of `n` cells of one VTK `type` with `k` nodes each (checked by the
// scans above: offsets k, 2k, ..., connectivity of n * k ids, every id a point), as
// blocks_from_flat would give them: one block on `connectivity`'s own buffer (int64,
// owned by the reader; VTK's node order turned into meshio++'s in place). nullopt when
// the type is not a plain fixed-size one (Lagrange, polyhedron, unsupported, or a node
// count that is not its own): blocks_from_flat handles those.
std::optional<BlocksOut> uniform_blocks(const NDArray& connectivity, std::size_t n, std::int64_t k, std::int64_t type);

// Rows [starts[b], starts[b+1]) of `a` for each block: parts sharing `a`'s buffer when `a`
// owns one (or is kept alive), else copies.
std::vector<NDArray> split_rows(const NDArray& a, const std::vector<std::size_t>& starts);
// Rows [starts[b], ends[b]) of `a` for each block of `blocks` (skipped runs left out), the
// same way.
std::vector<NDArray> split_rows(const NDArray& a, const BlocksOut& blocks);

// Writing: the flat arrays of `blocks` (wedge order etc. applied). `face_stream` receives
// the polyhedron face streams (global ids) and `face_ends` the end offset of each cell's
// stream in it (-1 for other cells) when any block is a polyhedron; `legacy_faces` puts
// the stream in place of the polyhedron's connectivity instead (legacy VTK).
struct FlatOut {
  NDArray offsets;                         // (n + 1,) int64, leading 0
  NDArray connectivity;                    // int64, offsets[n]; one int64 block of a type VTK stores as
                                           // it is: that block's own array (shared, not copied)
  NDArray types;                           // (n,) uint8
  std::vector<std::int64_t> face_stream;   // VTU polyhedra
  std::vector<std::int64_t> face_ends;     // VTU faceoffsets (n, -1 for non-polyhedra)
  bool has_polyhedra = false;
};
// VTK's end offsets (offsets without the leading 0), sharing its buffer.
NDArray end_offsets(const FlatOut& flat);
// Throws WriteError naming `format` and the file `path` for a cell type VTK cannot hold.
FlatOut flat_from_blocks(const std::vector<CellBlock>& blocks, bool legacy_faces, std::string_view format,
                         std::string_view path);
// The same for arrays that go to no file (the error names the format only).
FlatOut flat_from_blocks(const std::vector<CellBlock>& blocks, bool legacy_faces, std::string_view format);


// Points as VTK stores them: 2-D points padded with z = 0 (others returned as they are).
NDArray points_3d(const NDArray& points);

// One array of every block's rows (the dtype promoted where the blocks differ); throws
// WriteError naming `format` and `path` when the blocks' rows differ in size.
NDArray concat_cell_data(const std::string& name, const std::vector<NDArray>& list, std::string_view format,
                         std::string_view path);

}  // namespace meshioplusplus::vtk
