// OFF: round trips (triangles, quads, polygons rectangular and ragged), comments anywhere,
// counts on the header line, per-face colours of 1/3/4 columns, COFF / NOFF / STOFF vertex
// extras, errors that name the line, counts that lie, writer errors, and every truncated
// prefix / some corruptions.
#include <gtest/gtest.h>

#include <cmath>

#include "test_vtk_common.hpp"

using namespace vtktest;

namespace {

mpp::Mesh read_text(const std::string& text) { return read_string(text, "off", "x.off"); }
std::string outcome_of(const std::string& text) { return outcome_of_string(text, "off", "outcome.off"); }

mpp::Mesh faces_mesh() {
  mpp::Mesh m;
  m.points = grid_points();
  m.cells.push_back(mpp::CellBlock::rectangular("triangle", i64({0, 1, 4, 0, 4, 3}, {2, 3})));
  m.cells.push_back(mpp::CellBlock::rectangular("quad", i64({1, 2, 5, 4}, {1, 4})));
  m.cells.push_back(mpp::CellBlock::rectangular("polygon", i64({0, 1, 2, 5, 4, 9, 10, 11, 14, 13}, {2, 5})));
  m.cells.push_back(mpp::CellBlock::rectangular("triangle", i64({6, 7, 8}, {1, 3})));
  return m;
}

}  // namespace

TEST(OffRoundTrip, FaceBlocksKeepTheirOrder) {
  const auto m = faces_mesh();
  const std::string path = tmp_path("rt.off");
  mpp::write(path, m, "off");
  EXPECT_EQ(slurp(path).rfind("OFF\n", 0), 0u);
  EXPECT_EQ(compare_meshes(m, mpp::read(path, "off")), "");
}

TEST(OffRoundTrip, RaggedPolygonsComeBackAsRunsOfEqualSize) {
  mpp::Mesh m;
  m.points = grid_points();
  // sizes 5, 5, 6, 3: runs -> polygon (2, 5), polygon (1, 6), triangle (1, 3)
  m.cells.push_back(mpp::CellBlock::polygons(i64({0, 5, 10, 16, 19}, {5}),
                                             i64({0, 1, 2, 5, 4, 3, 4, 7, 6, 9, 10, 11, 14, 17, 16, 15, 1, 2, 3}, {19})));
  const std::string path = tmp_path("ragged.off");
  mpp::write(path, m, "off");
  const auto back = mpp::read(path, "off");
  ASSERT_EQ(back.cells.size(), 3u);
  EXPECT_EQ(back.cells[0].type, "polygon");
  EXPECT_EQ(compare_arrays("p5", back.cells[0].connectivity, i64({0, 1, 2, 5, 4, 3, 4, 7, 6, 9}, {2, 5}), false), "");
  EXPECT_EQ(back.cells[1].type, "polygon");
  EXPECT_EQ(compare_arrays("p6", back.cells[1].connectivity, i64({10, 11, 14, 17, 16, 15}, {1, 6}), false), "");
  EXPECT_EQ(back.cells[2].type, "triangle");
}

TEST(OffRead, CommentsColoursAndHeaderCounts) {
  const std::string text =
      "OFF 4 3 0 # counts on the header line\n"
      "# a comment line\n"
      "0 0 0\n1 0 0 # trailing comment\n\n0 1 0\n0 0 1\n"
      "3 0 1 2 255 0 0\n"        // RGB
      "3 0 1 3\n"                // no colour
      "3 1 2 3 0.5 0.5 0.5 1 # RGBA\n";
  const auto m = read_text(text);
  ASSERT_EQ(m.cells.size(), 1u);
  EXPECT_EQ(compare_arrays("tri", m.cells[0].connectivity, i64({0, 1, 2, 0, 1, 3, 1, 2, 3}, {3, 3}), false), "");
  const NDArray& c = m.cell_data.at("face_colors")[0];
  ASSERT_EQ(c.shape(), (NDArray::Shape{3, 4}));
  EXPECT_EQ(c.value_as_double(0), 255.0);
  EXPECT_TRUE(std::isnan(c.value_as_double(3)));  // RGB: no alpha
  for (int k = 4; k < 8; ++k) EXPECT_TRUE(std::isnan(c.value_as_double(k)));
  EXPECT_EQ(c.value_as_double(11), 1.0);
  EXPECT_EQ(m.points.value_as_double(3 * 3 + 2), 1.0);

  // Written back: the colours come back; a face without one stays without.
  const std::string path = tmp_path("colours.off");
  mpp::write(path, m, "off");
  EXPECT_NE(slurp(path).find("\n3 0 1 3\n"), std::string::npos);
  EXPECT_EQ(compare_meshes(m, mpp::read(path, "off")), "");
}

