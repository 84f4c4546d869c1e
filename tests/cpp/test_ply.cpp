// PLY: round trips (binary / ASCII, 2-D and 3-D, runs of triangles, quads, polygons with
// point and cell data), every scalar type name in both byte orders, list count and index
// types, other elements and list properties skipped with a warning, comments kept, malformed
// headers and lying counts, and every truncated prefix / byte flip of the fixtures.
#include <algorithm>
#include <gtest/gtest.h>

#include <cstring>

#include "core/io/byteorder.hpp"
#include "test_vtk_common.hpp"

using namespace vtktest;

namespace {

std::string read_text(const std::string& text) { return outcome_of_string(text, "ply", "bad.ply"); }
mpp::Mesh read_bytes(const std::string& bytes) { return read_string(bytes, "ply", "probe.ply"); }

// Faces in meshio's grouping: runs of one vertex count.
mpp::Mesh runs_mesh() {
  mpp::Mesh m;
  m.points = grid_points();
  m.cells.push_back(rect("triangle", 3, 3));
  m.cells.push_back(rect("quad", 4, 2));
  m.cells.push_back(rect("polygon", 5, 2));
  m.cells.push_back(rect("polygon", 7, 1));
  m.cells.push_back(rect("triangle", 3, 1, 4));
  std::vector<double> a(27);
  std::vector<std::int32_t> b(27);
  std::vector<std::uint8_t> c(27);
  std::vector<float> d(27);
  for (int i = 0; i < 27; ++i) {
    a[i] = i * 0.25 - 3;
    b[i] = -i * 1000;
    c[i] = static_cast<std::uint8_t>(i * 9);
    d[i] = static_cast<float>(i) / 3.0f;
  }
  m.point_data["a"] = NDArray::from_vector(a);
  m.point_data["b"] = NDArray::from_vector(b);
  m.point_data["red"] = NDArray::from_vector(c);
  m.point_data["f"] = NDArray::from_vector(d);
  for (std::size_t k = 0; k < m.cells.size(); ++k) {
    std::vector<float> q(m.cells[k].size());
    std::vector<std::int16_t> s(m.cells[k].size());
    for (std::size_t i = 0; i < q.size(); ++i) {
      q[i] = static_cast<float>(k * 10 + i) + 0.5f;
      s[i] = static_cast<std::int16_t>(-static_cast<int>(k * 100 + i));
    }
    m.cell_data["quality"].push_back(NDArray::from_vector(q));
    m.cell_data["tag"].push_back(NDArray::from_vector(s));
  }
  return m;
}

const std::vector<std::pair<std::string, mpp::Options>> kModes = {{"binary", {}}, {"ascii", {{"binary", "false"}}}};

template <class T> void put(std::string& s, T v, bool little) {
  char b[sizeof(T)];
  std::memcpy(b, &v, sizeof v);
  if (little != mpp::io::host_is_little_endian()) mpp::io::byteswap_inplace(b, 1, sizeof v);
  s.append(b, sizeof v);
}

}  // namespace

TEST(PlyRoundTrip, EveryMeshBothEncodings) {
  mpp::Mesh two_d = tri_mesh();
  two_d.points = grid_points(2);
  mpp::Mesh f32 = runs_mesh();
  f32.points = f32.points.as_dtype(mpp::DType::float32);
  const std::vector<std::pair<std::string, mpp::Mesh>> meshes = {
      {"tri", tri_mesh()}, {"tri_2d", two_d}, {"runs", runs_mesh()}, {"runs_f32", f32}};
  for (const auto& [name, mesh] : meshes)
    for (const auto& [mode, options] : kModes) {
      SCOPED_TRACE(name + " / " + mode);
      const std::string path = tmp_path(name + "_" + mode + ".ply");
      mpp::take_warnings();
      mpp::write(path, mesh, "ply", options);
      EXPECT_TRUE(mpp::take_warnings().empty());
      const auto back = mpp::read(path, "ply");
      EXPECT_EQ(back.points.dim(1), mesh.points.dim(1));
      EXPECT_EQ(compare_meshes(mesh, back, false), "");
    }
}

