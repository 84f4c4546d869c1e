// Exodus II: round trips over the canonical meshes in every netCDF flavour (blocks with
// names, node and side sets, nodal/element/global variables), the fixtures (hand-written
// classic and 64-bit offset files with time steps, the old `coord` layout, meshio's and
// VTK's writers), the `step` option, every truncated prefix, zeroed HDF5 object headers,
// corrupt global heap objects, lying dimensions, and the error a build without netCDF gives.
#include <gtest/gtest.h>

#include <cstring>

#include "core/io/hdf5.hpp"  // empty without MESHIOPP_HAVE_HDF5
#include "formats/exodus/exodus.hpp"
#include "test_vtk_common.hpp"

using namespace vtktest;

namespace {

const std::string kData = std::string(MESHIOPP_TEST_DATA) + "/exodus/";

#define NEED_NETCDF() \
  if (!mpp::exodus_available()) GTEST_SKIP() << "built without netCDF-C (libnetcdf-dev)"

// What an Exodus round trip gives back: every variable is floating point (float32 stays
// float32, other dtypes become float64), (n, k) arrays with k != 3 come back as k columns
// <name>_0.., and only size-1 field_data survives (as global variables, float64).
mpp::Mesh exodus_expected(const mpp::Mesh& in) {
  mpp::Mesh m;
  m.points = in.points;
  m.cells = in.cells;
  auto real = [](const NDArray& a) { return a.as_dtype(a.dtype() == mpp::DType::float32 ? a.dtype() : mpp::DType::float64); };
  auto columns = [&](const NDArray& a, std::size_t c) {
    const std::size_t n = a.dim(0), w = a.row_size();
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = a.value_as_double(i * w + c);
    return real(NDArray::from_vector(v).as_dtype(a.dtype()));
  };
  for (const auto& [k, a] : in.point_data) {
    if (a.ndim() == 1 || (a.ndim() == 2 && a.dim(1) == 3)) m.point_data[k] = real(a);
    else
      for (std::size_t c = 0; c < a.row_size(); ++c) m.point_data[k + "_" + std::to_string(c)] = columns(a, c);
  }
  for (const auto& [k, list] : in.cell_data)
    for (const auto& a : list) {
      if (a.ndim() == 1 || (a.ndim() == 2 && a.dim(1) == 3)) m.cell_data[k].push_back(real(a));
      else
        for (std::size_t c = 0; c < a.row_size(); ++c) m.cell_data[k + "_" + std::to_string(c)].push_back(columns(a, c));
    }
  for (const auto& [k, a] : in.field_data)
    if (a.size() == 1) m.field_data[k] = a.as_dtype(mpp::DType::float64);
  return m;
}

std::string field_without_exodus_keys(const mpp::Mesh& expected, mpp::Mesh got) {
  for (auto it = got.field_data.begin(); it != got.field_data.end();)
    it = it->first.rfind("exodus:", 0) == 0 ? got.field_data.erase(it) : std::next(it);
  got.points = expected.points;
  got.cells = expected.cells;
  got.point_data = expected.point_data;
  got.cell_data = expected.cell_data;
  return compare_meshes(expected, got, true);
}

mpp::Mesh exodus_quadratic() {
  mpp::Mesh m;
  m.points = grid_points();
  for (auto [t, k] : std::vector<std::pair<std::string, std::size_t>>{
           {"line3", 3}, {"triangle6", 6}, {"triangle7", 7}, {"quad8", 8}, {"quad9", 9}, {"tetra10", 10},
           {"hexahedron20", 20}, {"hexahedron27", 27}, {"wedge15", 15}, {"pyramid13", 13}})
    m.cells.push_back(rect(t, k, 2, static_cast<std::int64_t>(k)));
  return m;
}

const std::vector<std::string> kFlavours = {"NETCDF4", "NETCDF4_CLASSIC", "NETCDF3_64BIT_OFFSET",
                                            "NETCDF3_64BIT_DATA", "NETCDF3_CLASSIC"};

std::string region_text(const mpp::Region& r) {
  std::string s = r.name;
  s += '/';
  s += mpp::region_kind_name(r.kind);
  s += '/';
  s += std::to_string(r.tag);
  s += ':';
  for (std::size_t i = 0; i < r.entries.size(); ++i) {
    s += ' ';
    s += std::to_string(r.entries.value_as_int64(i));
  }
  return s;
}

}  // namespace

