// Wavefront OBJ: round trips (mixed face sizes, ragged polygons, lines, vt/vn), every face
// corner form and negative indices, blocks split as meshio splits them, g/o/usemtl regions,
// the one-to-one rule for texture coordinates and normals, malformed lines, and every
// truncated prefix / byte flip of a written file.
#include <gtest/gtest.h>

#include "test_vtk_common.hpp"

using namespace vtktest;

namespace {

mpp::Mesh read_obj_text(const std::string& text) { return read_string(text, "obj", "probe.obj"); }
std::string obj_outcome(const std::string& text) { return outcome_of_string(text, "obj", "bad.obj"); }

}  // namespace

TEST(ObjRoundTrip, FacesLinesAndPointData) {
  mpp::Mesh m;
  m.points = grid_points();
  m.cells.push_back(rect("triangle", 3, 3));
  m.cells.push_back(rect("quad", 4, 2));
  m.cells.push_back(rect("polygon", 6, 2));
  m.cells.push_back(rect("line", 2, 3));
  std::vector<double> vt(27 * 2), vn(27 * 3);
  for (std::size_t i = 0; i < vt.size(); ++i) vt[i] = static_cast<double>(i) / 7.0;
  for (std::size_t i = 0; i < vn.size(); ++i) vn[i] = -static_cast<double>(i) / 3.0;
  for (int with : {0, 1, 2, 3}) {
    SCOPED_TRACE(with);
    mpp::Mesh x = m;
    if (with & 1) x.point_data["obj:vt"] = NDArray::from_vector(vt, {27, 2});
    if (with & 2) x.point_data["obj:vn"] = NDArray::from_vector(vn, {27, 3});
    const std::string path = tmp_path("rt.obj");
    mpp::write(path, x, "obj");
    const auto back = mpp::read(path, "obj");
    mpp::Mesh want = x;
    for (const auto& b : want.cells) want.cell_data["obj:group_ids"].push_back(NDArray::from_vector(std::vector<std::int64_t>(b.size(), -1)));
    EXPECT_EQ(compare_meshes(want, back), "");
  }
}

TEST(ObjRoundTrip, RaggedPolygonsAndTwoDimensionalPoints) {
  auto m = polygon_mesh();
  m.points = grid_points(2);
  const std::string path = tmp_path("ragged.obj");
  mpp::write(path, m, "obj");
  const auto back = mpp::read(path, "obj");
  EXPECT_EQ(back.points.dim(1), 3u);
  EXPECT_EQ(back.points.value_as_double(3 * 4 + 2), 0.0);
  std::vector<std::pair<std::string, std::int64_t>> got;
  for (const auto& b : back.cells) got.emplace_back(b.type, b.nodes_per_cell());
  const std::vector<std::pair<std::string, std::int64_t>> want = {
      {"polygon", 6}, {"triangle", 3}, {"polygon", 5}, {"polygon", 7}, {"quad", 4}};
  EXPECT_EQ(got, want);
}

TEST(ObjWrite, VolumeCellsAreAWriteError) {
  const std::string path = tmp_path("tet.obj");
  try {
    mpp::write(path, linear_mix(), "obj");
    FAIL() << "no error";
  } catch (const mpp::WriteError& e) {
    EXPECT_NE(std::string(e.what()).find("'vertex'"), std::string::npos) << e.what();
  }
}