TEST(PlyRoundTrip, RaggedPolygonsComeBackAsRuns) {
  const auto m = polygon_mesh();  // polygon(6) x2, triangle, ragged polygons of 5, 7, 4
  const std::string path = tmp_path("ragged.ply");
  mpp::write(path, m, "ply");
  const auto back = mpp::read(path, "ply");
  std::vector<std::pair<std::string, std::int64_t>> got;
  for (const auto& b : back.cells) got.emplace_back(b.type, b.nodes_per_cell());
  const std::vector<std::pair<std::string, std::int64_t>> want = {
      {"polygon", 6}, {"triangle", 3}, {"polygon", 5}, {"polygon", 7}, {"quad", 4}};
  EXPECT_EQ(got, want);
  EXPECT_EQ(compare_arrays("last", back.cells[4].connectivity, i64({18, 19, 22, 21}, {1, 4}), false), "");
}

TEST(PlyWrite, SkipsWhatPlyCannotHoldWithWarnings) {
  auto m = linear_mix();  // vertex, line, triangle, quad, tetra, hexahedron, wedge, pyramid, triangle
  m.point_data["vec"] = NDArray::zeros(mpp::DType::float64, {27, 3});
  const std::string path = tmp_path("skip.ply");
  mpp::take_warnings();
  mpp::write(path, m, "ply");
  const auto notes = mpp::take_warnings();
  std::string all;
  for (const auto& n : notes) all += n + "\n";
  EXPECT_NE(all.find("'tetra'"), std::string::npos) << all;
  EXPECT_NE(all.find("'vec'"), std::string::npos) << all;
  const auto back = mpp::read(path, "ply");
  ASSERT_EQ(back.cells.size(), 5u);  // vertex, line, triangle, quad, triangle
  EXPECT_EQ(back.cells[0].type, "vertex");
  EXPECT_EQ(back.cells[1].type, "line");
  EXPECT_EQ(back.cells[4].type, "triangle");
  EXPECT_EQ(back.point_data.count("vec"), 0u);
}

TEST(PlyRead, EveryScalarTypeNameBothByteOrders) {
  const std::vector<std::pair<std::string, mpp::DType>> types = {
      {"char", mpp::DType::int8},     {"uchar", mpp::DType::uint8},    {"short", mpp::DType::int16},
      {"ushort", mpp::DType::uint16}, {"int", mpp::DType::int32},      {"uint", mpp::DType::uint32},
      {"float", mpp::DType::float32}, {"double", mpp::DType::float64}, {"int8", mpp::DType::int8},
      {"uint8", mpp::DType::uint8},   {"int16", mpp::DType::int16},    {"uint16", mpp::DType::uint16},
      {"int32", mpp::DType::int32},   {"uint32", mpp::DType::uint32},  {"float32", mpp::DType::float32},
      {"float64", mpp::DType::float64}, {"int64", mpp::DType::int64},  {"uint64", mpp::DType::uint64}};
  for (const char* enc : {"ascii", "binary_little_endian", "binary_big_endian"}) {
    SCOPED_TRACE(enc);
    const bool little = std::string(enc) == "binary_little_endian";
    std::string text = "ply\nformat ";
    text += enc;
    text += " 1.0\nelement vertex 2\nproperty float x\nproperty float y\nproperty float z\n";
    for (const auto& [name, t] : types) text += "property " + name + " p_" + name + "\n";
    text += "end_header\n";
    for (int row = 0; row < 2; ++row) {
      const float xyz[3] = {1.5f + row, -2.0f, 0.25f};
      if (std::string(enc) == "ascii") {
        text += std::to_string(xyz[0]) + " " + std::to_string(xyz[1]) + " " + std::to_string(xyz[2]);
        for (const auto& pr : types) {
          text += ' ';
          text += std::to_string(mpp::dtype_is_signed_int(pr.second) ? -7 - row : 7 + row);
        }
        text += "\n";
        continue;
      }
      for (float v : xyz) put(text, v, little);
      for (const auto& pr : types) {
        const int v = mpp::dtype_is_signed_int(pr.second) ? -7 - row : 7 + row;
        mpp::visit_dtype(pr.second, [&](auto tag) { put(text, static_cast<decltype(tag)>(v), little); });
      }
    }
    const auto m = read_bytes(text);
    EXPECT_EQ(m.points.dtype(), mpp::DType::float32);
    EXPECT_EQ(m.points.value_as_double(3), 2.5);
    EXPECT_EQ(m.points.value_as_double(4), -2.0);
    for (const auto& [name, t] : types) {
      const auto& a = m.point_data.at("p_" + name);
      EXPECT_EQ(a.dtype(), t) << name;
      const double want = mpp::dtype_is_signed_int(t) ? -8 : 8;
      EXPECT_EQ(a.value_as_double(1), want) << name;
    }
  }
}

