// ANSYS Fluent: the hand-written and generated fixtures (volume cells rebuilt from faces in
// VTK's node order with positive volume, zones as regions), meshio's layout and the
// faces=true layout written and read back, content-based deduction of ".msh" (Gmsh vs
// Fluent, Format::claims), skipped sections, malformed input, and every truncated prefix /
// some corruptions of each fixture.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>

#include "test_vtk_common.hpp"

using namespace vtktest;

namespace {

const std::string kData = std::string(MESHIOPP_TEST_DATA) + "/ansys/";

std::string read_text(const std::string& text) { return outcome_of_string(text, "ansys", "bad.msh"); }

// Signed volume (area in 2-D) of every cell, from its outward facets (divergence theorem).
std::vector<double> measures(const mpp::Mesh& m) {
  std::vector<double> out;
  const std::size_t d = m.points.dim(1);
  auto p = [&](std::int64_t i, std::size_t c) { return m.points.value_as_double(static_cast<std::size_t>(i) * d + c); };
  for (const auto& b : m.cells) {
    if (b.ragged) continue;
    const auto& facets = mpp::cell_facets(b.type);
    const std::size_t k = b.connectivity.dim(1);
    for (std::size_t i = 0; i < b.size(); ++i) {
      auto node = [&](int l) { return b.connectivity.value_as_int64(i * k + static_cast<std::size_t>(l)); };
      double v = 0;
      for (const auto& f : facets) {
        if (d == 2) {  // edge (a, b): x_a * y_b - x_b * y_a over 2
          v += (p(node(f[0]), 0) * p(node(f[1]), 1) - p(node(f[1]), 0) * p(node(f[0]), 1)) / 2;
          continue;
        }
        for (std::size_t t = 1; t + 1 < f.size(); ++t) {  // fan triangles: a . (b x c) / 6
          std::array<double, 3> a{}, bb{}, c{};
          for (std::size_t q = 0; q < 3; ++q) a[q] = p(node(f[0]), q), bb[q] = p(node(f[t]), q), c[q] = p(node(f[t + 1]), q);
          v += (a[0] * (bb[1] * c[2] - bb[2] * c[1]) - a[1] * (bb[0] * c[2] - bb[2] * c[0]) + a[2] * (bb[0] * c[1] - bb[1] * c[0])) / 6;
        }
      }
      out.push_back(v);
    }
  }
  return out;
}

std::vector<std::string> types(const mpp::Mesh& m) {
  std::vector<std::string> out;
  for (const auto& b : m.cells) out.push_back(b.type);
  return out;
}

}  // namespace

TEST(AnsysRead, HexahedraFromHexIndexedFacesWithPositiveVolume) {
  const auto m = mpp::read(kData + "hex_2cells.msh");
  EXPECT_EQ(m.points.dim(0), 12u);
  ASSERT_EQ(types(m), std::vector<std::string>{"hexahedron"});
  EXPECT_EQ(m.cells[0].size(), 2u);
  for (double v : measures(m)) EXPECT_NEAR(v, 1.0, 1e-12);
  const auto* fluid = region(m, "fluid", mpp::RegionKind::cell);
  ASSERT_NE(fluid, nullptr);
  EXPECT_EQ(ints_of(fluid->entries), (std::vector<std::int64_t>{0, 1}));
  const auto* walls = region(m, "walls", mpp::RegionKind::side);
  ASSERT_NE(walls, nullptr);
  EXPECT_EQ(walls->entries.dim(0), 10u);  // 12 facets, the shared one is interior
  EXPECT_EQ(walls->tag, 4);
}

TEST(AnsysRead, MixedZonesGiveWedgePyramidAndHexahedron) {
  const auto m = mpp::read(kData + "wedge_pyramid.msh");
  EXPECT_EQ(types(m), (std::vector<std::string>{"hexahedron", "wedge", "pyramid"}));
  for (double v : measures(m)) EXPECT_GT(v, 0.0);
  const auto v = measures(m);
  EXPECT_NEAR(v[0], 1.0, 1e-12);
  EXPECT_NEAR(v[1], 0.4, 1e-12);       // triangle of base 1, height 0.8, extruded 1
  EXPECT_NEAR(v[2], 1.0 / 3, 1e-12);   // unit base, height 1
}

