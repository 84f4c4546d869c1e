// meshio++ micro-benchmarks of the shared parsing primitives (Google Benchmark), so a
// regression in a primitive shows without Python around it: integers and floats per
// second through io::parse_number, base64 encode/decode and zlib inflate/deflate bytes per
// second. Run: build/bench_primitives (built by `make bench`).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/codec/base64.hpp"
#include "core/codec/zlib.hpp"
#include "core/io/cursor.hpp"
#include "core/io/text_writer.hpp"

namespace io = meshioplusplus::io;
namespace codec = meshioplusplus::codec;

namespace {

std::string number_text(bool floats, std::size_t n) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> real(-1e3, 1e3);
  std::uniform_int_distribution<std::int64_t> integer(0, 10'000'000);
  std::string out;
  char tmp[64];
  for (std::size_t i = 0; i < n; ++i) {
    auto r = floats ? std::to_chars(tmp, tmp + 64, real(rng), std::chars_format::scientific, 16)
                    : std::to_chars(tmp, tmp + 64, integer(rng));
    out.append(tmp, r.ptr).push_back(i % 4 == 3 ? '\n' : ' ');
  }
  return out;
}

template <class T> void parse_all(benchmark::State& state, bool floats) {
  const std::size_t n = 1 << 20;
  const std::string text = number_text(floats, n);
  for (auto _ : state) {
    const char* p = text.data();
    const char* end = p + text.size();
    T sum{};
    while (p < end) {
      T v{};
      p = io::parse_number(p, end, v);
      sum += v;
      ++p;  // the separator
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}

void ParseInt64(benchmark::State& state) { parse_all<std::int64_t>(state, false); }
void ParseFloat64(benchmark::State& state) { parse_all<double>(state, true); }

void FormatFloat64(benchmark::State& state) {
  std::vector<double> values(1 << 18);
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> real(-1e3, 1e3);
  for (auto& v : values) v = real(rng);
  const auto fmt = io::FloatFormat::parse(".16e");
  std::string out(32, '\0');
  for (auto _ : state) {
    std::size_t total = 0;
    for (double v : values) {
      auto r = std::to_chars(out.data(), out.data() + out.size(), v, fmt.style, fmt.precision);
      total += static_cast<std::size_t>(r.ptr - out.data());
    }
    benchmark::DoNotOptimize(total);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * values.size()));
}

std::vector<unsigned char> payload(std::size_t n) {
  std::vector<unsigned char> data(n);
  std::mt19937 rng(7);
  // Mesh-like bytes: slowly varying doubles compress somewhat, like real coordinates.
  auto* d = reinterpret_cast<double*>(data.data());
  for (std::size_t i = 0; i < n / 8; ++i) d[i] = static_cast<double>(i % 4096) * 0.001 + (rng() % 16) * 1e-9;
  return data;
}

void Base64Encode(benchmark::State& state) {
  const auto data = payload(8 << 20);
  std::string out(codec::base64_encoded_size(data.size()), '\0');
  for (auto _ : state) {
    codec::base64_encode(data.data(), data.size(), out.data());
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * data.size()));
}

void Base64Decode(benchmark::State& state) {
  const auto data = payload(8 << 20);
  std::string text(codec::base64_encoded_size(data.size()), '\0');
  codec::base64_encode(data.data(), data.size(), text.data());
  std::vector<unsigned char> out(data.size());
  for (auto _ : state) {
    codec::Base64Reader reader(text.data(), text.data() + text.size());
    if (!reader.read(out.data(), out.size())) state.SkipWithError("decode failed");
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * data.size()));
}

void ZlibDeflate(benchmark::State& state) {
  if (!codec::zlib_available()) return state.SkipWithError("built without zlib");
  const auto data = payload(8 << 20);
  for (auto _ : state) benchmark::DoNotOptimize(codec::zlib_compress(data.data(), data.size(), -1));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * data.size()));
}

void ZlibInflate(benchmark::State& state) {
  if (!codec::zlib_available()) return state.SkipWithError("built without zlib");
  const auto data = payload(8 << 20);
  const auto packed = codec::zlib_compress(data.data(), data.size(), -1);
  std::vector<unsigned char> out(data.size());
  for (auto _ : state) {
    const std::string err = codec::zlib_inflate(packed.data(), packed.size(), out.data(), out.size());
    if (!err.empty()) state.SkipWithError(err.c_str());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * data.size()));
}

}  // namespace

BENCHMARK(ParseInt64)->Unit(benchmark::kMillisecond);
BENCHMARK(ParseFloat64)->Unit(benchmark::kMillisecond);
BENCHMARK(FormatFloat64)->Unit(benchmark::kMillisecond);
BENCHMARK(Base64Encode)->Unit(benchmark::kMillisecond);
BENCHMARK(Base64Decode)->Unit(benchmark::kMillisecond);
BENCHMARK(ZlibDeflate)->Unit(benchmark::kMillisecond);
BENCHMARK(ZlibInflate)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
