// meshio++ HMF reader: the file's type and version attributes, /domain/grid's Geometry as
// the points, every Topology<k> as cell block k (in the order of k, each block kept, where
// meshio keeps one block per cell type), NodeAttributes as point data and CellAttributes
// split per block as cell data, read with the HDF5 toolkit (core/io/hdf5.hpp). Safe for
// untrusted input: every point index is checked.
// Spec: https://github.com/nschloe/meshio/blob/v5.0.0/src/meshio/hmf/_hmf.py
#include <algorithm>
#include <charconv>

#include "formats/hmf/hmf_internal.hpp"
#include "formats/vtk_common/cell_blocks.hpp"
#include "formats/xdmf/xdmf_internal.hpp"
#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/warnings.hpp"

#include "core/io/hdf5.hpp"

namespace meshioplusplus::hmf {

#ifdef MESHIOPP_HAVE_HDF5
namespace {

namespace h5 = io::hdf5;

using h5::shape_text;

bool is_float(DType d) { return d == DType::float32 || d == DType::float64; }

// The block number of "Topology<k>" (nullopt when the suffix is no number).
std::optional<std::uint64_t> topology_index(const std::string& name) {
  std::uint64_t k = 0;
  const char* first = name.data() + 8;
  const char* last = name.data() + name.size();
  const auto [ptr, ec] = std::from_chars(first, last, k);
  if (ec != std::errc() || ptr != last || first == last) return std::nullopt;
  return k;
}

class Reader {
 public:
  explicit Reader(const std::string& path) : ctx_{"hmf", path, false} {}

