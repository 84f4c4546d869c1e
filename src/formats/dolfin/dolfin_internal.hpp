// meshio++ DOLFIN XML: what the registration, the reader and the writer share.
// Spec: https://people.sc.fsu.edu/~jburkardt/data/dolfin_xml/dolfin_xml.html
#pragma once

#include <string>
#include <string_view>

#include "meshioplusplus/format.hpp"

namespace meshioplusplus::dolfin {

// DOLFIN's cell types and meshio's names for them; vertices v0 .. v(nodes-1).
struct CellKind {
  std::string_view dolfin;  // "tetrahedron"
  const char* meshio;       // "tetra"
  int nodes;
  int dim;                  // topological dimension (a mesh function's "dim" of its cells)
};
inline constexpr CellKind kCellKinds[] = {
    {"interval", "line", 2, 1},
    {"triangle", "triangle", 3, 2},
    {"tetrahedron", "tetra", 4, 3},
};

// The companion data file of `mesh_path` ("<stem>.xml") for the data `name`:
// "<stem>_<name>.xml" in the same folder (meshio's naming, both ways).
std::string companion_path(const std::string& mesh_path, const std::string& name);

Mesh read_dolfin(const std::string& path, const Options& options);
void write_dolfin(const std::string& path, const Mesh& mesh, const Options& options);

}  // namespace meshioplusplus::dolfin