TEST(ExodusRoundTrip, EveryMeshEveryFlavour) {
  NEED_NETCDF();
  mpp::Mesh two_d = with_data(tri_mesh());
  two_d.points = grid_points(2);
  const std::vector<std::pair<std::string, mpp::Mesh>> meshes = {
      {"tri", tri_mesh()}, {"tri_2d", two_d}, {"linear_mix", with_data(linear_mix())},
      {"quadratic", with_data(exodus_quadratic())}};
  for (const auto& [name, mesh] : meshes)
    for (const auto& flavour : kFlavours) {
      SCOPED_TRACE(name + " / " + flavour);
      const std::string path = tmp_path(name + "_" + flavour + ".e");
      mpp::write(path, mesh, "exodus", {{"netcdf_format", flavour}});
      const mpp::Mesh got = mpp::read(path, "exodus");
      const mpp::Mesh expected = exodus_expected(mesh);
      EXPECT_EQ(compare_meshes(expected, got, false), "");
      EXPECT_EQ(field_without_exodus_keys(expected, got), "");
      ASSERT_TRUE(got.field_data.count("exodus:time_whole"));
      EXPECT_EQ(got.field_data.at("exodus:time_whole").size(), 1u);
    }
}

TEST(ExodusRoundTrip, RegionsBecomeBlockNamesNodeSetsAndSideSets) {
  NEED_NETCDF();
  mpp::Mesh m = linear_mix();
  const auto bases = mpp::block_bases(m.cells);
  // Block 4 (tetra) named by a region covering it exactly; a point set; a side set on the
  // tetra, hexahedron, wedge, pyramid, triangle and quad blocks (every facet of each).
  m.regions.push_back({"tets", mpp::RegionKind::cell, 3, 42, i64({bases[4], bases[4] + 1, bases[4] + 2}, {3})});
  m.regions.push_back({"pins", mpp::RegionKind::point, 0, 5, i64({1, 4, 26}, {3})});
  std::vector<std::int64_t> sides;
  for (std::size_t b : {2u, 3u, 4u, 5u, 6u, 7u}) {
    const auto& facets = mpp::cell_facets(m.cells[b].type);
    for (std::size_t f = 0; f < facets.size(); ++f) sides.insert(sides.end(), {bases[b], static_cast<std::int64_t>(f)});
  }
  m.regions.push_back({"walls", mpp::RegionKind::side, -1, 9, i64(sides, {sides.size() / 2, 2})});
  for (auto& r : m.regions) r.canonicalize();
  for (const auto& flavour : {"NETCDF4", "NETCDF3_CLASSIC"}) {
    SCOPED_TRACE(flavour);
    const std::string path = tmp_path(std::string("regions_") + flavour + ".e");
    mpp::write(path, m, "exodus", {{"netcdf_format", flavour}});
    const mpp::Mesh got = mpp::read(path, "exodus");
    ASSERT_EQ(got.regions.size(), 3u);
    EXPECT_EQ(region_text(got.regions[0]), region_text(m.regions[0]));
    EXPECT_EQ(got.regions[0].dim, 3);
    EXPECT_EQ(region_text(got.regions[1]), region_text(m.regions[1]));
    EXPECT_EQ(region_text(got.regions[2]), region_text(m.regions[2]));
  }
}

TEST(ExodusWrite, FacetsWithoutAnExodusSideAndUnmappedTypesAreWriteErrors) {
  NEED_NETCDF();
  mpp::Mesh m = linear_mix();
  m.regions.push_back({"ends", mpp::RegionKind::side, -1, -1, i64({2, 0}, {1, 2})});  // a line's end point
  EXPECT_THROW(mpp::write(tmp_path("bad_side.e"), m, "exodus"), mpp::WriteError);
  EXPECT_FALSE(std::filesystem::exists(tmp_path("bad_side.e")));
  EXPECT_THROW(mpp::write(tmp_path("poly.e"), polygon_mesh(), "exodus"), mpp::WriteError);
  EXPECT_THROW(mpp::write(tmp_path("opt.e"), tri_mesh(), "exodus", {{"netcdf_format", "HDF9"}}), std::invalid_argument);
  EXPECT_THROW(mpp::write(tmp_path("opt.e"), tri_mesh(), "exodus", {{"netcdf_format", "NETCDF3_CLASSIC"}, {"compression", "gzip"}}),
               std::invalid_argument);
}

