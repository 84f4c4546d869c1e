// meshio++ Exodus II: declarations shared by the reader and the writer (the element-type
// table with its node permutations and side numbering, and the netCDF entry points).
// Spec: https://sandialabs.github.io/seacas-docs/exodusII-new.pdf (element types and
// side numbering: section "Element Types"; netCDF names: Appendix).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "meshioplusplus/format.hpp"
#include "meshioplusplus/mesh.hpp"

namespace meshioplusplus::exodus {

// One Exodus element type as meshio++ reads and writes it.
struct ElementType {
  std::string_view exodus;       // elem_type attribute ("HEX20"), upper case
  std::string_view meshio;       // meshio++ cell type ("hexahedron20")
  // ours[i] = exodus node of our node i (empty = identity). Exodus orders the mid-edge
  // nodes of hexahedra and quadratic wedges differently from VTK (which meshio++ follows).
  std::vector<int> to_ours;
  // side_to_facet[s-1] = our facet (cell_facets numbering) of Exodus side s; empty when
  // the type has no side set numbering meshio++ can represent (beams, spheres). The edges
  // of a 2-D element in a 3-D file are numbered from 3: callers add that offset.
  std::vector<int> side_to_facet;
};

// The Exodus type of an elem_type attribute (case-insensitive, meshio's aliases included);
// nullptr when unknown.
const ElementType* find_exodus_type(std::string_view elem_type);
// The Exodus type written for a meshio++ cell type; nullptr when Exodus has none.
const ElementType* exodus_type_for(std::string_view meshio_type);

#ifdef MESHIOPP_HAVE_NETCDF
// Throws ReadError when a netCDF classic header (CDF-1/2/5) declares more than its bytes
// hold; other files are left to netCDF-C (exodus_classic_header.cpp).
void check_classic_header(std::string_view bytes, const std::string& path);

Mesh read_exodus(const std::string& path, const Options& options);
void write_exodus(const std::string& path, const Mesh& mesh, const Options& options);
#endif

}  // namespace meshioplusplus::exodus
