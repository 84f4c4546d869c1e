// meshio++ Neuroglancer precomputed mesh (legacy single-resolution fragment, no file name
// extension, as meshio registers it): reader and writer, triangles only.
// Spec: https://github.com/google/neuroglancer/blob/master/src/datasource/precomputed/meshes.md
// (section "Legacy single-resolution mesh format")
#pragma once

#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

Format neuroglancer_format();

}  // namespace meshioplusplus
