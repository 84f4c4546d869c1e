// SU2: the fixtures (cells as meshio reads them, markers as side regions, the rule for
// marker elements that bound no volume cell, index columns, multi-zone files and the zone
// option), writer round trips that keep the markers, meshio's tag numbering, malformed
// input, and every truncated prefix / some corruptions.
#include <gtest/gtest.h>

#include "test_vtk_common.hpp"

using namespace vtktest;

namespace {

const std::string kData = std::string(MESHIOPP_TEST_DATA) + "/su2/";

std::string read_text(const std::string& text, const mpp::Options& options = {}) { return outcome_of_string(text, "su2", "bad.su2", options); }
std::vector<std::int64_t> values(const NDArray& a) { return ints_of(a); }

}  // namespace

TEST(Su2Read, IndexColumnsAreOptionalAndMarkersAreSides) {
  const auto a = mpp::read(kData + "no_index_column.su2");
  const auto b = mpp::read(kData + "index_columns_and_ghost_count.su2");
  EXPECT_EQ(compare_meshes(a, b), "");
  ASSERT_EQ(a.cells.size(), 3u);
  EXPECT_EQ(a.cells[0].type, "triangle");
  EXPECT_EQ(a.cells[1].type, "quad");
  EXPECT_EQ(a.cells[2].type, "line");  // both markers' lines, merged into one block as meshio does
  EXPECT_EQ(values(a.cells[2].connectivity), (std::vector<std::int64_t>{0, 1, 1, 2, 4, 3, 5, 4}));
  // su2:tag as meshio numbers it: 0 for NELEM, 7 (an integer tag), then 8 (a name: previous + 1).
  EXPECT_EQ(values(a.cell_data.at("su2:tag")[2]), (std::vector<std::int64_t>{7, 7, 8, 8}));
  EXPECT_EQ(a.cell_data.at("su2:tag")[2].dtype(), mpp::DType::int32);
  const auto* bottom = region(a, "7", mpp::RegionKind::side);
  ASSERT_NE(bottom, nullptr);
  EXPECT_EQ(bottom->dim, 1);
  EXPECT_EQ(bottom->tag, 7);
  EXPECT_EQ(values(bottom->entries), (std::vector<std::int64_t>{0, 0, 2, 0}));  // triangle 0 edge 0; quad edge 0
  const auto* top = region(a, "top", mpp::RegionKind::side);
  ASSERT_NE(top, nullptr);
  EXPECT_EQ(values(top->entries), (std::vector<std::int64_t>{1, 1, 2, 2}));
  EXPECT_EQ(region(a, "top", mpp::RegionKind::cell), nullptr);
}

TEST(Su2Read, MarkerElementsThatBoundNoVolumeCellAreACellRegion) {
  const auto m = mpp::read(kData + "marker_bounding_no_volume_cell.su2");
  const auto* side = region(m, "wire", mpp::RegionKind::side);
  const auto* cell = region(m, "wire", mpp::RegionKind::cell);
  ASSERT_NE(side, nullptr);
  ASSERT_NE(cell, nullptr);
  EXPECT_EQ(values(side->entries), (std::vector<std::int64_t>{0, 1}));  // edge (1, 2) of the triangle
  EXPECT_EQ(values(cell->entries), (std::vector<std::int64_t>{2}));     // the line (2, 3): global cell 2
}

