// meshio++ MPI layout 3: VTKHDF, one file for every rank, written and read collectively
// through parallel HDF5 over MPI-IO (docs/parallel.md).
// Specs: https://docs.vtk.org/en/latest/design_documents/VTKFileFormats.html ("HDF file
// formats"); https://docs.hdfgroup.org/hdf5/v1_10/ (H5Pset_fapl_mpio, H5Pset_dxpl_mpio,
// "Collective Calling Requirements in Parallel HDF5 Applications").
//
// Write: each rank prepares its partition as the serial writer does (prepare_partition);
// the first rank holding anything declares the arrays (one Bcast) and every other rank
// checks its own against that declaration (an empty rank takes it); the rows each
// partition starts at come from one MPI_Exscan, the totals from one MPI_Allreduce. Every
// rank then creates every group, attribute and dataset with the same arguments (parallel
// HDF5's rule for metadata) and writes its rows with one collective H5Dwrite per dataset
// (a rank with no rows takes part with an empty selection). The file is made under a
// temporary name beside `path` and renamed by rank 0 once closed: a failure never leaves a
// partial file at `path`, nor loses the one there. Partition r is rank r's part, so VTK
// reads the file as a partitioned grid.
//
// Read on R ranks of a file of P partitions: every rank reads the three count datasets
// (P values). P == R: rank r reads partition r (its rows of every dataset). Otherwise rank
// r reads the cells [r*C/R, (r+1)*C/R) of the whole file (each dataset's rows in one
// contiguous read) and the points those cells use. Reads are independent transfers (see
// parallel_hdf5.hpp: a rank that finds a corrupt dataset raises on every rank through
// all_or_none, and no rank is left in a collective call); the open and close are
// collective. The owner of a
// point (the rank where it is not a ghost) is the lowest rank using it, settled by its
// "home" rank (the one whose share [r*N/R, (r+1)*N/R) of the file's points holds it) in
// one MPI_Alltoall and two MPI_Alltoallv; a point no cell uses is read by its home rank.
// The points are read in windows of nearby rows (independent reads, at most
// kWindowBytes per window), so no rank holds more than its own points plus one window.
// The number of collective calls depends on the number of datasets, never on the cells.
#include <mpi.h>

#include "mpi/mpi_internal.hpp"

#ifdef MESHIOPP_HAVE_PARALLEL_HDF5

#include <algorithm>
#include <filesystem>
#include <optional>
#include <tuple>

#include "formats/vtk_common/cell_blocks.hpp"
#include "formats/vtkhdf/vtkhdf_internal.hpp"
#include "meshioplusplus/errors.hpp"
#include "mpi/parallel_hdf5.hpp"

