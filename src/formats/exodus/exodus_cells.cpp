// meshio++ Exodus II: the one element-type table (names, node order, side numbering).
// Spec: https://sandialabs.github.io/seacas-docs/exodusII-new.pdf, "Element Types" (node
// ordering) and "Side Sets" (the side numbering of each topology).
//
// Names are meshio's (meshio/exodus/_exodus.py) plus the aliases the Exodus library
// writes. The quadratic hexahedra and wedge list their mid-edge nodes bottom, top, then
// vertical (Exodus: bottom, vertical, top), and the 27-node hexahedron puts its centre node
// first; vtkExodusIIReader applies the same permutations. Side numbering is computed by
// matching each Exodus side's corner nodes with the core's facet table, so the facet
// numbering is written once (core/cell_types.cpp). The edges of a 2-D element in a 3-D
// file (a shell) are its sides 3.. (sides 1 and 2 are its faces); reader and writer add
// that offset.
#include <algorithm>
#include <cctype>
#include <map>

#include "formats/exodus/exodus_internal.hpp"
#include "meshioplusplus/cell_types.hpp"

namespace meshioplusplus::exodus {

namespace {

using Sides = std::vector<std::vector<int>>;  // Exodus sides, 1-based corner nodes

// Exodus side definitions by topology (corner nodes only; mid-side nodes follow them).
const Sides kTriSides = {{1, 2}, {2, 3}, {3, 1}};
const Sides kQuadSides = {{1, 2}, {2, 3}, {3, 4}, {4, 1}};
const Sides kTetSides = {{1, 2, 4}, {2, 3, 4}, {1, 4, 3}, {1, 3, 2}};
const Sides kHexSides = {{1, 2, 6, 5}, {2, 3, 7, 6}, {3, 4, 8, 7}, {1, 5, 8, 4}, {1, 4, 3, 2}, {5, 6, 7, 8}};
const Sides kWedgeSides = {{1, 2, 5, 4}, {2, 3, 6, 5}, {1, 4, 6, 3}, {1, 3, 2}, {4, 5, 6}};
const Sides kPyramidSides = {{1, 2, 5}, {2, 3, 5}, {3, 4, 5}, {1, 5, 4}, {1, 4, 3, 2}};
const Sides kNone = {};

const std::vector<int> kHex20 = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 16, 17, 18, 19, 12, 13, 14, 15};
const std::vector<int> kHex27 = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 16, 17,
                                 18, 19, 12, 13, 14, 15, 23, 24, 25, 26, 21, 22, 20};
const std::vector<int> kWedge15 = {0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 13, 14, 9, 10, 11};

// Our facet for each Exodus side: the facet with the same corner nodes. Corner nodes are
// never permuted by the tables above, so Exodus corner k-1 is our node k-1.
std::vector<int> side_map(std::string_view meshio, const Sides& sides) {
  std::vector<int> out;
  if (sides.empty()) return out;
  const auto& facets = cell_facets(meshio);
  for (const auto& side : sides) {
    std::vector<int> a;
    for (int n : side) a.push_back(n - 1);
    std::sort(a.begin(), a.end());
    int found = -1;
    for (std::size_t f = 0; f < facets.size(); ++f) {
      std::vector<int> b = facets[f];
      std::sort(b.begin(), b.end());
      if (a == b) found = static_cast<int>(f);
    }
    out.push_back(found);
  }
  return out;
}

struct Row {
  std::string_view exodus, meshio;
  const std::vector<int>* perm;
  const Sides* sides;
};

// The first row of each meshio++ type is what the writer emits: a name meshio's reader
// maps too (meshio reads TETRA4 as an unknown "tetra4").
const std::vector<ElementType>& table() {
  static const std::vector<ElementType> all = [] {
    static const std::vector<int> identity;
    const std::vector<Row> rows = {
        {"SPHERE", "vertex", &identity, &kNone},
        {"BAR2", "line", &identity, &kNone}, {"BAR", "line", &identity, &kNone},
        {"BEAM", "line", &identity, &kNone}, {"BEAM2", "line", &identity, &kNone},
        {"TRUSS", "line", &identity, &kNone}, {"TRUSS2", "line", &identity, &kNone},
        {"BEAM3", "line3", &identity, &kNone}, {"BAR3", "line3", &identity, &kNone},
        {"TRUSS3", "line3", &identity, &kNone},
        {"TRI3", "triangle", &identity, &kTriSides}, {"TRI", "triangle", &identity, &kTriSides},
        {"TRIANGLE", "triangle", &identity, &kTriSides},
        {"TRISHELL", "triangle", &identity, &kTriSides}, {"TRISHELL3", "triangle", &identity, &kTriSides},
        {"TRI6", "triangle6", &identity, &kTriSides}, {"TRISHELL6", "triangle6", &identity, &kTriSides},
        {"TRI7", "triangle7", &identity, &kTriSides},
        {"QUAD4", "quad", &identity, &kQuadSides}, {"QUAD", "quad", &identity, &kQuadSides},
        {"SHELL", "quad", &identity, &kQuadSides}, {"SHELL4", "quad", &identity, &kQuadSides},
        {"QUAD8", "quad8", &identity, &kQuadSides}, {"SHELL8", "quad8", &identity, &kQuadSides},
        {"QUAD9", "quad9", &identity, &kQuadSides}, {"SHELL9", "quad9", &identity, &kQuadSides},
        {"TETRA", "tetra", &identity, &kTetSides}, {"TETRA4", "tetra", &identity, &kTetSides},
        {"TET4", "tetra", &identity, &kTetSides}, {"TET", "tetra", &identity, &kTetSides},
        {"TETRA10", "tetra10", &identity, &kTetSides}, {"TET10", "tetra10", &identity, &kTetSides},
        {"HEX8", "hexahedron", &identity, &kHexSides}, {"HEX", "hexahedron", &identity, &kHexSides},
        {"HEXAHEDRON", "hexahedron", &identity, &kHexSides},
        {"HEX20", "hexahedron20", &kHex20, &kHexSides}, {"HEX27", "hexahedron27", &kHex27, &kHexSides},
        {"WEDGE", "wedge", &identity, &kWedgeSides}, {"WEDGE6", "wedge", &identity, &kWedgeSides},
        {"WEDGE15", "wedge15", &kWedge15, &kWedgeSides},
        {"PYRAMID", "pyramid", &identity, &kPyramidSides}, {"PYRAMID5", "pyramid", &identity, &kPyramidSides},
        {"PYRAMID13", "pyramid13", &identity, &kPyramidSides},
    };
    std::vector<ElementType> out;
    for (const Row& r : rows) out.push_back({r.exodus, r.meshio, *r.perm, side_map(r.meshio, *r.sides)});
    return out;
  }();
  return all;
}

}  // namespace

const ElementType* find_exodus_type(std::string_view elem_type) {
  std::string upper(elem_type);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (const auto& t : table())
    if (t.exodus == upper) return &t;
  return nullptr;
}

const ElementType* exodus_type_for(std::string_view meshio_type) {
  for (const auto& t : table())
    if (t.meshio == meshio_type) return &t;
  return nullptr;
}

}  // namespace meshioplusplus::exodus
