// meshio++ Kratos MDPA: what the reader, the writer and the element-name table share.
// Spec: Kratos "Input data" and "Mesh node ordering" (see mdpa.hpp).
#pragma once

#include <string>
#include <string_view>

#include "meshioplusplus/format.hpp"

namespace meshioplusplus::mdpa {

Mesh read_mdpa(const std::string& path, const Options& options);
void write_mdpa(const std::string& path, const Mesh& mesh, const Options& options);

// The meshio cell type of the rows of "Begin Elements <name>" / "Begin Conditions <name>",
// each row holding `nodes` node labels: meshio's geometry-name table first (a name holding
// "Triangle2D3" is a triangle), then Kratos' naming convention "<...><d>D<n>N" (Element2D3N,
// SurfaceCondition3D4N, LineCondition2D2N, PointCondition3D1N), then meshio's guess from
// the node count alone. Empty when nothing fits, or when the name's geometry has another
// node count.
std::string_view cell_type_of(std::string_view name, std::size_t nodes);

// The geometry name the writer uses for a meshio type (meshio's names, with "2D" replaced
// by "3D" in a mesh with volume cells), or empty when Kratos has none.
std::string kratos_name(std::string_view type, bool three_d);

// Kratos' node order differs from VTK's for hexahedron20 / hexahedron27 (the permutation
// meshio's writer applies): a row's node j is VTK node order[j] (nullptr: the same order).
const int* kratos_order(std::string_view type);

}  // namespace meshioplusplus::mdpa
