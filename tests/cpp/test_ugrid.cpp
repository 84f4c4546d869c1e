// UGRID: the hand-made fixtures (ASCII, big-endian Fortran records, little-endian float32)
// read as the layout says; every variant round trips through the writer; pyramids in VTK
// order; record markers that lie or do not close; counts that lie; indices out of range;
// every truncated prefix of a binary and an ASCII file.
#include <gtest/gtest.h>

#include "test_vtk_common.hpp"

using namespace vtktest;

namespace {

const std::vector<std::string> kVariants = {"", "b8.", "b4.", "lb8.", "lb4.", "r8.", "r4.", "lr8.", "lr4.", "b8l.", "lb8l."};

// The fixtures' mesh in VTK order, 0-based: the hexahedron, and the pyramid on its top.
void expect_fixture_mesh(const mpp::Mesh& m) {
  ASSERT_EQ(m.points.dim(0), 9u);
  EXPECT_EQ(points_of(m)[8 * 3 + 2], 2.0);
  ASSERT_EQ(m.cells.size(), 4u);
  EXPECT_EQ(m.cells[0].type, "triangle");
  EXPECT_EQ(ints_of(m.cells[0].connectivity), (std::vector<std::int64_t>{4, 5, 8, 5, 6, 8}));
  EXPECT_EQ(m.cells[1].type, "quad");
  EXPECT_EQ(m.cells[2].type, "pyramid");
  EXPECT_EQ(ints_of(m.cells[2].connectivity), (std::vector<std::int64_t>{4, 5, 6, 7, 8}));
  EXPECT_EQ(m.cells[3].type, "hexahedron");
  EXPECT_EQ(ints_of(m.cells[3].connectivity), (std::vector<std::int64_t>{0, 1, 2, 3, 4, 5, 6, 7}));
  const auto& ref = m.cell_data.at("ugrid:ref");
  ASSERT_EQ(ref.size(), 4u);
  EXPECT_EQ(ints_of(ref[0]), (std::vector<std::int64_t>{3, 4}));
  EXPECT_EQ(ints_of(ref[1]), (std::vector<std::int64_t>{7}));
  EXPECT_EQ(ints_of(ref[3]), (std::vector<std::int64_t>{0}));
  ASSERT_NE(region(m, "ugrid_ref_2_7"), nullptr);
  EXPECT_EQ(ints_of(region(m, "ugrid_ref_2_7")->entries), (std::vector<std::int64_t>{2}));
  EXPECT_EQ(region(m, "ugrid_ref_3_0"), nullptr);
}

mpp::Mesh all_types() {
  mpp::Mesh m;
  m.points = grid_points();
  m.cells.push_back(rect("triangle", 3, 4));
  m.cells.push_back(rect("quad", 4, 2));
  m.cells.push_back(rect("tetra", 4, 3));
  m.cells.push_back(rect("pyramid", 5, 2));
  m.cells.push_back(rect("wedge", 6, 2));
  m.cells.push_back(rect("hexahedron", 8, 2));
  m.cell_data["ugrid:ref"] = {i64({1, 2, 3, 4}, {4}), i64({5, 6}, {2}), i64({0, 0, 0}, {3}), i64({0, 0}, {2}), i64({0, 0}, {2}), i64({0, 0}, {2})};
  return m;
}

}  // namespace

TEST(UgridRead, FixturesOfThreeVariants) {
  for (const char* name : {"ascii_cube_pyramid.ugrid", "big-endian-with-record-markers.r8.ugrid", "little-endian-single.lb4.ugrid"}) {
    SCOPED_TRACE(name);
    const auto m = mpp::read(data_path("ugrid", name));
    expect_fixture_mesh(m);
    EXPECT_TRUE(m.warnings.empty());
  }
  EXPECT_EQ(mpp::read(data_path("ugrid", "little-endian-single.lb4.ugrid")).points.dtype(), mpp::DType::float32);
  EXPECT_EQ(mpp::read(data_path("ugrid", "big-endian-with-record-markers.r8.ugrid")).cell_data.at("ugrid:ref")[0].dtype(), mpp::DType::int32);
}

TEST(UgridRoundTrip, EveryVariantKeepsEveryTypeAndTheSurfaceIds) {
  const auto m = all_types();
  for (const auto& v : kVariants) {
    SCOPED_TRACE(v);
    const std::string path = tmp_path("rt." + v + "ugrid");
    mpp::write(path, m);
    const auto back = mpp::read(path, "", {{"threads", "3"}});
    ASSERT_EQ(back.cells.size(), m.cells.size());
    for (std::size_t b = 0; b < m.cells.size(); ++b) {
      EXPECT_EQ(back.cells[b].type, m.cells[b].type);
      EXPECT_EQ(compare_arrays("cells", m.cells[b].connectivity, back.cells[b].connectivity, false), "");
      EXPECT_EQ(compare_arrays("ref", m.cell_data.at("ugrid:ref")[b], back.cell_data.at("ugrid:ref")[b], false), "");
    }
    // 4-byte reals: the float32 of each coordinate
    for (std::size_t i = 0; i < m.points.size(); ++i)
      EXPECT_EQ(back.points.value_as_double(i),
                v.find('4') != std::string::npos ? static_cast<double>(static_cast<float>(m.points.value_as_double(i))) : m.points.value_as_double(i));
  }
}

