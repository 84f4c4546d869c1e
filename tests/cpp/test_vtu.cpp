// VTU: round trips over meshio's canonical meshes in every mode, thread-count
// independence, malformed input (each ReadError names its byte offset), truncated
// prefixes and single-byte corruptions, and the fixtures VTK wrote (tests/data/vtu/).
#include <gtest/gtest.h>

#include "core/codec/base64.hpp"
#include "core/codec/zlib.hpp"
#include "formats/vtk_common/cell_blocks.hpp"
#include "test_vtk_common.hpp"

using namespace vtktest;

namespace {

struct Mode {
  const char* name;
  mpp::Options options;
};

std::vector<Mode> vtu_modes() {
  std::vector<Mode> out;
  for (const char* header : {"UInt32", "UInt64"}) {
    out.push_back({"ascii", {{"binary", "false"}, {"header_type", header}}});
    out.push_back({"binary", {{"compression", "None"}, {"header_type", header}}});
    out.push_back({"binary_zlib", {{"header_type", header}}});
    out.push_back({"appended", {{"data_mode", "appended"}, {"compression", "None"}, {"header_type", header}}});
    out.push_back({"appended_zlib", {{"data_mode", "appended"}, {"header_type", header}}});
  }
  return out;
}

std::vector<std::pair<std::string, mpp::Mesh>> canonical_meshes() {
  mpp::Mesh two_d = tri_mesh();
  two_d.points = grid_points(2);
  return {
      {"tri", tri_mesh()},
      {"tri_2d", two_d},
      {"linear_mix", with_data(linear_mix())},
      {"quadratic_mix", with_data(quadratic_mix())},
      {"polygons", with_data(polygon_mesh())},
      {"polyhedra", with_data(polyhedron_mesh())},
      {"polyhedra_mixed", with_data(polyhedron_mesh(true))},
  };
}

}  // namespace

TEST(VtuRoundTrip, EveryMeshEveryMode) {
  for (const auto& [name, mesh] : canonical_meshes()) {
    for (const auto& mode : vtu_modes()) {
      SCOPED_TRACE(name + " / " + mode.name + " / " + mode.options.at("header_type"));
      const std::string path = tmp_path(name + "_" + mode.name + ".vtu");
      mpp::write(path, mesh, "vtu", mode.options);
      const mpp::Mesh back = mpp::read(path, "vtu", {{"ragged", "true"}});  // the blocks as written
      EXPECT_EQ(compare_meshes(mesh, back), "");
    }
  }
}

TEST(VtuRoundTrip, Float32PointsAndAllDtypesKept) {
  mpp::Mesh m = tri_mesh();
  m.points = m.points.as_dtype(mpp::DType::float32);
  const std::size_t n = m.num_points();
  for (auto dt : {mpp::DType::int8, mpp::DType::int16, mpp::DType::int32, mpp::DType::int64, mpp::DType::uint8,
                  mpp::DType::uint16, mpp::DType::uint32, mpp::DType::uint64, mpp::DType::float32, mpp::DType::float64}) {
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<double>(i % 100);
    m.point_data[std::string(mpp::dtype_name(dt))] = NDArray::from_vector(v).as_dtype(dt);
  }
  for (const auto& mode : vtu_modes()) {
    SCOPED_TRACE(mode.name);
    const std::string path = tmp_path("dtypes.vtu");
    mpp::write(path, m, "vtu", mode.options);
    EXPECT_EQ(compare_meshes(m, mpp::read(path, "vtu")), "");
  }
}

TEST(VtuRoundTrip, AsciiFloatsRoundTripExactly) {
  mpp::Mesh m = tri_mesh();
  std::vector<double> p(27 * 3);
  for (std::size_t i = 0; i < p.size(); ++i) p[i] = std::nextafter(1.0 / static_cast<double>(i + 3), 2.0) * 1e-300 * (i % 2 ? 1 : 1e300);
  m.points = NDArray::from_vector(p, {27, 3});
  const std::string path = tmp_path("exact.vtu");
  mpp::write(path, m, "vtu", {{"binary", "false"}});
  EXPECT_EQ(compare_meshes(m, mpp::read(path, "vtu")), "");
}

