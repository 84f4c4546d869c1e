// meshio++ Netgen: what the registration, the reader and the writer share: the element
// types by dimension and node count, and the node orders.
// Spec: https://github.com/NGSolve/netgen/blob/master/libsrc/meshing/meshclass.cpp
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "meshioplusplus/format.hpp"

namespace meshioplusplus::netgen {

// The cell data holding each element's index (surface: bcnr; volume: matnr; segment:
// surfid; point element: index), meshio's name.
inline constexpr const char* kIndex = "netgen:index";

// An element type: its dimension, node count and meshio's name, and the node order:
// ours[j] = netgen[order[j]] (meshio's netgen_to_meshio_pmap).
struct ElementType {
  int dim;
  int nodes;
  std::string_view meshio;
  std::span<const int> order;
};

// By dimension and node count (nullptr when Netgen has no such element).
const ElementType* element_type(int dim, int nodes);
// By meshio name (nullptr when Netgen cannot hold it).
const ElementType* element_type(std::string_view meshio);

// The name sections of each codimension: materials (of the volume / the cells of the
// mesh's dimension), bcnames, cd2names, cd3names.
inline constexpr std::string_view kCodimSections[] = {"materials", "bcnames", "cd2names", "cd3names"};

bool gzipped(const std::string& path);  // ends with ".vol.gz" (meshio's test)

Mesh read_netgen(const std::string& path, const Options& options);
void write_netgen(const std::string& path, const Mesh& mesh, const Options& options);

}  // namespace meshioplusplus::netgen
