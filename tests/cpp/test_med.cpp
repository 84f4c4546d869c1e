// MED (src/formats/med/): round trips of every cell type meshio maps with point/cell data
// and regions (as families and groups), the libmed-written fixture (two meshes, families,
// fields at two steps; options mesh= and step=), deterministic bytes, the WriteErrors of what
// MED cannot hold (old file untouched), ReadErrors of bad files naming the dataset, and
// truncated or corrupted fixtures (a Mesh or a ReadError, never a crash).
// meshio, h5py, mdump and medconforme are the oracles in tests/python/test_med.py.
#include <gtest/gtest.h>

#ifdef MESHIOPP_HAVE_HDF5

#include <functional>

#include "core/io/hdf5.hpp"
#include "test_vtk_common.hpp"

using namespace vtktest;

namespace {

namespace h5 = meshioplusplus::io::hdf5;
using mpp::DType;

// One block of each type meshio maps to MED, with data and point/cell regions.
mpp::Mesh every_type() {
  mpp::Mesh m;
  m.points = grid_points();
  for (auto [t, k] : std::vector<std::pair<std::string, std::size_t>>{
           {"vertex", 1}, {"line", 2}, {"line3", 3}, {"triangle", 3}, {"triangle6", 6}, {"quad", 4}, {"quad8", 8},
           {"tetra", 4}, {"tetra10", 10}, {"hexahedron", 8}, {"hexahedron20", 20}, {"pyramid", 5}, {"pyramid13", 13},
           {"wedge", 6}, {"wedge15", 15}})
    m.cells.push_back(rect(t, k, 2, static_cast<std::int64_t>(k)));
  m = with_data(m, false);
  auto region = [&](const std::string& name, mpp::RegionKind kind, std::vector<std::int64_t> e) {
    mpp::Region r;
    r.name = name, r.kind = kind, r.entries = NDArray::from_vector(e);
    m.regions.push_back(r);
  };
  region("inlet", mpp::RegionKind::point, {0, 1, 2, 5});
  region("wall", mpp::RegionKind::point, {2, 3, 26});
  region("fluid", mpp::RegionKind::cell, {0, 3, 4, 29});
  region("hot side", mpp::RegionKind::cell, {4, 5});
  return m;
}

// `path` with `edit` applied (the file opened for writing with HDF5).
void edit_file(const std::string& path, const std::function<void(hid_t file, const h5::Context& ctx)>& edit) {
  h5::Session session;
  const h5::Context ctx{"test", path, true};
  h5::Handle file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose);
  ASSERT_TRUE(file);
  edit(file.get(), ctx);
}

// Dataset `path` replaced by `values`, with attribute NBR = `nbr` when not negative.
void replace_dataset(hid_t file, const h5::Context& ctx, const std::string& path, const NDArray& values, std::int64_t nbr = -1,
                     const h5::DatasetOptions& options = {}) {
  ASSERT_GE(H5Ldelete(file, path.c_str(), H5P_DEFAULT), 0) << path;
  const std::size_t slash = path.rfind('/');
  h5::Handle parent = h5::open_group(ctx, file, path.substr(0, slash));
  h5::write_dataset(ctx, parent.get(), path.substr(slash + 1), values, options);
  if (nbr < 0) return;
  h5::Handle ds(H5Dopen2(file, path.c_str(), H5P_DEFAULT), H5Dclose);
  h5::write_attribute(ctx, ds.get(), "NBR", NDArray::from_vector<std::int64_t>({nbr}));
}

const std::string kStep = "/ENS_MAA/mesh/-0000000000000000001-0000000000000000001";

}  // namespace

