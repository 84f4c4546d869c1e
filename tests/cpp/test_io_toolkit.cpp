// Core I/O toolkit: the one cursor (text and binary reads, bounds, error positions), the
// array writer (every dtype as text, both byte orders as binary) and the threads option.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/io/array_writer.hpp"
#include "core/io/cursor.hpp"
#include "core/io/file.hpp"
#include "meshioplusplus/format.hpp"

namespace mpp = meshioplusplus;
namespace io = meshioplusplus::io;

namespace {

std::string read_file(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// What write_ascii / write_binary put in a file, through the real AtomicFile.
template <class F> std::string written(F&& emit) {
  const auto path = std::filesystem::temp_directory_path() / "mpp_io_toolkit_out.txt";
  {
    io::AtomicFile f(path.string(), "test");
    io::TextWriter w(f);
    emit(w);
    w.flush();
    f.commit();
  }
  std::string out = read_file(path);
  std::filesystem::remove(path);
  return out;
}

}  // namespace

TEST(Cursor, TextTokensNumbersAndLines) {
  io::Cursor c("  12 -3.5e2\nname rest of line\n+7 42", "test", "f.txt");
  EXPECT_EQ(c.number<int>("count"), 12);
  EXPECT_DOUBLE_EQ(c.number<double>("x"), -350.0);
  EXPECT_EQ(c.line(), "");
  EXPECT_EQ(c.token(), "name");
  EXPECT_EQ(c.line(), " rest of line");
  EXPECT_EQ(c.number<int>("plus"), 7);
  EXPECT_EQ(c.index("index"), 42u);
  EXPECT_TRUE(c.at_end());
}

TEST(Cursor, ErrorsNameFormatFileLineByteAndFound) {
  io::Cursor c("1 2\n3 x4\n", "test", "f.txt");
  c.number<int>("a"), c.number<int>("b"), c.number<int>("c");
  try {
    c.number<int>("node tag");
    FAIL() << "no error";
  } catch (const mpp::ReadError& e) {
    EXPECT_STREQ(e.what(), "test: f.txt: line 2 (byte 6): expected node tag, found 'x4'");
  }
  io::Cursor d("12a", "test", "f.txt");
  EXPECT_THROW(d.index("index"), mpp::ReadError);
}

TEST(Cursor, BinaryLoadsInBothByteOrders) {
  const unsigned char bytes[] = {0x01, 0x02, 0x03, 0x04, 0x01, 0x02, 0x03, 0x04};
  io::Cursor c(std::string_view(reinterpret_cast<const char*>(bytes), sizeof bytes), "test", "f.bin");
  c.set_little_endian(true);
  EXPECT_EQ(c.load<std::uint32_t>("le"), 0x04030201u);
  c.set_little_endian(false);
  EXPECT_EQ(c.load<std::uint32_t>("be"), 0x01020304u);
  EXPECT_TRUE(c.at_end());
  EXPECT_THROW(c.load<std::uint8_t>("past end"), mpp::ReadError);
}

TEST(Cursor, ReadArraySwapsAndChecksBoundsBeforeCopying) {
  const std::uint16_t be[] = {0x0100, 0x0200, 0x0300};  // 1, 2, 3 stored big-endian on a little-endian host
  io::Cursor c(std::string_view(reinterpret_cast<const char*>(be), sizeof be), "test", "f.bin");
  c.set_little_endian(!io::host_is_little_endian());
  std::uint16_t out[3] = {};
  c.read_array(out, 3, "values");
  EXPECT_EQ(out[0], 1);
  EXPECT_EQ(out[2], 3);
  io::Cursor d(std::string_view(reinterpret_cast<const char*>(be), sizeof be), "test", "f.bin");
  std::uint16_t big[4] = {7, 7, 7, 7};
  EXPECT_THROW(d.read_array(big, 4, "values"), mpp::ReadError);
  EXPECT_EQ(big[0], 7) << "nothing is copied when the bytes are short";
  EXPECT_EQ(d.offset(), 0u);
}

TEST(Cursor, NeedRejectsCountsTheBytesCannotHold) {
  io::Cursor c("1 2 3 4", "test", "f.txt");
  EXPECT_NO_THROW(c.need(3, 2, "values"));
  try {
    c.need(1000000000000ull, 2, "nodes");
    FAIL() << "no error";
  } catch (const mpp::ReadError& e) {
    EXPECT_NE(std::string(e.what()).find("declared 1000000000000 nodes but only 7 bytes remain"), std::string::npos);
  }
  EXPECT_THROW(c.seek(8), mpp::ReadError);
  EXPECT_NO_THROW(c.seek(7));
}

TEST(ArrayWriter, AsciiEveryDtypeWithLayout) {
  const auto f32 = mpp::NDArray::from_vector<float>({0.1f, 2.5f, -3.0f, 1e-7f}, {2, 2});
  EXPECT_EQ(written([&](io::TextWriter& w) { io::write_ascii(w, f32, {}); }), "0.1 2.5\n-3 1e-07\n");
  const auto i8 = mpp::NDArray::from_vector<std::int8_t>({-1, 65, 7});
  EXPECT_EQ(written([&](io::TextWriter& w) { io::write_ascii(w, i8, {}, {2, ",", false}); }), "-1,65\n7");
  const auto f64 = mpp::NDArray::from_vector<double>({1.0 / 3.0, 2.0});
  EXPECT_EQ(written([&](io::TextWriter& w) { io::write_ascii(w, f64, io::FloatFormat::parse(".3e"), {0, " ", true}); }),
            "3.333e-01\n2.000e+00\n");
  const auto u64 = mpp::NDArray::from_vector<std::uint64_t>({18446744073709551615ull});
  EXPECT_EQ(written([&](io::TextWriter& w) { io::write_ascii(w, u64, {}); }), "18446744073709551615\n");
}

TEST(ArrayWriter, BinaryBothByteOrdersLeavesTheSourceAlone) {
  const auto a = mpp::NDArray::from_vector<std::uint32_t>({0x01020304u, 0x05060708u});
  const std::string little = written([&](io::TextWriter& w) { io::write_binary(w, a, true); });
  const std::string big = written([&](io::TextWriter& w) { io::write_binary(w, a, false); });
  ASSERT_EQ(little.size(), 8u);
  EXPECT_EQ(static_cast<unsigned char>(little[0]), 0x04);
  EXPECT_EQ(static_cast<unsigned char>(big[0]), 0x01);
  EXPECT_EQ(static_cast<unsigned char>(big[7]), 0x08);
  EXPECT_EQ(a.data<std::uint32_t>()[0], 0x01020304u);
}

TEST(OptionReader, ThreadsIsAcceptedByEveryFormatAndValidated) {
  mpp::Options opts{{"threads", "3"}};
  mpp::OptionReader r(opts, "test");
  EXPECT_EQ(r.threads(), 3u);
  EXPECT_NO_THROW(r.finish());
  mpp::Options bad{{"threads", "-2"}};
  EXPECT_THROW(mpp::OptionReader(bad, "test"), std::invalid_argument);
  mpp::Options none;
  EXPECT_GE(mpp::OptionReader(none, "test").threads(), 1u);
}

// A library that writes by path writes the temporary file; commit() renames it over the
// target, and an uncommitted AtomicFile leaves an existing target untouched.
TEST(AtomicFile, TempPathIsWhatCommitRenames) {
  const auto dir = std::filesystem::temp_directory_path() / "mpp_atomic_temp_path";
  std::filesystem::create_directories(dir);
  const auto target = dir / "out.bin";
  { std::ofstream(target) << "old"; }
  {
    io::AtomicFile f(target.string(), "test");
    EXPECT_EQ(std::filesystem::path(f.temp_path()).parent_path(), dir);
    std::ofstream(f.temp_path(), std::ios::trunc) << "by path";
  }  // not committed
  EXPECT_EQ(read_file(target), "old");
  {
    io::AtomicFile f(target.string(), "test");
    std::ofstream(f.temp_path(), std::ios::trunc) << "by path";
    f.commit();
  }
  EXPECT_EQ(read_file(target), "by path");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1);
  std::filesystem::remove_all(dir);
}
