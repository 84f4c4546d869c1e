// meshio++ binding: cell blocks <-> VTK's in-memory unstructured-grid arrays, through the
// same VTK tables and flat-array code the VTU and legacy VTK writers and readers use
// (src/formats/vtk_common/), so a grid handed to VTK in memory and a file VTK reads hold
// the same cell types and node orders. Used by meshioplusplus.to_vtk / from_vtk.
//
// VTK's model (https://vtk.org/doc/nightly/html/classvtkUnstructuredGrid.html): cell types
// (uint8), offsets (n + 1) and connectivity of equal integer dtype, and for polyhedra a
// face stream (nfaces, n0, ids..., n1, ids...) with per-cell face locations (-1 for other
// cells).
#pragma once

#include <pybind11/pybind11.h>

namespace meshioplusplus::python {

// Registers _core.vtk_cell_type, _core.vtk_cells_from_blocks, _core.vtk_blocks_from_cells.
void register_vtk_arrays(pybind11::module_& m);

}  // namespace meshioplusplus::python
