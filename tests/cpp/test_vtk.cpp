// Legacy VTK: round trips over the canonical meshes (5.1 / 4.2 x ASCII / binary), the
// datasets meshio reads (POLYDATA, STRUCTURED_POINTS, STRUCTURED_GRID, RECTILINEAR_GRID),
// attributes (SCALARS + LOOKUP_TABLE, VECTORS, NORMALS, TENSORS, FIELD, COLOR_SCALARS),
// malformed input with line numbers, and every truncated prefix / some corruptions.
#include <gtest/gtest.h>

#include "test_vtk_common.hpp"

using namespace vtktest;

namespace {

std::vector<std::pair<std::string, mpp::Options>> vtk_modes() {
  return {{"51_binary", {{"fmt_version", "5.1"}}},
          {"51_ascii", {{"fmt_version", "5.1"}, {"binary", "false"}}},
          {"42_binary", {{"fmt_version", "4.2"}}},
          {"42_ascii", {{"fmt_version", "4.2"}, {"binary", "false"}}}};
}

std::string read_text(const std::string& text) { return outcome_of_string(text, "vtk", "bad.vtk"); }

}  // namespace

TEST(VtkRoundTrip, EveryMeshEveryMode) {
  mpp::Mesh two_d = tri_mesh();
  two_d.points = grid_points(2);
  const std::vector<std::pair<std::string, mpp::Mesh>> meshes = {
      {"tri", tri_mesh()},
      {"tri_2d", two_d},
      {"linear_mix", with_data(linear_mix())},
      {"quadratic_mix", with_data(quadratic_mix())},
      {"polygons", with_data(polygon_mesh())},
      {"polyhedra", with_data(polyhedron_mesh(true))},
  };
  for (const auto& [name, mesh] : meshes)
    for (const auto& [mode, options] : vtk_modes()) {
      SCOPED_TRACE(name + " / " + mode);
      const std::string path = tmp_path(name + "_" + mode + ".vtk");
      mpp::write(path, mesh, "vtk", options);
      EXPECT_EQ(compare_meshes(mesh, mpp::read(path, "vtk", {{"ragged", "true"}})), "");  // the blocks as written
    }
}

TEST(VtkRead, StructuredPointsAsHexahedra) {
  const std::string text =
      "# vtk DataFile Version 3.0\nimage\nASCII\nDATASET STRUCTURED_POINTS\nDIMENSIONS 3 2 2\nORIGIN 1 2 3\nSPACING 0.5 1 2\n"
      "POINT_DATA 12\nSCALARS s float\nLOOKUP_TABLE default\n0 1 2 3 4 5 6 7 8 9 10 11\n"
      "CELL_DATA 2\nVECTORS v double\n1 2 3 4 5 6\n";
  const auto m = read_string(text, "vtk", "sp.vtk");
  ASSERT_EQ(m.cells.size(), 1u);
  EXPECT_EQ(m.cells[0].type, "hexahedron");
  EXPECT_EQ(compare_arrays("hex", m.cells[0].connectivity, i64({0, 1, 4, 3, 6, 7, 10, 9, 1, 2, 5, 4, 7, 8, 11, 10}, {2, 8}), false), "");
  EXPECT_EQ(m.points.value_as_double(3 * 5 + 0), 2.0);   // point 5 = (i=2, j=1, k=0)
  EXPECT_EQ(m.points.value_as_double(3 * 5 + 1), 3.0);
  EXPECT_EQ(m.points.value_as_double(3 * 11 + 2), 5.0);  // k=1
  EXPECT_EQ(m.point_data.at("s").dtype(), mpp::DType::float32);
  EXPECT_EQ(m.cell_data.at("v")[0].shape(), (NDArray::Shape{2, 3}));
}

