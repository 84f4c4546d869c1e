// meshio++ PVTP: the format's registration value, the shared collection logic
// (formats/vtk_collection/collection.hpp) with the vtp pieces of a PPolyData.
// Spec: https://docs.vtk.org/en/latest/design_documents/VTKFileFormats.html (Parallel File Formats)
#include "formats/pvtp/pvtp.hpp"

#include "formats/vtk_collection/collection.hpp"

namespace meshioplusplus {

namespace {
constexpr vtk_collection::Kind kPVTP{"pvtp", "vtp", "PolyData", ".vtp"};
}  // namespace

Format pvtp_format() { return vtk_collection::collection_format<kPVTP>(); }

}  // namespace meshioplusplus
