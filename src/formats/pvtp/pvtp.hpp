// meshio++ PVTP: VTK's parallel XML PolyData collection (a .pvtp summary naming one .vtp file per
// piece), read and written through the vtp format. Shared logic: formats/vtk_collection/.
// Spec: https://docs.vtk.org/en/latest/design_documents/VTKFileFormats.html (Parallel File Formats)
// User documentation: docs/formats/pvtu.md.
#pragma once

#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

Format pvtp_format();

}  // namespace meshioplusplus