TEST(PlyRead, ListCountAndIndexTypesAndFaceDataBeforeTheList) {
  for (bool little : {true, false}) {
    std::string s = std::string("ply\nformat ") + (little ? "binary_little_endian" : "binary_big_endian") +
                    " 1.0\ncomment first\ncomment  second  \nobj_info made by hand\nelement vertex 5\nproperty double x\nproperty double y\n"
                    "property short flag\nelement face 3\nproperty uchar kind\nproperty list ushort uint vertex_indices\nproperty double w\n"
                    "element edge 1\nproperty int vertex1\nproperty int vertex2\nend_header\n";
    for (int i = 0; i < 5; ++i) {
      put(s, 1.0 * i, little);
      put(s, -1.0 * i, little);
      put(s, static_cast<std::int16_t>(i - 2), little);
    }
    auto face = [&](std::uint8_t kind, std::vector<std::uint32_t> ids, double w) {
      put(s, kind, little);
      put(s, static_cast<std::uint16_t>(ids.size()), little);
      for (auto v : ids) put(s, v, little);
      put(s, w, little);
    };
    face(1, {0, 1, 2}, 0.5);
    face(2, {1, 2, 3}, 1.5);
    face(3, {0, 1, 2, 3, 4}, 2.5);
    put(s, std::int32_t{0}, little);
    put(s, std::int32_t{4}, little);
    const auto m = read_bytes(s);
    const auto& notes = m.warnings;  // read() gathers the reader's warn() calls
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(notes[0].find("element 'edge'"), std::string::npos) << notes[0];
    EXPECT_EQ(m.points.dim(1), 2u);
    EXPECT_EQ(m.points.value_as_double(2 * 3 + 1), -3.0);
    EXPECT_EQ(m.point_data.at("flag").value_as_double(0), -2);
    ASSERT_EQ(m.cells.size(), 2u);
    EXPECT_EQ(compare_arrays("tri", m.cells[0].connectivity, i64({0, 1, 2, 1, 2, 3}, {2, 3}), false), "");
    EXPECT_EQ(m.cells[1].type, "polygon");
    EXPECT_EQ(compare_arrays("poly", m.cells[1].connectivity, i64({0, 1, 2, 3, 4}, {1, 5}), false), "");
    EXPECT_EQ(m.cell_data.at("w")[0].value_as_double(1), 1.5);
    EXPECT_EQ(m.cell_data.at("w")[1].value_as_double(0), 2.5);
    EXPECT_EQ(m.cell_data.at("kind")[1].dtype(), mpp::DType::uint8);
    EXPECT_EQ(m.cell_data.at("kind")[1].value_as_double(0), 3);
    const auto& c = m.field_data.at("ply:comment");
    EXPECT_EQ(std::string(static_cast<const char*>(c.raw()), c.size()), "first\n second  ");
    const auto& o = m.field_data.at("ply:obj_info");
    EXPECT_EQ(std::string(static_cast<const char*>(o.raw()), o.size()), "made by hand");
    // and they are written back as header lines
    const std::string path = tmp_path("comments.ply");
    mpp::write(path, m, "ply", {{"binary", "false"}});
    const std::string text = slurp(path);
    EXPECT_NE(text.find("comment first\ncomment  second  \nobj_info made by hand\n"), std::string::npos) << text;
    EXPECT_EQ(text.find("Created by"), std::string::npos);
    EXPECT_EQ(compare_meshes(m, mpp::read(path, "ply")), "");
  }
}

TEST(PlyRead, AsciiListsSkippedWithWarningsAndSparseWhitespace) {
  const std::string text =
      "ply\r\nformat ascii 1.0\r\nelement vertex 3\r\nproperty list uchar float tex\r\nproperty float x\r\nproperty float y\r\n"
      "property float z\r\nelement face 2\r\nproperty list uchar int vertex_indices\r\nproperty list uchar float uv\r\n"
      "property int id\r\nend_header\r\n"
      "2 0.5 0.5 0 0 0\r\n0 1 0 0\r\n0 0 1 0\r\n3 0 1 2 2 0 0 7\r\n3 2 1 0 0 -8\r\n";
  const auto m = read_bytes(text);
  const auto& notes = m.warnings;  // read() gathers the reader's warn() calls
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_NE(notes[0].find("'tex'"), std::string::npos);
  EXPECT_NE(notes[1].find("'uv'"), std::string::npos);
  ASSERT_EQ(m.cells.size(), 1u);
  EXPECT_EQ(compare_arrays("tri", m.cells[0].connectivity, i64({0, 1, 2, 2, 1, 0}, {2, 3}), false), "");
  EXPECT_EQ(m.cell_data.at("id")[0].value_as_double(1), -8);
  EXPECT_EQ(m.points.value_as_double(3 * 2 + 1), 1.0);
}

