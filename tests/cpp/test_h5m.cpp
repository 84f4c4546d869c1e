// H5M (src/formats/h5m/): round trips of every type the writer writes with data of several
// dtypes and shapes, the layout MOAB's reader requires (max_id, start_id, elemtypes,
// element_type, tags/<name>/type and class, sets/), blocks of one type merged, types H5M
// cannot hold skipped with a warning; reading meshio's and MOAB-layout fixtures (file id
// order, start_id translation, multi-value tags, polyhedra skipped); ReadErrors naming the
// dataset; truncated and byte-corrupted fixtures give a Mesh or a ReadError, never a crash.
// meshio 5.0.0 is the oracle both ways in tests/python/test_h5m.py.
#include <gtest/gtest.h>

#ifdef MESHIOPP_HAVE_HDF5

#include <filesystem>
#include <functional>

#include "core/io/hdf5.hpp"
#include "meshioplusplus/warnings.hpp"
#include "test_vtk_common.hpp"

using namespace vtktest;

namespace {

namespace h5 = meshioplusplus::io::hdf5;
using mpp::DType;

// linear_mix without its vertex block and its second triangle block: every block a type
// H5M holds once.
mpp::Mesh writable_mix() {
  mpp::Mesh m = linear_mix();
  m.cells.erase(m.cells.begin());
  m.cells.pop_back();
  return with_data(m, false);
}

// What an H5M read gives back of `m`: point data plus GLOBAL_ID (int32 1..n).
mpp::Mesh with_global_ids(mpp::Mesh m) {
  std::vector<std::int32_t> ids(m.num_points());
  for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<std::int32_t>(i + 1);
  m.point_data["GLOBAL_ID"] = NDArray::from_vector(ids);
  return m;
}

std::int64_t int_attribute(const h5::Context& ctx, hid_t file, const std::string& object, const std::string& name) {
  h5::Handle o = h5::open_object(ctx, file, object);
  const std::optional<NDArray> a = h5::read_attribute(ctx, o.get(), name);
  return a ? a->value_as_int64(0) : -999;
}

// A MOAB-layout file made with the toolkit: 4 nodes (start_id `node_start`), one Tri3 group
// of `conn` (node file ids), `edit` applied before the file closes.
std::string hand_made(const std::string& name, std::int64_t node_start, std::vector<std::int64_t> conn,
                      const std::function<void(hid_t file, const h5::Context&)>& edit = {}) {
  const std::string path = tmp_path(name);
  const h5::Context ctx{"test", path, true};
  h5::Handle file = h5::create_file(ctx, path);
  h5::write_dataset(ctx, file.get(), "tstt/nodes/coordinates",
                    NDArray::from_vector<double>({0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0}, {4, 3}));
  {
    h5::Handle c = h5::open_object(ctx, file.get(), "tstt/nodes/coordinates");
    h5::write_attribute(ctx, c.get(), "start_id", H5T_STD_I64LE, H5T_NATIVE_INT64, &node_start);
  }
  const std::size_t rows = conn.size() / 3;
  h5::write_dataset(ctx, file.get(), "tstt/elements/Tri3/connectivity", NDArray::from_vector(conn, {rows, 3}));
  if (edit) edit(file.get(), ctx);
  return path;
}

}  // namespace

TEST(H5m, RoundTripsEveryWrittenTypeWithDataOfSeveralDtypesAndShapes) {
  const mpp::Mesh mesh = writable_mix();
  const std::string path = tmp_path("h5m_mix.h5m");
  mpp::write(path, mesh);
  EXPECT_EQ(compare_meshes(with_global_ids(mesh), mpp::read(path), false), "");
  // Uncompressed, and without GLOBAL_ID.
  mpp::write(path, mesh, "", {{"compression", "None"}, {"add_global_ids", "false"}});
  EXPECT_EQ(compare_meshes(mesh, mpp::read(path), false), "");
  // 2-D points and a (n, 2, 2) tag.
  mpp::Mesh flat = tri_mesh();
  std::vector<double> p2;
  for (std::size_t i = 0; i < flat.num_points(); ++i) p2.insert(p2.end(), {double(i), 0.5 * double(i)});
  flat.points = NDArray::from_vector(p2, {flat.num_points(), 2});
  std::vector<std::int16_t> t(flat.num_points() * 4);
  for (std::size_t i = 0; i < t.size(); ++i) t[i] = static_cast<std::int16_t>(i);
  flat.point_data["t22"] = NDArray::from_vector(t, {flat.num_points(), 2, 2});
  mpp::write(path, flat);
  EXPECT_EQ(compare_meshes(with_global_ids(flat), mpp::read(path), false), "");
}

