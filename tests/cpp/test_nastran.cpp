// Nastran bulk data: the hand-written awkward-case fixtures (tests/data/nastran, see its
// README) with values worked out by hand from the spec, warnings for skipped cards and
// coordinate systems, round trips in every point_format x cell_format layout, malformed
// input naming its line, writer refusals, and every truncated prefix / some corruptions.
#include <gtest/gtest.h>

#include <algorithm>

#include "test_vtk_common.hpp"

using namespace vtktest;

namespace {

std::string fixture(const std::string& name) { return data_path("nastran", name); }
mpp::Mesh read_text(const std::string& text, const std::string& name = "t.bdf") { return read_string(text, "nastran", name); }
std::string outcome_of(const std::string& text) { return outcome_of_string(text, "nastran", "bad.bdf"); }

const char* kFixtures[] = {"grid_after_elements.bdf", "unknown_cards.bdf", "large_field_continuation.bdf", "free_field.bdf",
                           "compact_floats.bdf", "cord2r.bdf", "continuation.bdf"};

}  // namespace

TEST(NastranFixtures, GridAfterElements) {
  const auto m = mpp::read(fixture("grid_after_elements.bdf"));
  EXPECT_EQ(points_of(m), (std::vector<double>{0, 0, 0, 1, 0, 0, 0, 1, 0, 2, 0, 0, 2, 1, 0}));
  ASSERT_EQ(m.cells.size(), 2u);
  EXPECT_EQ(m.cells[0].type, "triangle");
  EXPECT_EQ(ints_of(m.cells[0].connectivity), (std::vector<std::int64_t>{0, 1, 2}));
  EXPECT_EQ(m.cells[1].type, "quad");
  EXPECT_EQ(ints_of(m.cells[1].connectivity), (std::vector<std::int64_t>{1, 3, 4, 2}));
  ASSERT_EQ(m.cell_data.count("nastran:ref"), 1u);
  EXPECT_EQ(ints_of(m.cell_data.at("nastran:ref")[1]), (std::vector<std::int64_t>{7}));
  EXPECT_EQ(m.point_data.count("nastran:ref"), 0u);  // no GRID has a CP field
  EXPECT_TRUE(m.warnings.empty());
}

TEST(NastranFixtures, UnknownCardsAreSkippedWithTheirLine) {
  const auto m = mpp::read(fixture("unknown_cards.bdf"));
  ASSERT_EQ(m.cells.size(), 2u);
  EXPECT_EQ(m.cells[0].type, "line");  // CBUSH, as meshio reads it
  EXPECT_EQ(ints_of(m.cells[0].connectivity), (std::vector<std::int64_t>{0, 1}));
  EXPECT_EQ(ints_of(m.cell_data.at("nastran:ref")[0]), (std::vector<std::int64_t>{20}));
  EXPECT_EQ(m.cells[1].type, "triangle");
  EXPECT_TRUE(has_warning(m, "PBUSH", "line 6")) << m.warnings.size();
  EXPECT_TRUE(has_warning(m, "MAT1", "line 7"));
  EXPECT_TRUE(has_warning(m, "FORCE", "line 10"));
  EXPECT_TRUE(has_warning(m, "SPC1", "line 11"));
  EXPECT_EQ(m.warnings.size(), 4u);
}

