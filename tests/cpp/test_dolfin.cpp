// DOLFIN XML: round trips with companion cell-data files, vertices and cells placed by their
// index in any order, interval meshes of dim 1, facet functions and mesh value
// collections, errors that name the element's line, sizes that lie, the writer's choice
// of cell type, and every truncated prefix / some corruptions.
#include <gtest/gtest.h>

#include <filesystem>

#include "test_vtk_common.hpp"

using namespace vtktest;

namespace {

std::string outcome_of(const std::string& text) { return outcome_of_string(text, "dolfin-xml", "outcome.xml"); }

// A unit square of two triangles, written by hand in DOLFIN's layout, vertices out of order.
const std::string kSquare =
    "<?xml version=\"1.0\"?>\n"
    "<dolfin xmlns:dolfin=\"http://fenicsproject.org\">\n"
    "  <mesh celltype=\"triangle\" dim=\"2\">\n"
    "    <vertices size=\"4\">\n"
    "      <vertex index=\"2\" x=\"1\" y=\"1\"/>\n"
    "      <vertex index=\"0\" x=\"0\" y=\"0\"/>\n"
    "      <vertex index=\"3\" x=\"0\" y=\"1\"/>\n"
    "      <vertex index=\"1\" x=\"1\" y=\"0\"/>\n"
    "    </vertices>\n"
    "    <cells size=\"2\">\n"
    "      <triangle index=\"1\" v0=\"0\" v1=\"2\" v2=\"3\"/>\n"
    "      <triangle index=\"0\" v0=\"0\" v1=\"1\" v2=\"2\"/>\n"
    "    </cells>\n"
    "  </mesh>\n"
    "</dolfin>\n";

mpp::Mesh tet_mesh() {
  mpp::Mesh m;
  m.points = NDArray::from_vector<double>({0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1.25}, {5, 3});
  m.cells.push_back(mpp::CellBlock::rectangular("tetra", i64({0, 1, 2, 3, 1, 2, 3, 4}, {2, 4})));
  return m;
}

}  // namespace

TEST(DolfinRead, VerticesAndCellsArePlacedByIndex) {
  const auto m = read_string(kSquare, "dolfin-xml", "square.xml");
  EXPECT_EQ(doubles_of(m.points), (std::vector<double>{0, 0, 1, 0, 1, 1, 0, 1}));
  ASSERT_EQ(m.cells.size(), 1u);
  EXPECT_EQ(m.cells[0].type, "triangle");
  EXPECT_EQ(ints_of(m.cells[0].connectivity), (std::vector<std::int64_t>{0, 1, 2, 0, 2, 3}));
}

TEST(DolfinRoundTrip, CellDataGoesThroughCompanionFiles) {
  auto m = tet_mesh();
  m.cell_data["material"] = {i64({7, -3}, {2})};
  m.cell_data["quality"] = {NDArray::from_vector<double>({0.5, 1.0 / 3.0}, {2})};
  const std::string path = tmp_path("rt_tet.xml");
  mpp::write(path, m, "dolfin-xml");
  EXPECT_TRUE(std::filesystem::exists(tmp_path("rt_tet_material.xml")));
  EXPECT_NE(slurp(tmp_path("rt_tet_quality.xml")).find("<mesh_function type=\"float\" dim=\"3\" size=\"2\">"), std::string::npos);
  const auto back = mpp::read(path, "dolfin-xml");
  EXPECT_EQ(compare_meshes(m, back), "");
}

TEST(DolfinRead, IntervalsOfDimOneGetYZero) {
  const std::string text =
      "<dolfin><mesh celltype=\"interval\" dim=\"1\"><vertices size=\"3\">"
      "<vertex index=\"0\" x=\"0\"/><vertex index=\"1\" x=\"0.5\"/><vertex index=\"2\" x=\"2\"/></vertices>"
      "<cells size=\"2\"><interval index=\"0\" v0=\"0\" v1=\"1\"/><interval index=\"1\" v0=\"1\" v1=\"2\"/></cells></mesh></dolfin>";
  const auto m = read_string(text, "dolfin-xml", "interval.xml");
  EXPECT_EQ(doubles_of(m.points), (std::vector<double>{0, 0, 0.5, 0, 2, 0}));
  EXPECT_EQ(m.cells[0].type, "line");
  EXPECT_EQ(ints_of(m.cells[0].connectivity), (std::vector<std::int64_t>{0, 1, 1, 2}));
}

