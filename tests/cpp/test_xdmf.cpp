// meshio++ tests: XDMF (src/formats/xdmf): round trips through each heavy-data format,
// Mixed topologies, the time series API, and hostile files (a truncation/corruption sweep
// of an inline file; every outcome a mesh that validates or a ReadError).
#include <gtest/gtest.h>

#include "formats/xdmf/xdmf.hpp"
#include "formats/xdmf/xdmf_time_series.hpp"
#include "test_support.hpp"

namespace {

namespace mpp = meshioplusplus;
using mpp::NDArray;
using testsupport::tmp_path;

mpp::Mesh two_block_mesh() {
  mpp::Mesh m;
  m.points = NDArray::from_vector<double>({0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1}, {5, 3});
  m.cells.push_back(mpp::CellBlock::rectangular("triangle", NDArray::from_vector<std::int64_t>({0, 1, 2, 0, 2, 3}, {2, 3})));
  m.cells.push_back(mpp::CellBlock::rectangular("tetra", NDArray::from_vector<std::int64_t>({0, 1, 2, 4}, {1, 4})));
  m.point_data["u"] = NDArray::from_vector<double>({1, 2, 3, 4, 5});
  m.cell_data["c"] = {NDArray::from_vector<std::int32_t>({7, 8}), NDArray::from_vector<std::int32_t>({9})};
  return m;
}

void expect_same(const mpp::Mesh& a, const mpp::Mesh& b) {
  ASSERT_EQ(a.points.size(), b.points.size());
  for (std::size_t i = 0; i < a.points.size(); ++i) EXPECT_EQ(a.points.value_as_double(i), b.points.value_as_double(i));
  ASSERT_EQ(a.cells.size(), b.cells.size());
  for (std::size_t k = 0; k < a.cells.size(); ++k) {
    EXPECT_EQ(a.cells[k].type, b.cells[k].type);
    ASSERT_EQ(a.cells[k].connectivity.shape(), b.cells[k].connectivity.shape());
    for (std::size_t i = 0; i < a.cells[k].connectivity.size(); ++i)
      EXPECT_EQ(a.cells[k].connectivity.value_as_int64(i), b.cells[k].connectivity.value_as_int64(i));
  }
  ASSERT_EQ(b.cell_data.count("c"), 1u);
  EXPECT_EQ(b.cell_data.at("c")[1].value_as_int64(0), 9);
  EXPECT_EQ(b.cell_data.at("c")[1].dtype(), mpp::DType::int32);
  EXPECT_EQ(b.point_data.at("u").value_as_double(4), 5.0);
}

TEST(Xdmf, RoundTripsThroughEveryHeavyDataFormat) {
  for (const char* format : {"XML", "Binary", "HDF"}) {
    if (std::string(format) == "HDF" && !mpp::xdmf_hdf5_available()) continue;
    const std::string path = tmp_path(std::string("rt_") + format + ".xdmf");
    mpp::write(path, two_block_mesh(), "xdmf", {{"data_format", format}});
    expect_same(two_block_mesh(), mpp::read(path));
  }
}

TEST(Xdmf, TimeSeriesWritesTheMeshOnceAndEachStep) {
  const std::string path = tmp_path("series.xdmf");
  const mpp::Mesh m = two_block_mesh();
  {
    mpp::xdmf::TimeSeriesWriter w(path, {{"data_format", "XML"}});
    w.write_points_cells(m.points, m.cells);
    for (int k = 0; k < 3; ++k) w.write_data(0.5 * k, {{"u", NDArray::from_vector<double>({1, 2, 3, 4, double(k)})}}, m.cell_data);
    w.close();
  }
  mpp::xdmf::TimeSeriesReader r(path);
  ASSERT_EQ(r.num_steps(), 3u);
  EXPECT_EQ(r.read_points_cells().cells.size(), 2u);
  const mpp::xdmf::TimeStep step = r.read_data(2);
  EXPECT_EQ(step.t, 1.0);
  EXPECT_EQ(step.point_data.at("u").value_as_double(4), 2.0);
  EXPECT_EQ(step.cell_data.at("c")[0].value_as_int64(1), 8);
  EXPECT_THROW(r.read_data(3), std::out_of_range);
}

TEST(Xdmf, AWriterNotClosedWritesNothing) {
  const std::string path = tmp_path("unclosed.xdmf");
  {
    mpp::xdmf::TimeSeriesWriter w(path, {{"data_format", "XML"}});
    w.write_points_cells(two_block_mesh().points, two_block_mesh().cells);
  }
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(Xdmf, ErrorsNameTheLineAndWhatWasExpected) {
  const std::string text =
      "<Xdmf Version=\"3.0\"><Domain><Grid>\n<Geometry><DataItem Dimensions=\"3 3\">0 0 0 1 0 0 0 1 0</DataItem></Geometry>\n"
      "<Topology TopologyType=\"Triangle\"><DataItem Dimensions=\"1 3\" DataType=\"Int\">0 1 5</DataItem></Topology>\n"
      "</Grid></Domain></Xdmf>";
  EXPECT_NE(testsupport::outcome_of_string(text, "xdmf", "range.xdmf").find("line 1 (byte 28): triangle cells: node index 5 is out of range (3 points)"),
            std::string::npos) << testsupport::outcome_of_string(text, "xdmf", "range.xdmf");
  const std::string mixed = testsupport::replaced(
      testsupport::replaced(text, "TopologyType=\"Triangle\"", "TopologyType=\"Mixed\""), "Dimensions=\"1 3\" DataType=\"Int\">0 1 5",
      "Dimensions=\"3\" DataType=\"Int\">99 0 0");
  EXPECT_NE(testsupport::outcome_of_string(mixed, "xdmf", "mixed.xdmf").find("line 3 (byte 112): Mixed topology: unknown cell type code 99 at value 0"),
            std::string::npos) << testsupport::outcome_of_string(mixed, "xdmf", "mixed.xdmf");
  const std::string few = testsupport::replaced(text, ">0 0 0 1 0 0 0 1 0<", ">0 0 0 1 0 0 0 1<");
  EXPECT_NE(testsupport::outcome_of_string(few, "xdmf", "few.xdmf").find("line 2 (byte 72): declared 9 DataItem values but only 15 bytes remain"), std::string::npos)
      << testsupport::outcome_of_string(few, "xdmf", "few.xdmf");
}

TEST(Xdmf, TruncatedAndCorruptedInlineFilesReadOrFailCleanly) {
  const std::string path = tmp_path("sweep_src.xdmf");
  mpp::write(path, two_block_mesh(), "xdmf", {{"data_format", "XML"}});
  const auto n = testsupport::sweep(testsupport::slurp(path), "xdmf", "sweep.xdmf",
                                    testsupport::Sweep::set_each(7, 3, {'<', '9', '"', ' '}).validating());
  EXPECT_GT(n.files, 100u);
  EXPECT_GT(n.meshes, 0u);
}

}  // namespace
