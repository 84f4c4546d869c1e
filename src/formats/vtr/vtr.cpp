// meshio++ VTR: VTK XML RectilinearGrid, read into an unstructured mesh and written from a
// structured one by the implementation the three structured XML formats share
// (vtk_common/structured_xml.hpp). User documentation: docs/formats/vtk-xml.md.
// Spec: https://docs.vtk.org/en/latest/design_documents/VTKFileFormats.html (XML formats)
#include "formats/vtr/vtr.hpp"

#include "formats/vtk_common/structured_xml.hpp"

namespace meshioplusplus {

namespace {

Mesh read_vtr(const std::string& path, const Options& options) {
  return vtk::read_structured_xml(path, options, vtk::GridKind::rectilinear);
}

void write_vtr(const std::string& path, const Mesh& mesh, const Options& options) {
  vtk::write_structured_xml(path, mesh, options, vtk::GridKind::rectilinear);
}

}  // namespace

Format vtr_format() { return Format{"vtr", {".vtr"}, &read_vtr, &write_vtr}; }

}  // namespace meshioplusplus
