// meshio++ AVS-UCD (.avs, AVS's Unstructured Cell Data, ASCII): reader and writer.
// Spec: https://lanl.github.io/LaGriT/pages/docs/read_avs.html
#pragma once

#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

Format avsucd_format();

}  // namespace meshioplusplus
