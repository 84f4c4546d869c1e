// meshio++ VTU writer: VTK XML UnstructuredGrid, version 1.0. The options, the encodings
// and the file layout are the XML family's (vtk_common/xml_data_write.hpp).
// Spec: https://docs.vtk.org/en/latest/design_documents/VTKFileFormats.html#xml-file-formats
#include "formats/vtk_common/cell_blocks.hpp"
#include "formats/vtk_common/vtk_cells.hpp"
#include "formats/vtk_common/xml_data_write.hpp"
#include "formats/vtu/vtu_internal.hpp"
#include "meshioplusplus/mesh_ops.hpp"

namespace meshioplusplus::vtu {

namespace {

// VTK 9.1 changed the node order of high-order VTK_LAGRANGE_HEXAHEDRON cells and
// converts files whose VTKFile version is below 2.2 from the old order; the tables write
// the current order, so such a file must say 2.2, as VTK's own writer does. Every other
// file says 1.0, which meshio 5 also reads (it refuses 2.2).
const char* file_version(const Mesh& mesh) {
  for (const CellBlock& b : mesh.cells)
    if (vtk::vtk_type_for(b.type).id == vtk::kLagrangeHexahedron && b.nodes_per_cell() > 8) return "2.2";
  return "1.0";
}

}  // namespace

void write_vtu(const std::string& path, const Mesh& input, const Options& options) {
  const Mesh mesh = sets_as_data(input);  // VTU has no sets: meshio writes them as int data
  OptionReader opts(options, "vtu");
  const vtk::XmlWriteOptions o = vtk::XmlWriteOptions::read(opts, "vtu");
  opts.finish();
  vtk::XmlDataWriter w("vtu", path, o);
  w.add_field_data(mesh);
  w.group("Points");
  const NDArray pts = vtk::points_3d(mesh.points);  // VTK wants 3 coordinates
  w.add("Points", pts.ndim() == 2 ? pts : pts.reshaped({pts.dim(0), 3}));
  vtk::FlatOut flat = vtk::flat_from_blocks(mesh.cells, false, "vtu", path);
  w.group("Cells");
  w.add("connectivity", flat.connectivity);
  w.add("offsets", vtk::end_offsets(flat));
  w.add("types", flat.types);
  if (flat.has_polyhedra) {
    w.add("faces", NDArray::from_vector(flat.face_stream));
    w.add("faceoffsets", NDArray::from_vector(flat.face_ends));
  }
  w.group("PointData");
  for (const auto& [name, a] : mesh.point_data) w.add(name, a);
  w.group("CellData");
  for (const auto& [name, list] : mesh.cell_data) w.add(name, vtk::concat_cell_data(name, list, "vtu", path));
  w.write("UnstructuredGrid", file_version(mesh), "",
          " NumberOfPoints=\"" + std::to_string(mesh.num_points()) + "\" NumberOfCells=\"" +
              std::to_string(flat.types.size()) + "\"");
}

}  // namespace meshioplusplus::vtu
