// Tecplot ASCII: the hand-written fixtures (FEBLOCK with cell-centred variables, two POINT
// zones, degenerate bricks), round trips of every linear type (mixed types through
// degenerate elements), errors that name the line, writer errors, and every truncated
// prefix / some corruptions.
#include <gtest/gtest.h>

#include "test_vtk_common.hpp"

using namespace vtktest;

namespace {

std::string outcome_of(const std::string& text) { return outcome_of_string(text, "tecplot", "outcome.dat"); }

const std::string kSmall =
    "TITLE = \"t\"\n"
    "VARIABLES = \"X\", \"Y\", \"u\"\n"
    "ZONE NODES = 4, ELEMENTS = 2,\n"
    "DATAPACKING = BLOCK, ZONETYPE = FETRIANGLE\n"
    "0 1 1 0\n0 0 1 1\n5 6 7 8\n"
    "1 2 3\n1 3 4\n";

}  // namespace

TEST(TecplotRead, FeblockWithCellCentredVariables) {
  const auto m = mpp::read(data_path("tecplot", "feblock-cell-centered.dat"), "tecplot");
  ASSERT_EQ(m.cells.size(), 1u);
  EXPECT_EQ(m.cells[0].type, "tetra");
  EXPECT_EQ(ints_of(m.cells[0].connectivity), (std::vector<std::int64_t>{0, 1, 2, 3, 1, 2, 3, 4}));
  EXPECT_EQ(points_of(m), (std::vector<double>{0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1}));
  EXPECT_EQ(doubles_of(m.cell_data.at("Pressure_Field")[0]), (std::vector<double>{1.5, 2.5}));
  EXPECT_EQ(doubles_of(m.cell_data.at("rho")[0]), (std::vector<double>{10, 20}));
  EXPECT_TRUE(m.point_data.empty());
}

TEST(TecplotRead, TwoZonesAreConcatenatedWithRegions) {
  const auto m = mpp::read(data_path("tecplot", "two-zones.dat"), "tecplot");
  ASSERT_EQ(m.cells.size(), 2u);
  EXPECT_EQ(ints_of(m.cells[1].connectivity), (std::vector<std::int64_t>{4, 5, 6}));  // offset by the first zone's 4 nodes
  EXPECT_EQ(doubles_of(m.point_data.at("T")), (std::vector<double>{1, 2, 3, 4, 5, 6, 7}));
  ASSERT_NE(region(m, "left"), nullptr);
  ASSERT_NE(region(m, "right"), nullptr);
  EXPECT_EQ(ints_of(region(m, "right")->entries), (std::vector<std::int64_t>{1}));
  EXPECT_TRUE(has_warning(m, "DATASETAUXDATA", "line 9"));
}

TEST(TecplotRead, DegenerateBricksCollapse) {
  const auto m = mpp::read(data_path("tecplot", "degenerate-brick.dat"), "tecplot");
  ASSERT_EQ(m.cells.size(), 4u);
  EXPECT_EQ(m.cells[0].type, "tetra");
  EXPECT_EQ(ints_of(m.cells[0].connectivity), (std::vector<std::int64_t>{0, 1, 2, 4}));
  EXPECT_EQ(m.cells[1].type, "pyramid");
  EXPECT_EQ(ints_of(m.cells[1].connectivity), (std::vector<std::int64_t>{0, 1, 2, 3, 8}));
  EXPECT_EQ(m.cells[2].type, "wedge");
  EXPECT_EQ(ints_of(m.cells[2].connectivity), (std::vector<std::int64_t>{0, 1, 2, 3, 4, 5, 1, 9, 10, 5, 11, 6}));
  EXPECT_EQ(m.cells[3].type, "hexahedron");
  EXPECT_EQ(doubles_of(m.cell_data.at("c")[2]), (std::vector<double>{3, 4}));
}

TEST(TecplotRoundTrip, EveryLinearTypeAlone) {
  for (auto [t, k] : std::vector<std::pair<std::string, std::size_t>>{
           {"line", 2}, {"triangle", 3}, {"quad", 4}, {"tetra", 4}, {"pyramid", 5}, {"wedge", 6}, {"hexahedron", 8}}) {
    mpp::Mesh m;
    m.points = grid_points();
    std::vector<std::int64_t> row{0, 1, 4, 3, 9, 10, 13, 12};
    row.resize(k);
    if (t == "triangle") row = {0, 1, 4};
    m.cells.push_back(mpp::CellBlock::rectangular(t, i64(row, {1, k})));
    m.cell_data["c"] = {NDArray::from_vector<double>({2.5})};
    const std::string path = tmp_path("rt.dat");
    mpp::write(path, m, "tecplot");
    const auto back = mpp::read(path, "tecplot");
    EXPECT_EQ(compare_meshes(m, back, false), "") << t;
  }
}

