// meshio++ VTKHDF: Kitware's HDF5 layout for VTK datasets, version 1.0 UnstructuredGrid as
// VTK 9.1's vtkHDFReader reads it, with partitions. User documentation: docs/formats/vtkhdf.md.
// Spec: https://docs.vtk.org/en/latest/design_documents/VTKFileFormats.html (HDF file formats)
#pragma once

#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

Format vtkhdf_format();

}  // namespace meshioplusplus
