// meshio++ FLAC3D: what the reader, the writer and the shape table share.
// Spec: the FLAC3D grid file format (see flac3d.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "meshioplusplus/format.hpp"

namespace meshioplusplus::flac3d {

Mesh read_flac3d(const std::string& path, const Options& options);
void write_flac3d(const std::string& path, const Mesh& mesh, const Options& options);

// The two magic numbers that open meshio's binary grid file (their meaning is not known).
inline constexpr std::uint32_t kBinaryMagic[2] = {1375135718u, 3u};

// A zone (volume) or face shape: its meshio type, FLAC3D's name, its node count, and the
// node orders (meshio's tables). Reading: VTK node j is FLAC3D node to_vtk[j]. Writing: FLAC3D
// node j is VTK node to_flac[j] for a zone whose first four FLAC3D nodes are right-handed,
// else to_flac_flipped[j] (nullptr for faces, which are never flipped).
struct Shape {
  std::string_view type, name;
  int nodes;
  bool zone;
  const int* to_vtk;
  const int* to_flac;
  const int* to_flac_flipped;
};

// The shape of a zone (zone = true) or face with `nodes` nodes, or nullptr. A 7-node zone
// (B7, a brick with a collapsed corner) is read as a hexahedron with its last node twice.
const Shape* shape_of(bool zone, int nodes);
// The shape a meshio type is written as, or nullptr (FLAC3D holds no such cell).
const Shape* shape_for(std::string_view type);

}  // namespace meshioplusplus::flac3d