TEST(H5m, TheLayoutIsWhatMoabsReaderRequires) {
  const mpp::Mesh mesh = writable_mix();
  const std::string path = tmp_path("h5m_layout.h5m");
  mpp::write(path, mesh);
  const h5::Context ctx{"test", path, false};
  h5::Handle file = h5::open_file(ctx);
  for (const char* group : {"/tstt/nodes", "/tstt/elements", "/tstt/tags", "/tstt/sets", "/tstt/sets/tags", "/tstt/elemtypes", "/tstt/history"})
    EXPECT_TRUE(h5::exists(file.get(), group)) << group;
  EXPECT_EQ(int_attribute(ctx, file.get(), "/tstt/nodes/coordinates", "start_id"), 1);
  // Ids: nodes 1..27, then each group in the order of the blocks.
  std::int64_t next = 1 + static_cast<std::int64_t>(mesh.num_points());
  for (const auto& [group, block] : std::vector<std::pair<std::string, std::size_t>>{
           {"Edge2", 0}, {"Tri3", 1}, {"Quad4", 2}, {"Tet4", 3}, {"Hex8", 4}, {"Prism6", 5}, {"Pyramid5", 6}}) {
    EXPECT_EQ(int_attribute(ctx, file.get(), "/tstt/elements/" + group + "/connectivity", "start_id"), next) << group;
    next += static_cast<std::int64_t>(mesh.cells[block].size());
    EXPECT_TRUE(h5::exists(file.get(), "/tstt/elements/" + group + "/tags/cd2")) << group;
  }
  EXPECT_EQ(int_attribute(ctx, file.get(), "/tstt", "max_id"), next);
  {
    // element_type: a value of the elemtypes enum (ints), whose member 9 is MOAB's "Hex".
    h5::Session session;
    h5::Handle group = h5::open_object(ctx, file.get(), "/tstt/elements/Hex8");
    h5::Handle attribute(H5Aopen(group.get(), "element_type", H5P_DEFAULT), H5Aclose);
    h5::Handle type(H5Aget_type(attribute.get()), H5Tclose);
    ASSERT_EQ(H5Tget_class(type.get()), H5T_ENUM);
    int value = -1;
    ASSERT_GE(H5Aread(attribute.get(), type.get(), &value), 0);
    EXPECT_EQ(value, 9);  // MBHEX
    char name[16] = {};
    ASSERT_GE(H5Tenum_nameof(type.get(), &value, name, sizeof name), 0);
    EXPECT_STREQ(name, "Hex");
  }
  EXPECT_EQ(int_attribute(ctx, file.get(), "/tstt/tags/GLOBAL_ID", "class"), 2);
  EXPECT_TRUE(h5::exists(file.get(), "/tstt/tags/vec 3/type"));
  const NDArray ids = h5::read_dataset(ctx, file.get(), "/tstt/nodes/tags/GLOBAL_ID", std::filesystem::file_size(path));
  EXPECT_EQ(ids.dtype(), DType::int32);  // MOAB's GLOBAL_ID type
  // Multi-value tags are one HDF5 array per node: dataspace (n,).
  EXPECT_EQ(h5::dataset_shape(ctx, file.get(), "/tstt/nodes/tags/vec 3"), (NDArray::Shape{mesh.num_points()}));
}

