// Abaqus .inp: the hand-written fixtures for each awkward case (tests/data/abaqus/), the
// warnings a tolerant reader returns, element-name and face-label tables, round trips of
// the writer, CalculiX's 20-character limit, and every truncated prefix of every fixture.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/io/cursor.hpp"
#include "formats/abaqus/abaqus_internal.hpp"
#include "test_vtk_common.hpp"

using namespace vtktest;

namespace {

mpp::Mesh fixture(const std::string& name) { return mpp::read(data_path("abaqus", name), "abaqus"); }

std::vector<std::int64_t> entries(const mpp::Mesh& m, const std::string& name, mpp::RegionKind kind) {
  const mpp::Region* r = region(m, name, kind);
  if (!r) return {-999};
  std::vector<std::int64_t> out;
  for (std::size_t i = 0; i < r->entries.size(); ++i) out.push_back(r->entries.value_as_int64(i));
  return out;
}

using V = std::vector<std::int64_t>;
constexpr auto kPoint = mpp::RegionKind::point;
constexpr auto kCell = mpp::RegionKind::cell;
constexpr auto kSide = mpp::RegionKind::side;

std::string read_text(const std::string& text) { return outcome_of_string(text, "abaqus", "bad.inp"); }

}  // namespace

TEST(AbaqusRead, SparseLabelsAndKeywordsThatAreNotMeshWarnNamingKeywordAndLine) {
  const auto m = fixture("unknown_keyword.inp");
  ASSERT_EQ(m.num_points(), 5u);  // node 99 inside *STEP ... *END STEP is not read
  EXPECT_EQ(compare_arrays("points", m.points, NDArray::from_vector<double>({0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1}, {5, 3})), "");
  ASSERT_EQ(m.cells.size(), 1u);
  EXPECT_EQ(m.cells[0].type, "tetra");
  EXPECT_EQ(compare_arrays("tetra", m.cells[0].connectivity, i64({0, 1, 2, 3, 1, 4, 2, 3}, {2, 4})), "");
  EXPECT_EQ(entries(m, "NALL", kPoint), (V{0, 1, 2, 3, 4}));
  EXPECT_EQ(entries(m, "BASE", kPoint), (V{0, 1, 2}));
  EXPECT_EQ(entries(m, "EALL", kCell), (V{0, 1}));
  EXPECT_EQ(region(m, "NOT_MESH", kPoint), nullptr);
  ASSERT_EQ(m.warnings.size(), 4u);
  const std::vector<std::pair<std::string, std::string>> want = {
      {"line 13", "*MATERIAL"}, {"line 14", "*ELASTIC"}, {"line 16", "*SOLID SECTION"}, {"line 17", "*STEP"}};
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_NE(m.warnings[i].find(want[i].first + ":"), std::string::npos) << m.warnings[i];
    EXPECT_NE(m.warnings[i].find(want[i].second), std::string::npos) << m.warnings[i];
    EXPECT_NE(m.warnings[i].find("unknown_keyword.inp"), std::string::npos) << m.warnings[i];
  }
}

TEST(AbaqusRead, ElsetAndNsetGenerate) {
  const auto m = fixture("elset_generate.inp");
  EXPECT_EQ(m.points.dim(1), 2u);
  ASSERT_EQ(m.cells.size(), 1u);
  EXPECT_EQ(m.cells[0].type, "triangle");
  EXPECT_EQ(entries(m, "ODD", kCell), (V{0, 2}));
  EXPECT_EQ(entries(m, "ALL", kCell), (V{0, 1, 2, 3}));
  EXPECT_EQ(entries(m, "BOTTOM", kPoint), (V{0, 1, 2}));
  EXPECT_TRUE(m.warnings.empty());
}

TEST(AbaqusRead, NsetOnNodeAndElsetOnElementAccumulate) {
  const auto m = fixture("node_nset.inp");
  ASSERT_EQ(m.cells.size(), 2u);
  EXPECT_EQ(m.cells[0].type, "hexahedron");
  EXPECT_EQ(m.cells[1].type, "line");
  EXPECT_EQ(compare_arrays("line", m.cells[1].connectivity, i64({1, 8}, {1, 2})), "");
  EXPECT_EQ(entries(m, "LOWER", kPoint), (V{0, 1, 2, 3, 8}));
  EXPECT_EQ(entries(m, "UPPER", kPoint), (V{4, 5, 6, 7}));
  EXPECT_EQ(entries(m, "BRICK", kCell), (V{0}));
  EXPECT_EQ(entries(m, "BAR", kCell), (V{1}));
}

