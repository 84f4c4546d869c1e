// meshio++ MPI: collective, partitioned reads and writes (docs/parallel.md). A separate
// header so that the core headers never include <mpi.h>; built and installed when CMake's
// MESHIOPP_WITH_MPI is on (target meshioplusplus::meshioplusplus_mpi).
//
//   Mesh local = meshioplusplus::read("run.pvtu", MPI_COMM_WORLD);   // this rank's part
//   meshioplusplus::write("out.pvtu", local, MPI_COMM_WORLD);        // one piece per rank
//
// Both are collective: every rank of `comm` calls them, also a rank that owns nothing. A
// failure on any rank is raised on every rank (ReadError / WriteError naming the rank).
//
// Layouts, by extension:
//   .pvtu  VTK's parallel XML collection. Writing: rank r writes the piece x/x_r.vtu (a
//          rank holding no points and no cells writes none); rank 0 writes x.pvtu after one
//          gather of the pieces' sizes and array declarations. Reading P pieces on R ranks:
//          rank r reads pieces [r*P/R, (r+1)*P/R) (its own one when P == R; none when
//          R > P and the range is empty).
//   .msh   Gmsh partitioned meshes, `gmsh -part N -part_split` (x_1.msh ... x_N.msh, MSH
//          4.1 with $PartitionedEntities and, with -part_ghosts, $GhostElements): files
//          are shared out as the pieces above. A plain x.msh with no x_1.msh beside it is
//          one piece. Writing is not implemented (a WriteError that names .pvtu).
//   .vtkhdf  one VTKHDF file through parallel HDF5 (a build with libhdf5-openmpi-dev):
//          rank r writes partition r collectively; P partitions read on P ranks give each
//          its own, on another count each rank reads a range of cells and the points they
//          use (a point owned by the lowest rank using it).
//   .xdmf  XDMF + one HDF5 file through parallel HDF5: the points at their global ids when
//          those number the owned points 0..N-1 (the global mesh, shared points once),
//          else rank by rank; read as cell ranges like .vtkhdf.
//   Spec: https://docs.vtk.org/en/latest/design_documents/VTKFileFormats.html (Parallel File
//   Formats); https://gmsh.info/doc/texinfo/gmsh.html#MSH-file-format.
//
// The local mesh carries, beside the file's own arrays:
//   point_data "global_point_ids" (int64)  the point's global number: from the pieces'
//              own global_point_ids array when they hold one (what write() stores), else
//              (PVTU) the point's index in the whole collection, VTK's numbering; Gmsh: the
//              node tag - 1
//   cell_data  "global_cell_ids"  (int64)  likewise; Gmsh: the element tag - 1
//   point_data / cell_data "vtkGhostType" (uint8)  VTK's convention: 0 owned here,
//              kDuplicatePoint / kDuplicateCell a copy of a point / cell another rank (or
//              another file of this rank) owns. PVTU: the pieces' own array when they hold
//              one, else 0. Gmsh: a node or element of an entity shared by several
//              partitions is owned by the lowest one; $GhostElements name their owner
//   field_data "global_num_points", "global_num_cells" (int64, one value): the sum over
//              the ranks of the points / cells that are not ghosts; "num_partitions": the
//              number of pieces (files) in the collection
//   regions    the file's, restricted to the local cells, with their global tags.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>

#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

inline constexpr const char* kGlobalPointIds = "global_point_ids";
inline constexpr const char* kGlobalCellIds = "global_cell_ids";
inline constexpr const char* kGhostType = "vtkGhostType";
inline constexpr std::uint8_t kDuplicatePoint = 1;  // vtkDataSetAttributes::DUPLICATEPOINT
inline constexpr std::uint8_t kDuplicateCell = 1;   // vtkDataSetAttributes::DUPLICATECELL

// Collective read: this rank's part of the collection at `path` (format deduced from the
// extension when empty: "pvtu", "gmsh", "vtkhdf" or "xdmf"). Options go to the piece reader.
Mesh read(const std::string& path, MPI_Comm comm, const std::string& format = "", const Options& options = {});

// Collective write of this rank's `mesh` as its piece of `path` ("pvtu", "vtkhdf", "xdmf");
// options go to the piece writer (vtu: binary, compression, ...).
void write(const std::string& path, const Mesh& mesh, MPI_Comm comm, const std::string& format = "",
           const Options& options = {});

}  // namespace meshioplusplus
