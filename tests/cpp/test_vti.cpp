// VTS, VTR, VTI (VTK's structured XML datasets, one shared implementation): the fixtures
// VTK 9.1 wrote (tests/data/{vts,vtr,vti}/) read to the same hexahedral grid in every
// encoding, points i fastest and VTK's hexahedron node order; writing a structured mesh
// (detected, or given by dims / extent) and refusing an unstructured one; malformed input
// and every truncated prefix / corruption a mesh or a ReadError.
#include <gtest/gtest.h>

#include "test_vtk_common.hpp"

using namespace vtktest;

namespace {

std::string fixture(const std::string& fmt, const std::string& name) {
  return std::string(MESHIOPP_TEST_DATA) + "/" + fmt + "/" + name + "." + fmt;
}

}  // namespace

TEST(VtiFixtures, EveryFormatAndEncodingReadsTheGrid) {
  for (const char* fmt : {"vts", "vtr", "vti"}) {
    SCOPED_TRACE(fmt);
    const mpp::Mesh ref = mpp::read(fixture(fmt, "appended"));
    ASSERT_EQ(ref.cells.size(), 1u);
    EXPECT_EQ(ref.cells[0].type, "hexahedron");
    // A 3 x 2 x 2 grid: two hexahedra, VTK's order (p, p+1, p+1+nx, p+nx, ... + nx*ny).
    EXPECT_EQ(ints_of(ref.cells[0].connectivity), (std::vector<std::int64_t>{0, 1, 4, 3, 6, 7, 10, 9, 1, 2, 5, 4, 7, 8, 11, 10}));
    EXPECT_EQ(ref.num_points(), 12u);
    EXPECT_EQ(doubles_of(ref.point_data.at("p"))[11], 5.5);
    EXPECT_EQ(ints_of(ref.cell_data.at("c")[0]), (std::vector<std::int64_t>{0, 1}));
    for (const char* name : {"ascii", "binary_zlib"}) EXPECT_EQ(compare_meshes(ref, mpp::read(fixture(fmt, name))), "") << name;
  }
  // VTI: Origin (0.5, 0, -1) + Spacing (1, 0.5, 2) * (i, j, k) over the extent 0 2 1 2 0 1.
  const auto p = points_of(mpp::read(fixture("vti", "ascii")));
  EXPECT_EQ((std::vector<double>(p.begin(), p.begin() + 6)), (std::vector<double>{0.5, 0.5, -1, 1.5, 0.5, -1}));
  // VTR: x from its Coordinates (0, 1, 3).
  EXPECT_EQ(points_of(mpp::read(fixture("vtr", "ascii")))[6], 3.0);
}

TEST(VtiRoundTrip, AStructuredMeshIsDetectedAndWrittenInEveryFormat) {
  for (const char* fmt : {"vts", "vtr", "vti"}) {
    SCOPED_TRACE(fmt);
    const mpp::Mesh ref = mpp::read(fixture(fmt, "binary_zlib"));
    for (const mpp::Options& options : {mpp::Options{}, mpp::Options{{"binary", "false"}},
                                        mpp::Options{{"data_mode", "appended"}, {"dims", "(3, 2, 2)"}},
                                        mpp::Options{{"extent", "[0, 2, 1, 2, 0, 1]"}}}) {
      const std::string path = tmp_path(std::string("rt.") + fmt);
      mpp::write(path, ref, fmt, options);
      const mpp::Mesh back = mpp::read(path);
      EXPECT_EQ(ints_of(back.cells[0].connectivity), ints_of(ref.cells[0].connectivity));
      EXPECT_EQ(compare_arrays("points", ref.points, back.points, false), "");
      EXPECT_EQ(doubles_of(back.point_data.at("p")), doubles_of(ref.point_data.at("p")));
    }
  }
}

TEST(VtiWrite, AnUnstructuredMeshIsAWriteError) {
  for (const char* fmt : {"vts", "vtr", "vti"}) {
    const std::string path = tmp_path(std::string("bad.") + fmt);
    spit(path, "keep");
    EXPECT_THROW(mpp::write(path, tri_mesh(), fmt), mpp::WriteError);
    EXPECT_THROW(mpp::write(path, mpp::read(fixture(fmt, "ascii")), fmt, {{"dims", "(2, 3, 2)"}}), mpp::WriteError);
    EXPECT_THROW(mpp::write(path, mpp::read(fixture(fmt, "ascii")), fmt, {{"dims", "(3, 2)"}}), std::invalid_argument);
    EXPECT_EQ(slurp(path), "keep");
  }
}

TEST(VtiMalformed, ErrorsNameWhatAndWhere) {
  const std::string good = slurp(fixture("vti", "ascii"));
  expect_read_error(outcome_of_string(replaced(good, "WholeExtent=\"0 2 1 2 0 1\"", "WholeExtent=\"0 2 1 2 0\""), "vti", "m.vti"),
                    "WholeExtent: expected six integers", "line 3");
  expect_read_error(outcome_of_string(replaced(good, "Piece Extent=\"0 2 1 2 0 1\"", "Piece Extent=\"0 3 1 2 0 1\""), "vti", "m.vti"),
                    "is not inside the WholeExtent");
  const std::string vtr = slurp(fixture("vtr", "ascii"));
  expect_read_error(outcome_of_string(replaced(replaced(vtr, "<Coordinates>", "<Points>"), "</Coordinates>", "</Points>"), "vtr", "m.vtr"),
                    "expected PointData, CellData or Coordinates, found 'Points'");
}

TEST(VtiFuzz, EveryPrefixAndCorruptionIsAMeshOrReadError) {
  std::size_t files = 0;
  for (const char* fmt : {"vts", "vtr", "vti"})
    for (const char* name : {"ascii", "binary_zlib", "appended"}) {
      const std::string bytes = slurp(fixture(fmt, name));
      files += sweep(bytes, fmt, std::string("fuzz_probe.") + fmt,
                     Sweep::xor_each(bytes.size() / 100 + 1, bytes.size() / 80 + 1, {0x01, 0x80}).validating()).files;
    }
  EXPECT_GT(files, 1000u);
}