TEST(AbaqusRead, SetsOfSetsAndNodesOfAnElementSet) {
  const auto m = fixture("sets_of_sets.inp");
  EXPECT_EQ(entries(m, "BOTH", kCell), (V{0, 1}));
  EXPECT_EQ(entries(m, "NESTED", kCell), (V{0, 1}));
  EXPECT_EQ(entries(m, "AB", kPoint), (V{0, 3, 4}));
  EXPECT_EQ(entries(m, "RIGHT_NODES", kPoint), (V{1, 2, 4, 5}));
  EXPECT_TRUE(m.warnings.empty());
}

TEST(AbaqusRead, IncludeOfBareDataLinesAndOfKeywordsRelativeToTheIncludingFile) {
  const auto m = fixture("include.inp");
  EXPECT_EQ(m.num_points(), 4u);
  ASSERT_EQ(m.cells.size(), 1u);
  EXPECT_EQ(compare_arrays("tetra", m.cells[0].connectivity, i64({0, 1, 2, 3}, {1, 4})), "");
  EXPECT_EQ(entries(m, "ALL", kCell), (V{0}));
  EXPECT_EQ(entries(m, "TIP", kPoint), (V{3}));
  EXPECT_TRUE(m.warnings.empty());
}

TEST(AbaqusRead, IncludeCycleIsAnErrorNamingTheChain) {
  try {
    fixture("cycle/include_cycle_a.inp");
    FAIL() << "expected ReadError";
  } catch (const mpp::ReadError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("include cycle"), std::string::npos) << what;
    EXPECT_NE(what.find("include_cycle_b.inp: line 3"), std::string::npos) << what;
    const auto a = what.find("include_cycle_a.inp -> "), b = what.find("include_cycle_b.inp -> ", a);
    EXPECT_NE(a, std::string::npos) << what;
    EXPECT_NE(b, std::string::npos) << what;
    EXPECT_NE(what.find("include_cycle_a.inp", b + 1), std::string::npos) << what;
  }
}

TEST(AbaqusRead, PartInstancesTranslatedAndRotatedWithPrefixedSets) {
  const auto m = fixture("part_instance.inp");
  ASSERT_EQ(m.points.shape(), (NDArray::Shape{6, 2}));
  const std::vector<double> want = {10, 0, 11, 0, 10, 1, 0, 1, 0, 2, -1, 1};  // B: +(1,0), then 90 degrees about z
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(m.points.value_as_double(i), want[i], 1e-12) << i;
  ASSERT_EQ(m.cells.size(), 2u);
  EXPECT_EQ(compare_arrays("A", m.cells[0].connectivity, i64({0, 1, 2}, {1, 3})), "");
  EXPECT_EQ(compare_arrays("B", m.cells[1].connectivity, i64({3, 4, 5}, {1, 3})), "");
  EXPECT_EQ(entries(m, "A.SKIN", kCell), (V{0}));
  EXPECT_EQ(entries(m, "B.SKIN", kCell), (V{1}));
  EXPECT_EQ(entries(m, "A.CORNER", kPoint), (V{0}));
  EXPECT_EQ(entries(m, "B.CORNER", kPoint), (V{3}));
  EXPECT_EQ(entries(m, "TIPS", kPoint), (V{4, 5}));
  EXPECT_EQ(entries(m, "BOTH_SKINS", kCell), (V{0, 1}));
  EXPECT_EQ(region(m, "CORNER", kPoint), nullptr);  // the part itself is not a mesh
  EXPECT_TRUE(m.warnings.empty());
}

