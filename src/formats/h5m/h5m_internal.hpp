// meshio++ H5M: declarations shared by the reader, the writer and the type table (see
// h5m.hpp). Spec: MOAB's mhdf library (mhdf/include/mhdf.h, mhdf/src/names-and-paths.h).
// The layout below /tstt:
//   nodes/coordinates (n, dim), attribute start_id: the file id of node 0 (ids are 1-based)
//   nodes/tags/<tag>: a dense tag, one value (or an HDF5 array of k values) per node
//   elements/<Type><nodes>/ (attribute element_type, an enum of MOAB's entity types):
//     connectivity (m, nodes) of node file ids, attribute start_id; tags/<tag> per element
//   tags/<tag>/: the tag's committed datatype `type` and attribute class (2 = dense)
//   sets/ (and its tags/), elemtypes (the committed enum), history, attribute max_id
#pragma once

#include <string>
#include <string_view>

#include "meshioplusplus/format.hpp"
#include "meshioplusplus/mesh.hpp"

namespace meshioplusplus::h5m {

Mesh read_h5m(const std::string& path, const Options& options);
void write_h5m(const std::string& path, const Mesh& mesh, const Options& options);

// --- element types (h5m_types.cpp) ------------------------------------------------------
// MOAB's entity type names, each with its value in MOAB's EntityType enum (the values of
// the file's elemtypes enum), and the meshio cell type of each node count meshio++ reads.
struct ElementType {
  std::string_view moab;    // "Tri": the element group is named "Tri3"
  int nodes;                // nodes per element (0: any, a polygon)
  std::string_view meshio;  // "triangle"
  int moab_type;            // MOAB's EntityType value (MBTRI = 2)
  bool written;             // the writer's types: the linear ones meshio's reader maps
};
// The type an element group holds, from its name's letters ("Tri" of "Tri3", MOAB's naming)
// and its connectivity's columns; nullptr when meshio++ does not read it.
const ElementType* type_of_group(std::string_view group_name, std::size_t nodes);
// The type a meshio cell block is written as; nullptr when H5M (as written here) cannot hold it.
const ElementType* type_for(std::string_view meshio_type);
// The members of the elemtypes enum, as meshio writes it (MOAB's names and values, Edge..Polyhedron).
const std::vector<std::pair<std::string, int>>& elemtypes_enum();

}  // namespace meshioplusplus::h5m
