// meshio++ VTKHDF: declarations shared by the reader, the writer and the layout (see
// vtkhdf.hpp). Spec: https://docs.vtk.org/en/latest/design_documents/VTKFileFormats.html
// ("HDF file formats"): group /VTKHDF (attributes Version = [1, 0], Type =
// "UnstructuredGrid") holding, for P partitions,
//   NumberOfPoints, NumberOfCells, NumberOfConnectivityIds   (P,) one entry per partition
//   Points (sum points, 3); Types (sum cells,) uint8 VTK cell types;
//   Connectivity (sum connectivity ids,) partition-local point ids;
//   Offsets (sum cells + P,): per partition NumberOfCells + 1 values starting at 0;
//   PointData/, CellData/ (rows per point / cell, concatenated like Points / Types),
//   FieldData/ (whole arrays).
// Each dataset is the partitions' rows one after the other.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "formats/vtk_common/cell_blocks.hpp"
#include "meshioplusplus/format.hpp"
#include "meshioplusplus/mesh.hpp"

namespace meshioplusplus::vtkhdf {

Mesh read_vtkhdf(const std::string& path, const Options& options);
void write_vtkhdf(const std::string& path, const Mesh& mesh, const Options& options);
void write_vtkhdf_pieces(const std::string& path, const std::vector<Mesh>& pieces, const Options& options);

// --- layout (vtkhdf_layout.cpp): no HDF5 here -------------------------------------------
// Where each partition's rows sit in each dataset. A collective (MPI) writer computes
// the same starts with one MPI_Exscan of its own counts; the serial writer and the
// reader compute them all from the count datasets.
struct PartitionCounts {
  std::uint64_t points = 0, cells = 0, connectivity = 0;
};
struct Layout {
  std::vector<PartitionCounts> parts;
  // First row of partition p in Points/PointData, Types/CellData, Connectivity and Offsets
  // (Offsets holds cells + 1 rows per partition); entry P is the total.
  std::vector<std::uint64_t> point_start, cell_start, connectivity_start, offsets_start;
  std::size_t size() const { return parts.size(); }
};
Layout make_layout(std::vector<PartitionCounts> parts);

// One partition's arrays as the file holds them (the serial writer's, and each rank's in
// the collective writer of src/mpi/): regions become int data as in VTU (sets_as_data),
// data arrays of more than two dimensions become (rows, components).
struct Partition {
  NDArray points;  // (n, 3)
  vtk::FlatOut flat;
  NDArray offsets;  // (cells + 1,) int64, from 0
  NDArray types;    // (cells,) uint8
  std::map<std::string, NDArray> point_data, cell_data;  // (rows, k) or (rows,)
  PartitionCounts counts() const { return {points.dim(0), types.size(), flat.connectivity.size()}; }
};
// WriteError (polyhedra) or std::invalid_argument (cell data not matching the blocks).
Partition prepare_partition(const Mesh& mesh, const std::string& path);

using FailFn = std::function<void(const std::string&)>;  // must throw
// The layout the count datasets declare (each (P,), P >= 1, values >= 0, totals without
// overflow); every failure names the dataset and the partition.
Layout layout_from_counts(const NDArray& points, const NDArray& cells, const NDArray& connectivity, const FailFn& fail);

// The cells of partitions [first, last) as one flat cell array (point ids shifted by the
// points of the partitions before, within [first, last)), from those partitions' rows of
// Offsets, Connectivity and Types. Checks: each partition's offsets start at 0, never
// decrease and end at its NumberOfConnectivityIds; point ids within the partition's
// points; types within 0..255; polyhedra (VTKHDF 1.0 holds no face stream) refused.
// The arrays are the reader's own, just read: int64 offsets and connectivity and uint8
// types (VTK's dtypes) become the flat arrays in place, without a copy; other dtypes are
// converted once.
vtk::FlatCells flat_cells(const Layout& layout, std::size_t first, std::size_t last, NDArray offsets,
                          NDArray connectivity, NDArray types, const FailFn& fail);

}  // namespace meshioplusplus::vtkhdf