TEST(AbaqusRead, ContinuedKeywordLineAndElementOverTwoDataLines) {
  const auto m = fixture("continuation.inp");
  ASSERT_EQ(m.cells.size(), 1u);
  EXPECT_EQ(m.cells[0].type, "hexahedron20");
  std::vector<std::int64_t> iota(20);
  for (std::int64_t i = 0; i < 20; ++i) iota[static_cast<std::size_t>(i)] = i;
  EXPECT_EQ(compare_arrays("hex20", m.cells[0].connectivity, i64(iota, {1, 20})), "");
  EXPECT_EQ(entries(m, "BRICK", kCell), (V{0}));
  EXPECT_TRUE(m.warnings.empty());
}

TEST(AbaqusRead, UnknownElementTypeIsSkippedWithAWarningNamingIt) {
  const auto m = fixture("unknown_element_type.inp");
  ASSERT_EQ(m.cells.size(), 1u);
  EXPECT_EQ(m.cells[0].type, "triangle");
  EXPECT_EQ(entries(m, "SHELL", kCell), (V{0}));
  EXPECT_EQ(region(m, "SPRINGS", kCell), nullptr);
  ASSERT_EQ(m.warnings.size(), 1u);
  EXPECT_NE(m.warnings[0].find("line 6:"), std::string::npos) << m.warnings[0];
  EXPECT_NE(m.warnings[0].find("SPRINGA"), std::string::npos) << m.warnings[0];
}

TEST(AbaqusRead, SurfacesBecomeSideRegionsInOurFacetNumbering) {
  const auto m = fixture("surface.inp");
  // tetra S1 = nodes 1-2-3 (our facet 3 {0,2,1}); hexahedron S1 = 1-2-3-4 (facet 4),
  // S6 = 4-8-5-1 (facet 0); tetra S2 = 1-4-2 (facet 0); wedge S3 = 1-4-5-2 (facet 4).
  EXPECT_EQ(entries(m, "BOTTOM", kSide), (V{0, 3, 2, 4}));
  EXPECT_EQ(entries(m, "SIDES", kSide), (V{0, 0, 1, 4, 2, 0}));
  EXPECT_EQ(entries(m, "POINTS", kPoint), (V{0, 1}));
  // Each Abaqus face's corner nodes are exactly the nodes of the facet it maps to.
  const auto& tet = m.cells[0];
  const auto facet = mpp::cell_facets("tetra")[3];
  std::vector<std::int64_t> got;
  for (int f : facet) got.push_back(tet.connectivity.value_as_int64(static_cast<std::size_t>(f)));
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (V{0, 1, 2}));  // nodes 1, 2, 3
  EXPECT_TRUE(m.warnings.empty());
}