TEST(DolfinRead, FacetFunctionsAreSkippedAndValueCollectionsOfCellsRead) {
  const std::string dir = tmp_path("companions");
  std::filesystem::create_directories(dir);
  spit(dir + "/sq.xml", kSquare);
  // A facet function (5 edges): not cell data, skipped with a warning naming the file.
  spit(dir + "/sq_facet_region.xml",
       "<dolfin><mesh_function type=\"uint\" dim=\"1\" size=\"5\"><entity index=\"0\" value=\"1\"/><entity index=\"1\" value=\"1\"/>"
       "<entity index=\"2\" value=\"1\"/><entity index=\"3\" value=\"1\"/><entity index=\"4\" value=\"2\"/></mesh_function></dolfin>");
  spit(dir + "/sq_physical.xml",
       "<dolfin><mesh_value_collection name=\"p\" type=\"int\" dim=\"2\" size=\"2\"><value cell_index=\"1\" local_entity=\"0\" value=\"-4\"/>"
       "<value cell_index=\"0\" local_entity=\"0\" value=\"9\"/></mesh_value_collection></dolfin>");
  spit(dir + "/sq_weight.xml",
       "<dolfin><mesh_function type=\"double\" dim=\"2\" size=\"2\"><entity index=\"0\" value=\"0.25\"/><entity index=\"1\" value=\"1e3\"/>"
       "</mesh_function></dolfin>");
  spit(dir + "/sq_not.data.xml", "not xml at all");  // '.' in the name: not a companion
  const auto m = mpp::read(dir + "/sq.xml", "dolfin-xml");
  EXPECT_EQ(m.cell_data.count("facet_region"), 0u);
  EXPECT_TRUE(has_warning(m, "sq_facet_region.xml", "5 values for the 2 cells"));
  EXPECT_EQ(ints_of(m.cell_data.at("physical")[0]), (std::vector<std::int64_t>{9, -4}));
  EXPECT_EQ(doubles_of(m.cell_data.at("weight")[0]), (std::vector<double>{0.25, 1000}));
  EXPECT_EQ(m.cell_data.at("weight")[0].dtype(), mpp::DType::float64);
  // A companion that repeats an entity is a ReadError naming the companion and its line.
  spit(dir + "/sq_weight.xml",
       "<dolfin><mesh_function type=\"double\" dim=\"2\" size=\"2\">\n<entity index=\"0\" value=\"1\"/>\n<entity index=\"0\" value=\"2\"/>"
       "</mesh_function></dolfin>");
  expect_read_error(read_outcome(dir + "/sq.xml", "dolfin-xml"), "sq_weight.xml", "line 3");
}

TEST(DolfinMalformed, ErrorsNameTheElementAndLine) {
  ASSERT_EQ(outcome_of(kSquare), "mesh");
  auto rep = [&](const std::string& from, const std::string& to) { return replaced(kSquare, from, to); };
  const std::vector<std::pair<std::string, std::string>> cases = {
      {rep("index=\"3\" x", "index=\"2\" x"), "index 2 appears twice"},
      {rep("index=\"3\" x", "index=\"4\" x"), "index=\"4\" is outside [0, 4)"},
      {rep("v2=\"3\"", "v2=\"9\""), "v2=\"9\" is outside [0, 4)"},
      {rep("      <vertex index=\"1\" x=\"1\" y=\"0\"/>\n", ""), "declares 4 entries, 3 are given"},
      {rep("x=\"1\" y=\"0\"", "x=\"1\""), "no attribute y"},
      {rep("x=\"1\" y=\"0\"", "x=\"one\" y=\"0\""), "expected a number in x, found 'one'"},
      {rep("celltype=\"triangle\"", "celltype=\"hexahedron\""), "celltype interval, triangle or tetrahedron"},
      {rep("dim=\"2\"", "dim=\"7\""), "dim 1, 2 or 3"},
      {rep("vertices size=\"4\"", "vertices size=\"4000000\""), "declares 4000000 entries but only"},
      {rep("<triangle index=\"0\"", "<tetrahedron index=\"0\""), "expected <triangle>"},
      {rep("<dolfin ", "<dolphin "), "end tag"},
  };
  for (const auto& [text, needle] : cases) expect_read_error(outcome_of(text), needle, "line ");
}

TEST(DolfinWrite, OneCellTypeIsWrittenAndOtherBlocksWarn) {
  auto m = tet_mesh();
  m.cells.insert(m.cells.begin(), mpp::CellBlock::rectangular("triangle", i64({0, 1, 2}, {1, 3})));
  m.cell_data["id"] = {i64({5}, {1}), i64({6, 7}, {2})};
  const std::string path = tmp_path("mixed.xml");
  mpp::write(path, m, "dolfin-xml");
  const auto back = mpp::read(path, "dolfin-xml");
  ASSERT_EQ(back.cells.size(), 1u);
  EXPECT_EQ(back.cells[0].type, "tetra");
  EXPECT_EQ(ints_of(back.cell_data.at("id")[0]), (std::vector<std::int64_t>{6, 7}));  // the tetra's own values

  mpp::Mesh quads;
  quads.points = tet_mesh().points;
  quads.cells.push_back(mpp::CellBlock::rectangular("quad", i64({0, 1, 2, 3}, {1, 4})));
  spit(path, "keep me");
  EXPECT_THROW(mpp::write(path, quads, "dolfin-xml"), mpp::WriteError);
  EXPECT_EQ(slurp(path), "keep me");
}

