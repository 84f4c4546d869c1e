// Kratos MDPA: the hand-written fixtures (tests/data/mdpa, see its README) with values worked
// out from the Input-data block layouts, nested sub-model parts as regions, data blocks in
// Kratos' and meshio's spellings, skipped blocks warned with their line, round trips over
// every writable type, malformed input naming its line, and every truncated prefix / some
// corruptions.
#include <gtest/gtest.h>

#include <cmath>

#include "test_vtk_common.hpp"

using namespace vtktest;

namespace {

std::string fixture(const std::string& name) { return data_path("mdpa", name); }
std::string outcome_of(const std::string& text) { return outcome_of_string(text, "mdpa", "bad.mdpa"); }

const char* kFixtures[] = {"nested_sub_model_parts.mdpa", "nodal_and_elemental_data.mdpa"};

std::vector<std::int64_t> entries(const mpp::Mesh& m, const std::string& name, mpp::RegionKind kind) {
  const auto* r = region(m, name, kind);
  return r ? ints_of(r->entries) : std::vector<std::int64_t>{-99};
}

}  // namespace

TEST(MdpaFixtures, NestedSubModelParts) {
  const auto m = mpp::read(fixture("nested_sub_model_parts.mdpa"));
  EXPECT_EQ(points_of(m), (std::vector<double>{0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 2, 0.5, 0}));
  ASSERT_EQ(m.cells.size(), 3u);
  EXPECT_EQ(m.cells[0].type, "triangle");  // Element2D3N
  EXPECT_EQ(ints_of(m.cells[0].connectivity), (std::vector<std::int64_t>{0, 1, 2, 0, 2, 3}));
  EXPECT_EQ(m.cells[1].type, "quad");  // Element2D4N
  EXPECT_EQ(ints_of(m.cells[1].connectivity), (std::vector<std::int64_t>{1, 4, 2, 2}));
  EXPECT_EQ(m.cells[2].type, "line");  // LineCondition2D2N
  EXPECT_EQ(ints_of(m.cells[2].connectivity), (std::vector<std::int64_t>{0, 1, 3, 0}));
  const auto& props = m.cell_data.at("mdpa:property_id");
  EXPECT_EQ(ints_of(props[0]), (std::vector<std::int64_t>{1, 1}));
  EXPECT_EQ(ints_of(props[1]), (std::vector<std::int64_t>{2}));
  EXPECT_EQ(ints_of(props[2]), (std::vector<std::int64_t>{0, 0}));
  // Cells: triangles 0, 1 (elements 1, 2), quad 2 (element 3), lines 3, 4 (conditions 7, 8).
  // A part holds its descendants' entities.
  EXPECT_EQ(entries(m, "Body", mpp::RegionKind::cell), (std::vector<std::int64_t>{1, 2, 4}));
  EXPECT_EQ(entries(m, "Body", mpp::RegionKind::point), (std::vector<std::int64_t>{0, 2, 3}));
  EXPECT_EQ(entries(m, "Body.Left", mpp::RegionKind::cell), (std::vector<std::int64_t>{1, 4}));
  EXPECT_EQ(entries(m, "Body.Left", mpp::RegionKind::point), (std::vector<std::int64_t>{0, 3}));
  EXPECT_EQ(entries(m, "Body.Left.Edge", mpp::RegionKind::cell), (std::vector<std::int64_t>{4}));
  EXPECT_FALSE(region(m, "Body.Left.Edge", mpp::RegionKind::point));
  EXPECT_EQ(entries(m, "Supports", mpp::RegionKind::cell), (std::vector<std::int64_t>{3}));
  EXPECT_EQ(entries(m, "Supports", mpp::RegionKind::point), (std::vector<std::int64_t>{0, 1}));
  EXPECT_EQ(region(m, "Body.Left.Edge", mpp::RegionKind::cell)->dim, 1);
  EXPECT_EQ(region(m, "Body", mpp::RegionKind::cell)->dim, -1);  // triangles, a quad and a line
  EXPECT_TRUE(has_warning(m, "'Begin Properties 1' at line 5", "2 lines"));
  EXPECT_TRUE(has_warning(m, "'Begin Table 1 TIME TEMPERATURE' at line 10"));
  EXPECT_TRUE(has_warning(m, "'Begin SubModelPartData' at line 38"));
  EXPECT_EQ(m.warnings.size(), 3u);  // empty ModelPartData and SubModelPartTables: nothing to say
  m.validate();
}

