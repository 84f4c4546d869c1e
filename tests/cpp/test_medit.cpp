// Medit (.mesh / .meshb): round trips in both encodings, every fixture against the
// hand-written reference, references as data and regions, the binary versions and byte
// orders, malformed input (positions and expected/found in the messages), every truncated
// prefix and some corruptions, and large sections read the same on 1 and 4 threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "formats/medit/medit_internal.hpp"
#include "test_vtk_common.hpp"

using namespace vtktest;

namespace {

const std::string kData = std::string(MESHIOPP_TEST_DATA) + "/medit/";

std::string read_text(const std::string& text, const std::string& name = "bad.mesh") { return outcome_of_string(text, "medit", name); }

// Every type Medit has a keyword for, with integer references.
mpp::Mesh medit_mix(bool two_d = false) {
  mpp::Mesh m;
  m.points = grid_points(two_d ? 2 : 3);
  if (two_d) {
    m.cells.push_back(rect("line", 2, 3));
    m.cells.push_back(rect("triangle", 3, 2));
    m.cells.push_back(rect("quad", 4, 2));
  } else {
    for (auto [t, k] : std::vector<std::pair<std::string, std::size_t>>{
             {"line", 2}, {"triangle", 3}, {"quad", 4}, {"tetra", 4}, {"wedge", 6}, {"pyramid", 5}, {"hexahedron", 8},
             {"line3", 3}, {"triangle6", 6}, {"quad9", 9}, {"tetra10", 10}, {"triangle", 3}})
      m.cells.push_back(rect(t, k, 3, static_cast<std::int64_t>(k)));
  }
  std::vector<std::int64_t> pr(m.num_points());
  for (std::size_t i = 0; i < pr.size(); ++i) pr[i] = static_cast<std::int64_t>(i % 4) - 1;
  m.point_data["medit:ref"] = NDArray::from_vector(pr);
  for (std::size_t b = 0; b < m.cells.size(); ++b) {
    std::vector<std::int64_t> r(m.cells[b].size());
    for (std::size_t i = 0; i < r.size(); ++i) r[i] = static_cast<std::int64_t>(b * 10 + i % 2);
    m.cell_data["medit:ref"].push_back(NDArray::from_vector(r));
  }
  return m;
}

// What a reader returns for `m`: the same arrays with the references in the dtype the
// encoding gives (int64 in ASCII and version 4, int32 in versions 1-3).
mpp::Mesh as_read(mpp::Mesh m, mpp::DType refs) {
  m.point_data["medit:ref"] = m.point_data["medit:ref"].as_dtype(refs);
  for (auto& a : m.cell_data["medit:ref"]) a = a.as_dtype(refs);
  return m;
}

std::int32_t int_at(const std::string& bytes, std::size_t at) {
  std::int32_t v;
  std::memcpy(&v, bytes.data() + at, 4);
  return v;
}

}  // namespace

TEST(MeditRoundTrip, AsciiAndBinaryTwoAndThreeD) {
  for (bool two_d : {false, true}) {
    const mpp::Mesh m = medit_mix(two_d);
    for (const std::string ext : {".mesh", ".meshb"}) {
      SCOPED_TRACE(std::string(two_d ? "2d" : "3d") + ext);
      const std::string path = tmp_path("rt" + std::string(two_d ? "2" : "3") + ext);
      mpp::write(path, m, "medit");
      const auto back = mpp::read(path, "medit");
      EXPECT_EQ(compare_meshes(as_read(m, ext == ".mesh" ? mpp::DType::int64 : mpp::DType::int32), back), "");
    }
  }
}

