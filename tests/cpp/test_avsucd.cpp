// AVS-UCD: round trips of every linear type with point and cell data, a hand-written file
// (comments, sparse ids in any order, AVS node orders, data labels with spaces), errors
// that name the line, counts that lie, writer errors, and every truncated prefix / some
// corruptions.
#include <gtest/gtest.h>

#include "test_vtk_common.hpp"

using namespace vtktest;

namespace {

std::string outcome_of(const std::string& text) { return outcome_of_string(text, "avsucd", "outcome.avs"); }

// Two cells: a tet with nodes 10 20 30 40 (AVS order) and a pyramid whose apex comes first.
const std::string kHand =
    "# a comment\n"
    "# another\n"
    "6 2 4 1 0\n"
    "40 0 0 1\n10 0 0 0\n20 1 0 0\n30 0 1 0\n50 1 1 0\n60 0.5 0.5 1\n"
    "7 3 tet 10 20 30 40\n"
    "5 4 pyr 60 10 20 50 30\n"
    "2 1 3\n"
    "temp erature, K\n"
    "velocity, m/s\n"
    "10 1.5 1 2 3\n20 2.5 4 5 6\n30 3.5 7 8 9\n40 4.5 0 0 0\n50 5.5 1 1 1\n60 6.5 2 2 2\n"
    "1 1\n"
    "pressure, Pa\n"
    "5 -2\n7 -1\n";

}  // namespace

TEST(AvsucdRead, HandWrittenFile) {
  const auto m = read_string(kHand, "avsucd", "hand.avs");
  ASSERT_EQ(m.cells.size(), 2u);
  EXPECT_EQ(m.cells[0].type, "tetra");
  // file order 10 20 30 40 is meshio's 0 1 3 2; points are in file order: 40->0, 10->1, 20->2, 30->3
  EXPECT_EQ(ints_of(m.cells[0].connectivity), (std::vector<std::int64_t>{1, 2, 0, 3}));
  EXPECT_EQ(m.cells[1].type, "pyramid");
  EXPECT_EQ(ints_of(m.cells[1].connectivity), (std::vector<std::int64_t>{1, 2, 4, 3, 5}));
  EXPECT_EQ(ints_of(m.cell_data.at("avsucd:material")[0]), (std::vector<std::int64_t>{3}));
  EXPECT_EQ(ints_of(m.cell_data.at("avsucd:material")[1]), (std::vector<std::int64_t>{4}));
  EXPECT_EQ(doubles_of(m.point_data.at("temp_erature")), (std::vector<double>{4.5, 1.5, 2.5, 3.5, 5.5, 6.5}));
  ASSERT_EQ(m.point_data.at("velocity").dim(1), 3u);
  EXPECT_EQ(doubles_of(m.point_data.at("velocity"))[3], 1.0);
  EXPECT_EQ(doubles_of(m.cell_data.at("pressure")[0]), (std::vector<double>{-1}));
  EXPECT_EQ(doubles_of(m.cell_data.at("pressure")[1]), (std::vector<double>{-2}));
}

TEST(AvsucdRoundTrip, EveryLinearTypeWithData) {
  mpp::Mesh m = linear_mix();
  std::vector<double> s(m.num_points());
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = 0.1 * static_cast<double>(i) - 1.0 / 3.0;
  m.point_data["a b"] = NDArray::from_vector(s);
  for (const auto& b : m.cells) {
    std::vector<std::int32_t> mat(b.size(), 9);
    std::vector<double> v(2 * b.size(), 0.25);
    m.cell_data["mat"].push_back(NDArray::from_vector(mat));
    m.cell_data["v"].push_back(NDArray::from_vector(v, {b.size(), 2}));
  }
  const std::string path = tmp_path("rt.avs");
  mpp::write(path, m, "avsucd");
  const auto back = mpp::read(path, "avsucd");
  EXPECT_EQ(compare_arrays("points", m.points, back.points), "");
  ASSERT_EQ(back.cells.size(), m.cells.size());
  for (std::size_t b = 0; b < m.cells.size(); ++b) {
    EXPECT_EQ(back.cells[b].type, m.cells[b].type);
    EXPECT_EQ(compare_arrays(m.cells[b].type, m.cells[b].connectivity, back.cells[b].connectivity, false), "");
    EXPECT_EQ(ints_of(back.cell_data.at("avsucd:material")[b]), std::vector<std::int64_t>(m.cells[b].size(), 9));
    EXPECT_EQ(doubles_of(back.cell_data.at("v")[b]), std::vector<double>(2 * m.cells[b].size(), 0.25));
  }
  EXPECT_EQ(doubles_of(back.point_data.at("a_b")), s);
  EXPECT_EQ(back.cell_data.count("mat"), 0u);  // it is the material column now
}

TEST(AvsucdRead, ErrorsNameTheLine) {
  const auto rep = [](const std::string& from, const std::string& to) { return replaced(kHand, from, to); };
  const std::vector<std::pair<std::string, std::string>> cases = {
      {rep("tet 10", "tetx 10"), "expected a cell type (pt, line, tri, quad, tet, pyr, prism, hex), found 'tetx'"},
      {rep("tet 10 20", "tet 10 21"), "node id 21 is not defined"},
      {rep("40 0 0 1", "40 0 x 1"), "expected a node coordinate, found 'x'"},
      {rep("6 2 4 1 0", "6000000 2 4 1 0"), "declared 6000000 nodes"},
      {rep("6 2 4 1 0", "6 2000000 4 1 0"), "declared 2000000 cells"},
      {rep("2 1 3\n", "2 1 3000000000\n"), "declared 3000000000 node data values"},
      {rep("5 -2", "9 -2"), "cell data: cell id 9 is not defined"},
      {rep("7 -1\n", "7 q\n"), "expected a cell data value, found 'q'"},
  };
  for (const auto& [text, needle] : cases) expect_read_error(outcome_of(text), needle, "line ");
}

TEST(AvsucdWrite, UnknownCellTypeIsAWriteErrorAndLeavesTheFile) {
  mpp::Mesh m = tri_mesh();
  m.cells.push_back(rect("triangle6", 6, 1));
  const std::string path = tmp_path("t6.avs");
  spit(path, "keep me");
  try {
    mpp::write(path, m, "avsucd");
    FAIL() << "no WriteError";
  } catch (const mpp::WriteError& e) {
    EXPECT_NE(std::string(e.what()).find("cell block 1 is 'triangle6'"), std::string::npos) << e.what();
  }
  EXPECT_EQ(slurp(path), "keep me");
}

TEST(AvsucdFuzz, EveryPrefixAndCorruptionIsAMeshOrReadError) {
  const std::size_t files = sweep(kHand, "avsucd", "fuzz_probe.avs", Sweep::xor_each(1, 1, {0x01, 0x10, 0x80}).validating()).files;
  EXPECT_GT(files, 1000u);
}
