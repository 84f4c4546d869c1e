// meshio++ OFF (.off, Geomview's Object File Format): reader and writer, ASCII.
// Spec: http://www.geomview.org/docs/html/OFF.html
#pragma once

#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

Format off_format();

}  // namespace meshioplusplus
