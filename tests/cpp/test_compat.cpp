// meshio compatibility in the core: the cell vocabulary (VTK_LAGRANGE_*, every high-order
// type), meshio's block shapes after a read (polygon runs, polyhedron runs), the VTU
// compressors (zlib, lzma, lz4) end to end, the gmsh 4.0 writer, geometry-only gmsh
// files, and the whole-mesh operations of meshio's Mesh (mesh_ops.hpp).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/codec/compressor.hpp"
#include "core/polygon_blocks.hpp"
#include "meshioplusplus/meshioplusplus.hpp"

namespace mpp = meshioplusplus;
namespace fs = std::filesystem;

namespace {

fs::path temp(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("meshioplusplus_compat_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir / name;
}

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// Polygons of sizes 3, 3, 4, 5, 3 (ragged) and cell data 0..4.
mpp::Mesh polygon_mesh() {
  mpp::Mesh m;
  std::vector<double> xyz;
  for (int i = 0; i < 8; ++i) xyz.insert(xyz.end(), {double(i), double(i * i % 5), 0.0});
  m.points = mpp::NDArray::from_vector(xyz, {8, 3});
  m.cells.push_back(mpp::CellBlock::polygons(mpp::NDArray::from_vector<std::int64_t>({0, 3, 6, 10, 15, 18}, {6}),
                                             mpp::NDArray::from_vector<std::int64_t>(
                                                 {0, 1, 2, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 6, 7}, {18})));
  m.cell_data["c"] = {mpp::NDArray::from_vector<double>({0, 1, 2, 3, 4}, {5})};
  m.regions.push_back({"odd", mpp::RegionKind::cell, -1, -1, mpp::NDArray::from_vector<std::int64_t>({1, 3}, {2})});
  return m;
}

}  // namespace

TEST(Compat, VocabularyHasMeshiosLagrangeAndHighOrderTypes) {
  for (const char* name : {"VTK_LAGRANGE_CURVE", "VTK_LAGRANGE_TRIANGLE", "VTK_LAGRANGE_QUADRILATERAL", "VTK_LAGRANGE_TETRAHEDRON",
                           "VTK_LAGRANGE_HEXAHEDRON", "VTK_LAGRANGE_WEDGE", "VTK_LAGRANGE_PYRAMID"}) {
    auto t = mpp::find_cell_type(name);
    ASSERT_TRUE(t) << name;
    EXPECT_EQ(t->num_nodes, 0) << name;  // any node count, one per block
  }
  EXPECT_EQ(mpp::cell_type("VTK_LAGRANGE_WEDGE").dim, 3);
  EXPECT_EQ(mpp::cell_type("hexahedron1000").num_nodes, 1000);
  EXPECT_EQ(mpp::cell_type("hexahedron1331").num_nodes, 1331);
  EXPECT_EQ(mpp::cell_type("wedge550").num_nodes, 550);
  EXPECT_EQ(mpp::cell_type("polyhedron12").dim, 3);
  // A Lagrange block validates with any width and writes as VTU.
  mpp::Mesh m;
  std::vector<double> xyz(30, 0.0);
  for (int i = 0; i < 10; ++i) xyz[3 * i] = i;
  m.points = mpp::NDArray::from_vector(xyz, {10, 3});
  std::vector<std::int64_t> conn(10);
  for (int i = 0; i < 10; ++i) conn[i] = i;
  m.cells.push_back(mpp::CellBlock::rectangular("VTK_LAGRANGE_TETRAHEDRON", mpp::NDArray::from_vector(conn, {1, 10})));
  EXPECT_NO_THROW(m.validate());
  mpp::write(temp("lagrange.vtu").string(), m);
  auto back = mpp::read(temp("lagrange.vtu").string());
  ASSERT_EQ(back.cells.size(), 1u);
  EXPECT_EQ(back.cells[0].type, "tetra10");  // a 10-node Lagrange tetra has a fixed-order name
}

TEST(Compat, PolygonsReadAsMeshiosRectangularRunsInFileOrder) {
  const auto path = temp("polygons.vtu").string();
  mpp::write(path, polygon_mesh());
  auto m = mpp::read(path);
  ASSERT_EQ(m.cells.size(), 4u);
  const std::vector<std::size_t> sizes = {2, 1, 1, 1}, widths = {3, 4, 5, 3};
  for (std::size_t b = 0; b < 4; ++b) {
    EXPECT_EQ(m.cells[b].type, "polygon");
    EXPECT_FALSE(m.cells[b].ragged);
    EXPECT_EQ(m.cells[b].size(), sizes[b]);
    EXPECT_EQ(m.cells[b].connectivity.dim(1), widths[b]);
    EXPECT_EQ(m.cell_data["c"][b].size(), sizes[b]);
  }
  EXPECT_EQ(m.cells[2].connectivity.value_as_int64(4), 4);
  EXPECT_EQ(m.cell_data["c"][3].value_as_double(0), 4.0);
  // Global cell numbering is unchanged by the split, so regions keep their entries.
  auto direct = polygon_mesh();
  mpp::split_variable_blocks(direct);
  EXPECT_EQ(direct.cells.size(), 4u);
  EXPECT_EQ(mpp::block_bases(direct.cells)[3], 4);
  EXPECT_EQ(direct.regions[0].entries.value_as_int64(1), 3);
  EXPECT_NO_THROW(direct.validate());
  // The ragged form is an explicit opt-in.
  auto ragged = mpp::read(path, "", {{"ragged", "true"}});
  ASSERT_EQ(ragged.cells.size(), 1u);
  EXPECT_TRUE(ragged.cells[0].ragged);
  EXPECT_THROW(mpp::read(path, "", {{"ragged", "maybe"}}), std::invalid_argument);
}

TEST(Compat, EveryCompressorRoundTripsThroughVtu) {
  for (const char* c : {"zlib", "lzma", "lz4"}) {
    auto kind = mpp::codec::compressor_from_name(c);
    ASSERT_TRUE(kind);
    if (!mpp::codec::compressor_available(*kind)) {
      // A build without the library names the package that enables it.
      try {
        mpp::write(temp("x.vtu").string(), polygon_mesh(), "", {{"compression", c}});
        FAIL() << c;
      } catch (const mpp::WriteError& e) {
        EXPECT_NE(std::string(e.what()).find(mpp::codec::compressor_package(*kind)), std::string::npos);
      }
      continue;
    }
    const auto path = temp(std::string("c_") + c + ".vtu");
    mpp::write(path.string(), polygon_mesh(), "", {{"compression", c}});
    EXPECT_NE(slurp(path).find(std::string("compressor=\"").append(mpp::codec::compressor_vtk_name(*kind))), std::string::npos);
    auto back = mpp::read(path.string());
    EXPECT_EQ(back.num_cells(), 5u);
    EXPECT_EQ(back.points.value_as_double(3 * 7), 7.0);
  }
}

TEST(Compat, CodecsRejectCorruptAndWrongSizeBlocks) {
  std::vector<double> data(4096);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = double(i % 17);
  for (auto kind : {mpp::codec::Compressor::zlib, mpp::codec::Compressor::lzma, mpp::codec::Compressor::lz4}) {
    if (!mpp::codec::compressor_available(kind)) continue;
    auto packed = mpp::codec::compress(kind, data.data(), sizeof(double) * data.size(), 5);
    std::vector<double> out(data.size());
    EXPECT_EQ(mpp::codec::decompress(kind, packed.data(), packed.size(), out.data(), sizeof(double) * out.size()), "");
    EXPECT_EQ(out, data);
    // One byte short of the declared size, and a damaged stream: an error string, no write past the end.
    std::vector<double> small(data.size() - 1);
    EXPECT_NE(mpp::codec::decompress(kind, packed.data(), packed.size(), small.data(), sizeof(double) * small.size()), "");
    for (std::size_t i = packed.size() / 3; i < packed.size() / 3 + 8 && i < packed.size(); ++i) packed[i] ^= 0xA5;
    EXPECT_NE(mpp::codec::decompress(kind, packed.data(), packed.size(), out.data(), sizeof(double) * out.size()), "");
    EXPECT_NE(mpp::codec::decompress(kind, packed.data(), packed.size() / 2, out.data(), sizeof(double) * out.size()), "");
  }
}

TEST(Compat, GmshWrites40AndReadsItBack) {
  mpp::Mesh m;
  m.points = mpp::NDArray::from_vector<double>({0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0.5, 0.5, 1}, {5, 3});
  m.cells.push_back(mpp::CellBlock::rectangular("tetra", mpp::NDArray::from_vector<std::int64_t>({0, 1, 2, 4, 0, 2, 3, 4}, {2, 4})));
  m.cells.push_back(mpp::CellBlock::rectangular("triangle", mpp::NDArray::from_vector<std::int64_t>({0, 1, 2}, {1, 3})));
  m.regions.push_back({"bottom", mpp::RegionKind::cell, 2, 5, mpp::NDArray::from_vector<std::int64_t>({2}, {1})});
  for (const char* binary : {"false", "true"}) {
    const auto path = temp(std::string("v40_") + binary + ".msh");
    mpp::write(path.string(), m, "gmsh", {{"fmt_version", "4.0"}, {"binary", binary}});
    EXPECT_EQ(slurp(path).substr(0, 19), std::string("$MeshFormat\n4.0 ") + (binary[0] == 't' ? "1" : "0") + " 8");
    auto back = mpp::read(path.string());
    EXPECT_EQ(back.num_points(), 5u);
    ASSERT_EQ(back.cells.size(), 2u);
    EXPECT_EQ(back.cells[0].connectivity.value_as_int64(5), 2);
    ASSERT_EQ(back.regions.size(), 1u);
    EXPECT_EQ(back.regions[0].name, "bottom");
    EXPECT_EQ(back.regions[0].tag, 5);
  }
  EXPECT_THROW(mpp::write(temp("v3.msh").string(), m, "gmsh", {{"fmt_version", "3.0"}}), std::invalid_argument);
}

TEST(Compat, GmshGeometryOnlyIsAnEmptyMesh) {
  const auto path = temp("geo.msh");
  std::ofstream(path) << "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Entities\n1 0 0 0\n1 0 0 0 0\n$EndEntities\n";
  auto m = mpp::read(path.string());
  EXPECT_EQ(m.num_points(), 0u);
  EXPECT_EQ(m.points.dim(1), 3u);
  EXPECT_TRUE(m.cells.empty());
}

TEST(Compat, SetsToIntDataAndBack) {
  mpp::Mesh m;
  m.points = mpp::NDArray::from_vector<double>({0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0}, {4, 3});
  m.cells.push_back(mpp::CellBlock::rectangular("triangle", mpp::NDArray::from_vector<std::int64_t>({0, 1, 2, 0, 2, 3}, {2, 3})));
  m.regions.push_back({"a", mpp::RegionKind::cell, -1, -1, mpp::NDArray::from_vector<std::int64_t>({0}, {1})});
  m.regions.push_back({"b", mpp::RegionKind::cell, -1, -1, mpp::NDArray::from_vector<std::int64_t>({1}, {1})});
  m.regions.push_back({"p", mpp::RegionKind::point, -1, -1, mpp::NDArray::from_vector<std::int64_t>({0, 1}, {2})});
  m.regions.push_back({"q", mpp::RegionKind::point, -1, -1, mpp::NDArray::from_vector<std::int64_t>({2, 3}, {2})});
  mpp::sets_to_int_data(m);
  EXPECT_TRUE(m.regions.empty());
  ASSERT_TRUE(m.cell_data.count("a-b"));
  EXPECT_EQ(m.cell_data["a-b"][0].value_as_int64(1), 1);
  EXPECT_EQ(m.point_data["p-q"].value_as_int64(2), 1);
  mpp::int_data_to_sets(m);
  EXPECT_TRUE(m.cell_data.empty() && m.point_data.empty());
  ASSERT_EQ(m.regions.size(), 4u);
  EXPECT_EQ(m.regions[0].name, "p");
  EXPECT_EQ(m.regions[2].name, "a");
  EXPECT_EQ(m.regions[3].entries.value_as_int64(0), 1);
}

TEST(Compat, PruneAndOrphans) {
  mpp::Mesh m;
  m.points = mpp::NDArray::from_vector<double>({0, 0, 0, 9, 9, 0, 1, 0, 0, 0, 1, 0}, {4, 3});
  m.cells.push_back(mpp::CellBlock::rectangular("line", mpp::NDArray::from_vector<std::int64_t>({0, 2}, {1, 2})));
  m.cells.push_back(mpp::CellBlock::rectangular("triangle", mpp::NDArray::from_vector<std::int64_t>({0, 2, 3}, {1, 3})));
  m.point_data["GLOBAL_ID"] = mpp::NDArray::from_vector<std::int64_t>({1, 2, 3, 4}, {4});
  m.cell_data["c"] = {mpp::NDArray::from_vector<double>({5}, {1}), mpp::NDArray::from_vector<double>({6}, {1})};
  m.regions.push_back({"tri", mpp::RegionKind::cell, -1, -1, mpp::NDArray::from_vector<std::int64_t>({1}, {1})});
  mpp::remove_lower_dimensional_cells(m);
  ASSERT_EQ(m.cells.size(), 1u);
  EXPECT_EQ(m.cells[0].type, "triangle");
  EXPECT_EQ(m.cell_data["c"][0].value_as_double(0), 6.0);
  EXPECT_EQ(m.regions[0].entries.value_as_int64(0), 0);
  mpp::remove_orphaned_nodes(m);
  EXPECT_EQ(m.num_points(), 3u);
  EXPECT_EQ(m.cells[0].connectivity.value_as_int64(1), 1);
  EXPECT_EQ(m.point_data["GLOBAL_ID"].value_as_int64(2), 3);
  mpp::prune_z_0(m);
  EXPECT_EQ(m.points.dim(1), 2u);
  EXPECT_NO_THROW(m.validate());
}

TEST(Compat, UnknownVtkCellTypesAreSkippedWithANote) {
  // Two triangles around a VTK_POLY_LINE (4) of 3 nodes and a VTK_TRIANGLE_STRIP (6); cell
  // data follows the kept cells.
  const std::string text =
      "# vtk DataFile Version 4.2\nskip\nASCII\nDATASET UNSTRUCTURED_GRID\nPOINTS 4 double\n0 0 0 1 0 0 1 1 0 0 1 0\n"
      "CELLS 4 17\n3 0 1 2\n3 0 1 2\n4 0 1 2 3\n3 0 2 3\nCELL_TYPES 4\n5\n4\n6\n5\n"
      "CELL_DATA 4\nSCALARS c double\nLOOKUP_TABLE default\n10 11 12 13\n";
  const auto path = temp("skip.vtk");
  std::ofstream(path) << text;
  auto m = mpp::read(path.string());
  ASSERT_EQ(m.cells.size(), 2u);
  EXPECT_EQ(m.cells[1].connectivity.value_as_int64(1), 2);
  ASSERT_EQ(m.cell_data["c"].size(), 2u);
  EXPECT_EQ(m.cell_data["c"][0].value_as_double(0), 10.0);
  EXPECT_EQ(m.cell_data["c"][1].value_as_double(0), 13.0);
  ASSERT_EQ(m.warnings.size(), 2u);
  EXPECT_NE(m.warnings[0].find("VTK_POLY_LINE (4): 1 cell skipped"), std::string::npos) << m.warnings[0];
  EXPECT_NE(m.warnings[1].find("VTK_TRIANGLE_STRIP (6)"), std::string::npos) << m.warnings[1];
  // The same through VTU.
  const auto vtu = temp("skip.vtu");
  std::ofstream(vtu) << "<?xml version=\"1.0\"?>\n<VTKFile type=\"UnstructuredGrid\" version=\"0.1\">\n<UnstructuredGrid>\n"
                        "<Piece NumberOfPoints=\"4\" NumberOfCells=\"3\">\n<Points><DataArray type=\"Float64\" NumberOfComponents=\"3\" "
                        "format=\"ascii\">0 0 0 1 0 0 1 1 0 0 1 0</DataArray></Points>\n<Cells>\n"
                        "<DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">0 1 2 0 1 2 3 0 2 3</DataArray>\n"
                        "<DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">3 7 10</DataArray>\n"
                        "<DataArray type=\"UInt8\" Name=\"types\" format=\"ascii\">5 4 5</DataArray>\n</Cells>\n"
                        "<CellData><DataArray type=\"Float64\" Name=\"c\" format=\"ascii\">1 2 3</DataArray></CellData>\n"
                        "</Piece>\n</UnstructuredGrid>\n</VTKFile>\n";
  auto u = mpp::read(vtu.string());
  ASSERT_EQ(u.cells.size(), 2u);
  EXPECT_EQ(u.cell_data["c"][1].value_as_double(0), 3.0);
  ASSERT_EQ(u.warnings.size(), 1u);
  EXPECT_NE(u.warnings[0].find("VTK_POLY_LINE (4): 1 cell skipped"), std::string::npos);
}

TEST(Compat, VtuAndVtkWriteSetsAsMeshioNamedIntData) {
  mpp::Mesh m;
  m.points = mpp::NDArray::from_vector<double>({0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0}, {4, 3});
  m.cells.push_back(mpp::CellBlock::rectangular("triangle", mpp::NDArray::from_vector<std::int64_t>({0, 1, 2, 0, 2, 3}, {2, 3})));
  m.regions.push_back({"a", mpp::RegionKind::cell, -1, -1, mpp::NDArray::from_vector<std::int64_t>({1}, {1})});
  m.regions.push_back({"b-x", mpp::RegionKind::cell, -1, -1, mpp::NDArray::from_vector<std::int64_t>({0}, {1})});
  m.regions.push_back({"side", mpp::RegionKind::side, -1, -1, mpp::NDArray::from_vector<std::int64_t>({0, 1}, {1, 2})});
  const auto d = mpp::sets_as_data(m);
  ASSERT_TRUE(d.cell_data.count("a_b-x"));  // "-" is taken by a name: meshio joins with "_"
  EXPECT_EQ(d.cell_data.at("a_b-x")[0].value_as_int64(0), 1);
  EXPECT_EQ(d.regions.size(), 1u);  // the side region stays a region
  EXPECT_EQ(m.regions.size(), 3u);  // the input is untouched
  for (const char* ext : {".vtu", ".vtk"}) {
    const auto path = temp(std::string("sets") + ext).string();
    mpp::write(path, m);
    const auto back = mpp::read(path);
    ASSERT_TRUE(back.cell_data.count("a_b-x")) << ext;
    EXPECT_EQ(back.cell_data.at("a_b-x")[0].value_as_int64(1), 0) << ext;
  }
}
