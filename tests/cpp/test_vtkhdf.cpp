// VTKHDF (src/formats/vtkhdf/): round trips with one and several partitions, the `piece`
// option, the partition layout, and the ReadErrors of bad files (made here with the HDF5
// toolkit: missing datasets, wrong shapes, offsets out of range, point ids past the
// partition's points, wrong Version / Type) naming the dataset and the partition, and
// truncated or byte-corrupted fixtures (a Mesh or a ReadError, never a crash).
// VTK 9.1's vtkHDFReader and h5py-made fixtures are the oracles in tests/python/test_vtkhdf.py.
#include <gtest/gtest.h>

#ifdef MESHIOPP_HAVE_HDF5

#include <filesystem>
#include <functional>

#include "core/io/hdf5.hpp"
#include "formats/vtkhdf/vtkhdf_internal.hpp"
#include "meshioplusplus/mesh_ops.hpp"
#include "test_vtk_common.hpp"

using namespace vtktest;

namespace {

namespace h5 = meshioplusplus::io::hdf5;
namespace vh = meshioplusplus::vtkhdf;
using mpp::DType;

mpp::Mesh shifted(mpp::Mesh m, double dx) {
  NDArray p = m.points.as_dtype(DType::float64).copy();
  for (std::size_t i = 0; i < p.dim(0); ++i) p.data<double>()[i * p.dim(1)] += dx;
  m.points = p;
  return m;
}

// A two-partition file as VTK lays it out (partition 0: 4 points, 2 triangles;
// partition 1: 3 points, 1 triangle), with `edit` applied before the file closes.
std::string hand_made(const std::string& name, const std::function<void(hid_t root, const h5::Context&)>& edit = {},
                      std::vector<std::int64_t> offsets = {0, 3, 6, 0, 3}, std::vector<std::int64_t> conn = {0, 1, 2, 0, 2, 3, 0, 1, 2}) {
  const std::string path = tmp_path(name);
  const h5::Context ctx{"test", path, true};
  h5::Handle file = h5::create_file(ctx, path);
  h5::Handle root = h5::create_group(ctx, file.get(), "VTKHDF");
  h5::write_attribute(ctx, root.get(), "Version", NDArray::from_vector<std::int64_t>({1, 0}));
  auto put = [&](const std::string& n, const NDArray& a) {
    if (!edit || !h5::exists(root.get(), n)) h5::write_dataset(ctx, root.get(), n, a);
  };
  if (edit) edit(root.get(), ctx);
  put("NumberOfPoints", NDArray::from_vector<std::int64_t>({4, 3}));
  put("NumberOfCells", NDArray::from_vector<std::int64_t>({2, 1}));
  put("NumberOfConnectivityIds", NDArray::from_vector<std::int64_t>({6, 3}));
  std::vector<double> pts;
  for (int i = 0; i < 7; ++i) pts.insert(pts.end(), {double(i), double(i % 2), 0.0});
  put("Points", NDArray::from_vector(pts, {7, 3}));
  put("Offsets", NDArray::from_vector(offsets));
  put("Connectivity", NDArray::from_vector(conn));
  put("Types", NDArray::from_vector<std::uint8_t>({5, 5, 5}));
  put("PointData/t", NDArray::from_vector<double>({0, 1, 2, 3, 4, 5, 6}));
  put("CellData/c", NDArray::from_vector<std::int32_t>({7, 8, 9}));
  return path;
}

}  // namespace

TEST(Vtkhdf, OnePartitionRoundTripsEveryLinearAndQuadraticTypeWithData) {
  for (const mpp::Mesh& mesh : {with_data(linear_mix()), with_data(quadratic_mix()), with_data(polygon_mesh())}) {
    const std::string path = tmp_path("vtkhdf_one.vtkhdf");
    mpp::write(path, mesh);
    EXPECT_EQ(compare_meshes(mesh, mpp::read(path, "", {{"ragged", "true"}})), "");  // the blocks as written
  }
}

TEST(Vtkhdf, TheHdfExtensionIsVtkhdfToo) {
  EXPECT_EQ(mpp::deduce_format("x.hdf", false).name, "vtkhdf");
  EXPECT_EQ(mpp::deduce_format("x.vtkhdf", true).name, "vtkhdf");
}