TEST(MeditRoundTrip, FloatFormatAndSinglePrecision) {
  mpp::Mesh m = medit_mix();
  const std::string path = tmp_path("fmt.mesh");
  mpp::write(path, m, "medit", {{"float_fmt", ".3f"}});
  EXPECT_NE(slurp(path).find("\n0.500 -0.100 0.001 0\n"), std::string::npos);  // point 1 of grid_points, reference 0
  m.points = m.points.as_dtype(mpp::DType::float32);
  mpp::write(path, m, "medit");
  const std::string text = slurp(path);
  EXPECT_EQ(text.rfind("MeshVersionFormatted 1\n", 0), 0u);
  const auto back = mpp::read(path, "medit");
  EXPECT_EQ(back.points.dtype(), mpp::DType::float32);
  EXPECT_EQ(compare_meshes(as_read(m, mpp::DType::int64), back), "");
  EXPECT_THROW(mpp::write(path, m, "medit", {{"float_fmt", "%q"}}), std::invalid_argument);
  EXPECT_THROW(mpp::write(path, m, "medit", {{"binary", "true"}}), std::invalid_argument);
}

TEST(MeditWrite, TypesWithoutAKeywordAreLeftOutAndDefaultReferencesAreOne) {
  mpp::Mesh m;
  m.points = grid_points();
  m.cells.push_back(rect("vertex", 1, 2));
  m.cells.push_back(rect("tetra", 4, 2));
  m.cells.push_back(rect("hexahedron27", 27, 1));
  for (const std::string ext : {".mesh", ".meshb"}) {
    const std::string path = tmp_path("leftout" + ext);
    mpp::write(path, m, "medit");
    const auto back = mpp::read(path, "medit");
    ASSERT_EQ(back.cells.size(), 1u) << ext;
    EXPECT_EQ(back.cells[0].type, "tetra");
    EXPECT_EQ(compare_arrays("tetra", m.cells[1].connectivity, back.cells[0].connectivity, false), "");
    for (std::size_t i = 0; i < 27; ++i) EXPECT_EQ(back.point_data.at("medit:ref").value_as_int64(i), 1);
    EXPECT_EQ(back.cell_data.at("medit:ref")[0].value_as_int64(1), 1);
  }
}

TEST(MeditWrite, BinaryHeaderAndVersionFromTheValues) {
  mpp::Mesh m = medit_mix();
  const std::string path = tmp_path("hdr.meshb");
  mpp::write(path, m, "medit");
  std::string bytes = slurp(path);
  EXPECT_EQ(int_at(bytes, 0), 1);  // byte-order code
  EXPECT_EQ(int_at(bytes, 4), 3);  // version 3: every value fits in an int32
  EXPECT_EQ(int_at(bytes, 8), 3);  // Dimension
  EXPECT_EQ(int_at(bytes, 20), 3);
  m.cell_data["medit:ref"][2].data<std::int64_t>()[0] = std::int64_t{1} << 40;
  mpp::write(path, m, "medit");
  bytes = slurp(path);
  EXPECT_EQ(int_at(bytes, 4), 4);  // a reference needs 64 bits
  const auto back = mpp::read(path, "medit");
  EXPECT_EQ(back.cell_data.at("medit:ref")[2].value_as_int64(0), std::int64_t{1} << 40);
  EXPECT_EQ(compare_meshes(as_read(m, mpp::DType::int64), back), "");
}

TEST(MeditWrite, ReferencesAreTheFirstIntegerDataOfOneValuePerItem) {
  mpp::Mesh m = medit_mix();
  m.point_data.erase("medit:ref");
  m.point_data["a_pairs"] = NDArray::zeros(mpp::DType::int32, {m.num_points(), 2});  // passed over: two per point
  m.point_data["b_float"] = NDArray::zeros(mpp::DType::float64, {m.num_points()});
  std::vector<std::int32_t> tags(m.num_points(), 42);
  m.point_data["c_tags"] = NDArray::from_vector(tags);
  const std::string path = tmp_path("pick.mesh");
  mpp::write(path, m, "medit");
  const auto back = mpp::read(path, "medit");
  EXPECT_EQ(back.point_data.at("medit:ref").value_as_int64(5), 42);
  // A medit:ref of the wrong shape is an error, not a silent choice of something else.
  m.cell_data["medit:ref"][3] = NDArray::zeros(mpp::DType::int64, {3, 2});
  EXPECT_THROW(mpp::write(path, m, "medit"), mpp::WriteError);
  EXPECT_THROW(mpp::write(tmp_path("pick.meshb"), m, "medit"), mpp::WriteError);
}

