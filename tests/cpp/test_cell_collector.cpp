// Core CellCollector: element rows gathered per type, blocks in file order, labels resolved.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/cell_collector.hpp"
#include "core/label_map.hpp"

using meshioplusplus::CellCollector;
using meshioplusplus::LabelMap;

namespace {
void add(CellCollector& c, std::string_view type, std::vector<std::int64_t> labels, std::size_t offset) {
  std::int64_t* row = c.add(type, labels.size(), offset);
  for (std::size_t i = 0; i < labels.size(); ++i) row[i] = labels[i];
}
// "type label @offset" of the label blocks() finds undefined first (it throws there), or "".
std::string first_missing(CellCollector& c, const std::vector<std::int64_t>& node_labels) {
  LabelMap nodes;
  nodes.build(node_labels);
  std::string seen;
  try {
    c.blocks(nodes, [&](std::string_view type, std::int64_t label, std::size_t offset) {
      seen = std::string(type) + " " + std::to_string(label) + " @" + std::to_string(offset);
      throw std::runtime_error(seen);
    });
  } catch (const std::runtime_error&) {
  }
  return seen;
}
std::vector<std::int64_t> values(const meshioplusplus::NDArray& a) {
  const std::int64_t* p = a.data<std::int64_t>();
  return {p, p + a.size()};
}
}  // namespace

TEST(CellCollector, EachChangeOfTypeStartsARun) {
  CellCollector c;
  add(c, "triangle", {10, 20, 30}, 0);
  add(c, "triangle", {20, 30, 40}, 7);
  add(c, "line", {10, 40}, 14);
  add(c, "triangle", {30, 40, 10}, 21);
  ASSERT_EQ(c.runs().size(), 3u);
  EXPECT_EQ(c.rows(), 4u);
  EXPECT_EQ(c.runs()[2].type, "triangle");
  EXPECT_EQ(c.runs()[2].first, 3u);  // the file's fourth row

  LabelMap nodes;
  nodes.build(std::vector<std::int64_t>{40, 30, 20, 10});  // positions 0..3
  auto blocks = c.blocks(nodes, [](std::string_view, std::int64_t, std::size_t) { throw std::runtime_error("missing"); });
  ASSERT_EQ(blocks.size(), 3u);
  EXPECT_EQ(blocks[0].type, "triangle");
  EXPECT_EQ(blocks[0].first, 0u);
  EXPECT_EQ(blocks[0].count, 2u);
  EXPECT_EQ(blocks[0].connectivity.shape(), (meshioplusplus::NDArray::Shape{2, 3}));
  EXPECT_EQ(values(blocks[0].connectivity), (std::vector<std::int64_t>{3, 2, 1, 2, 1, 0}));
  EXPECT_EQ(blocks[1].type, "line");
  EXPECT_EQ(blocks[1].first, 2u);
  EXPECT_EQ(values(blocks[1].connectivity), (std::vector<std::int64_t>{3, 0}));
  EXPECT_EQ(blocks[2].type, "triangle");
  EXPECT_EQ(blocks[2].first, 3u);
  EXPECT_EQ(values(blocks[2].connectivity), (std::vector<std::int64_t>{1, 0, 3}));
}

TEST(CellCollector, MissingLabelNamesTypeLabelAndRowOffset) {
  CellCollector c;
  add(c, "line", {1, 2}, 0);
  add(c, "line", {2, 99}, 42);
  EXPECT_EQ(first_missing(c, {1, 2}), "line 99 @42");
}

// Offsets are kept as variable-length distances: rows more than 4 GB apart (a deck with a
// huge comment between two elements), rows of a piece appended from another thread, and a
// missing label in each of them still name their exact offset.
TEST(CellCollector, MissingLabelOffsetsSurviveFarRowsAndAppendedPieces) {
  const std::size_t far = std::size_t{1} << 33;
  for (std::size_t bad = 0; bad < 6; ++bad) {
    const std::size_t offsets[] = {5, 9, far + 1, far + 3, 2 * far, 2 * far + 8};
    CellCollector first, second;
    for (std::size_t row = 0; row < 6; ++row)
      add(row < 3 ? first : second, "line", {1, row == bad ? 99 : 2}, offsets[row]);
    first.append(std::move(second));
    ASSERT_EQ(first.runs().size(), 1u);
    EXPECT_EQ(first_missing(first, {1, 2}), "line 99 @" + std::to_string(offsets[bad])) << "row " << bad;
  }
}

// Distances on each side of every width of the encoding (1, 2, 3 bytes and more), and a row
// before the one it follows (kept aside): each row's offset comes back exact.
TEST(CellCollector, MissingLabelOffsetsAtEveryDistanceWidth) {
  const std::size_t gaps[] = {0, 1, 125, 126, 127, 128, 16381, 16382, 16383, 16384, 2097150, 2097151, 2097152, 5};
  std::vector<std::size_t> offsets{100};
  for (std::size_t g : gaps) offsets.push_back(offsets.back() + g);
  offsets.push_back(40);  // before its previous row
  offsets.push_back(41);
  for (std::size_t bad = 0; bad < offsets.size(); ++bad) {
    CellCollector c;
    for (std::size_t row = 0; row < offsets.size(); ++row) add(c, "line", {1, row == bad ? 99 : 2}, offsets[row]);
    EXPECT_EQ(first_missing(c, {1, 2}), "line 99 @" + std::to_string(offsets[bad])) << "row " << bad;
  }
}

