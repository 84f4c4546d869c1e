// Core CellCollector: element rows gathered per type, blocks in file order, labels resolved.
#include <gtest/gtest.h>

#include <cstdint>
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
std::vector<std::int64_t> values(const meshioplusplus::NDArray& a) {
  const std::int64_t* p = a.data<std::int64_t>();
  return {p, p + a.size()};
}
}  // namespace

TEST(CellCollector, RunsInFileOrderShareOneSlotPerType) {
  CellCollector c;
  add(c, "triangle", {10, 20, 30}, 0);
  add(c, "triangle", {20, 30, 40}, 7);
  add(c, "line", {10, 40}, 14);
  add(c, "triangle", {30, 40, 10}, 21);
  ASSERT_EQ(c.slots().size(), 2u);
  ASSERT_EQ(c.runs().size(), 3u);
  EXPECT_EQ(c.rows(), 4u);
  EXPECT_EQ(c.runs()[2].slot, 0u);
  EXPECT_EQ(c.runs()[2].first, 2u);  // the triangle slot's third row

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
  LabelMap nodes;
  nodes.build(std::vector<std::int64_t>{1, 2});
  std::string seen;
  EXPECT_THROW(c.blocks(nodes,
                        [&](std::string_view type, std::int64_t label, std::size_t offset) {
                          seen = std::string(type) + " " + std::to_string(label) + " @" + std::to_string(offset);
                          throw std::runtime_error(seen);
                        }),
               std::runtime_error);
  EXPECT_EQ(seen, "line 99 @42");
}

TEST(CellCollector, EmptyGivesNoBlocks) {
  CellCollector c;
  LabelMap nodes;
  nodes.build(std::vector<std::int64_t>{});
  EXPECT_TRUE(c.empty());
  EXPECT_TRUE(c.blocks(nodes, [](std::string_view, std::int64_t, std::size_t) {}).empty());
}