namespace meshioplusplus::mpi_detail {

namespace {

namespace fs = std::filesystem;

constexpr const char* kFormat = "vtkhdf";
constexpr const char* kTotal = "the partitions' total";

}  // namespace

// ---------------------------------------------------------------------------------------

void write_vtkhdf(const std::string& path, const Mesh& mesh, MPI_Comm comm, const Options& options) {
  const Ranks ranks(comm);
  vtkhdf::Partition part;
  all_or_none<WriteError>(comm, [&] {
    OptionReader opts(options, kFormat);
    opts.finish();
    mesh.validate();
    part = vtkhdf::prepare_partition(mesh, path);
  });
  // The declaration comes from the first rank that holds points or cells (else rank 0).
  const bool empty = part.points.dim(0) == 0 && part.types.size() == 0;
  const Declared declared = agree(comm, empty, part.points, part.point_data, part.cell_data, mesh.field_data, "");
  const int reference = declared.reference;
  all_or_none<WriteError>(comm, [&] {
    const bool take_declared = empty && !declared.all_empty;
    conform(kFormat, path, part.point_data, declared.point_data, take_declared, "point data", ranks.rank, reference);
    conform(kFormat, path, part.cell_data, declared.cell_data, take_declared, "cell data", ranks.rank, reference);
    if (part.points.dtype() != declared.points.dtype) part.points = part.points.as_dtype(declared.points.dtype);
  });

  // Where this rank's rows go: one Exscan, and the totals from one Allreduce.
  const vtkhdf::PartitionCounts mine = part.counts();
  std::int64_t counts[3] = {static_cast<std::int64_t>(mine.points), static_cast<std::int64_t>(mine.cells),
                            static_cast<std::int64_t>(mine.connectivity)};
  std::int64_t start[3] = {0, 0, 0}, total[3] = {0, 0, 0};
  MPI_Exscan(counts, start, 3, MPI_INT64_T, MPI_SUM, comm);
  if (ranks.rank == 0) start[0] = start[1] = start[2] = 0;
  MPI_Allreduce(counts, total, 3, MPI_INT64_T, MPI_SUM, comm);
  const auto nranks = static_cast<std::uint64_t>(ranks.size), rank = static_cast<std::uint64_t>(ranks.rank);
  const auto u = [](std::int64_t v) { return static_cast<std::uint64_t>(v); };

  const std::string temporary = temporary_name(comm, path);
  all_or_none<WriteError>(comm, [&] {
    const h5::Context ctx{kFormat, path, true};
    h5::Session session;
    const h5::Handle collective = transfer(ctx, true);
    const hid_t xfer = collective.get();
    h5::Handle file = create_collective(ctx, comm, temporary);
    h5::Handle root = h5::create_group(ctx, file.get(), "VTKHDF");
    h5::write_attribute(ctx, root.get(), "Version", NDArray::from_vector(std::vector<std::int64_t>{1, 0}));
    h5::write_attribute(ctx, root.get(), "Type", std::string_view("UnstructuredGrid"));
    // One dataset of `rows` rows shaped like `trailing`, this rank's `mine` written at `first`.
    auto partitioned = [&](hid_t loc, const std::string& name, DType dtype, const NDArray::Shape& trailing, std::uint64_t rows,
                           std::uint64_t first, const NDArray& mine_rows) {
      NDArray::Shape shape{rows};
      shape.insert(shape.end(), trailing.begin(), trailing.end());
      const h5::Handle ds = h5::create_dataset(ctx, loc, name, dtype, shape);
      h5::write_rows(ctx, ds.get(), first, mine_rows, xfer);
    };
    const char* count_names[3] = {"NumberOfPoints", "NumberOfCells", "NumberOfConnectivityIds"};
    for (int k = 0; k < 3; ++k)
      partitioned(root.get(), count_names[k], DType::int64, {}, nranks, rank, NDArray::from_vector(std::vector<std::int64_t>{counts[k]}));
    partitioned(root.get(), "Points", declared.points.dtype, {3}, u(total[0]), u(start[0]), part.points);
    partitioned(root.get(), "Connectivity", DType::int64, {}, u(total[2]), u(start[2]), part.flat.connectivity);
    partitioned(root.get(), "Offsets", DType::int64, {}, u(total[1]) + nranks, u(start[1]) + rank, part.offsets);
    partitioned(root.get(), "Types", DType::uint8, {}, u(total[1]), u(start[1]), part.types);
    const h5::Handle point_data = h5::create_group(ctx, root.get(), "PointData");
    for (const auto& d : declared.point_data)
      partitioned(point_data.get(), d.name, d.dtype, d.trailing, u(total[0]), u(start[0]), part.point_data.at(d.name));
    const h5::Handle cell_data = h5::create_group(ctx, root.get(), "CellData");
    for (const auto& d : declared.cell_data)
      partitioned(cell_data.get(), d.name, d.dtype, d.trailing, u(total[1]), u(start[1]), part.cell_data.at(d.name));
    // Field data: the declaring rank's values, written by that rank alone.
    const h5::Handle field_data = h5::create_group(ctx, root.get(), "FieldData");
    for (const auto& d : declared.field_data) {
      if (d.trailing.empty()) continue;
      const NDArray::Shape rest(d.trailing.begin() + 1, d.trailing.end());
      const bool writes = ranks.rank == reference;
      partitioned(field_data.get(), d.name, d.dtype, rest, d.trailing[0], 0,
                  writes ? mesh.field_data.at(d.name) : no_rows(d.dtype, rest));
    }
  });
  put_in_place(comm, temporary, path, kFormat);  // closed everywhere: rank 0 renames it (or removes it)
}

Mesh read_vtkhdf(const std::string& path, MPI_Comm comm, const Options& options) {
  const Ranks ranks(comm);
  all_or_none<ReadError>(comm, [&] {
    OptionReader opts(options, kFormat);
    opts.finish();
  });
  const h5::Context ctx{kFormat, path, false};
  h5::Session session;  // HDF5's lock and silence for the whole read
  h5::Handle file, root;
  std::size_t file_bytes = 0;
  vtkhdf::Layout layout;
  all_or_none<ReadError>(comm, [&] {
    std::error_code ec;
    file_bytes = static_cast<std::size_t>(fs::file_size(path, ec));
    if (ec) throw read_error(kFormat, path, "cannot open: " + ec.message());
    file = open_collective(ctx, comm);
    if (!h5::exists(file.get(), "VTKHDF")) throw read_error(kFormat, path, "no group /VTKHDF: not a VTKHDF file");
    root = h5::open_group(ctx, file.get(), "VTKHDF");
    const std::optional<std::string> type = h5::read_string_attribute(ctx, root.get(), "Type");
    if (type && *type != "UnstructuredGrid")
      throw read_error(kFormat, path, "attribute Type of /VTKHDF: " + expected_found("UnstructuredGrid", *type) +
                                          " (only UnstructuredGrid is read in parallel)");
    const auto fail = [&](const std::string& what) { throw read_error(kFormat, path, what); };
    layout = vtkhdf::layout_from_counts(h5::read_dataset(ctx, root.get(), "NumberOfPoints", file_bytes),
                                        h5::read_dataset(ctx, root.get(), "NumberOfCells", file_bytes),
                                        h5::read_dataset(ctx, root.get(), "NumberOfConnectivityIds", file_bytes), fail);
    const std::size_t parts = layout.size();
    expect_shape(ctx, root.get(), "Points", layout.point_start[parts], 3, kTotal);
    expect_shape(ctx, root.get(), "Types", layout.cell_start[parts], 0, kTotal);
    expect_shape(ctx, root.get(), "Offsets", layout.offsets_start[parts], 0, kTotal);
    expect_shape(ctx, root.get(), "Connectivity", layout.connectivity_start[parts], 0, kTotal);
  });
  const std::size_t parts = layout.size();
  const std::uint64_t total_points = layout.point_start[parts], total_cells = layout.cell_start[parts];
  const auto fail = [&](const std::string& what) { throw read_error(kFormat, path, what); };

  // The names of the data arrays.
  std::vector<std::string> point_names, cell_names;
  h5::Handle point_group, cell_group;
  all_or_none<ReadError>(comm, [&] {
    for (auto [group_name, names, group, rows] :
         {std::tuple{"PointData", &point_names, &point_group, total_points}, std::tuple{"CellData", &cell_names, &cell_group, total_cells}}) {
      if (!h5::exists(root.get(), group_name)) continue;
      *group = h5::open_group(ctx, root.get(), group_name);
      for (const std::string& n : h5::dataset_names(ctx, group->get())) {
        expect_shape(ctx, group->get(), n, rows, 0, kTotal);
        names->push_back(n);
      }
    }
  });

  Mesh m = empty_mesh();
  const bool own_partition = parts == static_cast<std::size_t>(ranks.size);
  std::vector<std::int64_t> used;  // repartitioned: this rank's points, file numbering
  std::uint64_t c0 = 0, c1 = 0;    // repartitioned: this rank's cells
  vtk::BlocksOut blocks;
  all_or_none<ReadError>(comm, [&] {
    if (own_partition) {
      // Partition r, as the serial reader's piece=r.
      const auto r = static_cast<std::size_t>(ranks.rank);
      auto rows = [&](hid_t loc, const std::string& name, const std::vector<std::uint64_t>& start) {
        return h5::read_rows(ctx, loc, name, start[r], start[r + 1] - start[r], file_bytes);
      };
      m.points = rows(root.get(), "Points", layout.point_start);
      const vtk::FlatCells flat =
          vtkhdf::flat_cells(layout, r, r + 1, rows(root.get(), "Offsets", layout.offsets_start),
                             rows(root.get(), "Connectivity", layout.connectivity_start), rows(root.get(), "Types", layout.cell_start),
                             fail);
      blocks = vtk::blocks_from_flat(flat, m.points.dim(0), fail);
      for (const std::string& n : point_names) m.point_data[n] = rows(point_group.get(), n, layout.point_start);
      for (const std::string& n : cell_names) m.cell_data[n] = vtk::split_rows(rows(cell_group.get(), n, layout.cell_start), blocks);
      return;
    }
    // Cells [c0, c1) of the file, in the partitions [p0, p1) they fall in.
    const auto share = ranks.range(total_cells);
    c0 = share.first, c1 = share.second;
    const auto partition_of = [&](std::uint64_t cell) {  // the partition holding `cell` (cell < total)
      return static_cast<std::size_t>(std::upper_bound(layout.cell_start.begin(), layout.cell_start.end(), cell) -
                                      layout.cell_start.begin() - 1);
    };
    std::size_t p0 = 0, p1 = 0;
    std::uint64_t offsets_first = 0, offsets_rows = 0;
    if (c0 < c1) {
      p0 = partition_of(c0);
      p1 = partition_of(c1 - 1) + 1;
      // Empty partitions between hold no cells but their one offsets row: skip their rows.
      offsets_first = layout.offsets_start[p0] + (c0 - layout.cell_start[p0]);
    }
    // Offsets: per partition p its rows a..b (cells [a, b) of it) are contiguous in the file
    // across partitions when the partitions between hold cells; empty ones are read too.
    if (c0 < c1) offsets_rows = layout.offsets_start[p1 - 1] + (c1 - layout.cell_start[p1 - 1]) + 1 - offsets_first;
    const NDArray offsets = h5::read_rows(ctx, root.get(), "Offsets", offsets_first, offsets_rows, file_bytes)
                                .as_dtype(DType::int64);
    const NDArray types = h5::read_rows(ctx, root.get(), "Types", c0, c1 - c0, file_bytes);
    // The sub-partitions this rank reads: per partition its cell range, rebased offsets.
    std::vector<vtkhdf::PartitionCounts> sub;
    std::vector<std::uint64_t> conn_from, point_base;
    NDArray sub_offsets = NDArray::uninit(DType::int64, {offsets_rows});
    const auto* off = offsets.data<const std::int64_t>();
    auto* sub_off = sub_offsets.data<std::int64_t>();
    std::uint64_t row = 0, conn_first = 0, conn_count = 0;
    for (std::size_t p = p0; p < p1; ++p) {
      const std::uint64_t a = std::max(c0, layout.cell_start[p]) - layout.cell_start[p];
      const std::uint64_t b = std::min(c1, layout.cell_start[p + 1]) - layout.cell_start[p];
      const std::uint64_t conn_p = layout.parts[p].connectivity;
      const std::int64_t lo = off[row], hi = off[row + (b - a)];
      if (lo < 0 || hi < lo || static_cast<std::uint64_t>(hi) > conn_p || (a == 0 && lo != 0))
        fail("dataset Offsets, partition " + std::to_string(p) + ": offsets " + std::to_string(lo) + ".." + std::to_string(hi) +
             " of cells " + std::to_string(a) + ".." + std::to_string(b) + " out of range (NumberOfConnectivityIds " +
             std::to_string(conn_p) + ")");
      for (std::uint64_t i = 0; i <= b - a; ++i) sub_off[row + i] = off[row + i] - lo;
      if (p == p0) conn_first = layout.connectivity_start[p] + static_cast<std::uint64_t>(lo);
      conn_count = layout.connectivity_start[p] + static_cast<std::uint64_t>(hi) - conn_first;
      sub.push_back({layout.parts[p].points, b - a, static_cast<std::uint64_t>(hi - lo)});
      point_base.push_back(layout.point_start[p]);
      row += b - a + 1;
    }
    const NDArray connectivity = h5::read_rows(ctx, root.get(), "Connectivity", conn_first, conn_count, file_bytes);
    const vtkhdf::Layout sub_layout = vtkhdf::make_layout(std::move(sub));
    vtk::FlatCells flat = vtkhdf::flat_cells(sub_layout, 0, sub_layout.size(), sub_offsets, connectivity, types, fail);
    // Point ids: the sub-layout's numbering (partition bases from p0) to the file's.
    auto* ids = flat.connectivity.data<std::int64_t>();
    const auto base0 = static_cast<std::int64_t>(p0 < p1 ? layout.point_start[p0] : 0);
    const std::size_t count = flat.connectivity.size();
    for (std::size_t i = 0; i < count; ++i) ids[i] += base0;
    used = to_local_points({{ids, count}});
    blocks = vtk::blocks_from_flat(flat, used.size(), fail);
    for (const std::string& n : cell_names)
      m.cell_data[n] = vtk::split_rows(h5::read_rows(ctx, cell_group.get(), n, c0, c1 - c0, file_bytes), blocks);
  });
  if (!own_partition) {
    std::vector<PointRows> data;
    for (const std::string& n : point_names) data.push_back({point_group.get(), n, n});
    read_points_of_cells(comm, ctx, file_bytes, total_points, used, {root.get(), "Points", ""}, data, m);
    all_or_none<ReadError>(comm, [&] {
      if (m.cell_data.count(kGlobalCellIds)) return;  // the file's own
      std::vector<NDArray> cell_ids;
      for (std::size_t b = 0; b < blocks.blocks.size(); ++b)
        cell_ids.push_back(iota(blocks.ends[b] - blocks.starts[b], static_cast<std::int64_t>(c0 + blocks.starts[b])));
      m.cell_data[kGlobalCellIds] = std::move(cell_ids);
    });
  }
  if (m.points.dtype() != DType::float32 && m.points.dtype() != DType::float64) m.points = m.points.as_dtype(DType::float64);
  m.cells = std::move(blocks.blocks);
  for (const std::string& note : blocks.skipped) m.warnings.push_back(note);
  // Field data: every rank reads it (small, whole).
  all_or_none<ReadError>(comm, [&] {
    if (!h5::exists(root.get(), "FieldData")) return;
    const h5::Handle g = h5::open_group(ctx, root.get(), "FieldData");
    for (const std::string& name : h5::dataset_names(ctx, g.get()))
      if (h5::is_numeric_dataset(ctx, g.get(), name)) m.field_data[name] = h5::read_dataset(ctx, g.get(), name, file_bytes);
  });
  root.reset(), point_group.reset(), cell_group.reset();
  file.reset();  // collective close
  // The file's own global ids when every rank found them (a file written by write()).
  int have[2] = {m.point_data.count(kGlobalPointIds) ? 1 : 0, m.cell_data.count(kGlobalCellIds) ? 1 : 0};
  MPI_Allreduce(MPI_IN_PLACE, have, 2, MPI_INT, MPI_MIN, comm);
  finish_local(comm, m, static_cast<std::int64_t>(parts), !have[0], !have[1]);
  return m;
}

}  // namespace meshioplusplus::mpi_detail

#endif  // MESHIOPP_HAVE_PARALLEL_HDF5
