// STL: ASCII and binary round trips, corner merging exactly as meshio's reader merges
// (first occurrence order, -0.0 == +0.0, NaN never merges), binary detected by size even
// behind a "solid" header, the size rule past 4 GiB, counts that disagree with the size,
// multi-solid ASCII files as named regions, writer errors, and every truncated prefix /
// some corruptions.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <algorithm>
#include <limits>

#include "formats/stl/stl_internal.hpp"
#include "test_vtk_common.hpp"

using namespace vtktest;

namespace {

// Four points used in first-occurrence order by two triangles (a unit square).
mpp::Mesh square(bool float32 = false) {
  mpp::Mesh m;
  m.points = NDArray::from_vector<double>({0, 0, 0, 1, 0, 0, 1, 1, 0.5, 0, 1, 0.25}, {4, 3});
  if (float32) m.points = m.points.as_dtype(mpp::DType::float32);
  m.cells.push_back(mpp::CellBlock::rectangular("triangle", i64({0, 1, 2, 0, 2, 3}, {2, 3})));
  return m;
}

std::string f32s(std::initializer_list<float> v) {
  std::string s(v.size() * 4, '\0');
  std::memcpy(s.data(), std::data(v), s.size());
  return s;
}

// A binary STL with the given header text and corners (3 per facet), normals (0, 0, 1).
std::string binary_stl(const std::string& header, const std::vector<std::array<float, 3>>& corners, std::uint32_t count = ~0u) {
  std::string s = header;
  s.resize(80, ' ');
  const std::uint32_t n = count == ~0u ? static_cast<std::uint32_t>(corners.size() / 3) : count;
  s.append(reinterpret_cast<const char*>(&n), 4);
  for (std::size_t t = 0; t < corners.size() / 3; ++t) {
    s += f32s({0, 0, 1});
    for (int k = 0; k < 3; ++k) s += f32s({corners[3 * t + k][0], corners[3 * t + k][1], corners[3 * t + k][2]});
    s += std::string("\x07\x00", 2);  // attribute bytes: read past
  }
  return s;
}

mpp::Mesh read_bytes(const std::string& bytes, const std::string& name = "x.stl") { return read_string(bytes, "stl", name); }
std::string outcome_of(const std::string& bytes) { return outcome_of_string(bytes, "stl", "outcome.stl"); }

}  // namespace

TEST(StlRoundTrip, AsciiAndBinary) {
  for (bool binary : {false, true})
    for (bool f32 : {false, true}) {
      SCOPED_TRACE(std::string(binary ? "binary" : "ascii") + (f32 ? " float32" : " float64"));
      const auto m = square(f32);
      const std::string path = tmp_path("rt.stl");
      mpp::write(path, m, "stl", {{"binary", binary ? "true" : "false"}});
      const auto back = mpp::read(path, "stl");
      // ASCII keeps float64 (shortest round-trip text); binary stores float32.
      EXPECT_EQ(back.points.dtype(), binary ? mpp::DType::float32 : mpp::DType::float64);
      EXPECT_EQ(compare_arrays("points", m.points.as_dtype(back.points.dtype()), back.points), "");
      ASSERT_EQ(back.cells.size(), 1u);
      EXPECT_EQ(back.cells[0].type, "triangle");
      EXPECT_EQ(compare_arrays("cells", m.cells[0].connectivity, back.cells[0].connectivity, false), "");
      // Normals computed by the writer: right-hand rule, unit length.
      const NDArray& n = back.cell_data.at("facet_normals").at(0);
      ASSERT_EQ(n.shape(), (NDArray::Shape{2, 3}));
      const double e0[3] = {0, -0.5 / std::sqrt(1.25), 1 / std::sqrt(1.25)};  // (1,0,0) x (1,1,0.5) = (0,-0.5,1)
      for (int k = 0; k < 3; ++k) EXPECT_NEAR(n.value_as_double(k), e0[k], 1e-7);
      EXPECT_TRUE(back.regions.empty());
    }
}

TEST(StlRoundTrip, FacetNormalsFromCellDataAreWritten) {
  auto m = square();
  m.cell_data["facet_normals"].push_back(NDArray::from_vector<double>({0.25, 0.5, 0.75, -1, 0, 0}, {2, 3}));
  for (bool binary : {false, true}) {
    const std::string path = tmp_path("normals.stl");
    mpp::write(path, m, "stl", {{"binary", binary ? "true" : "false"}});
    EXPECT_EQ(compare_arrays("normals", m.cell_data["facet_normals"][0],
                             mpp::read(path, "stl").cell_data.at("facet_normals")[0], false), "");
  }
}