TEST(ExodusWrite, GzipIsSmallerAndReadsBack) {
  NEED_NETCDF();
  mpp::Mesh m;
  std::vector<double> p(3 * 20000, 1.0);
  m.points = NDArray::from_vector(p, {20000, 3});
  m.point_data["zeros"] = NDArray::zeros(mpp::DType::float64, {20000});
  mpp::write(tmp_path("plain.e"), m, "exodus");
  mpp::write(tmp_path("gzip.e"), m, "exodus", {{"compression", "gzip"}, {"compression_opts", "6"}});
  EXPECT_LT(std::filesystem::file_size(tmp_path("gzip.e")) * 4, std::filesystem::file_size(tmp_path("plain.e")));
  EXPECT_EQ(compare_meshes(m, mpp::read(tmp_path("gzip.e"), "exodus"), false), "");
}

TEST(ExodusRead, ClassicFixtureWithStepsSetsAndRecords) {
  NEED_NETCDF();
  for (const std::string file : {"classic_steps_sets.e", "offset64_steps_sets.exo"}) {
    SCOPED_TRACE(file);
    const mpp::Mesh m = mpp::read(kData + file);
    ASSERT_EQ(m.cells.size(), 2u);
    EXPECT_EQ(m.cells[0].type, "hexahedron");
    EXPECT_EQ(m.cells[1].type, "wedge");
    EXPECT_EQ(compare_arrays("wedge", m.cells[1].connectivity, i64({3, 2, 8, 7, 6, 9}, {1, 6}), false), "");
    // step 0 by default (meshio reads the first step); velX/velY/velZ joined as meshio does.
    ASSERT_TRUE(m.point_data.count("vel"));
    EXPECT_EQ(m.point_data.at("vel").shape(), (NDArray::Shape{10, 3}));
    EXPECT_EQ(m.point_data.at("vel").value_as_double(3 * 4 + 2), 24.0);
    EXPECT_EQ(m.point_data.at("temp").value_as_double(9), 39.0);
    EXPECT_EQ(m.cell_data.at("pressure")[1].value_as_double(0), 5.0);
    EXPECT_TRUE(std::isnan(m.cell_data.at("damage")[1].value_as_double(0)));  // not in the truth table
    EXPECT_EQ(m.field_data.at("energy").value_as_double(0), 1.0);
    EXPECT_EQ(m.field_data.at("exodus:time_whole").size(), 3u);
    EXPECT_EQ(m.field_data.at("exodus:qa_records").shape(), (NDArray::Shape{1, 4, 33}));
    EXPECT_EQ(std::string(static_cast<const char*>(m.field_data.at("exodus:info_records").raw()) + 81), "second info line");
    ASSERT_EQ(m.regions.size(), 4u);
    EXPECT_EQ(region_text(m.regions[0]), "brick/cell/10: 0");
    EXPECT_EQ(region_text(m.regions[1]), "roof/cell/20: 1");
    EXPECT_EQ(region_text(m.regions[2]), "bottom/point/7: 0 1 2 3");
    // hex side 5 = nodes 1,4,3,2 -> our facet 4 {0,3,2,1}; wedge side 5 = its top -> facet 1
    EXPECT_EQ(region_text(m.regions[3]), "skin/side/3: 0 4 1 1");
    const auto& hex_facet = mpp::cell_facets("hexahedron")[4];
    EXPECT_EQ(std::vector<int>(hex_facet.begin(), hex_facet.end()), (std::vector<int>{0, 3, 2, 1}));

    const mpp::Mesh last = mpp::read(kData + file, "exodus", {{"step", "-1"}});
    EXPECT_EQ(last.point_data.at("temp").value_as_double(9), 239.0);
    EXPECT_EQ(last.cell_data.at("damage")[0].value_as_double(0), 0.3);
    EXPECT_EQ(last.field_data.at("energy").value_as_double(0), 3.0);
    EXPECT_EQ(mpp::read(kData + file, "exodus", {{"step", "1"}}).point_data.at("temp").value_as_double(0), 130.0);
    EXPECT_THROW(mpp::read(kData + file, "exodus", {{"step", "3"}}), mpp::ReadError);
    EXPECT_THROW(mpp::read(kData + file, "exodus", {{"step", "-4"}}), mpp::ReadError);
  }
}

