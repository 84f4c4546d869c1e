// meshio++ TetGen: what the reader and writer share (the file names of one mesh, the data
// names, and TetGen's second-order node order).
// Spec: https://wias-berlin.de/software/tetgen/fformats.html
#pragma once

#include <array>
#include <string>

#include "meshioplusplus/format.hpp"

namespace meshioplusplus::tetgen {

// A mesh is the files <base>.node, <base>.ele, <base>.face and <base>.edge; a read or a
// write names either of the first two. The base, or "" when the name ends in neither.
std::string base_name(const std::string& path);
inline constexpr const char* kBadName = "expected a file name ending in .node or .ele";

// Names as meshio gives them: point attributes tetgen:attr1, attr2, ...; point boundary
// markers and element region attributes tetgen:ref, tetgen:ref2, ...
std::string attr_name(std::size_t k);  // k from 0
std::string ref_name(std::size_t k);   // k from 0

// TetGen's 10-node tetrahedron lists the corners, then the midpoints of the edges 23, 03,
// 01, 12, 13, 02 (measured on tetgen -o2 output); kTetra10ToVtk[j] is the file column of
// VTK's node j (VTK: 01, 12, 02, 03, 13, 23). Its 6-node faces and 3-node edges are in VTK's
// order already.
inline constexpr std::array<int, 10> kTetra10ToVtk{0, 1, 2, 3, 6, 7, 9, 5, 8, 4};

Mesh read_tetgen(const std::string& path, const Options& options);
void write_tetgen(const std::string& path, const Mesh& mesh, const Options& options);

}  // namespace meshioplusplus::tetgen
