// meshio++ micro-benchmarks of the shared parsing primitives (Google Benchmark), so a
// regression in a primitive shows without Python around it: integers and floats per
// second through io::parse_number, base64 encode/decode and zlib inflate/deflate bytes per
// second, and what a parallel_for call costs on the process's pool against a thread started
// and joined per call. Run: build/bench_primitives (built by `make bench`).
#include <benchmark/benchmark.h>
#if __has_include(<fast_float/fast_float.h>)
#include <fast_float/fast_float.h>
#endif

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/codec/base64.hpp"
#include "core/codec/zlib.hpp"
#include "core/io/byteorder.hpp"
#include "core/io/decode.hpp"
#include "core/io/cursor.hpp"
#include "core/io/text_writer.hpp"
#include "core/parallel.hpp"

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

#if __has_include(<fast_float/fast_float.h>)
// The same numbers through fast_float (Debian libfast-float-dev) instead of the
// std::from_chars under io::parse_number: the comparison issue 19 asks for. libstdc++ 12
// implements from_chars(double) with fast_float's algorithm, so the two should be close.
void ParseFloat64FastFloat(benchmark::State& state) {
  const std::size_t n = 1 << 20;
  const std::string text = number_text(true, n);
  for (auto _ : state) {
    const char* p = text.data();
    const char* end = p + text.size();
    double sum = 0;
    while (p < end) {
      double v = 0;
      p = fast_float::from_chars(p, end, v).ptr;
      sum += v;
      ++p;
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(ParseFloat64FastFloat)->Unit(benchmark::kMillisecond);
#endif

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

// A binary reader's index decode: 4M big-endian int32 1-based ids (UGRID .b8's layout) to
// 0-based int64, with the largest taken for the range check. DecodeIndicesScalar is the
// one-at-a-time loop (the x86-64 baseline build); DecodeIndices is what the readers call
// (the AVX2 build where the CPU has it, core/io/decode.cpp).
std::vector<std::int32_t> big_endian_ids() {
  std::vector<std::int32_t> ids(std::size_t{4} << 20);
  for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<std::int32_t>(i / 4 + i % 4 + 1);
  io::byteswap_inplace(ids.data(), ids.size(), 4);
  return ids;
}

template <bool Dispatched> void DecodeIndicesBench(benchmark::State& state) {
  const auto ids = big_endian_ids();
  std::vector<std::int64_t> out(ids.size());
  const char* src = reinterpret_cast<const char*>(ids.data());
  for (auto _ : state) {
    const std::uint64_t top = Dispatched ? io::decode_indices<std::int32_t>(out.data(), src, ids.size(), true, 1)
                                         : io::decode_indices_as<std::int32_t, true>(out.data(), src, ids.size(), 1);
    benchmark::DoNotOptimize(top);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * ids.size()));
}
void DecodeIndicesScalar(benchmark::State& state) { DecodeIndicesBench<false>(state); }
void DecodeIndices(benchmark::State& state) { DecodeIndicesBench<true>(state); }

// Mesh arrays as VTU holds them: int64 connectivity of a structured grid's hexahedra
// (neighbouring ids, like a mesher's output) followed by its float64 coordinates.
std::vector<unsigned char> mesh_arrays() {
  const std::int64_t n = 64;  // 64^3 cells
  std::vector<std::int64_t> conn;
  auto id = [&](std::int64_t i, std::int64_t j, std::int64_t k) { return (k * (n + 1) + j) * (n + 1) + i; };
  for (std::int64_t k = 0; k < n; ++k)
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < n; ++i)
        for (auto v : {id(i, j, k), id(i + 1, j, k), id(i + 1, j + 1, k), id(i, j + 1, k), id(i, j, k + 1),
                       id(i + 1, j, k + 1), id(i + 1, j + 1, k + 1), id(i, j + 1, k + 1)})
          conn.push_back(v);
  std::vector<double> xyz;
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> jitter(-1e-3, 1e-3);
  for (std::int64_t k = 0; k <= n; ++k)
    for (std::int64_t j = 0; j <= n; ++j)
      for (std::int64_t i = 0; i <= n; ++i)
        for (auto c : {i, j, k}) xyz.push_back(static_cast<double>(c) / n + jitter(rng));
  std::vector<unsigned char> out(conn.size() * 8 + xyz.size() * 8);
  std::memcpy(out.data(), conn.data(), conn.size() * 8);
  std::memcpy(out.data() + conn.size() * 8, xyz.data(), xyz.size() * 8);
  return out;
}

// VTU's block size: each block an independent zlib stream.
constexpr std::size_t kBlock = 1 << 20;

// Every engine the build has, at level 1 (VTU's fast setting: zlib's Z_RLE) and zlib's
// default (-1): bytes per second over the whole array set, one block at a time.
void ZlibDeflate(benchmark::State& state, codec::ZlibEngine engine, int level) {
  const auto data = mesh_arrays();
  std::size_t packed = 0;
  for (auto _ : state) {
    packed = 0;
    for (std::size_t at = 0; at < data.size(); at += kBlock)
      packed += codec::zlib_compress_with(engine, data.data() + at, std::min(kBlock, data.size() - at), level, level == 1).size();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * data.size()));
  state.counters["ratio"] = static_cast<double>(data.size()) / static_cast<double>(packed);
}

