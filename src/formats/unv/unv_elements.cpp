// meshio++ I-DEAS Universal: the one element table (dataset 2412 FE descriptor ids and node
// orders), read by the reader and, inverted, by the writer.
// Spec: the I-DEAS Universal File Datasets Summary, dataset 2412 and its FE descriptor id
// table (see unv.hpp).
//
// I-DEAS lists the nodes of a quadratic element going round each edge loop: corner, mid-side,
// corner, mid-side, ...; for solids the bottom loop, then the mid-side nodes of the edges
// joining bottom and top, then the top loop (the tetrahedron: the base loop, the three edges
// to the apex, then the apex). VTK lists all corners first. gmsh's .unv export and import use
// the same orders (checked by tests/python/test_unv.py); its 9-node quadrilateral, which
// I-DEAS does not have, is written with FE id 94 in VTK's own order, and read so.
#include <array>

#include "formats/unv/unv_internal.hpp"

namespace meshioplusplus::unv {

namespace {

constexpr int kLine3[3] = {0, 2, 1};
constexpr int kTri6[6] = {0, 2, 4, 1, 3, 5};
constexpr int kQuad8[8] = {0, 2, 4, 6, 1, 3, 5, 7};
constexpr int kTet10[10] = {0, 2, 4, 9, 1, 3, 5, 6, 7, 8};
constexpr int kWedge15[15] = {0, 2, 4, 9, 11, 13, 1, 3, 5, 10, 12, 14, 6, 7, 8};
constexpr int kHex20[20] = {0, 2, 4, 6, 12, 14, 16, 18, 1, 3, 5, 7, 13, 15, 17, 19, 8, 9, 10, 11};

// Writer's choice per type (the first entry of a type); the reader takes any row.
constexpr std::array<UnvElement, 14> kWrite = {{
    {"vertex", 161, 1, nullptr},       // lumped mass
    {"line", 21, 2, nullptr},          // linear beam
    {"line3", 24, 3, kLine3},          // parabolic beam
    {"triangle", 91, 3, nullptr},      // thin shell linear triangle
    {"triangle6", 92, 6, kTri6},
    {"quad", 94, 4, nullptr},          // thin shell linear quadrilateral
    {"quad8", 95, 8, kQuad8},
    {"quad9", 94, 9, nullptr},         // gmsh's spelling
    {"tetra", 111, 4, nullptr},        // solid linear tetrahedron
    {"tetra10", 118, 10, kTet10},
    {"wedge", 112, 6, nullptr},        // solid linear wedge
    {"wedge15", 113, 15, kWedge15},
    {"hexahedron", 115, 8, nullptr},   // solid linear brick
    {"hexahedron20", 116, 20, kHex20},
}};

enum class Shape { none, vertex, line, tri, quad, tet, wedge, hex };

// FE descriptor id -> shape. Lines: rod, beams, pipes, node-to-node springs and damper;
// triangles and quadrilaterals: plane stress / strain, plate, membrane, axisymmetric, thin shell.
Shape shape_of(int fe) {
  switch (fe) {
    case 11: case 21: case 22: case 23: case 24: case 31: case 32: case 136: case 137: case 141: return Shape::line;
    case 41: case 42: case 51: case 52: case 61: case 62: case 71: case 72: case 81: case 82: case 91: case 92: return Shape::tri;
    case 44: case 45: case 54: case 55: case 64: case 65: case 74: case 75: case 84: case 85: case 94: case 95: return Shape::quad;
    case 111: case 118: return Shape::tet;
    case 112: case 113: return Shape::wedge;
    case 115: case 116: return Shape::hex;
    case 161: case 138: case 139: return Shape::vertex;  // lumped mass, node-to-ground springs
    default: return Shape::none;
  }
}

}  // namespace

bool is_beam(int fe_id) {
  return fe_id == 11 || fe_id == 21 || fe_id == 22 || fe_id == 23 || fe_id == 24 || fe_id == 31 || fe_id == 32;
}

const UnvElement* find_element(int fe_id, int nodes) {
  static constexpr std::array<std::pair<Shape, int>, 14> kRow = {{
      {Shape::vertex, 0}, {Shape::line, 1}, {Shape::line, 2}, {Shape::tri, 3}, {Shape::tri, 4}, {Shape::quad, 5},
      {Shape::quad, 6}, {Shape::quad, 7}, {Shape::tet, 8}, {Shape::tet, 9}, {Shape::wedge, 10}, {Shape::wedge, 11},
      {Shape::hex, 12}, {Shape::hex, 13},
  }};
  const Shape s = shape_of(fe_id);
  if (s == Shape::none) return nullptr;
  for (const auto& [shape, row] : kRow)
    if (shape == s && kWrite[static_cast<std::size_t>(row)].nodes == nodes) return &kWrite[static_cast<std::size_t>(row)];
  return nullptr;
}

const UnvElement* element_for_type(std::string_view type) {
  for (const auto& e : kWrite)
    if (e.type == type) return &e;
  return nullptr;
}

}  // namespace meshioplusplus::unv