TEST(MeditRead, BinaryFixturesEqualTheReference) {
  const auto ref = mpp::read(kData + "reference.mesh");
  for (const std::string name : {"v1_float32", "v2", "v3", "v4_int64", "v2_big_endian", "v4_int64_big_endian",
                                 "unknown_keyword", "no_end"}) {
    SCOPED_TRACE(name);
    const auto m = mpp::read(kData + name + ".meshb");
    EXPECT_EQ(m.points.dtype(), name == "v1_float32" ? mpp::DType::float32 : mpp::DType::float64);
    const auto refs = name.find("v4") == 0 ? mpp::DType::int64 : mpp::DType::int32;
    EXPECT_EQ(m.point_data.at("medit:ref").dtype(), refs);
    EXPECT_EQ(m.cell_data.at("medit:ref")[0].dtype(), refs);
    mpp::Mesh expected = as_read(ref, refs);
    expected.points = expected.points.as_dtype(m.points.dtype());
    EXPECT_EQ(compare_meshes(expected, m), "");
  }
}

TEST(MeditRead, AsciiFixturesEqualTheReference) {
  const auto ref = mpp::read(kData + "reference.mesh");
  EXPECT_EQ(compare_arrays("tetra", ref.cells[2].connectivity, i64({0, 1, 2, 3, 1, 2, 3, 4}, {2, 4})), "");
  EXPECT_EQ(compare_arrays("point refs", ref.point_data.at("medit:ref"), i64({1, 2, 2, 3, 0}, {5})), "");
  for (const std::string name : {"comments_and_layout", "unknown_keywords"}) {
    SCOPED_TRACE(name);
    EXPECT_EQ(compare_meshes(ref, mpp::read(kData + name + ".mesh")), "");
  }
  const auto single = mpp::read(kData + "version1_float32.mesh");
  EXPECT_EQ(single.points.dtype(), mpp::DType::float32);
  mpp::Mesh expected = ref;
  expected.points = expected.points.as_dtype(mpp::DType::float32);
  EXPECT_EQ(compare_meshes(expected, single), "");
}

TEST(MeditRead, TwoDimensionsP2AndOtherSpellings) {
  for (const std::string ext : {".mesh", ".meshb"}) {
    const auto m2 = mpp::read(kData + "dimension2" + ext);
    EXPECT_EQ(m2.points.dim(1), 2u);
    ASSERT_EQ(m2.cells.size(), 2u);
    EXPECT_EQ(m2.cells[1].type, "quad");
    EXPECT_EQ(compare_arrays("quad", m2.cells[1].connectivity, i64({1, 4, 5, 2}, {1, 4})), "");
    const auto p2 = mpp::read(kData + "p2_elements" + ext);
    ASSERT_EQ(p2.cells.size(), 2u);
    EXPECT_EQ(p2.cells[0].type, "triangle6");
    EXPECT_EQ(p2.cells[1].type, "tetra10");
    EXPECT_EQ(compare_arrays("tetra10", p2.cells[1].connectivity, i64({0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 10})), "");
    EXPECT_EQ(p2.cell_data.at("medit:ref")[1].value_as_int64(0), 9);
  }
  const auto m = mpp::read(kData + "prisms_pyramids_hexaedra.mesh");
  ASSERT_EQ(m.cells.size(), 3u);
  EXPECT_EQ(m.cells[0].type, "hexahedron");
  EXPECT_EQ(m.cells[1].type, "pyramid");
  EXPECT_EQ(m.cells[2].type, "wedge");
}