TEST(PlyMalformed, ErrorsNameThePlace) {
  const std::string good =
      "ply\nformat ascii 1.0\nelement vertex 3\nproperty double x\nproperty double y\nproperty double z\n"
      "element face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
  EXPECT_EQ(read_text(good), "mesh");
  auto rep = [&](const std::string& from, const std::string& to) { return replaced(good, from, to); };
  const std::vector<std::pair<std::string, std::string>> cases = {
      {rep("ply\n", "plx\n"), "'ply' as the first line"},
      {rep("ascii 1.0", "utf8 1.0"), "format ascii"},
      {rep("ascii 1.0", "ascii 2.0"), "version 1.0"},
      {rep("property double z", "property quad z"), "PLY scalar type"},
      {rep("list uchar int", "list float int"), "integer list count type"},
      {rep("end_header\n", ""), "end_header"},
      {rep("3 0 1 2", "3 0 1 3"), "vertex index 3 is out of range"},
      {rep("3 0 1 2", "0"), "at least one vertex"},
      {rep("3 0 1 2", "3 0 1 -2"), "a vertex index of face 0"},
      {rep("0 1 0\n3", "0 x 0\n3"), "property 'y'"},
      {rep("element vertex 3", "element vertex 1000000000000"), "declared 1000000000000"},
      {rep("element face 1", "element face 1000000000000"), "declared 1000000000000"},
      {rep("element vertex 3", "element vertex -3"), "element count"},
      {rep("element vertex 3\n", "property int q\nelement vertex 3\n"), "'element' before"},
      {rep("element face 1", "elephant face 1"), "header keyword"},
      {good + "7\n", "end of the file"},
      {rep("3 0 1 2", "3 0 1"), "face vertices"},
  };
  for (const auto& [text, needle] : cases) expect_read_error(read_text(text), needle, "line ");
}

TEST(PlyMalformed, BinaryListCountsThatLie) {
  std::string s =
      "ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
      "element face 2\nproperty list uint int vertex_indices\nend_header\n";
  for (int i = 0; i < 9; ++i) put(s, static_cast<float>(i), true);
  put(s, std::uint32_t{3}, true);
  for (int v : {0, 1, 2}) put(s, std::int32_t{v}, true);
  const std::string head = s;
  put(s, std::uint32_t{4000000000u}, true);  // a second face claiming 4e9 vertices
  put(s, std::int32_t{0}, true);
  std::string outcome = read_text(s);
  EXPECT_NE(outcome.find("runs past the end"), std::string::npos) << outcome;
  std::string neg = head;
  put(neg, std::uint32_t{3}, true);
  for (int v : {0, -1, 2}) put(neg, std::int32_t{v}, true);
  outcome = read_text(neg);
  EXPECT_NE(outcome.find("vertex index -1 is out of range"), std::string::npos) << outcome;
  EXPECT_NE(outcome.find("byte "), std::string::npos) << outcome;
}

TEST(PlyFuzz, EveryPrefixAndCorruptionIsAMeshOrReadError) {
  const auto mesh = runs_mesh();
  std::size_t files = 0;
  for (const auto& [mode, options] : kModes) {
    const std::string path = tmp_path("fuzz_src_" + mode + ".ply");
    mpp::write(path, mesh, "ply", options);
    const std::string bytes = slurp(path);
    files += sweep(bytes, "ply", "fuzz_probe.ply", Sweep::xor_each(bytes.size() / 400 + 1, bytes.size() / 120 + 1, {0x01, 0x80, 0x40}).validating()).files;
  }
  EXPECT_GT(files, 1000u);
}

// `n` triangles over the 27 grid points, index i of the flat connectivity (i * a + i / b) % 27.
static mpp::Mesh grid_triangles(std::size_t n, std::size_t a, std::size_t b) {
  mpp::Mesh m;
  m.points = grid_points();
  std::vector<std::int64_t> c(n * 3);
  for (std::size_t i = 0; i < c.size(); ++i) c[i] = static_cast<std::int64_t>((i * a + i / b) % 27);
  m.cells.push_back(mpp::CellBlock::rectangular("triangle", NDArray::from_vector(c, {n, 3})));
  return m;
}