TEST(AbaqusRead, DeckLaidOutAsAbaqusCaeWritesIt) {
  const auto m = fixture("cae_style.inp");
  EXPECT_EQ(m.num_points(), 8u);
  ASSERT_EQ(m.cells.size(), 1u);
  EXPECT_EQ(m.cells[0].type, "hexahedron");
  EXPECT_EQ(entries(m, "Block-1.Set-1", kPoint), (V{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(entries(m, "Block-1.Set-1", kCell), (V{0}));
  EXPECT_EQ(entries(m, "Fixed", kPoint), (V{0, 1, 2, 3}));
  EXPECT_EQ(entries(m, "_Top_S2", kCell), (V{0}));
  EXPECT_EQ(entries(m, "Top", kSide), (V{0, 5}));  // S2 = nodes 5-8-7-6: our facet 5 {4,5,6,7}
  // *PREPRINT, *SOLID SECTION (in the part), *MATERIAL, *ELASTIC and the step: not mesh.
  ASSERT_EQ(m.warnings.size(), 5u);
  EXPECT_NE(m.warnings[0].find("line 3: skipped *PREPRINT"), std::string::npos) << m.warnings[0];
  EXPECT_NE(m.warnings[4].find("*STEP"), std::string::npos) << m.warnings[4];
}

TEST(AbaqusTypes, ElementNamesAndAliases) {
  using meshioplusplus::abaqus::meshio_type;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"C3D4", "tetra"}, {"C3D4H", "tetra"}, {"C3D10", "tetra10"}, {"C3D10MH", "tetra10"}, {"C3D8", "hexahedron"},
      {"C3D8R", "hexahedron"}, {"C3D8I", "hexahedron"}, {"C3D20", "hexahedron20"}, {"C3D20R", "hexahedron20"}, {"C3D27", "hexahedron27"},
      {"C3D6", "wedge"}, {"C3D15", "wedge15"}, {"C3D5", "pyramid"}, {"DC3D8", "hexahedron"}, {"S3", "triangle"},
      {"S3R", "triangle"}, {"S4", "quad"}, {"S4R", "quad"}, {"S4R5", "quad"}, {"S8R", "quad8"}, {"S8R5", "quad8"},
      {"S9R5", "quad9"}, {"STRI3", "triangle"}, {"STRI65", "triangle6"}, {"SC8R", "hexahedron"}, {"CPS3", "triangle"},
      {"CPS4", "quad"}, {"CPS4R", "quad"}, {"CPS6", "triangle6"}, {"CPS8", "quad8"}, {"CPE4H", "quad"}, {"CPE6", "triangle6"},
      {"CAX4P", "quad"}, {"CAX8R", "quad8"}, {"M3D4R", "quad"}, {"R3D3", "triangle"}, {"B31", "line"}, {"B31H", "line"},
      {"B32", "line3"}, {"B33", "line"}, {"B21", "line"}, {"B22", "line3"}, {"T3D2", "line"}, {"T2D2", "line"},
      {"T3D3", "line3"}, {"SPRINGA", ""}, {"MASS", ""}, {"C3D", ""}, {"CONN3D2", ""}, {"C3D8-X", ""}};
  for (const auto& [name, want] : cases) EXPECT_EQ(meshio_type(name), want) << name;
}

TEST(AbaqusTypes, WrittenNamesReadBackAsTheSameType) {
  using namespace meshioplusplus::abaqus;
  for (std::string t : {"line", "line3", "triangle", "triangle6", "quad", "quad8", "quad9", "tetra", "tetra10", "hexahedron",
                        "hexahedron20", "hexahedron27", "wedge", "wedge15"})
    for (int dim : {2, 3}) EXPECT_EQ(meshio_type(abaqus_type(t, dim)), t) << t << " dim " << dim;
  EXPECT_EQ(abaqus_type("vertex", 3), "");
  EXPECT_EQ(abaqus_type("pyramid13", 3), "");
}

TEST(AbaqusTypes, FaceLabelsAndFacetsAreInverse) {
  using namespace meshioplusplus::abaqus;
  for (std::string t : {"triangle", "quad", "tetra", "hexahedron", "wedge", "pyramid", "tetra10", "hexahedron20", "wedge15", "quad8"}) {
    const int n = static_cast<int>(mpp::cell_facets(t).size());
    std::vector<bool> seen(static_cast<std::size_t>(n), false);
    for (int f = 0; f < n; ++f) {
      const std::string label = face_label_of_facet(t, f);
      ASSERT_FALSE(label.empty()) << t << " facet " << f;
      EXPECT_EQ(facet_of_face_label(t, label), f) << t << " " << label;
      seen[static_cast<std::size_t>(f)] = true;
    }
    EXPECT_EQ(facet_of_face_label(t, "S" + std::to_string(n + 1)), -1) << t;
  }
  EXPECT_EQ(facet_of_face_label("quad", "E2"), facet_of_face_label("quad", "S2"));
  EXPECT_EQ(facet_of_face_label("tetra", "E1"), -1);
  EXPECT_EQ(facet_of_face_label("triangle", "SPOS"), -1);
}

TEST(AbaqusRoundTrip, MeshesWithSetsAndSurfaces) {
  for (std::size_t dim : {2u, 3u}) {
    mpp::Mesh m;
    m.points = grid_points(dim);
    m.cells.push_back(rect("triangle", 3, 2));
    m.cells.push_back(rect("quad", 4, 2));
    m.cells.push_back(rect("line", 2, 1));
    if (dim == 3) {
      m.cells.push_back(rect("tetra", 4, 2));
      m.cells.push_back(rect("hexahedron20", 20, 2));
      m.cells.push_back(rect("wedge", 6, 1));
      m.cells.push_back(rect("tetra10", 10, 1));
      m.cells.push_back(mpp::CellBlock::rectangular("line3", i64({0, 1, 2}, {1, 3})));
      m.cells.push_back(rect("hexahedron27", 27, 1));
    }
    mpp::Region p{"fixed nodes", kPoint, -1, -1, i64({0, 5, 26}, {3})};
    mpp::Region c{"EALL", kCell, -1, -1, i64({0, 2, 4}, {3})};
    mpp::Region s{"SKIN", kSide, -1, -1, i64({0, 2, 3, 1}, {2, 2})};
    m.regions = {p, c, s};
    const std::string path = tmp_path("rt" + std::to_string(dim) + ".inp");
    mpp::write(path, m, "abaqus");
    const auto r = mpp::read(path, "abaqus");
    EXPECT_EQ(compare_meshes(m, r), "") << dim;
    EXPECT_EQ(r.points.dim(1), dim);
    EXPECT_EQ(entries(r, "fixed nodes", kPoint), (V{0, 5, 26}));
    EXPECT_EQ(entries(r, "EALL", kCell), (V{0, 2, 4}));
    EXPECT_EQ(entries(r, "SKIN", kSide), (V{0, 2, 3, 1}));
    EXPECT_TRUE(r.warnings.empty());
    // A 3-node line goes out end, middle, end (Abaqus's order): VTK's middle node 2 second.
    if (dim == 3) {
      EXPECT_NE(slurp(path).find("*ELEMENT, TYPE=B32\n12,1,3,2\n"), std::string::npos);
    }
  }
}

TEST(AbaqusWrite, NumbersFitCalculixsTwentyCharactersAndDataLinesSixteenEntries) {
  mpp::Mesh m;
  m.points = NDArray::from_vector<double>({-0.12345678901234567, 1e-300, -2.5e+200, 1.0 / 3.0, 0.1, -7}, {2, 3});
  std::vector<std::int64_t> conn(20);
  for (int i = 0; i < 20; ++i) conn[static_cast<std::size_t>(i)] = i % 2;
  m.cells.push_back(mpp::CellBlock::rectangular("hexahedron20", i64(conn, {1, 20})));
  const std::string path = tmp_path("widths.inp");
  mpp::write(path, m, "abaqus");
  std::istringstream in(slurp(path));
  std::string line;
  std::string section;
  std::size_t node_lines = 0, element_lines = 0;
  while (std::getline(in, line)) {
    if (line[0] == '*') {
      section = line.substr(0, line.find(','));
      continue;
    }
    if (section != "*NODE" && section != "*ELEMENT") continue;
    const bool in_nodes = section == "*NODE";
    std::size_t fields = 0;
    for (std::string_view rest = line; !rest.empty();) {
      const auto f = meshioplusplus::io::next_field(rest);
      EXPECT_LE(f.size(), 20u) << line;
      fields += !f.empty();
    }
    EXPECT_LE(fields, 16u) << line;
    (in_nodes ? node_lines : element_lines) += 1;
  }
  EXPECT_EQ(node_lines, 2u);
  EXPECT_EQ(element_lines, 2u);  // 21 entries: 16 + 5
  const auto r = mpp::read(path, "abaqus");
  for (std::size_t i = 0; i < 6; ++i) EXPECT_NEAR(r.points.value_as_double(i) / m.points.value_as_double(i), 1.0, 1e-13) << i;
  EXPECT_EQ(compare_arrays("hex20", r.cells[0].connectivity, m.cells[0].connectivity, false), "");
  // meshio's float_fmt is honoured as given.
  mpp::write(path, m, "abaqus", {{"float_fmt", ".3e"}});
  EXPECT_NE(slurp(path).find("1, -1.235e-01, 1.000e-300, -2.500e+200\n"), std::string::npos);
}

TEST(AbaqusWrite, BytesDoNotDependOnTheThreadCount) {
  mpp::Mesh m;
  m.points = many_points(100000);               // several chunks of node lines
  m.cells.push_back(rect("tetra", 4, 100000));  // and of element lines
  m.cells.push_back(rect("hexahedron20", 20, 70000, 3));
  EXPECT_EQ(thread_counts_changing_bytes(m, "abaqus", ".inp"), "");
  const auto r = mpp::read(tmp_path("threads8.inp"), "abaqus");
  EXPECT_EQ(compare_meshes(m, r), "");
}

TEST(AbaqusWrite, UnwritableTypesAndBadOptionsAreErrorsThatTouchNoFile) {
  mpp::Mesh m;
  m.points = grid_points();
  m.cells.push_back(rect("vertex", 1, 2));
  const std::string path = tmp_path("bad_write.inp");
  spit(path, "old");
  EXPECT_THROW(mpp::write(path, m, "abaqus"), mpp::WriteError);
  EXPECT_EQ(slurp(path), "old");
  mpp::write(path, m, "abaqus", {{"translate_cell_names", "false"}});
  EXPECT_NE(slurp(path).find("*ELEMENT, TYPE=vertex\n1,1\n"), std::string::npos);
  m.cells[0] = rect("tetra", 4, 1);
  EXPECT_THROW(mpp::write(path, m, "abaqus", {{"float_fmt", "%x"}}), mpp::WriteError);
  EXPECT_THROW(mpp::write(path, m, "abaqus", {{"binary", "true"}}), std::invalid_argument);
}

TEST(AbaqusRead, MalformedInputNamesFileLineAndWhatWasFound) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"*NODE\n1, 0., 0.\n2, x, 0.\n", {"line 3", "expected a coordinate", "'x'"}},
      {"*NODE\n-1, 0., 0.\n", {"line 2", "node label", "'-1'"}},
      {"*NODE\n1, 0., 0.\n*ELEMENT, TYPE=T3D2\n5, 1, 2\n", {"line 3", "element 5", "node 2", "not defined"}},
      {"*NODE\n1, 0., 0.\n2, 1., 0.\n3, 0., 1.\n*ELEMENT, TYPE=CPS3\n1, 1, 2\n*NSET, NSET=A\n1\n", {"line 6", "element 1 has 2 of its 3"}},
      {"*NODE\n1, 0., 0.\n*ELEMENT, TYPE=CPS3\n1, 1, 1, 1\n2, 1, 1", {"line 5", "element 2 has 2 of its 3", "end of the file"}},
      {"*NODE\n1, 0., 0.\n*ELEMENT, TYPE=CPS3\n1, 1,, 1\n", {"line 4", "expected a node label, found an empty field"}},
      {"*NODE\n1, 0., 0.\n*NSET, NSET=A, GENERATE\n1\n", {"line 4", "GENERATE"}},
      {"*NODE\n1, 0., 0.\n*NSET, NSET=A, GENERATE\n1, 5, 0\n", {"line 4", "increment"}},
      {"*INCLUDE\n", {"line 1", "INPUT"}},
      {"*INCLUDE, INPUT=does_not_exist.inp\n", {"line 1", "does_not_exist.inp", "not a regular file"}},
      {"*INCLUDE, INPUT=/dev/zero\n", {"line 1", "not a regular file"}},
  };
  for (const auto& [text, needles] : cases) {
    const std::string out = read_text(text);
    ASSERT_EQ(out.rfind("ReadError: abaqus: ", 0), 0u) << text << "\n" << out;
    for (const auto& n : needles) EXPECT_NE(out.find(n), std::string::npos) << text << "\n" << out;
  }
}