TEST(MeditRead, ReferencesBecomeOneRegionPerDimensionAndReference) {
  const auto m = mpp::read(kData + "reference.mesh");
  std::map<std::string, std::vector<std::int64_t>> got;
  for (const auto& r : m.regions) {
    EXPECT_EQ(r.kind, mpp::RegionKind::cell);
    for (std::size_t i = 0; i < r.entries.size(); ++i) got[r.name + "/" + std::to_string(r.dim) + "/" + std::to_string(r.tag)].push_back(r.entries.value_as_int64(i));
  }
  // Cells: edge 0 (ref 7), triangles 1-2 (refs 10, 11), tetrahedra 3-4 (refs 5, 6).
  const std::map<std::string, std::vector<std::int64_t>> expected = {
      {"medit_ref_1_7/1/7", {0}}, {"medit_ref_2_10/2/10", {1}}, {"medit_ref_2_11/2/11", {2}},
      {"medit_ref_3_5/3/5", {3}}, {"medit_ref_3_6/3/6", {4}}};
  EXPECT_EQ(got, expected);
  // Two blocks of one dimension and reference make one region.
  const auto two = mpp::read(kData + "dimension2.mesh");
  ASSERT_EQ(two.regions.size(), 2u);
  EXPECT_EQ(two.regions[0].name, "medit_ref_2_1");
  EXPECT_EQ(two.regions[0].entries.size(), 2u);
  EXPECT_EQ(two.regions[1].name, "medit_ref_2_3");
  EXPECT_EQ(two.regions[1].entries.value_as_int64(0), 2);
}

TEST(MeditMalformed, ErrorsNameThePlaceAndWhatWasExpected) {
  const std::string head = "MeshVersionFormatted 2\nDimension 3\nVertices\n3\n0 0 0 1\n1 0 0 1\n0 1 0 1\n";
  auto expect = [](const std::string& outcome, std::initializer_list<const char*> parts) {
    EXPECT_EQ(outcome.rfind("ReadError: medit: ", 0), 0u) << outcome;
    for (const char* p : parts) EXPECT_NE(outcome.find(p), std::string::npos) << "'" << p << "' not in: " << outcome;
  };
  expect(read_text(head + "Triangles\n1\n1 2 4 0\nEnd\n"), {"line 8", "Triangles: element 1 lists vertex 4, outside 1..3"});
  expect(read_text(head + "Triangles\n1\n0 1 2 0\nEnd\n"), {"lists vertex 0"});
  expect(read_text(head + "Triangles\n1\n1 2 x 0\nEnd\n"), {"line 10", "expected a vertex index, found 'x'"});
  expect(read_text(head + "Triangles\n1000000000000\n1 2 3 0\nEnd\n"), {"declared 1000000000000 Triangles"});
  expect(read_text("MeshVersionFormatted 2\nDimension 4\n"), {"line 2", "Dimension: expected 2 or 3, found 4"});
  expect(read_text("MeshVersionFormatted 9\n"), {"MeshVersionFormatted: expected 1 to 4, found 9"});
  expect(read_text("MeshVersionFormatted 2\nVertices\n1\n0 0 0 1\n"), {"Vertices before Dimension"});
  expect(read_text("MeshVersionFormatted 2\nDimension 3\n12 Vertices\n"), {"line 3", "expected a keyword, found '12'"});
  expect(read_text("MeshVersionFormatted 2\nDimension 3\nEnd\n"), {"expected a Vertices section"});
  expect(read_text(head + "Vertices\n0\n"), {"a second Vertices section"});
  expect(read_text("MeshVersionFormatted 2\nDimension 3\nVertices\n2\n0 0 0 1\n1 0 0\n"), {"expected a vertex reference"});

  // Binary: the header, counts that lie, an offset that goes backwards.
  auto i32 = [](std::initializer_list<std::int32_t> v) {
    std::string s;
    for (auto x : v) s.append(reinterpret_cast<const char*>(&x), 4);
    return s;
  };
  auto i64v = [](std::int64_t x) { return std::string(reinterpret_cast<const char*>(&x), 8); };
  expect(read_text(i32({1, 7}), "bad.meshb"), {"byte 4", "expected a version from 1 to 4, found 7"});
  expect(read_text(i32({1, 2, 3, 20, 5}), "bad.meshb"), {"Dimension: expected 2 or 3, found 5"});
  expect(read_text(i32({1, 2, 3, 20, 3, 4, 0, 1000000}), "bad.meshb"), {"declared 1000000 vertices"});
  expect(read_text(i32({1, 2, 3, 20, 3, 4, 0, -5}), "bad.meshb"), {"expected a vertex count of 0 or more, found -5"});
  expect(read_text(i32({1, 2, 3, 20, 3, 77, 4}), "bad.meshb"), {"byte 20", "keyword 77: expected a next-keyword offset from 28"});
  expect(read_text(i32({1, 4, 3}) + i64v(24) + i32({3, 6}) + i64v(0) + i64v(std::int64_t{1} << 50), "bad.meshb"),
         {"declared 1125899906842624 Triangles"});
  expect(read_text(i32({1, 2, 3, 20, 3, 4, 0, 1}) + std::string(20, '\0'), "bad.meshb"), {"byte 32", "declared 1 vertices but only 20 bytes remain"});
}