TEST(VtuWrite, ByteIdenticalWhateverTheThreadCount) {
  // Large enough for many 32 KiB blocks per array.
  mpp::Mesh m;
  const std::size_t n = 60000;
  std::vector<double> p(3 * n);
  for (std::size_t i = 0; i < p.size(); ++i) p[i] = std::sin(static_cast<double>(i) * 0.37);
  m.points = NDArray::from_vector(p, {n, 3});
  std::vector<std::int64_t> c(4 * (n - 4));
  for (std::size_t i = 0; i < n - 4; ++i)
    for (std::size_t j = 0; j < 4; ++j) c[4 * i + j] = static_cast<std::int64_t>(i + j);
  m.cells.push_back(mpp::CellBlock::rectangular("tetra", NDArray::from_vector(c, {n - 4, 4})));
  for (const char* mode : {"binary", "appended"}) {
    std::string first;
    for (const char* threads : {"1", "2", "3", "8"}) {
      const std::string path = tmp_path(std::string("threads_") + threads + ".vtu");
      mpp::write(path, m, "vtu", {{"threads", threads}, {"data_mode", mode}});
      const std::string bytes = slurp(path);
      if (first.empty()) first = bytes;
      EXPECT_EQ(bytes, first) << mode << " threads=" << threads;
      EXPECT_EQ(compare_meshes(m, mpp::read(path, "vtu", {{"threads", threads}})), "");
    }
  }
}

TEST(VtuWrite, OptionsAreChecked) {
  const auto m = tri_mesh();
  const std::string path = tmp_path("opts.vtu");
  EXPECT_THROW(mpp::write(path, m, "vtu", {{"compression", "bzip2"}}), std::invalid_argument);
  EXPECT_THROW(mpp::write(path, m, "vtu", {{"header_type", "UInt16"}}), std::invalid_argument);
  EXPECT_THROW(mpp::write(path, m, "vtu", {{"data_mode", "base32"}}), std::invalid_argument);
  EXPECT_THROW(mpp::write(path, m, "vtu", {{"binery", "true"}}), std::invalid_argument);
}

TEST(VtuWrite, ZeroCellsAndZeroPoints) {
  mpp::Mesh m;
  m.points = NDArray::zeros(mpp::DType::float64, {0, 3});
  for (const auto& mode : vtu_modes()) {
    const std::string path = tmp_path("empty.vtu");
    mpp::write(path, m, "vtu", mode.options);
    const auto back = mpp::read(path, "vtu");
    EXPECT_EQ(back.num_points(), 0u);
    EXPECT_EQ(back.cells.size(), 0u);
  }
}

// --- malformed input --------------------------------------------------------------------

namespace {

const char* kGood =
    "<?xml version=\"1.0\"?>\n"
    "<VTKFile type=\"UnstructuredGrid\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
    "<UnstructuredGrid>\n"
    "<Piece NumberOfPoints=\"3\" NumberOfCells=\"1\">\n"
    "<Points><DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\">0 0 0 1 0 0 0 1 0</DataArray></Points>\n"
    "<Cells>\n"
    "<DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">0 1 2</DataArray>\n"
    "<DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">3</DataArray>\n"
    "<DataArray type=\"UInt8\" Name=\"types\" format=\"ascii\">5</DataArray>\n"
    "</Cells>\n"
    "</Piece>\n"
    "</UnstructuredGrid>\n"
    "</VTKFile>\n";

std::string read_text(const std::string& text) { return outcome_of_string(text, "vtu", "bad.vtu"); }

}  // namespace

TEST(VtuMalformed, GoodBaselineReads) { EXPECT_EQ(read_text(kGood), "mesh"); }