TEST(AbaqusRead, TolerantOfWhatIsNotMesh) {
  // Unknown set members, sets of unknown instances, surfaces of other kinds, unknown labels
  // in sets, set cycles and repeated labels are warnings, not errors.
  const std::string text =
      "data before any keyword\n*NODE\n1, 0., 0.\n2, 1., 0.\n3, 0., 1.\n1, 0., 0.5\n*ELEMENT, TYPE=CPS3, ELSET=E\n1, 1, 2, 3\n"
      "*ELSET, ELSET=X\nE, NOPE, 77\n*ELSET, ELSET=C1\nC2\n*ELSET, ELSET=C2\nC1\n*NSET, NSET=Y, INSTANCE=GHOST\n1\n"
      "*SURFACE, NAME=S, TYPE=CUTTING SURFACE\n0., 0., 0.\n*SURFACE, NAME=T\nE, SPOS\nE\n*ELEMENT\n1, 2\n";
  const std::string path = tmp_path("tolerant.inp");
  spit(path, text);
  const auto m = mpp::read(path, "abaqus");
  EXPECT_EQ(m.points.value_as_double(2 * 3 + 1), 0.5);  // node 1 redefined: the last definition wins
  EXPECT_EQ(compare_arrays("tri", m.cells[0].connectivity, i64({3, 1, 2}, {1, 3})), "");
  EXPECT_EQ(entries(m, "X", kCell), (V{0}));
  EXPECT_EQ(entries(m, "T", kSide), (V{}));
  std::string all;
  for (const auto& w : m.warnings) all += w + "\n";
  for (std::string needle : {"line 1: data line before any keyword", "NOPE", "77", "contains itself", "GHOST", "CUTTING SURFACE",
                             "SPOS", "without a face label", "without TYPE=", "defined more than once"})
    EXPECT_NE(all.find(needle), std::string::npos) << needle << "\n" << all;
}

