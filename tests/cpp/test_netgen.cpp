// Netgen: round trips of every element type (plain and .vol.gz), meshio's node orders, the
// index column and the codimension names, 2-D meshes, comments and blank lines, sections
// skipped with a warning, two-line edge rows, errors that name the line, counts that lie,
// a gzip bomb bounded, writer errors, and every truncated prefix / some corruptions.
#include <gtest/gtest.h>

#include "core/codec/zlib.hpp"
#include "test_vtk_common.hpp"

using namespace vtktest;

namespace {

std::string outcome_of(const std::string& text) { return outcome_of_string(text, "netgen", "outcome.vol"); }

const std::string kSmall =
    "mesh3d\n"
    "dimension\n3\n"
    "geomtype\n0\n"
    "# surfnr bcnr domin domout np p1 p2 p3\n"
    "surfaceelements\n1\n1 2 0 0 3 1 2 3\n\n"
    "volumeelements\n2\n"
    "1 4 1 3 2 4\n"
    "# a comment between rows\n"
    "5 4 2 4 3 5\n"
    "edgesegmentsgi2\n1\n3 0 1 2 -1 -1 0 0 1 0 1 0\n"
    "points\n5\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n1 1 1\n"
    "pointelements\n1\n5 4\n"
    "materials\n2\n1 steel\n2\n"
    "bcnames\n2\n1 \n2 wall\n"
    "endmesh\n";

mpp::Mesh all_types() {
  mpp::Mesh m;
  std::vector<double> p;
  for (int i = 0; i < 21; ++i) p.insert(p.end(), {0.5 * i, 0.25 * i * i, 1.0 / (i + 1)});
  m.points = NDArray::from_vector<double>(p, {21, 3});
  auto block = [&](const char* type, int n) {
    std::vector<std::int64_t> c(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) c[static_cast<std::size_t>(i)] = (7 * i + 3) % 21;
    m.cells.push_back(mpp::CellBlock::rectangular(type, i64(c, {1, static_cast<std::size_t>(n)})));
  };
  for (auto [t, n] : std::vector<std::pair<const char*, int>>{{"vertex", 1}, {"line", 2}, {"triangle", 3}, {"triangle6", 6}, {"quad", 4},
                                                              {"quad8", 8}, {"tetra", 4}, {"pyramid", 5}, {"wedge", 6}, {"hexahedron", 8},
                                                              {"tetra10", 10}, {"pyramid13", 13}, {"wedge15", 15}, {"hexahedron20", 20}})
    block(t, n);
  std::vector<NDArray> index;
  for (std::size_t b = 0; b < m.cells.size(); ++b) index.push_back(i64({static_cast<std::int64_t>(b + 1)}, {1}));
  m.cell_data["netgen:index"] = index;
  return m;
}

}  // namespace

TEST(NetgenRead, SectionsAsMeshioReadsThem) {
  const auto m = read_string(kSmall, "netgen", "small.vol");
  ASSERT_EQ(m.cells.size(), 4u);
  EXPECT_EQ(m.cells[0].type, "triangle");
  EXPECT_EQ(ints_of(m.cells[0].connectivity), (std::vector<std::int64_t>{0, 1, 2}));
  EXPECT_EQ(m.cells[1].type, "tetra");  // Netgen's order 1 3 2 4 is meshio's 0 1 2 3
  EXPECT_EQ(ints_of(m.cells[1].connectivity), (std::vector<std::int64_t>{0, 1, 2, 3, 1, 2, 3, 4}));
  EXPECT_EQ(m.cells[2].type, "line");
  EXPECT_EQ(m.cells[3].type, "vertex");
  EXPECT_EQ(ints_of(m.cells[3].connectivity), (std::vector<std::int64_t>{4}));
  const auto& index = m.cell_data.at("netgen:index");
  EXPECT_EQ(ints_of(index[0]), (std::vector<std::int64_t>{2}));  // bcnr
  EXPECT_EQ(ints_of(index[1]), (std::vector<std::int64_t>{1, 5}));
  EXPECT_EQ(ints_of(index[2]), (std::vector<std::int64_t>{3}));
  EXPECT_EQ(ints_of(index[3]), (std::vector<std::int64_t>{4}));
  EXPECT_EQ(ints_of(m.field_data.at("steel")), (std::vector<std::int64_t>{1, 3}));
  EXPECT_EQ(ints_of(m.field_data.at("wall")), (std::vector<std::int64_t>{2, 2}));
  EXPECT_EQ(m.field_data.size(), 2u);  // nameless rows are skipped
}