void ZlibInflate(benchmark::State& state, codec::ZlibEngine engine, int level) {
  const auto data = mesh_arrays();
  std::vector<std::vector<unsigned char>> blocks;  // made by zlib itself: what VTK writes
  for (std::size_t at = 0; at < data.size(); at += kBlock)
    blocks.push_back(codec::zlib_compress_with(codec::zlib_engines().front(), data.data() + at,
                                               std::min(kBlock, data.size() - at), level, level == 1));
  std::vector<unsigned char> out(data.size());
  for (auto _ : state) {
    std::size_t at = 0;
    for (const auto& b : blocks) {
      const std::size_t n = std::min(kBlock, data.size() - at);
      const std::string err = codec::zlib_inflate_with(engine, b.data(), b.size(), out.data() + at, n);
      if (!err.empty()) return state.SkipWithError(err.c_str());
      at += n;
    }
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * data.size()));
}

const bool zlib_engines_registered = [] {
  for (auto engine : codec::zlib_engines())
    for (int level : {1, -1}) {
      const std::string suffix = "/" + codec::zlib_engine_name(engine) + "/level" + std::to_string(level);
      benchmark::RegisterBenchmark(("ZlibDeflate" + suffix).c_str(), ZlibDeflate, engine, level)->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark(("ZlibInflate" + suffix).c_str(), ZlibInflate, engine, level)->Unit(benchmark::kMillisecond);
    }
  return true;
}();

// One call of parallel_for over 2 items on 2 threads: the caller takes one, a pool thread
// the other (each item waits until both started, so two threads always take part).
void ParallelForCall(benchmark::State& state) {
  for (auto _ : state) {
    std::atomic<int> started{0};
    meshioplusplus::parallel_for(2, 2, [&](std::size_t) {
      started.fetch_add(1);
      while (started.load() < 2) std::this_thread::yield();
    });
  }
}

// The same with a thread started and joined for the call (what parallel_for did before the
// pool, and still does when the pool is taken).
void ThreadPerCall(benchmark::State& state) {
  for (auto _ : state) {
    std::atomic<int> started{0};
    auto item = [&] {
      started.fetch_add(1);
      while (started.load() < 2) std::this_thread::yield();
    };
    std::thread helper(item);
    item();
    helper.join();
  }
}

}  // namespace

BENCHMARK(ParallelForCall)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(ThreadPerCall)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(ParseInt64)->Unit(benchmark::kMillisecond);
BENCHMARK(ParseFloat64)->Unit(benchmark::kMillisecond);
BENCHMARK(FormatFloat64)->Unit(benchmark::kMillisecond);
BENCHMARK(Base64Encode)->Unit(benchmark::kMillisecond);
BENCHMARK(Base64Decode)->Unit(benchmark::kMillisecond);
BENCHMARK(DecodeIndicesScalar)->Unit(benchmark::kMillisecond);
BENCHMARK(DecodeIndices)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
