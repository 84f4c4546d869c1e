// I-DEAS Universal: the hand-made fixtures (tests/data/unv, see its README) with values worked
// out from the spec's record layouts, warnings for skipped datasets and elements, groups as
// regions, round trips over every writable type with regions, malformed input naming its line,
// and every truncated prefix / some corruptions.
#include <gtest/gtest.h>

#include <algorithm>

#include "test_vtk_common.hpp"

using namespace vtktest;

namespace {

std::string fixture(const std::string& name) { return data_path("unv", name); }
std::string outcome_of(const std::string& text) { return outcome_of_string(text, "unv", "bad.unv"); }

const char* kFixtures[] = {"beam_and_d_exponents.unv", "unknown_datasets.unv", "groups_2467_2477.unv", "quadratic_orders.unv",
                           "elements_before_sparse_nodes.unv"};

}  // namespace

TEST(UnvFixtures, BeamsAndDExponents) {
  const auto m = mpp::read(fixture("beam_and_d_exponents.unv"));
  EXPECT_EQ(points_of(m), (std::vector<double>{0, 0, 0, 1.5, -2.25, 0, 1e-300, 3e12, -0.1, 0.5, 0.5, 0.5}));
  ASSERT_EQ(m.cells.size(), 3u);
  EXPECT_EQ(m.cells[0].type, "line");  // FE 21 and FE 11, each with its beam record
  EXPECT_EQ(ints_of(m.cells[0].connectivity), (std::vector<std::int64_t>{0, 1, 1, 2}));
  EXPECT_EQ(m.cells[1].type, "line3");  // FE 24: end, middle, end -> VTK's end, end, middle
  EXPECT_EQ(ints_of(m.cells[1].connectivity), (std::vector<std::int64_t>{0, 1, 2}));
  EXPECT_EQ(m.cells[2].type, "triangle");
  EXPECT_EQ(ints_of(m.cell_data.at("unv:physical_property")[0]), (std::vector<std::int64_t>{1, 4}));
  EXPECT_EQ(ints_of(m.cell_data.at("unv:physical_property")[2]), (std::vector<std::int64_t>{9}));
  EXPECT_EQ(ints_of(m.cell_data.at("unv:material")[2]), (std::vector<std::int64_t>{2}));
  EXPECT_TRUE(m.warnings.empty());
}

TEST(UnvFixtures, UnknownDatasetsAndElementsAreSkippedWithTheirLine) {
  const auto m = mpp::read(fixture("unknown_datasets.unv"));
  EXPECT_EQ(m.num_points(), 4u);
  ASSERT_EQ(m.cells.size(), 2u);
  EXPECT_EQ(m.cells[0].type, "tetra");
  EXPECT_EQ(m.cells[1].type, "vertex");  // FE 161 lumped mass
  EXPECT_EQ(ints_of(m.cells[1].connectivity), (std::vector<std::int64_t>{3}));
  EXPECT_TRUE(has_warning(m, "dataset 151", "line 2")) << (m.warnings.empty() ? "" : m.warnings[0]);
  EXPECT_TRUE(has_warning(m, "dataset 164", "line 9"));
  EXPECT_TRUE(has_warning(m, "dataset 2420", "line 15"));
  EXPECT_TRUE(has_warning(m, "dataset 2414"));
  EXPECT_TRUE(has_warning(m, "FE descriptor id 122 and 2 nodes", "line 40"));
  EXPECT_EQ(m.warnings.size(), 5u);
}

