// Core I/O toolkit: the one cursor (text and binary reads, bounds, error positions), the
// array writer (every dtype as text, both byte orders as binary), the threads option,
// write_rows' ordered hand-off and AtomicFile's background flush.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "test_support.hpp"
#include "core/codec/base64.hpp"
#include "core/io/array_writer.hpp"
#include "core/io/cursor.hpp"
#include "core/io/decode.hpp"
#include "core/io/file.hpp"
#include "core/io/parallel_text.hpp"
#include "core/io/text_writer.hpp"
#include "meshioplusplus/format.hpp"
#include "meshioplusplus/mesh.hpp"

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
  const std::filesystem::path path = testsupport::tmp_path("io_toolkit_out.txt");  // this process's own folder
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

TEST(Cursor, SkipSpaceAndCommentsStopsAtTheNextValue) {
  io::Cursor c("# a comment\n  \n# another 1 2\n 3 # trailing 4\n#\n5#x", "test", "f.txt");
  c.skip_space_and_comments('#');
  EXPECT_EQ(c.number<int>("first"), 3);
  c.skip_space_and_comments('#');
  EXPECT_EQ(c.token(), "5#x");  // a marker inside a token is not a comment start
  c.skip_space_and_comments('#');
  EXPECT_TRUE(c.at_end());
  io::Cursor only("#only a comment", "test", "f.txt");
  only.skip_space_and_comments('#');
  EXPECT_TRUE(only.at_end());
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

std::string failure(const std::function<void()>& f) {
  try {
    f();
  } catch (const mpp::ReadError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Cursor, WordsOfALineWithoutCrossingIt) {
  io::Cursor c("POINTS  3\tfloat \r\n0 1", "test", "f.txt");
  std::string_view w[2];
  EXPECT_EQ(c.words(w, 2), 2u);  // a third word is dropped, the line is consumed
  EXPECT_EQ(w[0], "POINTS");
  EXPECT_EQ(w[1], "3");
  EXPECT_EQ(c.number<int>("x"), 0);
  std::string_view none[1];
  io::Cursor blank("   \nX", "test", "f.txt");
  EXPECT_EQ(blank.words(none, 1), 0u);
  EXPECT_EQ(blank.token(), "X");
}

TEST(Cursor, CountsAreCappedAndProductsChecked) {
  io::Cursor c("x", "test", "f.txt");
  EXPECT_EQ(c.count("281474976710656", "a count", c.ptr()), io::kMaxCount);
  EXPECT_NE(failure([&] { c.count("281474976710657", "a count", c.ptr()); }).find("expected a count, found '281474976710657'"),
            std::string::npos);
  EXPECT_NE(failure([&] { c.count("-1", "a count", c.ptr()); }).find("expected a count"), std::string::npos);
  EXPECT_EQ(c.product(io::kMaxCount, 3, "POINTS", c.ptr()), 3 * io::kMaxCount);
  EXPECT_NE(failure([&] { c.product(io::kMaxCount, io::kMaxCount, "FIELD", c.ptr()); }).find("FIELD: 281474976710656 x 281474976710656"),
            std::string::npos);
  EXPECT_TRUE(io::fits(3, 2, 6));
  EXPECT_FALSE(io::fits(4, 2, 7));
  EXPECT_TRUE(io::fits(~0ull, 0, 0));
}

TEST(Cursor, TextValuesAndTheirBounds) {
  io::Cursor c("1 2 3\n-4", "test", "f.txt");
  std::int64_t v[4];
  c.text_values(v, 4, "values");  // the last value may end the text
  EXPECT_EQ(v[3], -4);
  io::Cursor short_text("1 2", "test", "f.txt");
  EXPECT_NE(failure([&] { short_text.text_values(v, 3, "values"); }).find("declared 3 values but only 3 bytes remain"), std::string::npos);
  io::Cursor spaced("1      2", "test", "f.txt");  // fits by bytes, but holds two values
  EXPECT_NE(failure([&] { spaced.text_values(v, 3, "values"); }).find("the values end after 2 of 3 values"), std::string::npos);
  std::uint8_t b[2];
  io::Cursor bytes("255 256", "test", "f.txt");
  const std::string msg = failure([&] { bytes.text_values(b, 2, "values"); });
  EXPECT_NE(msg.find("found '256'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("byte 4"), std::string::npos) << msg;
}

TEST(Cursor, AWindowKeepsTheFilePositions) {
  const std::string text = "<a>\n<b>1 2 x</b>";
  io::Cursor c(text, "test", "f.xml");
  const char* from = text.data() + text.find('1');
  io::Cursor w = c.window(from, text.data() + text.find("</b>"));
  EXPECT_EQ(w.number<int>("v"), 1);
  EXPECT_EQ(w.number<int>("v"), 2);
  const std::string msg = failure([&] { w.number<int>("a number"); });
  EXPECT_NE(msg.find("f.xml: line 2 (byte 11): expected a number, found 'x'"), std::string::npos) << msg;
  w.token();
  EXPECT_TRUE(w.at_end());  // the window ends before "</b>"
  EXPECT_THROW(c.window(from, text.data() + text.size() + 1), mpp::ReadError);
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

TEST(Cursor, NextFieldSplitsCommaSeparatedDecks) {
  std::string_view rest = " 12, -3.5 ,,name\t,";
  EXPECT_EQ(io::next_field(rest), "12");
  EXPECT_EQ(io::next_field(rest), "-3.5");
  EXPECT_EQ(io::next_field(rest), "");
  EXPECT_EQ(io::next_field(rest), "name");
  EXPECT_EQ(rest, "");  // the trailing separator leaves an empty rest
  std::int64_t i = 0;
  double d = 0;
  EXPECT_TRUE(io::parse_field(std::string_view("+7"), i));
  EXPECT_EQ(i, 7);
  EXPECT_FALSE(io::parse_field(std::string_view("7x"), i));
  EXPECT_FALSE(io::parse_field(std::string_view(""), i));
  EXPECT_TRUE(io::parse_field(std::string_view("1.e3"), d));
  EXPECT_DOUBLE_EQ(d, 1000.0);
}

TEST(TextWriter, MaxWidthKeepsShortestWhenItFitsAndCutsDigitsWhenNot) {
  io::FloatFormat ff;
  ff.max_width = 20;
  const std::string out = written([&](io::TextWriter& w) {
    w.real(0.5, ff).ch(' ').real(-1.2345678901234567e-05, ff).ch(' ').real(-1.2345678901234567e-300, ff);
  });
  EXPECT_EQ(out, "0.5 -1.2345678901235e-05 -1.234567890123e-300");
  std::istringstream in(out);
  double a = 0, b = 0, c = 0;
  in >> a >> b >> c;
  EXPECT_EQ(a, 0.5);
  EXPECT_NEAR(b / -1.2345678901234567e-05, 1.0, 1e-13);
  EXPECT_NEAR(c / -1.2345678901234567e-300, 1.0, 1e-12);
}

// parse_real: the opt-in spellings (Fortran 'D' exponents, Nastran's implicit exponent)
// and that the plain path is unchanged when they are off.
TEST(ParseReal, OptInSpellings) {
  auto parse = [](std::string_view s, io::RealSyntax syn, double& v) {
    const char* e = io::parse_real(s.data(), s.data() + s.size(), v, syn);
    return e == s.data() + s.size();
  };
  const io::RealSyntax nastran{false, true}, fortran{true, false}, plain{};
  double v = 0;
  EXPECT_TRUE(parse("1.5-3", nastran, v));
  EXPECT_DOUBLE_EQ(v, 1.5e-3);
  EXPECT_TRUE(parse("1.+4", nastran, v));
  EXPECT_DOUBLE_EQ(v, 1e4);
  EXPECT_TRUE(parse("-.7+1", nastran, v));
  EXPECT_DOUBLE_EQ(v, -7.0);
  EXPECT_TRUE(parse("+70.-1", nastran, v));
  EXPECT_DOUBLE_EQ(v, 7.0);
  EXPECT_TRUE(parse("7.E+0", nastran, v));
  EXPECT_DOUBLE_EQ(v, 7.0);
  EXPECT_TRUE(parse("1.25", nastran, v));
  EXPECT_DOUBLE_EQ(v, 1.25);
  EXPECT_TRUE(parse("1.0000000000000000D+02", fortran, v));
  EXPECT_DOUBLE_EQ(v, 100.0);
  EXPECT_TRUE(parse("-2.5d-1", fortran, v));
  EXPECT_DOUBLE_EQ(v, -0.25);
  // Not opted in: the spelling stops the number where from_chars stops.
  EXPECT_FALSE(parse("1.5-3", plain, v));
  EXPECT_FALSE(parse("1.5D+3", plain, v));
  EXPECT_FALSE(parse("1.5D+3", nastran, v));
  EXPECT_FALSE(parse("1.5-3", fortran, v));
  // Malformed exponents are not numbers.
  EXPECT_FALSE(parse("1.5-", nastran, v));
  EXPECT_FALSE(parse("1.5D", fortran, v));
  EXPECT_FALSE(parse("1.5--3", nastran, v));
  EXPECT_FALSE(parse("1.5-3x", nastran, v));
  EXPECT_FALSE(parse("1.5-1234567", nastran, v));
  EXPECT_FALSE(parse("1.5-999", nastran, v));  // out of range: from_chars refuses it
}

TEST(ParseReal, CursorReadsTheOptedInSpelling) {
  io::Cursor c(" 1.5D+02  -2.0D-01\n3.0x", "test", "f.txt");
  const io::RealSyntax fortran{true, false};
  EXPECT_DOUBLE_EQ(c.real<double>("x", fortran), 150.0);
  EXPECT_DOUBLE_EQ(c.real<double>("y", fortran), -0.2);
  EXPECT_THROW(c.real<double>("z", fortran), mpp::ReadError);
}

// A library that writes by path writes the temporary file; commit() renames it over the
// target, and an uncommitted AtomicFile leaves an existing target untouched.
TEST(AtomicFile, TempPathIsWhatCommitRenames) {
  const std::filesystem::path dir = testsupport::tmp_path("atomic_temp_path");
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

TEST(FileBytes, CopyOutReadsTheBytesTheMappingHoldsAndAShrunkFileIsAReadError) {
  using testsupport::spit;
  using testsupport::tmp_path;
  const std::string path = tmp_path("copy_out.bin");
  std::string bytes(300000, '\0');  // over kReadSmallFilesBelow: mapped
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 7 + i / 251);
  spit(path, bytes);
  for (bool populate : {false, true}) {
    mpp::io::FileBytes file(path, "test", populate);
    std::string out(1000, '\0');
    file.copy_out(123456, out.size(), out.data());
    EXPECT_EQ(out, bytes.substr(123456, out.size()));
    EXPECT_EQ(std::string(file.data() + 123456, out.size()), out);
    file.populate();  // harmless when mapped already
    std::filesystem::resize_file(path, 200000);
    try {
      file.copy_out(250000, 10, out.data());
      FAIL() << "no error";
    } catch (const mpp::ReadError& e) {
      EXPECT_NE(std::string(e.what()).find("shrank"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("copy_out.bin"), std::string::npos) << e.what();
    }
    spit(path, bytes);
  }
  // A small file is read, not mapped: copy_out copies from the buffer.
  spit(path, bytes.substr(0, 1000));
  mpp::io::FileBytes small(path, "test", false);
  std::string out(10, '\0');
  small.copy_out(990, 10, out.data());
  EXPECT_EQ(out, bytes.substr(990, 10));
}

// The resident size of the mapping that starts at `at`, from /proc/self/smaps (-1 if none).
long mapped_kib(const void* at) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool ours = false;
  while (std::getline(smaps, line)) {
    unsigned long from = 0, to = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx ", &from, &to) == 2) ours = from == reinterpret_cast<unsigned long>(at);
    long kib = 0;
    if (ours && std::sscanf(line.c_str(), "Rss: %ld kB", &kib) == 1) return kib;
  }
  return -1;
}

// A cursor that loads through pread reads the same values as one that reads the mapping,
// across its window's edges and in either byte order, fails with the same truncation
// error, and leaves every page of a lazily made mapping untouched.
TEST(Cursor, LoadThroughReadsWhatTheMappingHoldsWithoutTouchingIt) {
  using testsupport::spit;
  using testsupport::tmp_path;
  const std::string path = tmp_path("load_through.bin");
  std::string bytes(3 * io::FileBytes::kWindowBytes * 50 + 13, '\0');  // over kReadSmallFilesBelow: mapped
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 131 + i / 7);
  spit(path, bytes);
  const io::FileBytes lazy(path, "test", /*populate=*/false);
  ASSERT_EQ(mapped_kib(lazy.data()), 0) << "the mapping should start without pages";
  for (bool little : {true, false}) {
    io::Cursor through(lazy.text(), "test", path), direct(std::string_view(bytes), "test", path);
    through.load_through(lazy);
    through.set_little_endian(little);
    direct.set_little_endian(little);
    // Offsets that straddle the window's end, jump back before it and far ahead of it.
    for (std::size_t at : {std::size_t{0}, io::FileBytes::kWindowBytes - 3, std::size_t{5}, bytes.size() / 2 + 1, bytes.size() - 8}) {
      through.seek(at);
      direct.seek(at);
      EXPECT_EQ(through.load<std::int64_t>("x"), direct.load<std::int64_t>("x")) << at;
      if (through.left() >= 6) {
        EXPECT_EQ(through.load<std::int32_t>("y"), direct.load<std::int32_t>("y")) << at;
        EXPECT_EQ(through.load<std::uint16_t>("z"), direct.load<std::uint16_t>("z")) << at;
      }
    }
    through.seek(1001);
    direct.seek(1001);
    std::vector<std::int32_t> a(3000), b(3000);
    through.read_array(a.data(), a.size(), "array");
    direct.read_array(b.data(), b.size(), "array");
    EXPECT_EQ(a, b);
  }
  EXPECT_EQ(mapped_kib(lazy.data()), 0) << "a load through pread touched the mapping";
  io::Cursor through(lazy.text(), "test", path);
  through.load_through(lazy);
  through.seek(bytes.size() - 2);  // (an error's line number is counted in the mapping)
  try {
    through.load<std::int32_t>("the last count");
    FAIL() << "no error";
  } catch (const mpp::ReadError& e) {
    EXPECT_NE(std::string(e.what()).find("truncated the last count: expected 4 bytes, found 2"), std::string::npos) << e.what();
  }
  // A populated mapping is read in place.
  const io::FileBytes full(path, "test", /*populate=*/true);
  EXPECT_EQ(full.bytes_at(77, 8), full.data() + 77);
}

// Base64Writer: the text of pieces appended one after another is the encoding of their
// concatenation as one padded stream, however the pieces are cut and on any thread count.
TEST(Base64Writer, PiecesEncodeAsTheirConcatenationOnAnyThreadCount) {
  std::vector<unsigned char> bytes(9 * (std::size_t{1} << 20) + 5);  // past the 4 MiB parallel threshold
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<unsigned char>((i * 2654435761u) >> 13);
  std::string expected;
  mpp::codec::base64_append(expected, bytes.data(), bytes.size());
  for (unsigned threads : {1u, 3u}) {
    for (std::vector<std::size_t> cuts : {std::vector<std::size_t>{}, {1}, {2, 3}, {4, 5, 5, 700001}, {bytes.size() - 1}}) {
      std::string got;
      std::size_t sink_calls = 0;
      mpp::codec::Base64Writer w([&](const char* t, std::size_t n) { got.append(t, n), ++sink_calls; }, threads);
      std::size_t at = 0;
      for (std::size_t c : cuts) w.append(bytes.data() + at, c - at), at = c;
      w.append(bytes.data() + at, bytes.size() - at);
      w.finish();
      EXPECT_EQ(got, expected) << threads << " threads, " << cuts.size() << " cuts";
      EXPECT_GT(sink_calls, 2u);  // handed out a window at a time, not as one text
    }
  }
  // After finish() a new stream starts: VTK's header and data as two padded streams.
  std::string two;
  mpp::codec::Base64Writer w([&](const char* t, std::size_t n) { two.append(t, n); }, 2);
  w.append("ab", 2);
  w.finish();
  w.finish();  // nothing open: nothing written
  w.append("c", 1);
  w.finish();
  EXPECT_EQ(two, "YWI=Yw==");
  std::string none;
  mpp::codec::Base64Writer empty([&](const char* t, std::size_t n) { none.append(t, n); }, 2);
  empty.append(nullptr, 0);
  empty.finish();
  EXPECT_EQ(none, "");
}

// Base64Reader against the bytes encoded: every length around the vector loop's bounds (8
// groups a step, 11 groups left at least), every byte value, one and several threads; each
// character that is not in the alphabet (and is not whitespace or '=') stops the read at
// that character, wherever it stands in a step.
TEST(Base64Reader, DecodesEveryLengthAndStopsAtTheFirstBadCharacter) {
  auto encode = [](const std::vector<unsigned char>& b) {
    std::string t;
    mpp::codec::base64_append(t, b.data(), b.size());
    return t;
  };
  auto decode = [](const std::string& text, std::size_t nbytes, unsigned threads, std::vector<unsigned char>& out) {
    out.assign(nbytes, 0);
    mpp::codec::Base64Reader r(text.data(), text.data() + text.size());
    const bool ok = r.read(out.data(), nbytes, threads);
    return std::pair<bool, std::ptrdiff_t>(ok, ok ? -1 : r.error_at() - text.data());
  };
  std::vector<unsigned char> out;
  for (std::size_t n = 0; n <= 400; ++n) {
    std::vector<unsigned char> bytes(n);
    for (std::size_t i = 0; i < n; ++i) bytes[i] = static_cast<unsigned char>((i * 131 + n * 7) & 0xff);
    EXPECT_EQ(decode(encode(bytes), n, 1, out).first, true) << n;
    EXPECT_EQ(out, bytes) << n << " bytes";
  }
  std::vector<unsigned char> big((std::size_t{3} << 20) + 2);  // past the parallel threshold
  for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<unsigned char>((i * 2654435761u) >> 11);
  const std::string big_text = encode(big);
  for (unsigned threads : {1u, 2u, 5u}) {
    EXPECT_TRUE(decode(big_text, big.size(), threads, out).first);
    EXPECT_EQ(out, big) << threads << " threads";
  }
  const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const std::vector<unsigned char> plain(300, 0x5a);
  const std::string text = encode(plain);
  for (int c = 0; c < 256; ++c) {
    const bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
    if (alphabet.find(static_cast<char>(c)) != std::string::npos || space || c == '=') continue;
    for (std::size_t at : {std::size_t{0}, std::size_t{31}, std::size_t{37}, std::size_t{200}, text.size() - 45}) {
      std::string bad = text;
      bad[at] = static_cast<char>(c);
      const auto [ok, where] = decode(bad, plain.size(), 1, out);
      EXPECT_FALSE(ok) << "byte " << c << " at " << at;
      EXPECT_EQ(where, static_cast<std::ptrdiff_t>(at)) << "byte " << c;
    }
  }
  // A bad character deep inside a parallel decode is found at its place too.
  std::string bad_big = big_text;
  bad_big[big_text.size() / 2 + 3] = '-';
  const auto [ok, where] = decode(bad_big, big.size(), 3, out);
  EXPECT_FALSE(ok);
  EXPECT_EQ(where, static_cast<std::ptrdiff_t>(big_text.size() / 2 + 3));
}

// decode_indices (AVX2 on a CPU that has it) gives what the one-at-a-time loop gives: the
// same int64 values and the same largest-as-unsigned, for int32 and int64 files in either
// byte order, every length around the vector width, negative and extreme values included;
// largest_as_unsigned likewise.
template <class I> void expect_decode_like_scalar() {
  std::vector<I> values(203);
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<I>(static_cast<std::int64_t>(i * 2654435761u % 1000003) - (i % 17 == 0 ? 500000 : 0));
  values[7] = std::numeric_limits<I>::max(), values[150] = std::numeric_limits<I>::min(), values[201] = 0;
  for (bool swap : {false, true}) {
    std::vector<I> file(values);
    if (swap) mpp::io::byteswap_inplace(file.data(), file.size(), sizeof(I));
    const char* src = reinterpret_cast<const char*>(file.data());
    for (std::int64_t base : {0, 1}) {
      for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{4}, std::size_t{9}, std::size_t{33}, std::size_t{151}, values.size()}) {
        std::vector<std::int64_t> got(n + 1, 77), want(n + 1, 77);
        const std::uint64_t top = mpp::io::decode_indices<I>(got.data(), src, n, swap, base);
        const std::uint64_t want_top = swap ? mpp::io::decode_indices_as<I, true>(want.data(), src, n, base)
                                            : mpp::io::decode_indices_as<I, false>(want.data(), src, n, base);
        EXPECT_EQ(got, want) << sizeof(I) << "-byte, swap " << swap << ", base " << base << ", n " << n;
        EXPECT_EQ(top, want_top) << sizeof(I) << "-byte, swap " << swap << ", base " << base << ", n " << n;
        EXPECT_EQ(mpp::io::largest_as_unsigned(got.data(), n), want_top) << n;
        EXPECT_EQ(got[n], 77);  // nothing written past n
      }
    }
  }
}
TEST(DecodeIndices, VectorBuildMatchesTheScalarLoop) {
  expect_decode_like_scalar<std::int32_t>();
  expect_decode_like_scalar<std::int64_t>();
}

// check_index_range (through Mesh validation): an out-of-range index is named with its value
// and position, below zero and at the point count alike, after the vectorised first pass.
TEST(CheckIndexRange, NamesTheFirstBadIndexAndItsPosition) {
  mpp::Mesh mesh;
  mesh.points = mpp::NDArray::zeros(mpp::DType::float64, {10, 3});
  auto tets = mpp::NDArray::zeros(mpp::DType::int64, {100, 4});
  for (std::size_t i = 0; i < 400; ++i) tets.data<std::int64_t>()[i] = static_cast<std::int64_t>(i % 10);
  mesh.cells.push_back(mpp::CellBlock::rectangular("tetra", tets));
  EXPECT_NO_THROW(mesh.validate());
  for (std::int64_t bad : {std::int64_t{-1}, std::int64_t{10}, std::numeric_limits<std::int64_t>::min()}) {
    mpp::Mesh m = mesh;
    auto conn = mpp::NDArray::zeros(mpp::DType::int64, {100, 4});
    std::memcpy(conn.raw(), tets.raw(), 400 * sizeof(std::int64_t));
    conn.data<std::int64_t>()[237] = bad;
    m.cells[0] = mpp::CellBlock::rectangular("tetra", conn);
    try {
      m.validate();
      FAIL() << "no error for index " << bad;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("index " + std::to_string(bad) + " at position 237"), std::string::npos) << e.what();
    }
  }
}

// write_rows hands the chunks to the writer in order, whichever thread formats which, and a
// chunk whose formatting fails ends the call with its error: the threads waiting for their
// turn behind it give up instead of waiting for ever.
TEST(WriteRows, SameBytesForEveryThreadCountAndAFailingChunkStopsTheRest) {
  const std::size_t rows = 5 * io::kTextChunkRows + 123;
  const auto format = [](io::TextWriter& t, std::size_t r0, std::size_t r1) {
    for (std::size_t i = r0; i < r1; ++i) t.integer(i).str(" ").integer(i * i % 977).str("\n");
  };
  std::string expected;
  {
    io::TextWriter w(expected);
    format(w, 0, rows);
  }
  for (unsigned threads : {1u, 2u, 3u, 4u, 7u}) {
    EXPECT_EQ(written([&](io::TextWriter& w) { io::write_rows(w, rows, threads, format); }), expected) << threads;
    std::string text;
    {
      io::TextWriter w(text);
      w.str("head\n");
      io::write_rows(w, rows, threads, format);
    }
    EXPECT_TRUE(text == "head\n" + expected) << threads;
  }
  for (unsigned threads : {2u, 3u, 7u})
    for (std::size_t bad_chunk : {std::size_t{0}, std::size_t{2}, std::size_t{5}}) {
      std::string text;
      io::TextWriter w(text);
      try {
        io::write_rows(w, rows, threads, [&](io::TextWriter& t, std::size_t r0, std::size_t r1) {
          if (r0 / io::kTextChunkRows == bad_chunk) throw mpp::WriteError("chunk " + std::to_string(bad_chunk));
          format(t, r0, r1);
        });
        ADD_FAILURE() << "no error, " << threads << " threads";
      } catch (const mpp::WriteError& e) {
        EXPECT_EQ(std::string(e.what()), "chunk " + std::to_string(bad_chunk));
      }
      w.flush();
      // What reached the writer is the chunks before the bad one, whole and in order.
      EXPECT_EQ(text, expected.substr(0, text.size())) << threads << " threads, bad chunk " << bad_chunk;
      EXPECT_LE(text.size(), expected.find(std::to_string(bad_chunk * io::kTextChunkRows) + " ")) << bad_chunk;
    }
}

// With sync on, a long write is flushed in the background as it goes (AtomicFile's flusher
// thread): the file still holds exactly what was written, an abandoned file still leaves the
// target as it was (its flusher stopped, no temporary left), and files written at once on
// several threads each get their own bytes.
TEST(AtomicFileBackgroundFlush, LongWritesKeepTheirBytesAndAnAbandonedOneKeepsTheTarget) {
  const std::filesystem::path dir = testsupport::tmp_path("atomic_background_flush");
  std::filesystem::create_directories(dir);
  std::string piece(std::size_t(1) << 20, '\0');
  const auto bytes_of = [&](std::size_t file, std::size_t k) {
    for (std::size_t i = 0; i < piece.size(); i += 4096) piece[i] = static_cast<char>('a' + (file * 7 + k + i) % 26);
    return piece;
  };
  const auto write_file = [&](std::size_t file, bool commit) {
    std::string all;
    io::AtomicFile f((dir / ("f" + std::to_string(file))).string(), "test");
    for (std::size_t k = 0; k < 20; ++k) {  // 20 MiB: two background flushes at least
      const std::string p = bytes_of(file, k);
      f.write(p);
      all += p;
    }
    if (commit) f.commit();
    return all;
  };
  { std::ofstream(dir / "f0") << "the user's data"; }
  (void)write_file(0, /*commit=*/false);
  EXPECT_EQ(read_file(dir / "f0"), "the user's data");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1);
  const std::string synced = write_file(0, true);
  EXPECT_TRUE(read_file(dir / "f0") == synced);
  {
    const io::SyncScope off(false);  // no flusher: same bytes
    const std::string unsynced = write_file(1, true);
    EXPECT_TRUE(read_file(dir / "f1") == unsynced);
  }
  std::vector<std::string> expected(4);
  std::vector<std::thread> writers;
  for (std::size_t t = 0; t < 4; ++t)
    writers.emplace_back([&, t] {
      std::string mine(std::size_t(1) << 20, '\0');
      std::string all;
      io::AtomicFile f((dir / ("t" + std::to_string(t))).string(), "test");
      for (std::size_t k = 0; k < 12; ++k) {
        for (std::size_t i = 0; i < mine.size(); i += 512) mine[i] = static_cast<char>('A' + (t + k + i) % 26);
        f.write(mine);
        all += mine;
      }
      f.commit();
      expected[t] = std::move(all);
    });
  for (auto& w : writers) w.join();
  for (std::size_t t = 0; t < 4; ++t) EXPECT_TRUE(read_file(dir / ("t" + std::to_string(t))) == expected[t]) << t;
  std::filesystem::remove_all(dir);
}

