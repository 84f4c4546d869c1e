// Gmsh MSH reader/writer: gmsh-made fixtures (tests/data/gmsh, see its README), hand-made
// files for the corners gmsh does not produce (sparse tags, big-endian, data sections),
// meshio's round-trip meshes for 2.2 / 4.1 x ASCII / binary, and malformed input.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include "meshioplusplus/meshioplusplus.hpp"

namespace mpp = meshioplusplus;
namespace fs = std::filesystem;

namespace {

const std::string kData = std::string(MESHIOPP_TEST_DATA) + "/gmsh/";

fs::path tmp_dir() {
  static const fs::path dir = [] {
    // /dev/shm when there is one: the prefix and corruption tests write thousands of files.
    const fs::path base = fs::is_directory("/dev/shm") ? fs::path("/dev/shm") : fs::temp_directory_path();
    fs::path d = base / ("mpp_gmsh_test_" + std::to_string(::getpid()));
    fs::create_directories(d);
    return d;
  }();
  return dir;
}

std::string write_file(const std::string& name, const std::string& bytes) {
  const std::string path = (tmp_dir() / name).string();
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::vector<double> doubles(const mpp::NDArray& a) {
  std::vector<double> v(a.size());
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = a.value_as_double(i);
  return v;
}
std::vector<std::int64_t> ints(const mpp::NDArray& a) {
  std::vector<std::int64_t> v(a.size());
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = a.value_as_int64(i);
  return v;
}

std::string read_error(const std::string& path) {
  try {
    mpp::read(path, "gmsh");
  } catch (const mpp::ReadError& e) {
    return e.what();
  }
  return "";
}

// Everything a mesh carries, compared array by array (NaN == NaN).
// `tol`: Gmsh's ASCII files round coordinates to 16 digits, its binary files do not.
void expect_same(const mpp::Mesh& a, const mpp::Mesh& b, double tol = 0) {
  const bool dtypes = true;
  ASSERT_EQ(a.points.shape(), b.points.shape());
  if (tol == 0) {
    EXPECT_EQ(doubles(a.points), doubles(b.points));
  }
  for (std::size_t i = 0; tol > 0 && i < a.points.size(); ++i)
    ASSERT_NEAR(a.points.value_as_double(i), b.points.value_as_double(i), tol);
  ASSERT_EQ(a.cells.size(), b.cells.size());
  for (std::size_t i = 0; i < a.cells.size(); ++i) {
    EXPECT_EQ(a.cells[i].type, b.cells[i].type);
    EXPECT_EQ(a.cells[i].connectivity.shape(), b.cells[i].connectivity.shape());
    EXPECT_EQ(ints(a.cells[i].connectivity), ints(b.cells[i].connectivity)) << a.cells[i].type;
  }
  auto same_data = [&](const mpp::NDArray& x, const mpp::NDArray& y, const std::string& name) {
    EXPECT_EQ(x.shape(), y.shape()) << name;
    if (dtypes) {
      EXPECT_EQ(x.dtype(), y.dtype()) << name;
    }
    auto u = doubles(x), v = doubles(y);
    ASSERT_EQ(u.size(), v.size()) << name;
    for (std::size_t i = 0; i < u.size(); ++i)
      if (!(std::isnan(u[i]) && std::isnan(v[i]))) {
        EXPECT_EQ(u[i], v[i]) << name << "[" << i << "]";
      }
  };
  ASSERT_EQ(a.point_data.size(), b.point_data.size());
  for (const auto& [k, v] : a.point_data) same_data(v, b.point_data.at(k), k);
  ASSERT_EQ(a.cell_data.size(), b.cell_data.size());
  for (const auto& [k, list] : a.cell_data) {
    ASSERT_EQ(list.size(), b.cell_data.at(k).size()) << k;
    for (std::size_t i = 0; i < list.size(); ++i) same_data(list[i], b.cell_data.at(k)[i], k);
  }
  ASSERT_EQ(a.field_data.size(), b.field_data.size());
  for (const auto& [k, v] : a.field_data) EXPECT_EQ(ints(v), ints(b.field_data.at(k))) << k;
  ASSERT_EQ(a.regions.size(), b.regions.size());
  for (std::size_t i = 0; i < a.regions.size(); ++i) {
    EXPECT_EQ(a.regions[i].name, b.regions[i].name);
    EXPECT_EQ(a.regions[i].dim, b.regions[i].dim);
    EXPECT_EQ(a.regions[i].tag, b.regions[i].tag);
    EXPECT_EQ(ints(a.regions[i].entries), ints(b.regions[i].entries)) << a.regions[i].name;
  }
  ASSERT_EQ(a.gmsh_periodic.size(), b.gmsh_periodic.size());
  for (std::size_t i = 0; i < a.gmsh_periodic.size(); ++i) {
    EXPECT_EQ(a.gmsh_periodic[i].dim, b.gmsh_periodic[i].dim);
    EXPECT_EQ(a.gmsh_periodic[i].tag, b.gmsh_periodic[i].tag);
    EXPECT_EQ(a.gmsh_periodic[i].master_tag, b.gmsh_periodic[i].master_tag);
    EXPECT_EQ(a.gmsh_periodic[i].affine, b.gmsh_periodic[i].affine);
    EXPECT_EQ(ints(a.gmsh_periodic[i].node_pairs), ints(b.gmsh_periodic[i].node_pairs));
  }
}

const mpp::Region* region(const mpp::Mesh& m, const std::string& name) {
  for (const auto& r : m.regions)
    if (r.name == name) return &r;
  return nullptr;
}

}  // namespace

// ---------------------------------------------------------------------------------------
// gmsh-made fixtures

TEST(GmshRead, Square41MatchesWhatGmshWrote) {
  const mpp::Mesh m = mpp::read(kData + "square2d_msh41.msh");
  ASSERT_EQ(m.points.shape(), (mpp::NDArray::Shape{24, 3}));
  // $Nodes: node 7 is the first node of curve 1, at x = 0.4999999999988241.
  EXPECT_EQ(m.points.value_as_double(6 * 3), 0.4999999999988241);
  std::vector<std::string> types;
  for (const auto& b : m.cells) types.push_back(b.type);
  EXPECT_EQ(types, (std::vector<std::string>{"vertex", "line", "line", "line", "line", "triangle", "quad"}));
  EXPECT_EQ(m.cells[5].size(), 22u);
  EXPECT_EQ(m.cells[6].size(), 4u);
  // Entity (2, 1) carries physical groups 21 and 23: gmsh:physical holds the first.
  EXPECT_EQ(ints(m.cell_data.at("gmsh:physical")[5]), std::vector<std::int64_t>(22, 21));
  EXPECT_EQ(ints(m.cell_data.at("gmsh:geometrical")[6]), std::vector<std::int64_t>(4, 2));
  EXPECT_EQ(m.point_data.at("gmsh:dim_tags").shape(), (mpp::NDArray::Shape{24, 2}));
  EXPECT_EQ(ints(m.field_data.at("left")), (std::vector<std::int64_t>{11, 1}));
  EXPECT_EQ(m.field_data.size(), 6u);
  // Regions, one per physical group, sorted by (dim, tag); the unnamed group is named
  // physical_<dim>_<tag>.
  std::vector<std::string> names;
  for (const auto& r : m.regions) names.push_back(r.name);
  EXPECT_EQ(names, (std::vector<std::string>{"corner", "left", "right", "physical_1_13", "tri", "quads", "all"}));
  const mpp::Region* all = region(m, "all");
  ASSERT_TRUE(all);
  EXPECT_EQ(all->dim, 2);
  EXPECT_EQ(all->tag, 23);
  EXPECT_EQ(all->entries.size(), 26u);
  EXPECT_EQ(all->entries.value_as_int64(0), 11);  // first triangle: after 1 vertex + 10 lines
  EXPECT_EQ(region(m, "physical_1_13")->entries.size(), 6u);
  EXPECT_NO_THROW(m.validate());
}

TEST(GmshRead, AsciiAndBinaryAgree) {
  expect_same(mpp::read(kData + "square2d_msh41.msh"), mpp::read(kData + "square2d_msh41_bin.msh"), 1e-14);
  expect_same(mpp::read(kData + "square2d_msh41.msh"), mpp::read(kData + "square2d_msh40.msh"));
  expect_same(mpp::read(kData + "square2d_msh22.msh"), mpp::read(kData + "square2d_msh22_bin.msh"), 1e-14);
}

TEST(GmshRead, Version22GroupsConsecutiveTypesAndDuplicatesMultiGroupElements) {
  const mpp::Mesh m = mpp::read(kData + "square2d_msh22.msh");
  ASSERT_EQ(m.cells.size(), 4u);
  EXPECT_EQ(m.cells[2].type, "triangle");
  // Gmsh writes a triangle once per physical group (tri and all) in MSH 2.
  EXPECT_EQ(m.cells[2].size(), 44u);
  EXPECT_EQ(m.cell_data.at("gmsh:physical")[2].dtype(), mpp::DType::int32);
  EXPECT_EQ(region(m, "all")->entries.size(), 26u);
  EXPECT_EQ(region(m, "tri")->entries.size(), 22u);
  EXPECT_EQ(m.point_data.count("gmsh:dim_tags"), 0u);  // as meshio: MSH 2 has no node entities
}

TEST(GmshRead, SecondOrderTetraPermutedToVtkOrder) {
  const mpp::Mesh a = mpp::read(kData + "box3d_o2_msh41.msh");
  const mpp::Mesh b = mpp::read(kData + "box3d_o2_msh22_bin.msh");
  std::size_t tets = 0;
  for (const auto& blk : a.cells) {
    if (blk.type != "tetra10") continue;
    tets += blk.size();
    // VTK's tetra10: node 8 is the midpoint of edge (0, 3)... check every edge midpoint.
    const int edges[6][2] = {{0, 1}, {1, 2}, {0, 2}, {0, 3}, {1, 3}, {2, 3}};
    for (std::size_t c = 0; c < blk.size(); ++c)
      for (int e = 0; e < 6; ++e)
        for (int x = 0; x < 3; ++x) {
          auto node = [&](int j) { return static_cast<std::size_t>(blk.connectivity.value_as_int64(c * 10 + static_cast<std::size_t>(j))); };
          const double mid = 0.5 * (a.points.value_as_double(node(edges[e][0]) * 3 + static_cast<std::size_t>(x)) +
                                    a.points.value_as_double(node(edges[e][1]) * 3 + static_cast<std::size_t>(x)));
          ASSERT_NEAR(a.points.value_as_double(node(4 + e) * 3 + static_cast<std::size_t>(x)), mid, 1e-9) << "edge " << e;
        }
  }
  EXPECT_EQ(tets, 200u);
  EXPECT_EQ(region(a, "left")->entries.size(), region(b, "left")->entries.size());
  EXPECT_EQ(region(a, "bottom")->entries.size(), 28u);
}

TEST(GmshRead, PeriodicLinks) {
  const mpp::Mesh m = mpp::read(kData + "periodic_msh41.msh");
  ASSERT_EQ(m.gmsh_periodic.size(), 3u);
  const auto& l = m.gmsh_periodic[2];
  EXPECT_EQ(l.dim, 1);
  EXPECT_EQ(l.tag, 2);
  EXPECT_EQ(l.master_tag, 4);
  ASSERT_EQ(l.affine.size(), 16u);
  EXPECT_EQ(l.affine[3], 1.0);  // translation by (1, 0, 0)
  for (std::size_t i = 0; i < l.node_pairs.dim(0); ++i) {
    const auto s = static_cast<std::size_t>(l.node_pairs.value_as_int64(2 * i));
    const auto t = static_cast<std::size_t>(l.node_pairs.value_as_int64(2 * i + 1));
    EXPECT_NEAR(m.points.value_as_double(3 * s), m.points.value_as_double(3 * t) + 1.0, 1e-12);
    EXPECT_NEAR(m.points.value_as_double(3 * s + 1), m.points.value_as_double(3 * t + 1), 1e-12);
  }
  const mpp::Mesh m22 = mpp::read(kData + "periodic_msh22.msh");
  ASSERT_EQ(m22.gmsh_periodic.size(), 1u);
  EXPECT_EQ(m22.gmsh_periodic[0].affine.size(), 16u);
  EXPECT_EQ(m22.gmsh_periodic[0].node_pairs.dim(0), 4u);
}

// ---------------------------------------------------------------------------------------
// Hand-made files

TEST(GmshRead, SparseUnorderedNodeTagsCommentsAndUnknownSections) {
  const std::string text =
      "$Comments\nmade by hand\n$EndComments\n"
      "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n"
      "$Whatever\n1 2 3\n$EndWhatever\n"
      "$Nodes\n2 4 5 1000\n"
      "2 1 0 2\n1000\n5\n0 0 0\n1 0 0\n"
      "2 1 0 2\n77\n9\n1 1 0\n0 1 0\n$EndNodes\n"
      "$Elements\n1 2 10 11\n2 1 2 2\n10 1000 5 77\n11 1000 77 9\n$EndElements\n"
      "$NodeData\n1\n\"temp\"\n1\n0.5\n3\n0\n1\n2\n9 7.5\n5 2.5\n$EndNodeData\n"
      "$ElementData\n1\n\"vec\"\n1\n0.0\n3\n0\n3\n1\n11 1 2 3\n$EndElementData\n"
      "$ElementNodeData\n1\n\"en\"\n1\n0.0\n3\n0\n1\n1\n10 3 1 2 3\n$EndElementNodeData\n";
  const mpp::Mesh m = mpp::read(write_file("sparse.msh", text));
  EXPECT_EQ(doubles(m.points), (std::vector<double>{0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0}));
  ASSERT_EQ(m.cells.size(), 1u);
  EXPECT_EQ(ints(m.cells[0].connectivity), (std::vector<std::int64_t>{0, 1, 2, 0, 2, 3}));
  EXPECT_EQ(ints(m.point_data.at("gmsh:dim_tags")), (std::vector<std::int64_t>{2, 1, 2, 1, 2, 1, 2, 1}));
  auto temp = doubles(m.point_data.at("temp"));
  EXPECT_TRUE(std::isnan(temp[0]));
  EXPECT_EQ(temp[1], 2.5);
  EXPECT_EQ(temp[3], 7.5);
  const auto& vec = m.cell_data.at("vec")[0];
  EXPECT_EQ(vec.shape(), (mpp::NDArray::Shape{2, 3}));
  EXPECT_TRUE(std::isnan(vec.value_as_double(0)));
  EXPECT_EQ(vec.value_as_double(5), 3.0);
  EXPECT_EQ(m.cell_data.at("en")[0].shape(), (mpp::NDArray::Shape{2, 3}));
  EXPECT_EQ(m.cell_data.at("en")[0].value_as_double(2), 3.0);
  EXPECT_EQ(m.cell_data.count("gmsh:physical"), 0u);  // no $Entities: no physical groups
  EXPECT_TRUE(m.regions.empty());
}

namespace {

// A small binary MSH 4.1 file (two triangles, one physical group) in either byte order.
struct Bin {
  bool big;
  std::string s;
  template <class T> Bin& put(T v) {
    char b[sizeof(T)];
    std::memcpy(b, &v, sizeof v);
    if (big) std::reverse(b, b + sizeof v);
    s.append(b, sizeof v);
    return *this;
  }
  Bin& text(const std::string& t) { s += t; return *this; }
};

std::string binary41(bool big) {
  Bin b{big, {}};
  b.text("$MeshFormat\n4.1 1 8\n").put<std::int32_t>(1).text("\n$EndMeshFormat\n");
  b.text("$PhysicalNames\n1\n2 7 \"plate\"\n$EndPhysicalNames\n");
  b.text("$Entities\n").put<std::uint64_t>(0).put<std::uint64_t>(0).put<std::uint64_t>(1).put<std::uint64_t>(0);
  b.put<std::int32_t>(3);
  for (int i = 0; i < 6; ++i) b.put<double>(0);
  b.put<std::uint64_t>(1).put<std::int32_t>(7).put<std::uint64_t>(0).text("\n$EndEntities\n");
  b.text("$Nodes\n").put<std::uint64_t>(1).put<std::uint64_t>(4).put<std::uint64_t>(1).put<std::uint64_t>(4);
  b.put<std::int32_t>(2).put<std::int32_t>(3).put<std::int32_t>(0).put<std::uint64_t>(4);
  for (std::uint64_t t = 1; t <= 4; ++t) b.put<std::uint64_t>(t);
  for (double v : {0., 0., 0., 1., 0., 0., 1., 1., 0., 0., 1., 0.}) b.put<double>(v);
  b.text("\n$EndNodes\n$Elements\n").put<std::uint64_t>(1).put<std::uint64_t>(2).put<std::uint64_t>(1).put<std::uint64_t>(2);
  b.put<std::int32_t>(2).put<std::int32_t>(3).put<std::int32_t>(2).put<std::uint64_t>(2);
  for (std::uint64_t v : {1, 1, 2, 3, 2, 1, 3, 4}) b.put<std::uint64_t>(v);
  b.text("\n$EndElements\n$NodeData\n1\n\"u\"\n1\n0.0\n3\n0\n1\n4\n");
  for (int t = 1; t <= 4; ++t) b.put<std::int32_t>(t).put<double>(t * 0.5);
  b.text("\n$EndNodeData\n");
  return b.s;
}

}  // namespace

TEST(GmshRead, BinaryBothByteOrders) {
  const mpp::Mesh le = mpp::read(write_file("le.msh", binary41(false)));
  const mpp::Mesh be = mpp::read(write_file("be.msh", binary41(true)));
  expect_same(le, be);
  EXPECT_EQ(ints(le.cells[0].connectivity), (std::vector<std::int64_t>{0, 1, 2, 0, 2, 3}));
  EXPECT_EQ(doubles(le.point_data.at("u")), (std::vector<double>{0.5, 1.0, 1.5, 2.0}));
  ASSERT_EQ(le.regions.size(), 1u);
  EXPECT_EQ(le.regions[0].name, "plate");
  EXPECT_EQ(ints(le.regions[0].entries), (std::vector<std::int64_t>{0, 1}));
}

// ---------------------------------------------------------------------------------------
// Round trips: meshio's canonical meshes, 2.2 and 4.1, ASCII and binary.

namespace {

mpp::Mesh canonical(const std::string& type) {
  mpp::Mesh m;
  // Points of a unit cube's corners, edge midpoints and then some: enough for any type here.
  std::vector<double> pts;
  for (int i = 0; i < 27; ++i) {
    pts.push_back(i % 3 * 0.5);
    pts.push_back(i / 3 % 3 * 0.5);
    pts.push_back(i / 9 * 0.5 + 0.1 * (i == 13));
  }
  m.points = mpp::NDArray::from_vector<double>(pts, {27, 3});
  const int k = mpp::cell_type(type).num_nodes;
  std::vector<std::int64_t> conn;
  for (int c = 0; c < 2; ++c)
    for (int j = 0; j < k; ++j) conn.push_back((j * 7 + c * 5) % 27);
  m.cells.push_back(mpp::CellBlock::rectangular(type, mpp::NDArray::from_vector<std::int64_t>(conn, {2, static_cast<std::size_t>(k)})));
  return m;
}

void add_data(mpp::Mesh& m) {
  std::vector<double> a(m.num_points()), v(3 * m.num_points());
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = 0.25 * static_cast<double>(i) + 1e-17;
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = -1.5 * static_cast<double>(i);
  m.point_data["a"] = mpp::NDArray::from_vector(a);
  m.point_data["v"] = mpp::NDArray::from_vector(v, {m.num_points(), 3});
  m.cell_data["c"] = {mpp::NDArray::from_vector<double>({3.25, 4.5})};
  m.field_data["grp"] = mpp::NDArray::from_vector<std::int64_t>({1, mpp::cell_type(m.cells[0].type).dim});
  m.cell_data["gmsh:physical"] = {mpp::NDArray::from_vector<std::int64_t>({1, 1})};
  m.cell_data["gmsh:geometrical"] = {mpp::NDArray::from_vector<std::int64_t>({1, 1})};
}

}  // namespace

class GmshRoundTrip : public ::testing::TestWithParam<std::tuple<std::string, std::string, bool>> {};

TEST_P(GmshRoundTrip, WriteReadKeepsEverything) {
  const auto& [type, version, binary] = GetParam();
  mpp::Mesh m = canonical(type);
  add_data(m);
  const std::string path = (tmp_dir() / ("rt_" + type + version + (binary ? "b" : "a") + ".msh")).string();
  mpp::write(path, m, "gmsh", {{"fmt_version", version}, {"binary", binary ? "true" : "false"}});
  const mpp::Mesh r = mpp::read(path);
  EXPECT_EQ(doubles(r.points), doubles(m.points));
  ASSERT_EQ(r.cells.size(), 1u);
  EXPECT_EQ(r.cells[0].type, type);
  EXPECT_EQ(ints(r.cells[0].connectivity), ints(m.cells[0].connectivity));
  EXPECT_EQ(doubles(r.point_data.at("a")), doubles(m.point_data.at("a")));
  EXPECT_EQ(doubles(r.point_data.at("v")), doubles(m.point_data.at("v")));
  EXPECT_EQ(doubles(r.cell_data.at("c")[0]), (std::vector<double>{3.25, 4.5}));
  EXPECT_EQ(ints(r.cell_data.at("gmsh:physical")[0]), (std::vector<std::int64_t>{1, 1}));
  EXPECT_EQ(ints(r.field_data.at("grp")), ints(m.field_data.at("grp")));
  ASSERT_EQ(r.regions.size(), 1u);
  EXPECT_EQ(r.regions[0].name, "grp");
  EXPECT_EQ(ints(r.regions[0].entries), (std::vector<std::int64_t>{0, 1}));
}

INSTANTIATE_TEST_SUITE_P(
    Meshio, GmshRoundTrip,
    ::testing::Combine(::testing::Values("line", "triangle", "triangle6", "quad", "quad8", "tetra", "tetra10",
                                         "hexahedron", "hexahedron20", "hexahedron27", "wedge15", "pyramid13", "vertex"),
                       ::testing::Values("2.2", "4.1"), ::testing::Bool()));

TEST(GmshWrite, GmshFileSurvivesRoundTripBothVersions) {
  for (const char* f : {"square2d_msh41.msh", "box3d_o2_msh41.msh", "periodic_msh41.msh"})
    for (bool binary : {false, true}) {
      const mpp::Mesh m = mpp::read(kData + f);
      const std::string path = (tmp_dir() / "again.msh").string();
      mpp::write(path, m, "gmsh", {{"binary", binary ? "true" : "false"}});
      expect_same(m, mpp::read(path));
    }
  const mpp::Mesh m22 = mpp::read(kData + "square2d_msh22.msh");
  for (bool binary : {false, true}) {
    const std::string path = (tmp_dir() / "again22.msh").string();
    mpp::write(path, m22, "gmsh", {{"fmt_version", "2.2"}, {"binary", binary ? "true" : "false"}});
    expect_same(m22, mpp::read(path));
  }
}

TEST(GmshWrite, RegionsBecomePhysicalGroups) {
  mpp::Mesh m = canonical("triangle");
  m.cells.push_back(mpp::CellBlock::rectangular("line", mpp::NDArray::from_vector<std::int64_t>({0, 1, 1, 2, 2, 3}, {3, 2})));
  mpp::Region r;
  r.name = "some triangles";
  r.kind = mpp::RegionKind::cell;
  r.entries = mpp::NDArray::from_vector<std::int64_t>({1});
  m.regions.push_back(r);
  r.name = "edges";
  r.tag = 5;
  r.entries = mpp::NDArray::from_vector<std::int64_t>({2, 4});
  m.regions.push_back(r);
  for (const char* version : {"4.1", "2.2"}) {
    const std::string path = (tmp_dir() / "regions.msh").string();
    mpp::write(path, m, "gmsh", {{"fmt_version", version}});
    const mpp::Mesh back = mpp::read(path);
    const mpp::Region* a = region(back, "some triangles");
    const mpp::Region* e = region(back, "edges");
    ASSERT_TRUE(a && e) << version;
    EXPECT_EQ(a->dim, 2);
    EXPECT_EQ(e->tag, 5);
    EXPECT_EQ(e->dim, 1);
    // Cells of one block in different groups live in different entities; the points and
    // the cells' node lists survive.
    std::size_t total = 0;
    for (const auto& b : back.cells) total += b.size();
    EXPECT_EQ(total, 5u);
    EXPECT_EQ(a->entries.size(), 1u);
    EXPECT_EQ(e->entries.size(), 2u);
    EXPECT_EQ(back.field_data.count("edges"), 1u);
  }
}

TEST(GmshWrite, OptionsAndAtomicity) {
  mpp::Mesh m = canonical("triangle");
  const std::string path = write_file("keep.msh", "old contents");
  EXPECT_THROW(mpp::write(path, m, "gmsh", {{"binray", "true"}}), std::invalid_argument);
  EXPECT_THROW(mpp::write(path, m, "gmsh", {{"fmt_version", "3.0"}}), std::invalid_argument);
  mpp::Mesh poly = m;
  poly.cells[0].type = "wedge12";  // not a Gmsh element type
  poly.cells[0].connectivity = mpp::NDArray::from_vector<std::int64_t>(std::vector<std::int64_t>(12, 0), {1, 12});
  EXPECT_THROW(mpp::write(path, poly, "gmsh"), mpp::WriteError);
  EXPECT_EQ(slurp(path), "old contents");
  mpp::write(path, m, "gmsh", {{"binary", "false"}, {"float_fmt", ".3e"}});
  EXPECT_NE(slurp(path).find("5.000e-01"), std::string::npos);
  EXPECT_THROW(mpp::read(path, "gmsh", {{"binary", "true"}}), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------
// Malformed input: a mesh or ReadError, never anything else, and errors say where.

TEST(GmshBadInput, EveryTruncatedPrefixIsMeshOrReadError) {
  for (const char* f : {"square2d_msh41_bin.msh", "square2d_msh22.msh", "square2d_msh22_bin.msh", "periodic_msh41.msh"}) {
    const std::string full = slurp(kData + f);
    for (std::size_t n = 0; n < full.size(); ++n) {
      const std::string path = write_file("prefix.msh", full.substr(0, n));
      try {
        mpp::read(path, "gmsh");
      } catch (const mpp::ReadError& e) {
        ASSERT_NE(std::string(e.what()).find(path), std::string::npos);
      }
    }
  }
}

TEST(GmshBadInput, SingleByteCorruptionsAreMeshOrReadError) {
  for (const char* f : {"square2d_msh41_bin.msh", "square2d_msh41.msh", "square2d_msh22_bin.msh"}) {
    const std::string full = slurp(kData + f);
    for (std::size_t i = 0; i < full.size(); i += 3)
      for (int v : {0x00, 0xff, 0x7f, int('9'), int('-'), int('$'), int('\n')}) {
        std::string bad = full;
        bad[i] = static_cast<char>(v);
        const std::string path = write_file("corrupt.msh", bad);
        try {
          mpp::read(path, "gmsh");
        } catch (const mpp::ReadError&) {
        }
      }
  }
}

TEST(GmshBadInput, ErrorsNameFileAndPosition) {
  const std::string good = slurp(kData + "square2d_msh41.msh");
  auto with = [&](const std::string& from, const std::string& to) {
    std::string s = good;
    const auto at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    s.replace(at, from.size(), to);
    return write_file("bad.msh", s);
  };
  struct Case { std::string from, to, message; };
  const std::vector<Case> cases = {
      {"$EndNodes", "$EndNodez", "expected $EndNodes"},
      {"2 1 2 22", "2 1 99 22", "unknown element type 99"},
      {"15 24 1 24", "15 25 1 24", "node blocks hold 24 nodes, the header declares 25"},
      {"15 24 1 24", "15 24000000000 1 24", "declared 24000000000 nodes"},
      {"4.1 0 8", "5.0 0 8", "MSH version"},
      {"0.4999999999988241 0 0", "0.49x9999999988241 0 0", "expected x coordinate"},
      {"\n3 7 8 \n", "\n3 7 88 \n", "node tag 88 does not exist"},
  };
  for (const auto& c : cases) {
    const std::string path = with(c.from, c.to);
    const std::string msg = read_error(path);
    EXPECT_NE(msg.find(c.message), std::string::npos) << c.from << " -> " << msg;
    EXPECT_NE(msg.find(path), std::string::npos) << msg;
    EXPECT_NE(msg.find("line "), std::string::npos) << msg;
  }
  // Missing $End marker at the end of the file.
  EXPECT_NE(read_error(write_file("noend.msh", good.substr(0, good.rfind("$EndElements")))).find("expected $EndElements"),
            std::string::npos);
  // Bad endianness marker.
  std::string bin = slurp(kData + "square2d_msh41_bin.msh");
  bin[bin.find("4.1 1 8\n") + 8] = 2;
  EXPECT_NE(read_error(write_file("endian.msh", bin)).find("endianness marker"), std::string::npos);
  // Unclosed unknown section.
  EXPECT_NE(read_error(write_file("open.msh", "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Foo\n1\n")).find("not closed by $EndFoo"),
            std::string::npos);
  EXPECT_NE(read_error(write_file("nonodes.msh", "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n")).find("no $Elements"),
            std::string::npos);
}

// ---------------------------------------------------------------------------------------
// The bulk paths: binary element rows decoded in place on several threads, ASCII $Nodes
// parsed on several threads, binary rows written in batches. Blocks here are longer than
// the threshold (2^15 rows) at which a block is cut into pieces.

namespace {

// A triangle mesh in Gmsh's terms: node tags (file order), coordinates, element tags and
// triangles as node tags.
struct TagMesh {
  std::vector<std::uint64_t> node_tags;
  std::vector<std::uint64_t> elem_tags;
  std::vector<std::array<std::uint64_t, 3>> tris;
  double x(std::size_t i, int c) const { return static_cast<double>(i) * 0.5 + c; }
};

enum class NodeTags { identity, shuffled, sparse };

TagMesh tag_mesh(NodeTags kind, std::size_t nodes, std::size_t elems, std::uint64_t first_elem, bool reversed_elems) {
  TagMesh t;
  std::mt19937_64 rng(42);
  for (std::size_t i = 0; i < nodes; ++i) t.node_tags.push_back(kind == NodeTags::sparse ? 1000 * i + 7 : i + 1);
  if (kind != NodeTags::identity) std::shuffle(t.node_tags.begin(), t.node_tags.end(), rng);
  for (std::size_t e = 0; e < elems; ++e) {
    t.elem_tags.push_back(reversed_elems ? first_elem + elems - 1 - e : first_elem + e);
    t.tris.push_back({t.node_tags[rng() % nodes], t.node_tags[rng() % nodes], t.node_tags[rng() % nodes]});
  }
  return t;
}

// The connectivity the reader must return: node tags -> positions in file order.
std::vector<std::int64_t> expected_conn(const TagMesh& t) {
  std::map<std::uint64_t, std::int64_t> index;
  for (std::size_t i = 0; i < t.node_tags.size(); ++i) index[t.node_tags[i]] = static_cast<std::int64_t>(i);
  std::vector<std::int64_t> out;
  for (const auto& tri : t.tris)
    for (auto tag : tri) out.push_back(index.at(tag));
  return out;
}

// MSH 4.1 binary: one node block, an empty node block, an empty element block, then the
// triangles in one block, and $ElementData naming the last element by its tag.
std::string big_msh41(const TagMesh& t, bool big) {
  Bin b{big, {}};
  const std::uint64_t n = t.node_tags.size(), m = t.tris.size();
  b.text("$MeshFormat\n4.1 1 8\n").put<std::int32_t>(1).text("\n$EndMeshFormat\n");
  b.text("$Nodes\n").put<std::uint64_t>(2).put<std::uint64_t>(n).put<std::uint64_t>(1).put<std::uint64_t>(n);
  b.put<std::int32_t>(2).put<std::int32_t>(1).put<std::int32_t>(0).put<std::uint64_t>(n);
  for (auto tag : t.node_tags) b.put<std::uint64_t>(tag);
  for (std::size_t i = 0; i < n; ++i)
    for (int c = 0; c < 3; ++c) b.put<double>(t.x(i, c));
  b.put<std::int32_t>(1).put<std::int32_t>(4).put<std::int32_t>(0).put<std::uint64_t>(0);  // an empty block
  b.text("\n$EndNodes\n$Elements\n").put<std::uint64_t>(2).put<std::uint64_t>(m).put<std::uint64_t>(1).put<std::uint64_t>(m);
  b.put<std::int32_t>(1).put<std::int32_t>(4).put<std::int32_t>(1).put<std::uint64_t>(0);  // 0 lines
  b.put<std::int32_t>(2).put<std::int32_t>(1).put<std::int32_t>(2).put<std::uint64_t>(m);
  for (std::size_t e = 0; e < m; ++e) {
    b.put<std::uint64_t>(t.elem_tags[e]);
    for (auto tag : t.tris[e]) b.put<std::uint64_t>(tag);
  }
  b.text("\n$EndElements\n$ElementData\n1\n\"d\"\n1\n0.0\n3\n0\n1\n1\n");
  b.put<std::int32_t>(static_cast<std::int32_t>(t.elem_tags.back())).put<double>(4.5);
  b.text("\n$EndElementData\n");
  return b.s;
}

// MSH 2.2 binary: the nodes, then the triangles in a group and in one-element groups
// (physical tag 3, elementary tag 1000 + part) and $ElementData naming the last element.
std::string big_msh22(const TagMesh& t, bool big) {
  Bin b{big, {}};
  const std::size_t n = t.node_tags.size(), m = t.tris.size();
  b.text("$MeshFormat\n2.2 1 8\n").put<std::int32_t>(1).text("\n$EndMeshFormat\n");
  b.text("$Nodes\n" + std::to_string(n) + "\n");
  for (std::size_t i = 0; i < n; ++i) {
    b.put<std::int32_t>(static_cast<std::int32_t>(t.node_tags[i]));
    for (int c = 0; c < 3; ++c) b.put<double>(t.x(i, c));
  }
  b.text("\n$EndNodes\n$Elements\n" + std::to_string(m) + "\n");
  const std::size_t cut = m / 3;
  for (std::size_t g = 0; g < 2; ++g) {
    const std::size_t e0 = g ? cut : 0, e1 = g ? m : cut;
    // The first group whole, the second as Gmsh writes groups: one element each.
    if (g == 0) b.put<std::int32_t>(2).put<std::int32_t>(static_cast<std::int32_t>(e1 - e0)).put<std::int32_t>(2);
    for (std::size_t e = e0; e < e1; ++e) {
      if (g == 1) b.put<std::int32_t>(2).put<std::int32_t>(1).put<std::int32_t>(2);
      b.put<std::int32_t>(static_cast<std::int32_t>(t.elem_tags[e])).put<std::int32_t>(3).put<std::int32_t>(static_cast<std::int32_t>(1000 + g));
      for (auto tag : t.tris[e]) b.put<std::int32_t>(static_cast<std::int32_t>(tag));
    }
  }
  b.text("\n$EndElements\n$ElementData\n1\n\"d\"\n1\n0.0\n3\n0\n1\n1\n");
  b.put<std::int32_t>(static_cast<std::int32_t>(t.elem_tags.back())).put<double>(4.5);
  b.text("\n$EndElementData\n");
  return b.s;
}

// MSH 4.1 ASCII of the same mesh (coordinates written exactly: multiples of 0.5).
std::string big_msh41_ascii(const TagMesh& t) {
  std::string s = "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n2 " + std::to_string(t.node_tags.size()) + " 1 " +
                  std::to_string(t.node_tags.size()) + "\n2 1 0 " + std::to_string(t.node_tags.size()) + "\n";
  for (auto tag : t.node_tags) s += std::to_string(tag) + "\n";
  for (std::size_t i = 0; i < t.node_tags.size(); ++i)
    s += std::to_string(t.x(i, 0)) + " " + std::to_string(t.x(i, 1)) + " " + std::to_string(t.x(i, 2)) + "\n";
  s += "1 4 0 0\n$EndNodes\n$Elements\n1 " + std::to_string(t.tris.size()) + " 1 " + std::to_string(t.tris.size()) + "\n2 1 2 " +
       std::to_string(t.tris.size()) + "\n";
  for (std::size_t e = 0; e < t.tris.size(); ++e)
    s += std::to_string(t.elem_tags[e]) + " " + std::to_string(t.tris[e][0]) + " " + std::to_string(t.tris[e][1]) + " " +
         std::to_string(t.tris[e][2]) + "\n";
  return s + "$EndElements\n";
}

void expect_tag_mesh(const mpp::Mesh& m, const TagMesh& t, const std::string& where) {
  SCOPED_TRACE(where);
  ASSERT_EQ(m.points.dim(0), t.node_tags.size());
  EXPECT_EQ(m.points.value_as_double(3 * 17 + 2), t.x(17, 2));
  std::size_t b = 0;
  while (b < m.cells.size() && m.cells[b].type != "triangle") ++b;
  ASSERT_LT(b, m.cells.size());
  EXPECT_EQ(ints(m.cells[b].connectivity), expected_conn(t));
}

}  // namespace

TEST(GmshBulk, BinaryRowsAnyNodeTagsAnyElementTagsBothByteOrdersAnyThreads) {
  const std::size_t nodes = 5000, elems = 70000;
  for (NodeTags kind : {NodeTags::identity, NodeTags::shuffled, NodeTags::sparse})
    for (bool reversed : {false, true}) {
      const TagMesh t = tag_mesh(kind, nodes, elems, 11, reversed);
      for (bool big : {false, true})
        for (int version : {41, 22}) {
          const std::string path = write_file("bulk.msh", version == 41 ? big_msh41(t, big) : big_msh22(t, big));
          for (const char* threads : {"1", "3", "8"}) {
            const std::string where = "kind " + std::to_string(static_cast<int>(kind)) + " reversed " + std::to_string(reversed) +
                                      " big " + std::to_string(big) + " v" + std::to_string(version) + " threads " + threads;
            const mpp::Mesh m = mpp::read(path, "gmsh", {{"threads", threads}});
            expect_tag_mesh(m, t, where);
            // $ElementData found the last element by its tag: the element tag table is right.
            const auto& d = m.cell_data.at("d");
            const mpp::NDArray& last = d.back();
            EXPECT_EQ(last.value_as_double(last.size() - 1), 4.5) << where;
            EXPECT_TRUE(std::isnan(last.value_as_double(0))) << where;
            if (version == 22) {
              const auto& geom = m.cell_data.at("gmsh:geometrical");
              ASSERT_EQ(geom.size(), 1u);
              EXPECT_EQ(geom[0].value_as_int64(0), 1000) << where;
              EXPECT_EQ(geom[0].value_as_int64(elems - 1), 1001) << where;
              EXPECT_EQ(m.cell_data.at("gmsh:physical")[0].value_as_int64(elems / 2), 3) << where;
            }
          }
        }
    }
}

// Reading `path` on one thread and on four raises the same ReadError: `message`, at `byte`.
void expect_error_at_byte(const std::string& path, const std::string& message, std::size_t byte) {
  for (const char* threads : {"1", "4"}) {
    std::string msg;
    try {
      mpp::read(path, "gmsh", {{"threads", threads}});
    } catch (const mpp::ReadError& e) {
      msg = e.what();
    }
    EXPECT_NE(msg.find(message), std::string::npos) << msg << " (threads " << threads << ")";
    EXPECT_NE(msg.find("byte " + std::to_string(byte) + ")"), std::string::npos) << msg << " want byte " << byte;
  }
}

TEST(GmshBulk, BadNodeTagDeepInAParallelBlockIsTheFirstInFileOrder) {
  for (int version : {41, 22}) {
    TagMesh t = tag_mesh(NodeTags::identity, 4000, 70000, 1, false);
    t.tris[61000][1] = 999999;  // in the last piece
    t.tris[40000][2] = 888888;  // the first bad tag in the file, in a middle piece
    const std::string bytes = version == 41 ? big_msh41(t, false) : big_msh22(t, false);
    const std::string path = write_file("badtag.msh", bytes);
    // Its byte offset: row 40000's third node tag.
    Bin needle{false, {}};
    if (version == 41) needle.put<std::uint64_t>(40001).put<std::uint64_t>(t.tris[40000][0]).put<std::uint64_t>(t.tris[40000][1]);
    else needle.put<std::int32_t>(40001).put<std::int32_t>(3).put<std::int32_t>(1001).put<std::int32_t>(static_cast<std::int32_t>(t.tris[40000][0]))
             .put<std::int32_t>(static_cast<std::int32_t>(t.tris[40000][1]));
    const auto at = bytes.find(needle.s) + needle.s.size();
    expect_error_at_byte(path, "node tag 888888 does not exist in $Nodes", at);
  }
}

TEST(GmshBulk, NegativeNodeTagOfA22BinaryFileIsTheFirstInFileOrderAtItsByte) {
  TagMesh t = tag_mesh(NodeTags::identity, 200000, 1000, 1, false);  // 5.6 MB of node rows: ranges of chunks
  t.node_tags[190000] = static_cast<std::uint32_t>(-9);  // a later range
  t.node_tags[110000] = static_cast<std::uint32_t>(-5);  // the first one in the file
  const std::string bytes = big_msh22(t, false);
  const std::string path = write_file("negative.msh", bytes);
  const std::string head = "$Nodes\n" + std::to_string(t.node_tags.size()) + "\n";
  const std::size_t at = bytes.find(head) + head.size() + 28 * 110000;
  expect_error_at_byte(path, "node tag -5 is negative", at);
}

TEST(GmshBulk, TruncatedBinaryBlocksAreReadErrors) {
  const TagMesh t = tag_mesh(NodeTags::identity, 3000, 40000, 1, false);
  for (int version : {41, 22}) {
    const std::string full = version == 41 ? big_msh41(t, false) : big_msh22(t, false);
    const std::size_t elements = full.find("$Elements");
    // Cut inside the node coordinates and inside the element rows.
    for (std::size_t cut : {full.find("$Nodes") + 5000, elements + 100000}) {
      const std::string path = write_file("trunc.msh", full.substr(0, cut));
      const std::string msg = read_error(path);
      EXPECT_NE(msg.find(path), std::string::npos) << msg;
      EXPECT_NE(msg.find("byte "), std::string::npos) << msg;
      EXPECT_NE(msg.find(cut < elements ? "nodes" : "elements"), std::string::npos) << msg;
    }
  }
}

TEST(GmshBulk, AsciiNodesOnAllThreadsMatchOneThread) {
  const TagMesh t = tag_mesh(NodeTags::sparse, 50000, 40000, 1, false);
  const std::string text = big_msh41_ascii(t);
  const std::string path = write_file("ascii_nodes.msh", text);
  const mpp::Mesh one = mpp::read(path, "gmsh", {{"threads", "1"}});
  expect_tag_mesh(one, t, "threads 1");
  for (const char* threads : {"2", "5", "16"}) expect_same(one, mpp::read(path, "gmsh", {{"threads", threads}}));
  // Tags not one per line: the cut is refused and the block parsed in order, same result.
  std::string joined = text;
  const std::size_t first = joined.find("\n", joined.find("2 1 0 50000")) + 1;
  for (std::size_t i = first, k = 0; k < 49999; ++k) {
    i = joined.find('\n', i);
    joined[i] = ' ';
  }
  expect_same(one, mpp::read(write_file("ascii_joined.msh", joined), "gmsh", {{"threads", "4"}}));
  // A bad coordinate deep in the block: the same error, naming its line, on any thread count.
  std::string bad = text;
  const std::string row = std::to_string(t.x(45000, 0)) + " " + std::to_string(t.x(45000, 1));
  const std::size_t at = bad.find("\n" + row + " ") + 1 + row.size() - 3;
  bad[at] = 'x';
  const std::string bad_path = write_file("ascii_bad.msh", bad);
  const std::string msg1 = read_error(bad_path);
  std::string msg4;
  try {
    mpp::read(bad_path, "gmsh", {{"threads", "4"}});
  } catch (const mpp::ReadError& e) {
    msg4 = e.what();
  }
  EXPECT_NE(msg1.find("expected y coordinate"), std::string::npos) << msg1;
  EXPECT_NE(msg1.find("line " + std::to_string(5 + 1 + 50000 + 45000 + 1)), std::string::npos) << msg1;
  EXPECT_EQ(msg1, msg4);
}

TEST(GmshBulk, BinaryWritesInBatchesRoundTrip) {
  // More rows than one write batch holds, a permuted type, and a block split between two
  // entities (rows written from a list of cells).
  const std::size_t cells = 100000, nodes = 3000;
  mpp::Mesh m;
  m.points = mpp::NDArray::uninit(mpp::DType::float64, {nodes, 3});
  for (std::size_t i = 0; i < 3 * nodes; ++i) m.points.data<double>()[i] = static_cast<double>(i) * 0.25;
  mpp::NDArray conn = mpp::NDArray::uninit(mpp::DType::int32, {cells, 10});
  std::mt19937 rng(7);
  for (std::size_t i = 0; i < 10 * cells; ++i) conn.data<std::int32_t>()[i] = static_cast<std::int32_t>(rng() % nodes);
  m.cells.push_back(mpp::CellBlock::rectangular("tetra10", conn));
  mpp::NDArray geom = mpp::NDArray::uninit(mpp::DType::int32, {cells});
  for (std::size_t i = 0; i < cells; ++i) geom.data<std::int32_t>()[i] = i % 3 == 0 ? 5 : 6;
  m.cell_data["gmsh:geometrical"] = {geom};
  for (const char* version : {"4.1", "2.2", "4.0"}) {
    const std::string path = (tmp_dir() / "batches.msh").string();
    mpp::write(path, m, "gmsh", {{"fmt_version", version}, {"binary", "true"}});
    const mpp::Mesh back = mpp::read(path, "gmsh");
    EXPECT_EQ(doubles(back.points), doubles(m.points)) << version;
    // Back in entity order: the cells of entity 5, then of entity 6 (4.x), or in order (2.2).
    std::vector<std::int64_t> want;
    for (int pass : {5, 6})
      for (std::size_t i = 0; i < cells; ++i)
        if (std::string(version) == "2.2" ? pass == 5 : (i % 3 == 0) == (pass == 5))
          for (int k = 0; k < 10; ++k) want.push_back(conn.data<std::int32_t>()[10 * i + static_cast<std::size_t>(k)]);
    std::vector<std::int64_t> got;
    for (const auto& b : back.cells) {
      ASSERT_EQ(b.type, "tetra10");
      for (auto v : ints(b.connectivity)) got.push_back(v);
    }
    EXPECT_EQ(got, want) << version;
  }
}