TEST(VtkRead, RectilinearAndStructuredGridAsQuads) {
  const std::string rect =
      "# vtk DataFile Version 2.0\nr\nASCII\nDATASET RECTILINEAR_GRID\nDIMENSIONS 3 1 2\nX_COORDINATES 3 float\n0 1 3\n"
      "Y_COORDINATES 1 float\n5\nZ_COORDINATES 2 double\n-1 1\n";
  std::string path = tmp_path("rg.vtk");
  spit(path, rect);
  auto m = mpp::read(path, "vtk");
  ASSERT_EQ(m.cells.size(), 1u);
  EXPECT_EQ(m.cells[0].type, "quad");
  EXPECT_EQ(compare_arrays("quad", m.cells[0].connectivity, i64({0, 1, 4, 3, 1, 2, 5, 4}, {2, 4}), false), "");
  EXPECT_EQ(m.points.value_as_double(3 * 4 + 0), 1.0);
  EXPECT_EQ(m.points.value_as_double(3 * 4 + 2), 1.0);
  const std::string sg =
      "# vtk DataFile Version 2.0\ns\nASCII\nDATASET STRUCTURED_GRID\nDIMENSIONS 3 1 1\nPOINTS 3 float\n0 0 0 1 0 0 2 0 0\n";
  spit(path, sg);
  m = mpp::read(path, "vtk");
  ASSERT_EQ(m.cells.size(), 1u);
  EXPECT_EQ(m.cells[0].type, "line");
  EXPECT_EQ(m.cells[0].size(), 2u);
}

TEST(VtkRead, PolyDataSplitsStripsAndPolylines) {
  const std::string text =
      "# vtk DataFile Version 4.2\np\nASCII\nDATASET POLYDATA\nPOINTS 6 float\n0 0 0 1 0 0 2 0 0 0 1 0 1 1 0 2 1 0\n"
      "VERTICES 1 2\n1 5\nLINES 1 4\n3 0 1 2\nPOLYGONS 2 9\n3 0 1 4\n4 0 1 4 3\nTRIANGLE_STRIPS 1 5\n4 0 3 1 4\n"
      "CELL_DATA 5\nSCALARS id int 1\nLOOKUP_TABLE default\n10 11 12 13 14\n"
      "POINT_DATA 6\nCOLOR_SCALARS rgb 3\n0 0 0 1 1 1 0 0 0 1 1 1 0 0 0 1 1 1\nNORMALS n float\n0 0 1 0 0 1 0 0 1 0 0 1 0 0 1 0 0 1\n"
      "TENSORS t double\n" + std::string(54 * 2, ' ').replace(0, 0, "") ;
  std::string tens;
  for (int i = 0; i < 54; ++i) tens += std::to_string(i) + " ";
  const std::string path = tmp_path("pd.vtk");
  spit(path, text + tens + "\n");
  const auto m = mpp::read(path, "vtk");
  std::vector<std::string> types;
  for (const auto& b : m.cells) types.push_back(b.type + ":" + std::to_string(b.size()));
  EXPECT_EQ(types, (std::vector<std::string>{"vertex:1", "line:2", "triangle:1", "quad:1", "triangle:2"}));
  // Cell data follows the split: the polyline's id (11) twice, the strip's (14) twice.
  EXPECT_EQ(compare_arrays("line id", m.cell_data.at("id")[1], NDArray::from_vector<std::int32_t>({11, 11})), "");
  EXPECT_EQ(compare_arrays("strip id", m.cell_data.at("id")[4], NDArray::from_vector<std::int32_t>({14, 14})), "");
  EXPECT_EQ(compare_arrays("strip", m.cells[4].connectivity, i64({0, 3, 1, 3, 4, 1}, {2, 3}), false), "");
  EXPECT_EQ(m.point_data.at("rgb").shape(), (NDArray::Shape{6, 3}));
  EXPECT_EQ(m.point_data.at("t").shape(), (NDArray::Shape{6, 3, 3}));
  EXPECT_EQ(m.point_data.at("n").shape(), (NDArray::Shape{6, 3}));
}