TEST(H5m, BlocksOfOneTypeMergeAndTypesH5mCannotHoldAreSkipped) {
  mpp::Mesh mesh = with_data(linear_mix(), false);  // a vertex block; triangles twice
  mpp::take_warnings();
  const std::string path = tmp_path("h5m_merge.h5m");
  mpp::write(path, mesh);
  const std::vector<std::string> notes = mpp::take_warnings();
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("'vertex' skipped"), std::string::npos) << notes[0];
  const mpp::Mesh got = mpp::read(path);
  std::vector<std::string> types;
  for (const auto& b : got.cells) types.push_back(b.type);
  EXPECT_EQ(types, (std::vector<std::string>{"line", "triangle", "quad", "tetra", "hexahedron", "wedge", "pyramid"}));
  const std::vector<std::int64_t> tri = ints_of(got.cells[1].connectivity);
  std::vector<std::int64_t> want = ints_of(mesh.cells[2].connectivity);
  const std::vector<std::int64_t> second = ints_of(mesh.cells[8].connectivity);
  want.insert(want.end(), second.begin(), second.end());
  EXPECT_EQ(tri, want);
  std::vector<double> cd = doubles_of(mesh.cell_data["cd"][2]);
  cd.push_back(doubles_of(mesh.cell_data["cd"][8])[0]);
  EXPECT_EQ(doubles_of(got.cell_data.at("cd")[1]), cd);
  // Polyhedra are skipped the same way; the file holds the rest.
  mpp::write(path, polyhedron_mesh(true));
  EXPECT_EQ(mpp::read(path).cells.size(), 2u);
}

TEST(H5m, ATagOfOneNameIsDeclaredOnce) {
  mpp::Mesh mesh = with_data(tri_mesh(), false);
  mesh.cell_data["a"] = {NDArray::from_vector<std::int32_t>({1, 2, 3, 4})};  // point data "a" is float64
  const std::string path = tmp_path("h5m_clash.h5m");
  mpp::write(path, tri_mesh());
  const std::string before = slurp(path);
  EXPECT_THROW(mpp::write(path, mesh), mpp::WriteError);
  EXPECT_EQ(slurp(path), before);
  EXPECT_THROW(mpp::write(path, mesh, "", {{"compression", "lzf"}}), std::invalid_argument);
  EXPECT_THROW(mpp::write(path, mesh, "", {{"compression_opts", "12"}}), std::invalid_argument);
}

TEST(H5m, MeshioWrittenFixtureReadsInFileIdOrder) {
  const mpp::Mesh m = mpp::read(data_path("h5m", "meshio_tri_tet.h5m"));
  std::vector<std::string> types;
  for (const auto& b : m.cells) types.push_back(b.type);
  // Names sort Edge2, Tet4, Tri3; the ids give the order meshio wrote.
  EXPECT_EQ(types, (std::vector<std::string>{"triangle", "tetra", "line"}));
  EXPECT_EQ(ints_of(m.cells[0].connectivity), (std::vector<std::int64_t>{0, 1, 2, 0, 2, 3}));
  EXPECT_EQ(ints_of(m.cells[2].connectivity), (std::vector<std::int64_t>{0, 4}));
  EXPECT_EQ(m.point_data.at("pair").shape(), (NDArray::Shape{5, 2}));
  EXPECT_EQ(m.point_data.at("pair").dtype(), DType::int32);
  EXPECT_EQ(ints_of(m.point_data.at("GLOBAL_ID")), (std::vector<std::int64_t>{1, 2, 3, 4, 5}));
}