TEST(Su2Read, ZonesOneByOneOrAll) {
  const auto all = mpp::read(kData + "multizone.su2");
  EXPECT_EQ(all.num_points(), 9u);
  ASSERT_EQ(all.cells.size(), 4u);
  EXPECT_EQ(all.cells[2].type, "pyramid");
  EXPECT_EQ(values(all.cells[2].connectivity), (std::vector<std::int64_t>{4, 5, 6, 7, 8}));  // offset by zone 1's points
  EXPECT_EQ(values(region(all, "zone_1", mpp::RegionKind::cell)->entries), (std::vector<std::int64_t>{0, 1}));
  EXPECT_EQ(values(region(all, "zone_2", mpp::RegionKind::cell)->entries), (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(values(region(all, "zone_1:wall", mpp::RegionKind::side)->entries), (std::vector<std::int64_t>{0, 3}));
  EXPECT_EQ(values(region(all, "zone_2:wall", mpp::RegionKind::side)->entries), (std::vector<std::int64_t>{2, 0}));
  const auto two = mpp::read(kData + "multizone.su2", "su2", {{"zone", "2"}});
  EXPECT_EQ(two.num_points(), 5u);
  ASSERT_EQ(two.cells.size(), 2u);
  EXPECT_EQ(values(two.cells[0].connectivity), (std::vector<std::int64_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(values(region(two, "wall", mpp::RegionKind::side)->entries), (std::vector<std::int64_t>{0, 0}));
  EXPECT_THROW(mpp::read(kData + "multizone.su2", "su2", {{"zone", "3"}}), mpp::ReadError);
  EXPECT_THROW(mpp::read(kData + "multizone.su2", "su2", {{"zone", "-1"}}), std::invalid_argument);
}

TEST(Su2RoundTrip, MarkersComeBackAsTheSameRegions) {
  for (const std::string name : {"no_index_column", "square2d_gmsh", "extruded_gmsh", "marker_bounding_no_volume_cell"}) {
    SCOPED_TRACE(name);
    const auto m = mpp::read(kData + name + ".su2");
    const std::string path = tmp_path("rt_" + name + ".su2");
    mpp::write(path, m, "su2");
    const auto back = mpp::read(path, "su2");
    EXPECT_EQ(compare_arrays("points", m.points, back.points), "");
    std::map<std::string, std::vector<std::int64_t>> a, b;
    for (const auto& r : m.regions) a[r.name + "/" + mpp::region_kind_name(r.kind)] = values(r.entries);
    for (const auto& r : back.regions) b[r.name + "/" + mpp::region_kind_name(r.kind)] = values(r.entries);
    EXPECT_EQ(a, b);
    // Volume blocks are the same; boundary blocks hold the same elements.
    for (std::size_t i = 0; i < m.cells.size(); ++i) {
      EXPECT_EQ(m.cells[i].type, back.cells[i].type);
      EXPECT_EQ(m.cells[i].size(), back.cells[i].size());
    }
  }
}

TEST(Su2Write, WithoutRegionsMarkersFollowTheTagsAsMeshio) {
  mpp::Mesh m;
  m.points = grid_points(2);
  m.cells.push_back(mpp::CellBlock::rectangular("triangle", i64({0, 1, 3, 1, 4, 3}, {2, 3})));
  m.cells.push_back(mpp::CellBlock::rectangular("line", i64({0, 1, 1, 4, 4, 3}, {3, 2})));
  m.cell_data["su2:tag"] = {NDArray::from_vector<std::int32_t>({0, 0}), NDArray::from_vector<std::int32_t>({5, 2, 5})};
  const std::string path = tmp_path("tags.su2");
  mpp::write(path, m, "su2");
  const std::string text = slurp(path);
  EXPECT_EQ(text.rfind("NDIME= 2\nNPOIN= 27\n0 0\n0.5 -0.1\n", 0), 0u) << text;  // meshio's order: points first
  EXPECT_NE(text.find("\nNELEM= 2\n5 0 1 3\n5 1 4 3\nNMARK= 2\n"), std::string::npos) << text;
  EXPECT_NE(text.find("NMARK= 2\nMARKER_TAG= 2\nMARKER_ELEMS= 1\n3 1 4\nMARKER_TAG= 5\nMARKER_ELEMS= 2\n3 0 1\n3 4 3\n"), std::string::npos) << text;
  const auto back = mpp::read(path, "su2");
  EXPECT_EQ(values(back.cell_data.at("su2:tag")[1]), (std::vector<std::int64_t>{2, 5, 5}));
  EXPECT_EQ(values(region(back, "5", mpp::RegionKind::side)->entries), (std::vector<std::int64_t>{0, 0, 1, 1}));
}

TEST(Su2Malformed, ErrorsNameThePlaceAndWhatWasExpected) {
  auto expect = [](const std::string& outcome, std::initializer_list<const char*> parts) {
    EXPECT_EQ(outcome.rfind("ReadError: su2: ", 0), 0u) << outcome;
    for (const char* p : parts) EXPECT_NE(outcome.find(p), std::string::npos) << "'" << p << "' not in: " << outcome;
  };
  const std::string pts = "NPOIN= 3\n0 0\n1 0\n0 1\n";
  expect(read_text("NDIME= 4\n"), {"line 1", "expected NDIME= 2 or 3, found '4'"});
  expect(read_text("NDIME= 2\nNELEM= 1\n5 0 1 3\n" + pts), {"line 2", "node index 3 is outside 0..2"});
  expect(read_text("NDIME= 2\nNELEM= 1\n6 0 1 2\n" + pts), {"line 3", "element type 6: expected 3, 5, 9, 10, 12, 13 or 14"});
  expect(read_text("NDIME= 2\nNELEM= 1\n5 0 1 2 0 9\n" + pts), {"expected the end of the element row, found '9'"});
  expect(read_text("NDIME= 2\nNELEM= 1000000000000\n5 0 1 2\n" + pts), {"declared 1000000000000 elements"});
  expect(read_text("NDIME= 2\nNELEM= 1\n5 0 1 2\nNPOIN= 3\n0 0\n1 x\n0 1\n"), {"line 6", "expected a point coordinate, found 'x'"});
  expect(read_text("NDIME= 2\nNELEM= 1\n5 0 1 2\nNPOIN= 3\n0 0 1 2 3\n"), {"expected the end of the point row"});
  expect(read_text("NPOIN= 3\n"), {"NPOIN before NDIME"});
  expect(read_text("NDIME= 2\nNELEM= 1\n5 0 1 2\n" + pts + "MARKER_ELEMS= 1\n3 0 1\n"), {"MARKER_ELEMS without a MARKER_TAG"});
  expect(read_text("NDIME= 2\nNELEM= -1\n"), {"expected an element count, found '-1'"});
  expect(read_text("% nothing\n"), {"expected NDIME, NELEM and NPOIN, found none"});
  expect(read_text("NZONE= 3\nIZONE= 1\nNDIME= 2\nNELEM= 1\n5 0 1 2\n" + pts), {"NZONE= 3 but 1 zones follow"});
  // Three triangles on one marked edge: not a conforming mesh.
  expect(read_text("NDIME= 2\nNELEM= 3\n5 0 1 2\n5 0 1 2\n5 1 0 2\n" + pts + "NMARK= 1\nMARKER_TAG= w\nMARKER_ELEMS= 1\n3 0 1\n"),
         {"line 12", "marker 'w': an element is a facet of more than two volume cells"});
}

TEST(Su2Malformed, DuplicatedCellsAndMarkersStayLinear) {
  // 20000 copies of one tetrahedron and 5000 markers holding its face: refused at the third
  // owner (the message says so), not after 10^8 pairings.
  std::string text = "NDIME= 3\nNELEM= 20000\n";
  for (int i = 0; i < 20000; ++i) text += "10 0 1 2 3\n";
  text += "NPOIN= 4\n0 0 0\n1 0 0\n0 1 0\n0 0 1\nNMARK= 5000\n";
  for (int i = 0; i < 5000; ++i) text += "MARKER_TAG= m" + std::to_string(i) + "\nMARKER_ELEMS= 1\n5 0 1 3\n";
  const std::string outcome = read_text(text);
  EXPECT_NE(outcome.find("more than two volume cells"), std::string::npos) << outcome.substr(0, 300);
}

TEST(Su2Fuzz, EveryPrefixAndCorruptionIsAMeshOrReadError) {
  std::size_t cases = 0;
  for (const std::string name : {"no_index_column", "index_columns_and_ghost_count", "marker_bounding_no_volume_cell", "multizone", "square2d_gmsh"}) {
    const std::string bytes = slurp(kData + name + ".su2");
    cases += sweep(bytes, "su2", "probe.su2", Sweep::xor_each(1, 1, {0x01, 0x20}).errors_start("ReadError: su2: ")).files;
  }
  EXPECT_GT(cases, 3000u);
}

TEST(Su2Parallel, LargeSectionsReadTheSameOnOneAndFourThreads) {
  // 40000 triangles and points (above io::kParallelRowsMin) in four layouts: one row per
  // line; two rows per line (not SU2: a row ends at its line, and the cut at line starts is
  // wrong too, so both thread counts must report the first such row); a quadrilateral among
  // the triangles (a mixed section: parsed sequentially); and a bad index near the end (the
  // error must be the first one, in file order).
  const std::size_t n = 40000;
  std::string pts = "NPOIN= " + std::to_string(n + 2) + "\n";
  for (std::size_t i = 0; i < n + 2; ++i) pts += std::to_string(i) + ".5 " + std::to_string(i % 7) + (i % 2 ? " " + std::to_string(i) : "") + "\n";
  std::string one = "NDIME= 2\nNELEM= " + std::to_string(n) + "\n", two = one, mixed = one;
  for (std::size_t i = 0; i < n; ++i) {
    const std::string row = "5 " + std::to_string(i) + " " + std::to_string(i + 1) + " " + std::to_string(i + 2);
    one += row + "\n";
    two += row + (i % 2 ? "\n" : " ");
    mixed += (i == n / 2 ? "9 " + std::to_string(i) + " " + std::to_string(i + 1) + " " + std::to_string(i + 2) + " 0" : row) + "\n";
  }
  const std::string p1 = tmp_path("par1.su2"), p2 = tmp_path("par2.su2"), p3 = tmp_path("par3.su2"), p4 = tmp_path("par4.su2");
  spit(p1, one + pts);
  spit(p2, two + pts);
  spit(p3, mixed + pts);
  std::string bad = one;
  bad.replace(bad.rfind('\n', bad.size() - 2) + 3, 1, "x");  // in the last row's first node index
  spit(p4, bad + pts);
  const auto a = mpp::read(p1, "su2", {{"threads", "1"}});
  ASSERT_EQ(a.cells.size(), 1u);
  EXPECT_EQ(a.cells[0].connectivity.value_as_int64(3 * (n - 1) + 2), static_cast<std::int64_t>(n + 1));
  EXPECT_EQ(a.points.value_as_double(2 * (n + 1)), static_cast<double>(n + 1) + 0.5);
  EXPECT_EQ(compare_meshes(a, mpp::read(p1, "su2", {{"threads", "4"}})), "");
  const auto m1 = mpp::read(p3, "su2", {{"threads", "1"}}), m4 = mpp::read(p3, "su2", {{"threads", "4"}});
  ASSERT_EQ(m1.cells.size(), 2u);
  EXPECT_EQ(m1.cells[1].type, "quad");
  EXPECT_EQ(compare_meshes(m1, m4), "");
  auto error = [](const std::string& p, const char* threads) {
    try {
      mpp::read(p, "su2", {{"threads", threads}});
    } catch (const mpp::ReadError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error(p2, "1").find("line 3 (byte 32): expected the end of the element row"), std::string::npos) << error(p2, "1");
  EXPECT_EQ(error(p2, "1"), error(p2, "4"));
  EXPECT_NE(error(p4, "1").find("expected a node index"), std::string::npos) << error(p4, "1");
  EXPECT_EQ(error(p4, "1"), error(p4, "4"));
}
