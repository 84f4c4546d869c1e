// meshio++ H5M reader: /tstt/nodes/coordinates as the points, each element group below
// /tstt/elements as a cell block (in file id order, the order of their start_id), its
// connectivity's node file ids made point indices through the nodes' start_id, and dense
// tags as point data (/tstt/nodes/tags) and cell data (/tstt/elements/<group>/tags), read
// with the HDF5 toolkit (core/io/hdf5.hpp). Sets and sparse tags are not read (meshio
// neither). Safe for untrusted input: every id is checked before it is used.
// Spec: https://sigma.mcs.anl.gov/moab/ (MOAB's mhdf library, mhdf/include/mhdf.h)
#include <algorithm>
#include <map>
#include <optional>

#include "formats/h5m/h5m_internal.hpp"
#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/warnings.hpp"

#include "core/io/hdf5.hpp"

namespace meshioplusplus::h5m {

#ifdef MESHIOPP_HAVE_HDF5
namespace {

namespace h5 = io::hdf5;

using h5::shape_text;

bool is_float(DType d) { return d == DType::float32 || d == DType::float64; }

// One element group read: its block, its start_id (where it sits in file id order), its tags.
struct Group {
  std::string name;
  std::int64_t start_id = 0;
  CellBlock block;
  std::map<std::string, NDArray> tags;
};

class Reader {
 public:
  explicit Reader(const std::string& path) : ctx_{"h5m", path, false} {}

  Mesh read() {
    h5::Session session;  // the whole read under the library lock
    h5::Handle file = open();
    if (!h5::exists(file.get(), "tstt")) fail("no group /tstt: not an H5M (MOAB) file");
    h5::Handle tstt = h5::open_group(ctx_, file.get(), "tstt");

    Mesh mesh;
    const std::string coords = "/tstt/nodes/coordinates";
    mesh.points = h5::read_dataset(ctx_, file.get(), coords, file_bytes_);
    if (mesh.points.ndim() != 2 || mesh.points.dim(1) < 1 || mesh.points.dim(1) > 3)
      fail("dataset " + coords + ": " + expected_found("shape (nodes, 1..3)", shape_text(mesh.points.shape())));
    if (!is_float(mesh.points.dtype())) mesh.points = mesh.points.as_dtype(DType::float64);
    const std::uint64_t num_nodes = mesh.points.dim(0);
    // meshio takes node ids from 1 (its "- 1"); MOAB's start_id says where they start.
    const std::int64_t node_start = start_id(file.get(), coords, num_nodes).value_or(1);

    mesh.point_data = tags(file.get(), "/tstt/nodes/tags", num_nodes);

    std::vector<Group> groups;
    if (h5::exists(file.get(), "/tstt/elements")) {
      h5::Handle elements = h5::open_group(ctx_, file.get(), "/tstt/elements");
      for (const std::string& name : h5::group_names(ctx_, elements.get())) {
        Group g;
        if (read_group(file.get(), name, node_start, num_nodes, g)) groups.push_back(std::move(g));
      }
    }
    // File id order: the order the writer gave the groups (their names sort otherwise).
    std::stable_sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) { return a.start_id < b.start_id; });
    for (Group& g : groups) mesh.cells.push_back(std::move(g.block));
    // A tag is cell data when every block read holds it (MOAB may store a tag on some groups).
    if (!groups.empty()) {
      for (const auto& entry : groups[0].tags) {
        const std::string& tag = entry.first;
        std::vector<NDArray> list;
        for (Group& g : groups) {
          auto it = g.tags.find(tag);
          if (it == g.tags.end()) break;
          list.push_back(std::move(it->second));
        }
        if (list.size() == groups.size()) mesh.cell_data[tag] = std::move(list);
        else warn("h5m: tag '" + tag + "' skipped: not stored on every element group read");
      }
      for (std::size_t k = 1; k < groups.size(); ++k)
        for (const auto& entry : groups[k].tags)
          if (!mesh.cell_data.count(entry.first) && !groups[0].tags.count(entry.first))
            warn("h5m: tag '" + entry.first + "' skipped: not stored on every element group read");
    }
    return mesh;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { throw read_error("h5m", ctx_.path, what); }

  h5::Handle open() { return h5::open_readable(ctx_, file_bytes_); }