TEST(VtuMalformed, EachErrorNamesWhatAndWhere) {
  struct Case {
    std::string text;
    std::string needle;
  };
  const std::vector<Case> cases = {
      {replaced(kGood, "</Cells>", "</Cels>"), "end tag </Cells>"},
      {replaced(kGood, "<Cells>", "<Cells"), "expected an XML name"},
      {replaced(kGood, " NumberOfCells=\"1\"", ""), "no attribute NumberOfCells"},
      {replaced(kGood, "type=\"UnstructuredGrid\"", "type=\"PolyData\""), "UnstructuredGrid"},
      {replaced(kGood, "version=\"0.1\"", "version=\"0.1\" compressor=\"vtkBZip2DataCompressor\""), "vtkBZip2DataCompressor"},
      {replaced(kGood, ">0 1 2<", ">0 1 7<"), "node 7 is outside [0, 3)"},
      {replaced(kGood, ">3</DataArray>", ">4</DataArray>"), "connectivity has 3 entries, the offsets reach 4"},
      {replaced(kGood, ">5</DataArray>", ">7 5</DataArray>"), "more than the 1 declared"},
      {replaced(kGood, "0 0 0 1 0 0 0 1 0", "0 0 0 1 0 0 0 1"), "8 values, not a multiple of 3 components"},
      {replaced(kGood, "0 0 0 1 0 0 0 1 0", "0 0 0 1 x 0 0 1 0"), "expected a number"},
      {replaced(kGood, "Float64", "String"), "'String' is not a numeric"},
      {replaced(kGood, "format=\"ascii\">0 1 2", "format=\"binary\">AAAA$AAA"), "invalid base64"},
      {replaced(kGood, "format=\"ascii\">0 1 2", "format=\"appended\" offset=\"0\">"), "no AppendedData"},
      {replaced(kGood, "</VTKFile>", ""), "no end tag"},
      {replaced(kGood, "<Piece", "<Piece a=\"1\" a=\"2\""), "duplicate attribute"},
      {replaced(kGood, ">5</DataArray>", ">12</DataArray>"), "has 3 nodes, expected 8"},
      // Tuples and components within their caps whose product overflows: a ReadError.
      {replaced(kGood, "<UnstructuredGrid>\n",
                "<UnstructuredGrid>\n<FieldData><DataArray type=\"Float64\" Name=\"f\" NumberOfTuples=\"281474976710656\" "
                "NumberOfComponents=\"1000000\" format=\"ascii\">1</DataArray></FieldData>\n"),
       "values overflow a count"},
  };
  for (const auto& c : cases) {
    const std::string outcome = read_text(c.text);
    EXPECT_NE(outcome.find("ReadError"), std::string::npos) << outcome;
    EXPECT_NE(outcome.find(c.needle), std::string::npos) << "want '" << c.needle << "' in: " << outcome;
    EXPECT_NE(outcome.find("byte "), std::string::npos) << outcome;
  }
}

namespace {

std::string b64(const std::string& bytes) {
  std::string out;
  mpp::codec::base64_append(out, bytes.data(), bytes.size());
  return out;
}
template <class T> std::string le(std::vector<T> v) { return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T)); }

// kGood with the connectivity given as a binary (base64) DataArray under `root_attrs`.
std::string with_binary_connectivity(const std::string& root_attrs, const std::string& payload) {
  std::string s = replaced(kGood, "byte_order=\"LittleEndian\"", "byte_order=\"LittleEndian\" " + root_attrs);
  return replaced(s, "format=\"ascii\">0 1 2", "format=\"binary\">" + payload);
}

}  // namespace