TEST(VtkRead, FieldOutsideDataIsFieldData) {
  const std::string text =
      "# vtk DataFile Version 4.2\nf\nASCII\nDATASET UNSTRUCTURED_GRID\nFIELD FieldData 2\nTIME 1 1 double\n2.5\n"
      "cycle%20no 1 2 int\n7 8\nMETADATA\nINFORMATION 0\n\n"
      "POINTS 3 float\n0 0 0 1 0 0 0 1 0\nCELLS 1 4\n3 0 1 2\nCELL_TYPES 1\n5\n"
      "POINT_DATA 3\nFIELD FieldData 1\nmy%20data 2 3 float\n1 2 3 4 5 6\n";
  const auto m = read_string(text, "vtk", "fd.vtk");
  EXPECT_EQ(m.field_data.at("TIME").value_as_double(0), 2.5);
  EXPECT_EQ(m.field_data.at("cycle no").size(), 2u);
  EXPECT_EQ(m.point_data.at("my data").shape(), (NDArray::Shape{3, 2}));
}

TEST(VtkMalformed, ErrorsNameTheLine) {
  const std::string good =
      "# vtk DataFile Version 4.2\nt\nASCII\nDATASET UNSTRUCTURED_GRID\nPOINTS 3 float\n0 0 0 1 0 0 0 1 0\n"
      "CELLS 1 4\n3 0 1 2\nCELL_TYPES 1\n5\n";
  EXPECT_EQ(read_text(good), "mesh");
  auto rep = [&](const std::string& from, const std::string& to) { return replaced(good, from, to); };
  const std::vector<std::pair<std::string, std::string>> cases = {
      {rep("# vtk", "# vtx"), "line 1"},
      {rep("ASCII", "TEXT"), "line 3"},
      {rep("POINTS 3 float", "POINTS 3 quaternion"), "line 5"},
      {rep("CELLS 1 4\n3 0 1 2", "CELLS 1 4\n3 0 1 9"), "node 9 is outside [0, 3)"},
      {rep("CELLS 1 4\n3 0 1 2", "CELLS 1 4\n5 0 1 2"), "declares 5 nodes"},
      {rep("CELL_TYPES 1\n5", "CELL_TYPES 1\n10"), "has 3 nodes, expected 4"},
      {rep("POINTS 3 float\n0 0 0 1 0 0 0 1 0", "POINTS 3 float\n0 0 0 1 0 0 0 1"), "expected a number, found 'CELLS'"},
      {rep("POINTS 3 float\n0 0 0 1 0 0 0 1 0", "POINTS 3000000 float\n0 0 0 1 0 0 0 1 0"), "declared 9000000 values but only"},
      {rep("DATASET UNSTRUCTURED_GRID", "DATASET FOO"), "DATASET FOO is not supported"},
      {rep("CELL_TYPES 1\n5", "CELL_TYPES 2\n5 5"), "CELLS has 1 cells, CELL_TYPES 2"},
      {good + "POINT_DATA 3\nSCALARS a float\nLOOKUP_TABLE default\n1 2\n", "the values end after 2 of 3"},
      {good + "BOGUS 1\n", "unknown keyword 'BOGUS'"},
      // Two counts within the cap whose product is not: a ReadError, not an overflow.
      {good + "FIELD FieldData 1\na 281474976710656 281474976710656 float\n1\n", "values overflow a count"},
  };
  for (const auto& [text, needle] : cases) expect_read_error(read_text(text), needle, "line ");
  // A type meshio++ cannot hold is skipped with a note naming it (as meshio skips it).
  for (const auto& [id, name] : {std::pair<std::string, std::string>{"77", "VTK_BEZIER_QUADRILATERAL (77)"},
                                 {"78", "VTK_BEZIER_TETRAHEDRON (78)"}}) {
    spit(tmp_path("skip.vtk"), rep("CELL_TYPES 1\n5", "CELL_TYPES 1\n" + id));
    const auto m = mpp::read(tmp_path("skip.vtk"), "vtk");
    EXPECT_TRUE(m.cells.empty());
    ASSERT_EQ(m.warnings.size(), 1u);
    EXPECT_NE(m.warnings[0].find(name + ": 1 cell skipped"), std::string::npos) << m.warnings[0];
  }
}

