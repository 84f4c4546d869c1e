// HMF (src/formats/hmf/): round trips of every XDMF topology meshio's HMF holds with data
// of several dtypes and shapes, blocks of one type kept apart and in order past ten blocks
// (Topology10 sorts before Topology2), the attributes as h5py writes a str (what meshio
// compares), reading meshio-written fixtures, ReadErrors naming the dataset, and truncated
// or byte-corrupted fixtures giving a Mesh or a ReadError. meshio 5.0.0 is the oracle both
// ways in tests/python/test_hmf.py.
#include <gtest/gtest.h>

#ifdef MESHIOPP_HAVE_HDF5

#include <functional>

#include "core/io/hdf5.hpp"
#include "meshioplusplus/warnings.hpp"
#include "test_vtk_common.hpp"

using namespace vtktest;

namespace {

namespace h5 = meshioplusplus::io::hdf5;
using mpp::DType;

// The fixture meshio_plain.hmf rewritten with `edit` applied (h5 toolkit, read-write).
std::string edited(const std::string& name, const std::function<void(hid_t file, const h5::Context&)>& edit) {
  const std::string path = tmp_path(name);
  spit(path, slurp(data_path("hmf", "meshio_plain.hmf")));
  const h5::Context ctx{"test", path, true};
  h5::Session session;
  h5::Handle file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose);
  edit(file.get(), ctx);
  return path;
}

}  // namespace

TEST(Hmf, RoundTripsLinearAndQuadraticTypesWithData) {
  mpp::Mesh quadratic = quadratic_mix();
  // Only the types with an XDMF topology (meshio's table).
  std::vector<mpp::CellBlock> kept;
  for (const auto& b : quadratic.cells)
    if (b.type == "line3" || b.type == "triangle6" || b.type == "quad8" || b.type == "quad9" || b.type == "tetra10" ||
        b.type == "hexahedron20" || b.type == "hexahedron27" || b.type == "wedge15" || b.type == "pyramid13" ||
        b.type == "wedge18" || b.type == "hexahedron24")
      kept.push_back(b);
  quadratic.cells = kept;
  for (const mpp::Mesh& mesh : {with_data(linear_mix(), false), with_data(quadratic, false)}) {
    const std::string path = tmp_path("hmf_mix.hmf");
    mpp::write(path, mesh);
    EXPECT_EQ(compare_meshes(mesh, mpp::read(path), false), "");
    mpp::write(path, mesh, "", {{"compression", "None"}});
    EXPECT_EQ(compare_meshes(mesh, mpp::read(path), false), "");
  }
}

TEST(Hmf, ElevenBlocksStayInOrder) {
  mpp::Mesh mesh = tri_mesh();
  for (int k = 1; k < 11; ++k) mesh.cells.push_back(rect(k % 2 ? "line" : "triangle", k % 2 ? 2 : 3, 1, k));
  mesh = with_data(mesh, false);
  const std::string path = tmp_path("hmf_eleven.hmf");
  mpp::write(path, mesh);
  EXPECT_EQ(compare_meshes(mesh, mpp::read(path), false), "");
}

TEST(Hmf, AttributesAreVariableLengthStringsAndFieldDataIsAWarning) {
  mpp::Mesh mesh = with_data(tri_mesh(), true);
  const std::string path = tmp_path("hmf_attrs.hmf");
  mpp::take_warnings();
  mpp::write(path, mesh);
  const std::vector<std::string> notes = mpp::take_warnings();
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("field data is not written"), std::string::npos);
  const h5::Context ctx{"test", path, false};
  h5::Handle file = h5::open_file(ctx);
  h5::Handle root = h5::open_group(ctx, file.get(), "/");
  h5::Session session;
  h5::Handle attribute(H5Aopen(root.get(), "type", H5P_DEFAULT), H5Aclose);
  h5::Handle type(H5Aget_type(attribute.get()), H5Tclose);
  EXPECT_GT(H5Tis_variable_str(type.get()), 0);
  EXPECT_EQ(H5Tget_cset(type.get()), H5T_CSET_UTF8);
  EXPECT_EQ(h5::read_string_attribute(ctx, root.get(), "version"), "0.1-alpha");
  h5::Handle geometry = h5::open_object(ctx, file.get(), "/domain/grid/Geometry");
  EXPECT_EQ(h5::read_string_attribute(ctx, geometry.get(), "GeometryType"), "XYZ");
  h5::Handle topology = h5::open_object(ctx, file.get(), "/domain/grid/Topology0");
  EXPECT_EQ(h5::read_string_attribute(ctx, topology.get(), "TopologyType"), "Triangle");
}