TEST(MeditFuzz, EveryPrefixAndCorruptionIsAMeshOrReadError) {
  std::vector<std::string> files = {kData + "reference.mesh", kData + "comments_and_layout.mesh", kData + "unknown_keywords.mesh",
                                    kData + "p2_elements.mesh"};
  for (const std::string name : {"v1_float32", "v3", "v4_int64_big_endian", "unknown_keyword", "dimension2"})
    files.push_back(kData + name + ".meshb");
  std::size_t cases = 0, meshes = 0;
  for (const auto& f : files) {
    const auto n = sweep(slurp(f), "medit", f.substr(f.rfind('/') + 1), Sweep::xor_each(1, 1, {0x01, 0xff}).errors_start("ReadError: medit: "));
    cases += n.files, meshes += n.meshes;
  }
  EXPECT_GT(cases, 5000u);
  EXPECT_GT(meshes, 0u);  // a binary file cut after a whole keyword, with no End, still reads
}

TEST(MeditParallel, LargeSectionsReadTheSameOnOneAndFourThreads) {
  // 40000 triangles (above io::kParallelRowsMin) in three layouts: one row per line, two
  // rows per line (the cut at line starts is then wrong and must be detected), and one
  // with a bad index near the end (the error must be the first one, in file order).
  const std::size_t n = 40000;
  std::string v = "MeshVersionFormatted 2\nDimension 2\nVertices\n" + std::to_string(n + 2) + "\n";
  for (std::size_t i = 0; i < n + 2; ++i) v += std::to_string(i) + ".5 " + std::to_string(i % 7) + " " + std::to_string(i % 3) + "\n";
  std::string one = "Triangles\n" + std::to_string(n) + "\n", two = one;
  for (std::size_t i = 0; i < n; ++i) {
    const std::string row = std::to_string(i + 1) + " " + std::to_string(i + 2) + " " + std::to_string(i + 3) + " " + std::to_string(i % 5);
    one += row + "\n";
    two += row + (i % 2 ? "\n" : " ");
  }
  const std::string p1 = tmp_path("par1.mesh"), p2 = tmp_path("par2.mesh"), p3 = tmp_path("par3.mesh");
  spit(p1, v + one + "End\n");
  spit(p2, v + two + "End\n");
  std::string bad = one;
  bad.replace(bad.rfind(" 0\n") - 6, 1, "x");  // inside one of the last rows
  spit(p3, v + bad + "End\n");
  const auto a = mpp::read(p1, "medit", {{"threads", "1"}});
  EXPECT_EQ(a.cells[0].connectivity.value_as_int64(3 * (n - 1) + 2), static_cast<std::int64_t>(n + 1));
  for (const auto& p : {p1, p2}) {
    for (const char* t : {"1", "4"}) EXPECT_EQ(compare_meshes(a, mpp::read(p, "medit", {{"threads", t}})), "") << p << " threads " << t;
  }
  std::string e1, e4;
  try { mpp::read(p3, "medit", {{"threads", "1"}}); } catch (const mpp::ReadError& e) { e1 = e.what(); }
  try { mpp::read(p3, "medit", {{"threads", "4"}}); } catch (const mpp::ReadError& e) { e4 = e.what(); }
  EXPECT_NE(e1.find("expected"), std::string::npos) << e1;
  EXPECT_EQ(e1, e4);
}

