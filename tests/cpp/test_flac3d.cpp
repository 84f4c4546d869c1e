// FLAC3D grid: the hand-made fixtures (tests/data/flac3d, see its README) with values worked
// out from the Itasca grid format and meshio's binary layout (every zone shape in FLAC3D's
// node order, faces, zone and face groups as regions), skipped records warned with their
// line, round trips in ASCII and binary (zones written right-handed), malformed input and
// binary count lies naming the file, and every truncated prefix / some corruptions.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

#include "test_vtk_common.hpp"

using namespace vtktest;

namespace {

std::string fixture(const std::string& name) { return data_path("flac3d", name); }
std::string outcome_of(const std::string& text) { return outcome_of_string(text, "flac3d", "bad.f3grid"); }

std::vector<std::int64_t> entries(const mpp::Mesh& m, const std::string& name) {
  const auto* r = region(m, name, mpp::RegionKind::cell);
  return r ? ints_of(r->entries) : std::vector<std::int64_t>{-99};
}

}  // namespace

TEST(Flac3dFixtures, FaceGroupsAscii) {
  const auto m = mpp::read(fixture("face_groups.f3grid"));
  EXPECT_EQ(m.num_points(), 12u);
  // Faces first, then zones (meshio's order); FLAC3D's node orders put in VTK's.
  const std::vector<std::pair<std::string, std::vector<std::int64_t>>> expected = {
      {"triangle", {4, 5, 11}},
      {"quad", {0, 1, 5, 4}},
      {"hexahedron", {0, 1, 3, 2, 4, 5, 7, 6}},  // B8 1 2 3 5 4 7 6 8: the unit cube in VTK's order
      {"wedge", {1, 8, 5, 3, 9, 10}},
      {"tetra", {4, 5, 6, 11}},
      {"pyramid", {4, 5, 11, 6, 7}},
      {"hexahedron", {0, 1, 3, 2, 4, 5, 5, 6}},  // B7: the last gridpoint twice
  };
  ASSERT_EQ(m.cells.size(), expected.size());
  for (std::size_t b = 0; b < expected.size(); ++b) {
    EXPECT_EQ(m.cells[b].type, expected[b].first) << b;
    EXPECT_EQ(ints_of(m.cells[b].connectivity), expected[b].second) << b;
  }
  std::vector<std::int64_t> ids;
  for (const auto& a : m.cell_data.at("cell_ids")) ids.push_back(ints_of(a)[0]);
  EXPECT_EQ(ids, (std::vector<std::int64_t>{7, 8, 102, 103, 104, 105, 106}));  // zone ids + 2 faces
  ASSERT_EQ(m.regions.size(), 3u);
  EXPECT_EQ(m.regions[0].name, "face:top:bc");  // face groups first
  EXPECT_EQ(entries(m, "face:top:bc"), (std::vector<std::int64_t>{0, 1}));
  EXPECT_EQ(entries(m, "zone:rock:1"), (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(entries(m, "zone:soil layer:Default"), (std::vector<std::int64_t>{4, 5}));
  EXPECT_EQ(region(m, "zone:rock:1")->dim, 3);
  EXPECT_TRUE(has_warning(m, "record GPGROUP", "line 33"));
  EXPECT_TRUE(has_warning(m, "zone group 'soil layer' (line 27) lists 1 zones"));
  EXPECT_EQ(m.warnings.size(), 2u);
  m.validate();
}

TEST(Flac3dFixtures, BinaryWithFaces) {
  const auto m = mpp::read(fixture("binary_with_faces.f3grid"));
  EXPECT_EQ(m.num_points(), 9u);
  ASSERT_EQ(m.cells.size(), 4u);
  EXPECT_EQ(m.cells[0].type, "triangle");
  EXPECT_EQ(ints_of(m.cells[0].connectivity), (std::vector<std::int64_t>{4, 5, 8}));
  EXPECT_EQ(m.cells[1].type, "quad");
  EXPECT_EQ(m.cells[2].type, "hexahedron");
  EXPECT_EQ(ints_of(m.cells[2].connectivity), (std::vector<std::int64_t>{0, 1, 3, 2, 4, 5, 7, 6}));
  EXPECT_EQ(m.cells[3].type, "tetra");
  EXPECT_EQ(entries(m, "face:bottom:bc"), (std::vector<std::int64_t>{1}));
  EXPECT_EQ(entries(m, "zone:all:Default"), (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(ints_of(m.cell_data.at("cell_ids")[3]), (std::vector<std::int64_t>{13}));
  EXPECT_TRUE(m.warnings.empty());
}

TEST(Flac3dRead, CommasAndNoFaceSection) {
  const auto m = read_string("G 1, 0, 0, 0\nG 2,1,0,0\nG 3 0 1 0\nG 4 0 0 1\nZ T4 1 1 2 3 4\nZGROUP g\n 1\n", "flac3d", "c.f3grid");
  ASSERT_EQ(m.cells.size(), 1u);
  EXPECT_EQ(doubles_of(m.points)[3], 1.0);
  EXPECT_EQ(entries(m, "zone:g:Default"), (std::vector<std::int64_t>{0}));  // a bare name, no SLOT
  // A binary file that ends after its zone groups has no faces.
  std::string bin;
  auto u32 = [&](std::uint32_t v) { bin.append(reinterpret_cast<const char*>(&v), 4); };
  auto f64 = [&](double v) { bin.append(reinterpret_cast<const char*>(&v), 8); };
  u32(1375135718u), u32(3), u32(4);
  for (std::uint32_t i = 0; i < 4; ++i) u32(i + 1), f64(i == 1), f64(i == 2), f64(i == 3);
  u32(1), u32(1), u32(4), u32(1), u32(2), u32(3), u32(4), u32(0);
  const auto b = read_string(bin, "flac3d", "nofaces.f3grid");
  ASSERT_EQ(b.cells.size(), 1u);
  EXPECT_EQ(b.cells[0].type, "tetra");
}

// The same grid as ASCII records and as meshio's binary layout: zones whose shapes alternate
// (T4, B8, T4, B7, B8: one block per run), sparse ids in no order, faces, zone and face
// groups. The two readers (ASCII records resolved at the end, binary records decoded run by
// run into their blocks) must give the same mesh; an unknown gridpoint is named at its
// record in either.
namespace {

struct Rec {
  std::uint32_t id;
  std::vector<std::uint32_t> gps;
};
const std::vector<Rec> kZones = {{10, {1, 2, 3, 5}}, {3, {1, 2, 4, 3, 5, 6, 8, 7}}, {7, {2, 4, 3, 6}},
                                 {20, {1, 2, 4, 3, 5, 6, 8}}, {1, {1, 2, 4, 3, 5, 6, 8, 7}}};
const std::vector<Rec> kFaces = {{5, {1, 2, 3}}, {2, {1, 2, 4, 3}}, {9, {5, 6, 7}}};

std::string ascii_grid(std::uint32_t bad_gp = 0) {
  std::string s = "* the same grid as binary_grid()\n";
  for (std::uint32_t i = 1; i <= 8; ++i)
    s += "G " + std::to_string(i) + " " + std::to_string(i & 1) + " " + std::to_string((i >> 1) & 1) + " " + std::to_string((i >> 2) & 1) + "\n";
  auto records = [&](char key, const std::vector<Rec>& recs) {
    for (std::size_t r = 0; r < recs.size(); ++r) {
      const auto& [id, gps] = recs[r];
      static const std::map<std::size_t, std::string> zone_names = {{4, "T4"}, {7, "B7"}, {8, "B8"}}, face_names = {{3, "T3"}, {4, "Q4"}};
      s += std::string(1, key) + " " + (key == 'Z' ? zone_names : face_names).at(gps.size()) + " " + std::to_string(id);
      for (std::size_t j = 0; j < gps.size(); ++j) s += " " + std::to_string(bad_gp && key == 'Z' && r == 2 && j == 1 ? bad_gp : gps[j]);
      s += "\n";
    }
  };
  records('Z', kZones);
  records('F', kFaces);
  s += "ZGROUP \"rock\" SLOT Default\n 3 20 1\nZGROUP \"top\" SLOT Default\n 7\nFGROUP \"wall\" SLOT Default\n 9 5\n";
  return s;
}

std::string binary_grid(std::uint32_t bad_gp = 0) {
  std::string b;
  auto u32 = [&](std::uint32_t v) { b.append(reinterpret_cast<const char*>(&v), 4); };
  auto u16 = [&](std::uint16_t v) { b.append(reinterpret_cast<const char*>(&v), 2); };
  auto f64 = [&](double v) { b.append(reinterpret_cast<const char*>(&v), 8); };
  u32(1375135718u), u32(3), u32(8);
  for (std::uint32_t i = 1; i <= 8; ++i) u32(i), f64(i & 1), f64((i >> 1) & 1), f64((i >> 2) & 1);
  auto section = [&](const std::vector<Rec>& recs, const std::vector<std::pair<std::string, std::vector<std::uint32_t>>>& groups, bool zone) {
    u32(static_cast<std::uint32_t>(recs.size()));
    for (std::size_t r = 0; r < recs.size(); ++r) {
      u32(recs[r].id), u32(static_cast<std::uint32_t>(recs[r].gps.size()));
      for (std::size_t j = 0; j < recs[r].gps.size(); ++j) u32(bad_gp && zone && r == 2 && j == 1 ? bad_gp : recs[r].gps[j]);
    }
    u32(static_cast<std::uint32_t>(groups.size()));
    for (const auto& [name, ids] : groups) {
      u16(static_cast<std::uint16_t>(name.size())), b += name, u16(7), b += "Default", u32(static_cast<std::uint32_t>(ids.size()));
      for (auto id : ids) u32(id);
    }
  };
  section(kZones, {{"rock", {3, 20, 1}}, {"top", {7}}}, true);
  section(kFaces, {{"wall", {9, 5}}}, false);
  return b;
}

}  // namespace

TEST(Flac3dRead, AsciiAndBinaryOfOneGridReadAlike) {
  const auto a = read_string(ascii_grid(), "flac3d", "grid.f3grid");
  const auto b = read_string(binary_grid(), "flac3d", "grid_bin.f3grid");
  EXPECT_TRUE(a.warnings.empty());
  EXPECT_TRUE(b.warnings.empty());
  EXPECT_EQ(doubles_of(a.points), doubles_of(b.points));
  // Faces (triangle, quad, triangle), then the zones' runs: tetra, hexahedron, tetra, hexahedron (B7 and B8).
  std::vector<std::string> types;
  for (const auto& c : b.cells) types.push_back(c.type);
  EXPECT_EQ(types, (std::vector<std::string>{"triangle", "quad", "triangle", "tetra", "hexahedron", "tetra", "hexahedron"}));
  ASSERT_EQ(a.cells.size(), b.cells.size());
  for (std::size_t i = 0; i < a.cells.size(); ++i) {
    EXPECT_EQ(a.cells[i].type, b.cells[i].type) << i;
    EXPECT_EQ(ints_of(a.cells[i].connectivity), ints_of(b.cells[i].connectivity)) << i;
    EXPECT_EQ(ints_of(a.cell_data.at("cell_ids")[i]), ints_of(b.cell_data.at("cell_ids")[i])) << i;
  }
  // The B7 zone (gridpoints 1 2 4 3 5 6 8) and the B8 after it (1 2 4 3 5 6 8 7): the same
  // hexahedron but for the B8's eighth gridpoint (7, position 6), where the B7 repeats its
  // seventh (8, position 7).
  EXPECT_EQ(ints_of(b.cells[6].connectivity), (std::vector<std::int64_t>{0, 1, 4, 3, 2, 7, 7, 5, 0, 1, 4, 3, 2, 7, 6, 5}));
  EXPECT_EQ(ints_of(b.cell_data.at("cell_ids")[6]), (std::vector<std::int64_t>{23, 4}));  // zone ids + 3 faces
  for (const auto* m : {&a, &b}) {
    EXPECT_EQ(entries(*m, "zone:rock:Default"), (std::vector<std::int64_t>{4, 6, 7}));
    EXPECT_EQ(entries(*m, "zone:top:Default"), (std::vector<std::int64_t>{5}));
    EXPECT_EQ(entries(*m, "face:wall:Default"), (std::vector<std::int64_t>{0, 2}));
  }
  expect_read_error(outcome_of(ascii_grid(42)), "line 12", "the zone refers to gridpoint 42, which no G record defines");
  // Binary: the third zone record starts after the header (12), 8 gridpoints (28 each), the
  // zone count (4) and two records (24 and 40 bytes).
  expect_read_error(outcome_of(binary_grid(42)), "byte " + std::to_string(12 + 8 * 28 + 4 + 24 + 40), "refers to gridpoint 42");
}

TEST(Flac3dMalformed, ErrorsNameTheLineOrByte) {
  const std::string gps = "G 1 0 0 0\nG 2 1 0 0\nG 3 0 1 0\nG 4 0 0 1\n";
  expect_read_error(outcome_of("G 1 0 0 0\nG 2 1 x 0\n"), "line 2", "expected a coordinate, found 'x'");
  expect_read_error(outcome_of(gps + "Z T4 1 1 2 3\n"), "line 5", "'Z <type> id' and 4 to 8 gridpoint ids");
  expect_read_error(outcome_of(gps + "Z T4 1 1 2 3 9\n"), "line 5", "refers to gridpoint 9, which no G record defines");
  expect_read_error(outcome_of(gps + "ZGROUP \"open\n 1\n"), "line 5", "a closing quote");
  expect_read_error(outcome_of(gps + "ZGROUP \"g\" SLAT 1\n 1\n"), "line 5", "'SLOT <slot>'");
  std::string bin;
  auto u32 = [&](std::uint32_t v) { bin.append(reinterpret_cast<const char*>(&v), 4); };
  u32(1375135718u), u32(3), u32(1000000);
  expect_read_error(outcome_of(bin), "declared 1000000 gridpoints", "bytes remain");
  std::string zones = bin.substr(0, 8);
  zones.append(std::string("\0\0\0\0", 4));  // no gridpoints
  zones.append(std::string("\x01\0\0\0\x01\0\0\0\x09\0\0\0", 12));  // a zone of 9 gridpoints
  zones.append(std::string(40, '\0'));
  expect_read_error(outcome_of(zones), "byte 16", "a zone of 4 to 8 gridpoints");
}

namespace {

mpp::Mesh zones_and_faces() {
  // Right-handed and mirrored zones of each shape, two faces, and groups.
  mpp::Mesh m;
  std::vector<double> p;  // the 3x3x3 grid, jittered so that no four points are coplanar
  const auto g = doubles_of(grid_points());
  for (std::size_t i = 0; i < g.size(); ++i) p.push_back(g[i] + 0.01 * std::sin(1.7 * static_cast<double>(i * i) + 0.3));
  m.points = NDArray::from_vector(p, {27, 3});
  m.cells.push_back(mpp::CellBlock::rectangular("triangle", NDArray::from_vector(std::vector<std::int64_t>{0, 1, 2, 2, 1, 3}, {2, 3})));
  m.cells.push_back(rect("tetra", 4, 3, 4));
  m.cells.push_back(rect("hexahedron", 8, 2, 8));
  m.cells.push_back(rect("wedge", 6, 2, 6));
  m.cells.push_back(rect("pyramid", 5, 2, 5));
  m.cells.push_back(mpp::CellBlock::rectangular("quad", NDArray::from_vector(std::vector<std::int64_t>{0, 1, 3, 2}, {1, 4})));
  m.regions = {mpp::Region{"zone:rock:1", mpp::RegionKind::cell, 3, -1, NDArray::from_vector(std::vector<std::int64_t>{2, 5, 7})},
               mpp::Region{"mixed", mpp::RegionKind::cell, -1, -1, NDArray::from_vector(std::vector<std::int64_t>{0, 4, 11})}};
  return m;
}

// A cell's nodes as a sorted list: orientation aside, the same cell.
std::vector<std::vector<std::int64_t>> node_sets(const mpp::Mesh& m, const std::string& type) {
  std::vector<std::vector<std::int64_t>> out;
  for (const auto& b : m.cells) {
    if (b.type != type) continue;
    const auto v = ints_of(b.connectivity);
    const std::size_t k = static_cast<std::size_t>(b.nodes_per_cell());
    for (std::size_t i = 0; i < b.size(); ++i) {
      std::vector<std::int64_t> row(v.begin() + static_cast<std::ptrdiff_t>(i * k), v.begin() + static_cast<std::ptrdiff_t>((i + 1) * k));
      std::sort(row.begin(), row.end());
      out.push_back(row);
    }
  }
  return out;
}

}  // namespace

TEST(Flac3dRoundTrip, AsciiAndBinaryKeepCellsAndGroups) {
  const auto mesh = zones_and_faces();
  std::string ascii, binary;
  for (const bool bin : {false, true}) {
    const std::string path = tmp_path(bin ? "rt_bin.f3grid" : "rt_ascii.f3grid");
    mpp::write(path, mesh, "flac3d", {{"binary", bin ? "true" : "false"}});
    (bin ? binary : ascii) = slurp(path);
    const auto got = mpp::read(path, "flac3d");
    EXPECT_TRUE(got.warnings.empty());
    EXPECT_EQ(points_of(got), points_of(mesh));
    for (const char* t : {"triangle", "quad", "tetra", "hexahedron", "wedge", "pyramid"}) EXPECT_EQ(node_sets(got, t), node_sets(mesh, t)) << t;
    // Faces come first on reading: triangles 0-1, quad 2, then the zones in block order.
    EXPECT_EQ(entries(got, "zone:rock:1"), (std::vector<std::int64_t>{3, 6, 8}));
    EXPECT_EQ(entries(got, std::string("zone:mixed:") + (bin ? "Default" : "1")), (std::vector<std::int64_t>{5}));
    EXPECT_EQ(entries(got, std::string("face:mixed:") + (bin ? "Default" : "1")), (std::vector<std::int64_t>{0, 2}));
    // Written right-handed: reading what we wrote and writing it again changes nothing.
    const std::string again = tmp_path("rt_again.f3grid");
    mpp::write(again, got, "flac3d", {{"binary", bin ? "true" : "false"}});
    const auto twice = mpp::read(again, "flac3d");
    for (std::size_t b = 0; b < got.cells.size(); ++b)
      EXPECT_EQ(ints_of(twice.cells[b].connectivity), ints_of(got.cells[b].connectivity)) << b;
  }
  EXPECT_NE(ascii.find("\nZ T4 1 "), std::string::npos);
  EXPECT_EQ(std::memcmp(binary.data(), "\xe6\xe7\xf6\x51\x03\0\0\0", 8), 0);
}

TEST(Flac3dWrite, BytesDoNotDependOnTheThreadCount) {
  mpp::Mesh m;
  m.points = many_points(100000);               // several chunks of gridpoint rows
  m.cells.push_back(rect("tetra", 4, 100000));  // and of zone rows (both orientations)
  m.cells.push_back(rect("triangle", 3, 40000, 5));
  for (const char* binary : {"false", "true"}) {
    const std::string suffix = std::string("_") + binary + ".f3grid";
    EXPECT_EQ(thread_counts_changing_bytes(m, "flac3d", suffix, {{"binary", binary}}), "") << binary;
    const auto back = mpp::read(tmp_path("threads8" + suffix), "flac3d");
    ASSERT_EQ(back.cells.size(), 2u);
    EXPECT_EQ(back.cells[0].size(), 40000u);  // faces first, as meshio reads them
    EXPECT_EQ(back.cells[1].size(), 100000u);
  }
}

// A large ASCII grid (read in pieces on several threads) with group member lines, a skipped
// record's numbers and comments between records. Cut or damaged at many places, it reads to
// the same mesh and warnings, or fails with the same error, on 1 and on 4 threads (and,
// under `make test-sanitize`, no piece reads outside its bytes).
TEST(Flac3dRead, LargeAsciiInPiecesMatchesOneThreadWhenCutOrDamaged) {
  std::string text = "* a large grid\n\n";
  const int points = 12000;
  for (int i = 1; i <= points; ++i)
    text += "G " + std::to_string(i) + " " + std::to_string(i * 0.5) + " 1.25 " + std::to_string(i % 17) + "\n";
  for (int z = 1; z <= 30000; ++z) {
    const int a = z % (points - 4) + 1;
    text += "Z T4 " + std::to_string(z);
    for (int j = 0; j < 4; ++j) text += " " + std::to_string(a + j);
    text += "\n";
    if (z % 5000 == 17) {
      text += "GPGROUP 'skipped' SLOT 1\n";
      for (int l = 0; l < 100; ++l) text += "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20\n";
    }
    if (z % 9000 == 3) {
      text += "* members follow\nZGROUP 'g" + std::to_string(z) + "' SLOT 1\n";
      for (int l = 0; l < 200; ++l) text += std::to_string(l + 1) + " " + std::to_string(l + 2) + " " + std::to_string(l + 3) + "\n";
    }
  }
  ASSERT_GT(text.size(), std::size_t{1} << 20);
  auto outcome = [](const std::string& path, const char* threads, mpp::Mesh& mesh) {
    try {
      mesh = mpp::read(path, "flac3d", {{"threads", threads}});
      return std::string("mesh");
    } catch (const mpp::ReadError& e) {
      return std::string("ReadError: ") + e.what();
    }
  };
  auto same_on_1_and_4 = [&](const std::string& bytes, const std::string& what) {
    const std::string path = tmp_path("large_pieces.f3grid");
    spit(path, bytes);
    mpp::Mesh one, four;
    const std::string a = outcome(path, "1", one), b = outcome(path, "4", four);
    EXPECT_EQ(a, b) << what;
    if (a == "mesh" && b == "mesh") {
      EXPECT_EQ(compare_meshes(one, four), "") << what;
      EXPECT_EQ(one.warnings, four.warnings) << what;
    }
    return a;
  };
  EXPECT_EQ(same_on_1_and_4(text, "whole"), "mesh");
  for (std::size_t k = 1; k <= 10; ++k) {
    const std::size_t at = text.size() * k / 11 + 37 * k;
    same_on_1_and_4(text.substr(0, at), "cut at " + std::to_string(at));
    std::string damaged = text;
    damaged[at] = '#';
    same_on_1_and_4(damaged, "damaged at " + std::to_string(at));
  }
}

TEST(Flac3dWrite, Refusals) {
  mpp::Mesh m;
  m.points = grid_points();
  m.cells.push_back(rect("tetra10", 10, 1));
  EXPECT_THROW(mpp::write(tmp_path("r.f3grid"), m, "flac3d"), mpp::WriteError);
  m.cells = {rect("line", 2, 1)};
  EXPECT_THROW(mpp::write(tmp_path("r.f3grid"), m, "flac3d"), mpp::WriteError);
  m.cells = {rect("tetra", 4, 1)};
  m.regions = {mpp::Region{"a\"b", mpp::RegionKind::cell, -1, 1, NDArray::from_vector(std::vector<std::int64_t>{0})}};
  EXPECT_THROW(mpp::write(tmp_path("r.f3grid"), m, "flac3d"), mpp::WriteError);
  EXPECT_NO_THROW(mpp::write(tmp_path("r.f3grid"), m, "flac3d", {{"binary", "true"}}));  // binary names are counted, not quoted
}

TEST(Flac3dFuzz, EveryPrefixAndCorruptionIsAMeshOrReadError) {
  std::size_t files = 0;
  const std::string ascii = slurp(fixture("face_groups.f3grid"));
  files += sweep(ascii, "flac3d", "fuzz_probe.f3grid", Sweep::set_each(1, 3, {'Z', '1', '\n', ' ', '"', '*'}).validating()).files;
  const std::string bin = slurp(fixture("binary_with_faces.f3grid"));
  files += sweep(bin, "flac3d", "fuzz_probe.f3grid", Sweep::xor_each(1, 1, {0x01, 0x80, 0xff}).validating()).files;
  const std::string rt = tmp_path("fuzz_src.f3grid");
  mpp::write(rt, zones_and_faces(), "flac3d", {{"binary", "true"}});
  const std::string rbin = slurp(rt);
  files += sweep(rbin, "flac3d", "fuzz_probe.f3grid", Sweep::xor_each(3, 2, {0x40, 0xff}).validating()).files;
  EXPECT_GT(files, 1000u);
}
