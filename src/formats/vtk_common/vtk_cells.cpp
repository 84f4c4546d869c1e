// meshio++ formats: the VTK cell-type table (see vtk_cells.hpp).
#include "formats/vtk_common/vtk_cells.hpp"

#include <map>

#include "meshioplusplus/cell_types.hpp"

namespace meshioplusplus::vtk {

namespace {

struct Row {
  int id;
  const char* vtk_name;
  const char* name;  // meshio name ("" = cannot be held)
};

// The one table: VTK id -> meshio name. Everything else is derived from it.
constexpr Row kRows[] = {
    {0, "VTK_EMPTY_CELL", ""},
    {1, "VTK_VERTEX", "vertex"},
    {2, "VTK_POLY_VERTEX", ""},
    {3, "VTK_LINE", "line"},
    {4, "VTK_POLY_LINE", ""},
    {5, "VTK_TRIANGLE", "triangle"},
    {6, "VTK_TRIANGLE_STRIP", ""},
    {7, "VTK_POLYGON", "polygon"},
    {8, "VTK_PIXEL", "quad"},
    {9, "VTK_QUAD", "quad"},
    {10, "VTK_TETRA", "tetra"},
    {11, "VTK_VOXEL", "hexahedron"},
    {12, "VTK_HEXAHEDRON", "hexahedron"},
    {13, "VTK_WEDGE", "wedge"},
    {14, "VTK_PYRAMID", "pyramid"},
    {15, "VTK_PENTAGONAL_PRISM", ""},
    {16, "VTK_HEXAGONAL_PRISM", ""},
    {21, "VTK_QUADRATIC_EDGE", "line3"},
    {22, "VTK_QUADRATIC_TRIANGLE", "triangle6"},
    {23, "VTK_QUADRATIC_QUAD", "quad8"},
    {24, "VTK_QUADRATIC_TETRA", "tetra10"},
    {25, "VTK_QUADRATIC_HEXAHEDRON", "hexahedron20"},
    {26, "VTK_QUADRATIC_WEDGE", "wedge15"},
    {27, "VTK_QUADRATIC_PYRAMID", "pyramid13"},
    {28, "VTK_BIQUADRATIC_QUAD", "quad9"},
    {29, "VTK_TRIQUADRATIC_HEXAHEDRON", "hexahedron27"},
    {30, "VTK_QUADRATIC_LINEAR_QUAD", ""},
    {31, "VTK_QUADRATIC_LINEAR_WEDGE", "wedge12"},
    {32, "VTK_BIQUADRATIC_QUADRATIC_WEDGE", "wedge18"},
    {33, "VTK_BIQUADRATIC_QUADRATIC_HEXAHEDRON", "hexahedron24"},
    {34, "VTK_BIQUADRATIC_TRIANGLE", "triangle7"},
    {35, "VTK_CUBIC_LINE", "line4"},
    {36, "VTK_QUADRATIC_POLYGON", ""},
    {42, "VTK_POLYHEDRON", "polyhedron"},
    {68, "VTK_LAGRANGE_CURVE", "line"},
    {69, "VTK_LAGRANGE_TRIANGLE", "triangle"},
    {70, "VTK_LAGRANGE_QUADRILATERAL", "quad"},
    {71, "VTK_LAGRANGE_TETRAHEDRON", "tetra"},
    {72, "VTK_LAGRANGE_HEXAHEDRON", "hexahedron"},
    {73, "VTK_LAGRANGE_WEDGE", "wedge"},
    {74, "VTK_LAGRANGE_PYRAMID", "pyramid"},
    {75, "VTK_BEZIER_CURVE", ""},
    {76, "VTK_BEZIER_TRIANGLE", ""},
    {77, "VTK_BEZIER_QUADRILATERAL", ""},
    {78, "VTK_BEZIER_TETRAHEDRON", ""},
    {79, "VTK_BEZIER_HEXAHEDRON", ""},
    {80, "VTK_BEZIER_WEDGE", ""},
    {81, "VTK_BEZIER_PYRAMID", ""},
};

bool is_lagrange(int id) { return id >= 68 && id <= 74; }

// Node permutations (file order -> mesh order); each is its own inverse.
const std::vector<int> kWedge = {0, 2, 1, 3, 5, 4};     // meshio keeps Gmsh's prism order
const std::vector<int> kPixel = {0, 1, 3, 2};           // VTK_PIXEL is lexicographic
const std::vector<int> kVoxel = {0, 1, 3, 2, 4, 5, 7, 6};  // VTK_VOXEL likewise

const std::map<std::int64_t, VtkReadType>& read_table() {
  static const std::map<std::int64_t, VtkReadType> table = [] {
    std::map<std::int64_t, VtkReadType> t;
    for (const Row& r : kRows) {
      VtkReadType v;
      v.name = r.name;
      v.lagrange = is_lagrange(r.id);
      if (!v.name.empty() && !v.lagrange) v.num_nodes = cell_type(v.name).num_nodes;
      if (r.id == 13) v.order = kWedge;
      if (r.id == 8) v.order = kPixel;
      if (r.id == 11) v.order = kVoxel;
      t.emplace(r.id, std::move(v));
    }
    return t;
  }();
  return table;
}

}  // namespace

VtkWriteType vtk_type_for(std::string_view name) {
  VtkWriteType out;
  const auto info = find_cell_type(name);
  if (!info) return out;
  if (info->num_nodes == -1) {
    out.id = info->dim == 3 ? kPolyhedron : kPolygon;
    return out;
  }
  for (const Row& r : kRows)
    if (!is_lagrange(r.id) && r.id != 8 && r.id != 11 && info->name == r.name) {
      out.id = r.id;
      if (r.id == 13) out.order = kWedge;
      return out;
    }
  // No fixed type: the Lagrange type of its shape, nodes in VTK's Lagrange order.
  for (const Row& r : kRows)
    if (is_lagrange(r.id) && info->linear == r.name) out.id = r.id;
  return out;
}

const VtkReadType& vtk_read_type(std::int64_t id) {
  static const VtkReadType unknown{};
  const auto& t = read_table();
  auto it = t.find(id);
  return it == t.end() ? unknown : it->second;
}

VtkReadType lagrange_type(std::int64_t id, std::int64_t num_nodes) {
  VtkReadType out;
  if (!is_lagrange(static_cast<int>(id)) || num_nodes <= 0 || num_nodes > 100000) return out;
  const std::string base = vtk_read_type(id).name;
  const auto linear = cell_type(base);
  std::string name = num_nodes == linear.num_nodes ? base : base + std::to_string(num_nodes);
  const auto info = find_cell_type(name);
  if (!info || info->num_nodes != num_nodes || info->linear != base) {
    // No fixed-order name for this node count: meshio's VTK_LAGRANGE_* name, as read.
    for (const Row& r : kRows)
      if (r.id == id) name = r.vtk_name;
  }
  out.name = name;
  out.num_nodes = static_cast<int>(num_nodes);
  out.order = vtk_type_for(name).order;  // the linear wedge's permutation (an involution)
  return out;
}

std::string vtk_type_label(std::int64_t id) {
  for (const Row& r : kRows)
    if (r.id == id) return std::string(r.vtk_name) + " (" + std::to_string(id) + ")";
  return "unknown VTK cell type " + std::to_string(id);
}

}  // namespace meshioplusplus::vtk