TEST(VtuMalformed, BinaryHeadersAndBlocksAreChecked) {
  const std::string conn = le<std::int64_t>({0, 1, 2});
  // Well-formed baselines: uncompressed (one stream) and compressed (VTK's two streams).
  EXPECT_EQ(read_text(with_binary_connectivity("header_type=\"UInt64\"", b64(le<std::uint64_t>({24}) + conn))), "mesh");
  const auto z = mpp::codec::zlib_compress(conn.data(), conn.size(), 6);
  const std::string zs(z.begin(), z.end());
  const std::string zhdr = le<std::uint32_t>({1, 32768, 24, static_cast<std::uint32_t>(zs.size())});
  EXPECT_EQ(read_text(with_binary_connectivity("compressor=\"vtkZLibDataCompressor\"", b64(zhdr) + b64(zs))), "mesh");

  struct Case {
    std::string text, needle;
  };
  std::string corrupt = zs;
  corrupt[zs.size() / 2] ^= 0x55;
  corrupt[2] ^= 0x11;
  const std::vector<Case> cases = {
      {with_binary_connectivity("header_type=\"UInt64\"", b64(le<std::uint64_t>({1ull << 40}) + conn)), "header declares 1099511627776 bytes"},
      {with_binary_connectivity("header_type=\"UInt64\"", b64(le<std::uint64_t>({16}) + conn)), "connectivity has 2 entries"},
      {with_binary_connectivity("header_type=\"UInt64\"", b64(le<std::uint64_t>({24}) + conn.substr(0, 12))), "header declares 24 bytes, only 16 bytes are left"},
      {with_binary_connectivity("compressor=\"vtkZLibDataCompressor\"", b64(le<std::uint32_t>({1u << 30})) + b64(zs)), "blocks"},
      {with_binary_connectivity("compressor=\"vtkZLibDataCompressor\"",
                                b64(le<std::uint32_t>({1, 32768, 16, static_cast<std::uint32_t>(zs.size())})) + b64(zs)),
       "decompresses to more than the 16 bytes"},
      {with_binary_connectivity("compressor=\"vtkZLibDataCompressor\"",
                                b64(le<std::uint32_t>({2, 12, 12, static_cast<std::uint32_t>(zs.size()), 0})) + b64(zs)),
       "block 0"},
      {with_binary_connectivity("compressor=\"vtkZLibDataCompressor\"",
                                b64(le<std::uint32_t>({1, 32768, 24, static_cast<std::uint32_t>(zs.size() + 50)})) + b64(zs)),
       "compressed blocks need"},
      {with_binary_connectivity("compressor=\"vtkZLibDataCompressor\"", b64(zhdr) + b64(corrupt)), "block 0"},
      {with_binary_connectivity("header_type=\"UInt8\"", b64(conn)), "header_type UInt32 or UInt64"},
  };
  for (const auto& c : cases) {
    const std::string outcome = read_text(c.text);
    EXPECT_NE(outcome.find(c.needle), std::string::npos) << "want '" << c.needle << "' in: " << outcome;
    EXPECT_NE(outcome.find("byte "), std::string::npos) << outcome;
  }
}

// --- truncated prefixes and single-byte corruptions -----------------------------------

TEST(VtuFuzz, EveryPrefixAndCorruptionIsAMeshOrReadError) {
  const auto mesh = with_data(polyhedron_mesh(true));
  std::size_t files = 0;
  for (const auto& mode : vtu_modes()) {
    const std::string mname = mode.name;
    if (mode.options.at("header_type") == "UInt32" ? mname != "appended_zlib" : mname == "appended_zlib") continue;
    const std::string path = tmp_path(std::string("fuzz_src_") + mode.name + ".vtu");
    mpp::write(path, mesh, "vtu", mode.options);
    const std::string bytes = slurp(path);
    files += sweep(bytes, "vtu", "fuzz_probe.vtu", Sweep::xor_each(bytes.size() / 300 + 1, bytes.size() / 100 + 1, {0x01, 0x80})).files;
  }
  EXPECT_GT(files, 500u);
}

// --- fixtures written by VTK 9.1 (tests/data/vtu/README.md) ----------------------------

namespace {

const char* kFixtures[] = {
    "appended_b64_raw_UInt32.vtu", "appended_b64_raw_UInt64.vtu", "appended_b64_zlib_UInt32.vtu",
    "appended_b64_zlib_UInt64.vtu", "appended_raw_UInt32.vtu", "appended_raw_UInt64.vtu",
    "appended_zlib_UInt32.vtu", "appended_zlib_UInt64.vtu", "big_endian.vtu",
    "binary_raw_UInt32.vtu", "binary_raw_UInt64.vtu", "binary_zlib_UInt32.vtu", "binary_zlib_UInt64.vtu",
};

std::string fixture(const std::string& name) { return std::string(MESHIOPP_TEST_DATA) + "/" + name; }

}  // namespace

