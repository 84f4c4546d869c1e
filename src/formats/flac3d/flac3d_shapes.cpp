// meshio++ FLAC3D: zone and face shapes and their node orders.
// Spec: the FLAC3D grid file format (see flac3d.hpp); the orders are meshio's
// (meshio/flac3d/_flac3d.py: flac3d_to_meshio_order, meshio_to_flac3d_order(_2)).
#include "formats/flac3d/flac3d_internal.hpp"

namespace meshioplusplus::flac3d {

namespace {

constexpr int kId3[] = {0, 1, 2};
constexpr int kId4[] = {0, 1, 2, 3};
constexpr int kTetFlipped[] = {0, 2, 1, 3};
constexpr int kPyrToVtk[] = {0, 1, 4, 2, 3};
constexpr int kPyrToFlac[] = {0, 1, 3, 4, 2};
constexpr int kPyrFlipped[] = {0, 3, 1, 4, 2};
constexpr int kWedgeToVtk[] = {0, 1, 3, 2, 4, 5};
constexpr int kWedgeToFlac[] = {0, 1, 3, 2, 4, 5};
constexpr int kWedgeFlipped[] = {0, 2, 3, 1, 5, 4};
constexpr int kHexToVtk[] = {0, 1, 4, 2, 3, 6, 7, 5};
constexpr int kHexToFlac[] = {0, 1, 3, 4, 2, 7, 5, 6};
constexpr int kHexFlipped[] = {0, 3, 1, 4, 2, 5, 7, 6};

constexpr Shape kShapes[] = {
    {"tetra", "T4", 4, true, kId4, kId4, kTetFlipped},
    {"pyramid", "P5", 5, true, kPyrToVtk, kPyrToFlac, kPyrFlipped},
    {"wedge", "W6", 6, true, kWedgeToVtk, kWedgeToFlac, kWedgeFlipped},
    {"hexahedron", "B8", 8, true, kHexToVtk, kHexToFlac, kHexFlipped},
    {"triangle", "T3", 3, false, kId3, kId3, nullptr},
    {"quad", "Q4", 4, false, kId4, kId4, nullptr},
};

}  // namespace

const Shape* shape_of(bool zone, int nodes) {
  if (zone && nodes == 7) nodes = 8;
  for (const Shape& s : kShapes)
    if (s.zone == zone && s.nodes == nodes) return &s;
  return nullptr;
}

const Shape* shape_for(std::string_view type) {
  for (const Shape& s : kShapes)
    if (s.type == type) return &s;
  return nullptr;
}

}  // namespace meshioplusplus::flac3d
