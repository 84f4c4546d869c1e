// PVTU (and the shared collection logic of PVTP), concatenate() and PVD: round trips with one
// and several pieces, the `piece` option, the piece naming, how blocks and regions merge,
// and the ReadErrors of bad collections (absent pieces, undeclared or missing arrays).
// VTK's own reader and writer are the oracles in tests/python/test_pvtu.py.
#include <gtest/gtest.h>

#include <filesystem>

#include "formats/pvd/pvd.hpp"
#include "formats/vtk_collection/collection.hpp"
#include "meshioplusplus/mesh_ops.hpp"
#include "test_vtk_common.hpp"

using namespace vtktest;

namespace {

namespace fs = std::filesystem;

// A fresh folder for one test (collections are several files).
std::string fresh_dir(const std::string& name) {
  const std::string dir = tmp_path(name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// `m` with its points moved by `dx` (a second piece that differs from the first).
mpp::Mesh shifted(mpp::Mesh m, double dx) {
  NDArray p = m.points.as_dtype(mpp::DType::float64).copy();
  for (std::size_t i = 0; i < p.dim(0); ++i) p.data<double>()[i * p.dim(1)] += dx;
  m.points = p;
  return m;
}

}  // namespace

TEST(Pvtu, OnePieceRoundTripsIntoTheSubfolderParaViewUses) {
  const std::string dir = fresh_dir("pvtu_one");
  const mpp::Mesh mesh = with_data(linear_mix(), /*field=*/false);
  mpp::write(dir + "/x.pvtu", mesh);
  ASSERT_TRUE(fs::is_regular_file(dir + "/x/x_0.vtu"));
  EXPECT_NE(slurp(dir + "/x.pvtu").find("<Piece Source=\"x/x_0.vtu\"/>"), std::string::npos);
  EXPECT_EQ(compare_meshes(mesh, mpp::read(dir + "/x.pvtu"), false), "");
  // The piece is an ordinary VTU file holding the whole mesh.
  EXPECT_EQ(compare_meshes(mesh, mpp::read(dir + "/x/x_0.vtu"), false), "");
}

TEST(Pvtu, PiecesAreConcatenatedInPieceOrderAndEachReadsAlone) {
  for (const char* binary : {"true", "false"}) {
    const std::string dir = fresh_dir(std::string("pvtu_many_") + binary);
    const mpp::Mesh a = with_data(linear_mix(), false), b = shifted(a, 10.0), c = with_data(tri_mesh(), false);
    // c lacks cd/cd2 rows of the other blocks but holds the same names: fine.
    mpp::write_pieces(dir + "/m.pvtu", {a, b, c}, "", {{"binary", binary}});
    for (int k = 0; k < 3; ++k) ASSERT_TRUE(fs::is_regular_file(dir + "/m/m_" + std::to_string(k) + ".vtu"));
    const mpp::Mesh all = mpp::read(dir + "/m.pvtu");
    const std::size_t np = a.num_points();
    ASSERT_EQ(all.num_points(), 3 * np);
    ASSERT_EQ(all.num_cells(), 2 * a.num_cells() + c.num_cells());
    EXPECT_EQ(all.points.value_as_double(3 * np), 10.0 + a.points.value_as_double(0));  // piece 1 follows piece 0
    // Blocks: a's runs, then b's (b's first, vertex, continues not a's last, triangle),
    // then c's triangles, which continue b's last block (triangles) into one block.
    ASSERT_EQ(all.cells.size(), 2 * a.cells.size());
    const mpp::CellBlock& last = all.cells.back();
    ASSERT_EQ(last.size(), a.cells.back().size() + c.cells[0].size());
    EXPECT_EQ(last.connectivity.value_as_int64(3), c.cells[0].connectivity.value_as_int64(0) + 2 * (std::int64_t)np);
    EXPECT_EQ(all.cells[a.cells.size()].type, a.cells[0].type);
    // Piece 1's connectivity is shifted by piece 0's points.
    EXPECT_EQ(all.cells[a.cells.size()].connectivity.value_as_int64(0), a.cells[0].connectivity.value_as_int64(0) + (std::int64_t)np);
    // Point data stacked in the same order.
    EXPECT_EQ(all.point_data.at("a").value_as_double(2 * np + 1), c.point_data.at("a").value_as_double(1));
    // piece=k reads that piece alone, exactly.
    EXPECT_EQ(compare_meshes(b, mpp::read(dir + "/m.pvtu", "", {{"piece", "1"}}), false), "");
    EXPECT_EQ(compare_meshes(c, mpp::read(dir + "/m.pvtu", "", {{"piece", "2"}}), false), "");
    EXPECT_THROW(mpp::read(dir + "/m.pvtu", "", {{"piece", "3"}}), std::invalid_argument);
    EXPECT_THROW(mpp::read(dir + "/m.pvtu", "", {{"piece", "-1"}}), std::invalid_argument);
  }
}

TEST(Pvtu, PiecesWithOtherArraysAreRefusedBeforeAnyFileIsWritten) {
  const std::string dir = fresh_dir("pvtu_refused");
  const mpp::Mesh a = with_data(tri_mesh(), false);
  mpp::Mesh b = a;
  b.point_data.erase("a");
  try {
    mpp::write_pieces(dir + "/r.pvtu", {a, b});
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("point data 'a' missing from piece 1"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(dir + "/r.pvtu"));
  EXPECT_FALSE(fs::exists(dir + "/r"));
  EXPECT_THROW(mpp::write_pieces(dir + "/r.vtu", {a}), std::invalid_argument);  // vtu has no pieces
}

TEST(Pvtu, BadCollectionsAreReadErrorsNamingThePiece) {
  const std::string dir = fresh_dir("pvtu_bad");
  const mpp::Mesh a = with_data(tri_mesh(), false);
  mpp::write_pieces(dir + "/g.pvtu", {a, a});
  const std::string good = slurp(dir + "/g.pvtu");
  auto outcome = [&](const std::string& text) {
    spit(dir + "/bad.pvtu", text);
    return read_outcome(dir + "/bad.pvtu", "pvtu");
  };
  // bad.pvtu's pieces are g's: the summary names g/g_k.vtu.
  EXPECT_EQ(outcome(good), "mesh");
  expect_read_error(outcome(replaced(good, "g/g_1.vtu", "g/absent.vtu")), "piece 1: Source \"g/absent.vtu\" is not a file", "bad.pvtu");
  expect_read_error(outcome(replaced(good, "Name=\"a\"", "Name=\"zz\"")), "point data 'zz' declared in <PPointData> is missing from piece 0 (g/g_0.vtu)");
  expect_read_error(outcome(replaced(good, "<Piece Source=\"g/g_0.vtu\"/>", "<Piece/>")), "<Piece> 0 has no Source");
  expect_read_error(outcome(replaced(good, "PUnstructuredGrid", "PPolyData")), "expected VTKFile type=\"PUnstructuredGrid\"");
  std::string no_pieces = good;
  while (no_pieces.find("<Piece ") != std::string::npos) no_pieces = replaced(no_pieces, "<Piece Source=", "<Gone Source=");
  expect_read_error(outcome(no_pieces), "no <Piece> in <PUnstructuredGrid>");
}

TEST(Pvtu, UndeclaredArraysAreSkippedWithAWarning) {
  const std::string dir = fresh_dir("pvtu_undeclared");
  mpp::write_pieces(dir + "/u.pvtu", {with_data(tri_mesh(), false)});
  const std::string text = slurp(dir + "/u.pvtu");
  spit(dir + "/u.pvtu", replaced(text, "<PDataArray type=\"Int32\" Name=\"ints\" NumberOfComponents=\"1\"/>", ""));
  const mpp::Mesh m = mpp::read(dir + "/u.pvtu");
  EXPECT_EQ(m.point_data.count("ints"), 0u);
  EXPECT_EQ(m.point_data.count("a"), 1u);
  EXPECT_TRUE(has_warning(m, "point data 'ints'", "not declared in <PPointData>"));
}

TEST(Pvtu, SummaryWriterNeedsNoMesh) {
  // What an MPI rank 0 does: name the pieces and write the summary from declarations.
  const std::string dir = fresh_dir("pvtu_summary");
  const std::string path = dir + "/s.pvtu";
  const meshioplusplus::vtk_collection::Kind kind{"pvtu", "vtu", "UnstructuredGrid", ".vtu"};
  EXPECT_EQ(meshioplusplus::vtk_collection::piece_source(path, 7, kind), "s/s_7.vtu");
  EXPECT_EQ(meshioplusplus::vtk_collection::piece_path(path, 7, kind), dir + "/s/s_7.vtu");
  meshioplusplus::vtk_collection::make_piece_folder(path, kind);
  const mpp::Mesh a = with_data(tri_mesh(), false);
  mpp::write(meshioplusplus::vtk_collection::piece_path(path, 0, kind), a, "vtu");
  mpp::write(meshioplusplus::vtk_collection::piece_path(path, 1, kind), shifted(a, 3.0), "vtu");
  auto summary = meshioplusplus::vtk_collection::summary_of_piece(meshioplusplus::vtk_collection::piece_path(path, 0, kind), kind);
  EXPECT_EQ(summary.points.type, "Float64");
  ASSERT_EQ(summary.point_data.size(), 3u);
  summary.sources = {"s/s_0.vtu", "s/s_1.vtu"};
  meshioplusplus::vtk_collection::write_summary(path, kind, summary);
  EXPECT_EQ(mpp::read(path).num_points(), 2 * a.num_points());
}

TEST(Concatenate, RunsOfOneTypeMergeAcrossPartsAndRegionsShift) {
  mpp::Mesh a = tri_mesh(), b = tri_mesh();
  a.cells.push_back(mpp::CellBlock::rectangular("line", i64({0, 1}, {1, 2})));
  b.cells.insert(b.cells.begin(), mpp::CellBlock::rectangular("line", i64({2, 3}, {1, 2})));
  mpp::Region ra{"s", mpp::RegionKind::cell, -1, -1, i64({4}, {1})};  // a's line
  mpp::Region rb{"s", mpp::RegionKind::cell, -1, -1, i64({0}, {1})};  // b's line
  mpp::Region pb{"p", mpp::RegionKind::point, -1, -1, i64({1}, {1})};
  a.regions = {ra}, b.regions = {rb, pb};
  const mpp::Mesh m = mpp::concatenate({a, b});
  const auto np = static_cast<std::int64_t>(a.num_points());
  // a: triangle(4), line(1); b: line(1), triangle(4) -> triangle, line(2), triangle.
  ASSERT_EQ(m.cells.size(), 3u);
  EXPECT_EQ(m.cells[1].type, "line");
  EXPECT_EQ(ints_of(m.cells[1].connectivity), (std::vector<std::int64_t>{0, 1, 2 + np, 3 + np}));
  EXPECT_EQ(ints_of(m.cells[2].connectivity)[0], np);
  ASSERT_NE(region(m, "s"), nullptr);
  EXPECT_EQ(ints_of(region(m, "s")->entries), (std::vector<std::int64_t>{4, 5}));
  EXPECT_EQ(ints_of(region(m, "p")->entries), (std::vector<std::int64_t>{1 + np}));
}

TEST(Concatenate, RaggedBlocksJoinAndDataMustMatch) {
  const mpp::Mesh p = polygon_mesh();
  const mpp::Mesh m = mpp::concatenate({p, p});
  ASSERT_EQ(m.num_cells(), 2 * p.num_cells());
  const mpp::Mesh h = polyhedron_mesh();
  const mpp::Mesh hh = mpp::concatenate({h, h});
  ASSERT_EQ(hh.num_cells(), 2 * h.num_cells());
  hh.validate();  // offsets, face offsets and shifted indices consistent
  m.validate();
  mpp::Mesh a = with_data(tri_mesh(), false), b = a;
  b.point_data["a"] = b.point_data["a"].as_dtype(mpp::DType::float32);
  EXPECT_THROW(mpp::concatenate({a, b}), std::invalid_argument);
  b = a;
  b.cell_data.erase("cd");
  EXPECT_THROW(mpp::concatenate({a, b}), std::invalid_argument);
}

TEST(Pvd, OneMeshRoundTripsAndStepsAreChosenByOption) {
  const std::string dir = fresh_dir("pvd_one");
  const mpp::Mesh a = with_data(tri_mesh(), false), b = shifted(a, 1.0);
  mpp::write(dir + "/t.pvd", a);
  ASSERT_TRUE(fs::is_regular_file(dir + "/t_0.vtu"));
  EXPECT_EQ(compare_meshes(a, mpp::read(dir + "/t.pvd"), false), "");
  // Two steps, the second in two parts.
  mpp::write(dir + "/b.vtu", b, "vtu");
  meshioplusplus::pvd::write_datasets(dir + "/t.pvd", {{0.0, 0, "t_0.vtu"}, {0.25, 0, "b.vtu"}, {0.25, 1, "t_0.vtu"}});
  const auto list = meshioplusplus::pvd::read_datasets(dir + "/t.pvd");
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(list[1].timestep, 0.25);
  EXPECT_EQ(list[2].part, 1);
  EXPECT_EQ(list[1].file, "b.vtu");
  const mpp::Mesh first = mpp::read(dir + "/t.pvd");
  EXPECT_TRUE(has_warning(first, "2 time steps"));
  const mpp::Mesh second = mpp::read(dir + "/t.pvd", "", {{"step", "1"}});
  EXPECT_EQ(second.num_points(), 2 * a.num_points());
  EXPECT_EQ(second.points.value_as_double(0), b.points.value_as_double(0));
  EXPECT_THROW(mpp::read(dir + "/t.pvd", "", {{"step", "2"}}), std::invalid_argument);
}

TEST(Pvd, BadCollectionsAreReadErrors) {
  const std::string dir = fresh_dir("pvd_bad");
  auto outcome = [&](const std::string& body) {
    spit(dir + "/b.pvd", "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\"><Collection>" + body + "</Collection></VTKFile>");
    return read_outcome(dir + "/b.pvd", "pvd");
  };
  expect_read_error(outcome("<DataSet timestep=\"0\" file=\"nope.vtu\"/>"), "\"nope.vtu\" is not a file");
  expect_read_error(outcome("<DataSet timestep=\"x\" file=\"a.vtu\"/>"), "timestep");
  expect_read_error(outcome("<DataSet timestep=\"0\"/>"), "no file attribute");
  expect_read_error(outcome(""), "no DataSet");
  expect_read_error(outcome("<Other/>"), "expected <DataSet>");
  expect_read_error(outcome("<DataSet file=\"b.pvd\"/>"), "nested collections are not read");
  spit(dir + "/plain.txt", "not a mesh");
  expect_read_error(outcome("<DataSet file=\"plain.txt\"/>"), "DataSet file \"plain.txt\": ");
}
