// meshio++ C++ tests of include/meshioplusplus/mpi.hpp, run under mpirun by ctest
// (tests/cpp/CMakeLists.txt: mpi_cpp_1 .. mpi_cpp_4 ranks). Every test is collective.
// Spec of the layouts: docs/parallel.md.
#include <gtest/gtest.h>
#include <mpi.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <numeric>
#include <string>

#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/meshioplusplus.hpp"
#include "meshioplusplus/mpi.hpp"

namespace mpp = meshioplusplus;
namespace fs = std::filesystem;

namespace {

int rank_of() { int r = 0; MPI_Comm_rank(MPI_COMM_WORLD, &r); return r; }
int size_of() { int s = 1; MPI_Comm_size(MPI_COMM_WORLD, &s); return s; }

// A folder every rank sees: rank 0's temp name, broadcast.
std::string shared_dir(const std::string& name) {
  std::string dir;
  if (rank_of() == 0) {
    dir = (fs::temp_directory_path() / ("meshiopp_mpi_" + name + "_" + std::to_string(::getpid()))).string();
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  unsigned long n = dir.size();
  MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG, 0, MPI_COMM_WORLD);
  dir.resize(n);
  MPI_Bcast(dir.data(), static_cast<int>(n), MPI_CHAR, 0, MPI_COMM_WORLD);
  return dir;
}

// Rank r's part of a strip of `cells` quads (2 * (cells + 1) points): quads
// [r*cells/size, (r+1)*cells/size), its own copy of the points they use, the global ids of
// both and a cell data array. A rank past the cells gets nothing.
mpp::Mesh strip_part(int cells, int rank, int size) {
  const int c0 = rank * cells / size, c1 = (rank + 1) * cells / size;
  const std::size_t nc = static_cast<std::size_t>(c1 - c0), np = nc ? 2 * (nc + 1) : 0;
  mpp::Mesh m;
  m.points = mpp::NDArray::zeros(mpp::DType::float64, {np, 3});
  mpp::NDArray pid = mpp::NDArray::uninit(mpp::DType::int64, {np});
  for (std::size_t i = 0; i < np; ++i) {
    const std::int64_t g = 2 * c0 + static_cast<std::int64_t>(i);  // global point g: x = g / 2, y = g % 2
    m.points.data<double>()[3 * i] = static_cast<double>(g / 2);
    m.points.data<double>()[3 * i + 1] = static_cast<double>(g % 2);
    pid.data<std::int64_t>()[i] = g;
  }
  if (nc) {
    mpp::NDArray conn = mpp::NDArray::uninit(mpp::DType::int64, {nc, 4});
    mpp::NDArray cid = mpp::NDArray::uninit(mpp::DType::int64, {nc});
    mpp::NDArray value = mpp::NDArray::uninit(mpp::DType::float64, {nc});
    for (std::size_t j = 0; j < nc; ++j) {
      const std::int64_t l = 2 * static_cast<std::int64_t>(j);
      std::int64_t* row = conn.data<std::int64_t>() + 4 * j;
      row[0] = l; row[1] = l + 2; row[2] = l + 3; row[3] = l + 1;
      cid.data<std::int64_t>()[j] = c0 + static_cast<std::int64_t>(j);
      value.data<double>()[j] = 0.5 * static_cast<double>(c0 + static_cast<std::int64_t>(j));
    }
    m.cells.push_back(mpp::CellBlock::rectangular("quad", conn));
    m.cell_data["value"] = {value};
    m.cell_data[mpp::kGlobalCellIds] = {cid};
    // The first point pair of every rank but the first is a copy of the previous rank's last.
    mpp::NDArray ghost = mpp::NDArray::zeros(mpp::DType::uint8, {np});
    if (c0 > 0) ghost.data<std::uint8_t>()[0] = ghost.data<std::uint8_t>()[1] = mpp::kDuplicatePoint;
    m.point_data[mpp::kGhostType] = ghost;
    m.cell_data[mpp::kGhostType] = {mpp::NDArray::zeros(mpp::DType::uint8, {nc})};
  }
  m.point_data[mpp::kGlobalPointIds] = pid;
  return m;
}

std::int64_t field(const mpp::Mesh& m, const char* name) { return m.field_data.at(name).data<std::int64_t>()[0]; }

TEST(MpiPvtu, WriteThenReadOnTheSameRanksKeepsIdsAndCounts) {
  const std::string dir = shared_dir("same");
  const int cells = 7;
  mpp::Mesh part = strip_part(cells, rank_of(), size_of());
  mpp::write(dir + "/strip.pvtu", part, MPI_COMM_WORLD);
  mpp::Mesh back = mpp::read(dir + "/strip.pvtu", MPI_COMM_WORLD);
  EXPECT_EQ(back.num_cells(), part.num_cells());
  EXPECT_EQ(field(back, "global_num_cells"), cells);
  EXPECT_EQ(field(back, "global_num_points"), 2 * (cells + 1));
  EXPECT_EQ(field(back, "num_partitions"), std::min(size_of(), cells));
  if (part.num_cells()) {
    const auto& ids = back.cell_data.at(mpp::kGlobalCellIds)[0];
    const auto& want = part.cell_data.at(mpp::kGlobalCellIds)[0];
    for (std::size_t j = 0; j < ids.size(); ++j) EXPECT_EQ(ids.data<std::int64_t>()[j], want.data<std::int64_t>()[j]);
    const auto& values = back.cell_data.at("value")[0];
    for (std::size_t j = 0; j < ids.size(); ++j) EXPECT_DOUBLE_EQ(values.data<double>()[j], 0.5 * ids.data<std::int64_t>()[j]);
  }
  // The serial reader sees the whole strip (shared points duplicated, as VTK reads it).
  if (rank_of() == 0) {
    const mpp::Mesh whole = mpp::read(dir + "/strip.pvtu");
    EXPECT_EQ(whole.num_cells(), static_cast<std::size_t>(cells));
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank_of() == 0) fs::remove_all(dir);
}

TEST(MpiPvtu, SerialPiecesReadOnAnyRankCountNumberedGlobally) {
  const std::string dir = shared_dir("serial");
  const int pieces = 3, cells = 6;
  if (rank_of() == 0) {
    std::vector<mpp::Mesh> parts;
    for (int k = 0; k < pieces; ++k) {
      mpp::Mesh p = strip_part(cells, k, pieces);
      p.point_data.clear();  // no ids, no ghosts: the reader numbers them
      p.cell_data.erase(mpp::kGlobalCellIds);
      p.cell_data.erase(mpp::kGhostType);
      parts.push_back(p);
    }
    mpp::write_pieces(dir + "/s.pvtu", parts);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const mpp::Mesh m = mpp::read(dir + "/s.pvtu", MPI_COMM_WORLD);
  const int r = rank_of(), s = size_of();
  const int first = r * pieces / s, last = (r + 1) * pieces / s;
  EXPECT_EQ(m.num_cells(), static_cast<std::size_t>((last - first) * cells / pieces));
  EXPECT_EQ(field(m, "global_num_cells"), cells);
  EXPECT_EQ(field(m, "global_num_points"), pieces * (cells / pieces + 1) * 2);  // copies counted: no ghost markers
  if (m.num_cells()) {
    const auto& ids = m.cell_data.at(mpp::kGlobalCellIds)[0];
    EXPECT_EQ(ids.data<std::int64_t>()[0], first * cells / pieces);
    const auto& values = m.cell_data.at("value")[0];
    EXPECT_DOUBLE_EQ(values.data<double>()[0], 0.5 * ids.data<std::int64_t>()[0]);
  }
  EXPECT_EQ(m.point_data.at(mpp::kGhostType).size(), m.num_points());
  MPI_Barrier(MPI_COMM_WORLD);
  if (r == 0) fs::remove_all(dir);
}

TEST(MpiErrors, AMissingFileFailsOnEveryRank) {
  EXPECT_THROW(mpp::read("/nonexistent/meshiopp/x.pvtu", MPI_COMM_WORLD), mpp::ReadError);
  EXPECT_THROW(mpp::read("/nonexistent/meshiopp/x.msh", MPI_COMM_WORLD), mpp::ReadError);
}

TEST(MpiErrors, GmshWriteNamesPvtu) {
  const mpp::Mesh part = strip_part(4, rank_of(), size_of());
  try {
    mpp::write("/tmp/never.msh", part, MPI_COMM_WORLD);
    FAIL() << "expected WriteError";
  } catch (const mpp::WriteError& e) {
    EXPECT_NE(std::string(e.what()).find(".pvtu"), std::string::npos) << e.what();
  }
}

TEST(MpiErrors, OneRankFailingFailsEveryRankWithoutAHang) {
  const std::string dir = shared_dir("fail");
  mpp::Mesh part = strip_part(8, rank_of(), size_of());
  if (rank_of() == size_of() - 1 && part.num_cells()) part.cell_data["value"] = {};  // invalid: no array for the block
  if (size_of() > 1 || part.num_cells()) {
    try {
      mpp::write(dir + "/bad.pvtu", part, MPI_COMM_WORLD);
      ADD_FAILURE() << "expected an error on every rank";
    } catch (const std::exception& e) {
      if (rank_of() != size_of() - 1) {
        EXPECT_NE(std::string(e.what()).find("rank " + std::to_string(size_of() - 1)), std::string::npos) << e.what();
      }
    }
    EXPECT_FALSE(fs::exists(dir + "/bad.pvtu"));
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank_of() == 0) fs::remove_all(dir);
}

#ifdef MESHIOPP_HAVE_PARALLEL_HDF5
// Layout 3: one VTKHDF file written collectively, partition r = rank r.
TEST(MpiVtkhdf, WriteThenReadOnTheSameRanksGivesEachRankItsPartition) {
  const std::string dir = shared_dir("vtkhdf_same");
  const int cells = 9;
  const mpp::Mesh part = strip_part(cells, rank_of(), size_of());
  mpp::write(dir + "/strip.vtkhdf", part, MPI_COMM_WORLD);
  const mpp::Mesh back = mpp::read(dir + "/strip.vtkhdf", MPI_COMM_WORLD);
  EXPECT_EQ(back.num_points(), part.num_points());
  EXPECT_EQ(back.num_cells(), part.num_cells());
  EXPECT_EQ(field(back, "num_partitions"), size_of());  // an empty rank's partition is there, empty
  EXPECT_EQ(field(back, "global_num_cells"), cells);
  EXPECT_EQ(field(back, "global_num_points"), 2 * (cells + 1));
  if (part.num_cells()) {
    const auto& ids = back.cell_data.at(mpp::kGlobalCellIds)[0];
    const auto& values = back.cell_data.at("value")[0];
    for (std::size_t j = 0; j < ids.size(); ++j) EXPECT_DOUBLE_EQ(values.data<double>()[j], 0.5 * ids.data<std::int64_t>()[j]);
  }
  // The serial reader sees every partition: the whole strip, copies of shared points included.
  if (rank_of() == 0) {
    const mpp::Mesh whole = mpp::read(dir + "/strip.vtkhdf");
    EXPECT_EQ(whole.num_cells(), static_cast<std::size_t>(cells));
    EXPECT_EQ(mpp::read(dir + "/strip.vtkhdf", "", {{"piece", std::to_string(size_of() - 1)}}).num_cells(),
              static_cast<std::size_t>(cells - (size_of() - 1) * cells / size_of()));
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank_of() == 0) fs::remove_all(dir);
}

TEST(MpiVtkhdf, OnePartitionReadOnAnyRankCountSplitsTheCellsAndOwnsEachPointOnce) {
  const std::string dir = shared_dir("vtkhdf_split");
  const int cells = 10;
  if (rank_of() == 0) {
    mpp::Mesh whole = strip_part(cells, 0, 1);
    whole.point_data.clear();  // no ids, no ghosts: the file's numbering
    whole.cell_data.erase(mpp::kGlobalCellIds);
    whole.cell_data.erase(mpp::kGhostType);
    mpp::write(dir + "/one.vtkhdf", whole);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const mpp::Mesh m = mpp::read(dir + "/one.vtkhdf", MPI_COMM_WORLD);
  const int r = rank_of(), s = size_of();
  const int c0 = r * cells / s, c1 = (r + 1) * cells / s;
  ASSERT_EQ(m.num_cells(), static_cast<std::size_t>(c1 - c0));
  EXPECT_EQ(m.num_points(), c1 > c0 ? static_cast<std::size_t>(2 * (c1 - c0 + 1)) : 0u);
  EXPECT_EQ(field(m, "global_num_points"), 2 * (cells + 1));  // each shared point owned by one rank
  EXPECT_EQ(field(m, "global_num_cells"), cells);
  const auto* pid = m.point_data.at(mpp::kGlobalPointIds).data<std::int64_t>();
  const auto* ghost = m.point_data.at(mpp::kGhostType).data<std::uint8_t>();
  for (std::size_t i = 0; i < m.num_points(); ++i) {
    EXPECT_EQ(pid[i], 2 * c0 + static_cast<std::int64_t>(i));
    EXPECT_DOUBLE_EQ(m.points.data<double>()[3 * i], static_cast<double>(pid[i] / 2));
    EXPECT_EQ(ghost[i], (i < 2 && c0 > 0) ? mpp::kDuplicatePoint : 0) << "point " << pid[i];  // the lower rank owns
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (r == 0) fs::remove_all(dir);
}

TEST(MpiVtkhdf, ArraysThatDifferBetweenRanksFailEveryRankAndKeepTheOldFile) {
  const std::string dir = shared_dir("vtkhdf_fail");
  if (rank_of() == 0) {
    std::ofstream(dir + "/keep.vtkhdf") << "the user's file";
  }
  MPI_Barrier(MPI_COMM_WORLD);
  mpp::Mesh part = strip_part(8, rank_of(), size_of());
  const bool odd_one = rank_of() == size_of() - 1 && part.num_cells();
  if (odd_one) part.cell_data["extra"] = {mpp::NDArray::zeros(mpp::DType::float64, {part.num_cells()})};
  if (size_of() > 1 || part.num_cells()) {
    try {
      mpp::write(dir + "/keep.vtkhdf", part, MPI_COMM_WORLD);
      if (size_of() > 1) ADD_FAILURE() << "expected an error on every rank";
    } catch (const std::exception& e) {
      EXPECT_NE(std::string(e.what()).find("extra"), std::string::npos) << e.what();
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (size_of() > 1) {
    std::ifstream in(dir + "/keep.vtkhdf");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(text, "the user's file");
    EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);  // no temporary left
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank_of() == 0) fs::remove_all(dir);
}

// Layout 4: XDMF + one HDF5 file, collectively.
TEST(MpiXdmf, PointsWithGlobalIdsAreWrittenOnceAtTheirIdsAsAUniformTopology) {
  const std::string dir = shared_dir("xdmf_ids");
  const int cells = 9;
  const mpp::Mesh part = strip_part(cells, rank_of(), size_of());
  mpp::write(dir + "/strip.xdmf", part, MPI_COMM_WORLD);
  if (rank_of() == 0) {
    const mpp::Mesh whole = mpp::read(dir + "/strip.xdmf");  // the serial reader: the whole strip, shared points once
    ASSERT_EQ(whole.num_points(), static_cast<std::size_t>(2 * (cells + 1)));
    for (std::size_t g = 0; g < whole.num_points(); ++g) {
      EXPECT_DOUBLE_EQ(whole.points.data<double>()[3 * g], static_cast<double>(g / 2));
      EXPECT_DOUBLE_EQ(whole.points.data<double>()[3 * g + 1], static_cast<double>(g % 2));
    }
    ASSERT_EQ(whole.cells.size(), 1u);
    EXPECT_EQ(whole.cells[0].type, "quad");
    const auto* q = whole.cells[0].connectivity.data<std::int64_t>();
    for (int c = 0; c < cells; ++c) EXPECT_EQ(q[4 * c + 2], 2 * c + 3);  // global ids: quad c is (2c, 2c+2, 2c+3, 2c+1)
    EXPECT_FALSE(whole.point_data.count(mpp::kGhostType));                 // implied: every point written is owned
    std::ifstream in(dir + "/strip.xdmf");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("TopologyType=\"Quadrilateral\" NumberOfElements=\"9\" NodesPerElement=\"4\""), std::string::npos) << text;
  }
  // Read back on these ranks: cell ranges, each point owned by one rank.
  const mpp::Mesh back = mpp::read(dir + "/strip.xdmf", MPI_COMM_WORLD);
  const int r = rank_of(), s = size_of();
  EXPECT_EQ(back.num_cells(), static_cast<std::size_t>((r + 1) * cells / s - r * cells / s));
  EXPECT_EQ(field(back, "global_num_points"), 2 * (cells + 1));
  EXPECT_EQ(field(back, "global_num_cells"), cells);
  MPI_Barrier(MPI_COMM_WORLD);
  if (r == 0) fs::remove_all(dir);
}

TEST(MpiXdmf, PointsWithoutGlobalIdsAreWrittenPerRank) {
  const std::string dir = shared_dir("xdmf_plain");
  const int cells = 8;
  mpp::Mesh part = strip_part(cells, rank_of(), size_of());
  part.point_data.clear();  // no ids, no ghosts: each rank's points as they are
  part.cell_data.erase(mpp::kGhostType);
  mpp::write(dir + "/strip.xdmf", part, MPI_COMM_WORLD);
  std::uint64_t points = part.num_points();
  MPI_Allreduce(MPI_IN_PLACE, &points, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  if (rank_of() == 0) {
    const mpp::Mesh whole = mpp::read(dir + "/strip.xdmf");
    EXPECT_EQ(whole.num_points(), points);  // shared points once per rank
    EXPECT_EQ(whole.num_cells(), static_cast<std::size_t>(cells));
    const auto& ids = whole.cell_data.at(mpp::kGlobalCellIds)[0];
    for (std::size_t c = 0; c < ids.size(); ++c) EXPECT_EQ(ids.data<std::int64_t>()[c], static_cast<std::int64_t>(c));
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank_of() == 0) fs::remove_all(dir);
}
#endif

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  if (rank_of() != 0) {  // one report: rank 0's
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  int failed = RUN_ALL_TESTS();
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return failed;
}
