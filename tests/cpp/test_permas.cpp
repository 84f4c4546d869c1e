// PERMAS: the hand-written fixtures (tests/data/permas, see its README) with values worked
// out from the input syntax ("$" records, "!" comments, "&" continuation lines), sets as
// regions, skipped records warned with their line, a gzipped deck, round trips over every
// writable type (plain and .gz), malformed input and gzip lies naming the file, and every
// truncated prefix / some corruptions.
#include <gtest/gtest.h>

#include "core/codec/zlib.hpp"
#include "test_vtk_common.hpp"

using namespace vtktest;

namespace {

std::string fixture(const std::string& name) { return data_path("permas", name); }
std::string outcome_of(const std::string& text) { return outcome_of_string(text, "permas", "bad.dato"); }

std::vector<std::int64_t> entries(const mpp::Mesh& m, const std::string& name, mpp::RegionKind kind) {
  const auto* r = region(m, name, kind);
  return r ? ints_of(r->entries) : std::vector<std::int64_t>{-99};
}

std::string gz(const std::string& text) {
  const auto packed = mpp::codec::gzip_compress(text.data(), text.size(), 6);
  return std::string(packed.begin(), packed.end());
}

}  // namespace

TEST(PermasFixtures, ContinuationLines) {
  const auto m = mpp::read(fixture("continuation_lines.dato"));
  EXPECT_EQ(points_of(m), (std::vector<double>{0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0.5, 0.5, 1, 2, 0.5, 0}));
  ASSERT_EQ(m.cells.size(), 3u);
  EXPECT_EQ(m.cells[0].type, "quad");  // "10 1 2 3" then "& 4"
  EXPECT_EQ(ints_of(m.cells[0].connectivity), (std::vector<std::int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(m.cells[1].type, "triangle");  // ended by a trailing '!'
  EXPECT_EQ(ints_of(m.cells[1].connectivity), (std::vector<std::int64_t>{1, 5, 2}));
  EXPECT_EQ(m.cells[2].type, "tetra");  // a row over two lines
  EXPECT_EQ(ints_of(m.cells[2].connectivity), (std::vector<std::int64_t>{0, 1, 3, 4}));
  EXPECT_EQ(entries(m, "ALL_NODES", mpp::RegionKind::point), (std::vector<std::int64_t>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(entries(m, "CORNERS", mpp::RegionKind::point), (std::vector<std::int64_t>{0, 2, 5}));
  EXPECT_EQ(entries(m, "SHELLS", mpp::RegionKind::cell), (std::vector<std::int64_t>{0, 1}));  // ESET = on the record, then $ESET
  EXPECT_EQ(region(m, "SHELLS", mpp::RegionKind::cell)->dim, 2);
  EXPECT_EQ(entries(m, "SOLID", mpp::RegionKind::cell), (std::vector<std::int64_t>{2}));
  ASSERT_EQ(m.regions.size(), 4u);
  EXPECT_EQ(m.regions[0].name, "ALL_NODES");  // in the order their names first appear
  EXPECT_EQ(m.regions[1].name, "SHELLS");
  EXPECT_TRUE(has_warning(m, "$ELEMENT TYPE = SPRING2", "line 22"));
  EXPECT_TRUE(has_warning(m, "$SYSTEM record", "line 29"));
  EXPECT_TRUE(has_warning(m, "$MATERIAL record", "line 32"));
  EXPECT_TRUE(has_warning(m, "$ELASTIC record", "line 33"));
  EXPECT_EQ(m.warnings.size(), 4u);
  m.validate();
}

TEST(PermasFixtures, GzippedDatoInPermasNodeOrder) {
  const auto m = mpp::read(fixture("gzipped.dato.gz"));
  ASSERT_EQ(m.cells.size(), 1u);
  EXPECT_EQ(m.cells[0].type, "tetra10");
  EXPECT_EQ(ints_of(m.cells[0].connectivity), (std::vector<std::int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  EXPECT_EQ(entries(m, "apex", mpp::RegionKind::point), (std::vector<std::int64_t>{3}));
  EXPECT_TRUE(m.warnings.empty());
}

TEST(PermasMalformed, ErrorsNameTheLine) {
  const std::string head = "$COOR\n1 0 0 0\n2 1 0 0\n3 0 1 0\n";
  expect_read_error(outcome_of("$COOR\n1 0 0 0\n2 1 x 0\n"), "line 3", "expected a coordinate, found 'x'");
  expect_read_error(outcome_of("hello\n$COOR\n"), "line 1", "expected a '$' record, found 'hello'");
  expect_read_error(outcome_of(head + "$ELEMENT TYPE=TRIA3\n1 1 2\n"), "expected a node id");
  expect_read_error(outcome_of(head + "$ELEMENT TYPE=TRIA3\n1 1 2 4\n"), "line 6", "refers to node 4, which no $COOR record defines");
  expect_read_error(outcome_of(head + "$ELEMENT ESET = A\n1 1 2 3\n"), "line 5", "'$ELEMENT TYPE = <class>'");
  expect_read_error(outcome_of(head + "$NSET\n1\n"), "line 5", "'$NSET NAME = <name>'");
}

TEST(PermasMalformed, GzipLiesAreReadErrors) {
  const std::string deck = "$COOR\n1 0 0 0\n";
  std::string lie = gz(deck);
  lie[lie.size() - 1] = '\x7f';  // ISIZE: about 2 GiB from a few dozen bytes (zlib checks it)
  expect_read_error(outcome_of(lie), "gzip:", "incorrect length check");
  std::string wrong = gz(deck);
  wrong[wrong.size() - 4] = static_cast<char>(wrong[wrong.size() - 4] + 1);  // one byte more than it holds
  expect_read_error(outcome_of(wrong), "gzip:");
  std::string corrupt = gz(deck);
  corrupt[12] = static_cast<char>(corrupt[12] ^ 0x55);
  expect_read_error(outcome_of(corrupt), "gzip:");
}

namespace {

mpp::Mesh writable_mix() {
  mpp::Mesh m = awkward_mix({
           {"vertex", 1}, {"line", 2}, {"line3", 3}, {"triangle", 3}, {"triangle6", 6}, {"quad", 4}, {"quad8", 8}, {"quad9", 9},
           {"tetra", 4}, {"tetra10", 10}, {"pyramid", 5}, {"wedge", 6}, {"wedge15", 15}, {"hexahedron", 8}, {"hexahedron20", 20},
           {"hexahedron27", 27}});
  m.regions = {mpp::Region{"some_cells", mpp::RegionKind::cell, -1, -1, NDArray::from_vector(std::vector<std::int64_t>{0, 5, 27, 31})},
               mpp::Region{"some_points", mpp::RegionKind::point, -1, -1, NDArray::from_vector(std::vector<std::int64_t>{3, 26})},
               mpp::Region{"sides", mpp::RegionKind::side, -1, 9, NDArray::from_vector(std::vector<std::int64_t>{4, 0}, {1, 2})}};
  return m;
}

}  // namespace

TEST(PermasRoundTrip, EveryWritableTypeWithSetsPlainAndGzipped) {
  const auto mesh = writable_mix();
  for (const char* name : {"rt.dato", "rt.post.gz"}) {
    const std::string path = tmp_path(name);
    mpp::write(path, mesh, "permas");
    auto got = mpp::read(path, "permas");
    EXPECT_TRUE(got.warnings.empty());
    mpp::Mesh expected = mesh;
    expected.regions.clear();
    got.regions.swap(expected.regions);
    EXPECT_EQ(compare_meshes(expected, got), "");
    ASSERT_EQ(expected.regions.size(), 2u);  // the side region has no PERMAS form
    EXPECT_EQ(ints_of(region(expected, "some_cells", mpp::RegionKind::cell)->entries), (std::vector<std::int64_t>{0, 5, 27, 31}));
    EXPECT_EQ(ints_of(region(expected, "some_points", mpp::RegionKind::point)->entries), (std::vector<std::int64_t>{3, 26}));
  }
  EXPECT_EQ(slurp(tmp_path("rt.post.gz")).substr(0, 2), "\x1f\x8b");
}

TEST(PermasWrite, BytesDoNotDependOnTheThreadCount) {
  mpp::Mesh m;
  m.points = many_points(100000);               // several chunks of $COOR lines
  m.cells.push_back(rect("tetra", 4, 100000));  // and of element lines
  m.cells.push_back(rect("wedge15", 15, 40000, 3));
  EXPECT_EQ(thread_counts_changing_bytes(m, "permas", ".dato"), "");
  EXPECT_EQ(compare_meshes(m, mpp::read(tmp_path("threads8.dato"), "permas")), "");
}

TEST(PermasWrite, Refusals) {
  mpp::Mesh m;
  m.points = grid_points();
  m.cells.push_back(rect("pyramid13", 13, 1));
  EXPECT_THROW(mpp::write(tmp_path("r.dato"), m, "permas"), mpp::WriteError);
  m.cells = {rect("tetra", 4, 1)};
  m.regions = {mpp::Region{"a b", mpp::RegionKind::cell, -1, 1, NDArray::from_vector(std::vector<std::int64_t>{0})}};
  EXPECT_THROW(mpp::write(tmp_path("r.dato"), m, "permas"), mpp::WriteError);
  EXPECT_THROW(mpp::write(tmp_path("r.dato"), m, "permas", {{"binary", "true"}}), std::invalid_argument);
}

TEST(PermasFuzz, EveryPrefixAndCorruptionIsAMeshOrReadError) {
  std::size_t files = 0;
  std::vector<std::string> sources = {slurp(fixture("continuation_lines.dato"))};
  const std::string rt = tmp_path("fuzz_src.dato");
  mpp::write(rt, writable_mix(), "permas");
  sources.push_back(slurp(rt));
  for (const std::string& bytes : sources)
    files += sweep(bytes, "permas", "fuzz_probe.dato",
                   Sweep::set_each(bytes.size() / 200 + 1, bytes.size() / 80 + 1, {'$', '1', '\n', ' ', '&', '!', '='}).validating())
                 .files;
  const std::string gzipped = slurp(fixture("gzipped.dato.gz"));
  files += sweep(gzipped, "permas", "fuzz_probe.dato.gz", Sweep::xor_each(1, 1, {0x01, 0x80})).files;
  EXPECT_GT(files, 1000u);
}