  Mesh read() {
    h5::Session session;
    h5::Handle file = open();
    h5::Handle root = h5::open_group(ctx_, file.get(), "/");
    check_attribute(root.get(), "type", kType);
    check_attribute(root.get(), "version", kVersion);
    if (!h5::exists(file.get(), "/domain/grid")) fail("no group /domain/grid: not an HMF file of meshio's layout");
    h5::Handle grid = h5::open_group(ctx_, file.get(), "/domain/grid");

    Mesh mesh;
    const std::string geometry = "/domain/grid/Geometry";
    mesh.points = h5::read_dataset(ctx_, file.get(), geometry, file_bytes_);
    if (mesh.points.ndim() != 2 || mesh.points.dim(1) < 1 || mesh.points.dim(1) > 3)
      fail("dataset " + geometry + ": " + expected_found("shape (points, 1..3)", shape_text(mesh.points.shape())));
    if (!is_float(mesh.points.dtype())) mesh.points = mesh.points.as_dtype(DType::float64);
    {
      h5::Handle g = h5::open_object(ctx_, file.get(), geometry);
      const std::optional<std::string> type = h5::read_string_attribute(ctx_, g.get(), "GeometryType");
      if (type && *type != "X" && *type != "XY" && *type != "XYZ")
        fail("attribute GeometryType of " + geometry + ": " + expected_found("X, XY or XYZ", *type));
    }
    const std::uint64_t num_points = mesh.points.dim(0);

    // Topology<k> in the order of k (names sort "Topology10" before "Topology2").
    std::vector<std::pair<std::uint64_t, std::string>> topologies;
    for (const std::string& name : h5::dataset_names(ctx_, grid.get())) {
      if (name.rfind("Topology", 0) == 0) {
        const std::optional<std::uint64_t> k = topology_index(name);
        if (!k) fail("dataset /domain/grid/" + name + ": expected Topology<block number>");
        topologies.emplace_back(*k, name);
      } else if (name != "Geometry") {
        warn("hmf: dataset /domain/grid/" + name + " skipped: not part of meshio's layout");
      }
    }
    std::sort(topologies.begin(), topologies.end());
    std::vector<std::size_t> starts{0};
    for (const auto& entry : topologies) {
      mesh.cells.push_back(read_topology(file.get(), "/domain/grid/" + entry.second, num_points));
      starts.push_back(starts.back() + mesh.cells.back().size());
    }

    for (const std::string& name : data_names(file.get(), "NodeAttributes", num_points))
      mesh.point_data[name] = h5::read_dataset(ctx_, file.get(), "/domain/grid/NodeAttributes/" + name, file_bytes_);
    for (const std::string& name : data_names(file.get(), "CellAttributes", starts.back()))
      mesh.cell_data[name] =
          vtk::split_rows(h5::read_dataset(ctx_, file.get(), "/domain/grid/CellAttributes/" + name, file_bytes_), starts);
    for (const std::string& name : h5::group_names(ctx_, grid.get()))
      if (name != "NodeAttributes" && name != "CellAttributes")
        warn("hmf: group /domain/grid/" + name + " skipped: not part of meshio's layout");
    return mesh;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { throw read_error("hmf", ctx_.path, what); }

  h5::Handle open() { return h5::open_readable(ctx_, file_bytes_); }


  void check_attribute(hid_t root, const std::string& name, const std::string& expected) const {
    const std::optional<std::string> value = h5::read_string_attribute(ctx_, root, name);
    if (!value) fail("no attribute " + name + " on / (meshio writes " + name + " = \"" + expected + "\"): not an HMF file");
    if (*value != expected) fail("attribute " + name + " of /: " + expected_found(expected, *value));
  }

  CellBlock read_topology(hid_t file, const std::string& path, std::uint64_t num_points) const {
    h5::Handle object = h5::open_object(ctx_, file, path);
    const std::optional<std::string> name = h5::read_string_attribute(ctx_, object.get(), "TopologyType");
    if (!name) fail("dataset " + path + ": no attribute TopologyType");
    const xdmf::Topology* topology = xdmf::topology_named(*name);
    if (!topology) fail("attribute TopologyType of " + path + ": unknown topology '" + *name + "'");
    NDArray conn = h5::read_dataset(ctx_, file, path, file_bytes_);
    if (conn.ndim() != 2) fail("dataset " + path + ": " + expected_found("shape (cells, nodes per cell)", shape_text(conn.shape())));
    if (is_float(conn.dtype())) fail("dataset " + path + ": " + expected_found("integer point indices", "floats"));
    if (conn.dtype() != DType::int64) conn = conn.as_dtype(DType::int64);  // uint64 past int64 turns negative: refused below
    const std::int64_t* v = conn.data<const std::int64_t>();
    const std::size_t n = conn.size();
    std::uint64_t top = 0;  // one branch-free pass: a negative index is a huge unsigned one
    for (std::size_t i = 0; i < n; ++i) top = std::max(top, static_cast<std::uint64_t>(v[i]));
    for (std::size_t i = 0; n && top >= num_points && i < n; ++i)
      if (static_cast<std::uint64_t>(v[i]) >= num_points)
        fail("dataset " + path + ", cell " + std::to_string(i / conn.dim(1)) + ": point index " + std::to_string(v[i]) +
             " out of range (" + std::to_string(num_points) + " points)");
    return CellBlock::rectangular(std::string(topology->meshio), std::move(conn));
  }

  // The datasets of /domain/grid/<group> (when it exists), each checked to have `rows` rows.
  std::vector<std::string> data_names(hid_t file, const std::string& group, std::uint64_t rows) const {
    const std::string path = "/domain/grid/" + group;
    if (!h5::exists(file, path)) return {};
    h5::Handle g = h5::open_group(ctx_, file, path);
    std::vector<std::string> names = h5::dataset_names(ctx_, g.get());
    for (const std::string& n : names) {
      const NDArray::Shape shape = h5::dataset_shape(ctx_, g.get(), n);
      if (shape.empty() || shape[0] != rows)
        fail("dataset " + path + "/" + n + ": " + expected_found(std::to_string(rows) + " rows", shape_text(shape)));
    }
    return names;
  }

  h5::Context ctx_;
  std::size_t file_bytes_ = 0;
};

}  // namespace
#endif

Mesh read_hmf(const std::string& path, const Options& options) {
  OptionReader opts(options, "hmf");
  opts.finish();
#ifdef MESHIOPP_HAVE_HDF5
  return Reader(path).read();
#else
  throw read_error("hmf", path, io::hdf5::kMissing);
#endif
}

}  // namespace meshioplusplus::hmf
