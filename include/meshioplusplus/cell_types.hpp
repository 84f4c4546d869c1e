// meshio++ core: the cell-type vocabulary (meshio's names, VTK's node order) with node
// counts, topological dimension, and the local facet table of each linear shape, which
// numbers the facets that side regions refer to.
//
// Facets follow VTK's own numbering (vtkTetra/vtkHexahedron/vtkWedge/vtkPyramid face
// arrays, vtkTriangle/vtkQuad edges): https://vtk.org/doc/nightly/html/ (cell classes).
// Higher-order types use the facets of their linear parent (corner nodes come first in
// VTK order, so the same local indices apply). One exception, kept for meshio
// compatibility: the linear wedge is stored in Gmsh's prism order (meshio's convention),
// so its table lists VTK's faces in that node order.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace meshioplusplus {

struct CellTypeInfo {
  std::string_view name;    // meshio's name: "tetra10"
  int num_nodes;            // -1 for polygon / polyhedron (ragged); 0 for VTK_LAGRANGE_*
                            // (rectangular, any node count, one per block)
  int dim;                  // topological dimension 0..3
  std::string_view linear;  // the linear parent's name ("tetra" for "tetra10")
};

// Every known type, in a fixed order.
const std::vector<CellTypeInfo>& cell_types();
// Lookup by meshio name; nullopt when unknown. Accepts meshio's "polyhedron<N>" and
// "polygon<N>" style names as the variable types.
std::optional<CellTypeInfo> find_cell_type(std::string_view name);
// The same, throwing std::invalid_argument that names the type when unknown.
CellTypeInfo cell_type(std::string_view name);

bool is_variable_cell_type(std::string_view name);  // polygon / polyhedron

// Local facets of a cell type (faces of a 3-D cell, edges of a 2-D cell, end points of a
// line; vertex has none): a list of local node-index lists, in VTK's facet numbering.
const std::vector<std::vector<int>>& cell_facets(std::string_view name);

}  // namespace meshioplusplus
