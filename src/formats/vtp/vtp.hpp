// meshio++ VTP (VTK XML PolyData): reader and writer.
// Spec: https://docs.vtk.org/en/latest/design_documents/VTKFileFormats.html (XML formats)
#pragma once

#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

Format vtp_format();

}  // namespace meshioplusplus
