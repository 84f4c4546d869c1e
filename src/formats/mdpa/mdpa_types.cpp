// meshio++ Kratos MDPA: element and condition names to meshio cell types, and node orders.
// Spec: Kratos "Input data" and "Mesh node ordering" (see mdpa.hpp); the geometry-name table
// and the hexahedron20 / hexahedron27 permutations are meshio's (meshio/mdpa/_mdpa.py).
#include <cstdint>

#include "formats/mdpa/mdpa_internal.hpp"
#include "meshioplusplus/cell_types.hpp"

namespace meshioplusplus::mdpa {

namespace {

struct Named {
  std::string_view geometry;  // Kratos geometry name, as it appears inside element names
  std::string_view type;
};

// meshio's table, in its order: the first geometry name a block name contains wins.
constexpr Named kGeometries[] = {
    {"Line2D2", "line"},          {"Line3D2", "line"},           {"Triangle2D3", "triangle"},      {"Triangle3D3", "triangle"},
    {"Quadrilateral2D4", "quad"}, {"Quadrilateral3D4", "quad"},  {"Tetrahedra3D4", "tetra"},       {"Hexahedra3D8", "hexahedron"},
    {"Prism3D6", "wedge"},        {"Line2D3", "line3"},          {"Triangle2D6", "triangle6"},     {"Triangle3D6", "triangle6"},
    {"Quadrilateral2D9", "quad9"}, {"Quadrilateral3D9", "quad9"}, {"Tetrahedra3D10", "tetra10"},   {"Hexahedra3D27", "hexahedron27"},
    {"Point2D", "vertex"},        {"Point3D", "vertex"},         {"Quadrilateral2D8", "quad8"},    {"Quadrilateral3D8", "quad8"},
    {"Hexahedra3D20", "hexahedron20"},
};

// The writer's names (meshio's), written with "2D" or "3D" by the mesh's dimension.
constexpr Named kWritten[] = {
    {"Line2D2", "line"},          {"Triangle2D3", "triangle"},  {"Quadrilateral2D4", "quad"},   {"Tetrahedra3D4", "tetra"},
    {"Hexahedra3D8", "hexahedron"}, {"Prism3D6", "wedge"},       {"Line2D3", "line3"},            {"Triangle2D6", "triangle6"},
    {"Quadrilateral2D9", "quad9"}, {"Tetrahedra3D10", "tetra10"}, {"Hexahedra3D27", "hexahedron27"}, {"Point2D", "vertex"},
    {"Quadrilateral2D8", "quad8"}, {"Hexahedra3D20", "hexahedron20"},
};

constexpr int kHex20[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 10, 9, 16, 17, 18, 19, 12, 15, 14, 13};
constexpr int kHex27[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 10, 9, 16, 17, 18, 19, 12, 15, 14, 13, 22, 24, 21, 23, 20, 25, 26};

bool contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

// Kratos' convention: the name ends in "<d>D<n>N" (Element3D4N, LineCondition2D2N).
bool dims_and_nodes(std::string_view name, int& dim, std::size_t& nodes) {
  if (name.size() < 4 || name.back() != 'N') return false;
  std::size_t i = name.size() - 1, digits_end = i;
  while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9') --i;
  if (i == digits_end || i < 3 || name[i - 1] != 'D' || name[i - 2] < '1' || name[i - 2] > '3') return false;
  nodes = 0;
  for (std::size_t k = i; k < digits_end; ++k) nodes = nodes * 10 + static_cast<std::size_t>(name[k] - '0');
  dim = name[i - 2] - '0';
  return true;
}

std::string_view by_shape(int local_dim, std::size_t n) {
  switch (local_dim) {
    case 0: return n == 1 ? "vertex" : "";
    case 1: return n == 2 ? "line" : n == 3 ? "line3" : "";
    case 2:
      switch (n) {
        case 3: return "triangle";
        case 4: return "quad";
        case 6: return "triangle6";
        case 8: return "quad8";
        case 9: return "quad9";
        default: return "";
      }
    default:
      switch (n) {
        case 4: return "tetra";
        case 5: return "pyramid";
        case 6: return "wedge";
        case 8: return "hexahedron";
        case 10: return "tetra10";
        case 15: return "wedge15";
        case 20: return "hexahedron20";
        case 27: return "hexahedron27";
        default: return "";
      }
  }
}

}  // namespace

std::string_view cell_type_of(std::string_view name, std::size_t nodes) {
  for (const Named& g : kGeometries)
    if (contains(name, g.geometry))  // a row of another node count is no such cell
      return cell_type(g.type).num_nodes == static_cast<int>(nodes) ? g.type : std::string_view();
  int dim = 0;
  std::size_t n = 0;
  if (dims_and_nodes(name, dim, n) && n == nodes) {
    // The local dimension: a point, line or surface condition names itself; otherwise the
    // space dimension ("Element2D3N" is a triangle, "Element3D4N" a tetrahedron).
    int local = dim;
    if (contains(name, "Point")) local = 0;
    else if (contains(name, "Line")) local = 1;
    else if (contains(name, "Surface") || contains(name, "Face")) local = 2;
    else if (nodes == 1) local = 0;
    else if (nodes == 2) local = 1;
    const std::string_view t = by_shape(local, nodes);
    if (!t.empty()) return t;
  }
  // meshio's last resort: the node count alone (its inverse of num_nodes_per_cell).
  switch (nodes) {
    case 1: return "vertex";
    case 2: return "line";
    case 3: return "line3";
    default: return "";
  }
}

std::string kratos_name(std::string_view type, bool three_d) {
  for (const Named& g : kWritten)
    if (g.type == type) {
      std::string name(g.geometry);
      const std::size_t d = name.find(three_d ? "2D" : "3D");
      if (d != std::string::npos) name[d] = three_d ? '3' : '2';
      return name;
    }
  return {};
}

const int* kratos_order(std::string_view type) {
  if (type == "hexahedron20") return kHex20;
  if (type == "hexahedron27") return kHex27;
  return nullptr;
}

}  // namespace meshioplusplus::mdpa
