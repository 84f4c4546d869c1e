// meshio++ fuzzing: replays files through a fuzz harness without libFuzzer, so ctest can
// run every regression input with a plain compiler (and under the sanitizer build).
//
//   fuzz_replay FORMAT PATH...       FORMAT a registered format name; PATH a file or a folder
//                                    (its regular files, sorted); a missing PATH is skipped,
//                                    but no input at all fails
//
// Each input goes to LLVMFuzzerTestOneInput exactly as libFuzzer would pass it. An escaping
// exception is reported with the file name and counts as a failure; a crash or sanitizer
// report ends the process (ctest shows it). A hang is caught by ctest's TIMEOUT on the whole
// replay, which no machine's speed decides; MESHIOPP_REPLAY_SECONDS, when set, also fails any
// one input that takes longer (for hunting slow inputs by hand, not for the test suite).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

// The format the harness reads (fuzz_reader.cpp, built with MESHIOPP_FUZZ_REPLAY).
const char* fuzz_replay_format = nullptr;

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: fuzz_replay FORMAT PATH...\n");
    return 2;
  }
  fuzz_replay_format = argv[1];
  const char* limit_env = std::getenv("MESHIOPP_REPLAY_SECONDS");
  const double limit = limit_env ? std::atof(limit_env) : 0.0;  // 0: no per-input limit
  std::vector<fs::path> files;
  for (int i = 2; i < argc; ++i) {
    const fs::path p(argv[i]);
    if (fs::is_directory(p)) {
      for (const auto& e : fs::directory_iterator(p))
        if (e.is_regular_file() && e.path().filename().string()[0] != '.' && e.path().filename() != "README.md")
          files.push_back(e.path());
    } else if (fs::is_regular_file(p)) {
      files.push_back(p);
    } else {
      std::fprintf(stderr, "replay: %s: no such file or folder (skipped)\n", argv[i]);
    }
  }
  std::sort(files.begin(), files.end());
  int failures = 0;
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto t0 = std::chrono::steady_clock::now();
    try {
      LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    } catch (const std::exception& e) {
      std::fprintf(stderr, "FAIL %s: escaped %s\n", f.c_str(), e.what());
      ++failures;
      continue;
    } catch (...) {
      std::fprintf(stderr, "FAIL %s: escaped a non-std exception\n", f.c_str());
      ++failures;
      continue;
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (limit > 0 && s > limit) {
      std::fprintf(stderr, "FAIL %s: took %.2f s (limit %.2f s)\n", f.c_str(), s, limit);
      ++failures;
    }
  }
  std::printf("replayed %zu inputs, %d failures\n", files.size(), failures);
  return failures == 0 && !files.empty() ? 0 : 1;
}