TEST(Vtkhdf, PartitionsAreConcatenatedAndEachReadsAlone) {
  const std::string path = tmp_path("vtkhdf_parts.vtkhdf");
  const mpp::Mesh a = with_data(linear_mix(), false), b = shifted(a, 10.0), c = with_data(tri_mesh(), false);
  mpp::write_pieces(path, {a, b, c});
  EXPECT_EQ(compare_meshes(mpp::concatenate({a, b, c}), mpp::read(path), false), "");
  EXPECT_EQ(compare_meshes(b, mpp::read(path, "", {{"piece", "1"}}), false), "");
  EXPECT_EQ(compare_meshes(c, mpp::read(path, "", {{"piece", "2"}}), false), "");
  EXPECT_THROW(mpp::read(path, "", {{"piece", "3"}}), std::invalid_argument);
  EXPECT_THROW(mpp::read(path, "", {{"piece", "-1"}}), std::invalid_argument);
  // The counts and the per-partition offsets restarting at 0, as VTK lays them out.
  const h5::Context ctx{"test", path, false};
  h5::Handle file = h5::open_file(ctx);
  const std::size_t size = std::filesystem::file_size(path);
  EXPECT_EQ(ints_of(h5::read_dataset(ctx, file.get(), "/VTKHDF/NumberOfCells", size)),
            (std::vector<std::int64_t>{std::int64_t(a.num_cells()), std::int64_t(b.num_cells()), std::int64_t(c.num_cells())}));
  const NDArray offsets = h5::read_dataset(ctx, file.get(), "/VTKHDF/Offsets", size);
  ASSERT_EQ(offsets.size(), a.num_cells() + b.num_cells() + c.num_cells() + 3);
  EXPECT_EQ(offsets.value_as_int64(a.num_cells() + 1), 0);
  EXPECT_EQ(h5::read_string_attribute(ctx, h5::open_group(ctx, file.get(), "VTKHDF").get(), "Type"), "UnstructuredGrid");
}

TEST(Vtkhdf, PartitionsMustHoldTheSameArrays) {
  const mpp::Mesh a = with_data(tri_mesh(), false);
  mpp::Mesh b = a;
  b.point_data.erase("a");
  EXPECT_THROW(mpp::write_pieces(tmp_path("vtkhdf_unlike.vtkhdf"), {a, b}), std::invalid_argument);
  b = a;
  b.point_data["a"] = b.point_data["a"].as_dtype(DType::float32);
  EXPECT_THROW(mpp::write_pieces(tmp_path("vtkhdf_unlike.vtkhdf"), {a, b}), std::invalid_argument);
}

TEST(Vtkhdf, PolyhedraAreAWriteErrorAndTheOldFileStays) {
  const std::string path = tmp_path("vtkhdf_keep.vtkhdf");
  mpp::write(path, tri_mesh());
  const std::string before = slurp(path);
  try {
    mpp::write(path, polyhedron_mesh());
    FAIL() << "no error";
  } catch (const mpp::WriteError& e) {
    EXPECT_NE(std::string(e.what()).find("no face stream"), std::string::npos) << e.what();
  }
  EXPECT_EQ(slurp(path), before);
}

TEST(Vtkhdf, LayoutStartsAreTheSumsOfThePartitionsBefore) {
  const vh::Layout l = vh::make_layout({{4, 2, 6}, {0, 0, 0}, {3, 1, 3}});
  EXPECT_EQ(l.point_start, (std::vector<std::uint64_t>{0, 4, 4, 7}));
  EXPECT_EQ(l.cell_start, (std::vector<std::uint64_t>{0, 2, 2, 3}));
  EXPECT_EQ(l.connectivity_start, (std::vector<std::uint64_t>{0, 6, 6, 9}));
  EXPECT_EQ(l.offsets_start, (std::vector<std::uint64_t>{0, 3, 4, 6}));
}

TEST(Vtkhdf, HandMadeTwoPartitionFileReads) {
  const mpp::Mesh m = mpp::read(hand_made("vtkhdf_hand.vtkhdf"), "vtkhdf");
  ASSERT_EQ(m.cells.size(), 1u);
  EXPECT_EQ(ints_of(m.cells[0].connectivity), (std::vector<std::int64_t>{0, 1, 2, 0, 2, 3, 4, 5, 6}));
  EXPECT_EQ(ints_of(m.cell_data.at("c")[0]), (std::vector<std::int64_t>{7, 8, 9}));
  const mpp::Mesh p1 = mpp::read(tmp_path("vtkhdf_hand.vtkhdf"), "vtkhdf", {{"piece", "1"}});
  EXPECT_EQ(ints_of(p1.cells[0].connectivity), (std::vector<std::int64_t>{0, 1, 2}));
  EXPECT_EQ(doubles_of(p1.point_data.at("t")), (std::vector<double>{4, 5, 6}));
}

