// WKT: TIN / MULTIPOLYGON / POLYGON / TRIANGLE reading with merged points, round trips of
// triangles, errors that name the line, every truncated prefix / some corruptions.
#include <gtest/gtest.h>

#include "test_vtk_common.hpp"

using namespace vtktest;

namespace {
std::string outcome_of(const std::string& text) { return outcome_of_string(text, "wkt", "outcome.wkt"); }
}  // namespace

TEST(WktRead, MultipolygonMergesPointsAndSkipsHoles) {
  const auto m = mpp::read(data_path("wkt", "multipolygon_with_hole.wkt"), "wkt");
  EXPECT_EQ(points_of(m), (std::vector<double>{0, 0, 1, 0, 1, 1, 0, 1, 2, 0}));
  ASSERT_EQ(m.cells.size(), 2u);
  EXPECT_EQ(m.cells[0].type, "quad");
  EXPECT_EQ(ints_of(m.cells[1].connectivity), (std::vector<std::int64_t>{1, 4, 2}));
  EXPECT_TRUE(has_warning(m, "interior ring", "line 1"));
}

TEST(WktRead, TriangleAndPolygonKeywords) {
  const auto m = read_string("triangle ((0 0 1, 1 0 1, 0 1 1, 0 0 1))\nPOLYGON ((0 0 1, 1 0 1, 2 2 1, 1 3 1, 0 1 1, 0 0 1))", "wkt", "tp.wkt");
  ASSERT_EQ(m.cells.size(), 2u);
  EXPECT_EQ(m.cells[0].type, "triangle");
  EXPECT_EQ(m.cells[1].type, "polygon");
  EXPECT_EQ(ints_of(m.cells[1].connectivity), (std::vector<std::int64_t>{0, 1, 3, 4, 2}));
}

TEST(WktRoundTrip, Triangles) {
  const auto m = tri_mesh();
  const std::string path = tmp_path("rt.wkt");
  mpp::write(path, m, "wkt");
  const auto back = mpp::read(path, "wkt");
  ASSERT_EQ(back.cells.size(), 1u);
  const auto pts = doubles_of(back.points), orig = doubles_of(m.points);
  const auto a = ints_of(m.cells[0].connectivity), b = ints_of(back.cells[0].connectivity);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i)
    for (int c = 0; c < 3; ++c) EXPECT_EQ(pts[3 * b[i] + c], orig[3 * a[i] + c]);
}

TEST(WktRead, ErrorsNameTheLine) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"POINT (1 2)", "expected a surface geometry (TIN, TRIANGLE, POLYGON, MULTIPOLYGON), found 'POINT'"},
      {"TIN (((0 0 0, 1 0 0, 0 1 0, 1 1 1)))", "a polygon ring must be closed"},
      {"TIN (((0 0 0, 1 0 0, 0 1, 0 0 0)))", "points have mixed dimensionality"},
      {"TIN (((0 0 0, 1 0 0, 0 x 0, 0 0 0)))", "expected a coordinate, found 'x'"},
      {"TIN (((0 0 0, 1 0 0, 0 1 0, 0 0 0))", "expected ',' or ')' in the polygon list"},
      {"TIN Q (((0 0 0, 1 0 0, 0 1 0, 0 0 0)))", "expected Z, M, ZM, EMPTY or '('"},
  };
  for (const auto& [text, needle] : cases) expect_read_error(outcome_of(text), needle, "line ");
}

TEST(WktFuzz, EveryPrefixAndCorruptionIsAMeshOrReadError) {
  const std::string text = slurp(data_path("wkt", "multipolygon_with_hole.wkt"));
  EXPECT_GT(sweep(text, "wkt", "fuzz_probe.wkt", Sweep::xor_each(1, 1, {0x01, 0x10, 0x80}).validating()).files, 300u);
}