TEST(Hmf, PolyhedraAndRaggedPolygonsAreAWriteErrorAndTheOldFileStays) {
  const std::string path = tmp_path("hmf_keep.hmf");
  mpp::write(path, tri_mesh());
  const std::string before = slurp(path);
  EXPECT_THROW(mpp::write(path, polyhedron_mesh()), mpp::WriteError);
  EXPECT_THROW(mpp::write(path, polygon_mesh()), mpp::WriteError);
  EXPECT_EQ(slurp(path), before);
}

TEST(Hmf, MeshioFixturesRead) {
  for (const char* name : {"meshio_mixed.hmf", "meshio_plain.hmf"}) {
    const mpp::Mesh m = mpp::read(data_path("hmf", name));
    std::vector<std::string> types;
    for (const auto& b : m.cells) types.push_back(b.type);
    EXPECT_EQ(types, (std::vector<std::string>{"triangle", "quad", "tetra", "line"})) << name;
    EXPECT_EQ(m.point_data.at("tensor").shape(), (NDArray::Shape{5, 3, 3}));
    EXPECT_EQ(m.point_data.at("tensor").dtype(), DType::float32);
    EXPECT_EQ(ints_of(m.cell_data.at("id")[0]), (std::vector<std::int64_t>{1, 2}));
    EXPECT_EQ(ints_of(m.cell_data.at("id")[3]), (std::vector<std::int64_t>{5}));
    EXPECT_EQ(m.cell_data.at("v")[2].shape(), (NDArray::Shape{1, 2}));
  }
}

TEST(Hmf, BadFilesNameTheDataset) {
  expect_read_error(read_outcome(edited("hmf_type.hmf", [](hid_t f, const h5::Context& c) {
                                   H5Adelete(f, "type");
                                   h5::write_vlen_string_attribute(c, f, "type", "xdmf");
                                 }), "hmf"),
                    "attribute type of /", "expected hmf, found 'xdmf'");
  expect_read_error(read_outcome(edited("hmf_notype.hmf", [](hid_t f, const h5::Context&) { H5Adelete(f, "version"); }), "hmf"),
                    "no attribute version");
  expect_read_error(read_outcome(edited("hmf_index.hmf", [](hid_t f, const h5::Context& c) {
                                   H5Ldelete(f, "/domain/grid/Topology1", H5P_DEFAULT);
                                   h5::write_dataset(c, f, "/domain/grid/Topology1", NDArray::from_vector<std::int64_t>({0, 1, 2, 9}, {1, 4}));
                                   h5::Handle t = h5::open_object(c, f, "/domain/grid/Topology1");
                                   h5::write_vlen_string_attribute(c, t.get(), "TopologyType", "Quadrilateral");
                                 }), "hmf"),
                    "dataset /domain/grid/Topology1, cell 0: point index 9 out of range");
  expect_read_error(read_outcome(edited("hmf_topo.hmf", [](hid_t f, const h5::Context& c) {
                                   h5::Handle t = h5::open_object(c, f, "/domain/grid/Topology0");
                                   H5Adelete(t.get(), "TopologyType");
                                   h5::write_vlen_string_attribute(c, t.get(), "TopologyType", "Mixed");
                                 }), "hmf"),
                    "attribute TopologyType of /domain/grid/Topology0", "unknown topology 'Mixed'");
  expect_read_error(read_outcome(edited("hmf_rows.hmf", [](hid_t f, const h5::Context& c) {
                                   h5::write_dataset(c, f, "/domain/grid/CellAttributes/short", NDArray::zeros(DType::float64, {4}));
                                 }), "hmf"),
                    "dataset /domain/grid/CellAttributes/short", "expected 5 rows");
  expect_read_error(read_outcome(edited("hmf_name.hmf", [](hid_t f, const h5::Context& c) {
                                   h5::write_dataset(c, f, "/domain/grid/TopologyX", NDArray::zeros(DType::int64, {1, 2}));
                                 }), "hmf"),
                    "dataset /domain/grid/TopologyX");
  const mpp::Mesh m = mpp::read(edited("hmf_extra.hmf", [](hid_t f, const h5::Context& c) {
    h5::write_dataset(c, f, "/domain/grid/Other", NDArray::zeros(DType::int64, {3}));
  }), "hmf");
  EXPECT_TRUE(has_warning(m, "/domain/grid/Other skipped"));
}

