// meshio++ VTS (VTK XML StructuredGrid): reader and writer.
// Spec: https://docs.vtk.org/en/latest/design_documents/VTKFileFormats.html (XML formats)
#pragma once

#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

Format vts_format();

}  // namespace meshioplusplus
