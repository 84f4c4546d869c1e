// meshio++ Wavefront OBJ (.obj): geometry reader and writer.
// Spec: https://paulbourke.net/dataformats/obj/
#pragma once

#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

Format obj_format();

}  // namespace meshioplusplus