TEST(UnvFixtures, GroupsAsRegions) {
  const auto m = mpp::read(fixture("groups_2467_2477.unv"));
  ASSERT_EQ(m.cells.size(), 2u);  // quads (labels 10, 11), then the beam (12)
  const auto* lb = region(m, "left and bottom", mpp::RegionKind::cell);
  ASSERT_TRUE(lb);
  EXPECT_EQ(ints_of(lb->entries), (std::vector<std::int64_t>{0, 2}));
  EXPECT_EQ(lb->tag, 5);
  EXPECT_EQ(lb->dim, -1);  // a quad and a line
  const auto* lbp = region(m, "left and bottom", mpp::RegionKind::point);
  ASSERT_TRUE(lbp);
  EXPECT_EQ(ints_of(lbp->entries), (std::vector<std::int64_t>{0}));
  const auto* corners = region(m, "corners", mpp::RegionKind::point);
  ASSERT_TRUE(corners);
  EXPECT_EQ(ints_of(corners->entries), (std::vector<std::int64_t>{0, 5}));
  EXPECT_FALSE(region(m, "corners", mpp::RegionKind::cell));
  const auto* right = region(m, "right", mpp::RegionKind::cell);  // from 2477
  ASSERT_TRUE(right);
  EXPECT_EQ(ints_of(right->entries), (std::vector<std::int64_t>{1}));
  EXPECT_EQ(right->dim, 2);
  EXPECT_EQ(right->tag, 7);
}

TEST(UnvFixtures, QuadraticNodeOrders) {
  const auto m = mpp::read(fixture("quadratic_orders.unv"));
  const std::vector<std::pair<std::string, std::size_t>> expected = {
      {"tetra10", 10}, {"hexahedron20", 20}, {"triangle6", 6}, {"quad8", 8}, {"wedge15", 15}};
  ASSERT_EQ(m.cells.size(), expected.size());
  for (std::size_t b = 0; b < expected.size(); ++b) {
    EXPECT_EQ(m.cells[b].type, expected[b].first);
    std::vector<std::int64_t> iota(expected[b].second);
    for (std::size_t i = 0; i < iota.size(); ++i) iota[i] = static_cast<std::int64_t>(i);
    EXPECT_EQ(ints_of(m.cells[b].connectivity), iota) << expected[b].first;
  }
}

TEST(UnvFixtures, ElementsBeforeSparseNodes) {
  const auto m = mpp::read(fixture("elements_before_sparse_nodes.unv"));
  ASSERT_EQ(m.cells.size(), 1u);
  EXPECT_EQ(ints_of(m.cells[0].connectivity), (std::vector<std::int64_t>{1, 2, 0}));  // labels 1000, 5, 77
}

TEST(UnvMalformed, ErrorsNameTheLine) {
  auto expect_error = [](const std::string& text, const std::string& part) {
    const std::string o = outcome_of(text);
    EXPECT_EQ(o.rfind("ReadError: ", 0), 0u) << o;
    EXPECT_NE(o.find(part), std::string::npos) << o;
  };
  const std::string node = "         1         1         1        11\n   1.0D+00   2.0D+00   3.0D+00\n";
  expect_error("    -1\n  2411\n" + node + "         2         1         1        11\n   1.0D+00   x   3.0D+00\n    -1\n",
               "line 6 (byte");
  expect_error("    -1\n  2411\n" + node, "dataset 2411 is not closed");
  expect_error("    -1\n  2411\n" + node + "    -1\n    -1\n  2412\n         1        91         1         1         7         3\n"
               "         1         2         3\n    -1\n", "node 2, which dataset 2411 does not define");
  expect_error("hello\n", "expected '    -1' opening a dataset, found 'hello'");
  expect_error("    -1\n  x411\n    -1\n", "expected a dataset number");
  expect_error("    -1\n  2412\n         1        91         1         1         7        -3\n    -1\n", "a node count >= 1");
}

TEST(UnvRead, EmptyFileIsAnEmptyMesh) {
  const std::string path = tmp_path("empty.unv");
  spit(path, "\n\n");
  const auto m = mpp::read(path);
  EXPECT_EQ(m.num_points(), 0u);
  EXPECT_TRUE(m.cells.empty());
}