TEST(H5m, MoabLayoutFixtureReadsWithMultiValueTagsAndPolyhedraSkipped) {
  const mpp::Mesh m = mpp::read(data_path("h5m", "moab_layout.h5m"));
  ASSERT_EQ(m.cells.size(), 2u);
  EXPECT_EQ(m.cells[0].type, "quad");  // id 13.., before Hex8's 15..
  EXPECT_EQ(m.cells[1].type, "hexahedron");
  EXPECT_EQ(ints_of(m.cells[0].connectivity), (std::vector<std::int64_t>{0, 1, 4, 3, 1, 2, 5, 4}));
  EXPECT_TRUE(has_warning(m, "Polyhedron", "poly_indices"));
  EXPECT_EQ(m.point_data.at("VEL").shape(), (NDArray::Shape{12, 3}));
  EXPECT_EQ(doubles_of(m.point_data.at("VEL"))[3 * 11 + 0], 20.0);
  EXPECT_EQ(ints_of(m.cell_data.at("GLOBAL_ID")[1]), (std::vector<std::int64_t>{3, 4}));
  EXPECT_EQ(m.point_data.at("GLOBAL_ID").dtype(), DType::int32);
}

TEST(H5m, NodeIdsGoThroughTheNodesStartId) {
  const mpp::Mesh m = mpp::read(hand_made("h5m_start.h5m", 5, {5, 6, 7, 5, 7, 8}), "h5m");
  EXPECT_EQ(ints_of(m.cells[0].connectivity), (std::vector<std::int64_t>{0, 1, 2, 0, 2, 3}));
  // No start_id: meshio's rule, ids from 1.
  const mpp::Mesh one = mpp::read(hand_made("h5m_nostart.h5m", 1, {1, 2, 3}, [](hid_t f, const h5::Context&) {
                                    H5Adelete_by_name(f, "tstt/nodes/coordinates", "start_id", H5P_DEFAULT);
                                  }), "h5m");
  EXPECT_EQ(ints_of(one.cells[0].connectivity), (std::vector<std::int64_t>{0, 1, 2}));
}

TEST(H5m, BadFilesNameTheDataset) {
  expect_read_error(read_outcome(hand_made("h5m_bad_id.h5m", 5, {5, 6, 9}), "h5m"),
                    "dataset /tstt/elements/Tri3/connectivity, element 0: node id 9 is no node", "ids 5..9 exclusive");
  expect_read_error(read_outcome(hand_made("h5m_low_id.h5m", 5, {5, 6, 4}), "h5m"), "node id 4 is no node");
  expect_read_error(read_outcome(hand_made("h5m_bad_start.h5m", -3, {1, 2, 3}), "h5m"),
                    "attribute start_id of /tstt/nodes/coordinates", "-3");
  expect_read_error(read_outcome(hand_made("h5m_bad_tag.h5m", 1, {1, 2, 3}, [](hid_t f, const h5::Context& c) {
                                   h5::write_dataset(c, f, "tstt/nodes/tags/short", NDArray::zeros(DType::float64, {3}));
                                 }), "h5m"),
                    "dataset /tstt/nodes/tags/short", "4 rows");
  expect_read_error(read_outcome(hand_made("h5m_bad_conn.h5m", 1, {1, 2, 3}, [](hid_t f, const h5::Context& c) {
                                   h5::write_dataset(c, f, "tstt/elements/Quad4/connectivity", NDArray::zeros(DType::int64, {8}));
                                 }), "h5m"),
                    "dataset /tstt/elements/Quad4/connectivity", "shape (elements, nodes per element)");
  expect_read_error(read_outcome(hand_made("h5m_float_conn.h5m", 1, {1, 2, 3}, [](hid_t f, const h5::Context& c) {
                                   h5::write_dataset(c, f, "tstt/elements/Tet4/connectivity", NDArray::zeros(DType::float64, {1, 4}));
                                 }), "h5m"),
                    "dataset /tstt/elements/Tet4/connectivity", "integer node ids");
  const std::string plain = tmp_path("h5m_plain.h5m");
  { h5::Handle f = h5::create_file({"test", plain, true}, plain); }
  expect_read_error(read_outcome(plain, "h5m"), "no group /tstt");
  // A tag on one group of two: skipped with a warning; an unknown group: skipped too.
  const mpp::Mesh m = mpp::read(hand_made("h5m_partial_tag.h5m", 1, {1, 2, 3}, [](hid_t f, const h5::Context& c) {
                                  h5::write_dataset(c, f, "tstt/elements/Tri3/tags/only", NDArray::zeros(DType::float64, {1}));
                                  h5::write_dataset(c, f, "tstt/elements/Edge2/connectivity", NDArray::from_vector<std::int64_t>({1, 2}, {1, 2}));
                                  h5::write_dataset(c, f, "tstt/elements/Knife7/connectivity", NDArray::from_vector<std::int64_t>({1, 2, 3, 4, 1, 2, 3}, {1, 7}));
                                }), "h5m");
  EXPECT_EQ(m.cells.size(), 2u);
  EXPECT_EQ(m.cell_data.count("only"), 0u);
  EXPECT_TRUE(has_warning(m, "'only' skipped"));
  EXPECT_TRUE(has_warning(m, "'Knife7' skipped"));
}

