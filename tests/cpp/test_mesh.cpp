// Core mesh model: block_bases, validation messages, region canonical form, cell types.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/ref_regions.hpp"
#include "meshioplusplus/meshioplusplus.hpp"

namespace mpp = meshioplusplus;

namespace {

mpp::Mesh two_blocks() {
  mpp::Mesh m;
  m.points = mpp::NDArray::from_vector<double>({0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1}, {4, 3});
  m.cells.push_back(mpp::CellBlock::rectangular("triangle", mpp::NDArray::from_vector<std::int64_t>({0, 1, 2, 0, 2, 3}, {2, 3})));
  m.cells.push_back(mpp::CellBlock::rectangular("tetra", mpp::NDArray::from_vector<std::int64_t>({0, 1, 2, 3}, {1, 4})));
  return m;
}

std::string validation_error(const mpp::Mesh& m) {
  try {
    m.validate();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(Mesh, BlockBasesArePrefixSums) {
  auto m = two_blocks();
  EXPECT_EQ(mpp::block_bases(m.cells), (std::vector<std::int64_t>{0, 2, 3}));
  EXPECT_EQ(m.num_cells(), 3u);
  EXPECT_EQ(mpp::block_bases({}), (std::vector<std::int64_t>{0}));
}

TEST(Mesh, ValidMeshPasses) { EXPECT_EQ(validation_error(two_blocks()), ""); }

TEST(Mesh, ValidationNamesTheArray) {
  auto m = two_blocks();
  m.cells[1].connectivity.data<std::int64_t>()[2] = 7;
  EXPECT_NE(validation_error(m).find("cells[1] (tetra): index 7"), std::string::npos) << validation_error(m);

  m = two_blocks();
  m.cells[0].connectivity.data<std::int64_t>()[0] = -1;
  EXPECT_NE(validation_error(m).find("cells[0] (triangle): index -1"), std::string::npos);

  m = two_blocks();
  m.point_data["T"] = mpp::NDArray::zeros(mpp::DType::float64, {3});
  EXPECT_NE(validation_error(m).find("point_data['T']: expected 4 rows, found 3"), std::string::npos);

  m = two_blocks();
  m.cell_data["c"] = {mpp::NDArray::zeros(mpp::DType::float64, {2})};
  EXPECT_NE(validation_error(m).find("cell_data['c']: expected one array per cell block (2)"), std::string::npos);

  m = two_blocks();
  m.cells.push_back(mpp::CellBlock::rectangular("prism", mpp::NDArray::zeros(mpp::DType::int64, {1, 6})));
  EXPECT_NE(validation_error(m).find("unknown cell type 'prism'"), std::string::npos);

  m = two_blocks();
  m.cells[1] = mpp::CellBlock::rectangular("tetra", mpp::NDArray::zeros(mpp::DType::int64, {1, 3}));
  EXPECT_NE(validation_error(m).find("expected 4 nodes per cell, found 3"), std::string::npos);
}

TEST(Mesh, RaggedPolygonsValidate) {
  auto m = two_blocks();
  m.cells.push_back(mpp::CellBlock::polygons(mpp::NDArray::from_vector<std::int64_t>({0, 3, 7}),
                                             mpp::NDArray::from_vector<std::int64_t>({0, 1, 2, 0, 1, 2, 3})));
  EXPECT_EQ(validation_error(m), "");
  EXPECT_EQ(m.cells[2].size(), 2u);
  m.cells[2].offsets.data<std::int64_t>()[2] = 9;
  EXPECT_NE(validation_error(m).find("last offset 9"), std::string::npos);
}

TEST(Mesh, RegionsCanonicalizeAndValidate) {
  auto m = two_blocks();
  mpp::Region r{"walls", mpp::RegionKind::cell, 2, 5, mpp::NDArray::from_vector<std::int64_t>({2, 0, 2, 1})};
  r.canonicalize();
  ASSERT_EQ(r.entries.size(), 3u);
  EXPECT_EQ(r.entries.data<std::int64_t>()[0], 0);
  EXPECT_EQ(r.entries.data<std::int64_t>()[2], 2);
  m.regions.push_back(r);
  EXPECT_EQ(validation_error(m), "");

  mpp::Region side{"face", mpp::RegionKind::side, 2, 1,
                   mpp::NDArray::from_vector<std::int64_t>({2, 3, 0, 1, 2, 3}, {3, 2})};
  side.canonicalize();
  EXPECT_EQ(side.entries.dim(0), 2u);
  EXPECT_EQ(side.entries.data<std::int64_t>()[0], 0);
  m.regions.push_back(side);
  EXPECT_EQ(validation_error(m), "");
  m.regions.back().entries.data<std::int64_t>()[1] = 3;  // triangle has 3 edges
  EXPECT_NE(validation_error(m).find("facet 3 of cell 0 (triangle)"), std::string::npos);
}

TEST(CellTypes, VocabularyAndFacets) {
  EXPECT_EQ(mpp::cell_type("tetra10").num_nodes, 10);
  EXPECT_EQ(mpp::cell_type("tetra10").dim, 3);
  EXPECT_EQ(mpp::cell_type("hexahedron27").linear, "hexahedron");
  EXPECT_EQ(mpp::cell_type("polyhedron8").num_nodes, -1);
  EXPECT_FALSE(mpp::find_cell_type("tetrahedron").has_value());
  EXPECT_EQ(mpp::cell_facets("tetra").size(), 4u);
  EXPECT_EQ(mpp::cell_facets("hexahedron20").size(), 6u);
  EXPECT_EQ(mpp::cell_facets("wedge").size(), 5u);
  EXPECT_EQ(mpp::cell_facets("pyramid")[0].size(), 4u);
  EXPECT_EQ(mpp::cell_facets("triangle6").size(), 3u);
  // The linear wedge is in Gmsh order (meshio's), its quadratic kin in VTK order: the
  // same VTK face 0 (the 0-1-2 triangle of VTK's wedge) either way.
  EXPECT_EQ(mpp::cell_facets("wedge")[0], (std::vector<int>{0, 2, 1}));
  EXPECT_EQ(mpp::cell_facets("wedge15")[0], (std::vector<int>{0, 1, 2}));
  // Every facet of every linear 3-D type is a face of distinct corner nodes.
  for (const char* t : {"tetra", "hexahedron", "wedge", "pyramid"}) {
    const int n = mpp::cell_type(t).num_nodes;
    for (const auto& f : mpp::cell_facets(t)) {
      std::set<int> s(f.begin(), f.end());
      EXPECT_EQ(s.size(), f.size()) << t;
      for (int i : f) EXPECT_LT(i, n) << t;
    }
  }
}

TEST(Registry, UnknownFormatNamesTheKnownOnes) {
  try {
    mpp::find_format("nope");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("unknown file format 'nope' (known: "), std::string::npos);
  }
  EXPECT_THROW(mpp::read("/tmp/file.unknownext"), std::invalid_argument);
}

TEST(Options, UnknownKeysAreRejectedByName) {
  mpp::Options o{{"binary", "false"}, {"bianry", "true"}};
  mpp::OptionReader r(o, "gmsh");
  EXPECT_FALSE(r.get_bool("binary", true));
  try {
    r.finish();
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("unknown option(s) bianry"), std::string::npos);
  }
}

// Regions from per-cell references: one per (dimension, reference), entries in cell order
// across blocks, the same on every thread count, with blocks cut into several slices (long
// runs, runs of one, a reference that comes back later, an int32 and an int64 block, a
// block without references, and an empty block).
TEST(RefRegions, OnePerDimensionAndReferenceInCellOrderOnEveryThreadCount) {
  const std::size_t tets = 3 * (std::size_t{1} << 16) + 17, tris = 70001;
  mpp::Mesh mesh;
  mesh.points = mpp::NDArray::zeros(mpp::DType::float64, {4, 3});
  mesh.cells.push_back(mpp::CellBlock::rectangular("triangle", mpp::NDArray::zeros(mpp::DType::int64, {tris, 3})));
  mesh.cells.push_back(mpp::CellBlock::rectangular("line", mpp::NDArray::zeros(mpp::DType::int64, {5, 2})));
  mesh.cells.push_back(mpp::CellBlock::rectangular("tetra", mpp::NDArray::zeros(mpp::DType::int64, {tets, 4})));
  mesh.cells.push_back(mpp::CellBlock::rectangular("triangle", mpp::NDArray::zeros(mpp::DType::int64, {0, 3})));
  auto tri_refs = mpp::NDArray::uninit(mpp::DType::int32, {tris});
  for (std::size_t i = 0; i < tris; ++i) tri_refs.data<std::int32_t>()[i] = i % 3 == 0 ? 7 : (i < 40000 ? -2 : 9);
  auto tet_refs = mpp::NDArray::uninit(mpp::DType::int64, {tets});
  for (std::size_t i = 0; i < tets; ++i) tet_refs.data<std::int64_t>()[i] = i < 100000 ? 1 : (i < 150000 ? (std::int64_t{1} << 40) : 1);
  auto empty = mpp::NDArray::zeros(mpp::DType::int32, {0});
  const std::vector<const mpp::NDArray*> refs = {&tri_refs, nullptr, &tet_refs, &empty};

  // What the regions must be, counted here one cell at a time.
  std::map<std::pair<int, std::int64_t>, std::vector<std::int64_t>> expected;
  for (std::size_t i = 0; i < tris; ++i) expected[{2, tri_refs.data<std::int32_t>()[i]}].push_back(static_cast<std::int64_t>(i));
  for (std::size_t i = 0; i < tets; ++i) expected[{3, tet_refs.data<std::int64_t>()[i]}].push_back(static_cast<std::int64_t>(tris + 5 + i));

  for (unsigned threads : {1u, 2u, 3u, 8u}) {
    mpp::Mesh m = mesh;
    mpp::add_ref_regions(m, "ref", refs, threads);
    ASSERT_EQ(m.regions.size(), expected.size()) << threads;
    std::size_t r = 0;
    for (const auto& [key, entries] : expected) {
      const mpp::Region& region = m.regions[r++];
      EXPECT_EQ(region.name, "ref_" + std::to_string(key.first) + "_" + std::to_string(key.second));
      EXPECT_EQ(region.dim, key.first);
      EXPECT_EQ(region.tag, key.second == (std::int64_t{1} << 40) ? -1 : key.second);
      const auto* got = region.entries.data<std::int64_t>();
      EXPECT_EQ(std::vector<std::int64_t>(got, got + region.entries.size()), entries) << region.name << ", " << threads << " threads";
    }
    EXPECT_EQ(validation_error(m), "") << threads;
  }
}

// A long region is looked over on several threads: one that rises is kept as it is (the same
// buffer) on every thread count, and a single step down or repeat anywhere (at the seams
// between the threads' ranges too) is found and sorted away.
TEST(Region, CanonicalizeOnSeveralThreadCountsFindsEveryStepDown) {
  const std::size_t n = 3 * (std::size_t{1} << 18) + 5;
  std::vector<std::int64_t> rising(n);
  for (std::size_t i = 0; i < n; ++i) rising[i] = static_cast<std::int64_t>(2 * i);
  for (unsigned threads : {1u, 2u, 3u, 4u}) {
    mpp::Region r;
    r.name = "r";
    r.kind = mpp::RegionKind::cell;
    r.entries = mpp::NDArray::from_vector(rising);
    const void* before = r.entries.raw();
    r.canonicalize(threads);
    EXPECT_EQ(r.entries.raw(), before) << threads;
    // A step down at each seam of 2, 3 and 4 ranges, and at both ends.
    for (std::size_t at : {std::size_t{1}, n / 2, n / 3, 2 * n / 3, n / 4, 3 * n / 4, n - 1}) {
      for (bool repeat : {false, true}) {
        std::vector<std::int64_t> v = rising;
        v[at] = repeat ? v[at - 1] : v[at - 1] - 1;
        r.entries = mpp::NDArray::from_vector(v);
        r.canonicalize(threads);
        std::vector<std::int64_t> expected = v;
        std::sort(expected.begin(), expected.end());
        expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
        const auto* got = r.entries.data<std::int64_t>();
        EXPECT_EQ(std::vector<std::int64_t>(got, got + r.entries.size()), expected) << threads << " threads, at " << at;
      }
    }
  }
}