// The file a commit replaces: a large regular one is freed after the rename, on a thread of
// its own; the rename's meaning does not change. A hard link to the old file keeps its
// bytes, a symbolic link at the target is replaced itself (not the file it names), and a
// FIFO at the target is replaced without blocking on it.
TEST(AtomicFile, ReplacingALargeFileKeepsRenameSemantics) {
  const std::filesystem::path dir = testsupport::tmp_path("atomic_replace");
  std::filesystem::create_directories(dir);
  const std::string big(std::size_t(6) << 20, 'o');  // over the size freed in the background
  const auto commit = [&](const std::filesystem::path& target, const std::string& bytes) {
    io::AtomicFile f(target.string(), "test");
    f.write(bytes);
    f.commit();
  };
  testsupport::spit((dir / "target").string(), big);
  std::filesystem::create_hard_link(dir / "target", dir / "link");
  commit(dir / "target", "new");
  EXPECT_EQ(read_file(dir / "target"), "new");
  EXPECT_TRUE(read_file(dir / "link") == big);
  for (int i = 0; i < 3; ++i) {  // again and again over a large file of our own
    commit(dir / "again", big);
    EXPECT_TRUE(read_file(dir / "again") == big);
  }
  std::filesystem::create_symlink(dir / "link", dir / "symlink");
  commit(dir / "symlink", "replaced the link");
  EXPECT_FALSE(std::filesystem::is_symlink(dir / "symlink"));
  EXPECT_EQ(read_file(dir / "symlink"), "replaced the link");
  EXPECT_TRUE(read_file(dir / "link") == big);
  ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0600), 0);
  commit(dir / "fifo", "not a fifo now");
  EXPECT_TRUE(std::filesystem::is_regular_file(dir / "fifo"));
  EXPECT_EQ(read_file(dir / "fifo"), "not a fifo now");
  std::size_t temporaries = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    temporaries += e.path().filename().string().find(".meshioplusplus-") != std::string::npos;
  EXPECT_EQ(temporaries, 0u);
  std::filesystem::remove_all(dir);
}
