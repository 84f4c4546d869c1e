// meshio++ VTKHDF reader: an UnstructuredGrid of any number of partitions, all of them as
// one mesh (point ids shifted per partition, as VTK's reader appends the pieces) or one
// (`piece=`), read with the HDF5 toolkit (core/io/hdf5.hpp) and mapped to cell blocks by
// VTK's cell table (vtk_common/), as VTU is.
// Spec: https://docs.vtk.org/en/latest/design_documents/VTKFileFormats.html ("HDF file formats")
#include <optional>

#include "formats/vtk_common/cell_blocks.hpp"
#include "formats/vtkhdf/vtkhdf_internal.hpp"
#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/warnings.hpp"

#include "core/io/hdf5.hpp"

namespace meshioplusplus::vtkhdf {

#ifdef MESHIOPP_HAVE_HDF5
namespace {

namespace h5 = io::hdf5;

class Reader {
 public:
  explicit Reader(const std::string& path) : ctx_{"vtkhdf", path, false} {}

  Mesh read(std::optional<std::size_t> piece) {
    h5::Session session;  // the whole read under the library lock
    h5::Handle file = open();
    if (!h5::exists(file.get(), "VTKHDF")) fail("no group /VTKHDF: not a VTKHDF file");
    h5::Handle root = h5::open_group(ctx_, file.get(), "VTKHDF");
    check_version_and_type(root.get());

    const Layout layout = layout_from_counts(dataset(root, "NumberOfPoints"), dataset(root, "NumberOfCells"),
                                             dataset(root, "NumberOfConnectivityIds"), fail_fn());
    const std::size_t parts = layout.size();
    if (piece && *piece >= parts)
      throw std::invalid_argument("vtkhdf: option 'piece': " + std::to_string(*piece) + " asked, the file has " +
                                  std::to_string(parts) + " partition(s) (0.." + std::to_string(parts - 1) + ")");
    const std::size_t first = piece.value_or(0), last = piece ? *piece + 1 : parts;

    expect_rows(root, "Points", layout.point_start[parts], 3);
    expect_rows(root, "Types", layout.cell_start[parts], 0);
    expect_rows(root, "Offsets", layout.offsets_start[parts], 0);
    expect_rows(root, "Connectivity", layout.connectivity_start[parts], 0);

    auto rows = [&](hid_t loc, const std::string& name, const std::vector<std::uint64_t>& start) {
      return h5::read_rows(ctx_, loc, name, start[first], start[last] - start[first], file_bytes_);
    };
    Mesh mesh;
    mesh.points = rows(root.get(), "Points", layout.point_start);
    if (mesh.points.dtype() != DType::float32 && mesh.points.dtype() != DType::float64)
      mesh.points = mesh.points.as_dtype(DType::float64);
    const vtk::FlatCells flat =
        flat_cells(layout, first, last, rows(root.get(), "Offsets", layout.offsets_start),
                   rows(root.get(), "Connectivity", layout.connectivity_start), rows(root.get(), "Types", layout.cell_start),
                   fail_fn());
    const std::size_t num_points = mesh.points.dim(0);
    vtk::BlocksOut blocks = vtk::blocks_from_flat(flat, num_points, fail_fn());
    mesh.cells = std::move(blocks.blocks);
    for (const std::string& note : blocks.skipped) warn(note);

    h5::Handle group;
    for (const std::string& name : data_names(root.get(), "PointData", layout.point_start[parts], group))
      mesh.point_data[name] = rows(group.get(), name, layout.point_start);
    for (const std::string& name : data_names(root.get(), "CellData", layout.cell_start[parts], group))
      mesh.cell_data[name] = vtk::split_rows(rows(group.get(), name, layout.cell_start), blocks);
    if (h5::exists(root.get(), "FieldData")) {
      h5::Handle g = h5::open_group(ctx_, root.get(), "FieldData");
      for (const std::string& name : h5::dataset_names(ctx_, g.get())) {
        if (!h5::is_numeric_dataset(ctx_, g.get(), name)) {
          warn("vtkhdf: field data '" + name + "' skipped: not numbers (strings are not read)");
          continue;
        }
        mesh.field_data[name] = h5::read_dataset(ctx_, g.get(), name, file_bytes_);
      }
    }
    return mesh;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { throw read_error("vtkhdf", ctx_.path, what); }
  FailFn fail_fn() const {
    return [this](const std::string& what) { fail(what); };
  }

  // The file, and its size (what bounds every declared size).
  h5::Handle open() { return h5::open_readable(ctx_, file_bytes_); }

  NDArray dataset(const h5::Handle& root, const std::string& name) const {
    return h5::read_dataset(ctx_, root.get(), name, file_bytes_);
  }

  void check_version_and_type(hid_t root) const {
    const std::optional<NDArray> version = h5::read_attribute(ctx_, root, "Version");
    if (!version) fail("group /VTKHDF: no attribute Version");
    const std::int64_t major = version->size() == 2 ? version->value_as_int64(0) : -1;
    if (version->size() != 2 || (major != 1 && major != 2)) {
      std::string found;
      for (std::size_t i = 0; i < version->size() && i < 4; ++i) found += (i ? ", " : "") + std::to_string(version->value_as_int64(i));
      fail("attribute Version of /VTKHDF: " + expected_found("[1, x] or [2, x]", "[" + found + "]"));
    }
    // VTK 9.1 writes no Type (an ImageData has a WholeExtent attribute); later VTK does.
    const std::optional<std::string> type = h5::read_string_attribute(ctx_, root, "Type");
    const bool image = type ? *type == "ImageData" : h5::read_attribute(ctx_, root, "WholeExtent").has_value();
    if (image) fail("VTKHDF ImageData is not supported (UnstructuredGrid only); convert it with VTK, or read it as .vti");
    if (type && *type != "UnstructuredGrid")
      fail("attribute Type of /VTKHDF: " + expected_found("UnstructuredGrid", *type) + " (only UnstructuredGrid is read)");
  }

  // Dataset `name` below root has `rows` rows (and `columns` columns when not 0).
  void expect_rows(const h5::Handle& root, const std::string& name, std::uint64_t rows, std::size_t columns) const {
    const NDArray::Shape shape = h5::dataset_shape(ctx_, root.get(), name);
    std::string found = "(";
    for (std::size_t i = 0; i < shape.size(); ++i) found += (i ? ", " : "") + std::to_string(shape[i]);
    found += shape.size() == 1 ? ",)" : ")";
    const bool ok = columns ? shape.size() == 2 && shape[0] == rows && shape[1] == columns
                            : shape.size() == 1 && shape[0] == rows;
    if (!ok)
      fail("dataset " + name + ": " +
           expected_found("shape (" + std::to_string(rows) + (columns ? ", " + std::to_string(columns) + ")" : ",)") +
                              " from the partition counts",
                          found));
  }

  // The datasets of group `name` (PointData / CellData) when it exists, each checked to
  // have `rows` rows; opens the group as `group`.
  std::vector<std::string> data_names(hid_t root, const std::string& name, std::uint64_t rows, h5::Handle& group) const {
    group.reset();
    if (!h5::exists(root, name)) return {};
    group = h5::open_group(ctx_, root, name);
    std::vector<std::string> names = h5::dataset_names(ctx_, group.get());
    for (const std::string& n : names) {
      const NDArray::Shape shape = h5::dataset_shape(ctx_, group.get(), n);
      if (shape.empty() || shape[0] != rows || shape.size() > 2)
        fail("dataset " + name + "/" + n + ": " +
             expected_found(std::to_string(rows) + " rows of one or more values (the partitions' total)",
                            std::to_string(shape.empty() ? 0 : shape[0]) + " rows of " + std::to_string(shape.size()) +
                                " dimension(s)"));
    }
    return names;
  }

  h5::Context ctx_;
  std::size_t file_bytes_ = 0;
};

}  // namespace
#endif

Mesh read_vtkhdf(const std::string& path, const Options& options) {
  std::optional<std::size_t> piece;
  OptionReader opts(options, "vtkhdf");
  if (auto it = options.find("piece"); it != options.end()) {
    const long long k = opts.get_int("piece", 0);
    if (k < 0) throw std::invalid_argument("vtkhdf: option 'piece': expected an index >= 0, found " + it->second);
    piece = static_cast<std::size_t>(k);
  }
  opts.finish();
#ifdef MESHIOPP_HAVE_HDF5
  return Reader(path).read(piece);
#else
  throw read_error("vtkhdf", path, io::hdf5::kMissing);
#endif
}

}  // namespace meshioplusplus::vtkhdf