TEST(ExodusRead, QaInfoAndCoordinateNamesAreWrittenBack) {
  NEED_NETCDF();
  const mpp::Mesh m = mpp::read(kData + "classic_steps_sets.e");
  mpp::write(tmp_path("records.e"), m, "exodus");
  const mpp::Mesh again = mpp::read(tmp_path("records.e"));
  const NDArray& qa = again.field_data.at("exodus:qa_records");
  ASSERT_EQ(qa.shape(), (NDArray::Shape{2, 4, 33}));  // the file's record, then ours
  EXPECT_EQ(std::string(static_cast<const char*>(qa.raw())), "handmade");
  EXPECT_EQ(std::string(static_cast<const char*>(qa.raw()) + 4 * 33), "meshio++");
  EXPECT_EQ(compare_arrays("info", m.field_data.at("exodus:info_records"), again.field_data.at("exodus:info_records")), "");
  EXPECT_EQ(std::string(static_cast<const char*>(again.field_data.at("exodus:coor_names").raw()) + 33), "S");
  EXPECT_EQ(again.regions.size(), 4u);
  EXPECT_EQ(region_text(again.regions[3]), "skin/side/3: 0 4 1 1");
}

TEST(ExodusRead, OldCoordLayoutShellsAndBars) {
  NEED_NETCDF();
  const mpp::Mesh m = mpp::read(kData + "coord_2d_old_layout.e");
  EXPECT_EQ(m.points.shape(), (NDArray::Shape{6, 2}));
  EXPECT_EQ(m.points.dtype(), mpp::DType::float32);
  EXPECT_EQ(m.points.value_as_double(2 * 5), 2.0);
  EXPECT_EQ(m.points.value_as_double(2 * 5 + 1), 1.0);
  ASSERT_EQ(m.cells.size(), 2u);
  EXPECT_EQ(m.cells[0].type, "quad");
  EXPECT_EQ(m.cells[1].type, "line");
  EXPECT_EQ(compare_arrays("a", m.point_data.at("a"), NDArray::from_vector<float>({0, 1, 2, 3, 4, 5})), "");
  EXPECT_EQ(compare_arrays("b", m.point_data.at("b"), NDArray::from_vector<float>({6, 7, 8, 9, 10, 11})), "");
  EXPECT_EQ(mpp::read(kData + "coord_2d_old_layout.e", "exodus", {{"step", "1"}}).point_data.at("b").value_as_double(0), 18.0);
}

TEST(ExodusHostile, EveryTruncatedPrefixReadsOrThrowsReadError) {
  NEED_NETCDF();
  for (const std::string file : {"classic_steps_sets.e", "coord_2d_old_layout.e", "vtk_hexahedra.e", "meshio_tetra.e"}) {
    const std::string bytes = slurp(kData + file);
    const std::string path = tmp_path("prefix.e");
    // Classic files: every prefix of the first KB (the header), then every 17th; netCDF-4
    // (HDF5) fixtures are larger: every 97th prefix.
    const bool hdf5 = bytes.compare(1, 3, "HDF") == 0;
    std::size_t errors = 0;
    for (std::size_t n = 0; n < bytes.size(); n += hdf5 ? 97 : (n < 1024 ? 1 : 17)) {
      spit(path, bytes.substr(0, n));
      errors += read_outcome(path, "exodus") != "mesh";
    }
    EXPECT_GT(errors, 0u) << file;
  }
}

#ifdef MESHIOPP_HAVE_HDF5
// A netCDF-4 file is HDF5, whose 1.10.8 library divides by a chunked layout's dimensions when
// it opens a dataset (SIGFPE on a zero). Every byte of every dataset's object header in
// meshio's netCDF-4 file set to 0 gives a Mesh or a ReadError, never a crash: the reader
// checks the layouts (io::hdf5::check_layouts) before netCDF-C opens the file.
TEST(ExodusHostile, ZeroedDatasetHeaderBytesOfANetcdf4FileAreAMeshOrAReadError) {
  NEED_NETCDF();
  const std::string source = kData + "meshio_tetra.e";
  const std::string bytes = slurp(source);
  std::vector<std::pair<std::size_t, std::size_t>> headers;
  {
    const meshioplusplus::io::hdf5::Context ctx{"test", source, false};
    meshioplusplus::io::hdf5::Handle file = meshioplusplus::io::hdf5::open_file(ctx);
    auto collect = [](hid_t, const char*, const H5O_info_t* info, void* out) -> herr_t {
      if (info->type == H5O_TYPE_DATASET)
        static_cast<decltype(headers)*>(out)->push_back({std::size_t(info->addr), std::size_t(info->hdr.space.total)});
      return 0;
    };
    ASSERT_GE(H5Ovisit2(file.get(), H5_INDEX_NAME, H5_ITER_NATIVE, collect, &headers, H5O_INFO_BASIC | H5O_INFO_HDR), 0);
  }
  ASSERT_GT(headers.size(), 3u);
  const std::string path = tmp_path("zeroed.e");
  std::size_t errors = 0;
  for (const auto& [at, size] : headers) {
    for (std::size_t i = at; i < at + size && i < bytes.size(); ++i) {
      std::string bad = bytes;
      bad[i] = '\0';
      spit(path, bad);
      const std::string outcome = read_outcome(path, "exodus");
      errors += outcome != "mesh";
    }
  }
  EXPECT_GT(errors, 0u);
}