// Every element kind's binary rows decode to the file's numbers less one, with their
// references, in the host's byte order (the AVX2 path where the CPU has it: groups of four
// nodes, three nodes with the reference, the rest one by one) and swapped (the scalar
// path), with int32 (version 2) and int64 (version 4) integers; a 0 or a number past the
// vertex count in any node slot of any row is a ReadError naming the element.
TEST(MeditRead, EveryElementKindDecodesInBothByteOrdersAndEveryBadIndexIsFound) {
  constexpr std::int32_t kVertices = 12, kRows = 37;
  const auto file_of = [&](const mpp::medit::ElementKind& e, int version, bool swap, std::int32_t bad_row, int bad_slot, std::int64_t bad) {
    std::string s;
    const auto put = [&](auto v) {
      char b[sizeof v];
      std::memcpy(b, &v, sizeof v);
      if (swap) std::reverse(b, b + sizeof v);
      s.append(b, sizeof v);
    };
    const bool v4 = version == 4;
    const std::size_t iw = v4 ? 8 : 4;
    const auto integer = [&](std::int64_t v) { v4 ? put(v) : put(static_cast<std::int32_t>(v)); };
    const auto next = [&](std::size_t body) {  // the next-keyword offset: int64 from version 3
      v4 ? put(static_cast<std::int64_t>(s.size() + 8 + body)) : put(static_cast<std::int32_t>(s.size() + 4 + body));
    };
    put(std::int32_t{1}), put(std::int32_t{version});
    put(std::int32_t{3}), next(4), put(std::int32_t{3});
    put(std::int32_t{4}), next(iw + kVertices * (24 + iw)), integer(kVertices);
    for (std::int32_t i = 0; i < kVertices; ++i) put(double(i)), put(0.5 * i), put(-1.0 * i), integer(i % 3);
    put(std::int32_t{e.code}), next(iw + std::size_t(kRows) * (e.nodes + 1) * iw), integer(kRows);
    for (std::int32_t i = 0; i < kRows; ++i) {
      for (int j = 0; j < e.nodes; ++j) integer(i == bad_row && j == bad_slot ? bad : (i * 7 + j * 5) % kVertices + 1);
      integer(1000 + i);
    }
    put(std::int32_t{54});
    return s;
  };
  const std::string path = tmp_path("every_kind.meshb");
  for (const auto& e : mpp::medit::kElements)
    for (int version : {2, 4})
      for (bool swap : {false, true}) {
        SCOPED_TRACE(std::string(e.keyword) + ", version " + std::to_string(version) + (swap ? ", swapped" : ""));
        spit(path, file_of(e, version, swap, -1, 0, 0));
        const mpp::Mesh m = mpp::read(path, "medit");
        ASSERT_EQ(m.cells.size(), 1u);
        EXPECT_EQ(m.cells[0].type, e.type);
        const mpp::NDArray& c = m.cells[0].connectivity;
        ASSERT_EQ(c.dim(0), std::size_t(kRows));
        ASSERT_EQ(c.dim(1), std::size_t(e.nodes));
        const std::int64_t* v = c.data<std::int64_t>();
        const mpp::NDArray& refs = m.cell_data.at("medit:ref")[0];
        ASSERT_EQ(refs.dtype(), version == 4 ? mpp::DType::int64 : mpp::DType::int32);
        for (std::int32_t i = 0; i < kRows; ++i) {
          for (int j = 0; j < e.nodes; ++j) ASSERT_EQ(v[i * e.nodes + j], (i * 7 + j * 5) % kVertices) << i << "," << j;
          ASSERT_EQ(version == 4 ? refs.data<std::int64_t>()[i] : refs.data<std::int32_t>()[i], 1000 + i);
        }
        std::vector<std::int64_t> bads = {0, kVertices + 1, -3};
        if (version == 4) bads.push_back(std::int64_t{1} << 40);  // an index no int32 holds
        for (std::int32_t row : {0, 17, kRows - 1})
          for (int slot = 0; slot < e.nodes; ++slot)
            for (std::int64_t bad : bads) {
              spit(path, file_of(e, version, swap, row, slot, bad));
              const std::string outcome = read_outcome(path, "medit");
              EXPECT_NE(outcome.find("ReadError"), std::string::npos) << outcome;
              EXPECT_NE(outcome.find(std::string(e.keyword) + ": element " + std::to_string(row + 1)), std::string::npos) << outcome;
            }
      }
}
