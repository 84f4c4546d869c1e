// CGNS (src/formats/cgns/): round trips of every mapped element type (node orders
// included), regions (side / point / cell) and data, the element table, facet matching,
// the fixtures of the CGNS library and of h5py (tests/data/cgns/), the ReadErrors of bad
// files naming the node path (made here with the HDF5 toolkit), and truncated or
// byte-corrupted fixtures (a Mesh or a ReadError, never a crash). The CGNS library's
// cgnscheck / cgnslist, VTK's vtkCGNSReader and meshio are the oracles in tests/python/test_cgns.py.
#include <gtest/gtest.h>

#ifdef MESHIOPP_HAVE_HDF5

#include <functional>

#include "core/io/hdf5.hpp"
#include "formats/cgns/cgns_internal.hpp"
#include "meshioplusplus/cell_types.hpp"
#include "test_vtk_common.hpp"

using namespace vtktest;

namespace {

namespace h5 = meshioplusplus::io::hdf5;
namespace cg = meshioplusplus::cgns;
using mpp::DType;

mpp::Mesh write_read(const mpp::Mesh& m, const std::string& name, const mpp::Options& opts = {}) {
  const std::string path = tmp_path(name);
  mpp::write(path, m, "cgns", opts);
  return mpp::read(path, "cgns");
}

TEST(Cgns, ElementTableIsConsistent) {
  for (int t = 0; t < 60; ++t) {
    const cg::ElementKind* k = cg::element_kind(t);
    if (!k) continue;
    EXPECT_EQ(cg::element_kind_of(k->meshio), k);
    EXPECT_EQ(mpp::cell_type(k->meshio).num_nodes, k->nodes) << k->meshio;
    if (!k->vtk_from_cgns.empty()) {
      ASSERT_EQ(k->vtk_from_cgns.size(), static_cast<std::size_t>(k->nodes));
      std::vector<int> sorted = k->vtk_from_cgns;
      std::sort(sorted.begin(), sorted.end());
      for (int i = 0; i < k->nodes; ++i) EXPECT_EQ(sorted[static_cast<std::size_t>(i)], i) << k->meshio;  // a permutation
    }
  }
  EXPECT_EQ(cg::element_type_name(10), "TETRA_4");
  EXPECT_EQ(cg::element_type_name(20), "MIXED");
  EXPECT_EQ(cg::element_type_name(999), "999");
}

TEST(Cgns, FacetMatchFindsTheCellAndTheLocalFacet) {
  std::vector<mpp::CellBlock> cells = {mpp::CellBlock::rectangular("tetra", i64({0, 1, 2, 3, 1, 2, 3, 4}, {2, 4}))};
  // Face (1, 2, 3) is shared by both tetrahedra; (0, 1, 4) belongs to none.
  const cg::FacetMatch m = cg::match_facets(cells, 3, {0, 3, 6}, {3, 2, 1, 0, 1, 4});
  ASSERT_EQ(m.sides.size(), 4u);
  EXPECT_EQ(m.unmatched, std::vector<std::size_t>({1}));
  const auto& facets = mpp::cell_facets("tetra");
  for (std::size_t i = 0; i < 2; ++i) {
    const auto cell = static_cast<std::size_t>(m.sides[2 * i]);
    const auto& local = facets[static_cast<std::size_t>(m.sides[2 * i + 1])];
    std::vector<std::int64_t> nodes;
    for (int l : local) nodes.push_back(cells[0].connectivity.data<std::int64_t>()[cell * 4 + static_cast<std::size_t>(l)]);
    std::sort(nodes.begin(), nodes.end());
    EXPECT_EQ(nodes, std::vector<std::int64_t>({1, 2, 3}));
  }
}

TEST(Cgns, EveryMappedTypeRoundTripsWithItsNodeOrder) {
  for (int t = 0; t < 60; ++t) {
    const cg::ElementKind* k = cg::element_kind(t);
    if (!k) continue;
    const auto n = static_cast<std::size_t>(k->nodes);
    std::vector<double> pts;
    for (std::size_t i = 0; i < n; ++i) pts.insert(pts.end(), {double(i), double(i * i % 7), double(i % 3)});
    std::vector<std::int64_t> conn;
    for (std::size_t i = 0; i < n; ++i) conn.push_back(static_cast<std::int64_t>((i * 5 + 3) % n == i ? i : i));
    mpp::Mesh m;
    m.points = mpp::NDArray::from_vector(pts, {n, 3});
    m.cells.push_back(mpp::CellBlock::rectangular(std::string(k->meshio), i64(conn, {1, n})));
    const mpp::Mesh back = write_read(m, "cgns_type.cgns");
    ASSERT_EQ(back.cells.size(), 1u) << k->meshio;
    EXPECT_EQ(back.cells[0].type, k->meshio);
    EXPECT_EQ(ints_of(back.cells[0].connectivity), conn) << k->meshio;
  }
}

TEST(Cgns, FileOrderOfPermutedTypesIsTheSids) {
  // HEXA_20's node 13 (1-based) is the edge 1-5 (the first vertical edge): VTK's 17th.
  mpp::Mesh m;
  std::vector<double> pts;
  for (int i = 0; i < 20; ++i) pts.insert(pts.end(), {double(i), 0.0, 0.0});
  m.points = mpp::NDArray::from_vector(pts, {20, 3});
  std::vector<std::int64_t> conn(20);
  for (int i = 0; i < 20; ++i) conn[static_cast<std::size_t>(i)] = i;
  m.cells.push_back(mpp::CellBlock::rectangular("hexahedron20", i64(conn, {1, 20})));
  const std::string path = tmp_path("cgns_hex20.cgns");
  mpp::write(path, m, "cgns");
  const h5::Context ctx{"test", path, false};
  h5::Handle f = h5::open_file(ctx);
  const mpp::NDArray c = h5::read_dataset(ctx, f.get(), "/Base/Zone1/GridElements/ElementConnectivity/ data", 1 << 20);
  EXPECT_EQ(c.value_as_int64(12), 17);  // 1-based VTK node 16 + 1
  EXPECT_EQ(c.value_as_int64(16), 13);
}

TEST(Cgns, RegionsDataAndNamesRoundTrip) {
  mpp::Mesh m = linear_mix();
  m.point_data["p"] = mpp::NDArray::from_vector(std::vector<double>(m.num_points(), 2.5));
  m.regions.push_back(mpp::Region{"pts", mpp::RegionKind::point, -1, -1, i64({0, 2}, {2})});
  const mpp::Mesh back = write_read(m, "cgns_regions.cgns", {{"base_name", "B"}, {"zone_name", "Z"}});
  EXPECT_EQ(back.num_points(), m.num_points());
  EXPECT_EQ(back.num_cells(), m.num_cells());
  ASSERT_NE(region(back, "pts", mpp::RegionKind::point), nullptr);
  EXPECT_EQ(ints_of(region(back, "pts")->entries), std::vector<std::int64_t>({0, 2}));
  ASSERT_NE(region(back, "Z", mpp::RegionKind::cell), nullptr);
  EXPECT_EQ(region(back, "Z")->entries.size(), m.num_cells());
  EXPECT_EQ(back.field_data.count("CGNSBase:B"), 1u);
  EXPECT_EQ(doubles_of(back.point_data.at("p")), doubles_of(m.point_data.at("p")));
}

TEST(Cgns, FixturesOfTheLibraryRead) {
  const mpp::Mesh hex = mpp::read(data_path("cgns", "hex_bc.cgns"), "cgns");
  ASSERT_EQ(hex.cells.size(), 4u);
  EXPECT_EQ(hex.cells[0].type, "hexahedron");
  std::size_t sides = 0;
  for (const auto& r : hex.regions) sides += r.kind == mpp::RegionKind::side ? r.entries.dim(0) : 0;
  EXPECT_EQ(sides, 6u);
  const mpp::Mesh poly = mpp::read(data_path("cgns", "poly4.cgns"), "cgns");
  EXPECT_EQ(poly.num_cells(), 2u);
  EXPECT_EQ(poly.cells[0].type, "polyhedron");
}

// A copy of mixed3.cgns with `edit` applied (the HDF5 toolkit, on the file itself).
std::string edited(const std::string& name, const std::function<void(hid_t, const h5::Context&)>& edit) {
  const std::string path = tmp_path(name);
  spit(path, slurp(data_path("cgns", "mixed3.cgns")));
  const h5::Context ctx{"test", path, true};
  h5::Session session;
  h5::Handle f(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose);
  edit(f.get(), ctx);
  return path;
}

void replace(hid_t f, const h5::Context& ctx, const std::string& node, const mpp::NDArray& a) {
  H5Ldelete(f, (node + "/ data").c_str(), H5P_DEFAULT);
  h5::Handle g = h5::open_group(ctx, f, node);
  h5::write_dataset(ctx, g.get(), " data", a);
}

TEST(CgnsErrors, BadFilesNameTheNode) {
  using V = std::vector<std::int32_t>;
  expect_read_error(read_outcome(edited("cgns_e1.cgns", [](hid_t f, const h5::Context& c) {
                                   replace(f, c, "/Base/Zone1/Volume/ElementRange", mpp::NDArray::from_vector(V{1, 9}));
                                 }), "cgns"),
                    "node /Base/Zone1/Volume/ElementConnectivity", "ends inside element");
  expect_read_error(read_outcome(edited("cgns_e2.cgns", [](hid_t f, const h5::Context& c) {
                                   replace(f, c, "/Base/Zone1/Wall/ElementConnectivity", mpp::NDArray::from_vector(V{1, 3, 99}));
                                 }), "cgns"),
                    "node /Base/Zone1/Wall/ElementConnectivity", "vertex ids in 1..6");
  expect_read_error(read_outcome(edited("cgns_e3.cgns", [](hid_t f, const h5::Context& c) {
                                   replace(f, c, "/Base/Zone1/Wall", mpp::NDArray::from_vector(V{77, 0}));
                                 }), "cgns"),
                    "node /Base/Zone1/Wall", "element type 77 is not read");
  expect_read_error(read_outcome(edited("cgns_e4.cgns", [](hid_t f, const h5::Context& c) {
                                   replace(f, c, "/Base/Zone1/GridCoordinates/CoordinateY", mpp::NDArray::from_vector(std::vector<double>{1, 2}));
                                 }), "cgns"),
                    "node /Base/Zone1/GridCoordinates/CoordinateY", "6 values (the zone's vertices)");
  expect_read_error(read_outcome(edited("cgns_e5.cgns", [](hid_t f, const h5::Context& c) {
                                   replace(f, c, "/Base/Zone1/ZoneBC/wall/PointList", mpp::NDArray::from_vector(V{40}));
                                 }), "cgns"),
                    "node /Base/Zone1/ZoneBC/wall", "element ids of the zone's sections");
  expect_read_error(read_outcome(edited("cgns_e6.cgns", [](hid_t f, const h5::Context& c) {
                                   replace(f, c, "/Base/Zone1/FlowSolution/Pressure", mpp::NDArray::from_vector(std::vector<double>{1}));
                                 }), "cgns"),
                    "node /Base/Zone1/FlowSolution/Pressure", "one per vertex");
  expect_read_error(read_outcome(edited("cgns_e7.cgns", [](hid_t f, const h5::Context&) {
                                   H5Ldelete(f, "/Base/Zone1/GridCoordinates", H5P_DEFAULT);
                                 }), "cgns"),
                    "node /Base/Zone1", "no GridCoordinates");
  expect_read_error(read_outcome(data_path("cgns", "unread/hex_adf.cgns"), "cgns"), "ADF-flavour", "cgnsconvert -h");
  expect_read_error(read_outcome(data_path("cgns", "unread/structured.cgns"), "cgns"), "node /Base/Block", "Structured zone");
}

TEST(Cgns, LargeSectionsReadTheSameOnAnyThreadCountAndTheFirstBadIdIsNamed) {
  // 200003 tetrahedra: several per-thread ranges (65536 elements each at least).
  const std::size_t n = 5003, m = 200003;
  mpp::Mesh mesh;
  mesh.points = mpp::NDArray::uninit(DType::float64, {n, 3});
  for (std::size_t i = 0; i < n * 3; ++i) mesh.points.data<double>()[i] = static_cast<double>(i) * 0.25;
  mpp::NDArray conn = mpp::NDArray::uninit(DType::int64, {m, 4});
  for (std::size_t i = 0; i < m * 4; ++i) conn.data<std::int64_t>()[i] = static_cast<std::int64_t>((i * 7919) % n);
  mesh.cells.push_back(mpp::CellBlock::rectangular("tetra", conn));
  const std::string path = tmp_path("cgns_large.cgns");
  // gzip (the default): the section is read whole; uncompressed: a piece at a time.
  for (const char* compression : {"gzip", "None"}) {
    mpp::write(path, mesh, "cgns", {{"base_name", "B"}, {"zone_name", "Z"}, {"compression", compression}});
    for (const char* threads : {"1", "2", "3", "8"}) {
      const mpp::Mesh got = mpp::read(path, "cgns", {{"threads", threads}});
      ASSERT_EQ(got.cells.size(), 1u) << threads;
      EXPECT_EQ(compare_arrays("tetra", conn, got.cells[0].connectivity), "") << threads << " threads, " << compression;
    }
  }
  // ids 0 (element 150000) and n + 1 (element 80000) in the file, I4, stored whole and
  // gzip-chunked: the error names the one met first in the file, on every thread count.
  const std::string bad = tmp_path("cgns_large_bad.cgns");
  for (const bool compressed : {false, true}) {
    spit(bad, slurp(path));
    {
      const h5::Context ctx{"test", bad, true};
      h5::Session session;
      h5::Handle f(H5Fopen(bad.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose);
      std::vector<std::int32_t> ids(m * 4);
      for (std::size_t i = 0; i < m * 4; ++i) ids[i] = static_cast<std::int32_t>((i * 7919) % n + 1);
      ids[150000 * 4 + 3] = 0;
      ids[80000 * 4 + 1] = static_cast<std::int32_t>(n + 1);
      const std::string node = "/B/Z/GridElements/ElementConnectivity";
      H5Ldelete(f.get(), (node + "/ data").c_str(), H5P_DEFAULT);
      h5::Handle g = h5::open_group(ctx, f.get(), node);
      h5::write_dataset(ctx, g.get(), " data", mpp::NDArray::from_vector(ids),
                        compressed ? h5::DatasetOptions{4, false, 1 << 16} : h5::DatasetOptions{});
    }
    for (const char* threads : {"1", "2", "8"})
      expect_read_error(read_outcome(bad, "cgns", {{"threads", threads}}), "node /B/Z/GridElements/ElementConnectivity",
                        "vertex ids in 1..5003, found '5004'");
  }
}

TEST(CgnsErrors, WriterRefusesWhatCgnsCannotName) {
  mpp::Mesh m = tri_mesh();
  m.regions.push_back(mpp::Region{std::string(40, 'r'), mpp::RegionKind::point, -1, -1, i64({0}, {1})});
  EXPECT_THROW(mpp::write(tmp_path("cgns_long.cgns"), m, "cgns"), mpp::WriteError);
  EXPECT_THROW(mpp::write(tmp_path("cgns_opt.cgns"), tri_mesh(), "cgns", {{"zone_name", "a/b"}}), std::invalid_argument);
}

// Whatever the bytes of a real file become, a read gives a Mesh or a ReadError naming the
// format and the file: every 97th prefix and every 37th byte zeroed, set to 0xff and with
// its low or high bit flipped, of a library-written and two h5py-written fixtures.
TEST(CgnsHostile, TruncatedAndCorruptedFixturesAreAMeshOrAReadError) {
  for (const char* file : {"hex_bc.cgns", "mixed4.cgns", "poly3.cgns"}) {
    const std::string bytes = slurp(data_path("cgns", file));
    Sweep s = Sweep::set_each(97, 37, {'\0', '\xff'});
    s.xor_masks = {0x01, 0x80};
    const SweepCount n = sweep(bytes, "cgns", "cgns_sweep.cgns", s.errors_start("ReadError: cgns: "));
    EXPECT_GT(n.meshes, 0u) << file;
    EXPECT_LT(n.meshes, n.files) << file;
  }
}

}  // namespace

#endif  // MESHIOPP_HAVE_HDF5