TEST(VtuFixtures, EveryVtkEncodingReadsToTheSameMesh) {
  // VTK's ASCII writer rounds floats (11 digits): the exact reference is a binary file.
  const mpp::Mesh ref = mpp::read(fixture("vtu/binary_raw_UInt64.vtu"));
  const mpp::Mesh ascii = mpp::read(fixture("vtu/ascii_raw_UInt64.vtu"));
  EXPECT_EQ(ascii.cells.size(), ref.cells.size());
  EXPECT_NEAR(ascii.points.value_as_double(5), ref.points.value_as_double(5), 1e-10);
  // What VTK wrote: 6 cells in 5 blocks, the wedge reordered to meshio's order.
  std::vector<std::string> types;
  for (const auto& b : ref.cells) types.push_back(b.type + ":" + std::to_string(b.size()));
  EXPECT_EQ(types, (std::vector<std::string>{"hexahedron:2", "wedge:1", "triangle:2", "polyhedron:1"}));
  EXPECT_EQ(compare_arrays("wedge", ref.cells[1].connectivity, i64({0, 3, 1, 6, 9, 7}, {1, 6}), false), "");
  EXPECT_EQ(ref.point_data.at("ids").dtype(), mpp::DType::int32);
  EXPECT_EQ(ref.cell_data.at("c2")[0].shape(), (NDArray::Shape{2, 2}));
  EXPECT_EQ(ref.field_data.at("TIME").value_as_double(0), 2.5);
  for (const char* name : kFixtures) {
    SCOPED_TRACE(name);
    EXPECT_EQ(compare_meshes(ref, mpp::read(fixture(std::string("vtu/") + name))), "");
  }
  for (const char* name : {"vtk42_binary.vtk", "vtk51_binary.vtk"}) {
    SCOPED_TRACE(name);
    EXPECT_EQ(compare_meshes(ref, mpp::read(fixture(std::string("vtk/") + name))), "");
  }
}

TEST(VtuFixtures, EveryTruncatedPrefixIsAMeshOrReadError) {
  const std::string probe_vtu = tmp_path("prefix.vtu"), probe_vtk = tmp_path("prefix.vtk");
  std::vector<std::string> files = {"vtu/appended_zlib_UInt32.vtu", "vtu/binary_zlib_UInt64.vtu", "vtu/big_endian.vtu",
                                    "vtk/vtk42_binary.vtk", "vtk/vtk51_ascii.vtk"};
  for (const auto& f : files) {
    const std::string bytes = slurp(fixture(f));
    const bool legacy = f.rfind("vtk/", 0) == 0;
    const std::string& probe = legacy ? probe_vtk : probe_vtu;
    for (std::size_t len = 0; len < bytes.size(); len += bytes.size() / 250 + 1) {
      spit(probe, bytes.substr(0, len));
      const std::string outcome = read_outcome(probe, legacy ? "vtk" : "vtu");
      if (outcome != "mesh") {
        EXPECT_EQ(outcome.rfind("ReadError: ", 0), 0u) << outcome;
      }
    }
  }
}

TEST(VtuMalformed, DataBeforeOrAfterInformationKeyChildren) {
  const std::string key = "<InformationKey name=\"L2_NORM_RANGE\" location=\"vtkDataArray\" length=\"1\"><Value index=\"0\">7</Value></InformationKey>";
  EXPECT_EQ(read_text(replaced(kGood, ">0 1 2<", ">0 1 2" + key + "<")), "mesh");
  EXPECT_EQ(read_text(replaced(kGood, ">0 1 2<", ">" + key + "0 1 2<")), "mesh");
  const std::string twice = read_text(replaced(kGood, ">0 1 2<", ">0 1" + key + "2<"));
  EXPECT_NE(twice.find("holds text in more than one place"), std::string::npos) << twice;
}

// --- cells handed out without copies ------------------------------------------------------

namespace {

// Six points; cells tri, quad, tri, wedge in that order (not grouped by type), with one cell
// data array; the cell arrays in `conn_type` / `off_type`.
std::string ungrouped(const std::string& conn_type, const std::string& off_type) {
  return "<?xml version=\"1.0\"?>\n"
         "<VTKFile type=\"UnstructuredGrid\" version=\"0.1\" byte_order=\"LittleEndian\">\n<UnstructuredGrid>\n"
         "<Piece NumberOfPoints=\"6\" NumberOfCells=\"4\">\n"
         "<Points><DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\">"
         "0 0 0 1 0 0 0 1 0 0 0 1 1 0 1 0 1 1</DataArray></Points>\n"
         "<Cells>\n"
         "<DataArray type=\"" + conn_type + "\" Name=\"connectivity\" format=\"ascii\">0 1 2  0 1 4 3  1 2 5  0 1 2 3 4 5</DataArray>\n"
         "<DataArray type=\"" + off_type + "\" Name=\"offsets\" format=\"ascii\">3 7 10 16</DataArray>\n"
         "<DataArray type=\"UInt8\" Name=\"types\" format=\"ascii\">5 9 5 13</DataArray>\n"
         "</Cells>\n"
         "<CellData><DataArray type=\"Int32\" Name=\"id\" format=\"ascii\">10 11 12 13</DataArray></CellData>\n"
         "</Piece>\n</UnstructuredGrid>\n</VTKFile>\n";
}

}  // namespace

