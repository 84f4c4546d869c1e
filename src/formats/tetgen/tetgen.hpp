// meshio++ TetGen (.node / .ele, with .face and .edge beside them): the registration value.
// Spec: https://wias-berlin.de/software/tetgen/fformats.html
#pragma once

#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

Format tetgen_format();

}  // namespace meshioplusplus