TEST(PlyThreads, BinaryFacesAreTheSameOnAnyThreadCountAndTheFirstBadIndexIsReported) {
  // 200k triangles: several chunks of the parallel fill.
  mpp::Mesh m = grid_triangles(200000, 13, 7);
  m.cells.push_back(rect("quad", 4, 3));
  const std::string path = tmp_path("threads.ply");
  mpp::write(path, m, "ply");
  const auto one = mpp::read(path, "ply", {{"threads", "1"}});
  const auto four = mpp::read(path, "ply", {{"threads", "4"}});
  EXPECT_EQ(compare_meshes(m, one, false), "");
  EXPECT_EQ(compare_meshes(one, four), "");
  // two bad indices, in the third and the first chunk: both thread counts name face 100
  std::string bytes = slurp(path);
  const std::size_t data = bytes.find("end_header\n") + 11 + 27 * 3 * 8;
  for (std::size_t face : {150000u, 100u}) {
    const std::int32_t bad = 99 + static_cast<std::int32_t>(face);
    std::memcpy(&bytes[data + face * 13 + 1 + 4], &bad, 4);
  }
  spit(path, bytes);
  for (const char* t : {"1", "4"}) {
    try {
      mpp::read(path, "ply", {{"threads", t}});
      FAIL() << "no error";
    } catch (const mpp::ReadError& e) {
      EXPECT_NE(std::string(e.what()).find("face 100: vertex index 199 is out of range"), std::string::npos) << e.what();
    }
  }
}

TEST(PlyThreads, FacesOfOneSizeReadInChunksOnAnyThreadCountNameTheFirstBadIndex) {
  // 300k triangles only: the path that reads the records with copy_out, a range per thread.
  const mpp::Mesh m = grid_triangles(300000, 11, 5);
  const std::string path = tmp_path("uniform.ply");
  mpp::write(path, m, "ply", {{"binary", "true"}});
  std::string bytes = slurp(path);
  const std::size_t data = bytes.find("end_header\n") + 11 + 27 * 3 * 8;
  for (const char* t : {"1", "2", "3"}) EXPECT_EQ(compare_meshes(m, mpp::read(path, "ply", {{"threads", t}}), false), "") << t;
  {  // the same file big-endian: every value's bytes reversed
    std::string big = bytes;
    const std::size_t at = big.find("binary_little_endian");
    big.replace(at, 20, "binary_big_endian");
    const std::size_t shift = 3, points = data - 27 * 3 * 8 - shift;
    for (std::size_t v = 0; v < 27 * 3; ++v) std::reverse(&big[points + v * 8], &big[points + v * 8 + 8]);
    for (std::size_t f = 0; f < 300000; ++f)
      for (std::size_t j = 0; j < 3; ++j) std::reverse(&big[data - shift + f * 13 + 1 + j * 4], &big[data - shift + f * 13 + 5 + j * 4]);
    spit(path, big);
    for (const char* t : {"1", "2", "3"}) EXPECT_EQ(compare_meshes(m, mpp::read(path, "ply", {{"threads", t}}), false), "") << t;
  }
  // bad indices in the last and the second range: every thread count names face 140000
  for (std::size_t face : {290000u, 140000u}) {
    const std::int32_t bad = static_cast<std::int32_t>(face);
    std::memcpy(&bytes[data + face * 13 + 1 + 8], &bad, 4);
  }
  spit(path, bytes);
  for (const char* t : {"1", "2", "3"}) {
    try {
      mpp::read(path, "ply", {{"threads", t}});
      FAIL() << "no error";
    } catch (const mpp::ReadError& e) {
      EXPECT_NE(std::string(e.what()).find("face 140000: vertex index 140000 is out of range"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("byte " + std::to_string(data + 140000 * 13 + 1 + 8)), std::string::npos) << e.what();
    }
  }
  // one quad among the triangles, late in the file: read by the general walk, same mesh
  mpp::Mesh mixed = m;
  mixed.cells.push_back(rect("quad", 4, 3));
  mpp::write(path, mixed, "ply", {{"binary", "true"}});
  EXPECT_EQ(compare_meshes(mixed, mpp::read(path, "ply", {{"threads", "2"}}), false), "");
}