  // The start_id attribute of dataset `path` (one integer >= 0 whose ids for `count` rows
  // do not overflow), or nullopt when it has none.
  std::optional<std::int64_t> start_id(hid_t file, const std::string& path, std::uint64_t count) const {
    h5::Handle object = h5::open_object(ctx_, file, path);
    const std::optional<NDArray> a = h5::read_attribute(ctx_, object.get(), "start_id");
    if (!a) return std::nullopt;
    if (a->size() != 1 || is_float(a->dtype())) fail("attribute start_id of " + path + ": expected one integer");
    const std::int64_t s = a->value_as_int64(0);
    constexpr std::int64_t kMaxId = std::int64_t(1) << 62;
    if (s < 0 || s > kMaxId || count > static_cast<std::uint64_t>(kMaxId - s))
      fail("attribute start_id of " + path + ": " + expected_found("an id in 0..2^62 - rows", std::to_string(s)));
    return s;
  }

  // The dense tags below group `path` (when it exists): each numeric dataset of `rows` rows
  // (an HDF5 array type adds its dimensions); other tags are skipped with a warning.
  std::map<std::string, NDArray> tags(hid_t file, const std::string& path, std::uint64_t rows) const {
    std::map<std::string, NDArray> out;
    if (!h5::exists(file, path)) return out;
    h5::Handle group = h5::open_group(ctx_, file, path);
    for (const std::string& name : h5::dataset_names(ctx_, group.get())) {
      if (!h5::is_numeric_dataset(ctx_, group.get(), name, /*array_members=*/true)) {
        warn("h5m: tag '" + name + "' of " + path + " skipped: not numbers");
        continue;
      }
      NDArray a = h5::read_array_dataset(ctx_, group.get(), name, file_bytes_);
      if (a.ndim() == 0 || a.dim(0) != rows)
        fail("dataset " + path + "/" + name + ": " +
             expected_found(std::to_string(rows) + " rows (one per entity)", shape_text(a.shape())));
      out[name] = std::move(a);
    }
    return out;
  }

  // Element group `name`: false (with a warning) for a type meshio++ does not read.
  bool read_group(hid_t file, const std::string& name, std::int64_t node_start, std::uint64_t num_nodes, Group& g) const {
    const std::string base = "/tstt/elements/" + name;
    const std::string conn = base + "/connectivity";
    if (h5::exists(file, base + "/poly_indices")) {
      warn("h5m: element group '" + name + "' skipped: polyhedra (poly_indices) are not read");
      return false;
    }
    const NDArray::Shape shape = h5::dataset_shape(ctx_, file, conn);
    if (shape.size() != 2)
      fail("dataset " + conn + ": " + expected_found("shape (elements, nodes per element)", shape_text(shape)));
    const ElementType* type = type_of_group(name, shape[1]);
    if (!type) {
      warn("h5m: element group '" + name + "' skipped: " + std::to_string(shape[0]) + " elements of " +
           std::to_string(shape[1]) + " nodes of a type meshio++ does not read");
      return false;
    }
    NDArray ids = h5::read_dataset(ctx_, file, conn, file_bytes_);
    if (is_float(ids.dtype())) fail("dataset " + conn + ": " + expected_found("integer node ids", "floats"));
    if (ids.dtype() != DType::int64) ids = ids.as_dtype(DType::int64);  // uint64 past int64 turns negative: refused below
    auto* v = ids.data<std::int64_t>();
    const std::size_t k = shape[1];
    // One branch-free pass (the largest id - node_start as unsigned: an id below the first
    // node wraps to a huge value), then a second pass naming the first bad id if any.
    const std::size_t n = ids.size();
    const std::uint64_t start = static_cast<std::uint64_t>(node_start);
    std::uint64_t top = 0;
    for (std::size_t i = 0; i < n; ++i) top = std::max(top, static_cast<std::uint64_t>(v[i]) - start);
    if (n && top >= num_nodes)
      for (std::size_t i = 0; i < n; ++i)
        if (static_cast<std::uint64_t>(v[i]) - start >= num_nodes)
          fail("dataset " + conn + ", element " + std::to_string(i / k) + ": node id " + std::to_string(v[i]) +
               " is no node (the nodes are ids " + std::to_string(node_start) + ".." +
               std::to_string(node_start + static_cast<std::int64_t>(num_nodes)) + " exclusive)");
    for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::int64_t>(static_cast<std::uint64_t>(v[i]) - start);
    g.name = name;
    g.start_id = start_id(file, conn, shape[0]).value_or(0);
    g.block = CellBlock::rectangular(std::string(type->meshio), std::move(ids));
    g.tags = tags(file, base + "/tags", shape[0]);
    return true;
  }

  h5::Context ctx_;
  std::size_t file_bytes_ = 0;
};

}  // namespace
#endif

Mesh read_h5m(const std::string& path, const Options& options) {
  OptionReader opts(options, "h5m");
  opts.finish();
#ifdef MESHIOPP_HAVE_HDF5
  return Reader(path).read();
#else
  throw read_error("h5m", path, io::hdf5::kMissing);
#endif
}

}  // namespace meshioplusplus::h5m
