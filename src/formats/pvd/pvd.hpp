// meshio++ PVD: ParaView's data collection file, a list of datasets by time step and part:
//
//   <VTKFile type="Collection" version="0.1">
//     <Collection>
//       <DataSet timestep="0.5" part="0" file="run/run_1.vtu"/>   (relative to the .pvd's folder)
//
// Reference: ParaView's PVD format (vtkPVDReader / vtkXMLCollectionReader, as described in
// https://www.paraview.org/Wiki/ParaView/Data_formats#PVD_File_Format) and the VTK XML
// files it names (https://docs.vtk.org/en/latest/design_documents/VTKFileFormats.html).
//
// As a mesh format (mio.read / mio.write): reading gives the mesh of one time step, the
// first by default (option `step=<k>`, the k-th distinct timestep in file order); its parts
// are joined with concatenate() (mesh_ops.hpp), each file read by the format its extension
// names (vtu, pvtu, vtk, ...). A warning says when the file holds more steps. Writing one
// mesh gives "x.pvd" naming "x_0.vtu" beside it at timestep 0 (options go to the vtu
// writer). Time series: meshioplusplus.pvd.TimeSeriesWriter / TimeSeriesReader (Python),
// which list the datasets with read_datasets / write_datasets below. docs/formats/pvd.md.
#pragma once

#include <string>
#include <vector>

#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

Format pvd_format();

namespace pvd {

struct DataSet {
  double timestep = 0.0;  // absent attribute: 0
  int part = 0;           // absent attribute: 0
  std::string file;       // as written in the .pvd (relative to its folder, or absolute)
};

// The <DataSet> entries of a .pvd, in file order (ReadError naming the line otherwise).
std::vector<DataSet> read_datasets(const std::string& path);
// `file` resolved against the .pvd's folder (absolute names kept).
std::string resolve(const std::string& pvd_path, const std::string& file);
// Writes the .pvd listing `datasets`, atomically.
void write_datasets(const std::string& path, const std::vector<DataSet>& datasets);

}  // namespace pvd
}  // namespace meshioplusplus
