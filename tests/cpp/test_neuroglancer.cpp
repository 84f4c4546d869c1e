// Neuroglancer precomputed mesh: the byte layout (hand-built bytes), round trips, 2-D
// points, indices out of range, tails that are not whole triangles, counts that lie, the
// writer's skipped blocks, and every truncated prefix / some corruptions.
#include <gtest/gtest.h>

#include <cstring>

#include "test_vtk_common.hpp"

using namespace vtktest;

namespace {

template <class T> void put(std::string& out, T v) {
  char b[sizeof(T)];
  std::memcpy(b, &v, sizeof v);  // the test host is little-endian (x86-64, aarch64)
  out.append(b, sizeof b);
}

// n vertices (i, 2i, 0.5) and the given triangles.
std::string fragment(std::uint32_t n, const std::vector<std::uint32_t>& tri) {
  std::string out;
  put<std::uint32_t>(out, n);
  for (std::uint32_t i = 0; i < n; ++i) put<float>(out, float(i)), put<float>(out, float(2 * i)), put<float>(out, 0.5f);
  for (std::uint32_t v : tri) put<std::uint32_t>(out, v);
  return out;
}

std::string outcome_of(const std::string& bytes) { return outcome_of_string(bytes, "neuroglancer", "outcome"); }

}  // namespace

TEST(NeuroglancerRead, TheLegacyLayout) {
  const auto m = read_string(fragment(4, {0, 1, 2, 2, 3, 0}), "neuroglancer", "frag");
  EXPECT_EQ(m.points.dtype(), mpp::DType::float32);
  EXPECT_EQ(doubles_of(m.points), (std::vector<double>{0, 0, 0.5, 1, 2, 0.5, 2, 4, 0.5, 3, 6, 0.5}));
  ASSERT_EQ(m.cells.size(), 1u);
  EXPECT_EQ(m.cells[0].type, "triangle");
  EXPECT_EQ(ints_of(m.cells[0].connectivity), (std::vector<std::int64_t>{0, 1, 2, 2, 3, 0}));
}

TEST(NeuroglancerRoundTrip, TrianglesAndTwoDimensionalPoints) {
  mpp::Mesh m;
  m.points = NDArray::from_vector<double>({0, 0, 1, 0, 0, 1, 1, 1}, {4, 2});
  m.cells.push_back(mpp::CellBlock::rectangular("triangle", i64({0, 1, 2}, {1, 3})));
  m.cells.push_back(mpp::CellBlock::rectangular("line", i64({0, 3}, {1, 2})));
  m.cells.push_back(mpp::CellBlock::rectangular("triangle", i64({1, 3, 2}, {1, 3})));
  const std::string path = tmp_path("rt_frag");
  mpp::write(path, m, "neuroglancer");
  // The bytes of the layout: z = 0 added, the line skipped, the triangles in block order.
  EXPECT_EQ(slurp(path), [&] {
    std::string want;
    put<std::uint32_t>(want, 4);
    for (float v : {0.f, 0.f, 0.f, 1.f, 0.f, 0.f, 0.f, 1.f, 0.f, 1.f, 1.f, 0.f}) put<float>(want, v);
    for (std::uint32_t v : {0u, 1u, 2u, 1u, 3u, 2u}) put<std::uint32_t>(want, v);
    return want;
  }());
  const auto back = mpp::read(path, "neuroglancer");
  EXPECT_EQ(ints_of(back.cells[0].connectivity), (std::vector<std::int64_t>{0, 1, 2, 1, 3, 2}));
}

TEST(NeuroglancerMalformed, ErrorsNameTheByte) {
  expect_read_error(outcome_of(fragment(3, {0, 1, 3})), "vertex index 3 is outside [0, 3)", "byte");
  expect_read_error(outcome_of(fragment(3, {0, 1, 2}) + "xy"), "not a multiple of 12");
  expect_read_error(outcome_of(fragment(3, {0, 1, 2}).substr(0, 20)), "declared 3 vertices but only 16 bytes remain");
  expect_read_error(outcome_of("ab"), "truncated the vertex count");
  std::string lie = fragment(3, {0, 1, 2});
  lie[3] = '\x7f';  // 2^30 + 3 vertices
  expect_read_error(outcome_of(lie), "vertices but only");
  EXPECT_EQ(outcome_of(fragment(0, {})), "mesh");
}

TEST(NeuroglancerFuzz, EveryPrefixAndCorruptionIsAMeshOrReadError) {
  const std::size_t files =
      sweep(fragment(4, {0, 1, 2, 2, 3, 0}), "neuroglancer", "fuzz_probe", Sweep::xor_each(1, 1, {0x01, 0x10, 0x80}).validating()).files;
  EXPECT_GT(files, 300u);
}
