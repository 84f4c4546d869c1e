// meshio++ AVS-UCD: what the registration, the reader and the writer share.
// Spec: https://lanl.github.io/LaGriT/pages/docs/read_avs.html
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "meshioplusplus/format.hpp"

namespace meshioplusplus::avsucd {

// The per-cell material number of the cell lines, kept as cell data (meshio's name).
inline constexpr const char* kMaterial = "avsucd:material";

// One AVS cell type: its name in the file, meshio's name, and the node order. The file's
// node j is meshio's node to_file[j] (meshio's table; the reverse is from_file: meshio's
// node j is the file's node from_file[j]).
struct CellType {
  std::string_view avs;
  std::string_view meshio;
  std::size_t nodes;
  int to_file[8];
  int from_file[8];
};

inline constexpr CellType kCellTypes[] = {
    {"pt", "vertex", 1, {0}, {0}},
    {"line", "line", 2, {0, 1}, {0, 1}},
    {"tri", "triangle", 3, {0, 1, 2}, {0, 1, 2}},
    {"quad", "quad", 4, {0, 1, 2, 3}, {0, 1, 2, 3}},
    {"tet", "tetra", 4, {0, 1, 3, 2}, {0, 1, 3, 2}},
    {"pyr", "pyramid", 5, {4, 0, 1, 2, 3}, {1, 2, 3, 4, 0}},
    {"prism", "wedge", 6, {3, 4, 5, 0, 1, 2}, {3, 4, 5, 0, 1, 2}},
    {"hex", "hexahedron", 8, {4, 5, 6, 7, 0, 1, 2, 3}, {4, 5, 6, 7, 0, 1, 2, 3}},
};

Mesh read_avsucd(const std::string& path, const Options& options);
void write_avsucd(const std::string& path, const Mesh& mesh, const Options& options);

}  // namespace meshioplusplus::avsucd