TEST(TecplotRoundTrip, MixedTypesThroughDegenerateElements) {
  mpp::Mesh m;
  m.points = grid_points();
  m.cells.push_back(mpp::CellBlock::rectangular("tetra", i64({0, 1, 3, 9}, {1, 4})));
  m.cells.push_back(mpp::CellBlock::rectangular("pyramid", i64({0, 1, 4, 3, 9}, {1, 5})));
  m.cells.push_back(mpp::CellBlock::rectangular("wedge", i64({0, 1, 3, 9, 10, 12}, {1, 6})));
  m.cells.push_back(mpp::CellBlock::rectangular("hexahedron", i64({0, 1, 4, 3, 9, 10, 13, 12}, {1, 8})));
  m.cells.push_back(mpp::CellBlock::rectangular("triangle", i64({0, 1, 4}, {1, 3})));  // lower dimension: skipped
  std::vector<double> u(m.num_points(), 0.5);
  m.point_data["u"] = NDArray::from_vector(u);
  const std::string path = tmp_path("mixed.dat");
  mpp::write(path, m, "tecplot");
  const std::string text = slurp(path);
  EXPECT_NE(text.find("ZONETYPE = FEBRICK"), std::string::npos);
  EXPECT_NE(text.find("1 2 4 4 10 10 10 10\n"), std::string::npos) << text;  // the tetra, by meshio's table
  const auto back = mpp::read(path, "tecplot");
  m.cells.pop_back();
  EXPECT_EQ(compare_meshes(m, back, false), "");
}

TEST(TecplotRead, ErrorsNameTheLine) {
  const auto rep = [](const std::string& from, const std::string& to) { return replaced(kSmall, from, to); };
  const std::vector<std::pair<std::string, std::string>> cases = {
      {rep("ZONETYPE = FETRIANGLE", "ZONETYPE = FEPOLYGON"), "zone type FEPOLYGON is not supported"},
      {rep("ZONETYPE = FETRIANGLE", "ZONETYPE = ORDERED"), "zone type FEORDERED is not supported"},
      {rep("NODES = 4,", "I = 4,"), "ordered (I, J, K) zones are not supported"},
      {rep("DATAPACKING = BLOCK,", ""), "data format 'F' or 'DATAPACKING' not found"},
      {rep("1 3 4\n", "1 3 5\n"), "element 2: node 5 is outside 1..4"},
      {rep("5 6 7 8", "5 6 x 8"), "expected a zone value, found 'x'"},
      {rep("NODES = 4", "NODES = 4000000"), "declared 4000000 zone values"},
      {rep("ELEMENTS = 2", "ELEMENTS = 2000000"), "declared 6000000 element nodes"},
      {rep("\"X\", ", "\"A\", "), "variable 'X' not found"},
      {rep("VARIABLES", "VARIABLEZ"), "a ZONE before the VARIABLES record"},
  };
  for (const auto& [text, needle] : cases) expect_read_error(outcome_of(text), needle, "line ");
}

TEST(TecplotWrite, NoTecplotCellIsAWriteErrorAndLeavesTheFile) {
  mpp::Mesh m;
  m.points = grid_points();
  m.cells.push_back(rect("vertex", 1, 2));
  const std::string path = tmp_path("v.dat");
  spit(path, "keep me");
  try {
    mpp::write(path, m, "tecplot");
    FAIL() << "no WriteError";
  } catch (const mpp::WriteError& e) {
    EXPECT_NE(std::string(e.what()).find("no cell type supported by Tecplot"), std::string::npos) << e.what();
  }
  EXPECT_EQ(slurp(path), "keep me");
}

TEST(TecplotFuzz, EveryPrefixAndCorruptionIsAMeshOrReadError) {
  const std::string text = slurp(data_path("tecplot", "two-zones.dat"));
  EXPECT_GT(sweep(text, "tecplot", "fuzz_probe.dat", Sweep::xor_each(1, 1, {0x01, 0x10, 0x80}).validating()).files, 500u);
  const std::string bricks = slurp(data_path("tecplot", "degenerate-brick.dat"));
  EXPECT_GT(sweep(bricks, "tecplot", "fuzz_probe.dat", Sweep::xor_each(1, 1, {0x01, 0x20}).validating()).files, 500u);
}