TEST(MdpaFixtures, NodalAndElementalData) {
  const auto m = mpp::read(fixture("nodal_and_elemental_data.mdpa"));
  ASSERT_EQ(m.cells.size(), 2u);
  EXPECT_EQ(m.cells[0].type, "tetra");
  EXPECT_EQ(m.cells[1].type, "triangle");  // SurfaceCondition3D3N
  EXPECT_EQ(ints_of(m.cells[1].connectivity), (std::vector<std::int64_t>{0, 1, 2, 0, 1, 3}));
  const auto t = doubles_of(m.point_data.at("TEMPERATURE"));
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t[0], 20.5);
  EXPECT_TRUE(std::isnan(t[1]));
  EXPECT_EQ(t[2], -150.0);
  EXPECT_TRUE(std::isnan(t[3]));
  const auto& v = m.point_data.at("VELOCITY");
  EXPECT_EQ(v.shape(), (NDArray::Shape{4, 3}));
  EXPECT_EQ(doubles_of(v), (std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}));
  const auto& d = m.cell_data.at("DAMAGE");  // ElementalData and ConditionalData of one name
  EXPECT_EQ(doubles_of(d[0]), (std::vector<double>{0.25}));
  const auto d1 = doubles_of(d[1]);
  EXPECT_TRUE(std::isnan(d1[0]));
  EXPECT_EQ(d1[1], 0.75);
  const auto& n = m.cell_data.at("NORMAL");
  EXPECT_EQ(n[1].shape(), (NDArray::Shape{2, 3}));
  EXPECT_EQ(doubles_of(n[1]), (std::vector<double>{0, 0, -1, 0, -1, 0}));
  EXPECT_TRUE(std::isnan(doubles_of(n[0])[0]));
  EXPECT_TRUE(has_warning(m, "'Begin Mesh 1' at line 43", "3 lines"));
  EXPECT_EQ(m.warnings.size(), 1u);
}

TEST(MdpaRead, MeshioDataRowsAndHexahedron20Order) {
  // meshio's writer: data rows without the is_fixed flag, vectors as bare values; Kratos'
  // hexahedron20 order (VTK nodes 9 and 11 swapped, top and middle rings rotated).
  std::string text = "Begin Nodes\n";
  for (int i = 1; i <= 20; ++i) text += " " + std::to_string(i) + " " + std::to_string(i) + ".0 0.0 0.0\n";
  text += "End Nodes\nBegin Elements Hexahedra3D20\n 1 0  1 2 3 4 5 6 7 8 9 12 11 10 17 18 19 20 13 16 15 14\nEnd Elements\n"
          "Begin NodalData pv\n\n";
  for (int i = 1; i <= 20; ++i) text += std::to_string(i) + " " + std::to_string(i) + ".5 0.0\n";
  text += "End NodalData pv\n\nBegin ElementalData cd\n1 0.125\nEnd ElementalData cd\n";
  const auto m = read_string(text, "mdpa", "meshio.mdpa");
  ASSERT_EQ(m.cells.size(), 1u);
  EXPECT_EQ(m.cells[0].type, "hexahedron20");
  std::vector<std::int64_t> iota(20);
  for (int i = 0; i < 20; ++i) iota[static_cast<std::size_t>(i)] = i;
  EXPECT_EQ(ints_of(m.cells[0].connectivity), iota);
  EXPECT_EQ(m.point_data.at("pv").shape(), (NDArray::Shape{20, 2}));
  EXPECT_EQ(doubles_of(m.point_data.at("pv"))[2], 2.5);
  EXPECT_EQ(doubles_of(m.cell_data.at("cd")[0]), (std::vector<double>{0.125}));
  // Integer pairs (gmsh:dim_tags) whose first values are not all 0 or 1 are two components.
  const auto tags = read_string("Begin Nodes\n1 0 0 0\n2 0 0 0\nEnd Nodes\nBegin NodalData t\n1 1 13\n2 2 1\nEnd NodalData t\n",
                                "mdpa", "tags.mdpa");
  EXPECT_EQ(doubles_of(tags.point_data.at("t")), (std::vector<double>{1, 13, 2, 1}));
}