TEST(AbaqusRead, HostileSetsAreBoundedByTheMesh) {
  // Huge GENERATE ranges walk only the labels that exist; sets of sets that multiply the
  // mesh hit the work budget; deep set nesting is an error, not a stack overflow.
  std::string text = "*NODE\n1, 0., 0.\n2, 1., 0.\n*NSET, NSET=A, GENERATE\n1, 9223372036854775807, 1\n0, 1000000000000000000, 3\n";
  EXPECT_EQ(read_text(text), "mesh");
  std::string many = "*NODE\n1, 0., 0.\n";  // S0 holds S1, which holds S2, ...: resolving S0 recurses
  for (int i = 0; i < 2000; ++i) many += "*NSET, NSET=S" + std::to_string(i) + "\nS" + std::to_string(i + 1) + "\n";
  many += "*NSET, NSET=S2000\n1\n";
  EXPECT_NE(read_text(many).find("nested deeper"), std::string::npos);
  std::string wide = "*NODE\n1, 0., 0.\n*NSET, NSET=S0\n1\n*NSET, NSET=S1\n";
  for (int i = 0; i < 200000; ++i) wide += "S0\n";
  const std::string out = read_text(wide);
  EXPECT_TRUE(out == "mesh" || out.find("expand to more than") != std::string::npos) << out;
  std::string budget = "*NODE\n";  // 1000 nodes; 2000 ranges over all of them: 2M entries
  for (int i = 1; i <= 1000; ++i) budget += std::to_string(i) + ", 0., 0.\n";
  budget += "*NSET, NSET=S0, GENERATE\n";
  for (int i = 0; i < 2000; ++i) budget += "1, 1000\n";
  EXPECT_NE(read_text(budget).find("expand to more than"), std::string::npos);
}