TEST(AnsysRead, BinarySectionsInDoubleAndSinglePrecision) {
  for (const char* name : {"binary_tets.msh", "binary_tets_float32.msh"}) {
    const auto m = mpp::read(kData + name);
    ASSERT_EQ(types(m), std::vector<std::string>{"tetra"}) << name;
    EXPECT_EQ(ints_of(m.cells[0].connectivity), (std::vector<std::int64_t>{0, 1, 2, 3, 1, 2, 3, 4})) << name;
    for (double v : measures(m)) EXPECT_GT(v, 0.0);
    EXPECT_EQ(points_of(m)[12], 1.0);
    EXPECT_TRUE(has_warning(m, "skipped section 2059", "line 10")) << name;
    EXPECT_NE(region(m, "wall-3", mpp::RegionKind::side), nullptr);  // (39 ...) names zone 3
  }
}

TEST(AnsysRead, TwoDimensionalTrianglesAndQuadCounterClockwise) {
  const auto m = mpp::read(kData + "tri_quad_2d.msh");
  EXPECT_EQ(m.points.dim(1), 2u);
  EXPECT_EQ(types(m), (std::vector<std::string>{"quad", "triangle"}));
  const auto v = measures(m);
  ASSERT_EQ(v.size(), 3u);
  EXPECT_NEAR(v[0], 1.0, 1e-12);
  EXPECT_NEAR(v[1], 0.75, 1e-12);
  EXPECT_NEAR(v[2], 0.5, 1e-12);
  EXPECT_EQ(region(m, "outer", mpp::RegionKind::side)->dim, 1);
}

TEST(AnsysRead, ACellThatFitsNoShapeIsAPolyhedronWithOutwardFaces) {
  const auto m = mpp::read(kData + "polyhedron.msh", "", {{"ragged", "true"}});
  ASSERT_EQ(m.cells.size(), 1u);
  // The core numbers no facets of a polyhedron: its boundary faces are left out of the
  // side region, with a warning.
  EXPECT_EQ(region(m, "outer", mpp::RegionKind::side), nullptr);
  EXPECT_TRUE(has_warning(m, "7 faces of zone 'outer'", "polyhedra"));
  EXPECT_EQ(m.cells[0].type, "polyhedron");
  EXPECT_EQ(ints_of(m.cells[0].offsets), (std::vector<std::int64_t>{0, 7}));
  // Outward: the bottom face (z = 0) runs clockwise seen from above.
  const auto fo = ints_of(m.cells[0].face_offsets);
  const auto idx = ints_of(m.cells[0].indices);
  for (std::size_t f = 0; f + 1 < fo.size(); ++f) {
    bool bottom = true;
    for (auto j = fo[f]; j < fo[f + 1]; ++j) bottom = bottom && m.points.value_as_double(static_cast<std::size_t>(idx[static_cast<std::size_t>(j)]) * 3 + 2) == 0.0;
    if (!bottom) continue;
    auto x = [&](std::int64_t j, int c) { return m.points.value_as_double(static_cast<std::size_t>(idx[static_cast<std::size_t>(j)]) * 3 + static_cast<std::size_t>(c)); };
    const double nz = (x(fo[f] + 1, 0) - x(fo[f], 0)) * (x(fo[f] + 2, 1) - x(fo[f], 1)) - (x(fo[f] + 1, 1) - x(fo[f], 1)) * (x(fo[f] + 2, 0) - x(fo[f], 0));
    EXPECT_LT(nz, 0.0);
  }
}

