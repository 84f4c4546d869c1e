// The zlib engines (src/core/codec/zlib.hpp): zlib, libdeflate and ISA-L make standard
// zlib streams that every other engine reads, at every level, and report the same faults
// (a block longer or shorter than declared, a cut or corrupt stream) as errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "core/codec/zlib.hpp"

namespace codec = meshioplusplus::codec;

namespace {

std::vector<unsigned char> mesh_like_bytes(std::size_t n_values) {
  std::vector<unsigned char> out(n_values * 8);
  std::mt19937_64 rng(11);
  for (std::size_t i = 0; i < n_values; ++i) {
    // Alternating runs: small increasing ids, then noisy doubles (both kinds VTU holds).
    const double d = (i / 1000) % 2 ? static_cast<double>(rng() % 100000) * 1e-3 : 0.0;
    const std::int64_t id = static_cast<std::int64_t>(i / 3);
    std::memcpy(out.data() + i * 8, (i / 1000) % 2 ? static_cast<const void*>(&d) : static_cast<const void*>(&id), 8);
  }
  return out;
}

std::string engines_label(codec::ZlibEngine w, codec::ZlibEngine r, int level, bool rle) {
  return codec::zlib_engine_name(w) + " -> " + codec::zlib_engine_name(r) + " level " + std::to_string(level) +
         (rle ? " rle" : "");
}

TEST(ZlibEngines, ThisBuildHasTheFastEnginesItWasConfiguredWith) {
  const auto engines = codec::zlib_engines();
  ASSERT_FALSE(engines.empty());
  EXPECT_TRUE(codec::zlib_available());
  auto has = [&](codec::ZlibEngine e) { return std::find(engines.begin(), engines.end(), e) != engines.end(); };
  // The measured choice (bench/micro): libdeflate inflates and deflates fastest of the
  // deterministic engines; zlib only when it is not built in.
  const auto fast_inflate = has(codec::ZlibEngine::libdeflate) ? codec::ZlibEngine::libdeflate
                            : has(codec::ZlibEngine::isal)     ? codec::ZlibEngine::isal
                                                               : codec::ZlibEngine::zlib;
  EXPECT_EQ(codec::zlib_inflate_engine(), fast_inflate);
  // Deflate never through ISA-L by default (its output can depend on the thread's earlier calls).
  for (int level : {1, 3, 9})
    EXPECT_EQ(codec::zlib_compress_engine(level, level == 1),
              has(codec::ZlibEngine::libdeflate) ? codec::ZlibEngine::libdeflate : codec::ZlibEngine::zlib);
  EXPECT_TRUE(has(codec::ZlibEngine::zlib));
}

TEST(ZlibEngines, EveryEngineReadsEveryEnginesStreamsAtEveryLevel) {
  const auto data = mesh_like_bytes(50000);
  for (auto writer : codec::zlib_engines())
    for (int level : {0, 1, 3, -1, 9})
      for (bool rle : {false, true}) {
        const auto packed = codec::zlib_compress_with(writer, data.data(), data.size(), level, rle);
        ASSERT_GE(packed.size(), 6u);
        EXPECT_EQ(packed[0] & 0x0f, 8) << "CM=8 (deflate) in the zlib header";
        EXPECT_EQ(((packed[0] << 8) | packed[1]) % 31, 0) << "zlib header check bits";
        if (level != 0) {
          EXPECT_LT(packed.size(), data.size()) << engines_label(writer, writer, level, rle);
        }
        for (auto reader : codec::zlib_engines()) {
          std::vector<unsigned char> out(data.size(), 0xAB);
          EXPECT_EQ(codec::zlib_inflate_with(reader, packed.data(), packed.size(), out.data(), out.size()), "")
              << engines_label(writer, reader, level, rle);
          EXPECT_EQ(out, data) << engines_label(writer, reader, level, rle);
        }
      }
}

TEST(ZlibEngines, EmptyBlocksRoundTrip) {
  for (auto writer : codec::zlib_engines()) {
    const auto packed = codec::zlib_compress_with(writer, nullptr, 0, 6);
    for (auto reader : codec::zlib_engines()) {
      unsigned char sentinel = 0x5A;
      EXPECT_EQ(codec::zlib_inflate_with(reader, packed.data(), packed.size(), &sentinel, 0), "")
          << engines_label(writer, reader, 6, false);
      EXPECT_EQ(sentinel, 0x5A);
    }
  }
}

TEST(ZlibEngines, EveryEngineReportsTheSameSizeFaultsAndWritesNothingPastTheBlock) {
  const auto data = mesh_like_bytes(4000);
  const auto packed = codec::zlib_compress(data.data(), data.size(), 6);
  for (auto reader : codec::zlib_engines()) {
    const std::string name = codec::zlib_engine_name(reader);
    // Declared shorter than the stream: nothing written past the declared size.
    std::vector<unsigned char> small(data.size() / 2 + 16, 0xCD);
    const std::string longer = codec::zlib_inflate_with(reader, packed.data(), packed.size(), small.data(), data.size() / 2);
    EXPECT_NE(longer.find("decompresses to more than the " + std::to_string(data.size() / 2) + " bytes"), std::string::npos)
        << name << ": " << longer;
    for (std::size_t i = data.size() / 2; i < small.size(); ++i) ASSERT_EQ(small[i], 0xCD) << name << " wrote past the block";
    // Declared longer than the stream.
    std::vector<unsigned char> big(data.size() + 100);
    const std::string shorter = codec::zlib_inflate_with(reader, packed.data(), packed.size(), big.data(), big.size());
    EXPECT_NE(shorter.find("the header declares " + std::to_string(big.size())), std::string::npos) << name << ": " << shorter;
  }
}

TEST(ZlibEngines, EveryEngineRejectsCutAndCorruptStreams) {
  const auto data = mesh_like_bytes(20000);
  const auto packed = codec::zlib_compress(data.data(), data.size(), 6);
  auto corrupt = packed;
  ASSERT_GT(packed.size(), 6u);
  corrupt.at(corrupt.size() - 2) ^= 0x40;  // the Adler-32 check
  auto garbage = packed;
  for (std::size_t i = 2; i < garbage.size(); i += 7) garbage[i] ^= 0x5B;
  for (auto reader : codec::zlib_engines()) {
    const std::string name = codec::zlib_engine_name(reader);
    std::vector<unsigned char> out(data.size());
    EXPECT_NE(codec::zlib_inflate_with(reader, packed.data(), packed.size() / 2, out.data(), out.size()), "") << name << " cut";
    EXPECT_NE(codec::zlib_inflate_with(reader, packed.data(), 1, out.data(), out.size()), "") << name << " one byte";
    EXPECT_NE(codec::zlib_inflate_with(reader, corrupt.data(), corrupt.size(), out.data(), out.size()), "") << name << " adler";
    EXPECT_NE(codec::zlib_inflate_with(reader, garbage.data(), garbage.size(), out.data(), out.size()), "") << name << " garbage";
  }
}

TEST(ZlibEngines, LevelsOutsideZlibsRangeAreRejected) {
  const unsigned char byte = 1;
  for (auto e : codec::zlib_engines()) {
    EXPECT_THROW(codec::zlib_compress_with(e, &byte, 1, 10), std::invalid_argument);
    EXPECT_THROW(codec::zlib_compress_with(e, &byte, 1, -2), std::invalid_argument);
  }
}

}  // namespace

namespace {

// Files are byte-identical whatever the thread count (VTU's promise): an engine's output
// may depend on the input and level only, never on what the same thread compressed before
// (ISA-L and libdeflate keep per-thread state between calls).
TEST(ZlibEngines, OutputDependsOnTheInputOnlyNotOnEarlierCalls) {
  const auto data = mesh_like_bytes(30000);
  std::vector<unsigned char> other(data.rbegin(), data.rend());
  for (auto& b : other) b ^= 0x3C;
  for (auto e : codec::zlib_engines())
    for (int level : {1, 3, -1}) {
      std::vector<unsigned char> first;
      std::thread([&] { first = codec::zlib_compress_with(e, data.data(), data.size(), level); }).join();
      for (int round = 0; round < 3; ++round) {
        codec::zlib_compress_with(e, other.data(), other.size() / (round + 1), level);
        EXPECT_EQ(codec::zlib_compress_with(e, data.data(), data.size(), level), first)
            << codec::zlib_engine_name(e) << " level " << level << " round " << round;
      }
    }
}

}  // namespace
