// meshio++ MPI: collective partitioned read and write (include/meshioplusplus/mpi.hpp,
// docs/parallel.md). Layout 1: PVTU (one .vtu piece per rank, rank 0 writes the summary);
// layout 2: Gmsh partitioned files (gmsh -part N -part_split).
// Specs: https://docs.vtk.org/en/latest/design_documents/VTKFileFormats.html (Parallel File
// Formats); https://gmsh.info/doc/texinfo/gmsh.html#MSH-file-format ($PartitionedEntities,
// $GhostElements).
//
// Rules kept here: every rank enters every collective call, also with nothing to read or
// write; rank 0 handles only O(ranks) metadata (piece counts, array declarations); no global
// array is ever gathered. The collective calls per read / write are a fixed handful.
#include "meshioplusplus/mpi.hpp"

#include <algorithm>
#include <exception>
#include <filesystem>
#include <numeric>
#include <stdexcept>
#include <string_view>

#include "core/io/file.hpp"
#include "formats/gmsh/gmsh_common.hpp"
#include "formats/pvtu/pvtu.hpp"
#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/mesh_ops.hpp"
#include "mpi/mpi_internal.hpp"

namespace meshioplusplus {

namespace mpi_detail {

void finish_local(MPI_Comm comm, Mesh& m, std::int64_t num_partitions, bool number_points, bool number_cells) {
  const std::int64_t point_base = prefix(comm, static_cast<std::int64_t>(m.num_points()));
  const std::int64_t cell_base = prefix(comm, static_cast<std::int64_t>(m.num_cells()));
  if (auto it = m.point_data.find(kGlobalPointIds); it != m.point_data.end() && !number_points)
    it->second = it->second.as_dtype(DType::int64);
  else
    m.point_data[kGlobalPointIds] = iota(m.num_points(), point_base);
  auto& cell_ids = m.cell_data[kGlobalCellIds];
  if (cell_ids.size() != m.cells.size() || number_cells) {
    cell_ids.clear();
    std::int64_t base = cell_base;
    for (const CellBlock& b : m.cells) {
      cell_ids.push_back(iota(b.size(), base));
      base += static_cast<std::int64_t>(b.size());
    }
  } else {
    for (NDArray& a : cell_ids) a = a.as_dtype(DType::int64);
  }
  if (auto it = m.point_data.find(kGhostType); it != m.point_data.end()) it->second = it->second.as_dtype(DType::uint8);
  else m.point_data[kGhostType] = NDArray::zeros(DType::uint8, {m.num_points()});
  auto& cell_ghost = m.cell_data[kGhostType];
  if (cell_ghost.size() != m.cells.size()) {
    cell_ghost.clear();
    for (const CellBlock& b : m.cells) cell_ghost.push_back(NDArray::zeros(DType::uint8, {b.size()}));
  } else {
    for (NDArray& a : cell_ghost) a = a.as_dtype(DType::uint8);
  }
  std::int64_t owned_cells = 0;
  for (const NDArray& g : cell_ghost) owned_cells += count_owned(g);
  const std::int64_t points = sum(comm, count_owned(m.point_data[kGhostType]));
  const std::int64_t cells = sum(comm, owned_cells);
  m.field_data["global_num_points"] = NDArray::from_vector<std::int64_t>({points});
  m.field_data["global_num_cells"] = NDArray::from_vector<std::int64_t>({cells});
  m.field_data["num_partitions"] = NDArray::from_vector<std::int64_t>({num_partitions});
}

}  // namespace mpi_detail

namespace {

using namespace mpi_detail;
namespace fs = std::filesystem;

// ---------------------------------------------------------------------------------------
// Layout 1: PVTU

Mesh read_pvtu(const std::string& path, MPI_Comm comm, const Options& options) {
  const Ranks ranks(comm);
  const vtk_collection::Kind& kind = pvtu_kind();
  std::uint64_t pieces = 0;
  all_or_none<ReadError>(comm, [&] {
    if (ranks.rank == 0) pieces = vtk_collection::piece_count(path, kind);
  });
  MPI_Bcast(&pieces, 1, MPI_UINT64_T, 0, comm);
  const std::pair<std::uint64_t, std::uint64_t> share = ranks.range(pieces);  // no structured binding: clang 14
  const std::uint64_t first = share.first, last = share.second;       // cannot capture one in a lambda
  Mesh m = empty_mesh();
  all_or_none<ReadError>(comm, [&] {
    if (first < last) m = vtk_collection::read_range(path, options, kind, first, last);
  });
  // The pieces' own ids only when every rank found them (a piece set written by write()).
  int have[2] = {m.point_data.count(kGlobalPointIds) ? 1 : 0, m.cell_data.count(kGlobalCellIds) ? 1 : 0};
  if (first == last) have[0] = have[1] = 1;  // an empty rank has no say
  MPI_Allreduce(MPI_IN_PLACE, have, 2, MPI_INT, MPI_MIN, comm);
  finish_local(comm, m, static_cast<std::int64_t>(pieces), !have[0], !have[1]);
  return m;
}

std::string serialize(const vtk_collection::Summary& s) {
  std::string out;
  put(out, s.byte_order);
  put(out, s.header_type);
  put(out, s.compressor);
  auto decl = [&](const vtk_collection::ArrayDecl& d) {
    put(out, d.name);
    put(out, d.type);
    put(out, std::to_string(d.components));
  };
  decl(s.points);
  for (auto* list : {&s.point_data, &s.cell_data}) {
    put(out, std::to_string(list->size()));
    for (const auto& d : *list) decl(d);
  }
  return out;
}
vtk_collection::Summary deserialize(std::string_view in) {
  vtk_collection::Summary s;
  s.byte_order = take(in);
  s.header_type = take(in);
  s.compressor = take(in);
  auto decl = [&] {
    vtk_collection::ArrayDecl d;
    d.name = take(in);
    d.type = take(in);
    d.components = std::stoull(take(in));
    return d;
  };
  s.points = decl();
  for (auto* list : {&s.point_data, &s.cell_data}) {
    const std::size_t n = std::stoull(take(in));
    for (std::size_t i = 0; i < n; ++i) list->push_back(decl());
  }
  return s;
}

void write_pvtu(const std::string& path, const Mesh& mesh, MPI_Comm comm, const Options& options) {
  const Ranks ranks(comm);
  const vtk_collection::Kind& kind = pvtu_kind();
  // A rank with no points and no cells writes no piece, unless every rank is empty (rank 0
  // then writes its empty piece so the collection has one).
  int any = mesh.num_points() > 0 || mesh.num_cells() > 0;
  MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, comm);
  const bool writes = mesh.num_points() > 0 || mesh.num_cells() > 0 || (!any && ranks.rank == 0);
  all_or_none<WriteError>(comm, [&] {
    mesh.validate();
    if (ranks.rank == 0) vtk_collection::make_piece_folder(path, kind);
  });
  std::string decls;
  all_or_none<WriteError>(comm, [&] {
    if (!writes) return;
    const std::string file = vtk_collection::piece_path(path, static_cast<std::size_t>(ranks.rank), kind);
    meshioplusplus::write(file, mesh, kind.piece_format, options);
    decls = serialize(vtk_collection::summary_of_piece(file, kind));
  });
  // The one gather: each rank's declarations ("" for a rank that wrote nothing).
  const int length = static_cast<int>(decls.size());
  std::vector<int> lengths(ranks.rank == 0 ? ranks.size : 0), displs;
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, comm);
  std::string all;
  if (ranks.rank == 0) {
    displs.resize(lengths.size());
    std::exclusive_scan(lengths.begin(), lengths.end(), displs.begin(), 0);
    all.resize(static_cast<std::size_t>(displs.back() + lengths.back()));
  }
  MPI_Gatherv(decls.data(), length, MPI_CHAR, all.data(), lengths.data(), displs.data(), MPI_CHAR, 0, comm);
  all_or_none<WriteError>(comm, [&] {
    if (ranks.rank != 0) return;
    vtk_collection::Summary summary;
    std::string reference;
    int reference_rank = -1;
    for (int r = 0; r < ranks.size; ++r) {
      if (lengths[r] == 0) continue;
      const std::string_view mine(all.data() + displs[r], static_cast<std::size_t>(lengths[r]));
      if (reference_rank < 0) {
        reference = mine;
        reference_rank = r;
        summary = deserialize(mine);
      } else if (mine != reference) {
        const vtk_collection::Summary other = deserialize(mine);
        auto names = [](const std::vector<vtk_collection::ArrayDecl>& list) {
          std::string out;
          for (const auto& d : list) out += " '" + d.name + "' " + d.type + "x" + std::to_string(d.components);
          return out.empty() ? std::string(" none") : out;
        };
        throw write_error(kind.format, path,
                          "the piece of rank " + std::to_string(r) + " holds other arrays than the piece of rank " +
                              std::to_string(reference_rank) + " (point data" + names(other.point_data) + " vs" +
                              names(summary.point_data) + "; cell data" + names(other.cell_data) + " vs" +
                              names(summary.cell_data) + "; points " + other.points.type + " vs " + summary.points.type +
                              "): every rank must write the same arrays; the summary file was not written");
      }
      summary.sources.push_back(vtk_collection::piece_source(path, static_cast<std::size_t>(r), kind));
    }
    const io::SyncScope scope(sync_option(options, kind.format));  // as the pieces were written
    vtk_collection::write_summary(path, kind, summary);
  });
}

