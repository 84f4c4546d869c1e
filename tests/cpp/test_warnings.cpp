// Tests of the per-thread warning list (include/meshioplusplus/warnings.hpp).
#include <gtest/gtest.h>

#include <thread>

#include "meshioplusplus/warnings.hpp"

using namespace meshioplusplus;

TEST(CoreWarnings, TakeReturnsInOrderAndClears) {
  take_warnings();
  warn("first");
  warn("second");
  auto got = take_warnings();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0], "first");
  EXPECT_EQ(got[1], "second");
  EXPECT_TRUE(take_warnings().empty());
}

TEST(CoreWarnings, OtherThreadsDoNotSeeThem) {
  take_warnings();
  warn("main thread");
  std::size_t seen = 99;
  std::thread([&] {
    warn("worker");
    seen = take_warnings().size();
  }).join();
  EXPECT_EQ(seen, 1u);
  auto got = take_warnings();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0], "main thread");
}