TEST(MdpaMalformed, ErrorsNameTheLine) {
  auto expect_error = [](const std::string& text, const std::string& part, const std::string& also = "") {
    expect_read_error(outcome_of(text), part, also);
  };
  expect_error("Begin Nodes\n1 0 0 0\n2 1 x 0\nEnd Nodes\n", "line 3", "expected a coordinate, found 'x'");
  expect_error("Begin Nodes\n1 0 0 0\n2 1 0\nEnd Nodes\n", "line 3", "expected a coordinate");
  expect_error("Begin Nodes\n1 0 0 0 7\nEnd Nodes\n", "line 2", "expected the end of the node row");
  expect_error("Begin Nodes\n1 0 0 0\n", "'Begin Nodes' (line 1) is not closed by 'End Nodes'");
  expect_error("Begin Nodes\n1 0 0 0\nEnd Elements\n", "line 3", "expected a row or 'End Nodes'");
  expect_error("Nodes\n", "line 1", "expected 'Begin <block>', found 'Nodes'");
  expect_error("Begin Nodes\n1 0 0 0\nEnd Nodes\nBegin Elements Line2D2\n1 0 1 2\nEnd Elements\n", "line 5",
               "refers to node 2, which no Nodes block defines");
  expect_error("Begin Nodes\n1 0 0 0\n2 0 0 0\nEnd Nodes\nBegin Elements Line2D2\n1 0 1 2\n2 0 1\nEnd Elements\n", "line 7",
               "expected a node id");
  expect_error("Begin NodalData T\n1 0 [3](1,2)\nEnd NodalData\n", "line 2", "expected [3] values");
  expect_error("Begin NodalData T\n1 0 1.5\n2 2.5\nEnd NodalData\n", "line 3", "expected a row like the block's first (2 value(s))");
  expect_error("Begin ElementalData T\n1 [2,2]((1,2),(3,4))\nEnd ElementalData\n", "line 2", "matrices are not read");
  std::string deep;
  for (int i = 0; i < 70; ++i) deep += "Begin SubModelPart p\n";
  expect_error(deep, "nested more than 64 deep");
  expect_error("Begin SubModelPart\nEnd SubModelPart\n", "line 1", "'Begin SubModelPart <name>'");
}

TEST(MdpaRead, UnknownElementNamesAreSkippedWithAWarning) {
  const auto m = read_string("Begin Nodes\n1 0 0 0\nEnd Nodes\nBegin Elements Spring3D7N\n1 0 1 1 1 1 1 1 1\nEnd Elements\n", "mdpa", "w.mdpa");
  EXPECT_TRUE(m.cells.empty());
  EXPECT_TRUE(has_warning(m, "'Begin Elements Spring3D7N' at line 4", "7 nodes have no meshio cell type"));
}