// ---------------------------------------------------------------------------------------
// Layout 2: Gmsh partitioned files

// "dir/x_<k>.msh" for "dir/x.msh".
std::string split_file(const std::string& path, std::uint64_t k) {
  const fs::path p(path);
  return (p.parent_path() / (p.stem().string() + "_" + std::to_string(k) + p.extension().string())).string();
}

// One file of the set; `partition` is the file's partition (1-based), 0 for an unsplit file
// (everything in it is owned).
Mesh read_gmsh_part(const std::string& file, const Options& options, int partition) {
  gmsh::PartitionInfo info;
  Mesh m = gmsh::read_with_partitions(file, options, info);
  const std::size_t np = m.num_points(), nc = m.num_cells();
  if (info.node_tags.size() != np || info.element_tags.size() != nc)
    throw read_error(gmsh::kFormat, file,
                     "the file's node / element tags do not match its points / cells (" + std::to_string(info.node_tags.size()) +
                         " / " + std::to_string(info.element_tags.size()) + " tags for " + std::to_string(np) + " / " +
                         std::to_string(nc) + "): cannot number them globally");
  auto owner_of = [&](int dim, int tag) -> int {  // -1: an entity of no partition (ghost entity)
    auto it = info.entity_partitions.find({dim, tag});
    if (it == info.entity_partitions.end() || it->second.empty()) return -1;
    return *std::min_element(it->second.begin(), it->second.end());
  };
  const bool split = partition > 0 && !info.entity_partitions.empty();

  NDArray pid = NDArray::uninit(DType::int64, {np});
  NDArray pghost = NDArray::zeros(DType::uint8, {np});
  const NDArray* dim_tags = m.point_data.count("gmsh:dim_tags") ? &m.point_data.at("gmsh:dim_tags") : nullptr;
  for (std::size_t i = 0; i < np; ++i) {
    pid.data<std::int64_t>()[i] = static_cast<std::int64_t>(info.node_tags[i]) - 1;
    if (split && dim_tags) {
      const std::int64_t* dt = dim_tags->data<std::int64_t>() + 2 * i;
      if (owner_of(static_cast<int>(dt[0]), static_cast<int>(dt[1])) != partition) pghost.data<std::uint8_t>()[i] = kDuplicatePoint;
    }
  }
  std::vector<NDArray> cid, cghost;
  const auto geo = m.cell_data.find("gmsh:geometrical");
  std::size_t c = 0;
  for (std::size_t b = 0; b < m.cells.size(); ++b) {
    const std::size_t n = m.cells[b].size();
    NDArray ids = NDArray::uninit(DType::int64, {n});
    NDArray ghost = NDArray::zeros(DType::uint8, {n});
    const gmsh::ElementType* type = gmsh::element_type(m.cells[b].type);
    const NDArray entity = geo != m.cell_data.end() ? geo->second[b].as_dtype(DType::int64) : NDArray();
    for (std::size_t j = 0; j < n; ++j, ++c) {
      const std::uint64_t tag = info.element_tags[c];
      ids.data<std::int64_t>()[j] = static_cast<std::int64_t>(tag) - 1;
      if (!split) continue;
      int owner = partition;
      if (auto g = info.ghost_owner.find(tag); g != info.ghost_owner.end()) owner = g->second;
      else if (entity.size() == n && type)
        owner = owner_of(type->dim, static_cast<int>(entity.data<std::int64_t>()[j]));
      if (owner != partition) ghost.data<std::uint8_t>()[j] = kDuplicateCell;
    }
    cid.push_back(std::move(ids));
    cghost.push_back(std::move(ghost));
  }
  m.point_data[kGlobalPointIds] = std::move(pid);
  m.point_data[kGhostType] = std::move(pghost);
  m.cell_data[kGlobalCellIds] = std::move(cid);
  m.cell_data[kGhostType] = std::move(cghost);
  return m;
}