// Whatever the bytes of a real file become, a read gives a Mesh or a ReadError naming the
// file: every 61st prefix of both fixtures, every 23rd byte flipped (xor 0xff) and zeroed,
// and every byte of the stored values of the contiguous datasets set to 0xff and 0x80.
TEST(H5mHostile, EveryPrefixAndCorruptionIsAMeshOrAReadError) {
  for (const std::string file : {"meshio_tri_tet.h5m", "moab_layout.h5m"}) {
    const std::string bytes = slurp(data_path("h5m", file));
    Sweep s = Sweep::xor_each(61, 23, {0xff});
    s.set_to = {'\0'};
    const SweepCount n = sweep(bytes, "h5m", "h5m_sweep.h5m", s);
    EXPECT_GT(n.meshes, 0u) << file;
    EXPECT_LT(n.meshes, n.files) << file;
  }
  const std::string bytes = slurp(data_path("h5m", "moab_layout.h5m"));
  const std::string path = tmp_path("h5m_prefix.h5m");
  for (std::size_t n = 0; n < bytes.size(); n += 101) {
    spit(path, bytes.substr(0, n));
    const std::string outcome = read_outcome(path, "h5m");
    if (outcome != "mesh") {
      EXPECT_NE(outcome.find("h5m_prefix.h5m"), std::string::npos) << outcome;
    }
  }
}

TEST(H5mHostile, LyingStoredValuesAreAMeshOrAReadError) {
  const std::string source = data_path("h5m", "moab_layout.h5m");
  const std::string bytes = slurp(source);
  std::vector<std::pair<std::string, std::pair<std::size_t, std::size_t>>> stored;
  {
    const h5::Context ctx{"test", source, false};
    h5::Handle file = h5::open_file(ctx);
    for (const char* name : {"nodes/coordinates", "elements/Quad4/connectivity", "elements/Hex8/connectivity", "nodes/tags/VEL"}) {
      const hid_t d = H5Dopen2(file.get(), (std::string("/tstt/") + name).c_str(), H5P_DEFAULT);
      ASSERT_GE(d, 0) << name;
      const haddr_t at = H5Dget_offset(d);
      const hsize_t size = H5Dget_storage_size(d);
      H5Dclose(d);
      ASSERT_NE(at, HADDR_UNDEF) << name << " is not contiguous";
      stored.push_back({name, {std::size_t(at), std::size_t(size)}});
    }
  }
  const std::string path = tmp_path("h5m_lying.h5m");
  for (const auto& [name, range] : stored) {
    std::size_t errors = 0;
    for (std::size_t i = range.first; i < range.first + range.second; ++i) {
      for (const char value : {'\xff', '\x80'}) {
        std::string bad = bytes;
        bad[i] = value;
        spit(path, bad);
        const std::string outcome = read_outcome(path, "h5m");
        errors += outcome != "mesh";
        if (outcome != "mesh") {
          EXPECT_NE(outcome.find("h5m_lying.h5m"), std::string::npos) << outcome;
        }
      }
    }
    // Lying node ids are caught; coordinates and tag values are values.
    if (std::string(name).find("connectivity") != std::string::npos) {
      EXPECT_GT(errors, 0u) << name;
    }
  }
}

#endif  // MESHIOPP_HAVE_HDF5
