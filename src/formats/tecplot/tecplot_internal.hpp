// meshio++ Tecplot ASCII: what the registration, the reader and the writer share.
// Spec: https://github.com/su2code/SU2/raw/master/externals/tecio/360_data_format_guide.pdf
#pragma once

#include <string>

#include "meshioplusplus/format.hpp"

namespace meshioplusplus::tecplot {

// meshio's node tables for the cells a degenerate zone element stands for: a wedge,
// pyramid or tetrahedron in an FEBRICK zone and a triangle in an FEQUADRILATERAL zone are
// written with brick (quad) corner j = the cell's node kAs...[j]; the reader maps them back.
inline constexpr int kTriangleAsQuad[4] = {0, 1, 2, 2};
inline constexpr int kTetraAsBrick[8] = {0, 1, 2, 2, 3, 3, 3, 3};
inline constexpr int kPyramidAsBrick[8] = {0, 1, 2, 3, 4, 4, 4, 4};
inline constexpr int kWedgeAsBrick[8] = {0, 1, 4, 3, 2, 2, 5, 5};

Mesh read_tecplot(const std::string& path, const Options& options);
void write_tecplot(const std::string& path, const Mesh& mesh, const Options& options);

}  // namespace meshioplusplus::tecplot