TEST(Vtkhdf, BadFilesNameTheDatasetAndThePartition) {
  auto outcome = [](const std::string& name, const std::function<void(hid_t, const h5::Context&)>& edit,
                    std::vector<std::int64_t> off = {0, 3, 6, 0, 3}, std::vector<std::int64_t> conn = {0, 1, 2, 0, 2, 3, 0, 1, 2}) {
    return read_outcome(hand_made(name, edit, off, conn), "vtkhdf");
  };
  // Connectivity id 3 in partition 1 (3 points).
  expect_read_error(outcome("vtkhdf_bad_conn.vtkhdf", {}, {0, 3, 6, 0, 3}, {0, 1, 2, 0, 2, 3, 0, 1, 3}),
                    "dataset Connectivity, partition 1, entry 2: point id 3 out of range");
  // Offsets past NumberOfConnectivityIds, and not starting at 0.
  expect_read_error(outcome("vtkhdf_bad_off.vtkhdf", {}, {0, 3, 7, 0, 3}), "dataset Offsets, partition 0, cell 2");
  expect_read_error(outcome("vtkhdf_bad_off0.vtkhdf", {}, {0, 3, 6, 1, 3}), "dataset Offsets, partition 1: expected 0 first");
  // Wrong shapes.
  expect_read_error(outcome("vtkhdf_bad_pts.vtkhdf", [](hid_t r, const h5::Context& c) {
                      h5::write_dataset(c, r, "Points", NDArray::zeros(DType::float64, {6, 3}));
                    }),
                    "dataset Points", "expected shape (7, 3)");
  expect_read_error(outcome("vtkhdf_bad_counts.vtkhdf", [](hid_t r, const h5::Context& c) {
                      h5::write_dataset(c, r, "NumberOfCells", NDArray::from_vector<std::int64_t>({2, -1}));
                    }),
                    "dataset NumberOfCells, partition 1: invalid count -1");
  expect_read_error(outcome("vtkhdf_bad_pd.vtkhdf", [](hid_t r, const h5::Context& c) {
                      h5::write_dataset(c, r, "PointData/t", NDArray::zeros(DType::float64, {5}));
                    }),
                    "dataset PointData/t", "7 rows");
  // Version and Type.
  expect_read_error(outcome("vtkhdf_bad_version.vtkhdf", [](hid_t r, const h5::Context& c) {
                      H5Adelete(r, "Version");
                      h5::write_attribute(c, r, "Version", NDArray::from_vector<std::int64_t>({3, 0}));
                    }),
                    "attribute Version of /VTKHDF", "[3, 0]");
  expect_read_error(outcome("vtkhdf_image.vtkhdf", [](hid_t r, const h5::Context& c) {
                      h5::write_attribute(c, r, "WholeExtent", NDArray::from_vector<std::int64_t>({0, 1, 0, 1, 0, 1}));
                    }),
                    "ImageData is not supported");
  expect_read_error(outcome("vtkhdf_poly.vtkhdf", [](hid_t r, const h5::Context& c) {
                      h5::write_dataset(c, r, "Types", NDArray::from_vector<std::uint8_t>({5, 5, 42}));
                    }),
                    "dataset Types, partition 1, cell 0: VTK_POLYHEDRON (42)");
  // A missing dataset, and a file with no /VTKHDF group.
  expect_read_error(outcome("vtkhdf_no_types.vtkhdf", [](hid_t r, const h5::Context& c) {
                      h5::create_group(c, r, "Types");  // a group where the dataset should be
                    }),
                    "Types");
  const std::string plain = tmp_path("vtkhdf_plain.vtkhdf");
  { h5::Handle f = h5::create_file({"test", plain, true}, plain); }
  expect_read_error(read_outcome(plain, "vtkhdf"), "no group /VTKHDF");
}

// Whatever the bytes of a real file become, a read gives a Mesh or a ReadError naming the
// file: every 13th prefix of both fixtures, and every byte of the stored values of each
// contiguous dataset of one_partition.vtkhdf set to 0xff and to 0x80 (counts, offsets and
// connectivity that lie, caught by the reader's own checks, not by HDF5's).
TEST(VtkhdfHostile, EveryPrefixIsAMeshOrAReadError) {
  for (const std::string file : {"one_partition.vtkhdf", "two_partitions_chunked.hdf"}) {
    const std::string bytes = slurp(data_path("vtkhdf", file));
    const std::string path = tmp_path("vtkhdf_prefix.vtkhdf");
    std::size_t errors = 0;
    for (std::size_t n = 0; n < bytes.size(); n += 13) {
      spit(path, bytes.substr(0, n));
      const std::string outcome = read_outcome(path, "vtkhdf");
      errors += outcome != "mesh";
      if (outcome != "mesh") {
        EXPECT_NE(outcome.find("vtkhdf_prefix.vtkhdf"), std::string::npos) << outcome;
      }
    }
    EXPECT_GT(errors, 0u) << file;
  }
}

