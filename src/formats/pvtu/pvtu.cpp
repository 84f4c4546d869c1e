// meshio++ PVTU: the format's registration value, the shared collection logic
// (formats/vtk_collection/collection.hpp) with the vtu pieces of a PUnstructuredGrid.
// Spec: https://docs.vtk.org/en/latest/design_documents/VTKFileFormats.html (Parallel File Formats)
#include "formats/pvtu/pvtu.hpp"

#include "formats/vtk_collection/collection.hpp"

namespace meshioplusplus {

namespace {
constexpr vtk_collection::Kind kPVTU{"pvtu", "vtu", "UnstructuredGrid", ".vtu"};
}  // namespace

const vtk_collection::Kind& pvtu_kind() { return kPVTU; }

Format pvtu_format() { return vtk_collection::collection_format<kPVTU>(); }

}  // namespace meshioplusplus