TEST(Med, EveryMeshioTypeRoundTripsWithDataAndRegions) {
  const mpp::Mesh mesh = every_type();
  const std::string path = tmp_path("med_every.med");
  mpp::write(path, mesh);
  const mpp::Mesh got = mpp::read(path);
  EXPECT_EQ(compare_arrays("points", mesh.points, got.points), "");
  ASSERT_EQ(got.cells.size(), mesh.cells.size());
  // MAI's groups come back in MED-name order (as meshio reads them): match by type.
  for (const mpp::CellBlock& b : mesh.cells) {
    const auto it = std::find_if(got.cells.begin(), got.cells.end(), [&](const mpp::CellBlock& g) { return g.type == b.type; });
    ASSERT_NE(it, got.cells.end()) << b.type;
    EXPECT_EQ(compare_arrays(b.type, b.connectivity, it->connectivity), "");
  }
  // Point data come back as float64 (MED's TYP 6), values equal.
  for (const auto& [name, a] : mesh.point_data) EXPECT_EQ(compare_arrays(name, a, got.point_data.at(name), false), "");
  // Regions: the same entries, cell indices following the blocks' new order.
  const mpp::Region* inlet = region(got, "inlet", mpp::RegionKind::point);
  ASSERT_NE(inlet, nullptr);
  EXPECT_EQ(ints_of(inlet->entries), (std::vector<std::int64_t>{0, 1, 2, 5}));
  EXPECT_EQ(ints_of(region(got, "wall", mpp::RegionKind::point)->entries), (std::vector<std::int64_t>{2, 3, 26}));
  // point_tags: node 2 is in both groups (one family), 0, 1, 5 in inlet only, others none.
  const std::vector<std::int64_t> tags = ints_of(got.point_data.at("point_tags"));
  EXPECT_EQ(tags[0], tags[1]);
  EXPECT_NE(tags[0], tags[2]);
  EXPECT_EQ(tags[4], 0);
  EXPECT_GT(tags[2], 0);
  const std::vector<std::int64_t> bases = mpp::block_bases(got.cells);
  auto global = [&](const std::string& type, std::int64_t i) {
    for (std::size_t b = 0; b < got.cells.size(); ++b)
      if (got.cells[b].type == type) return bases[b] + i;
    return std::int64_t(-1);
  };
  // Written cells 0, 3, 4, 29 (blocks of 2 cells): vertex 0, line 1, line3 0, wedge15 1.
  std::vector<std::int64_t> fluid{global("vertex", 0), global("line", 1), global("line3", 0), global("wedge15", 1)};
  std::sort(fluid.begin(), fluid.end());
  EXPECT_EQ(ints_of(region(got, "fluid", mpp::RegionKind::cell)->entries), fluid);
  // Cell data follow the blocks.
  for (std::size_t b = 0; b < mesh.cells.size(); ++b) {
    const auto it = std::find_if(got.cells.begin(), got.cells.end(), [&](const mpp::CellBlock& g) { return g.type == mesh.cells[b].type; });
    const std::size_t gb = static_cast<std::size_t>(it - got.cells.begin());
    EXPECT_EQ(compare_arrays("cd", mesh.cell_data.at("cd")[b], got.cell_data.at("cd")[gb], false), "");
    EXPECT_EQ(compare_arrays("cd2", mesh.cell_data.at("cd2")[b], got.cell_data.at("cd2")[gb], false), "");
    EXPECT_LT(ints_of(got.cell_data.at("cell_tags")[gb])[0], 1);  // cell families are <= 0
  }
  got.validate();
}

