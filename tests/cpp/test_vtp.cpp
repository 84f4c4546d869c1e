// VTP (VTK XML PolyData): the fixtures VTK 9.1 wrote (tests/data/vtp/) read to one mesh
// in every encoding with strips cut as vtkTriangleStrip cuts them, our round trip in every
// mode (blocks in VTK's cell order), a volume cell refused, malformed input named by byte,
// and every truncated prefix / corruption a mesh or a ReadError.
#include <gtest/gtest.h>

#include "test_vtk_common.hpp"

using namespace vtktest;

namespace {

std::string fixture(const std::string& name) { return std::string(MESHIOPP_TEST_DATA) + "/vtp/" + name; }

const std::vector<mpp::Options> kModes = {
    {{"binary", "false"}},
    {{"compression", "None"}},
    {},
    {{"data_mode", "appended"}, {"header_type", "UInt32"}},
    {{"data_mode", "appended"}, {"compression", "None"}},
};

}  // namespace

TEST(VtpFixtures, EveryVtkEncodingReadsToTheSameMesh) {
  const mpp::Mesh ref = mpp::read(fixture("appended.vtp"));
  std::vector<std::string> types;
  for (const auto& b : ref.cells) types.push_back(b.type + ":" + std::to_string(b.size()));
  // Verts, Lines (a 3-point polyline: two segments), Polys, then the 5-point strip's 3 triangles.
  EXPECT_EQ(types, (std::vector<std::string>{"vertex:1", "line:2", "triangle:1", "quad:1", "triangle:3"}));
  EXPECT_EQ(ints_of(ref.cells[1].connectivity), (std::vector<std::int64_t>{0, 1, 1, 2}));
  EXPECT_EQ(ints_of(ref.cells[4].connectivity), (std::vector<std::int64_t>{3, 6, 4, 4, 6, 7, 4, 7, 5}));
  // Cell data follows: the polyline's value twice, the strip's three times.
  std::vector<std::int64_t> c;
  for (const auto& a : ref.cell_data.at("c")) for (auto v : ints_of(a)) c.push_back(v);
  EXPECT_EQ(c, (std::vector<std::int64_t>{0, 1, 1, 2, 3, 4, 4, 4}));
  for (const char* name : {"ascii.vtp", "binary_zlib.vtp"}) {
    SCOPED_TRACE(name);
    EXPECT_EQ(compare_meshes(ref, mpp::read(fixture(name))), "");
  }
}

TEST(VtpRoundTrip, EveryModeKeepsASurfaceInVtkCellOrder) {
  mpp::Mesh m = with_data(tri_mesh(), true);
  for (const auto& options : kModes) {
    const std::string path = tmp_path("rt.vtp");
    mpp::write(path, m, "vtp", options);
    EXPECT_EQ(compare_meshes(m, mpp::read(path)), "");
  }
  // Polys are typed by node count, as vtkPolyData types them: the ragged block's 5-, 7- and
  // 4-node polygons come back as two polygon runs and a quad.
  mpp::Mesh poly = with_data(polygon_mesh(), false);
  const std::string path = tmp_path("poly.vtp");
  mpp::write(path, poly, "vtp");
  const mpp::Mesh back = mpp::read(path);
  std::vector<std::string> types;
  for (const auto& b : back.cells) types.push_back(b.type + ":" + std::to_string(b.size()));
  EXPECT_EQ(types, (std::vector<std::string>{"polygon:2", "triangle:1", "polygon:1", "polygon:1", "quad:1"}));
  EXPECT_EQ(ints_of(back.cells[4].connectivity), (std::vector<std::int64_t>{18, 19, 22, 21}));
  poly.cells.pop_back();
  for (auto& [name, list] : poly.cell_data) list.pop_back();
  mpp::write(path, poly, "vtp");
  EXPECT_EQ(compare_meshes(poly, mpp::read(path), false), "");
}

TEST(VtpWrite, AVolumeCellIsAWriteErrorAndTheFileIsUntouched) {
  const std::string path = tmp_path("vol.vtp");
  spit(path, "keep");
  try {
    mpp::write(path, linear_mix(), "vtp");
    FAIL() << "no error";
  } catch (const mpp::WriteError& e) {
    EXPECT_NE(std::string(e.what()).find("PolyData holds vertex, line, triangle, quad and polygon cells"), std::string::npos) << e.what();
  }
  EXPECT_EQ(slurp(path), "keep");
}

TEST(VtpMalformed, ErrorsNameWhatAndWhere) {
  const std::string good = slurp(fixture("ascii.vtp"));
  expect_read_error(outcome_of_string(replaced(good, "NumberOfPolys=\"2\"", "NumberOfPolys=\"3\""), "vtp", "m.vtp"),
                    "offsets", "end after 2 of 3 values");
  expect_read_error(outcome_of_string(replaced(replaced(good, "<Strips>", "<Triangles>"), "</Strips>", "</Triangles>"), "vtp", "m.vtp"),
                    "expected Points, Verts, Lines, Strips, Polys, PointData or CellData, found 'Triangles'", "line");
  expect_read_error(outcome_of_string(replaced(good, "type=\"PolyData\"", "type=\"ImageData\""), "vtp", "m.vtp"),
                    "expected VTKFile type=\"PolyData\"");
}

TEST(VtpFuzz, EveryPrefixAndCorruptionIsAMeshOrReadError) {
  std::size_t files = 0;
  for (const char* name : {"ascii.vtp", "binary_zlib.vtp", "appended.vtp"}) {
    const std::string bytes = slurp(fixture(name));
    files += sweep(bytes, "vtp", "fuzz_probe.vtp", Sweep::xor_each(bytes.size() / 200 + 1, bytes.size() / 150 + 1, {0x01, 0x80}).validating()).files;
  }
  EXPECT_GT(files, 500u);
}