TEST(AnsysRead, ACellWhoseSixQuadsMakeNoHexahedronIsAPolyhedronBesideTheHexahedra) {
  // The second cell of hex_2cells.msh with a face that takes a node of the first cell: six
  // quadrilaterals still, so a hexahedron by its faces' count, but not by its nodes. The
  // hexahedron's row is written in place before the polyhedron is found; the blocks are
  // then laid out again.
  const auto good = mpp::read(kData + "hex_2cells.msh");
  const auto m = read_string(replaced(slurp(kData + "hex_2cells.msh"), "9 c 6 3 2 0", "9 c 6 1 2 0"), "ansys", "twisted.msh", {{"ragged", "true"}});
  ASSERT_EQ(m.cells.size(), 2u);
  EXPECT_EQ(m.cells[0].type, "hexahedron");
  EXPECT_EQ(m.cells[1].type, "polyhedron");
  ASSERT_EQ(good.cells.size(), 1u);
  const auto hexes = ints_of(good.cells[0].connectivity);
  EXPECT_EQ(ints_of(m.cells[0].connectivity), std::vector<std::int64_t>(hexes.begin(), hexes.begin() + 8));
  EXPECT_EQ(ints_of(m.cells[1].offsets), (std::vector<std::int64_t>{0, 6}));
}

TEST(AnsysWrite, MeshioLayoutAndFacesLayoutReadBack) {
  const auto src = mpp::read(kData + "wedge_pyramid.msh");
  for (const char* binary : {"true", "false"}) {
    const std::string path = tmp_path(std::string("w_") + binary + ".msh");
    mpp::write(path, src, "ansys", {{"binary", binary}});
    const auto back = mpp::read(path);
    EXPECT_EQ(doubles_of(back.points), doubles_of(src.points));
    ASSERT_EQ(types(back), types(src));
    for (std::size_t b = 0; b < src.cells.size(); ++b) EXPECT_EQ(ints_of(back.cells[b].connectivity), ints_of(src.cells[b].connectivity));
    mpp::write(path, src, "ansys", {{"binary", binary}, {"faces", "true"}});
    const auto faces = mpp::read(path);
    EXPECT_EQ(types(faces), types(src));
    const auto a = measures(faces), b = measures(src);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-12);
    EXPECT_NE(region(faces, "outer", mpp::RegionKind::side), nullptr);  // side regions become zones
  }
}

TEST(AnsysWrite, PolyhedraAreWrittenInTheFacesLayoutUnlessTheCallerChose) {
  const auto src = mpp::read(kData + "polyhedron.msh");
  const std::string path = tmp_path("poly_out.msh");
  mpp::write(path, src, "ansys");
  EXPECT_NE(slurp(path).find("(13 ("), std::string::npos);
  const auto back = mpp::read(path, "", {{"ragged", "true"}});
  ASSERT_EQ(back.cells.size(), 1u);
  EXPECT_EQ(back.cells[0].type, "polyhedron");
  EXPECT_EQ(ints_of(back.cells[0].face_offsets).size(), 8u);
  EXPECT_THROW(mpp::write(path, src, "ansys", {{"faces", "false"}}), mpp::WriteError);
}

TEST(AnsysWrite, RefusesCellTypesFluentCannotHold) {
  mpp::Mesh m = mpp::read(kData + "tri_quad_2d.msh");
  m.cells.push_back(mpp::CellBlock::rectangular("line", mpp::NDArray::from_vector(std::vector<std::int64_t>{0, 1}, {1, 2})));
  try {
    mpp::write(tmp_path("refuse.msh"), m, "ansys");
    FAIL() << "expected a WriteError";
  } catch (const mpp::WriteError& e) {
    EXPECT_NE(std::string(e.what()).find("'line'"), std::string::npos) << e.what();
  }
}

TEST(AnsysFormat, MshIsDeducedFromTheContent) {
  const auto& fluent = mpp::deduce_format(kData + "hex_2cells.msh", false);
  EXPECT_EQ(fluent.name, "ansys");
  const std::string gmsh_file = tmp_path("g.msh");
  mpp::write(gmsh_file, mpp::read(kData + "hex_2cells.msh"));  // .msh writes stay Gmsh's
  EXPECT_EQ(slurp(gmsh_file).rfind("$MeshFormat", 0), 0u);
  EXPECT_EQ(mpp::deduce_format(gmsh_file, false).name, "gmsh");
  EXPECT_EQ(mpp::deduce_format(kData + "hex_2cells.msh", true).name, "gmsh");
  EXPECT_EQ(mpp::deduce_format("no-such-file.msh", false).name, "gmsh");  // unreadable: the extension rule
}

