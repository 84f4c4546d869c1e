// meshio++ VTP writer: VTK XML PolyData, version 1.0, in every encoding the VTU writer
// has (same options: vtk_common/xml_data_write.hpp).
// Spec: https://docs.vtk.org/en/latest/design_documents/VTKFileFormats.html#polydata
//
// "vertex" blocks go to Verts, "line" blocks to Lines, "triangle", "quad" and "polygon"
// blocks to Polys (no Strips are written). VTK numbers the cells verts, lines, polys, so
// the blocks (and their cell data) are written in that order whatever their order in the
// mesh. Any other cell type (a volume, a quadratic cell) is a write error: PolyData has
// no place for it.
#include "formats/vtk_common/cell_blocks.hpp"
#include "formats/vtk_common/xml_data_write.hpp"
#include "formats/vtp/vtp_internal.hpp"
#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/mesh_ops.hpp"

namespace meshioplusplus::vtp {

namespace {

// 0 verts, 1 lines, 2 polys; -1 when PolyData cannot hold the type.
int kind_of(const std::string& type) {
  if (type == "vertex") return 0;
  if (type == "line") return 1;
  if (type == "triangle" || type == "quad" || type == "polygon") return 2;
  return -1;
}

}  // namespace

void write_vtp(const std::string& path, const Mesh& input, const Options& options) {
  const Mesh mesh = sets_as_data(input);  // as VTU: sets become integer data
  OptionReader opts(options, "vtp");
  const vtk::XmlWriteOptions o = vtk::XmlWriteOptions::read(opts, "vtp");
  opts.finish();
  std::vector<std::size_t> order[3];
  for (std::size_t b = 0; b < mesh.cells.size(); ++b) {
    const int kind = kind_of(mesh.cells[b].type);
    if (kind < 0)
      throw write_error("vtp", path, "PolyData holds vertex, line, triangle, quad and polygon cells; cell block " +
                                         std::to_string(b) + " is '" + mesh.cells[b].type + "' (write it as vtu)");
    order[kind].push_back(b);
  }
  vtk::XmlDataWriter w("vtp", path, o);
  w.add_field_data(mesh);
  w.group("Points");
  const NDArray pts = vtk::points_3d(mesh.points);
  w.add("Points", pts.ndim() == 2 ? pts : pts.reshaped({pts.dim(0), 3}));
  static const char* const kTags[3] = {"Verts", "Lines", "Polys"};
  std::size_t counts[3] = {0, 0, 0};
  for (int k = 0; k < 3; ++k) {
    std::vector<CellBlock> blocks;
    for (std::size_t b : order[k]) blocks.push_back(mesh.cells[b]);
    vtk::FlatOut flat = vtk::flat_from_blocks(blocks, false, "vtp", path);
    counts[k] = flat.types.size();
    if (counts[k] == 0) continue;
    w.group(kTags[k]);
    w.add("connectivity", flat.connectivity);
    w.add("offsets", vtk::end_offsets(flat));
  }
  w.group("PointData");
  for (const auto& [name, a] : mesh.point_data) w.add(name, a);
  w.group("CellData");
  for (const auto& [name, list] : mesh.cell_data) {
    std::vector<NDArray> in_vtk_order;
    for (const auto& kind : order)
      for (std::size_t b : kind) in_vtk_order.push_back(list.at(b));
    w.add(name, vtk::concat_cell_data(name, in_vtk_order, "vtp", path));
  }
  w.write("PolyData", "1.0", "",
          " NumberOfPoints=\"" + std::to_string(mesh.num_points()) + "\" NumberOfVerts=\"" + std::to_string(counts[0]) +
              "\" NumberOfLines=\"" + std::to_string(counts[1]) + "\" NumberOfStrips=\"0\" NumberOfPolys=\"" +
              std::to_string(counts[2]) + "\"");
}

}  // namespace meshioplusplus::vtp
