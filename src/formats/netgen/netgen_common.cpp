// meshio++ Netgen: the element types and their node orders (meshio's netgen_to_meshio_type
// and netgen_to_meshio_pmap: the same facts, so the two libraries agree on every array).
// Spec: https://github.com/NGSolve/netgen/blob/master/libsrc/meshing/meshclass.cpp
#include <algorithm>
#include <cctype>

#include "formats/netgen/netgen_internal.hpp"

namespace meshioplusplus::netgen {

namespace {

constexpr int kVertex[] = {0};
constexpr int kLine[] = {0, 1};
constexpr int kTriangle[] = {0, 1, 2};
constexpr int kTriangle6[] = {0, 1, 2, 5, 3, 4};
constexpr int kQuad[] = {0, 1, 2, 3};
constexpr int kQuad8[] = {0, 1, 2, 3, 4, 7, 5, 6};
constexpr int kTetra[] = {0, 2, 1, 3};
constexpr int kTetra10[] = {0, 2, 1, 3, 5, 7, 4, 6, 9, 8};
constexpr int kPyramid[] = {0, 3, 2, 1, 4};
constexpr int kPyramid13[] = {0, 3, 2, 1, 4, 7, 6, 8, 5, 9, 12, 11, 10};
constexpr int kWedge[] = {0, 2, 1, 3, 5, 4};
constexpr int kWedge15[] = {0, 2, 1, 3, 5, 4, 7, 8, 6, 13, 14, 12, 9, 11, 10};
constexpr int kHexahedron[] = {0, 3, 2, 1, 4, 7, 6, 5};
constexpr int kHexahedron20[] = {0, 3, 2, 1, 4, 7, 6, 5, 10, 9, 11, 8, 16, 19, 18, 17, 14, 13, 15, 12};

const ElementType kTypes[] = {
    {0, 1, "vertex", kVertex},         {1, 2, "line", kLine},
    {2, 3, "triangle", kTriangle},     {2, 6, "triangle6", kTriangle6},
    {2, 4, "quad", kQuad},             {2, 8, "quad8", kQuad8},
    {3, 4, "tetra", kTetra},           {3, 5, "pyramid", kPyramid},
    {3, 6, "wedge", kWedge},           {3, 8, "hexahedron", kHexahedron},
    {3, 10, "tetra10", kTetra10},      {3, 13, "pyramid13", kPyramid13},
    {3, 15, "wedge15", kWedge15},      {3, 20, "hexahedron20", kHexahedron20},
};

}  // namespace

const ElementType* element_type(int dim, int nodes) {
  for (const ElementType& t : kTypes)
    if (t.dim == dim && t.nodes == nodes) return &t;
  return nullptr;
}

const ElementType* element_type(std::string_view meshio) {
  for (const ElementType& t : kTypes)
    if (t.meshio == meshio) return &t;
  return nullptr;
}

bool gzipped(const std::string& path) {
  constexpr std::string_view kSuffix = ".vol.gz";
  if (path.size() < kSuffix.size()) return false;
  return std::equal(kSuffix.begin(), kSuffix.end(), path.end() - kSuffix.size(),
                    [](char a, char b) { return a == std::tolower(static_cast<unsigned char>(b)); });
}

}  // namespace meshioplusplus::netgen