// netCDF-C reads each variable's DIMENSION_LIST attribute, whose values HDF5 1.10.8 copies
// out of the global heap with the size the heap object declares: a flipped size there
// overran HDF5's buffer (a segfault in H5HG_read). Every byte of the file's global heap
// collection flipped (three ways) gives a Mesh or a ReadError, and a wrong object size is
// a ReadError naming the dataset whose attribute needs it.
TEST(ExodusHostile, FlippedGlobalHeapBytesOfANetcdf4FileAreAMeshOrAReadError) {
  NEED_NETCDF();
  const std::string bytes = slurp(kData + "meshio_tetra.e");
  const std::size_t heap = bytes.find("GCOL");
  ASSERT_NE(heap, std::string::npos);
  // The collection's header (16 bytes), its objects (index 2, reference count 2, reserved
  // 4, size 8, data padded to 8; little-endian) and the header of its free space (index 0):
  // the free space's own bytes are never read.
  auto u64 = [&](std::size_t at) {
    std::uint64_t v = 0;
    std::memcpy(&v, bytes.data() + at, 8);
    return v;
  };
  const std::uint64_t heap_size = u64(heap + 8);
  ASSERT_LE(heap + heap_size, bytes.size());
  std::size_t used = heap + 16;
  while (used + 16 <= heap + heap_size && (bytes[used] != 0 || bytes[used + 1] != 0)) used += 16 + (u64(used + 8) + 7) / 8 * 8;
  used += 16;
  ASSERT_LE(used, heap + heap_size);
  const std::string path = tmp_path("flipped_heap.e");
  std::size_t errors = 0, meshes = 0;
  for (std::size_t i = heap; i < used; ++i) {
    for (const unsigned char mask : {0x01, 0x80, 0xff}) {
      std::string bad = bytes;
      bad[i] = static_cast<char>(bad[i] ^ mask);
      spit(path, bad);
      (read_outcome(path, "exodus") == "mesh" ? meshes : errors) += 1;
    }
  }
  EXPECT_GT(errors, 0u);
  EXPECT_GT(meshes, 0u);  // reference counts and reserved bytes are not checked by HDF5
  // The size of the first heap object (8 bytes after its index, reference count and 4
  // reserved bytes), whose DIMENSION_LIST value is one 8-byte reference: made 9 it overruns
  // HDF5's buffer and no longer walks to the collection's end; made 4 it walks, but holds
  // less than the value needs.
  const std::size_t first_size = heap + 16 + 8;
  ASSERT_EQ(bytes[first_size], '\x08');
  for (const char size : {'\x09', '\x04'}) {
    std::string bad = bytes;
    bad[first_size] = size;
    spit(path, bad);
    const std::string outcome = read_outcome(path, "exodus");
    const std::string expected = size == '\x09' ? "the global heap collection at " + std::to_string(heap) + " has an object"
                                                : "needs 8 bytes but its global heap object (collection at " + std::to_string(heap);
    EXPECT_NE(outcome.find(expected), std::string::npos) << outcome;
  }
}
#endif

TEST(ExodusHostile, LyingDimensionIsAReadErrorNamingTheVariable) {
  NEED_NETCDF();
  std::string bytes = slurp(kData + "classic_steps_sets.e");
  // Classic header: a dimension is its name (length-prefixed, padded to 4) then its
  // big-endian length; make num_nodes claim 2^31 - 1 nodes in a 4 KB file.
  const std::string key = std::string("\0\0\0\x09num_nodes\0\0\0", 16);
  const std::size_t at = bytes.find(key);
  ASSERT_NE(at, std::string::npos);
  std::memcpy(bytes.data() + at + 16, "\x7f\xff\xff\xff", 4);
  const std::string path = tmp_path("lying.e");
  spit(path, bytes);
  const std::string outcome = read_outcome(path, "exodus");
  EXPECT_NE(outcome.find("ReadError"), std::string::npos) << outcome;
  EXPECT_NE(outcome.find("lying.e"), std::string::npos) << outcome;
}