TEST(VtkMalformed, BinaryCutShort) {
  const auto m = with_data(linear_mix());
  const std::string path = tmp_path("cut.vtk");
  mpp::write(path, m, "vtk");
  const std::string bytes = slurp(path);
  const std::string outcome = read_text(bytes.substr(0, bytes.size() / 2));
  EXPECT_NE(outcome.find("binary values but only"), std::string::npos) << outcome;
}

TEST(VtkFuzz, EveryPrefixAndCorruptionIsAMeshOrReadError) {
  const auto mesh = with_data(polyhedron_mesh(true));
  std::size_t files = 0;
  for (const auto& [mode, options] : vtk_modes()) {
    if (mode == "51_ascii" || mode == "42_binary") continue;  // the other two cover both layouts
    const std::string path = tmp_path("fuzz_src_" + mode + ".vtk");
    mpp::write(path, mesh, "vtk", options);
    const std::string bytes = slurp(path);
    files += sweep(bytes, "vtk", "fuzz_probe.vtk", Sweep::xor_each(bytes.size() / 500 + 1, bytes.size() / 150 + 1, {0x01, 0x80})).files;
  }
  EXPECT_GT(files, 1000u);
}

TEST(VtkMalformed, BinaryCellTypesOutsideAByteNameTheType) {
  const std::string path = tmp_path("types.vtk");
  mpp::write(path, tri_mesh(), "vtk");
  std::string bytes = slurp(path);
  // CELL_TYPES 4 then four big-endian int32: make the third 261 (0x105) and the fourth -1.
  const std::size_t at = bytes.find("CELL_TYPES 4\n") + std::string("CELL_TYPES 4\n").size();
  ASSERT_EQ(bytes.substr(at, 4), std::string("\0\0\0\5", 4));
  bytes[at + 8 + 2] = 1;
  for (std::size_t i = 12; i < 16; ++i) bytes[at + i] = static_cast<char>(0xff);
  const std::string outcome = read_text(bytes);
  EXPECT_EQ(outcome.rfind("ReadError: ", 0), 0u) << outcome;
  EXPECT_NE(outcome.find("CELL_TYPES: unknown VTK cell type 261"), std::string::npos) << outcome;
  EXPECT_NE(outcome.find("line "), std::string::npos) << outcome;
}

