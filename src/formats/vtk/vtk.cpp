// meshio++ legacy VTK: the format's registration value (reader in vtk_read.cpp, writer in
// vtk_write.cpp). User documentation: docs/formats/vtk.md.
#include "formats/vtk/vtk.hpp"

#include "formats/vtk/vtk_internal.hpp"

namespace meshioplusplus {

Format vtk_format() { return Format{"vtk", {".vtk"}, &vtk::read_vtk, &vtk::write_vtk}; }

}  // namespace meshioplusplus
