// meshio++ CGNS: declarations shared by the reader, the writer and the element table (see
// cgns.hpp). Spec: the SIDS, https://cgns.github.io/CGNS_docs_current/sids/index.html
// (ElementType_t values: sids/gridflow.html#Elements; node orders: sids/conv.html#unstructgrid),
// and the HDF5 mapping, https://cgns.github.io/CGNS_docs_current/filemap/ : every node is
// an HDF5 group with string attributes "name", "label" (33 bytes) and "type" (3 bytes:
// MT, I4, I8, R4, R8, C1, LK) and an int32 attribute "flags"; its data, when it has some,
// is the group's dataset " data" (C1 strings as int8 arrays; multi-dimensional arrays in
// Fortran order, so their HDF5 dimensions are the SIDS ones reversed). The root group
// carries the same attributes and the datasets " format" and " hdf5version".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "meshioplusplus/format.hpp"
#include "meshioplusplus/mesh.hpp"

namespace meshioplusplus::cgns {

Mesh read_cgns(const std::string& path, const Options& options);
void write_cgns(const std::string& path, const Mesh& mesh, const Options& options);

// --- element types (cgns_elements.cpp): no HDF5 here -----------------------------------
// ElementType_t values the SIDS fixes (only the ones with a meaning here).
enum ElementType : int {
  kMixed = 20,
  kNgon = 22,
  kNface = 23,
};

struct ElementKind {
  int cgns = 0;                   // ElementType_t value
  std::string_view cgns_name;     // "TETRA_10"
  std::string_view meshio;        // "tetra10"
  int nodes = 0;
  std::vector<int> vtk_from_cgns; // ours[i] = the file's node vtk_from_cgns[i]; empty: same order
};

// The fixed-size element type of ElementType_t value `cgns`; nullptr when it is not one we
// map (MIXED, NGON_n, NFACE_n, user-defined and higher orders than the table holds).
const ElementKind* element_kind(std::int64_t cgns);
// The element type of our cell type `meshio`; nullptr when CGNS has none.
const ElementKind* element_kind_of(std::string_view meshio);
// "TETRA_10", or the number when unknown.
std::string element_type_name(std::int64_t cgns);

// Boundary faces (or edges) matched to the facets of the cells of higher dimension: for
// face i (its nodes `face_nodes[face_offsets[i] .. face_offsets[i + 1])`), the (global
// cell, local facet) pairs of the cells of `cells` (blocks, global numbering from
// `first_cell`) whose facet has the same node set; faces no cell owns are listed apart.
struct FacetMatch {
  std::vector<std::int64_t> sides;     // (cell, facet) pairs, flat
  std::vector<std::size_t> face_of;    // for each pair, the face it matched
  std::vector<std::size_t> unmatched;  // indices of faces no cell owns
};
FacetMatch match_facets(const std::vector<CellBlock>& cells, int cell_dim, const std::vector<std::int64_t>& face_offsets,
                        const std::vector<std::int64_t>& face_nodes);

}  // namespace meshioplusplus::cgns