// Column-major arrays larger than a transposition tile, and larger than caches, round trip.
TEST(Med, LargeArraysRoundTripThroughTheColumnMajorLayout) {
  const std::size_t n = 70001;
  mpp::Mesh mesh;
  mesh.points = NDArray::uninit(DType::float64, {n, 3});
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t d = 0; d < 3; ++d) mesh.points.data<double>()[i * 3 + d] = static_cast<double>(i) * 0.5 + static_cast<double>(d);
  NDArray tri = NDArray::uninit(DType::int64, {n - 2, 3});
  for (std::size_t i = 0; i + 2 < n; ++i)
    for (std::size_t k = 0; k < 3; ++k) tri.data<std::int64_t>()[i * 3 + k] = static_cast<std::int64_t>((i + (k * 7919)) % n);
  mesh.cells.push_back(mpp::CellBlock::rectangular("triangle", tri));
  // Widths the reader's transpose unrolls (4) and the one it does not (20), over several
  // of its per-thread ranges (65536 rows each at least).
  for (const auto& [type, k, m] : {std::tuple<const char*, std::size_t, std::size_t>{"tetra", 4, 140003},
                                   {"hexahedron20", 20, 70001}}) {
    NDArray conn = NDArray::uninit(DType::int64, {m, k});
    for (std::size_t i = 0; i < m * k; ++i) conn.data<std::int64_t>()[i] = static_cast<std::int64_t>((i * 104729) % n);
    mesh.cells.push_back(mpp::CellBlock::rectangular(type, conn));
  }
  const std::string path = tmp_path("med_large.med");
  mpp::write(path, mesh);
  for (const char* threads : {"1", "2", "3", "8"}) {
    const mpp::Mesh got = mpp::read(path, "", {{"threads", threads}});
    EXPECT_EQ(compare_arrays("points", mesh.points, got.points), "") << threads << " threads";
    ASSERT_EQ(got.cells.size(), mesh.cells.size());
    for (const mpp::CellBlock& want : mesh.cells) {  // blocks come back in MED's type-name order
      const auto it = std::find_if(got.cells.begin(), got.cells.end(), [&](const mpp::CellBlock& b) { return b.type == want.type; });
      ASSERT_NE(it, got.cells.end()) << want.type;
      EXPECT_EQ(compare_arrays(want.type, want.connectivity, it->connectivity), "") << threads << " threads";
    }
  }
  // The tetrahedra's NOD rewritten as int32 (HDF5 widens each piece) and as gzip-chunked
  // int64 (read whole, then transposed), with and without node numbers out of range in two
  // far-apart tetrahedra: the same cells, or an error naming the lower bad cell whichever
  // thread meets which first.
  const NDArray& tetra = mesh.cells[1].connectivity;
  const std::size_t m = tetra.dim(0);
  for (const bool compressed : {false, true})
    for (const bool broken : {false, true}) {
      const std::string copy = tmp_path("med_large_copy.med");
      spit(copy, slurp(path));
      edit_file(copy, [&](hid_t f, const h5::Context& c) {
        NDArray columns = NDArray::uninit(compressed ? DType::int64 : DType::int32, {tetra.size()});
        visit_dtype(columns.dtype(), [&](auto tag) {
          using T = decltype(tag);
          for (std::size_t i = 0; i < m; ++i)
            for (std::size_t j = 0; j < 4; ++j)
              columns.data<T>()[j * m + i] = static_cast<T>(tetra.data<const std::int64_t>()[i * 4 + j] + 1);
          if (broken) {
            columns.data<T>()[2 * m + 130000] = static_cast<T>(n + 6);
            columns.data<T>()[1 * m + 70000] = 0;
          }
        });
        replace_dataset(f, c, kStep + "/MAI/TE4/NOD", columns, static_cast<std::int64_t>(m),
                        compressed ? h5::DatasetOptions{4, true, 1 << 16} : h5::DatasetOptions{});
      });
      for (const char* threads : {"1", "2", "8"}) {
        const std::string why = std::string(threads) + " threads, compressed " + (compressed ? "yes" : "no");
        if (broken) {
          expect_read_error(read_outcome(copy, "med", {{"threads", threads}}),
                            kStep + "/MAI/TE4/NOD, cell 70000: node 0 out of range");
          continue;
        }
        const mpp::Mesh got = mpp::read(copy, "med", {{"threads", threads}});
        const auto it = std::find_if(got.cells.begin(), got.cells.end(), [](const mpp::CellBlock& b) { return b.type == "tetra"; });
        ASSERT_NE(it, got.cells.end()) << why;
        EXPECT_EQ(compare_arrays("tetra", tetra, it->connectivity), "") << why;
      }
    }
}

TEST(Med, WritesAreDeterministicAndMeshNameIsAnOption) {
  const mpp::Mesh mesh = every_type();
  const std::string a = tmp_path("med_a.med"), b = tmp_path("med_b.med");
  mpp::write(a, mesh, "", {{"mesh", "Maillage_1"}});
  mpp::write(b, mesh, "", {{"mesh", "Maillage_1"}});
  EXPECT_EQ(slurp(a), slurp(b));
  EXPECT_EQ(mpp::read(a, "", {{"mesh", "Maillage_1"}}).cells.size(), mesh.cells.size());
  EXPECT_THROW(mpp::write(a, mesh, "", {{"mesh", std::string(65, 'x')}}), std::invalid_argument);
}

