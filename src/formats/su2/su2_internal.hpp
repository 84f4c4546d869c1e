// meshio++ SU2: the element type table shared by the reader (su2_read.cpp) and the writer
// (su2_write.cpp). SU2 numbers element types as VTK does and lists nodes in VTK's order.
// Spec: https://su2code.github.io/docs_v7/Mesh-File/
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "meshioplusplus/format.hpp"

namespace meshioplusplus::su2 {

struct ElementType {
  int id;                 // SU2 (VTK) identifier
  std::string_view type;  // meshio cell type
  int nodes;
};

// Sorted by id: meshio orders the blocks of a section by type id.
inline constexpr std::array<ElementType, 7> kTypes{{
    {3, "line", 2}, {5, "triangle", 3}, {9, "quad", 4}, {10, "tetra", 4},
    {12, "hexahedron", 8}, {13, "wedge", 6}, {14, "pyramid", 5},
}};

inline const ElementType* type_by_id(std::uint64_t id) {
  for (const auto& t : kTypes)
    if (static_cast<std::uint64_t>(t.id) == id) return &t;
  return nullptr;
}
inline const ElementType* type_by_name(std::string_view name) {
  for (const auto& t : kTypes)
    if (t.type == name) return &t;
  return nullptr;
}

// Boundary (marker) types of a dimension, as meshio: lines in 2-D, triangles and quads in 3-D.
inline bool is_boundary_type(std::string_view type, std::size_t dim) {
  return dim == 2 ? type == "line" : (type == "triangle" || type == "quad");
}

Mesh read_su2(const std::string& path, const Options& options);
void write_su2(const std::string& path, const Mesh& mesh, const Options& options);

}  // namespace meshioplusplus::su2
