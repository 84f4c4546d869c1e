// meshio++ HMF writer: meshio 5.0.0's layout (see hmf_internal.hpp), each dataset gzip'ed
// at level 4 unless compression / compression_opts say otherwise (meshio's options), built
// in memory and written through an io::AtomicFile. String attributes are variable-length
// UTF-8, as h5py writes a str, so that meshio (which compares them to str) reads the file.
// Spec: https://github.com/nschloe/meshio/blob/v5.0.0/src/meshio/hmf/_hmf.py
#include <map>

#include "core/io/file.hpp"
#include "formats/hmf/hmf_internal.hpp"
#include "formats/vtk_common/cell_blocks.hpp"
#include "formats/xdmf/xdmf_internal.hpp"
#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/warnings.hpp"

#include "core/io/hdf5.hpp"

namespace meshioplusplus::hmf {

void write_hmf(const std::string& path, const Mesh& mesh, const Options& options) {
  OptionReader opts(options, "hmf");
#ifdef MESHIOPP_HAVE_HDF5
  namespace h5 = io::hdf5;
  h5::DatasetOptions data;
  data.gzip_level = h5::gzip_level("hmf", opts.get_string("compression", "gzip"), opts.get_string("compression_opts", "4"));
#endif
  opts.finish();
  if (mesh.points.ndim() != 2 || mesh.points.dim(1) < 1 || mesh.points.dim(1) > 3)
    throw write_error("hmf", path, "points: expected an (n, 1..3) array");
  // Everything that can fail is checked before the file is made.
  std::vector<const xdmf::Topology*> topologies;
  for (const CellBlock& block : mesh.cells) {
    const xdmf::Topology* t = block.ragged ? nullptr : xdmf::topology_for(block.type);
    if (!t)
      throw write_error("hmf", path, "cells of type '" + block.type + "'" + (block.ragged ? " with rows of different lengths" : "") +
                                         ": HMF holds one (cells, nodes) table per block of an XDMF topology");
    topologies.push_back(t);
  }
  std::map<std::string, NDArray> cell_data;
  for (const auto& [name, list] : mesh.cell_data) cell_data[name] = vtk::concat_cell_data(name, list, "hmf", path);
  if (!mesh.field_data.empty()) warn("hmf: field data is not written (meshio's HMF layout has none)");
  if (!mesh.regions.empty()) warn("hmf: point and cell sets are not written (meshio's HMF layout has none)");

#ifdef MESHIOPP_HAVE_HDF5
  io::AtomicFile target(path, "hmf");
  const h5::Context ctx{"hmf", path, true};
  {
    h5::Session session;
    h5::FileInMemory file(ctx, h5::array_bytes(mesh));
    h5::Handle root = h5::open_group(ctx, file.get(), "/");
    h5::write_vlen_string_attribute(ctx, root.get(), "type", kType);
    h5::write_vlen_string_attribute(ctx, root.get(), "version", kVersion);
    h5::Handle grid = h5::create_group(ctx, file.get(), "domain/grid");
    h5::write_dataset(ctx, grid.get(), "Geometry", mesh.points, data);
    {
      h5::Handle geometry = h5::open_object(ctx, grid.get(), "Geometry");
      h5::write_vlen_string_attribute(ctx, geometry.get(), "GeometryType", std::string_view("XYZ").substr(0, mesh.points.dim(1)));
    }
    for (std::size_t k = 0; k < mesh.cells.size(); ++k) {
      const std::string name = "Topology" + std::to_string(k);
      h5::write_dataset(ctx, grid.get(), name, mesh.cells[k].connectivity, data);
      h5::Handle topology = h5::open_object(ctx, grid.get(), name);
      h5::write_vlen_string_attribute(ctx, topology.get(), "TopologyType", topologies[k]->xdmf);
    }
    h5::Handle node_attributes = h5::create_group(ctx, grid.get(), "NodeAttributes");
    for (const auto& [name, a] : mesh.point_data) h5::write_dataset(ctx, node_attributes.get(), name, a, data);
    h5::Handle cell_attributes = h5::create_group(ctx, grid.get(), "CellAttributes");
    for (const auto& [name, a] : cell_data) h5::write_dataset(ctx, cell_attributes.get(), name, a, data);
    cell_attributes.reset(), node_attributes.reset(), grid.reset(), root.reset();
    file.write_to(target);
  }
  target.commit();
#else
  (void)cell_data;
  throw write_error("hmf", path, io::hdf5::kMissing);
#endif
}

}  // namespace meshioplusplus::hmf