TEST(Med, LibmedFileReadsItsFirstMeshFamiliesAndEveryStep) {
  const std::string path = data_path("med", "libmed_two_meshes.med");
  const mpp::Mesh m = mpp::read(path);
  EXPECT_TRUE(has_warning(m, "2 meshes", "'plate'"));
  EXPECT_EQ(points_of(m), (std::vector<double>{0, 0, 1, 0, 2, 0, 0, 1, 1, 1, 2, 1}));
  ASSERT_EQ(m.cells.size(), 2u);  // QU4, TR3: name order, as meshio
  EXPECT_EQ(m.cells[0].type, "quad");
  EXPECT_EQ(ints_of(m.cells[0].connectivity), (std::vector<std::int64_t>{1, 2, 5, 4}));
  EXPECT_EQ(m.cells[1].type, "triangle");
  EXPECT_EQ(ints_of(m.cells[1].connectivity), (std::vector<std::int64_t>{0, 1, 4, 0, 4, 3}));
  EXPECT_EQ(ints_of(m.point_data.at("point_tags")), (std::vector<std::int64_t>{1, 0, 2, 1, 0, 2}));
  EXPECT_EQ(ints_of(m.cell_data.at("cell_tags")[0]), (std::vector<std::int64_t>{-2}));
  EXPECT_EQ(ints_of(m.cell_data.at("cell_tags")[1]), (std::vector<std::int64_t>{-1, -1}));
  EXPECT_EQ(ints_of(region(m, "left", mpp::RegionKind::point)->entries), (std::vector<std::int64_t>{0, 3}));
  EXPECT_EQ(ints_of(region(m, "corner", mpp::RegionKind::point)->entries), (std::vector<std::int64_t>{2, 5}));
  EXPECT_EQ(ints_of(region(m, "right", mpp::RegionKind::point)->entries), (std::vector<std::int64_t>{2, 5}));
  EXPECT_EQ(ints_of(region(m, "right", mpp::RegionKind::cell)->entries), (std::vector<std::int64_t>{0}));
  EXPECT_EQ(ints_of(region(m, "tris", mpp::RegionKind::cell)->entries), (std::vector<std::int64_t>{1, 2}));
  EXPECT_EQ(ints_of(region(m, "quads", mpp::RegionKind::cell)->entries), (std::vector<std::int64_t>{0}));
  // meshio's names for a field of several steps: "<name>[<i>] - <time>".
  EXPECT_EQ(doubles_of(m.point_data.at("disp[0] - 0")), (std::vector<double>{0, 0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5}));
  EXPECT_EQ(m.point_data.at("disp[1] - 0.5").shape(), (NDArray::Shape{6, 2}));
  EXPECT_EQ(doubles_of(m.point_data.at("disp[1] - 0.5"))[2], 11.0);
  EXPECT_EQ(doubles_of(m.cell_data.at("pressure[0] - 0")[0]), (std::vector<double>{3}));
  EXPECT_EQ(doubles_of(m.cell_data.at("pressure[0] - 0")[1]), (std::vector<double>{1, 2}));
  EXPECT_EQ(doubles_of(m.cell_data.at("pressure[1] - 0.5")[1]), (std::vector<double>{2, 3}));
  EXPECT_EQ(doubles_of(m.field_data.at("med:time:disp")), (std::vector<double>{0, 0.5}));
  EXPECT_EQ(m.point_data.count("temperature"), 0u);  // solid's field
  m.validate();
}

TEST(Med, StepAndMeshOptionsPickOneStepAndOneMesh) {
  const std::string path = data_path("med", "libmed_two_meshes.med");
  const mpp::Mesh last = mpp::read(path, "", {{"step", "-1"}});
  EXPECT_EQ(doubles_of(last.point_data.at("disp"))[2], 11.0);
  EXPECT_EQ(doubles_of(last.cell_data.at("pressure")[1]), (std::vector<double>{2, 3}));
  EXPECT_EQ(doubles_of(mpp::read(path, "", {{"step", "0"}}).point_data.at("disp"))[2], 1.0);
  EXPECT_TRUE(has_warning(mpp::read(path, "", {{"step", "2"}}), "field 'disp' skipped"));
  const mpp::Mesh solid = mpp::read(path, "", {{"mesh", "solid"}});
  ASSERT_EQ(solid.cells.size(), 1u);
  EXPECT_EQ(solid.cells[0].type, "tetra");
  EXPECT_EQ(solid.points.dim(1), 3u);
  EXPECT_EQ(doubles_of(solid.point_data.at("temperature")), (std::vector<double>{100, 200, 300, 400}));
  EXPECT_EQ(solid.point_data.count("disp[0] - 0"), 0u);
  expect_read_error(read_outcome(path, "med", {{"mesh", "nope"}}), "option mesh='nope': no such mesh", "'plate', 'solid'");
  EXPECT_THROW(mpp::read(path, "", {{"stepp", "1"}}), std::invalid_argument);
}