namespace {

mpp::Mesh writable_mix() {
  mpp::Mesh m = awkward_mix({
           {"vertex", 1}, {"line", 2}, {"line3", 3}, {"triangle", 3}, {"triangle6", 6}, {"quad", 4}, {"quad8", 8}, {"quad9", 9},
           {"tetra", 4}, {"tetra10", 10}, {"wedge", 6}, {"wedge15", 15}, {"hexahedron", 8}, {"hexahedron20", 20}});
  for (std::size_t b = 0; b < m.cells.size(); ++b) {
    m.cell_data["unv:physical_property"].push_back(NDArray::from_vector(std::vector<std::int64_t>{static_cast<std::int64_t>(b) + 1, 3}));
    m.cell_data["unv:material"].push_back(NDArray::from_vector(std::vector<std::int64_t>{0, 5}));
  }
  mpp::Region c{"some cells", mpp::RegionKind::cell, -1, 4, NDArray::from_vector(std::vector<std::int64_t>{0, 5, 27})};
  mpp::Region p2{"some points", mpp::RegionKind::point, -1, 4, NDArray::from_vector(std::vector<std::int64_t>{3, 26})};
  mpp::Region s{"sides", mpp::RegionKind::side, -1, 9, NDArray::from_vector(std::vector<std::int64_t>{4, 0}, {1, 2})};
  m.regions = {c, p2, s};
  return m;
}

}  // namespace

TEST(UnvRoundTrip, EveryWritableTypeWithRegions) {
  const auto mesh = writable_mix();
  for (const char* groups : {"2467", "2477"}) {
    const std::string path = tmp_path(std::string("rt_") + groups + ".unv");
    mpp::write(path, mesh, "unv", {{"group_dataset", groups}});
    auto got = mpp::read(path, "unv");
    EXPECT_TRUE(got.warnings.empty());
    mpp::Mesh expected = mesh;
    expected.regions.clear();
    got.regions.swap(expected.regions);  // compared below
    EXPECT_EQ(compare_meshes(expected, got), "");
    ASSERT_EQ(expected.regions.size(), 2u);  // the side region has no UNV form
    EXPECT_EQ(expected.regions[0].name, "some cells");
    EXPECT_EQ(ints_of(expected.regions[0].entries), (std::vector<std::int64_t>{0, 5, 27}));
    EXPECT_EQ(expected.regions[0].tag, 4);
    EXPECT_EQ(expected.regions[1].name, "some points");
    EXPECT_EQ(expected.regions[1].kind, mpp::RegionKind::point);
    EXPECT_EQ(ints_of(expected.regions[1].entries), (std::vector<std::int64_t>{3, 26}));
    // The second group with tag 4 got the next free number.
    EXPECT_EQ(expected.regions[1].tag, 1);
  }
}

TEST(UnvWrite, Refusals) {
  mpp::Mesh m;
  m.points = grid_points();
  m.cells.push_back(rect("pyramid", 5, 1));
  EXPECT_THROW(mpp::write(tmp_path("r.unv"), m, "unv"), mpp::WriteError);
  m.cells = {rect("tetra", 4, 1)};
  EXPECT_THROW(mpp::write(tmp_path("r.unv"), m, "unv", {{"group_dataset", "2435"}}), std::invalid_argument);
  m.regions = {mpp::Region{"a\nb", mpp::RegionKind::cell, -1, 1, NDArray::from_vector(std::vector<std::int64_t>{0})}};
  EXPECT_THROW(mpp::write(tmp_path("r.unv"), m, "unv"), mpp::WriteError);
}

TEST(UnvFuzz, EveryPrefixAndCorruptionIsAMeshOrReadError) {
  std::size_t files = 0;
  std::vector<std::string> sources;
  for (const char* f : kFixtures) sources.push_back(slurp(fixture(f)));
  const std::string rt = tmp_path("fuzz_src.unv");
  mpp::Mesh small = writable_mix();
  mpp::write(rt, small, "unv");
  sources.push_back(slurp(rt));
  for (const std::string& bytes : sources)
    files += sweep(bytes, "unv", "fuzz_probe.unv", Sweep::set_each(bytes.size() / 200 + 1, bytes.size() / 80 + 1, {'-', '1', '\n', ' ', 'D'})).files;
  EXPECT_GT(files, 2000u);
}