TEST(OffRead, VertexExtrasOfCoffNoffStoff) {
  const auto m = read_text("STCNOFF\n2 1 0\n0 0 0  0 0 1  1 0 0 1  0.5 0.25\n1 1 1  0 1 0  0 1 0 1  1 0\n2 0 1\n");
  EXPECT_EQ(compare_arrays("n", m.point_data.at("vertex_normals"), NDArray::from_vector<double>({0, 0, 1, 0, 1, 0}, {2, 3})), "");
  EXPECT_EQ(compare_arrays("c", m.point_data.at("vertex_colors"), NDArray::from_vector<double>({1, 0, 0, 1, 0, 1, 0, 1}, {2, 4})), "");
  EXPECT_EQ(compare_arrays("t", m.point_data.at("vertex_texture_coordinates"), NDArray::from_vector<double>({0.5, 0.25, 1, 0}, {2, 2})), "");
  EXPECT_EQ(m.cells[0].type, "line");
  // COFF written back with its colours, read again equal.
  mpp::Mesh tri;
  tri.points = NDArray::from_vector<double>({0, 0, 0, 1, 0, 0, 0, 1, 0}, {3, 3});
  tri.cells.push_back(mpp::CellBlock::rectangular("triangle", i64({0, 1, 2}, {1, 3})));
  tri.point_data["vertex_colors"] = NDArray::from_vector<double>({1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 0.5}, {3, 4});
  const std::string path = tmp_path("coff.off");
  mpp::write(path, tri, "off");
  EXPECT_EQ(slurp(path).rfind("COFF\n", 0), 0u);
  EXPECT_EQ(compare_meshes(tri, mpp::read(path, "off")), "");
}

TEST(OffMalformed, ErrorsNameTheLine) {
  const std::string good = "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
  ASSERT_EQ(outcome_of(good), "mesh");
  auto rep = [&](const std::string& from, const std::string& to) { return replaced(good, from, to); };
  const std::vector<std::pair<std::string, std::string>> cases = {
      {rep("OFF", "PLY"), "expected an OFF header keyword"},
      {rep("OFF", "4OFF"), "4-D and n-D vertices (4OFF) are not supported"},
      {rep("OFF\n", "OFF BINARY\n"), "binary OFF is not supported"},
      {rep("3 0 1 2", "3 0 1 3"), "vertex index 3 is outside [0, 3)"},
      {rep("3 0 1 2", "3 0 1 3"), "line 6"},
      {rep("3 0 1 2", "0 1 2 3"), "face 0 has no vertices"},
      {rep("3 0 1 2", "3 0 1 2 0.5 0.5"), "a colour has 1, 3 or 4 components, found 2"},
      {rep("3 0 1 2", "3 0 1 2 1 2 3 4 5"), "found more"},
      {rep("1 0 0\n", "1 x 0\n"), "expected a vertex coordinate, found 'x'"},
      {rep("1 0 0\n", "1 x 0\n"), "line 4"},
      {rep("3 1 0", "3000000 1 0"), "declared 3000000 vertices"},
      {rep("3 1 0", "3 2000000 0"), "declared 2000000 faces"},
      {rep("3 0 1 2", "2000000000 0 1 2"), "face vertices"},
      {good + "trailing\n", "expected the end of the file after 1 faces, found 'trailing'"},
  };
  for (const auto& [text, needle] : cases) expect_read_error(outcome_of(text), needle, "line ");
}

TEST(OffWrite, NonFaceBlocksAreAWriteError) {
  auto m = faces_mesh();
  m.cells.push_back(mpp::CellBlock::rectangular("tetra", i64({0, 1, 3, 9}, {1, 4})));
  const std::string path = tmp_path("tet.off");
  spit(path, "keep me");
  try {
    mpp::write(path, m, "off");
    FAIL() << "no WriteError";
  } catch (const mpp::WriteError& e) {
    EXPECT_NE(std::string(e.what()).find("cell block 4 is 'tetra'"), std::string::npos) << e.what();
  }
  EXPECT_EQ(slurp(path), "keep me");
}

TEST(OffFuzz, EveryPrefixAndCorruptionIsAMeshOrReadError) {
  auto m = faces_mesh();
  m.cell_data["face_colors"] = {NDArray::from_vector<double>({1, 0, 0, 0, 1, 0}, {2, 3}), NDArray::from_vector<double>({0, 0, 1}, {1, 3}),
                                NDArray::from_vector<double>({1, 1, 1, 0, 0, 0}, {2, 3}), NDArray::from_vector<double>({0.5, 0.5, 0.5}, {1, 3})};
  const std::string path = tmp_path("fuzz_src.off");
  mpp::write(path, m, "off");
  const std::string bytes = slurp(path);
  const std::size_t files = sweep(bytes, "off", "fuzz_probe.off", Sweep::xor_each(1, 1, {0x01, 0x10, 0x80})).files;
  EXPECT_GT(files, 1000u);
}
