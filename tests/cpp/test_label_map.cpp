// Core LabelMap: file labels (sparse, any order, repeated) to positions, dense and sparse.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "core/label_map.hpp"

using meshioplusplus::LabelMap;

namespace {
std::vector<std::int64_t> range_positions(const LabelMap& m, std::int64_t a, std::int64_t b, std::int64_t s) {
  std::vector<std::int64_t> out;
  m.for_each_in_range(a, b, s, [&](std::int64_t p) { out.push_back(p); });
  return out;
}
}  // namespace

TEST(LabelMap, DenseLabelsInAnyOrder) {
  LabelMap m;
  const auto r = m.build(std::vector<std::int64_t>{5, 3, 4, 10});
  EXPECT_EQ(r.duplicates, 0u);
  EXPECT_EQ(m.find(5), 0);
  EXPECT_EQ(m.find(3), 1);
  EXPECT_EQ(m.find(10), 3);
  EXPECT_EQ(m.find(6), -1);
  EXPECT_EQ(m.find(2), -1);
  EXPECT_EQ(m.find(11), -1);
  EXPECT_EQ(range_positions(m, 1, 10, 2), (std::vector<std::int64_t>{1, 0}));  // labels 3, 5
  EXPECT_EQ(range_positions(m, 4, 100, 3), (std::vector<std::int64_t>{2, 3}));  // labels 4, 10
}

TEST(LabelMap, ConsecutiveLabelsNeedNoTable) {
  LabelMap m;
  m.build(std::vector<std::int64_t>{7, 8, 9, 10});
  EXPECT_EQ(m.table_bytes(), 0u);
  EXPECT_EQ(m.find(7), 0);
  EXPECT_EQ(m.find(10), 3);
  EXPECT_EQ(m.find(6), -1);
  EXPECT_EQ(m.find(11), -1);
  EXPECT_EQ(range_positions(m, 1, 9, 2), (std::vector<std::int64_t>{0, 2}));  // labels 7, 9
  // At the ends of the label range, where a difference of two labels could overflow.
  const std::int64_t lo = std::numeric_limits<std::int64_t>::min(), hi = std::numeric_limits<std::int64_t>::max();
  m.build(std::vector<std::int64_t>{hi - 1, hi});
  EXPECT_EQ(m.table_bytes(), 0u);
  EXPECT_EQ(m.find(hi), 1);
  m.build(std::vector<std::int64_t>{hi, lo});  // not consecutive: sparse
  EXPECT_GT(m.table_bytes(), 0u);
  EXPECT_EQ(m.find(lo), 1);
  EXPECT_EQ(m.find(hi), 0);
  // A later build of other labels uses its own table, not the consecutive rule.
  m.build(std::vector<std::int64_t>{1, 2, 3});
  m.build(std::vector<std::int64_t>{3, 2, 1, 1});
  EXPECT_GT(m.table_bytes(), 0u);
  EXPECT_EQ(m.find(1), 3);
  EXPECT_EQ(m.find(3), 0);
}

TEST(LabelMap, SparseLabelsUseBoundedMemoryAndStillFindEverything) {
  LabelMap m;
  const std::int64_t big = std::numeric_limits<std::int64_t>::max();
  m.build(std::vector<std::int64_t>{1000000000000, 7, big, 42});
  EXPECT_EQ(m.find(7), 1);
  EXPECT_EQ(m.find(big), 2);
  EXPECT_EQ(m.find(1000000000000), 0);
  EXPECT_EQ(m.find(8), -1);
  EXPECT_EQ(range_positions(m, 1, big, 1), (std::vector<std::int64_t>{1, 3, 0, 2}));
  EXPECT_EQ(range_positions(m, 7, big, 35), (std::vector<std::int64_t>{1, 3, 2}));  // 7, 42, big (big - 7 = 35 * 263524915338707880)
  EXPECT_EQ(range_positions(m, 8, 1000000000000, 2), (std::vector<std::int64_t>{3, 0}));  // 42, 1e12
}

TEST(LabelMap, RedefinedLabelsMapToTheLaterDefinition) {
  for (std::vector<std::int64_t> labels : {std::vector<std::int64_t>{1, 2, 1}, std::vector<std::int64_t>{1, 5000000, 1}}) {
    LabelMap m;
    const auto r = m.build(labels);
    EXPECT_EQ(r.duplicates, 1u);
    EXPECT_EQ(r.first_duplicate, 1);
    EXPECT_EQ(m.find(1), 2);
  }
}

TEST(LabelMap, HugeRangesAndStepsNeitherOverflowNorLoopOverTheRange) {
  LabelMap m;
  m.build(std::vector<std::int64_t>{1, 2, 3});
  const std::int64_t big = std::numeric_limits<std::int64_t>::max();
  const std::int64_t low = std::numeric_limits<std::int64_t>::min();
  EXPECT_EQ(range_positions(m, low, big, 1), (std::vector<std::int64_t>{0, 1, 2}));
  EXPECT_EQ(range_positions(m, 1, big, big), (std::vector<std::int64_t>{0}));
  EXPECT_EQ(range_positions(m, 3, 1, 1), (std::vector<std::int64_t>{}));
  EXPECT_EQ(range_positions(m, 1, 3, 0), (std::vector<std::int64_t>{}));
}

TEST(LabelMap, RangeStepsBoundTheWorkOfARange) {
  LabelMap dense, sparse;
  dense.build(std::vector<std::int64_t>{1, 2, 3, 10});
  sparse.build(std::vector<std::int64_t>{5, 1000000000, 7, 9});
  EXPECT_EQ(dense.range_steps(0, 100, 1), 10u);  // labels 1..10 scanned
  EXPECT_EQ(dense.range_steps(2, 3, 1), 2u);
  EXPECT_EQ(dense.range_steps(11, 100, 1), 0u);
  EXPECT_EQ(sparse.range_steps(6, 1000000000, 1), 3u);  // 7, 9, 1e9
  EXPECT_EQ(sparse.range_steps(0, 4, 1), 0u);
}