TEST(AnsysRead, MalformedInputNamesSectionAndPlace) {
  expect_read_error(read_text("(2 3)\n(10 (1 1 2 1 3)(\n0 0 0\n1 x 0\n))\n"), "a node coordinate", "line 4");
  expect_read_error(read_text("(2 3)\n(10 (1 1 ffffffffff 1 3)(\n0 0 0\n))\n"), "bytes remain");
  expect_read_error(read_text("(2 3)\n(13 (3 1 1 2 9)(\n1 2 3 1 0\n))\n"), "face type", "9");
  expect_read_error(read_text("(2 3)\n(10 (1 1 1 1 3)(0 0 0))\n(13 (3 1 1 3 3)(\n1 2 7 1 0\n))\n"), "face node index 2");
  expect_read_error(read_text("(2 3)\nnot a section\n"), "'(' opening a section", "line 2");
  expect_read_error(read_text("(0 \"never closed"), "string that never closes");
  expect_read_error(read_text("(2 3)\n(2099 (1)(\x01\x02"), "End of Binary Section");
}

TEST(AnsysRead, UnknownSectionsAreSkippedWithAWarning) {
  const std::string text = slurp(kData + "hex_2cells.msh") + "(41 (1 \"x (y\" (a b)))\n(18 (1 2 3 4)(\n1 2\n))\n";
  const auto m = read_string(text, "ansys", "extra.msh");
  EXPECT_TRUE(has_warning(m, "skipped section 41", "line 39"));
  EXPECT_TRUE(has_warning(m, "skipped section 18", "line 40"));
  EXPECT_EQ(m.cells[0].size(), 2u);
}

TEST(AnsysRead, ThreadCountDoesNotChangeTheMesh) {
  const auto a = mpp::read(kData + "wedge_pyramid.msh", "ansys", {{"threads", "1"}});
  for (const char* t : {"2", "3", "8"}) EXPECT_EQ(compare_meshes(a, mpp::read(kData + "wedge_pyramid.msh", "ansys", {{"threads", t}})), "");
}

// n^3 unit cubes, each cut into 6 tetrahedra around its main diagonal (Kuhn's split: the
// cells meet face to face), with the outer faces as a side region "skin".
mpp::Mesh kuhn_cube(int n) {
  mpp::Mesh m;
  const int p = n + 1;
  std::vector<double> xyz;
  for (int z = 0; z < p; ++z)
    for (int y = 0; y < p; ++y)
      for (int x = 0; x < p; ++x) xyz.insert(xyz.end(), {x * 1.0, y * 1.0, z * 1.0});
  m.points = NDArray::from_vector(xyz, {xyz.size() / 3, 3});
  auto id = [&](int x, int y, int z) { return static_cast<std::int64_t>((z * p + y) * p + x); };
  const int paths[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  std::vector<std::int64_t> tets;
  for (int z = 0; z < n; ++z)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x)
        for (const auto& path : paths) {  // corner 0 to corner 7 along the axes in this order
          int c[3] = {x, y, z};
          std::int64_t v[4];
          v[0] = id(c[0], c[1], c[2]);
          for (int k = 0; k < 3; ++k) {
            ++c[path[k]];
            v[k + 1] = id(c[0], c[1], c[2]);
          }
          const int inversions = (path[0] > path[1]) + (path[1] > path[2]) + (path[0] > path[2]);
          if (inversions % 2 == 1) std::swap(v[1], v[2]);  // an odd path: mirrored, so turned right-handed
          tets.insert(tets.end(), v, v + 4);
        }
  m.cells.push_back(mpp::CellBlock::rectangular("tetra", NDArray::from_vector(tets, {tets.size() / 4, 4})));
  return m;
}

