// meshio++ Medit / Gamma Mesh Format: `.mesh` (ASCII) and `.meshb` (binary, versions 1-4,
// either byte order), reader and writer.
// Spec: https://github.com/LoicMarechal/libMeshb (libMeshb, the format's reference library
// and its documentation), https://www.ljll.fr/frey/publications/RT-0253.pdf (Medit).
// User documentation: docs/formats/medit.md.
#pragma once

#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

Format medit_format();

}  // namespace meshioplusplus
