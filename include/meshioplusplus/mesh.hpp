// meshio++ core: the Mesh data model (docs/cpp.md).
//
//   points      (n, dim) float array, dim 2 or 3, float64 canonical
//   cells       blocks of one cell type: rectangular (m, k) int64 connectivity, or ragged
//               (polygon: offsets + indices; polyhedron: offsets over faces, face_offsets
//               over indices)
//   point_data  name -> array with n rows
//   cell_data   name -> one array per block
//   field_data  name -> small array
//   regions     Region(name, kind, entries, dim, tag): point / cell / side; cell entries are
//               global block-major cell indices (block_bases), side entries (cell, facet)
//   warnings    what a reader skipped or repaired, one human sentence each: the warn()
//               calls of the read (warnings.hpp), gathered by read(); the Python binding
//               raises each as a warnings.warn; writers ignore them
//
// block_bases() is the one definition of global cell numbering.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "meshioplusplus/ndarray.hpp"

namespace meshioplusplus {

struct CellBlock {
  std::string type;         // meshio name: "tetra", "polygon", "polyhedron"
  NDArray connectivity;     // rectangular blocks: (m, k) integer array
  // Ragged blocks (polygon / polyhedron with rows of different lengths):
  NDArray offsets;          // (m + 1,) int64: polygon -> into indices; polyhedron -> into faces
  NDArray face_offsets;     // polyhedron only: (nfaces + 1,) int64 into indices
  NDArray indices;          // node indices, int64
  bool ragged = false;

  static CellBlock rectangular(std::string type, NDArray connectivity);
  static CellBlock polygons(NDArray offsets, NDArray indices);
  static CellBlock polyhedra(NDArray offsets, NDArray face_offsets, NDArray indices);

  std::size_t size() const;  // number of cells
  // Node count of every cell when rectangular, -1 when ragged.
  std::int64_t nodes_per_cell() const;
};

enum class RegionKind { point, cell, side };
const char* region_kind_name(RegionKind kind);
RegionKind region_kind_from_name(const std::string& name);  // throws std::invalid_argument

struct Region {
  std::string name;
  RegionKind kind = RegionKind::cell;
  int dim = -1;
  int tag = -1;
  NDArray entries;  // int64: (n,) for point/cell, (n, 2) (global cell, local facet) for side

  // Sorts entries (lexicographically for side pairs) and removes duplicates. Entries that
  // already are (the usual case) are kept as they are, looked over on `threads` threads
  // when there are many.
  void canonicalize(unsigned threads = 1);
};

// Periodic link between two Gmsh entities (meshio's gmsh_periodic entries).
struct PeriodicLink {
  int dim = 0;
  int tag = 0;
  int master_tag = 0;
  std::vector<double> affine;  // 16 values, or empty
  NDArray node_pairs;          // (n, 2) int64: (slave, master) 0-based point indices
};

struct Mesh {
  NDArray points;
  std::vector<CellBlock> cells;
  std::map<std::string, NDArray> point_data;
  std::map<std::string, std::vector<NDArray>> cell_data;
  std::map<std::string, NDArray> field_data;
  std::vector<Region> regions;
  std::vector<PeriodicLink> gmsh_periodic;
  // Notes of the read that produced this mesh: what a tolerant reader skipped or repaired
  // ("skipped *STEP at line 40: not mesh data", cells of a type meshio++ cannot hold, as
  // meshio skips them). read() gathers the readers' warn() calls here; the caller shows
  // them (Python: warnings.warn).
  std::vector<std::string> warnings;

  std::size_t num_points() const { return points.dim(0); }
  std::size_t num_cells() const;

  // Throws std::invalid_argument naming the offending array: dims, dtypes, block shapes,
  // connectivity range, data lengths, region entries.
  void validate() const;
};

// Prefix sums of block lengths (size nblocks + 1): global index of each block's first cell.
std::vector<std::int64_t> block_bases(const std::vector<CellBlock>& cells);
// The same prefix sums over block lengths given as numbers (Python's block_bases asks this).
std::vector<std::int64_t> block_bases_of_sizes(const std::vector<std::size_t>& sizes);

}  // namespace meshioplusplus

namespace meshioplusplus {
// A multi-line human summary in meshio's Mesh.__repr__ layout (points, cell blocks, set and data names).
std::string summary(const Mesh& mesh);
}  // namespace meshioplusplus
