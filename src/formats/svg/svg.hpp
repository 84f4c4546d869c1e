// meshio++ SVG (.svg, Scalable Vector Graphics): writer only, a flat 2-D drawing of a mesh's
// lines, triangles and quads, as meshio writes it (meshio has no SVG reader either).
// Spec: https://www.w3.org/TR/SVG11/paths.html (the <path> element and its "d" data)
#pragma once

#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

Format svg_format();

}  // namespace meshioplusplus