TEST(NetgenRoundTrip, EveryElementTypePlainAndGzipped) {
  const auto m = all_types();
  for (const char* name : {"all.vol", "all.vol.gz"}) {
    const std::string path = tmp_path(name);
    mpp::write(path, m, "netgen");
    const std::string bytes = slurp(path);
    EXPECT_EQ(bytes.substr(0, 2) == "\x1f\x8b", std::string(name).find(".gz") != std::string::npos) << name;
    const auto back = mpp::read(path, "netgen");
    ASSERT_EQ(back.cells.size(), m.cells.size());
    // Netgen groups by dimension (surface, volume, edges, point elements): compare by type.
    for (const auto& want : m.cells) {
      bool found = false;
      for (std::size_t b = 0; b < back.cells.size(); ++b)
        if (back.cells[b].type == want.type) {
          EXPECT_EQ(ints_of(back.cells[b].connectivity), ints_of(want.connectivity)) << want.type;
          found = true;
        }
      EXPECT_TRUE(found) << want.type;
    }
    EXPECT_EQ(doubles_of(back.points), doubles_of(m.points));
  }
}

TEST(NetgenRead, TwoDimensionalMeshesKeepTwoColumns) {
  const std::string text = "mesh3d\ndimension\n2\nsurfaceelements\n1\n2 1 0 0 4 1 2 3 4\npoints\n4\n0 0 0\n1 0 0\n1 1 0\n0 1 0\nendmesh\n";
  const auto m = read_string(text, "netgen", "two.vol");
  EXPECT_EQ(m.points.shape(), (NDArray::Shape{4, 2}));
  EXPECT_EQ(m.cells[0].type, "quad");
}

TEST(NetgenRead, UnknownSectionsAreSkippedWithAWarning) {
  std::string text = replaced(kSmall, "points\n", "curvedelements\n2\n1 2 3\n4 5 6\npoints\n");
  text = replaced(text, "geomtype\n0\n", "geomtype\n0\nface_colours\n1\n1 0 1 0\nsurf1 surf2 p1 p2\n");
  text = replaced(text, "3 0 1 2 -1 -1 0 0 1 0 1 0\n", "3 0 1 2 -1 -1 0 0 1 0 1 0\n2 1 0.5 0.5\n");  // the second line of the row
  text = replaced(text, "1 4 1 3 2 4\n", "1 4 1 3 2 4\nsecond line\n");
  text = replaced(text, "5 4 2 4 3 5\n", "5 4 2 4 3 5\nsecond line\n");
  text = replaced(text, "1 2 0 0 3 1 2 3\n", "1 2 0 0 3 1 2 3\nsecond line\n");
  text = replaced(text, "5 4\n", "5 4\nsecond\n");
  const auto m = read_string(text, "netgen", "unknown.vol");
  EXPECT_TRUE(has_warning(m, "curvedelements", "line "));
  EXPECT_EQ(m.cells.size(), 4u);
  EXPECT_EQ(m.num_points(), 5u);
}

TEST(NetgenMalformed, ErrorsNameTheLine) {
  ASSERT_EQ(outcome_of(kSmall), "mesh");
  auto rep = [&](const std::string& from, const std::string& to) { return replaced(kSmall, from, to); };
  const std::vector<std::pair<std::string, std::string>> cases = {
      {rep("mesh3d", "mesh2d"), "expected 'mesh3d' opening a Netgen mesh, found 'mesh2d'"},
      {rep("1 4 1 3 2 4", "1 7 1 3 2 4"), "no Netgen element of dimension 3 has 7 nodes"},
      {rep("1 4 1 3 2 4", "1 4 1 3 2"), "needs 6"},
      {rep("1 4 1 3 2 4", "1 4 1 x 2 4"), "expected a point number, found 'x'"},
      {rep("1 0 0\n", "1 zero 0\n"), "expected a coordinate, found 'zero'"},
      {rep("volumeelements\n2", "volumeelements\n2000000"), "declared 2000000 elements"},
      {rep("points\n5", "points\n5000000"), "declared 5000000 points"},
      {rep("1 2 0 0 3 1 2 3", "1 2 0 0 3 1 2 9"), "refers to point 9"},
      {rep("pointelements\n1\n5 4", "pointelements\n1\n0 4"), "point number 0 is outside [1, 5]"},
      {rep("dimension\n3", "dimension\n4"), "dimension 4 is not supported"},
  };
  for (const auto& [text, needle] : cases) expect_read_error(outcome_of(text), needle, "line ");
}