TEST(NastranFixtures, LargeFieldWithContinuation) {
  const auto m = mpp::read(fixture("large_field_continuation.bdf"));
  EXPECT_EQ(points_of(m), (std::vector<double>{0, 0, 0, 0.125, 0, 0, 0, 1, 0, 0, 0, 2.5}));
  ASSERT_EQ(m.cells.size(), 1u);
  EXPECT_EQ(m.cells[0].type, "tetra");
  EXPECT_EQ(ints_of(m.cells[0].connectivity), (std::vector<std::int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(ints_of(m.cell_data.at("nastran:ref")[0]), (std::vector<std::int64_t>{3}));
}

TEST(NastranFixtures, FreeField) {
  const auto m = mpp::read(fixture("free_field.bdf"));
  ASSERT_EQ(m.num_points(), 6u);
  EXPECT_EQ(points_of(m)[15], 0.5);
  ASSERT_EQ(m.cells.size(), 3u);
  EXPECT_EQ(m.cells[0].type, "tetra");
  EXPECT_EQ(m.cells[1].type, "pyramid");
  EXPECT_EQ(ints_of(m.cells[1].connectivity), (std::vector<std::int64_t>{0, 1, 4, 2, 5}));
  EXPECT_EQ(m.cells[2].type, "triangle");
  // A blank PID is the element id (the spec's default).
  EXPECT_EQ(ints_of(m.cell_data.at("nastran:ref")[2]), (std::vector<std::int64_t>{3}));
}

TEST(NastranFixtures, CompactFloats) {
  const auto m = mpp::read(fixture("compact_floats.bdf"));
  EXPECT_EQ(points_of(m), (std::vector<double>{1.5e-3, 1e4, -7.0, 7.0, 7.0, 7.0, 150.0, -0.25, 3.0}));
}

TEST(NastranFixtures, CoordinateSystems) {
  const auto m = mpp::read(fixture("cord2r.bdf"));
  const auto p = points_of(m);
  ASSERT_EQ(p.size(), 15u);
  // CORD2R 5: origin (10,0,0), x = basic x, y = basic -z, z = basic y.
  const double expected[15] = {0, 0, 0, 11, 3, -2, 10, 0, 0, 10, 1, -2, 1, 1, 1};
  for (int i = 0; i < 15; ++i) EXPECT_NEAR(p[static_cast<std::size_t>(i)], expected[i], 1e-12) << i;
  // Moved points are in the basic system now; the CORD1R one keeps its CP.
  EXPECT_EQ(ints_of(m.point_data.at("nastran:ref")), (std::vector<std::int64_t>{0, 0, 0, 0, 7}));
  EXPECT_TRUE(has_warning(m, "CORD1R at line 8", "1 GRID (the first at line 13)")) << (m.warnings.empty() ? "" : m.warnings[0]);
  EXPECT_EQ(m.warnings.size(), 1u);
}

TEST(NastranFixtures, ContinuationLines) {
  const auto m = mpp::read(fixture("continuation.bdf"));
  ASSERT_EQ(m.cells.size(), 2u);
  EXPECT_EQ(m.cells[0].type, "hexahedron20");
  std::vector<std::int64_t> iota(20);
  for (std::size_t i = 0; i < 20; ++i) iota[i] = static_cast<std::int64_t>(i);
  EXPECT_EQ(ints_of(m.cells[0].connectivity), iota);  // the fixture's grids are numbered in VTK order
  EXPECT_EQ(m.cells[1].type, "hexahedron");
  EXPECT_EQ(ints_of(m.cells[1].connectivity), (std::vector<std::int64_t>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(ints_of(m.cell_data.at("nastran:ref")[1]), (std::vector<std::int64_t>{4}));
}

TEST(NastranRead, UndefinedAndCyclicCoordinateSystemsWarn) {
  const auto m = read_text(
      "GRID,1,3,1.,2.,3.\nGRID,2,4,1.,2.,3.\nCORD2R,4,5,0.,0.,0.,0.,0.,1.\n+,1.,0.,0.\nCORD2R,5,4,0.,0.,0.,0.,0.,1.\n+,1.,0.,0.\n"
      "CORD2C,6,0,0.,0.,0.,0.,0.,0.\n+,1.,0.,0.\nGRID,3,6,1.,0.,0.\n");
  EXPECT_EQ(points_of(m), (std::vector<double>{1, 2, 3, 1, 2, 3, 1, 0, 0}));
  EXPECT_TRUE(has_warning(m, "coordinate system 3, which no CORD card defines"));
  EXPECT_TRUE(has_warning(m, "cycle"));
  EXPECT_TRUE(has_warning(m, "CORD2C 6", "coincident or collinear"));
}

TEST(NastranRead, BeginBulkIsOptionalAndExecutiveControlIsNotRead) {
  const auto a = read_text("SOL 101\nCEND\nTITLE = x\nBEGIN BULK\nGRID,1,,0.,0.,0.\nCONM2,1,1\nENDDATA\nGRID,2,,0.,0.,0.\n");
  EXPECT_EQ(a.num_points(), 1u);  // nothing after ENDDATA either
  ASSERT_EQ(a.cells.size(), 1u);
  EXPECT_EQ(a.cells[0].type, "vertex");
  EXPECT_TRUE(a.warnings.empty());
  const auto b = read_text("$ no BEGIN BULK\nGRID    1               0.      0.      0.\nCONM2   1       1\n");
  EXPECT_EQ(b.num_points(), 1u);
  EXPECT_EQ(b.cells.size(), 1u);
}

TEST(NastranRead, QuadraticSolidsInVtkOrder) {
  // CPENTA 15: bottom edges, then the edges joining bottom and top, then top edges.
  std::string text;
  for (int i = 1; i <= 15; ++i) text += "GRID," + std::to_string(i) + ",," + std::to_string(i) + ".,0.,0.\n";
  text += "CPENTA,1,1,1,2,3,4,5,6,7,8\n+,9,10,11,12,13,14,15\n";
  const auto m = read_text(text);
  ASSERT_EQ(m.cells.size(), 1u);
  EXPECT_EQ(m.cells[0].type, "wedge15");
  EXPECT_EQ(ints_of(m.cells[0].connectivity), (std::vector<std::int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 13, 14, 9, 10, 11}));
}

TEST(NastranRead, BlocksAreRunsOfOneTypeAsMeshioMakesThem) {
  const auto m = read_text(
      "GRID,1,,0.,0.,0.\nGRID,2,,1.,0.,0.\nGRID,3,,0.,1.,0.\nCTRIA3,1,1,1,2,3\nCROD,2,1,1,2\nCTRIA3,3,1,2,3,1\nCTRIA3,4,1,3,1,2\n");
  ASSERT_EQ(m.cells.size(), 3u);
  EXPECT_EQ(m.cells[2].type, "triangle");
  EXPECT_EQ(m.cells[2].size(), 2u);
}

TEST(NastranRead, TabsInFixedFieldAdvanceToTheNextField) {
  const auto m = read_text("GRID\t1\t\t1.\t2.\t3.\nCONM2\t7\t1\n");
  EXPECT_EQ(points_of(m), (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(m.cells.size(), 1u);
}

TEST(NastranMalformed, ErrorsNameTheCardAndLine) {
  auto expect_error = [](const std::string& text, const std::string& part) {
    const std::string o = outcome_of(text);
    EXPECT_EQ(o.rfind("ReadError: ", 0), 0u) << o;
    EXPECT_NE(o.find(part), std::string::npos) << o;
  };
  expect_error("GRID,1,,0.,0.,0.\nGRID,x,,0.,0.,0.\n", "line 2");
  expect_error("GRID,1,,0.,0.,0.\nGRID,2,,0.,abc,0.\n", "expected a real coordinate in field 5, found 'abc'");
  expect_error("GRID,1,,0.,0.,0.\n$ c\nCTRIA3,1,1,1,2,9\n", "line 3");
  expect_error("GRID,1,,0.,0.,0.\nCTRIA3,1,1,1,1,9\n", "GRID 9, which no GRID card defines");
  expect_error("CTETRA,1,1,1,2,3,4,5,6\n+,7\n", "7 grid ids; expected 4 or 10");
  expect_error("CQUAD4,1,1,1,2\n", "expected 4");
  expect_error("CORD2R,0,0,0.,0.,0.,0.,0.,1.\n", "CID > 0");
}

TEST(NastranRead, ContinuationWithoutACardIsSkipped) {
  const auto m = read_text("+       1       2\nGRID,1,,0.,0.,0.\n");
  EXPECT_EQ(m.num_points(), 1u);
  EXPECT_TRUE(has_warning(m, "continuation line", "line 1"));
}

namespace {

mpp::Mesh writable_mix() {
  mpp::Mesh m;
  std::vector<double> p;
  for (int i = 0; i < 27; ++i)
    p.insert(p.end(), {i * 0.1 - 1.0 / 3.0, 1e-7 * i + 123456.789, -2.5e12 / (i + 1)});
  m.points = NDArray::from_vector(p, {27, 3});
  for (auto [t, k] : std::vector<std::pair<std::string, std::size_t>>{
           {"vertex", 1}, {"line", 2}, {"triangle", 3}, {"triangle6", 6}, {"quad", 4}, {"quad8", 8}, {"quad9", 9},
           {"tetra", 4}, {"tetra10", 10}, {"pyramid", 5}, {"pyramid13", 13}, {"wedge", 6}, {"wedge15", 15},
           {"hexahedron", 8}, {"hexahedron20", 20}})
    m.cells.push_back(rect(t, k, 2, static_cast<std::int64_t>(k)));
  std::vector<std::int64_t> cp(27, 0);
  m.point_data["nastran:ref"] = NDArray::from_vector(cp);
  for (std::size_t b = 0; b < m.cells.size(); ++b)
    m.cell_data["nastran:ref"].push_back(NDArray::from_vector(std::vector<std::int64_t>{static_cast<std::int64_t>(b) + 1, 99}));
  return m;
}

}  // namespace

TEST(NastranRoundTrip, EveryLayout) {
  const auto mesh = writable_mix();
  for (const char* pf : {"free", "fixed-small", "fixed-large"})
    for (const char* cf : {"free", "fixed-small", "fixed-large"}) {
      SCOPED_TRACE(std::string(pf) + " / " + cf);
      const std::string path = tmp_path(std::string("rt_") + pf + "_" + cf + ".bdf");
      mpp::write(path, mesh, "nastran", {{"point_format", pf}, {"cell_format", cf}});
      const auto got = mpp::read(path, "nastran");
      EXPECT_TRUE(got.warnings.empty());
      // Cells and data exactly; points exactly in free field, else to the field's digits.
      mpp::Mesh same_points = got;
      same_points.points = mesh.points;
      EXPECT_EQ(compare_meshes(mesh, same_points), "");
      const double rel = std::string(pf) == "free" ? 0 : std::string(pf) == "fixed-large" ? 1e-11 : 5e-3;
      for (std::size_t i = 0; i < mesh.points.size(); ++i) {
        const double a = mesh.points.value_as_double(i), b = got.points.value_as_double(i);
        EXPECT_LE(std::fabs(a - b), rel * std::fabs(a)) << i << ": " << a << " vs " << b;
      }
    }
}

TEST(NastranWrite, FieldsHoldTheMostDigitsThatFit) {
  mpp::Mesh m;
  m.points = NDArray::from_vector(std::vector<double>{0.16666666666666666, -1.0e-300, 1.0 / 7.0, 5.0, 123456789.0, -0.5}, {2, 3});
  const std::string path = tmp_path("digits.bdf");
  mpp::write(path, m, "nastran", {{"point_format", "fixed-small"}});
  const std::string text = slurp(path);
  EXPECT_NE(text.find("GRID    1               0.166667 -1.-3000.142857\n"), std::string::npos) << text;
  EXPECT_NE(text.find("      5.1.2346+8    -0.5\n"), std::string::npos) << text;
  mpp::write(path, m, "nastran", {{"point_format", "fixed-large"}});
  const std::string large = slurp(path);
  EXPECT_NE(large.find("0.16666666666667"), std::string::npos) << large;
  EXPECT_NE(large.find("-1.E-300"), std::string::npos) << large;
}

TEST(NastranWrite, Refusals) {
  mpp::Mesh m;
  m.points = grid_points();
  m.cells.push_back(rect("line3", 3, 1));
  EXPECT_THROW(mpp::write(tmp_path("r.bdf"), m, "nastran"), mpp::WriteError);
  m.cells = {rect("tetra", 4, 1)};
  EXPECT_THROW(mpp::write(tmp_path("r.bdf"), m, "nastran", {{"cell_format", "wide"}}), std::invalid_argument);
  EXPECT_THROW(mpp::write(tmp_path("r.bdf"), m, "nastran", {{"float_fmt", ".3e"}}), std::invalid_argument);
  m.cell_data["nastran:ref"] = {NDArray::from_vector(std::vector<std::int64_t>{123456789})};
  EXPECT_THROW(mpp::write(tmp_path("r.bdf"), m, "nastran"), mpp::WriteError);  // 9 digits in an 8-column PID
  mpp::write(tmp_path("r.bdf"), m, "nastran", {{"cell_format", "fixed-large"}});
  EXPECT_EQ(ints_of(mpp::read(tmp_path("r.bdf")).cell_data.at("nastran:ref")[0]), (std::vector<std::int64_t>{123456789}));
}

TEST(NastranFuzz, EveryPrefixAndCorruptionIsAMeshOrReadError) {
  std::size_t files = 0;
  std::vector<std::string> sources;
  for (const char* f : kFixtures) sources.push_back(slurp(fixture(f)));
  const std::string rt = tmp_path("fuzz_src.bdf");
  mpp::write(rt, writable_mix(), "nastran");
  sources.push_back(slurp(rt));
  for (const std::string& bytes : sources)
    files += sweep(bytes, "nastran", "fuzz_probe.bdf", Sweep::set_each(bytes.size() / 300 + 1, bytes.size() / 100 + 1, {'+', '*', ',', '\t', '\n'})).files;
  EXPECT_GT(files, 2000u);
}

TEST(NastranRead, PropertyIdsAsMeshioNamesThem) {
  // CONM2 has no PID field (0); a blank CTRIA3 PID is its element id; CELAS1's PID is field 3.
  const auto m = read_text("GRID,1,,0.,0.,0.\nGRID,2,,1.,0.,0.\nGRID,3,,0.,1.,0.\nCONM2,10,1\nCTRIA3,11,,1,2,3\nCTRIA3,12,8,1,2,3\n"
                           "CELAS1,13,4,1,1\nCELAS1,14,4,1,1,2,1\n");
  ASSERT_EQ(m.cells.size(), 4u);
  EXPECT_EQ(m.cells[0].type, "vertex");
  EXPECT_EQ(m.cells[1].type, "triangle");
  EXPECT_EQ(m.cells[2].type, "vertex");
  EXPECT_EQ(m.cells[3].type, "line");
  EXPECT_EQ(ints_of(m.cells[3].connectivity), (std::vector<std::int64_t>{0, 1}));
  const auto& ref = m.cell_data.at("nastran:ref");
  EXPECT_EQ(ints_of(ref[0]), (std::vector<std::int64_t>{0}));
  EXPECT_EQ(ints_of(ref[1]), (std::vector<std::int64_t>{11, 8}));
  EXPECT_EQ(ints_of(ref[2]), (std::vector<std::int64_t>{4}));
  EXPECT_EQ(ints_of(ref[3]), (std::vector<std::int64_t>{4}));
}

TEST(NastranMalformed, AFileWithNoBulkDataIsNotADeck) {
  const std::string o = outcome_of("not a mesh\n$ comment\n");
  EXPECT_NE(o.find("no Nastran bulk data"), std::string::npos) << o;
  EXPECT_EQ(outcome_of("BEGIN BULK\nENDDATA\n"), "mesh");  // an empty deck is a deck
}

TEST(NastranRead, OneWarningPerSkippedCardWithItsCountAndFirstLine) {
  const auto m = read_text("PSHELL,1,1,.1\nPSHELL,2,1,.2\nMAT1,1,2.1+11,,.3\nGRID,1,,0.,0.,0.\nPSHELL,3,1,.3\n");
  ASSERT_EQ(m.warnings.size(), 2u);
  // read() puts "nastran: <path>: " in front of each, as errors name the file
  EXPECT_TRUE(m.warnings[0].starts_with("nastran: ")) << m.warnings[0];
  EXPECT_TRUE(m.warnings[0].ends_with(".bdf: skipped 3 PSHELL cards (the first at line 1): not mesh data")) << m.warnings[0];
  EXPECT_TRUE(m.warnings[1].ends_with(".bdf: skipped 1 MAT1 card (the first at line 3): not mesh data")) << m.warnings[1];
}

TEST(NastranRead, IncludeIsNotFollowedAndSaysSo) {
  const auto m = read_text("BEGIN BULK\nINCLUDE 'other.bdf'\nGRID,1,,0.,0.,0.\nENDDATA\n");
  EXPECT_EQ(m.num_points(), 1u);
  ASSERT_EQ(m.warnings.size(), 1u);
  EXPECT_TRUE(m.warnings[0].ends_with(".bdf: skipped 1 INCLUDE card (the first at line 2): the included file is not read"))
      << m.warnings[0];
}