TEST(AbaqusRead, IncludesThatMultiplyAreBounded) {
  // f0 includes f1 twice, f1 includes f2 twice, ...: 2^20 reads without a bound.
  const auto name = [](int i) {
    std::string s = "f";  // built by appends: GCC 12 warns (-Wrestrict) on "literal" + string
    s += std::to_string(i);
    s += ".inp";
    return s;
  };
  for (int i = 0; i < 20; ++i) {
    std::string text = "*INCLUDE, INPUT=";
    text += name(i + 1);
    text += "\n";
    spit(tmp_path(name(i)), text + text);
  }
  spit(tmp_path("f20.inp"), "*NODE\n1, 0., 0.\n");
  EXPECT_NE(read_outcome(tmp_path("f0.inp"), "abaqus").find("more than 4096 includes"), std::string::npos);
  spit(tmp_path("f8.inp"), "*NODE\n1, 0., 0.\n");  // 2^8 includes: fine
  EXPECT_EQ(read_outcome(tmp_path("f0.inp"), "abaqus"), "mesh");
}

TEST(AbaqusRead, EveryTruncatedPrefixReadsOrThrowsReadError) {
  for (const auto& entry : std::filesystem::recursive_directory_iterator(data_path("abaqus", ""))) {
    if (entry.path().extension() != ".inp") continue;
    const std::string bytes = slurp(entry.path().string());
    for (std::size_t n = 0; n <= bytes.size(); ++n) {
      const std::string out = read_text(bytes.substr(0, n));
      ASSERT_TRUE(out == "mesh" || out.rfind("ReadError: abaqus: ", 0) == 0) << entry.path() << " prefix " << n << ": " << out;
    }
  }
}