TEST(VtuRead, UngroupedMixedCellsAreBlocksSharingOneDecodedBuffer) {
  for (const auto& [ct, ot] : std::vector<std::pair<std::string, std::string>>{{"Int64", "Int64"}, {"Int32", "UInt32"}}) {
    SCOPED_TRACE(ct + " / " + ot);
    const mpp::Mesh m = read_string(ungrouped(ct, ot), "vtu", "ungrouped.vtu");
    ASSERT_EQ(m.cells.size(), 4u);
    const std::vector<std::string> types = {"triangle", "quad", "triangle", "wedge"};
    const std::vector<std::vector<std::int64_t>> conn = {{0, 1, 2}, {0, 1, 4, 3}, {1, 2, 5}, {0, 2, 1, 3, 5, 4}};
    for (std::size_t b = 0; b < 4; ++b) {
      EXPECT_EQ(m.cells[b].type, types[b]);
      EXPECT_EQ(ints_of(m.cells[b].connectivity), conn[b]);  // the wedge in meshio's node order
      EXPECT_EQ(m.cells[b].connectivity.dtype(), mpp::DType::int64);
      // One decoded connectivity array, handed out as parts: no per-block copy.
      const std::size_t at[] = {0, 3, 7, 10};
      EXPECT_EQ(static_cast<const std::int64_t*>(m.cells[b].connectivity.raw()),
                static_cast<const std::int64_t*>(m.cells[0].connectivity.raw()) + at[b]);
      const auto& id = m.cell_data.at("id")[b];
      EXPECT_EQ(ints_of(id), std::vector<std::int64_t>{static_cast<std::int64_t>(10 + b)});
      EXPECT_EQ(static_cast<const std::int32_t*>(id.raw()), static_cast<const std::int32_t*>(m.cell_data.at("id")[0].raw()) + b);
    }
  }
}

TEST(VtuMalformed, TruncatedCompressedBlockNamesTheArrayAndItsByte) {
  // Appended raw, zlib: the connectivity's one block declared and stored 5 bytes short.
  const std::string conn = le<std::int64_t>({0, 1, 2});
  const auto z = mpp::codec::zlib_compress(conn.data(), conn.size(), 6);
  const std::string cut(z.begin(), z.end() - 5);
  for (const bool wide : {false, true}) {
    SCOPED_TRACE(wide ? "UInt64" : "UInt32");
    const std::string header = wide ? le<std::uint64_t>({1, 32768, 24, cut.size()})
                                    : le<std::uint32_t>({1, 32768, 24, static_cast<std::uint32_t>(cut.size())});
    std::string text = replaced(kGood, "byte_order=\"LittleEndian\"",
                                std::string("byte_order=\"LittleEndian\" compressor=\"vtkZLibDataCompressor\" header_type=\"") +
                                    (wide ? "UInt64" : "UInt32") + "\"");
    text = replaced(text, "format=\"ascii\">0 1 2</DataArray>", "format=\"appended\" offset=\"0\"/>");
    text = replaced(text, "</VTKFile>", "<AppendedData encoding=\"raw\">_" + header + cut + "\n</AppendedData>\n</VTKFile>");
    const std::size_t block_at = text.find("_" + header) + 1 + header.size();
    const std::string outcome = read_text(text);
    EXPECT_EQ(outcome.rfind("ReadError: ", 0), 0u) << outcome;
    EXPECT_NE(outcome.find("DataArray 'connectivity': block 0"), std::string::npos) << outcome;
    EXPECT_NE(outcome.find("byte " + std::to_string(block_at) + ")"), std::string::npos) << "block at " << block_at << ": " << outcome;
  }
}

