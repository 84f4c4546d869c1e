// meshio++ Abaqus: element-type names and element-face labels.
//
// Spec: the Abaqus element libraries (solid, shell, beam, truss, membrane) as restated in the
// CalculiX User's Manual (http://www.dhondt.de/ccx_2.20.pdf, section 6.2): an element name
// is a family prefix, a node count and optional option letters ("C3D8R" = continuum 3-D,
// 8 nodes, reduced integration). Node order within every mapped type equals VTK's (corner
// nodes first, then mid-edge nodes edge by edge) except for 3-node lines, whose middle node
// Abaqus lists second, and the 27-node brick, whose centroid Abaqus lists before the face
// centres (node_permutation; the C3D27 order is the one gmsh's Abaqus export writes).
// Faces: S1..S6
// on solids (corner nodes listed below, 1-based as in the manual), S1..S4 (or E1..E4) the
// edges of 2-D continuum and shell elements.
#include <algorithm>
#include <array>
#include <vector>

#include "formats/abaqus/abaqus_internal.hpp"
#include "meshioplusplus/cell_types.hpp"

namespace meshioplusplus::abaqus {

namespace {

enum class Family { solid, planar, shell, continuum_shell, truss, beam, surface_tri };

struct Prefix {
  std::string_view prefix;
  Family family;
};

// Longest prefixes first where one is a prefix of another ("SC" and "SFM3D" before "S").
constexpr std::array<Prefix, 27> kPrefixes = {{
    {"DCC3D", Family::solid}, {"DC3D", Family::solid}, {"AC3D", Family::solid}, {"C3D", Family::solid},
    {"CPEG", Family::planar}, {"CGAX", Family::planar}, {"DCAX", Family::planar}, {"DC2D", Family::planar},
    {"AC2D", Family::planar}, {"ACAX", Family::planar}, {"CPS", Family::planar}, {"CPE", Family::planar},
    {"CAX", Family::planar},
    {"SFM3D", Family::shell}, {"M3D", Family::shell}, {"R3D", Family::shell}, {"STRI", Family::surface_tri},
    {"SC", Family::continuum_shell}, {"DS", Family::shell}, {"S", Family::shell},
    {"T2D", Family::truss}, {"T3D", Family::truss}, {"DC1D", Family::truss}, {"RB2D", Family::truss},
    {"RB3D", Family::truss}, {"B2", Family::beam}, {"B3", Family::beam},
}};

std::string_view by_nodes(Family f, int n) {
  switch (f) {
    case Family::solid:
      switch (n) {
        case 4: return "tetra";
        case 10: return "tetra10";
        case 5: return "pyramid";
        case 6: return "wedge";
        case 15: return "wedge15";
        case 8: return "hexahedron";
        case 20: return "hexahedron20";
        case 27: return "hexahedron27";
        default: return "";
      }
    case Family::planar:
    case Family::shell:
      switch (n) {
        case 3: return "triangle";
        case 6: return "triangle6";
        case 4: return "quad";
        case 8: return "quad8";
        case 9: return "quad9";
        default: return "";
      }
    case Family::continuum_shell:  // SC6R, SC8R: 3-D prisms and bricks
      return n == 6 ? "wedge" : n == 8 ? "hexahedron" : "";
    case Family::truss:
      return n == 2 ? "line" : n == 3 ? "line3" : "";
    case Family::beam:  // B21, B31, B23, B33: 2 nodes (B23/B33 are cubic on 2 nodes); B22, B32: 3
      return n == 1 || n == 3 ? "line" : n == 2 ? "line3" : "";
    case Family::surface_tri:  // STRI3, STRI65 (6 nodes, 5 degrees of freedom)
      return n == 3 ? "triangle" : n == 65 ? "triangle6" : "";
  }
  return "";
}

// Abaqus faces of the linear shapes: corner nodes (0-based) of S1, S2, ...
const std::vector<std::vector<int>>& abaqus_faces(std::string_view linear) {
  static const std::vector<std::vector<int>> none, tetra = {{0, 1, 2}, {0, 3, 1}, {1, 3, 2}, {2, 3, 0}},
                                                   hexahedron = {{0, 1, 2, 3}, {4, 7, 6, 5}, {0, 4, 5, 1}, {1, 5, 6, 2}, {2, 6, 7, 3}, {3, 7, 4, 0}},
                                                   wedge = {{0, 1, 2}, {3, 5, 4}, {0, 3, 4, 1}, {1, 4, 5, 2}, {2, 5, 3, 0}},
                                                   pyramid = {{0, 1, 2, 3}, {0, 4, 1}, {1, 4, 2}, {2, 4, 3}, {3, 4, 0}},
                                                   triangle = {{0, 1}, {1, 2}, {2, 0}}, quad = {{0, 1}, {1, 2}, {2, 3}, {3, 0}};
  if (linear == "tetra") return tetra;
  if (linear == "hexahedron") return hexahedron;
  if (linear == "wedge") return wedge;
  if (linear == "pyramid") return pyramid;
  if (linear == "triangle") return triangle;
  if (linear == "quad") return quad;
  return none;
}

// Our facet with the same corner nodes as Abaqus face `face` (0-based), or -1.
int matching_facet(std::string_view type, int face) {
  const auto info = find_cell_type(type);
  if (!info) return -1;
  const auto& faces = abaqus_faces(info->linear);
  if (face < 0 || face >= static_cast<int>(faces.size())) return -1;
  std::vector<int> want = faces[static_cast<std::size_t>(face)];
  std::sort(want.begin(), want.end());
  const auto& facets = cell_facets(type);
  for (std::size_t i = 0; i < facets.size(); ++i) {
    std::vector<int> have = facets[i];
    std::sort(have.begin(), have.end());
    if (have == want) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace

std::string_view meshio_type(std::string_view name) {
  for (const Prefix& p : kPrefixes) {
    if (name.substr(0, p.prefix.size()) != p.prefix) continue;
    std::string_view rest = name.substr(p.prefix.size());
    int n = 0;
    std::size_t i = 0;
    while (i < rest.size() && i < 3 && rest[i] >= '0' && rest[i] <= '9') n = n * 10 + (rest[i++] - '0');
    if (i == 0) continue;
    // What follows the node count: option letters (R, H, I, M, T, P, S, W, E) and digits
    // ("S4R5", "S8R5": 5 degrees of freedom).
    for (std::size_t j = i; j < rest.size(); ++j)
      if (!((rest[j] >= 'A' && rest[j] <= 'Z') || (rest[j] >= '0' && rest[j] <= '9'))) return "";
    return by_nodes(p.family, n);
  }
  return "";
}

std::string_view abaqus_type(std::string_view type, int dim) {
  // Names both meshio's table and CalculiX know (C3D27: neither has a 27-node brick, Abaqus
  // does); plane-stress names for 2-D points.
  static const std::array<std::pair<std::string_view, std::string_view>, 14> k3 = {{
      {"line", "T3D2"}, {"line3", "B32"}, {"triangle", "S3"}, {"triangle6", "CPE6"}, {"quad", "S4"}, {"quad8", "S8R"},
      {"quad9", "S9R5"}, {"tetra", "C3D4"}, {"tetra10", "C3D10"}, {"hexahedron", "C3D8"}, {"hexahedron20", "C3D20"}, {"hexahedron27", "C3D27"},
      {"wedge", "C3D6"}, {"wedge15", "C3D15"},
  }};
  if (dim == 2) {
    if (type == "line") return "T2D2";
    if (type == "triangle") return "CPS3";
    if (type == "quad") return "CPS4";
  }
  for (const auto& [ours, theirs] : k3)
    if (ours == type) return theirs;
  return "";
}

const int* node_permutation(std::string_view type) {
  static const int line3[3] = {0, 2, 1};
  static const int hexahedron27[27] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 26, 24, 23, 25, 21, 22, 20};
  return type == "line3" ? line3 : type == "hexahedron27" ? hexahedron27 : nullptr;
}

int facet_of_face_label(std::string_view type, std::string_view label) {
  if (label.size() < 2 || (label[0] != 'S' && label[0] != 'E')) return -1;
  int face = 0;
  for (char c : label.substr(1)) {
    if (c < '0' || c > '9' || face > 100) return -1;
    face = face * 10 + (c - '0');
  }
  const auto info = find_cell_type(type);
  if (!info) return -1;
  // E labels name edges, which only 2-D cells have as facets.
  if (label[0] == 'E' && info->dim != 2) return -1;
  return matching_facet(type, face - 1);
}

std::string face_label_of_facet(std::string_view type, int facet) {
  const auto info = find_cell_type(type);
  if (!info) return "";
  const auto n = static_cast<int>(abaqus_faces(info->linear).size());
  for (int f = 0; f < n; ++f)
    if (matching_facet(type, f) == facet) return std::string(1, 'S').append(std::to_string(f + 1));
  return "";
}

}  // namespace meshioplusplus::abaqus
