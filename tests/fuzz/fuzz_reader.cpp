// meshio++ fuzzing: one libFuzzer harness for every reader, compiled once per format with
// MESHIOPP_FUZZ_FORMAT="<name>" (see tests/fuzz/CMakeLists.txt).
//
// Readers take a path, so each input is written to an anonymous in-memory file (memfd) and
// read through the registry as /proc/self/fd/<n>. The contract under test (DESIGN.md,
// "Errors"): a reader returns a Mesh or throws ReadError. Only ReadError is caught here;
// any other exception escapes and aborts (a finding), as do crashes, sanitizer reports,
// hangs (-timeout) and allocations past -rss_limit_mb / -malloc_limit_mb.
//
// Built without libFuzzer (plain compiler, MESHIOPP_FUZZ_REPLAY), replay_main.cpp drives the
// same entry point over the files of tests/fuzz/regressions/<format>/ for ctest.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <string>

#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/format.hpp"
#include "meshioplusplus/mesh.hpp"

#ifndef MESHIOPP_FUZZ_FORMAT
#error "compile with -DMESHIOPP_FUZZ_FORMAT=\"<format name>\""
#endif

namespace {

// One memfd for the whole run, rewritten for every input (ftruncate + pwrite): cheap, and
// nothing to clean up on disk if the process dies.
int input_fd() {
  static const int fd = [] {
    const int f = ::memfd_create("meshioplusplus-fuzz", MFD_CLOEXEC);
    if (f < 0) {
      std::perror("memfd_create");
      std::abort();
    }
    return f;
  }();
  return fd;
}

void put_input(const std::uint8_t* data, std::size_t size) {
  const int fd = input_fd();
  if (::ftruncate(fd, 0) != 0) std::abort();
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::pwrite(fd, data + done, size - done, static_cast<off_t>(done));
    if (n <= 0) std::abort();
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const meshioplusplus::Format& format = meshioplusplus::find_format(MESHIOPP_FUZZ_FORMAT);
  static const std::string path = "/proc/self/fd/" + std::to_string(input_fd());
  if (format.read == nullptr) std::abort();  // a fuzz target for a write-only format is a build error
  put_input(data, size);
  try {
    const meshioplusplus::Mesh mesh = format.read(path, {});
    // What a reader returns must be a mesh a writer accepts: validate() throws
    // std::invalid_argument (escaping = a finding) on out-of-range connectivity, ragged
    // offsets that do not add up, data arrays of the wrong length.
    mesh.validate();
  } catch (const meshioplusplus::ReadError&) {
    // the one allowed failure
  }
  return 0;
}
