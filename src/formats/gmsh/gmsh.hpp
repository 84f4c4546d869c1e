// meshio++ formats: Gmsh MSH (versions 2.2, 4.0, 4.1; ASCII and binary).
// Spec: https://gmsh.info/doc/texinfo/gmsh.html#MSH-file-format
#pragma once

#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

Format gmsh_format();

}  // namespace meshioplusplus