TEST(ObjRead, CornerFormsNegativeIndicesGroupsAndRegions) {
  const std::string text =
      "# a comment\nmtllib x.mtl\nv 0 0 0\nv 1 0 0\nv 1 1 0 1.0\nv 0 1 0\n"
      "vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\nvn 0 0 1\n"
      "o body\ng left top\nusemtl red\ns 1\n"
      "f 1 2 3\nf -4/-4 -2/-2 -1/-1\n"        // triangles: 0 1 2, 0 2 3
      "f 1//1 2//1 3//1 4//1\n"                // a quad: new block (size change)
      "g right\nusemtl blue\n"
      "f 1/1/1 2/2/1 3/3/1\n"                  // new block (g)
      "l 1 2 3\n"                             // two segments
      "  \t\n# done\n";
  const auto m = read_obj_text(text);
  ASSERT_EQ(m.cells.size(), 4u);
  EXPECT_EQ(m.cells[0].type, "triangle");
  EXPECT_EQ(compare_arrays("t", m.cells[0].connectivity, i64({0, 1, 2, 0, 2, 3}, {2, 3}), false), "");
  EXPECT_EQ(m.cells[1].type, "quad");
  EXPECT_EQ(m.cells[2].type, "triangle");
  EXPECT_EQ(m.cells[3].type, "line");
  EXPECT_EQ(compare_arrays("l", m.cells[3].connectivity, i64({0, 1, 1, 2}, {2, 2}), false), "");
  EXPECT_EQ(compare_arrays("g0", m.cell_data.at("obj:group_ids")[0], i64({0, 0}, {2})), "");
  EXPECT_EQ(compare_arrays("g3", m.cell_data.at("obj:group_ids")[3], i64({1, 1}, {2})), "");
  // vt 1..4 pair with v 1..4 everywhere they are named: point data
  ASSERT_EQ(m.point_data.count("obj:vt"), 1u);
  EXPECT_EQ(m.point_data.at("obj:vt").shape(), (NDArray::Shape{4, 2}));
  EXPECT_EQ(m.point_data.at("obj:vt").value_as_double(2 * 2 + 1), 1.0);
  // one normal for four points, named by every corner: each point maps to normal 1
  ASSERT_EQ(m.point_data.count("obj:vn"), 1u);
  EXPECT_EQ(m.point_data.at("obj:vn").value_as_double(3 * 3 + 2), 1.0);
  ASSERT_NE(region(m, "g:left"), nullptr);
  EXPECT_EQ(compare_arrays("left", region(m, "g:left")->entries, i64({0, 1, 2}, {3})), "");
  EXPECT_EQ(compare_arrays("top", region(m, "g:top")->entries, i64({0, 1, 2}, {3})), "");
  EXPECT_EQ(compare_arrays("right", region(m, "g:right")->entries, i64({3, 4, 5}, {3})), "");
  EXPECT_EQ(compare_arrays("body", region(m, "o:body")->entries, i64({0, 1, 2, 3, 4, 5}, {6})), "");
  EXPECT_EQ(compare_arrays("red", region(m, "usemtl:red")->entries, i64({0, 1, 2}, {3})), "");
  EXPECT_EQ(compare_arrays("blue", region(m, "usemtl:blue")->entries, i64({3, 4, 5}, {3})), "");
  m.validate();
}

TEST(ObjRead, TextureCoordinatesThatAreNotOneToOneAreDroppedWithAWarning) {
  const std::string text = "v 0 0 0\nv 1 0 0\nv 1 1 0\nvt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\nf 1/1 2/2 3/3\nf 1/4 2/2 3/3\n";
  const auto m = read_obj_text(text);
  const auto& notes = m.warnings;  // read() gathers the reader's warn() calls
  EXPECT_EQ(m.point_data.count("obj:vt"), 0u);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("texture coordinates"), std::string::npos);
  // as many vt as v and no corner naming them: by position, as meshio
  const auto n = read_obj_text("v 0 0 0\nv 1 0 0\nv 1 1 0\nvt 0 0\nvt 1 0\nvt 1 1\nf 1 2 3\n");
  EXPECT_EQ(n.point_data.at("obj:vt").value_as_double(3), 0.0);
  EXPECT_EQ(n.point_data.at("obj:vt").value_as_double(4), 1.0);
}

TEST(ObjMalformed, ErrorsNameTheLine) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"v 0 0 0\nv 1 0\nv 0 1 0\n", "a vertex coordinate"},
      {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 0\n", "nonzero vertex index"},
      {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n", "vertex index 4 is past the 3"},
      {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 -4\n", "refers before the first"},
      {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1/2 2 3\n", "texture coordinate index 2 is past the 0"},
      {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1//1 2 3\n", "normal index 1 is past the 0"},
      {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2x 3\n", "a corner"},
      {"v 0 0 0\nv 1 0 0\nv 0 1 0\nl 1\n", "at least 2 vertices"},
      {"v 0 0 0\nf\n", "at least 1 vertex"},
      {"vt x\n", "a texture coordinate"},
      {"vn 1 2\n", "a normal component"},
  };
  for (const auto& [text, needle] : cases) expect_read_error(obj_outcome(text), needle, "line ");
}

TEST(ObjFuzz, EveryPrefixAndCorruptionIsAMeshOrReadError) {
  mpp::Mesh m = polygon_mesh();
  m.cells.push_back(rect("line", 2, 2));
  std::vector<double> vt(27 * 2, 0.5);
  m.point_data["obj:vt"] = NDArray::from_vector(vt, {27, 2});
  const std::string path = tmp_path("fuzz_src.obj");
  mpp::write(path, m, "obj");
  const std::string bytes = slurp(path);
  const std::size_t files = sweep(bytes, "obj", "fuzz_probe.obj", Sweep::xor_each(bytes.size() / 400 + 1, bytes.size() / 150 + 1, {0x01, 0x80, 0x10}).validating()).files;
  EXPECT_GT(files, 500u);
}
