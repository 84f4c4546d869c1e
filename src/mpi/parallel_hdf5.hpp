// meshio++ MPI: what the collective HDF5 layouts share (vtkhdf_layout.cpp, xdmf_layout.cpp;
// docs/parallel.md): files opened and created over MPI-IO, the declaration of the arrays
// every rank writes (sent once from one rank, checked by the others), a file written under
// a temporary name and put in place by rank 0, and the points of a range of cells read
// with their owners settled. Only in a build with parallel HDF5.
// Spec: https://docs.hdfgroup.org/hdf5/v1_10/ (H5Pset_fapl_mpio, H5Pset_dxpl_mpio,
// "Collective Calling Requirements in Parallel HDF5 Applications").
#pragma once

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/hdf5.hpp"
#include "meshioplusplus/mesh.hpp"

namespace meshioplusplus::mpi_detail {

namespace h5 = io::hdf5;

// Files over MPI-IO on `comm` (the open, create and close are collective). A created file
// has its metadata written collectively (every rank then makes every object, with the same
// arguments); an opened one is read independently: the reads of a collective read are
// independent transfers, so a rank that stops at a corrupt dataset (and raises through
// all_or_none) never leaves another waiting in a collective call.
h5::Handle create_collective(const h5::Context& ctx, MPI_Comm comm, const std::string& file);
h5::Handle open_collective(const h5::Context& ctx, MPI_Comm comm);
// A dataset transfer list: collective (every rank calls, with empty selections if need be)
// or independent.
h5::Handle transfer(const h5::Context& ctx, bool collective);

// A name for a file being written, beside `path`, chosen by rank 0 (one Bcast).
std::string temporary_name(MPI_Comm comm, const std::string& path);
// After every rank closed `temporary`: rank 0 renames it to `path` (collective; a failure
// removes it and raises on every rank).
void put_in_place(MPI_Comm comm, const std::string& temporary, const std::string& path, const std::string& format);

// --- the arrays every rank writes ---------------------------------------------------------
struct Declared {
  struct Array {
    std::string name;
    DType dtype = DType::float64;
    NDArray::Shape trailing;  // the shape after the rows (field data: the whole shape)
  };
  Array points;             // name unused
  std::string layout;       // what the format adds (XDMF: the topology)
  std::vector<Array> point_data, cell_data, field_data;
  int reference = 0;        // the declaring rank
  bool all_empty = false;   // no rank holds points or cells
};
// The declaration of the first rank holding points or cells (else rank 0's), on every
// rank: one Allreduce and two Bcasts. Points of several dtypes become float64 (one more
// Allreduce). `cell_rows`: cell data as one array over the rank's cells.
Declared agree(MPI_Comm comm, bool empty, const NDArray& points, const std::map<std::string, NDArray>& point_data,
               const std::map<std::string, NDArray>& cell_rows, const std::map<std::string, NDArray>& field_data,
               const std::string& layout);
// This rank's `arrays` checked against `declared` (WriteError naming the array and both
// ranks); with `empty`, replaced by empty arrays of the declared dtypes and widths.
void conform(const std::string& format, const std::string& path, std::map<std::string, NDArray>& arrays,
             const std::vector<Declared::Array>& declared, bool empty, const char* kind, int rank, int reference);
NDArray no_rows(DType dtype, const NDArray::Shape& trailing);

// --- reading ----------------------------------------------------------------------------
// Dataset `name` below `loc` has `rows` rows (and `columns` columns when not 0): else a
// ReadError naming it.
void expect_shape(const h5::Context& ctx, hid_t loc, const std::string& name, std::uint64_t rows, std::size_t columns,
                  const char* what_rows);

// The owners of `used` (this rank's points, sorted, unique, each < n): a point's owner is
// the lowest rank using it, settled by its home rank (the one whose share
// [r*n/R, (r+1)*n/R) holds it) in one Alltoall and two Alltoallv; and the points of this
// rank's home share that no rank uses (this rank adopts them). Collective.
struct Ownership {
  std::vector<int> owner;             // per entry of `used`
  std::vector<std::int64_t> adopted;  // sorted
};
Ownership settle_owners(MPI_Comm comm, const std::vector<std::int64_t>& used, std::uint64_t n);

// The points a rank's cells use: `ids` (file point numbers, >= 0, in several arrays)
// renumbered in place to indices into the returned sorted unique numbers. Linear through a
// table over [min, max] when that range is at most the number of ids (its memory then at
// most the ids'), else by sorting.
std::vector<std::int64_t> to_local_points(const std::vector<std::pair<std::int64_t*, std::size_t>>& ids);

// A dataset of per-point rows: where it is and the point_data name it becomes.
struct PointRows {
  hid_t loc;
  std::string dataset;
  std::string name;
};
// This rank's points when it reads a range of the cells of a file whose points have one
// numbering (`total` points): `used` (sorted, unique file numbers) and then the points of
// its home share [r*total/R, (r+1)*total/R) no rank uses. A point's owner is the lowest
// rank using it (its home rank settles it: one Alltoall, two Alltoallv); elsewhere it is
// marked vtkGhostType DUPLICATEPOINT, as is any point the file marks. Coordinates and data
// are read in windows of nearby rows (independent reads, a few MiB each), so a rank holds
// its points and one window. global_point_ids: the file's own array, else the file's
// numbering. Collective; returns the rows read (`used` then the adopted ones).
std::vector<std::int64_t> read_points_of_cells(MPI_Comm comm, const h5::Context& ctx, std::size_t file_bytes,
                                               std::uint64_t total, const std::vector<std::int64_t>& used,
                                               const PointRows& points, const std::vector<PointRows>& data, Mesh& mesh);

}  // namespace meshioplusplus::mpi_detail
