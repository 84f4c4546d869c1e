// meshio++ Abaqus: what the reader, the writer and the type tables share.
#pragma once

#include <string>
#include <string_view>

#include "meshioplusplus/format.hpp"

namespace meshioplusplus::abaqus {

Mesh read_abaqus(const std::string& path, const Options& options);
void write_abaqus(const std::string& path, const Mesh& mesh, const Options& options);

// The meshio cell type of an Abaqus element type name (upper case: "C3D8R" -> "hexahedron"),
// or "" when the name is not a type we map.
std::string_view meshio_type(std::string_view abaqus_type);

// The element type name the writer uses for a meshio cell type (points of dimension
// `dim`), chosen among the names both meshio and CalculiX accept; "" when there is none.
std::string_view abaqus_type(std::string_view meshio_type, int dim);

// Where Abaqus node order differs from VTK's: ours[j] = abaqus[perm[j]] (k entries);
// nullptr when the orders agree. 3-node lines (T3D3, B32: end, middle, end) and the
// 27-node brick (C3D27: the centroid before the face centres).
const int* node_permutation(std::string_view meshio_type);

// Our facet index (cell_types.hpp numbering) of the Abaqus face label ("S1".."S6", "E1"..)
// on a cell of the meshio type, or -1 when that type has no such face.
int facet_of_face_label(std::string_view meshio_type, std::string_view label);
// The Abaqus face label ("S3") of our facet `facet` on the meshio type; "" when none.
std::string face_label_of_facet(std::string_view meshio_type, int facet);

}  // namespace meshioplusplus::abaqus