TEST(DolfinFuzz, EveryPrefixAndCorruptionIsAMeshOrReadError) {
  const std::size_t files = sweep(kSquare, "dolfin-xml", "fuzz_probe.xml", Sweep::xor_each(1, 2, {0x01, 0x10, 0x80}).validating()).files;
  EXPECT_GT(files, 500u);
}

TEST(DolfinFastPath, ListsReadTheSameOnEveryPathAndThreadCount) {
  // 40000 vertices and triangles (above io::kParallelRowsMin), indented a row per line as
  // DOLFIN and meshio write them (the fast path, on several threads); the same with one
  // row straying from that layout in each list (attributes in another order, single
  // quotes, rows out of index order: the general path); and a node index out of range near
  // the end (the error must be the general path's, whatever the thread count).
  const std::size_t n = 40000;
  auto document = [&](std::size_t stray) {
    std::string s = "<?xml version=\"1.0\"?>\n<dolfin>\n  <mesh celltype=\"triangle\" dim=\"2\">\n    <vertices size=\"" + std::to_string(n + 2) + "\">\n";
    for (std::size_t i = 0; i < n + 2; ++i) {
      const std::string x = std::to_string(i) + ".25", y = std::to_string(i % 7);
      s += i == stray ? "      <vertex y='" + y + "' index='" + std::to_string(i) + "' x='" + x + "'/>\n"
                      : "      <vertex index=\"" + std::to_string(i) + "\" x=\"" + x + "\" y=\"" + y + "\" />\n";
    }
    s += "    </vertices>\n    <cells size=\"" + std::to_string(n) + "\">\n";
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t c = i == stray ? i + 1 : i == stray + 1 ? i - 1 : i;  // a swapped pair
      s += "      <triangle index=\"" + std::to_string(c) + "\" v0=\"" + std::to_string(c) + "\" v1=\"" + std::to_string(c + 1) +
           "\" v2=\"" + std::to_string(c + 2) + "\" />\n";
    }
    return s + "    </cells>\n  </mesh>\n</dolfin>\n";
  };
  const std::string fast = tmp_path("fast.xml"), general = tmp_path("general.xml"), bad = tmp_path("bad.xml");
  spit(fast, document(n + 5));
  spit(general, document(n / 2));
  spit(bad, replaced(document(n + 5), "v2=\"" + std::to_string(n) + "\"", "v2=\"" + std::to_string(3 * n) + "\""));
  const auto a = mpp::read(general, "dolfin-xml", {{"threads", "1"}});
  EXPECT_EQ(a.cells[0].connectivity.value_as_int64(3 * (n - 1) + 2), static_cast<std::int64_t>(n + 1));
  EXPECT_EQ(a.points.value_as_double(2 * (n + 1)), static_cast<double>(n + 1) + 0.25);
  for (const auto& p : {fast, general})
    for (const char* t : {"1", "4"}) EXPECT_EQ(compare_meshes(a, mpp::read(p, "dolfin-xml", {{"threads", t}})), "") << p << " threads " << t;
  const std::string e1 = read_outcome(bad, "dolfin-xml", {{"threads", "1"}}), e4 = read_outcome(bad, "dolfin-xml", {{"threads", "4"}});
  EXPECT_NE(e1.find("v2=\"" + std::to_string(3 * n) + "\" is outside [0, " + std::to_string(n + 2) + ")"), std::string::npos) << e1;
  EXPECT_EQ(e1, e4);
}

TEST(DolfinWrite, ManyRowsFormattedOnSeveralThreadsGiveTheSameBytes) {
  // Two tetra blocks of 70000 rows each (several chunks of io::write_rows; the second
  // block's indices continue the first's) and 80000 points.
  const std::size_t np = 80000;
  std::vector<double> p(3 * np);
  for (std::size_t i = 0; i < p.size(); ++i) p[i] = static_cast<double>(i % 977) * 0.125 - static_cast<double>(i / 5);
  mpp::Mesh m;
  m.points = mpp::NDArray::from_vector(p, {np, 3});
  for (int b = 0; b < 2; ++b) {
    std::vector<std::int64_t> c(4 * 70000);
    for (std::size_t i = 0; i < c.size(); ++i) c[i] = static_cast<std::int64_t>((i * 13 + static_cast<std::size_t>(b)) % np);
    m.cells.push_back(mpp::CellBlock::rectangular("tetra", mpp::NDArray::from_vector(c, {70000, 4})));
  }
  EXPECT_EQ(thread_counts_changing_bytes(m, "dolfin-xml", ".xml"), "");
  const auto back = mpp::read(tmp_path("threads8.xml"), "dolfin-xml");
  ASSERT_EQ(back.cells.size(), 1u);
  EXPECT_EQ(back.cells[0].size(), 140000u);
  EXPECT_EQ(back.cells[0].connectivity.value_as_int64(4 * 70000), m.cells[1].connectivity.value_as_int64(0));
  EXPECT_EQ(compare_meshes(mpp::Mesh{back.points}, mpp::Mesh{m.points}), "");
}
