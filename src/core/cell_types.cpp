// meshio++ core: cell-type vocabulary and facet tables (see cell_types.hpp).
// Node counts follow meshio's meshio/_common.py num_nodes_per_cell; facet tables follow
// VTK's cell classes (https://vtk.org/doc/nightly/html/classvtkTetra.html and siblings).
#include "meshioplusplus/cell_types.hpp"

#include <map>
#include <stdexcept>

namespace meshioplusplus {

const std::vector<CellTypeInfo>& cell_types() {
  static const std::vector<CellTypeInfo> table = {
      {"vertex", 1, 0, "vertex"},
      {"line", 2, 1, "line"},        {"line3", 3, 1, "line"},       {"line4", 4, 1, "line"},
      {"line5", 5, 1, "line"},       {"line6", 6, 1, "line"},       {"line7", 7, 1, "line"},
      {"line8", 8, 1, "line"},       {"line9", 9, 1, "line"},       {"line10", 10, 1, "line"},
      {"line11", 11, 1, "line"},
      {"triangle", 3, 2, "triangle"},   {"triangle6", 6, 2, "triangle"},
      {"triangle7", 7, 2, "triangle"},  {"triangle10", 10, 2, "triangle"},
      {"triangle15", 15, 2, "triangle"}, {"triangle21", 21, 2, "triangle"},
      {"triangle28", 28, 2, "triangle"}, {"triangle36", 36, 2, "triangle"},
      {"triangle45", 45, 2, "triangle"}, {"triangle55", 55, 2, "triangle"},
      {"triangle66", 66, 2, "triangle"},
      {"quad", 4, 2, "quad"},       {"quad8", 8, 2, "quad"},       {"quad9", 9, 2, "quad"},
      {"quad16", 16, 2, "quad"},    {"quad25", 25, 2, "quad"},     {"quad36", 36, 2, "quad"},
      {"quad49", 49, 2, "quad"},    {"quad64", 64, 2, "quad"},     {"quad81", 81, 2, "quad"},
      {"quad100", 100, 2, "quad"},  {"quad121", 121, 2, "quad"},
      {"polygon", -1, 2, "polygon"},
      {"tetra", 4, 3, "tetra"},      {"tetra10", 10, 3, "tetra"},   {"tetra20", 20, 3, "tetra"},
      {"tetra35", 35, 3, "tetra"},   {"tetra56", 56, 3, "tetra"},   {"tetra84", 84, 3, "tetra"},
      {"tetra120", 120, 3, "tetra"}, {"tetra165", 165, 3, "tetra"}, {"tetra220", 220, 3, "tetra"},
      {"tetra286", 286, 3, "tetra"},
      {"hexahedron", 8, 3, "hexahedron"},     {"hexahedron20", 20, 3, "hexahedron"},
      {"hexahedron24", 24, 3, "hexahedron"},  {"hexahedron27", 27, 3, "hexahedron"},
      {"hexahedron64", 64, 3, "hexahedron"},  {"hexahedron125", 125, 3, "hexahedron"},
      {"hexahedron216", 216, 3, "hexahedron"}, {"hexahedron343", 343, 3, "hexahedron"},
      {"hexahedron512", 512, 3, "hexahedron"}, {"hexahedron729", 729, 3, "hexahedron"},
      {"hexahedron1000", 1000, 3, "hexahedron"}, {"hexahedron1331", 1331, 3, "hexahedron"},
      {"wedge", 6, 3, "wedge"},     {"wedge12", 12, 3, "wedge"},   {"wedge15", 15, 3, "wedge"},
      {"wedge18", 18, 3, "wedge"},  {"wedge40", 40, 3, "wedge"},   {"wedge75", 75, 3, "wedge"},
      {"wedge126", 126, 3, "wedge"}, {"wedge196", 196, 3, "wedge"}, {"wedge288", 288, 3, "wedge"},
      {"wedge405", 405, 3, "wedge"}, {"wedge550", 550, 3, "wedge"},
      {"pyramid", 5, 3, "pyramid"}, {"pyramid13", 13, 3, "pyramid"}, {"pyramid14", 14, 3, "pyramid"},
      {"polyhedron", -1, 3, "polyhedron"},
      // meshio's names for VTK's arbitrary-order Lagrange cells: any node count, one count
      // per block (https://vtk.org/doc/nightly/html/classvtkLagrangeTetra.html and siblings).
      {"VTK_LAGRANGE_CURVE", 0, 1, "line"},
      {"VTK_LAGRANGE_TRIANGLE", 0, 2, "triangle"},
      {"VTK_LAGRANGE_QUADRILATERAL", 0, 2, "quad"},
      {"VTK_LAGRANGE_TETRAHEDRON", 0, 3, "tetra"},
      {"VTK_LAGRANGE_HEXAHEDRON", 0, 3, "hexahedron"},
      {"VTK_LAGRANGE_WEDGE", 0, 3, "wedge"},
      {"VTK_LAGRANGE_PYRAMID", 0, 3, "pyramid"},
  };
  return table;
}

static std::string_view variable_base(std::string_view name) {
  for (std::string_view base : {std::string_view("polyhedron"), std::string_view("polygon")}) {
    if (name.substr(0, base.size()) != base) continue;
    std::string_view rest = name.substr(base.size());
    bool digits = true;
    for (char c : rest) digits = digits && c >= '0' && c <= '9';
    if (digits) return base;
  }
  return {};
}

std::optional<CellTypeInfo> find_cell_type(std::string_view name) {
  static const std::map<std::string_view, CellTypeInfo> by_name = [] {
    std::map<std::string_view, CellTypeInfo> m;
    for (const auto& info : cell_types()) m.emplace(info.name, info);
    return m;
  }();
  auto it = by_name.find(name);
  if (it != by_name.end()) return it->second;
  std::string_view base = variable_base(name);
  if (!base.empty()) return by_name.at(base);
  return std::nullopt;
}

CellTypeInfo cell_type(std::string_view name) {
  auto info = find_cell_type(name);
  if (!info) throw std::invalid_argument("unknown cell type '" + std::string(name) + "'");
  return *info;
}

bool is_variable_cell_type(std::string_view name) { return !variable_base(name).empty(); }

const std::vector<std::vector<int>>& cell_facets(std::string_view name) {
  static const std::map<std::string_view, std::vector<std::vector<int>>> facets = {
      {"vertex", {}},
      {"line", {{0}, {1}}},
      {"triangle", {{0, 1}, {1, 2}, {2, 0}}},
      {"quad", {{0, 1}, {1, 2}, {2, 3}, {3, 0}}},
      {"polygon", {}},
      {"tetra", {{0, 1, 3}, {1, 2, 3}, {2, 0, 3}, {0, 2, 1}}},
      {"hexahedron", {{0, 4, 7, 3}, {1, 2, 6, 5}, {0, 1, 5, 4}, {3, 7, 6, 2}, {0, 3, 2, 1}, {4, 5, 6, 7}}},
      // The linear wedge is stored in Gmsh's prism order, as meshio stores it (VTK node v is
      // our node [0,2,1,3,5,4][v]); these are VTK's faces in that order, still outward.
      {"wedge", {{0, 2, 1}, {3, 4, 5}, {0, 3, 5, 2}, {2, 5, 4, 1}, {1, 4, 3, 0}}},
      // Higher-order wedges keep VTK's order.
      {"wedge_vtk", {{0, 1, 2}, {3, 5, 4}, {0, 3, 4, 1}, {1, 4, 5, 2}, {2, 5, 3, 0}}},
      {"pyramid", {{0, 3, 2, 1}, {0, 1, 4}, {1, 2, 4}, {2, 3, 4}, {3, 0, 4}}},
      {"polyhedron", {}},
  };
  const CellTypeInfo info = cell_type(name);
  if (info.linear == "wedge" && info.name != "wedge") return facets.at("wedge_vtk");
  // Lagrange cells list their corner nodes first, in the linear parent's VTK order.
  return facets.at(info.linear);
}

}  // namespace meshioplusplus