TEST(StlRoundTrip, TwoDimensionalPointsGetZeroZ) {
  mpp::Mesh m;
  m.points = NDArray::from_vector<double>({0, 0, 1, 0, 1, 1}, {3, 2});
  m.cells.push_back(mpp::CellBlock::rectangular("triangle", i64({0, 1, 2}, {1, 3})));
  const std::string path = tmp_path("2d.stl");
  mpp::write(path, m, "stl");
  const auto back = mpp::read(path, "stl");
  EXPECT_EQ(compare_arrays("points", NDArray::from_vector<double>({0, 0, 0, 1, 0, 0, 1, 1, 0}, {3, 3}), back.points), "");
}

TEST(StlRead, CornersMergeAsMeshioDoes) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // Facet 1 repeats (0,0,0) as (-0,0,0) and (1,0,0); NaN corners are never merged.
  const auto m = read_bytes(binary_stl("solid header on a binary file",
                                       {{0, 0, 0}, {1, 0, 0}, {0, 1, 0},
                                        {-0.0f, 0, 0}, {1, 0, 0}, {nan, 1, 0},
                                        {nan, 1, 0}, {0, -0.0f, 0}, {0, 1, 0}}));
  ASSERT_EQ(m.points.dim(0), 5u);  // 3 + two NaN corners, each its own point
  EXPECT_EQ(compare_arrays("cells", m.cells[0].connectivity, i64({0, 1, 2, 0, 1, 3, 4, 0, 2}, {3, 3}), false), "");
  EXPECT_FALSE(std::signbit(m.points.data<float>()[0]));  // the first occurrence's bits are kept
  EXPECT_TRUE(std::isnan(m.points.data<float>()[9]) && std::isnan(m.points.data<float>()[12]));
  EXPECT_EQ(m.cell_data.at("facet_normals")[0].dtype(), mpp::DType::float32);
}