namespace {

mpp::Mesh writable_mix() {
  mpp::Mesh m = awkward_mix({
           {"vertex", 1}, {"line", 2}, {"line3", 3}, {"triangle", 3}, {"triangle6", 6}, {"quad", 4}, {"quad8", 8}, {"quad9", 9},
           {"tetra", 4}, {"tetra10", 10}, {"wedge", 6}, {"hexahedron", 8}, {"hexahedron20", 20}, {"hexahedron27", 27}});
  std::vector<double> pv;
  for (int i = 0; i < 27 * 3; ++i) pv.push_back(i * 0.25 - 3);
  m.point_data["T"] = NDArray::from_vector(std::vector<double>(27, 1.0 / 3.0));
  m.point_data["V"] = NDArray::from_vector(pv, {27, 3});
  for (std::size_t b = 0; b < m.cells.size(); ++b) {
    m.cell_data["mdpa:property_id"].push_back(NDArray::from_vector(std::vector<std::int64_t>{static_cast<std::int64_t>(b) + 1, 3}));
    m.cell_data["E"].push_back(NDArray::from_vector(std::vector<double>{0.5 * static_cast<double>(b), -1e10}));
  }
  m.regions = {mpp::Region{"outer", mpp::RegionKind::cell, -1, -1, NDArray::from_vector(std::vector<std::int64_t>{0, 5, 27})},
               mpp::Region{"outer.inner", mpp::RegionKind::cell, -1, -1, NDArray::from_vector(std::vector<std::int64_t>{5})},
               mpp::Region{"outer", mpp::RegionKind::point, -1, -1, NDArray::from_vector(std::vector<std::int64_t>{3, 26})},
               mpp::Region{"sides", mpp::RegionKind::side, -1, 9, NDArray::from_vector(std::vector<std::int64_t>{4, 0}, {1, 2})}};
  return m;
}

}  // namespace

TEST(MdpaRoundTrip, EveryWritableTypeWithDataAndSubModelParts) {
  const auto mesh = writable_mix();
  const std::string path = tmp_path("rt.mdpa");
  mpp::write(path, mesh, "mdpa", {{"float_fmt", ""}});
  auto got = mpp::read(path, "mdpa");
  EXPECT_TRUE(got.warnings.empty()) << got.warnings[0];
  mpp::Mesh expected = mesh;
  expected.regions.clear();
  got.regions.swap(expected.regions);
  EXPECT_EQ(compare_meshes(expected, got), "");
  ASSERT_EQ(expected.regions.size(), 3u);  // the side region has no MDPA form
  EXPECT_EQ(ints_of(region(expected, "outer", mpp::RegionKind::cell)->entries), (std::vector<std::int64_t>{0, 5, 27}));
  EXPECT_EQ(ints_of(region(expected, "outer", mpp::RegionKind::point)->entries), (std::vector<std::int64_t>{3, 26}));
  EXPECT_EQ(ints_of(region(expected, "outer.inner", mpp::RegionKind::cell)->entries), (std::vector<std::int64_t>{5}));
}

TEST(MdpaWrite, Refusals) {
  mpp::Mesh m;
  m.points = grid_points();
  m.cells.push_back(rect("pyramid", 5, 1));
  EXPECT_THROW(mpp::write(tmp_path("r.mdpa"), m, "mdpa"), mpp::WriteError);
  m.cells = {rect("tetra", 4, 1)};
  EXPECT_THROW(mpp::write(tmp_path("r.mdpa"), m, "mdpa", {{"binary", "true"}}), mpp::WriteError);
  m.regions = {mpp::Region{"a b", mpp::RegionKind::cell, -1, 1, NDArray::from_vector(std::vector<std::int64_t>{0})}};
  EXPECT_THROW(mpp::write(tmp_path("r.mdpa"), m, "mdpa"), mpp::WriteError);
  m.regions = {mpp::Region{"a..b", mpp::RegionKind::cell, -1, 1, NDArray::from_vector(std::vector<std::int64_t>{0})}};
  EXPECT_THROW(mpp::write(tmp_path("r.mdpa"), m, "mdpa"), mpp::WriteError);
}

TEST(MdpaFuzz, EveryPrefixAndCorruptionIsAMeshOrReadError) {
  std::size_t files = 0;
  std::vector<std::string> sources;
  for (const char* f : kFixtures) sources.push_back(slurp(fixture(f)));
  const std::string rt = tmp_path("fuzz_src.mdpa");
  mpp::write(rt, writable_mix(), "mdpa");
  sources.push_back(slurp(rt));
  for (const std::string& bytes : sources)
    files += sweep(bytes, "mdpa", "fuzz_probe.mdpa",
                   Sweep::set_each(bytes.size() / 200 + 1, bytes.size() / 80 + 1, {'[', '1', '\n', ' ', 'E', '/'}).validating())
                 .files;
  EXPECT_GT(files, 1000u);
}
