// io::parallel_rows (core): rows cut at line starts cover every row once, in order; too few
// rows or one thread leave the parse to the caller; a wrong cut (rows not one per line) is
// detected.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/io/parallel_rows.hpp"

namespace mpp = meshioplusplus;

TEST(IoParallelRows, CutsAtLinesAndRefusesAWrongCut) {
  // 100000 rows "i\n": each piece sums its rows; the pieces must cover every row once.
  const std::size_t n = 100000;
  std::string text;
  for (std::size_t i = 0; i < n; ++i) text += std::to_string(i) + "\n";
  std::vector<std::uint64_t> got(n, 0);
  auto parse = [&](const char* p, std::size_t r0, std::size_t r1) {
    for (std::size_t r = r0; r < r1; ++r) {
      std::uint64_t v = 0;
      if (!mpp::io::parse_uint(p, text.data() + text.size(), v)) throw mpp::ReadError("bad");
      got[r] = v;
    }
    return p;
  };
  const char* end = mpp::io::parallel_rows(text.data(), text.data() + text.size(), n, 4, parse);
  ASSERT_NE(end, nullptr);
  EXPECT_EQ(end, text.data() + text.size() - 1);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(got[i], i);
  // Too few rows or one thread: the caller parses.
  EXPECT_EQ(mpp::io::parallel_rows(text.data(), text.data() + text.size(), 100, 4, parse), nullptr);
  EXPECT_EQ(mpp::io::parallel_rows(text.data(), text.data() + text.size(), n, 1, parse), nullptr);
  // Two rows per line: the cut lands mid-way, detected.
  std::string joined;
  for (std::size_t i = 0; i < n; ++i) joined += std::to_string(i) + (i % 2 ? "\n" : " ");
  text = joined;
  EXPECT_EQ(mpp::io::parallel_rows(text.data(), text.data() + text.size(), n, 4, parse), nullptr);
}