TEST(CellCollector, EmptyGivesNoBlocks) {
  CellCollector c;
  LabelMap nodes;
  nodes.build(std::vector<std::int64_t>{});
  EXPECT_TRUE(c.empty());
  EXPECT_TRUE(c.blocks(nodes, [](std::string_view, std::int64_t, std::size_t) {}).empty());
}

// Runs of two types interleave at lengths small and large: the buffers regrow many times,
// and the 40000-quad run (1.28 MB of labels) moves into a mapping of its own on the way.
// Every block holds its own rows, in order, and the rows are taken once.
TEST(CellCollector, RunsOfEveryLengthResolveInOrderAndAreTakenOnce) {
  CellCollector c;
  std::vector<std::int64_t> node_labels;
  for (std::int64_t i = 0; i < 1000; ++i) node_labels.push_back(1000 - i);  // label 1000 - i at position i
  LabelMap nodes;
  nodes.build(node_labels);
  std::vector<std::vector<std::int64_t>> expected;  // per run, the positions
  std::size_t row = 0;
  const std::size_t lengths[] = {1, 63, 64, 65, 127, 128, 500, 1, 2047, 3000, 64, 9000, 7, 40000, 3};
  for (std::size_t r = 0; r < std::size(lengths); ++r) {
    const bool tri = r % 2 == 0;
    expected.emplace_back();
    for (std::size_t i = 0; i < lengths[r]; ++i, ++row) {
      const std::size_t k = tri ? 3 : 4;
      std::int64_t* out = c.add(tri ? "triangle" : "quad", k, row * 10);
      for (std::size_t j = 0; j < k; ++j) {
        const std::int64_t position = static_cast<std::int64_t>((row * 7 + j * 13) % 1000);
        out[j] = 1000 - position;
        expected.back().push_back(position);
      }
    }
  }
  EXPECT_EQ(c.rows(), row);
  auto missing = [](std::string_view, std::int64_t, std::size_t) { throw std::runtime_error("missing"); };
  auto blocks = c.blocks(nodes, missing);
  ASSERT_EQ(blocks.size(), std::size(lengths));
  std::size_t first = 0;
  for (std::size_t r = 0; r < blocks.size(); ++r) {
    EXPECT_EQ(blocks[r].type, r % 2 == 0 ? "triangle" : "quad");
    EXPECT_EQ(blocks[r].first, first);
    EXPECT_EQ(blocks[r].count, lengths[r]);
    EXPECT_EQ(values(blocks[r].connectivity), expected[r]) << "run " << r;
    first += lengths[r];
  }
  EXPECT_EQ(c.rows(), row);  // counts stay after the rows are taken
  EXPECT_THROW(c.blocks(nodes, missing), std::logic_error);
#ifdef __linux__
  // The large run's labels became its connectivity: no copy, the mapping kept alive by it.
  EXPECT_FALSE(blocks[13].connectivity.owns_data());
  EXPECT_TRUE(blocks[13].connectivity.keep_alive());
#endif
  EXPECT_TRUE(blocks[0].connectivity.owns_data());  // small runs are copied into an array
}

// A label no node defines, in a row of a large (mapped) run, is named with that row's offset.
TEST(CellCollector, MissingLabelInALargeRunNamesItsRow) {
  CellCollector c;
  for (std::size_t i = 0; i < 50000; ++i) add(c, "line", {1, i == 43210 ? 7 : 2}, 100 + i);
  EXPECT_EQ(first_missing(c, {1, 2}), "line 7 @43310");
}

// With a buffer allocator installed, every block comes from it, large runs included.
TEST(CellCollector, BlocksComeFromAnInstalledAllocator) {
  struct Count {
    std::size_t allocations = 0;
  } count;
  meshioplusplus::BufferAllocator counting{
      [](std::size_t n, void* user) -> void* {
        ++static_cast<Count*>(user)->allocations;
        return std::malloc(n);
      },
      [](void* p, std::size_t, void*) { std::free(p); }, &count};
  meshioplusplus::set_buffer_allocator(&counting);
  std::vector<CellCollector::Block> blocks;
  {
    CellCollector c;
    for (std::int64_t i = 0; i < 40000; ++i) add(c, "quad", {1, 2, 3, 4}, 0);
    add(c, "line", {1, 2}, 0);
    LabelMap nodes;
    nodes.build(std::vector<std::int64_t>{1, 2, 3, 4});
    blocks = c.blocks(nodes, [](std::string_view, std::int64_t, std::size_t) { throw std::runtime_error("missing"); });
  }
  meshioplusplus::set_buffer_allocator(static_cast<const meshioplusplus::BufferAllocator*>(nullptr));
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_EQ(count.allocations, 2u);
  for (const auto& b : blocks) EXPECT_TRUE(b.connectivity.owns_data() && b.connectivity.buffer()->allocator());
  EXPECT_EQ(values(blocks[0].connectivity)[159999], 3);
}
