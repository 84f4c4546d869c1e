// meshio++ STL (.stl): reader (ASCII, one or several solids, and binary) and writer (ASCII
// by default, binary=true as meshio). Spec: https://en.wikipedia.org/wiki/STL_(file_format)
// (the format's origin: 3D Systems, "StereoLithography Interface Specification", 1989).
#pragma once

#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

Format stl_format();

}  // namespace meshioplusplus