// Every 61st prefix and every 23rd byte set to 0x00 and to 0xff of both fixtures, and every
// byte of the contiguous Topology datasets' values set to 0xff: a Mesh or a ReadError.
TEST(HmfHostile, EveryPrefixAndCorruptionIsAMeshOrAReadError) {
  for (const std::string file : {"meshio_plain.hmf", "meshio_mixed.hmf"}) {
    const std::string bytes = slurp(data_path("hmf", file));
    const SweepCount n = sweep(bytes, "hmf", "hmf_sweep.hmf", Sweep::set_each(61, 23, {'\0', '\xff'}));
    EXPECT_GT(n.meshes, 0u) << file;
    EXPECT_LT(n.meshes, n.files) << file;
  }
  {
    // Byte 966 of meshio_plain.hmf is in the global heap index of a variable-length string
    // attribute; HDF5 1.10's H5HG_read crashed (SIGSEGV) on it, inside H5Aread. The global
    // heap check (io::hdf5::check_layouts) makes it a ReadError naming the missing object.
    std::string bad = slurp(data_path("hmf", "meshio_plain.hmf"));
    ASSERT_GT(bad.size(), 966u);
    bad[966] = static_cast<char>(bad[966] ^ 0x01);
    const std::string path = tmp_path("hmf_heap_index.hmf");
    spit(path, bad);
    const std::string outcome = read_outcome(path, "hmf");
    EXPECT_NE(outcome.find("global heap object"), std::string::npos) << outcome;
    EXPECT_NE(outcome.find("is missing"), std::string::npos) << outcome;
  }
  const std::string source = data_path("hmf", "meshio_plain.hmf");
  const std::string bytes = slurp(source);
  std::vector<std::pair<std::size_t, std::size_t>> stored;
  {
    const h5::Context ctx{"test", source, false};
    h5::Handle file = h5::open_file(ctx);
    for (const char* name : {"/domain/grid/Topology0", "/domain/grid/Topology2"}) {
      const hid_t d = H5Dopen2(file.get(), name, H5P_DEFAULT);
      ASSERT_GE(d, 0) << name;
      stored.push_back({std::size_t(H5Dget_offset(d)), std::size_t(H5Dget_storage_size(d))});
      H5Dclose(d);
    }
  }
  const std::string path = tmp_path("hmf_lying.hmf");
  std::size_t errors = 0;
  for (const auto& [at, size] : stored)
    for (std::size_t i = at; i < at + size; ++i) {
      std::string bad = bytes;
      bad[i] = '\xff';
      spit(path, bad);
      const std::string outcome = read_outcome(path, "hmf");
      errors += outcome != "mesh";
      if (outcome != "mesh") {
        EXPECT_NE(outcome.find("hmf_lying.hmf"), std::string::npos) << outcome;
      }
    }
  EXPECT_GT(errors, 0u);
}

// Each gzip dataset of meshio_mixed.hmf with its filter pipeline message made a NIL message:
// its chunk is then unfiltered but recorded shorter than a chunk's bytes, which HDF5 1.10
// would copy whole out of a buffer of the recorded size (ASan: heap-buffer-overflow in
// H5VM_memcpyvv). Each is a ReadError naming the dataset and its chunk's sizes.
TEST(HmfHostile, ACompressedChunkLeftWithoutItsFilterIsAReadError) {
  const std::string bytes = slurp(data_path("hmf", "meshio_mixed.hmf"));
  // A version 1 filter pipeline message: an 8-byte message header, 8 bytes (version, count,
  // reserved), then the deflate filter's id, name length, flags, value count and its name.
  const std::string name("deflate\0", 8);
  std::size_t messages = 0;
  for (std::size_t at = bytes.find(name); at != std::string::npos; at = bytes.find(name, at + 1)) {
    ASSERT_GE(at, 24u);
    const std::size_t message = at - 24;
    ASSERT_EQ(bytes[message], '\x0b') << "a filter pipeline message at " << message;
    std::string bad = bytes;
    bad[message] = '\0';
    const std::string outcome = outcome_of_string(bad, "hmf", "hmf_unfiltered.hmf");
    expect_read_error(outcome, "stored unfiltered in", "hmf_unfiltered.hmf");
    ++messages;
  }
  EXPECT_GE(messages, 10u);  // Geometry, four Topology blocks, three point and two cell arrays
}

#endif  // MESHIOPP_HAVE_HDF5
