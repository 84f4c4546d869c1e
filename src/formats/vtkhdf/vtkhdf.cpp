// meshio++ VTKHDF: the format's registration value (reader in vtkhdf_read.cpp, writer in
// vtkhdf_write.cpp, the partition layout and the checks of the decoded arrays in
// vtkhdf_layout.cpp). Spec: https://docs.vtk.org/en/latest/design_documents/VTKFileFormats.html
#include "formats/vtkhdf/vtkhdf.hpp"

#include "formats/vtkhdf/vtkhdf_internal.hpp"

namespace meshioplusplus {

// ".hdf" is what VTK's own VTKHDF test files use; no other format (nor meshio) claims it.
Format vtkhdf_format() {
  return Format{"vtkhdf", {".vtkhdf", ".hdf"}, &vtkhdf::read_vtkhdf, &vtkhdf::write_vtkhdf, /*claims=*/nullptr,
                &vtkhdf::write_vtkhdf_pieces};
}

}  // namespace meshioplusplus