Mesh read_gmsh_set(const std::string& path, MPI_Comm comm, const Options& options) {
  const Ranks ranks(comm);
  std::uint64_t files[2] = {0, 0};  // number of files, split (1) or one plain file (0)
  all_or_none<ReadError>(comm, [&] {
    if (ranks.rank != 0) return;
    std::error_code ec;
    while (fs::is_regular_file(split_file(path, files[0] + 1), ec)) ++files[0];
    files[1] = files[0] > 0;
    if (files[0] == 0 && fs::is_regular_file(path, ec)) files[0] = 1;
    if (files[0] == 0)
      throw read_error(gmsh::kFormat, path,
                       "no such file, and no partitioned set beside it (looked for " + split_file(path, 1) +
                           ", as gmsh -part N -part_split writes)");
  });
  MPI_Bcast(files, 2, MPI_UINT64_T, 0, comm);
  const std::pair<std::uint64_t, std::uint64_t> share = ranks.range(files[0]);
  const std::uint64_t first = share.first, last = share.second;
  Mesh m = empty_mesh();
  all_or_none<ReadError>(comm, [&] {
    std::vector<Mesh> parts;
    for (std::uint64_t k = first; k < last; ++k)
      parts.push_back(files[1] ? read_gmsh_part(split_file(path, k + 1), options, static_cast<int>(k + 1))
                               : read_gmsh_part(path, options, 0));
    if (parts.size() == 1) m = std::move(parts[0]);
    else if (!parts.empty()) m = concatenate(parts);
  });
  finish_local(comm, m, static_cast<std::int64_t>(files[0]), false, false);
  return m;
}