TEST(ExodusHostile, NotNetcdfIsAReadError) {
  NEED_NETCDF();
  const std::string path = tmp_path("garbage.e");
  spit(path, "CDF\x01 this is not a netCDF header at all");
  EXPECT_NE(read_outcome(path, "exodus").find("ReadError: exodus: "), std::string::npos);
  spit(path, "");
  EXPECT_NE(read_outcome(path, "exodus").find("ReadError"), std::string::npos);
}

TEST(ExodusBuild, WithoutNetcdfTheFormatIsRegisteredAndNamesThePackage) {
  const auto& f = mpp::find_format("exodus");
  EXPECT_EQ(f.extensions, (std::vector<std::string>{".e", ".exo", ".ex2"}));
  if (mpp::exodus_available()) GTEST_SKIP() << "this build has netCDF-C; configure with -DMESHIOPP_WITH_NETCDF=OFF to check the build without it";
  try {
    mpp::read(kData + "classic_steps_sets.e", "exodus");
    FAIL();
  } catch (const mpp::ReadError& e) {
    EXPECT_NE(std::string(e.what()).find("libnetcdf-dev"), std::string::npos);
  }
  EXPECT_THROW(mpp::write(tmp_path("x.e"), tri_mesh(), "exodus"), mpp::WriteError);
}

TEST(ExodusHostile, ClassicHeaderCountsAreCheckedBeforeNetcdfAllocates) {
  NEED_NETCDF();
  // A fuzzer-found header whose variable name claims ~1.9 GB: netCDF-C would allocate it.
  const std::string file = std::string(MESHIOPP_TEST_DATA) + "/../fuzz/regressions/exodus/classic-header-name-length-oom";
  const std::string outcome = read_outcome(file, "exodus");
  EXPECT_NE(outcome.find("bytes of a variable name but only"), std::string::npos) << outcome;
  // Every attribute value count, list length and dimension id is bounded the same way.
  std::string bytes = slurp(kData + "classic_steps_sets.e");
  // The global attribute "title": name length, "title" padded to 8, type, value count.
  const std::string key = std::string("\0\0\0\x05title\0\0\0\0\0\0\x02", 16);
  const std::size_t at = bytes.find(key);
  ASSERT_NE(at, std::string::npos);
  std::memcpy(bytes.data() + at + 16, "\x7f\xff\xff\xff", 4);
  const std::string path = tmp_path("attr_lie.e");
  spit(path, bytes);
  EXPECT_NE(read_outcome(path, "exodus").find("attribute values of 1 bytes but only"), std::string::npos) << read_outcome(path, "exodus");
}

TEST(ExodusRoundTrip, EmptyBlocksAndEmptySets) {
  NEED_NETCDF();
  mpp::Mesh m = tri_mesh();
  m.cells.insert(m.cells.begin(), mpp::CellBlock::rectangular("tetra", NDArray::uninit(mpp::DType::int64, {0, 4})));
  m.cell_data["c"] = {NDArray::from_vector<double>({}), NDArray::from_vector<double>({1, 2, 3, 4})};
  m.regions.push_back({"nothing", mpp::RegionKind::point, 0, 1, NDArray::uninit(mpp::DType::int64, {0})});
  m.regions.push_back({"one", mpp::RegionKind::point, 0, 2, i64({3}, {1})});
  for (const auto& flavour : {"NETCDF4", "NETCDF3_CLASSIC"}) {
    SCOPED_TRACE(flavour);
    const std::string path = tmp_path(std::string("empty_") + flavour + ".e");
    mpp::write(path, m, "exodus", {{"netcdf_format", flavour}});
    const mpp::Mesh got = mpp::read(path, "exodus");
    // The empty block is not read back (Exodus has no elements to type it); the rest is.
    ASSERT_EQ(got.cells.size(), 1u);
    EXPECT_EQ(compare_arrays("tri", got.cells[0].connectivity, m.cells[1].connectivity, false), "");
    EXPECT_EQ(compare_arrays("c", got.cell_data.at("c")[0], m.cell_data.at("c")[1]), "");
    ASSERT_EQ(got.regions.size(), 1u);
    EXPECT_EQ(region_text(got.regions[0]), "one/point/2: 3");
  }
}