TEST(AnsysRead, ThreadCountDoesNotChangeALargeMeshOrItsFirstError) {
  // 20^3 cubes: 48000 tetrahedra, ~100k faces, enough rows for the text bodies to be parsed
  // on several threads and for the cells to be built in several chunks.
  const mpp::Mesh src = kuhn_cube(20);
  for (const char* binary : {"false", "true"}) {
    const std::string path = tmp_path(std::string("kuhn_") + binary + ".msh");
    mpp::write(path, src, "ansys", {{"binary", binary}, {"faces", "true"}});
    const auto one = mpp::read(path, "ansys", {{"threads", "1"}});
    ASSERT_EQ(types(one), std::vector<std::string>{"tetra"});
    EXPECT_EQ(one.cells[0].size(), 48000u);
    const auto a = measures(one);
    for (double v : a) EXPECT_NEAR(v, 1.0 / 6.0, 1e-12);  // every cell rebuilt right-handed
    for (const char* t : {"2", "3", "8"}) EXPECT_EQ(compare_meshes(one, mpp::read(path, "ansys", {{"threads", t}})), "") << binary << t;
  }
  // Two bad face rows, the first far into the face section: every thread count names it.
  std::string text = slurp(tmp_path("kuhn_false.msh"));
  const std::size_t faces = text.find("(13 (");
  ASSERT_NE(faces, std::string::npos);
  std::size_t first = text.find('\n', faces + (text.size() - faces) / 3) + 1;
  std::size_t second = text.find('\n', faces + 2 * (text.size() - faces) / 3) + 1;
  text[second] = 'x';
  text[first] = 'z';
  const std::string bad = tmp_path("kuhn_bad.msh");
  spit(bad, text);
  std::string expected;
  for (const char* t : {"1", "2", "8"}) {
    try {
      mpp::read(bad, "ansys", {{"threads", t}});
      ADD_FAILURE() << "no error on " << t << " threads";
    } catch (const mpp::ReadError& e) {
      if (expected.empty()) expected = e.what();
      EXPECT_EQ(std::string(e.what()), expected);
      EXPECT_NE(expected.find("'z"), std::string::npos) << expected;
    }
  }
}

// Cells that list their nodes (meshio's layout) are checked against the points from the
// largest index met while reading: a node past the last point is an error naming it, in a
// small text file, and far into a large one in both encodings on any thread count.
TEST(AnsysRead, ACellNodePastTheLastPointIsAnErrorNamingIt) {
  const std::string small =
      "(2 3)\n(10 (0 1 4 0))\n(12 (0 1 1 0))\n(10 (1 1 4 1 3)(\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n))\n(12 (1 1 1 1 2)(\n1 2 3 9\n))\n";
  EXPECT_NE(outcome_of_string(small, "ansys", "past_last.msh").find("node index 9 is outside 1..4"), std::string::npos);
  const mpp::Mesh src = kuhn_cube(20);  // 48000 cells: text rows parsed in pieces
  const std::string path = tmp_path("past_last_big.msh");
  for (const char* binary : {"false", "true"}) {
    mpp::write(path, src, "ansys", {{"binary", binary}});
    std::string bytes = slurp(path);
    const std::size_t cells = bytes.find("(2012 (") != std::string::npos ? bytes.find("(2012 (") : bytes.find("(12 (1 ");
    ASSERT_NE(cells, std::string::npos);
    const std::size_t body = bytes.find(")(\n", cells) + 3;
    if (std::string(binary) == "true") {
      const std::uint32_t past = 9999999;  // little-endian int32, the 30000th cell's first node
      std::memcpy(bytes.data() + body + 4 * 4 * 30000, &past, 4);
    } else {
      std::size_t row = body;
      for (int r = 0; r < 30000; ++r) row = bytes.find('\n', row) + 1;
      bytes.replace(row, bytes.find(' ', row) - row, "98967f");  // 9999999 in hexadecimal
    }
    spit(path, bytes);
    for (const char* t : {"1", "2"})
      EXPECT_NE(read_outcome(path, "ansys", {{"threads", t}}).find("node index 9999999 is outside 1..9261"), std::string::npos)
          << binary << t;
  }
}

TEST(AnsysRead, TruncationsAndCorruptionsNeverCrash) {
  std::size_t cases = 0;
  for (const char* name : {"hex_2cells.msh", "binary_tets.msh", "tri_quad_2d.msh", "polyhedron.msh", "wedge_pyramid.msh"}) {
    const std::string bytes = slurp(kData + name);
    cases += sweep(bytes, "ansys", "probe.msh", Sweep::xor_each(1, 1, {0x01, 0x20}).errors_start("ReadError: ansys: ").validating()).files;
  }
  EXPECT_GT(cases, 5000u);
}