TEST(UgridRoundTrip, PyramidFileOrderAndFortranMarkers) {
  mpp::Mesh m;
  m.points = grid_points();
  m.cells.push_back(mpp::CellBlock::rectangular("pyramid", i64({10, 11, 12, 13, 14}, {1, 5})));
  const std::string path = tmp_path("pyr.r8.ugrid");
  mpp::write(path, m);
  const std::string bytes = slurp(path);
  // record 1: 28, seven counts, 28; record 2: 27*24 + 5*4 bytes
  auto be32 = [&](std::size_t at) {
    return (static_cast<unsigned char>(bytes[at]) << 24) | (static_cast<unsigned char>(bytes[at + 1]) << 16) |
           (static_cast<unsigned char>(bytes[at + 2]) << 8) | static_cast<unsigned char>(bytes[at + 3]);
  };
  EXPECT_EQ(be32(0), 28);
  EXPECT_EQ(be32(32), 28);
  EXPECT_EQ(be32(36), 27 * 24 + 20);
  EXPECT_EQ(be32(bytes.size() - 4), 27 * 24 + 20);
  // UGRID's pyramid order: VTK 10 11 12 13 14 (1-based 11..15) -> 12 11 15 13 14
  const std::size_t conn = 40 + 27 * 24;
  EXPECT_EQ((std::vector<int>{be32(conn), be32(conn + 4), be32(conn + 8), be32(conn + 12), be32(conn + 16)}),
            (std::vector<int>{12, 11, 15, 13, 14}));
}

TEST(UgridRead, ErrorsNameTheFileAndWhere) {
  const std::string ascii = slurp(data_path("ugrid", "ascii_cube_pyramid.ugrid"));
  expect_read_error(outcome_of_string(replaced(ascii, "6 7 9", "6 7 10"), "ugrid", "e1.ugrid"), "e1.ugrid: line 12",
                    "triangle 2 lists node 10, outside 1..9");
  expect_read_error(outcome_of_string(replaced(ascii, "9 2 1 0 1 0 1", "9 2 1 0 1 0 x"), "ugrid", "e2.ugrid"), "line 1",
                    "expected hexahedron count");
  std::string r8 = slurp(data_path("ugrid", "big-endian-with-record-markers.r8.ugrid"));
  std::string bad = r8;
  bad[bad.size() - 1] ^= 1;  // the closing marker of the second record
  expect_read_error(outcome_of_string(bad, "ugrid", "e3.r8.ugrid"), "e3.r8.ugrid", "expected the closing record marker");
  bad = r8;
  bad[4 + 4 * 3 + 3] = 100;  // 100 tetrahedra, more than the bytes hold
  expect_read_error(outcome_of_string(bad, "ugrid", "e4.r8.ugrid"), "e4.r8.ugrid", "but only");
  bad = r8;
  bad[4 + 3] = static_cast<char>(0xff), bad[4 + 2] = static_cast<char>(0xff), bad[4 + 1] = static_cast<char>(0xff), bad[4] = static_cast<char>(0xff);
  expect_read_error(outcome_of_string(bad, "ugrid", "e5.r8.ugrid"), "byte 4", "expected a node count from 0 to 2^48, found -1");
}

TEST(UgridRead, WrongFramingCountsAreReadWithAWarning) {
  // meshio 5 writes 56 for the counts' record (seven int64s' worth) and its own guess for the
  // second record; the data is what the layout says.
  std::string r8 = slurp(data_path("ugrid", "big-endian-with-record-markers.r8.ugrid"));
  r8[3] = 56, r8[32 + 3] = 56;
  const std::string path = tmp_path("w.r8.ugrid");
  spit(path, r8);
  const auto m = mpp::read(path);
  expect_fixture_mesh(m);
  EXPECT_TRUE(has_warning(m, "record marker says 56 bytes"));
}

TEST(UgridRead, EveryTruncationOrCorruptionIsAMeshOrAReadError) {
  const auto a = sweep(slurp(data_path("ugrid", "ascii_cube_pyramid.ugrid")), "ugrid", "s.ugrid", Sweep::set_each(1, 1, {'0', '9', ' ', 'x', '-'}).validating());
  const auto b = sweep(slurp(data_path("ugrid", "big-endian-with-record-markers.r8.ugrid")), "ugrid", "s.r8.ugrid",
                       Sweep::xor_each(1, 1, {0x01, 0x80, 0xff}).validating());
  EXPECT_GT(a.meshes, 0u);
  EXPECT_GT(b.meshes, 0u);
}

TEST(UgridWrite, SkipsWhatUgridCannotHoldAndJoinsBlocksOfOneType) {
  mpp::Mesh m = all_types();
  m.cell_data.clear();
  m.cells.push_back(rect("line", 2, 3));
  m.cells.push_back(rect("triangle", 3, 2, 1));
  mpp::take_warnings();
  const std::string path = tmp_path("skip.lb8.ugrid");
  mpp::write(path, m);
  const auto w = mpp::take_warnings();
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("line"), std::string::npos);
  const auto back = mpp::read(path);
  EXPECT_EQ(back.cells[0].size(), 6u);  // 4 + 2 triangles
  EXPECT_EQ(ints_of(back.cell_data.at("ugrid:ref")[0]), std::vector<std::int64_t>(6, 1));  // no IDs: 1, as meshio
  mpp::Mesh flat;
  flat.points = grid_points(2);
  flat.cells.push_back(rect("triangle", 3, 1));
  mpp::write(tmp_path("flat.ugrid"), flat);
  EXPECT_EQ(points_of(mpp::read(tmp_path("flat.ugrid")))[2], 0.0);
}
