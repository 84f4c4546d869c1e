// meshio++ PVTU: VTK's parallel XML UnstructuredGrid collection (a .pvtu summary naming one .vtu file per
// piece), read and written through the vtu format. Shared logic: formats/vtk_collection/.
// Spec: https://docs.vtk.org/en/latest/design_documents/VTKFileFormats.html (Parallel File Formats)
// User documentation: docs/formats/pvtu.md.
#pragma once

#include "formats/vtk_collection/collection.hpp"
#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

Format pvtu_format();
// The collection kind of .pvtu (for the MPI layer, src/mpi/).
const vtk_collection::Kind& pvtu_kind();

}  // namespace meshioplusplus