// The read-time scans of the cell arrays (vtk_common/cell_blocks.hpp), fed in pieces from
// several ranges as io::read_values feeds them.
TEST(VtkCellScans, UniformEndsFindTheOneStepAcrossRangesAndRefuseAnythingElse) {
  namespace vtk = mpp::vtk;
  std::vector<std::int32_t> ends(1000);
  for (std::size_t i = 0; i < ends.size(); ++i) ends[i] = static_cast<std::int32_t>(4 * (i + 1));
  auto scan = [&](const auto& values, std::size_t pieces) {
    vtk::UniformEnds u;
    const std::size_t n = values.size();
    for (std::size_t r = 0; r < pieces; ++r) {  // range r gets [n r / pieces, n (r + 1) / pieces) in two pieces
      const std::size_t a = n * r / pieces, b = n * (r + 1) / pieces, mid = (a + b) / 2;
      u.feed(static_cast<unsigned>(r), mpp::dtype_of<typename std::decay_t<decltype(values)>::value_type>(), a, mid - a, values.data() + a);
      u.feed(static_cast<unsigned>(r), mpp::dtype_of<typename std::decay_t<decltype(values)>::value_type>(), mid, b - mid, values.data() + mid);
    }
    return u.step(n);
  };
  for (std::size_t pieces : {1, 2, 3, 16}) EXPECT_EQ(scan(ends, pieces), 4) << pieces;
  auto bent = ends;
  bent[700] += 1;  // one cell of 5 nodes, the next of 3
  for (std::size_t pieces : {1, 3}) EXPECT_EQ(scan(bent, pieces), 0) << pieces;
  std::vector<std::int64_t> huge = {INT64_MAX / 2 + 1, 0};  // k * 2 overflows: refused, not wrapped
  huge[1] = huge[0];
  EXPECT_EQ(scan(huge, 1), 0);
  std::vector<std::uint64_t> wrapped = {std::uint64_t{1} << 63};
  EXPECT_EQ(scan(wrapped, 1), 0);
  std::vector<std::int64_t> zeros = {0, 0, 0};  // empty cells: the general path's business
  EXPECT_EQ(scan(zeros, 1), 0);
  vtk::UniformEnds partial;  // fewer values fed than cells declared
  partial.feed(0, mpp::DType::int32, 0, 10, ends.data());
  EXPECT_EQ(partial.step(11), 0);
  EXPECT_EQ(partial.step(10), 4);
  vtk::UniformEnds floats;
  const double d[2] = {3.0, 6.0};
  floats.feed(0, mpp::DType::float64, 0, 2, d);
  EXPECT_EQ(floats.step(2), 0);
}

TEST(VtkCellScans, SameValueAndIdRangeAcrossRanges) {
  namespace vtk = mpp::vtk;
  std::vector<std::uint8_t> types(500, 10);
  vtk::SameValue same;
  same.feed(0, mpp::DType::uint8, 0, 250, types.data());
  same.feed(1, mpp::DType::uint8, 250, 250, types.data() + 250);
  ASSERT_TRUE(same.value(500).has_value());
  EXPECT_EQ(*same.value(500), 10);
  EXPECT_FALSE(same.value(501).has_value());
  types[499] = 12;
  vtk::SameValue mixed;
  mixed.feed(0, mpp::DType::uint8, 0, 250, types.data());
  mixed.feed(1, mpp::DType::uint8, 250, 250, types.data() + 250);
  EXPECT_FALSE(mixed.value(500).has_value());

  std::vector<std::int64_t> ids = {0, 5, 9, 3, 7, 1};
  vtk::IdRange range;
  range.feed(0, mpp::DType::int64, 0, 3, ids.data());
  range.feed(1, mpp::DType::int64, 3, 3, ids.data() + 3);
  EXPECT_TRUE(range.within(10));
  EXPECT_FALSE(range.within(9));
  ids[4] = -1;
  vtk::IdRange negative;
  negative.feed(2, mpp::DType::int64, 3, 3, ids.data() + 3);
  EXPECT_FALSE(negative.within(100));
  const std::uint64_t past = std::uint64_t{1} << 63;  // negative as int64: never within
  vtk::IdRange unsigned_ids;
  unsigned_ids.feed(0, mpp::DType::uint64, 0, 1, &past);
  EXPECT_FALSE(unsigned_ids.within(INT64_MAX));
  EXPECT_TRUE(vtk::IdRange{}.within(0));
}

