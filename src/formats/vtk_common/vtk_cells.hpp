// meshio++ formats: the one VTK cell-type table, shared by VTU (src/formats/vtu/) and
// legacy VTK (src/formats/vtk/).
//
// VTK ids: https://vtk.org/doc/nightly/html/vtkCellType_8h_source.html
// Names are meshio's (meshio/_vtk_common.py). Node order is VTK's for every type except
// the linear wedge, where meshio (and so meshio++) keeps Gmsh's prism order: the file
// holds nodes (0, 2, 1, 3, 5, 4) of the in-memory wedge (meshio's meshio_to_vtk_order).
// Read-only: VTK_PIXEL and VTK_VOXEL become quad / hexahedron (reordered), VTK_LAGRANGE_*
// cells become the vocabulary's high-order name with their node count (line5, triangle10,
// ...), in VTK's Lagrange node order. Types with no fixed VTK id (line5, triangle10, ...)
// are written as the matching VTK_LAGRANGE_* type.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace meshioplusplus::vtk {

inline constexpr int kPolygon = 7;
inline constexpr int kPolyhedron = 42;
inline constexpr int kLagrangeHexahedron = 72;

struct VtkWriteType {
  int id = -1;                 // VTK cell type id
  std::vector<int> order;      // empty = identity; else file node k = mesh node order[k]
};

// The VTK id and node order used to write meshio type `name`; id -1 when VTK has none.
VtkWriteType vtk_type_for(std::string_view name);

struct VtkReadType {
  std::string name;            // meshio name; empty when unsupported
  int num_nodes = -1;          // fixed node count, -1 when variable (polygon, polyhedron, Lagrange)
  std::vector<int> order;      // empty = identity; else mesh node k = file node order[k]
  bool lagrange = false;       // name depends on the node count (lagrange_name)
};

// How a VTK cell type id reads; name empty (and `why` set) when meshio++ cannot hold it.
const VtkReadType& vtk_read_type(std::int64_t id);
// How a VTK_LAGRANGE_* cell of `id` with `num_nodes` nodes reads (the vocabulary name
// with that node count; VTK's Lagrange order equals its fixed types' order, checked with
// vtkCell::GetParametricCoords); meshio's VTK_LAGRANGE_* name when the vocabulary has
// no fixed-order type with that node count.
VtkReadType lagrange_type(std::int64_t id, std::int64_t num_nodes);
// "VTK_QUADRATIC_EDGE (21)"-style text for messages.
std::string vtk_type_label(std::int64_t id);

}  // namespace meshioplusplus::vtk
