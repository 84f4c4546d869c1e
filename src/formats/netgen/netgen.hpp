// meshio++ Netgen (.vol, .vol.gz): reader and writer, plain or gzip-compressed text.
// Spec: https://github.com/NGSolve/netgen/blob/master/libsrc/meshing/meshclass.cpp
// (Mesh::Save / Mesh::Load, the reference of the layout)
#pragma once

#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

Format netgen_format();

}  // namespace meshioplusplus
