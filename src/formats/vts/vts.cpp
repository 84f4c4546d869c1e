// meshio++ VTS: VTK XML StructuredGrid, read into an unstructured mesh and written from a
// structured one by the implementation the three structured XML formats share
// (vtk_common/structured_xml.hpp). User documentation: docs/formats/vtk-xml.md.
// Spec: https://docs.vtk.org/en/latest/design_documents/VTKFileFormats.html (XML formats)
#include "formats/vts/vts.hpp"

#include "formats/vtk_common/structured_xml.hpp"

namespace meshioplusplus {

namespace {

Mesh read_vts(const std::string& path, const Options& options) {
  return vtk::read_structured_xml(path, options, vtk::GridKind::structured);
}

void write_vts(const std::string& path, const Mesh& mesh, const Options& options) {
  vtk::write_structured_xml(path, mesh, options, vtk::GridKind::structured);
}

}  // namespace

Format vts_format() { return Format{"vts", {".vts"}, &read_vts, &write_vts}; }

}  // namespace meshioplusplus