TEST(VtkhdfHostile, LyingStoredValuesAreAMeshOrAReadError) {
  const std::string source = data_path("vtkhdf", "one_partition.vtkhdf");
  const std::string bytes = slurp(source);
  // Where each contiguous dataset's values lie in the file.
  std::vector<std::pair<std::string, std::pair<std::size_t, std::size_t>>> stored;
  {
    const h5::Context ctx{"test", source, false};
    h5::Handle file = h5::open_file(ctx);
    for (const char* name : {"NumberOfPoints", "NumberOfCells", "NumberOfConnectivityIds", "Offsets", "Connectivity", "Types",
                             "Points", "CellData/id"}) {
      const hid_t d = H5Dopen2(file.get(), (std::string("/VTKHDF/") + name).c_str(), H5P_DEFAULT);
      ASSERT_GE(d, 0) << name;
      const haddr_t at = H5Dget_offset(d);
      const hsize_t size = H5Dget_storage_size(d);
      H5Dclose(d);
      ASSERT_NE(at, HADDR_UNDEF) << name << " is not contiguous";
      stored.push_back({name, {std::size_t(at), std::size_t(size)}});
    }
  }
  const std::string path = tmp_path("vtkhdf_lying.vtkhdf");
  for (const auto& [name, range] : stored) {
    std::size_t errors = 0;
    for (std::size_t i = range.first; i < range.first + range.second; ++i) {
      for (const char value : {'\xff', '\x80'}) {
        std::string bad = bytes;
        bad[i] = value;
        spit(path, bad);
        const std::string outcome = read_outcome(path, "vtkhdf");
        errors += outcome != "mesh";
        if (outcome != "mesh") {
          EXPECT_NE(outcome.find("vtkhdf_lying.vtkhdf"), std::string::npos) << outcome;
        }
      }
    }
    // Lying counts, offsets and ids are caught; coordinates and data are values; a type
    // that is no VTK cell type skips its cell with a warning (as meshio does), checked below.
    if (name != "Points" && name != "CellData/id" && name != "Types") {
      EXPECT_GT(errors, 0u) << name;
    }
  }
  const std::size_t cells = mpp::read(source, "vtkhdf").num_cells();
  std::string bad = bytes;
  bad[stored[5].second.first] = '\xff';  // Types of cell 0: 255
  spit(path, bad);
  EXPECT_EQ(mpp::read(path, "vtkhdf").num_cells(), cells - 1);
}

// HDF5 1.10.8 divides by a chunked layout's dimensions when it opens a dataset: a zero there
// (one corrupt byte) was a SIGFPE. Every byte of each chunked dataset's object header in
// two_partitions_chunked.hdf set to 0 gives a Mesh or a ReadError, and some of them the
// ReadError of io::hdf5::check_layouts naming the dataset.
TEST(VtkhdfHostile, ZeroedHeaderBytesOfChunkedDatasetsAreAMeshOrAReadError) {
  const std::string source = data_path("vtkhdf", "two_partitions_chunked.hdf");
  const std::string bytes = slurp(source);
  std::vector<std::pair<std::size_t, std::size_t>> headers;
  {
    const h5::Context ctx{"test", source, false};
    h5::Handle file = h5::open_file(ctx);
    for (const char* name : {"Offsets", "Connectivity", "Types", "Points", "PointData/T", "CellData/id"}) {
      H5O_info_t info;
      ASSERT_GE(H5Oget_info_by_name2(file.get(), (std::string("/VTKHDF/") + name).c_str(), &info, H5O_INFO_BASIC | H5O_INFO_HDR,
                                     H5P_DEFAULT), 0) << name;
      headers.push_back({std::size_t(info.addr), std::size_t(info.hdr.space.total)});
    }
  }
  const std::string path = tmp_path("vtkhdf_zeroed.hdf");
  std::size_t layout_errors = 0;
  for (const auto& [at, size] : headers) {
    for (std::size_t i = at; i < at + size && i < bytes.size(); ++i) {
      std::string bad = bytes;
      bad[i] = '\0';
      spit(path, bad);
      const std::string outcome = read_outcome(path, "vtkhdf");
      if (outcome != "mesh") {
        EXPECT_NE(outcome.find("vtkhdf_zeroed.hdf"), std::string::npos) << outcome;
      }
      layout_errors += outcome.find("chunk dimension of 0") != std::string::npos;
    }
  }
  EXPECT_GT(layout_errors, 0u);
}

#endif  // MESHIOPP_HAVE_HDF5