std::string layout_of(const std::string& path, const std::string& format, bool for_write) {
  const std::string name = format.empty() ? deduce_format(path, for_write).name : format;
  if (name == "pvtu" || name == "gmsh") return name;
#ifdef MESHIOPP_HAVE_PARALLEL_HDF5
  if (name == "vtkhdf" || name == "xdmf") return name;
  const char* hdf5_layouts = ", .vtkhdf or .xdmf (one HDF5 file, collective)";
#else
  if (name == "vtkhdf" || name == "xdmf")
    throw std::invalid_argument("parallel (MPI) " + std::string(for_write ? "write" : "read") + " of '" + path + "': " + name +
                                " needs meshio++ built with parallel HDF5 (Debian libhdf5-openmpi-dev and "
                                "libnetcdf-mpi-dev); use .pvtu");
  const char* hdf5_layouts = "";
#endif
  throw std::invalid_argument("parallel (MPI) " + std::string(for_write ? "write" : "read") + " of '" + path + "': format '" +
                              name + "' has no partitioned layout; use .pvtu (VTK parallel XML)" + hdf5_layouts +
                              (for_write ? "" : " or Gmsh partitioned files (gmsh -part N -part_split)"));
}

}  // namespace

Mesh read(const std::string& path, MPI_Comm comm, const std::string& format, const Options& options) {
  const std::string layout = layout_of(path, format, false);
#ifdef MESHIOPP_HAVE_PARALLEL_HDF5
  if (layout == "vtkhdf") return mpi_detail::read_vtkhdf(path, comm, options);
  if (layout == "xdmf") return mpi_detail::read_xdmf(path, comm, options);
#endif
  return layout == "pvtu" ? read_pvtu(path, comm, options) : read_gmsh_set(path, comm, options);
}

void write(const std::string& path, const Mesh& mesh, MPI_Comm comm, const std::string& format, const Options& options) {
  const std::string layout = layout_of(path, format, true);
#ifdef MESHIOPP_HAVE_PARALLEL_HDF5
  if (layout == "vtkhdf") return mpi_detail::write_vtkhdf(path, mesh, comm, options);
  if (layout == "xdmf") return mpi_detail::write_xdmf(path, mesh, comm, options);
#endif
  if (layout == "gmsh")
    throw write_error(gmsh::kFormat, path,
                      "writing Gmsh partitioned files in parallel is not implemented; write the partitions as .pvtu "
                      "(VTK parallel XML), which VTK, ParaView and meshio++ read on any number of ranks");
  write_pvtu(path, mesh, comm, options);
}

}  // namespace meshioplusplus
