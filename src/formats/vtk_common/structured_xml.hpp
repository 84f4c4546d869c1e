// meshio++ formats: VTK's three structured XML datasets, StructuredGrid (.vts),
// RectilinearGrid (.vtr) and ImageData (.vti), read into an unstructured mesh and written
// from a mesh that is a logical grid. One implementation for the three; each format
// folder registers it with its kind.
// Spec: https://docs.vtk.org/en/latest/design_documents/VTKFileFormats.html#structuredgrid
//
// Reading gives what VTK's own conversion to vtkUnstructuredGrid (vtkAppendFilter) gives:
//   points   the WholeExtent's points, i fastest, then j, then k: VTS from its Points,
//            VTR (x[i], y[j], z[k]) from its Coordinates, VTI
//            Origin + Direction * (Spacing * (i, j, k)) over the extent's indices
//   cells    one block over the cell extent, i fastest: "hexahedron" when the three axes
//            have more than one point, "quad" for two, "line" for one, "vertex" for a
//            single point; VTK's node order (point (i, j, k) = i + nx * (j + ny * k)):
//              hexahedron (p, p+1, p+1+nx, p+nx, and the same + nx*ny)
//              quad       (p, p+a, p+a+b, p+b) for the strides a < b of the two axes
//              line       (p, p+a)
//   data     PointData / CellData of every Piece placed at its Extent inside the
//            WholeExtent; FieldData as field data.
// An implicit grid (VTR, VTI) holds no per-point bytes, so its size is bounded by the
// file's: at most 2^20 points plus 1032 per byte of the file (the largest zlib expansion:
// a grid whose point data is compressed always fits). Larger is a ReadError.
//
// Writing: the mesh must be structured: its points are a logical nx x ny x nz grid in
// the order above and it has exactly one cell block, of "hexahedron" (3-D), "quad" (2-D)
// or "line" (1-D) cells, equal to the cells generated for that grid. The grid is given
// by the `extent` option (six integers x0 x1 y0 y1 z0 z1) or `dims` (nx ny nz: extent
// from 0), or else detected from the first cell. VTR also needs the points to be
// (x[i], y[j], z[k]), VTI equally spaced along each axis (to 1e-6 of the span; the
// Direction is never written, so axis-aligned). Anything else is a write error.
#pragma once

#include <string>

#include "meshioplusplus/format.hpp"

namespace meshioplusplus::vtk {

enum class GridKind { structured, rectilinear, image };

Mesh read_structured_xml(const std::string& path, const Options& options, GridKind kind);
void write_structured_xml(const std::string& path, const Mesh& mesh, const Options& options, GridKind kind);

}  // namespace meshioplusplus::vtk