TEST(NetgenMalformed, GzipIsBoundedAndCheckedToo) {
  if (!mpp::codec::zlib_available()) GTEST_SKIP() << "built without zlib";
  const auto gz = mpp::codec::gzip_compress(kSmall.data(), kSmall.size(), 6);
  const std::string bytes(gz.begin(), gz.end());
  EXPECT_EQ(outcome_of_string(bytes, "netgen", "ok.vol.gz"), "mesh");
  expect_read_error(outcome_of_string(bytes.substr(0, bytes.size() / 2), "netgen", "cut.vol.gz"), "gzip data ends early");
  std::string corrupt = bytes;
  corrupt[12] = static_cast<char>(corrupt[12] ^ 0x55);
  EXPECT_EQ(outcome_of_string(corrupt, "netgen", "bad.vol.gz").rfind("ReadError", 0), 0u);
  // A member that inflates to 64 MiB of blanks, then text: read (the bound is the ratio, not a size).
  const std::string big = "mesh3d\n" + std::string(64 << 20, ' ') + "\nendmesh\n";
  const auto bomb = mpp::codec::gzip_compress(big.data(), big.size(), 9);
  EXPECT_EQ(outcome_of_string(std::string(bomb.begin(), bomb.end()), "netgen", "blanks.vol.gz"), "mesh");
}

TEST(NetgenRead, LargeGzippedTextGivenBackAsParsedReadsTheSameAndNamesLateLines) {
  // 200000 tetrahedra and points: the inflated text (about 10 MB) is given back a MiB at a
  // time behind the parser. The mesh must equal the plain file's, and an error near the
  // end must still name its line (counted before the text before it went).
  if (!mpp::codec::zlib_available()) GTEST_SKIP() << "built without zlib";
  const std::size_t n = 200000;
  std::string text = "mesh3d\ndimension\n3\ngeomtype\n0\nvolumeelements\n" + std::to_string(n) + "\n";
  for (std::size_t i = 0; i < n; ++i)
    text += "1 4 " + std::to_string(i + 1) + " " + std::to_string(i + 2) + " " + std::to_string(i + 3) + " " + std::to_string(i + 4) + "\n";
  text += "points\n" + std::to_string(n + 3) + "\n";
  for (std::size_t i = 0; i < n + 3; ++i) text += std::to_string(i) + ".5 " + std::to_string(i % 11) + " 0\n";
  text += "endmesh\n";
  auto gz = [](const std::string& t) {
    const auto z = mpp::codec::gzip_compress(t.data(), t.size(), 1);
    return std::string(z.begin(), z.end());
  };
  const std::string plain = tmp_path("big.vol"), zipped = tmp_path("big.vol.gz");
  spit(plain, text);
  spit(zipped, gz(text));
  const auto a = mpp::read(plain, "netgen");
  EXPECT_EQ(compare_meshes(a, mpp::read(zipped, "netgen")), "");
  EXPECT_EQ(a.cells[0].connectivity.value_as_int64(4 * n - 1), static_cast<std::int64_t>(n + 2));
  // The last point row, line 6 + 1 + n + 2 + (n + 3): a bad coordinate there.
  const std::string last = std::to_string(n + 2) + ".5 ";
  const std::string bad = replaced(text, last + std::to_string((n + 2) % 11) + " 0\n", last + "x 0\n");
  const std::string line = "line " + std::to_string(6 + 1 + n + 2 + (n + 3));
  expect_read_error(outcome_of_string(bad, "netgen", "late.vol"), line, "expected a coordinate, found 'x'");
  expect_read_error(outcome_of_string(gz(bad), "netgen", "late.vol.gz"), line, "expected a coordinate, found 'x'");
}

TEST(NetgenWrite, CellTypesNetgenLacksAreAWriteError) {
  auto m = all_types();
  m.cells.push_back(mpp::CellBlock::rectangular("hexahedron27", i64(std::vector<std::int64_t>(27, 0), {1, 27})));
  m.cell_data.clear();
  const std::string path = tmp_path("hex27.vol");
  spit(path, "keep me");
  try {
    mpp::write(path, m, "netgen");
    FAIL() << "no WriteError";
  } catch (const mpp::WriteError& e) {
    EXPECT_NE(std::string(e.what()).find("'hexahedron27'"), std::string::npos) << e.what();
  }
  EXPECT_EQ(slurp(path), "keep me");
}

TEST(NetgenFuzz, EveryPrefixAndCorruptionIsAMeshOrReadError) {
  const std::size_t files = sweep(kSmall, "netgen", "fuzz_probe.vol", Sweep::xor_each(1, 1, {0x01, 0x10, 0x80}).validating()).files;
  EXPECT_GT(files, 1000u);
}
