// meshio++ UGRID (AFLR3 .ugrid, ASCII and binary): the registration value.
// Spec: https://www.simcenter.msstate.edu/software/documentation/ug_io/3d_grid_file_type_ugrid.html
#pragma once

#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

Format ugrid_format();

}  // namespace meshioplusplus