TEST(VtkCellScans, UniformBlocksOnlyForPlainFixedSizeTypes) {
  namespace vtk = mpp::vtk;
  mpp::NDArray conn = mpp::NDArray::uninit(mpp::DType::int64, {12});
  for (std::int64_t i = 0; i < 12; ++i) conn.data<std::int64_t>()[i] = i;
  auto wedges = vtk::uniform_blocks(conn, 2, 6, 13);  // VTK_WEDGE, permuted in place
  ASSERT_TRUE(wedges.has_value());
  ASSERT_EQ(wedges->blocks.size(), 1u);
  EXPECT_EQ(wedges->blocks[0].type, "wedge");
  const auto* w = wedges->blocks[0].connectivity.data<const std::int64_t>();
  EXPECT_EQ(std::vector<std::int64_t>(w, w + 6), (std::vector<std::int64_t>{0, 2, 1, 3, 5, 4}));
  EXPECT_EQ(wedges->starts, (std::vector<std::size_t>{0, 2}));
  EXPECT_EQ(w, conn.data<const std::int64_t>());  // the reader's buffer, shared
  EXPECT_FALSE(vtk::uniform_blocks(conn, 3, 4, 13).has_value());   // a wedge of 4 nodes
  EXPECT_FALSE(vtk::uniform_blocks(conn, 2, 6, 42).has_value());   // polyhedra need faces
  EXPECT_FALSE(vtk::uniform_blocks(conn, 2, 6, 69).has_value());   // Lagrange: by node count
  EXPECT_FALSE(vtk::uniform_blocks(conn, 3, 3, 5).has_value());    // 9 ids for 12 given
  auto polygons = vtk::uniform_blocks(conn, 2, 6, 7);
  ASSERT_TRUE(polygons.has_value());
  EXPECT_EQ(polygons->blocks[0].type, "polygon");
  EXPECT_EQ(polygons->blocks[0].connectivity.shape(), (mpp::NDArray::Shape{2, 6}));
}

// Writing: one int64 block VTK stores in our node order is the flat connectivity itself;
// a block in another order, another dtype, or two blocks are copied (and converted).
TEST(VtkFlatCells, OneInt64BlockInVtkOrderIsSharedOthersAreCopied) {
  namespace vtk = mpp::vtk;
  const NDArray tri = NDArray::from_vector(std::vector<std::int64_t>{0, 1, 2, 2, 1, 3}, {2, 3});
  vtk::FlatOut one = vtk::flat_from_blocks({mpp::CellBlock::rectangular("triangle", tri)}, false, "vtu");
  EXPECT_EQ(one.connectivity.raw(), tri.raw());
  EXPECT_EQ(one.connectivity.shape(), (NDArray::Shape{6}));
  const NDArray ends = vtk::end_offsets(one);
  EXPECT_EQ(std::vector<std::int64_t>(ends.data<const std::int64_t>(), ends.data<const std::int64_t>() + 2), (std::vector<std::int64_t>{3, 6}));
  EXPECT_EQ(one.types.data<const std::uint8_t>()[1], 5);

  const NDArray wedge = NDArray::from_vector(std::vector<std::int64_t>{0, 1, 2, 3, 4, 5}, {1, 6});
  vtk::FlatOut permuted = vtk::flat_from_blocks({mpp::CellBlock::rectangular("wedge", wedge)}, false, "vtu");
  EXPECT_NE(permuted.connectivity.raw(), wedge.raw());
  const auto* w = permuted.connectivity.data<const std::int64_t>();
  EXPECT_EQ(std::vector<std::int64_t>(w, w + 6), (std::vector<std::int64_t>{0, 2, 1, 3, 5, 4}));
  EXPECT_EQ(wedge.data<const std::int64_t>()[1], 1);  // the mesh's own array untouched

  vtk::FlatOut narrow = vtk::flat_from_blocks({mpp::CellBlock::rectangular("triangle", tri.as_dtype(mpp::DType::int32))}, false, "vtu");
  EXPECT_EQ(narrow.connectivity.dtype(), mpp::DType::int64);
  vtk::FlatOut two = vtk::flat_from_blocks({mpp::CellBlock::rectangular("triangle", tri), mpp::CellBlock::rectangular("triangle", tri)}, false, "vtu");
  EXPECT_EQ(two.connectivity.size(), 12u);
  EXPECT_EQ(vtk::end_offsets(two).data<const std::int64_t>()[3], 12);
}
