// meshio++ H5M writer: meshio's layout (its h5m writer), which MOAB's mhdf reader also
// requires: /tstt with attribute max_id (one past the last file id), nodes/coordinates
// (start_id 1), one element group per cell type named as MOAB names it ("Tri3", attribute
// element_type of the committed enum /tstt/elemtypes) with connectivity of node file ids
// (start_id: the ids continue after the nodes'), dense tags for point data (GLOBAL_ID added
// unless add_global_ids=False) and cell data, each declared in /tstt/tags/<name> (committed
// type, class 2 = dense), empty sets/ and sets/tags/, and a history dataset. The file is
// built in memory and written through an io::AtomicFile.
// Spec: https://sigma.mcs.anl.gov/moab/ (MOAB's mhdf library, mhdf/src/names-and-paths.h)
#include <algorithm>
#include <map>
#include <stdexcept>

#include "core/io/file.hpp"
#include "formats/h5m/h5m_internal.hpp"
#include "formats/vtk_common/cell_blocks.hpp"
#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/version.hpp"
#include "meshioplusplus/warnings.hpp"

#include "core/io/hdf5.hpp"

namespace meshioplusplus::h5m {

namespace {

// One element group: the blocks of one cell type, in the order they come, as one table.
struct Group {
  const ElementType* type = nullptr;
  std::vector<std::size_t> blocks;        // indices into mesh.cells
  NDArray connectivity;                   // (m, nodes) int64 node file ids
  std::map<std::string, NDArray> tags;    // cell data, the group's rows
};

// What /tstt/tags/<name> declares: the tag's dtype and its values' dimensions per entity.
struct TagType {
  DType dtype;
  NDArray::Shape dims;
  bool operator==(const TagType& o) const { return dtype == o.dtype && dims == o.dims; }
};
TagType tag_type(const NDArray& a) { return {a.dtype(), NDArray::Shape(a.shape().begin() + (a.ndim() ? 1 : 0), a.shape().end())}; }

}  // namespace

void write_h5m(const std::string& path, const Mesh& mesh, const Options& options) {
  OptionReader opts(options, "h5m");
  const bool add_global_ids = opts.get_bool("add_global_ids", true);
#ifdef MESHIOPP_HAVE_HDF5
  namespace h5 = io::hdf5;
  h5::DatasetOptions data;
  data.gzip_level = h5::gzip_level("h5m", opts.get_string("compression", "gzip"), opts.get_string("compression_opts", "4"));
  h5::DatasetOptions tag_data = data;
  tag_data.rows_as_arrays = true;  // MOAB's multi-value tags: one HDF5 array per entity
#endif
  opts.finish();
  if (mesh.points.ndim() != 2) throw write_error("h5m", path, "points: expected an (n, dim) array");
  const std::int64_t num_nodes = static_cast<std::int64_t>(mesh.points.dim(0));

  // Element groups, one per type in the order the types first come (MOAB holds one table per type).
  std::vector<Group> groups;
  for (std::size_t b = 0; b < mesh.cells.size(); ++b) {
    const CellBlock& block = mesh.cells[b];
    const ElementType* type = block.ragged ? nullptr : type_for(block.type);
    if (!type) {
      warn("h5m: " + std::to_string(block.size()) + " cells of type '" + block.type + "' skipped: not written to H5M");
      continue;
    }
    auto it = std::find_if(groups.begin(), groups.end(), [type](const Group& g) { return g.type == type; });
    if (it == groups.end()) it = groups.insert(groups.end(), Group{type, {}, {}, {}});
    it->blocks.push_back(b);
  }
  std::map<std::string, TagType> declared;
  auto declare = [&](const std::string& name, const NDArray& a) {
    const TagType t = tag_type(a);
    auto [it, fresh] = declared.emplace(name, t);
    if (!fresh && !(it->second == t))
      throw write_error("h5m", path, "tag '" + name + "': point data and cell data of one name must have one dtype and shape (H5M declares a tag once)");
  };
  std::map<std::string, NDArray> point_tags(mesh.point_data.begin(), mesh.point_data.end());
  // MOAB's GLOBAL_ID is a 32-bit integer tag (meshio writes int64; MOAB refuses a tag of
  // another type than the one it predefines).
  if (add_global_ids && !point_tags.count("GLOBAL_ID")) {
    std::vector<std::int32_t> ids(static_cast<std::size_t>(num_nodes));
    for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<std::int32_t>(i + 1);
    point_tags["GLOBAL_ID"] = NDArray::from_vector(ids);
  }
  for (const auto& [name, a] : point_tags) {
    if (a.ndim() == 0 || a.dim(0) != mesh.points.dim(0))
      throw write_error("h5m", path, "point data '" + name + "': expected one row per point");
    declare(name, a);
  }
  std::int64_t next_id = 1 + num_nodes;  // node ids are 1..n
  for (Group& g : groups) {
    std::vector<NDArray> conn;
    for (std::size_t b : g.blocks) conn.push_back(mesh.cells[b].connectivity.as_dtype(DType::int64));
    g.connectivity = vtk::concat_cell_data("connectivity", conn, "h5m", path).copy();
    auto* v = g.connectivity.data<std::int64_t>();
    for (std::size_t i = 0; i < g.connectivity.size(); ++i) {
      if (v[i] < 0 || v[i] >= num_nodes)
        throw write_error("h5m", path, "cells of type '" + std::string(g.type->meshio) + "': point index " + std::to_string(v[i]) + " out of range");
      v[i] += 1;  // node file ids are 1-based
    }
    for (const auto& [name, list] : mesh.cell_data) {
      std::vector<NDArray> parts;
      for (std::size_t b : g.blocks) parts.push_back(list.at(b));
      g.tags[name] = vtk::concat_cell_data(name, parts, "h5m", path);
      declare(name, g.tags[name]);
    }
  }
  if (!mesh.field_data.empty()) warn("h5m: field data is not written (meshio's H5M writer has none)");
  if (!mesh.regions.empty()) warn("h5m: point and cell sets are not written (meshio's H5M writer has none)");

#ifdef MESHIOPP_HAVE_HDF5
  io::AtomicFile target(path, "h5m");
  const h5::Context ctx{"h5m", path, true};
  {
    h5::Session session;
    h5::FileInMemory file(ctx, h5::array_bytes(mesh));
    h5::Handle tstt = h5::create_group(ctx, file.get(), "tstt");
    h5::Handle nodes = h5::create_group(ctx, tstt.get(), "nodes");
    h5::write_dataset(ctx, nodes.get(), "coordinates", mesh.points, data);
    const std::int64_t one = 1;
    auto put_start_id = [&](hid_t loc, const std::string& name, std::int64_t id) {
      h5::Handle object = h5::open_object(ctx, loc, name);
      h5::write_attribute(ctx, object.get(), "start_id", H5T_STD_I64LE, H5T_NATIVE_INT64, &id);
    };
    put_start_id(nodes.get(), "coordinates", one);

    h5::Handle tags = h5::create_group(ctx, tstt.get(), "tags");
    for (const auto& [name, type] : declared) {
      h5::Handle g = h5::create_group(ctx, tags.get(), name);
      h5::Handle t = h5::numeric_type(ctx, type.dtype, type.dims);
      h5::commit_type(ctx, g.get(), "type", t.get());
      const std::int64_t dense = 2;  // mhdf_DENSE_TYPE
      h5::write_attribute(ctx, g.get(), "class", H5T_STD_I64LE, H5T_NATIVE_INT64, &dense);
    }
    h5::Handle node_tags = h5::create_group(ctx, nodes.get(), "tags");
    for (const auto& [name, a] : point_tags) h5::write_dataset(ctx, node_tags.get(), name, a, tag_data);

    h5::Handle elements = h5::create_group(ctx, tstt.get(), "elements");
    h5::Handle elemtypes = h5::int_enum_type(ctx, elemtypes_enum());
    h5::commit_type(ctx, tstt.get(), "elemtypes", elemtypes.get());
    h5::write_string_dataset(ctx, tstt.get(), "history", {"meshioplusplus.h5m", version()}, data);
    for (const Group& g : groups) {
      const std::string name = std::string(g.type->moab) + std::to_string(g.type->nodes);
      h5::Handle group = h5::create_group(ctx, elements.get(), name);
      const int type_value = g.type->moab_type;
      h5::write_attribute(ctx, group.get(), "element_type", elemtypes.get(), elemtypes.get(), &type_value);  // an enum of native ints
      h5::write_dataset(ctx, group.get(), "connectivity", g.connectivity, data);
      put_start_id(group.get(), "connectivity", next_id);
      next_id += static_cast<std::int64_t>(g.connectivity.dim(0));
      if (!g.tags.empty()) {
        h5::Handle group_tags = h5::create_group(ctx, group.get(), "tags");
        for (const auto& [tag, a] : g.tags) h5::write_dataset(ctx, group_tags.get(), tag, a, tag_data);
      }
    }
    h5::Handle sets = h5::create_group(ctx, tstt.get(), "sets");  // MOAB's reader requires sets/ (empty)
    h5::create_group(ctx, sets.get(), "tags");
    const std::uint64_t max_id = static_cast<std::uint64_t>(next_id);
    h5::write_attribute(ctx, tstt.get(), "max_id", H5T_STD_U64LE, H5T_NATIVE_UINT64, &max_id);
    sets.reset(), elements.reset(), node_tags.reset(), tags.reset(), nodes.reset(), tstt.reset();
    file.write_to(target);
  }
  target.commit();
#else
  (void)add_global_ids;
  throw write_error("h5m", path, io::hdf5::kMissing);
#endif
}

}  // namespace meshioplusplus::h5m
