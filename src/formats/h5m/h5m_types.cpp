// meshio++ H5M: the element type table. MOAB's entity type names and values are those of
// MOAB's EntityType enum (src/moab/EntityType.hpp: MBVERTEX = 0, MBEDGE, MBTRI, MBQUAD,
// MBPOLYGON, MBTET, MBPYRAMID, MBPRISM, MBKNIFE, MBHEX, MBPOLYHEDRON); MOAB names an element
// group by the type's name and its node count ("Hex8"). The higher-order types read are those
// whose node order (corners, then one node per edge in MOAB's canonical edge order, then the
// face center) is VTK's; the others (Hex20, Prism15, ...) are skipped with a warning.
// Spec: https://sigma.mcs.anl.gov/moab/ (mhdf/include/mhdf.h)
#include <algorithm>
#include <cctype>
#include <vector>

#include "formats/h5m/h5m_internal.hpp"

namespace meshioplusplus::h5m {

namespace {

const std::vector<ElementType>& table() {
  static const std::vector<ElementType> t = {
      {"Edge", 2, "line", 1, true},        {"Edge", 3, "line3", 1, false},
      {"Tri", 3, "triangle", 2, true},     {"Tri", 6, "triangle6", 2, false},
      {"Quad", 4, "quad", 3, true},        {"Quad", 8, "quad8", 3, false},
      {"Quad", 9, "quad9", 3, false},      {"Polygon", 0, "polygon", 4, false},
      {"Tet", 4, "tetra", 5, true},        {"Tet", 10, "tetra10", 5, false},
      {"Pyramid", 5, "pyramid", 6, true},  {"Prism", 6, "wedge", 7, true},
      {"Hex", 8, "hexahedron", 9, true},
  };
  return t;
}

}  // namespace

const ElementType* type_of_group(std::string_view group_name, std::size_t nodes) {
  const auto letters = std::find_if(group_name.begin(), group_name.end(), [](char c) { return !std::isalpha(static_cast<unsigned char>(c)); });
  const std::string_view name = group_name.substr(0, static_cast<std::size_t>(letters - group_name.begin()));
  for (const ElementType& e : table())
    if (e.moab == name && (e.nodes == 0 ? nodes >= 3 : static_cast<std::size_t>(e.nodes) == nodes)) return &e;
  return nullptr;
}

const ElementType* type_for(std::string_view meshio_type) {
  for (const ElementType& e : table())
    if (e.written && e.meshio == meshio_type) return &e;
  return nullptr;
}

const std::vector<std::pair<std::string, int>>& elemtypes_enum() {
  static const std::vector<std::pair<std::string, int>> members = {
      {"Edge", 1}, {"Tri", 2}, {"Quad", 3}, {"Polygon", 4}, {"Tet", 5},
      {"Pyramid", 6}, {"Prism", 7}, {"Knife", 8}, {"Hex", 9}, {"Polyhedron", 10}};
  return members;
}

}  // namespace meshioplusplus::h5m
