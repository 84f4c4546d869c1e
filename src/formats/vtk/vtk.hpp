// meshio++ legacy VTK (.vtk): reader (versions 2.0 to 5.1, ASCII and binary) and writer
// (4.2 and 5.1). Spec: https://docs.vtk.org/en/latest/design_documents/VTKFileFormats.html
#pragma once

#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

Format vtk_format();

}  // namespace meshioplusplus