TEST(VtkRead, Int32OffsetsAndConnectivityWidenToInt64) {
  // A 5.1 binary file whose OFFSETS / CONNECTIVITY are big-endian int32 (VTK writes "int"
  // for 32-bit id builds).
  auto be32 = [](std::vector<std::int32_t> v) {
    std::string out;
    for (std::int32_t x : v)
      for (int s = 24; s >= 0; s -= 8) out.push_back(static_cast<char>((static_cast<std::uint32_t>(x) >> s) & 0xff));
    return out;
  };
  std::string text = "# vtk DataFile Version 5.1\nt\nBINARY\nDATASET UNSTRUCTURED_GRID\nPOINTS 4 float\n";
  text += std::string(48, '\0');
  text += "\nCELLS 3 7\nOFFSETS int\n" + be32({0, 3, 7}) + "\nCONNECTIVITY int\n" + be32({0, 1, 2, 0, 1, 2, 3});
  text += "\nCELL_TYPES 2\n" + be32({5, 10}) + "\n";
  const mpp::Mesh m = read_string(text, "vtk", "int32.vtk");
  ASSERT_EQ(m.cells.size(), 2u);
  EXPECT_EQ(m.cells[0].type, "triangle");
  EXPECT_EQ(ints_of(m.cells[0].connectivity), (std::vector<std::int64_t>{0, 1, 2}));
  EXPECT_EQ(m.cells[1].type, "tetra");
  EXPECT_EQ(ints_of(m.cells[1].connectivity), (std::vector<std::int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(m.cells[1].connectivity.dtype(), mpp::DType::int64);
}

TEST(VtkMalformed, BinaryConnectivityIdsOutsideThePointsNameTheCell) {
  // The read finds the largest id on the way (binary 5.1 OFFSETS / CONNECTIVITY, int64 and
  // int32): a bad one, too large or negative, must still be named with its cell.
  auto be = [](std::vector<std::int64_t> v, int bytes) {
    std::string out;
    for (std::int64_t x : v)
      for (int s = 8 * bytes - 8; s >= 0; s -= 8) out.push_back(static_cast<char>((static_cast<std::uint64_t>(x) >> s) & 0xff));
    return out;
  };
  for (const auto& [type, bytes] : {std::pair{"vtktypeint64", 8}, std::pair{"int", 4}}) {
    for (const auto& [bad, message] : {std::pair<std::int64_t, const char*>{4, "cell 1: node 4 is outside [0, 4)"},
                                       std::pair<std::int64_t, const char*>{-1, "cell 1: node -1 is outside [0, 4)"}}) {
      std::string text = "# vtk DataFile Version 5.1\nt\nBINARY\nDATASET UNSTRUCTURED_GRID\nPOINTS 4 float\n";
      text += std::string(48, '\0');
      text += "\nCELLS 3 7\nOFFSETS " + std::string(type) + "\n" + be({0, 3, 7}, bytes) + "\nCONNECTIVITY " + type + "\n" +
              be({0, 1, 2, 0, 1, bad, 3}, bytes);
      text += "\nCELL_TYPES 2\n" + be({5, 10}, 4) + "\n";
      const std::string outcome = outcome_of_string(text, "vtk", "bad_id.vtk");
      EXPECT_NE(outcome.find(message), std::string::npos) << type << ": " << outcome;
    }
  }
}

TEST(VtkThreads, BinaryArraysReadInChunksAreTheSameOnAnyThreadCountAndNameTheFirstBadType) {
  // 200k triangles and their points: several ranges of the pread-and-decode path.
  constexpr std::size_t kTri = 200000;
  mpp::Mesh m;
  std::vector<double> pts(3 * (kTri + 2));
  for (std::size_t i = 0; i < pts.size(); ++i) pts[i] = static_cast<double>(i % 1013) * 0.25 - static_cast<double>(i / 7);
  m.points = mpp::NDArray::from_vector(pts, {kTri + 2, 3});
  std::vector<std::int64_t> c(3 * kTri);
  for (std::size_t t = 0; t < kTri; ++t) c[3 * t] = static_cast<std::int64_t>(t), c[3 * t + 1] = static_cast<std::int64_t>(t + 1), c[3 * t + 2] = static_cast<std::int64_t>(t + 2);
  m.cells.push_back(mpp::CellBlock::rectangular("triangle", mpp::NDArray::from_vector(c, {kTri, 3})));
  for (const auto& [mode, options] : vtk_modes()) {
    if (mode.find("binary") == std::string::npos) continue;
    const std::string path = tmp_path("threads_" + mode + ".vtk");
    mpp::write(path, m, "vtk", options);
    for (const char* t : {"1", "2", "3"}) EXPECT_EQ(compare_meshes(m, mpp::read(path, "vtk", {{"threads", t}})), "") << mode << " threads " << t;
    // two unknown cell types, in the last range and in the second: every thread count names the earlier
    std::string bytes = slurp(path);
    const std::string head = "CELL_TYPES " + std::to_string(kTri) + "\n";
    const std::size_t at = bytes.find(head) + head.size();
    bytes[at + 4 * 190000 + 2] = 1;  // 5 -> 261
    bytes[at + 4 * 120000 + 2] = 2;  // 5 -> 517
    spit(path, bytes);
    for (const char* t : {"1", "2", "3"}) {
      const std::string outcome = [&] {
        try {
          mpp::read(path, "vtk", {{"threads", t}});
          return std::string("no error");
        } catch (const mpp::ReadError& e) {
          return std::string(e.what());
        }
      }();
      EXPECT_NE(outcome.find("unknown VTK cell type 517"), std::string::npos) << mode << " threads " << t << ": " << outcome;
    }
  }
}
