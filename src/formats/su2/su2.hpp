// meshio++ SU2 native mesh format (.su2): reader (single and multi-zone) and writer.
// Spec: https://su2code.github.io/docs_v7/Mesh-File/
// User documentation: docs/formats/su2.md.
#pragma once

#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

Format su2_format();

}  // namespace meshioplusplus
