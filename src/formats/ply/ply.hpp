// meshio++ PLY (Stanford polygon file format, .ply): reader and writer for ASCII,
// binary_little_endian and binary_big_endian. Spec: http://paulbourke.net/dataformats/ply/
#pragma once

#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

Format ply_format();

}  // namespace meshioplusplus
