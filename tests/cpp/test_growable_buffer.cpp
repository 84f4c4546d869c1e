// Core GrowableBuffer: appended bytes survive every growth (heap, the move into a mapping,
// mremap), copies are independent, take() hands the bytes over once with the shape checked.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>

#include "core/growable_buffer.hpp"

using meshioplusplus::DType;
using meshioplusplus::GrowableBuffer;

TEST(GrowableBuffer, ValuesSurviveEveryGrowthAndTakeHandsThemOver) {
  GrowableBuffer b;
  constexpr std::int64_t n = 300000;  // 2.4 MB: past kMapFrom
  bool was_heap = false;
  for (std::int64_t i = 0; i < n; ++i) {
    b.push(i * 3 - 7);
    if (i == 1000) was_heap = !b.mapped();
  }
  EXPECT_TRUE(was_heap);
#ifdef __linux__
  EXPECT_TRUE(b.mapped());
#endif
  ASSERT_EQ(b.size(), static_cast<std::size_t>(n) * 8);
  GrowableBuffer copy = b;  // its own storage
  b.as<std::int64_t>()[5] = 42;
  EXPECT_EQ(copy.as<std::int64_t>()[5], 8);
  EXPECT_THROW(b.take(DType::int64, {static_cast<std::size_t>(n), 2}), std::logic_error);
  const char* bytes = copy.data();
  const auto a = copy.take(DType::int64, {static_cast<std::size_t>(n) / 4, 4});
#ifdef __linux__
  EXPECT_EQ(a.raw(), static_cast<const void*>(bytes));  // handed over, not copied
#endif
  EXPECT_EQ(copy.size(), 0u);
  const std::int64_t* v = a.data<std::int64_t>();
  for (std::int64_t i = 0; i < n; i += 9973) ASSERT_EQ(v[i], i * 3 - 7) << i;
  EXPECT_EQ(v[n - 1], (n - 1) * 3 - 7);
  const auto small = GrowableBuffer().take(DType::int64, {0, 3});  // nothing appended
  EXPECT_EQ(small.size(), 0u);
}

// Joining pieces: every byte of the consumed buffer lands after the receiver's, whether it
// was on the heap or mapped (copied a piece at a time, its pages given back as it goes,
// 4 MB pieces and a partial last one), and the consumed buffer is left empty.
TEST(GrowableBuffer, AppendConsumingKeepsEveryByteInOrder) {
  for (const std::int64_t m : {std::int64_t{100}, std::int64_t{1300000}}) {  // heap; mapped, 10.4 MB
    GrowableBuffer head, tail;
    for (std::int64_t i = 0; i < 5000; ++i) head.push(i);
    for (std::int64_t i = 0; i < m; ++i) tail.push(-i - 1);
    tail.append_consuming(GrowableBuffer());  // nothing to append: a no-op
    ASSERT_EQ(tail.size(), static_cast<std::size_t>(m) * 8);
    head.append_consuming(std::move(tail));
    EXPECT_EQ(tail.size(), 0u);
    ASSERT_EQ(head.size(), static_cast<std::size_t>(5000 + m) * 8);
    const std::int64_t* v = head.as<std::int64_t>();
    for (std::int64_t i = 0; i < 5000; ++i) ASSERT_EQ(v[i], i) << i;
    for (std::int64_t i = 0; i < m; ++i) ASSERT_EQ(v[5000 + i], -i - 1) << i;
    GrowableBuffer empty;  // an empty receiver takes the buffer over
    empty.append_consuming(std::move(head));
    EXPECT_EQ(empty.size(), static_cast<std::size_t>(5000 + m) * 8);
    EXPECT_EQ(empty.as<std::int64_t>()[5000], -1);
  }
}

// A mapped buffer is populated a step at a time ahead of the writes: values pushed one by
// one across many steps, a truncation back into populated pages and pushes after it keep
// every byte, and take() hands over exactly the bytes written.
TEST(GrowableBuffer, PushesAcrossPopulateStepsAndTruncationKeepEveryValue) {
  GrowableBuffer b;
  const std::int64_t n = 500000;  // 4 MB: mapped, dozens of steps
  for (std::int64_t i = 0; i < n; ++i) b.push(i * 3);
  ASSERT_TRUE(b.mapped());
  b.truncate(static_cast<std::size_t>(n / 2) * 8);
  for (std::int64_t i = n / 2; i < n + 1000; ++i) b.push(-i);
  ASSERT_EQ(b.size(), static_cast<std::size_t>(n + 1000) * 8);
  const meshioplusplus::NDArray a = b.take(DType::int64, {static_cast<std::size_t>(n + 1000)});
  const std::int64_t* v = a.data<std::int64_t>();
  for (std::int64_t i = 0; i < n / 2; ++i) ASSERT_EQ(v[i], i * 3) << i;
  for (std::int64_t i = n / 2; i < n + 1000; ++i) ASSERT_EQ(v[i], -i) << i;
}