TEST(Med, WhatMedCannotHoldIsAWriteErrorAndTheOldFileStays) {
  const std::string path = tmp_path("med_refused.med");
  spit(path, "old");
  EXPECT_THROW(mpp::write(path, linear_mix()), mpp::WriteError);  // two triangle blocks
  EXPECT_THROW(mpp::write(path, polygon_mesh()), mpp::WriteError);
  mpp::Mesh q = tri_mesh();
  q.cells[0] = rect("quad9", 9, 1);
  EXPECT_THROW(mpp::write(path, q), mpp::WriteError);
  mpp::Mesh gauss = tri_mesh();
  gauss.cell_data["g"] = {NDArray::zeros(DType::float64, {4, 5, 2})};  // 5 values per triangle: Gauss points
  EXPECT_THROW(mpp::write(path, gauss), mpp::WriteError);
  EXPECT_EQ(slurp(path), "old");
}

TEST(Med, BadFilesNameTheDataset) {
  const std::string good = tmp_path("med_good.med");
  mpp::write(good, with_data(tri_mesh(), false));
  const std::string bytes = slurp(good);
  const std::string path = tmp_path("med_bad.med");
  auto outcome_after = [&](const std::function<void(hid_t, const h5::Context&)>& edit) {
    spit(path, bytes);
    edit_file(path, edit);
    return read_outcome(path, "med");
  };
  expect_read_error(outcome_after([](hid_t f, const h5::Context& c) {
                      replace_dataset(f, c, kStep + "/MAI/TR3/NOD", NDArray::from_vector<std::int64_t>({1, 2, 3}), 4);
                    }),
                    kStep + "/MAI/TR3/NOD", "expected 12 values");
  expect_read_error(outcome_after([](hid_t f, const h5::Context& c) {
                      replace_dataset(f, c, kStep + "/MAI/TR3/NOD",
                                      NDArray::from_vector<std::int64_t>({1, 2, 3, 99, 1, 2, 3, 4, 1, 2, 3, 4}), 4);
                    }),
                    kStep + "/MAI/TR3/NOD, cell 3: node 99 out of range");
  expect_read_error(outcome_after([](hid_t f, const h5::Context& c) {
                      replace_dataset(f, c, kStep + "/NOE/COO", NDArray::from_vector<double>({1, 2}), 27);
                    }),
                    kStep + "/NOE/COO", "expected 81 values");
  expect_read_error(outcome_after([](hid_t f, const h5::Context&) { H5Ldelete(f, "/ENS_MAA/mesh", H5P_DEFAULT); }),
                    "group /ENS_MAA holds no mesh");
  expect_read_error(outcome_after([](hid_t f, const h5::Context&) { H5Ldelete(f, "/ENS_MAA", H5P_DEFAULT); }),
                    "not a MED file");
  expect_read_error(outcome_after([](hid_t f, const h5::Context&) { H5Adelete_by_name(f, (kStep + "/NOE/COO").c_str(), "NBR", H5P_DEFAULT); }),
                    kStep + "/NOE/COO: no attribute NBR");
  expect_read_error(outcome_after([](hid_t f, const h5::Context& c) {
                      replace_dataset(f, c, "/CHA/a/0000000000000000000100000000000000000001/NOE/MED_NO_PROFILE_INTERNAL/CO",
                                      NDArray::from_vector<double>({1, 2, 3}));
                    }),
                    "/CHA/a/0000000000000000000100000000000000000001/NOE/MED_NO_PROFILE_INTERNAL/CO");
  expect_read_error(read_outcome(tmp_path("med_missing.med"), "med"), "med_missing.med");
}

// Whatever the bytes of a real file become, a read gives a Mesh or a ReadError naming the
// file: every 211th prefix and a flip (XOR 0xff) and a zero of every 101st byte of both
// fixtures (the sweep covers headers, attributes, the name tables and stored values).
TEST(MedHostile, PrefixesAndCorruptedBytesAreAMeshOrAReadError) {
  for (const std::string file : {"libmed_two_meshes.med", "meshio_mixed.med"}) {
    const std::string bytes = slurp(data_path("med", file));
    Sweep s;
    s.prefix_step = 211, s.corrupt_step = 101, s.xor_masks = {0xff}, s.set_to = {'\0'};
    const SweepCount n = sweep(bytes, "med", "med_sweep.med", s.validating());
    EXPECT_GT(n.meshes, 0u) << file;
    EXPECT_LT(n.meshes, n.files) << file;
  }
}

#endif  // MESHIOPP_HAVE_HDF5