TEST(StlRead, MergeFalseKeepsEveryCorner) {
  const std::vector<std::array<float, 3>> corners = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {-0.0f, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  const std::string text = "solid s\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\n"
                           "facet normal 0 0 1\nouter loop\nvertex -0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid s\n";
  for (const std::string& bytes : {binary_stl("raw", corners), text}) {
    const std::string path = tmp_path("raw.stl");
    spit(path, bytes);
    const auto m = mpp::read(path, "stl", {{"merge", "false"}});
    ASSERT_EQ(m.points.shape(), (NDArray::Shape{6, 3}));
    EXPECT_EQ(compare_arrays("cells", m.cells[0].connectivity, i64({0, 1, 2, 3, 4, 5}, {2, 3}), false), "");
    for (std::size_t i = 0; i < 6; ++i)
      for (std::size_t k = 0; k < 3; ++k) EXPECT_EQ(m.points.value_as_double(3 * i + k), corners[i][k]);
    EXPECT_TRUE(std::signbit(m.points.value_as_double(9)));  // kept as written
    EXPECT_EQ(m.cell_data.at("facet_normals")[0].dim(0), 2u);
    EXPECT_EQ(mpp::read(path, "stl").points.dim(0), 3u);  // merged by default
  }
}

TEST(StlRead, AnyThreadCountMergesTheSame) {
  // A 200 x 250 grid of quads split in two (100k triangles, 300k corners: enough to weld on
  // several threads), a few corners made -0.0 and NaN.
  const std::size_t nx = 200, ny = 250;
  std::vector<double> p;
  for (std::size_t j = 0; j <= ny; ++j)
    for (std::size_t i = 0; i <= nx; ++i) p.insert(p.end(), {0.5 * double(i), 0.25 * double(j), double((i * j) % 7)});
  p[0] = -0.0;
  p[3 * 77 + 1] = std::numeric_limits<double>::quiet_NaN();
  std::vector<std::int64_t> t;
  for (std::size_t j = 0; j < ny; ++j)
    for (std::size_t i = 0; i < nx; ++i) {
      const std::int64_t a = std::int64_t(j * (nx + 1) + i), b = a + 1, c = a + std::int64_t(nx) + 2, d = a + std::int64_t(nx) + 1;
      t.insert(t.end(), {a, b, c, a, c, d});
    }
  mpp::Mesh m;
  m.points = NDArray::from_vector(p, {p.size() / 3, 3});
  m.cells.push_back(mpp::CellBlock::rectangular("triangle", NDArray::from_vector(t, {t.size() / 3, 3})));
  const std::string path = tmp_path("threads.stl");
  mpp::write(path, m, "stl", {{"binary", "true"}});
  const auto one = mpp::read(path, "stl", {{"threads", "1"}});
  // Every grid point is used; the NaN one becomes one point per use.
  const auto uses = static_cast<std::size_t>(std::count(t.begin(), t.end(), 77));
  EXPECT_EQ(one.points.dim(0), m.points.dim(0) + uses - 1);
  for (const char* threads : {"2", "3", "8"}) {
    const auto many = mpp::read(path, "stl", {{"threads", threads}});
    EXPECT_EQ(compare_arrays("points", one.points, many.points), "") << threads;
    EXPECT_EQ(compare_arrays("cells", one.cells[0].connectivity, many.cells[0].connectivity), "") << threads;
  }
}

TEST(StlRead, BinarySizeRule) {
  using meshioplusplus::stl::binary_triangle_count;
  EXPECT_EQ(binary_triangle_count(84, 0), 0u);
  EXPECT_EQ(binary_triangle_count(84 + 50 * 7, 7), 7u);
  EXPECT_FALSE(binary_triangle_count(84 + 50 * 7, 8));
  EXPECT_FALSE(binary_triangle_count(84 + 50 * 7 + 1, 7));
  EXPECT_FALSE(binary_triangle_count(83, 0));
  // 100 million facets (a 5 GB file): the count is right, the size does not fit 32 bits.
  const std::uint64_t big = 100'000'000;
  EXPECT_EQ(binary_triangle_count(84 + 50 * big, static_cast<std::uint32_t>(big)), big);
  EXPECT_FALSE(binary_triangle_count(84 + 50 * big, static_cast<std::uint32_t>(big - 1)));
  // 2^32 + 5 facets: the 32-bit count has wrapped to 5; the size decides.
  const std::uint64_t wrapped = (std::uint64_t(1) << 32) + 5;
  EXPECT_EQ(binary_triangle_count(84 + 50 * wrapped, 5), wrapped);
  EXPECT_FALSE(binary_triangle_count(84 + 50 * wrapped, 6));
}

TEST(StlRead, CountThatDisagreesWithSizeNamesBoth) {
  const auto good = binary_stl("binary", {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 0}, {0, 1, 0}});
  EXPECT_EQ(outcome_of(good), "mesh");
  for (std::uint32_t lie : {3u, 1000000u, 0xFFFFFFFFu}) {
    std::string bad = good;
    std::memcpy(bad.data() + 80, &lie, 4);
    const std::string o = outcome_of(bad);
    EXPECT_NE(o.find("declares " + std::to_string(lie) + " triangles"), std::string::npos) << o;
    EXPECT_NE(o.find("file has 184 bytes (2 triangles)"), std::string::npos) << o;
  }
  // Cut short by 7 bytes: the size fits no count at all.
  EXPECT_NE(outcome_of(good.substr(0, good.size() - 7)).find("not 84 + 50 * n"), std::string::npos);
  // A binary file whose header begins with "solid" and whose count lies: still both numbers.
  auto solid = binary_stl("solid part", {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, 9);
  const std::string o = outcome_of(solid);
  EXPECT_NE(o.find("declares 9 triangles"), std::string::npos) << o;
  EXPECT_NE(o.find("file has 134 bytes"), std::string::npos) << o;
}

TEST(StlRead, AsciiSolidsBecomeNamedRegions) {
  const std::string text =
      "solid first part\n"
      "  facet normal 0 0 1\n    outer loop\n      vertex 0 0 0\n      vertex 1 0 0\n      vertex 0 1 0\n    endloop\n  endfacet\n"
      "endsolid first part\n"
      "SOLID second\n"  // keywords in any case
      "FACET NORMAL 0 0 -1\nOUTER LOOP\nVERTEX 0 0 0\nVERTEX 0 1 0\nVERTEX 1e0 0 0\nENDLOOP\nENDFACET\n"
      "facet normal 1 0 0 outer loop vertex 1 0 0 vertex 0 1 0 vertex 0 0 1 endloop endfacet\n"
      "endsolid\n"
      "solid\n"
      "facet normal 0 1 0\nouter loop\nvertex 0 0 1\nvertex 0 0 2\nvertex 0 0 3\nendloop\nendfacet\n";  // no endsolid
  const auto m = read_bytes(text);
  EXPECT_EQ(m.points.dtype(), mpp::DType::float64);
  ASSERT_EQ(m.points.dim(0), 6u);
  EXPECT_EQ(compare_arrays("cells", m.cells[0].connectivity, i64({0, 1, 2, 0, 2, 1, 1, 2, 3, 3, 4, 5}, {4, 3}), false), "");
  EXPECT_EQ(compare_arrays("normals", m.cell_data.at("facet_normals")[0],
                           NDArray::from_vector<double>({0, 0, 1, 0, 0, -1, 1, 0, 0, 0, 1, 0}, {4, 3})), "");
  ASSERT_EQ(m.regions.size(), 2u);  // the unnamed third solid has no region
  EXPECT_EQ(m.regions[0].name, "first part");
  EXPECT_EQ(compare_arrays("first", m.regions[0].entries, i64({0}, {1}), false), "");
  EXPECT_EQ(m.regions[1].name, "second");
  EXPECT_EQ(compare_arrays("second", m.regions[1].entries, i64({1, 2}, {2}), false), "");
  EXPECT_EQ(m.regions[1].kind, mpp::RegionKind::cell);

  // Written back: one solid per region when the regions tile the triangles.
  auto two = m;
  two.cells[0].connectivity = i64({0, 1, 2, 0, 2, 1, 1, 2, 3}, {3, 3});
  two.cell_data.clear();
  two.points = NDArray::from_vector<double>({0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1}, {4, 3});
  const std::string path = tmp_path("solids.stl");
  mpp::write(path, two, "stl");
  const std::string written = slurp(path);
  EXPECT_EQ(written.rfind("solid first part\n", 0), 0u) << written.substr(0, 40);
  EXPECT_NE(written.find("endsolid first part\nsolid second\n"), std::string::npos);
  const auto back = mpp::read(path, "stl");
  ASSERT_EQ(back.regions.size(), 2u);
  EXPECT_EQ(back.regions[1].name, "second");
  EXPECT_EQ(compare_arrays("second", back.regions[1].entries, i64({1, 2}, {2}), false), "");
}

TEST(StlMalformed, AsciiErrorsNameTheLine) {
  const std::string good =
      "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid t\n";
  ASSERT_EQ(outcome_of(good), "mesh");
  auto rep = [&](const std::string& from, const std::string& to) { return replaced(good, from, to); };
  const std::vector<std::pair<std::string, std::string>> cases = {
      {rep("vertex 0 1 0\n", "vertex 0 1 0\nvertex 1 1 0\n"), "line 7"},
      {rep("vertex 0 1 0\n", "vertex 0 1 0\nvertex 1 1 0\n"), "an STL facet has three vertices"},
      {rep("vertex 0 1 0", "vertex 0 one 0"), "expected a vertex coordinate, found 'one'"},
      {rep("outer loop", "outer"), "expected 'outer loop', found 'vertex'"},
      {rep("facet normal", "facet"), "expected 'normal' after 'facet'"},
      {rep("facet normal 0 0 1", "facet normal 0 0"), "line 3"},
      {good + "garbage\n", "expected 'solid', found 'garbage'"},
      {rep("endfacet\n", "endfacet\nfoo\n"), "expected 'facet' or 'endsolid', found 'foo'"},
  };
  for (const auto& [text, needle] : cases) expect_read_error(outcome_of(text), needle, "stl: ");
  EXPECT_NE(outcome_of("hello").find("neither ASCII STL"), std::string::npos);
}

TEST(StlWrite, NonTriangleBlocksAreAWriteError) {
  auto m = square();
  m.cells.push_back(mpp::CellBlock::rectangular("quad", i64({0, 1, 2, 3}, {1, 4})));
  const std::string path = tmp_path("quad.stl");
  spit(path, "keep me");
  try {
    mpp::write(path, m, "stl");
    FAIL() << "no WriteError";
  } catch (const mpp::WriteError& e) {
    EXPECT_NE(std::string(e.what()).find("cell block 1 is 'quad'"), std::string::npos) << e.what();
  }
  EXPECT_EQ(slurp(path), "keep me");
  EXPECT_THROW(mpp::write(path, square(), "stl", {{"bogus", "1"}}), std::invalid_argument);
}

TEST(StlWrite, BinaryHeaderDoesNotBeginWithSolidAndCountsFacets) {
  const std::string path = tmp_path("hdr.stl");
  mpp::write(path, square(), "stl", {{"binary", "true"}});
  const std::string b = slurp(path);
  ASSERT_EQ(b.size(), 84u + 2 * 50);
  EXPECT_NE(b.substr(0, 5), "solid");
  std::uint32_t n = 0;
  std::memcpy(&n, b.data() + 80, 4);
  EXPECT_EQ(n, 2u);
  EXPECT_EQ(b.substr(84 + 48, 2), std::string(2, '\0'));
}

TEST(StlFuzz, EveryPrefixAndCorruptionIsAMeshOrReadError) {
  auto m = square();
  m.points.data<double>()[4] = -1.0 / 3.0;
  std::size_t files = 0;
  for (bool binary : {false, true}) {
    const std::string path = tmp_path("fuzz_src.stl");
    mpp::write(path, m, "stl", {{"binary", binary ? "true" : "false"}});
    const std::string bytes = slurp(path);
    files += sweep(bytes, "stl", "fuzz_probe.stl", Sweep::xor_each(1, 1, {0x01, 0x80, 0x20})).files;
  }
  EXPECT_GT(files, 1000u);
}
