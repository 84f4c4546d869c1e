// meshio++ fuzzing: one libFuzzer harness for every reader, compiled once per format with
// MESHIOPP_FUZZ_FORMAT="<name>" (see tests/fuzz/CMakeLists.txt), or once for all formats
// in the replay tool, which names the format at run time (MESHIOPP_FUZZ_REPLAY).
//
// Readers take a path, so each input is written to an anonymous in-memory file (memfd) and
// read through the registry as <dir>/in<ext>, a symbolic link to /proc/self/fd/<n> named
// with the format's first extension (readers that look at the name, such as UGRID's
// .b8.ugrid variants and TetGen's .node / .ele, see a name of their own). An input that
// starts with "#@" is a set of named files instead, for readers that take several files or
// choose by the name: each part starts with a line "#@<suffix>" (letters, digits, '.', '_',
// '-'; at most 32) and runs to the next line that starts with "#@"; it is written to
// <dir>/in<suffix>, and the first part is the file read (TetGen: "#@.node" then "#@.ele",
// "#@.face"; UGRID: "#@.lb8.ugrid"). <dir> is a fresh folder under /dev/shm (else the
// temporary folder), emptied for every input. The contract under test (DESIGN.md,
// "Errors"): a reader returns a Mesh or throws ReadError. Only ReadError is caught here;
// any other exception escapes and aborts (a finding), as do crashes, sanitizer reports,
// hangs (-timeout) and allocations past -rss_limit_mb / -malloc_limit_mb.
//
// Built without libFuzzer (plain compiler, MESHIOPP_FUZZ_REPLAY), replay_main.cpp drives the
// same entry point over the files of tests/fuzz/regressions/<format>/ for ctest, the format
// being its first argument (fuzz_replay_format below).
#include <sys/mman.h>
#include <unistd.h>

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/format.hpp"
#include "meshioplusplus/mesh.hpp"

#if defined(MESHIOPP_FUZZ_REPLAY)
// Set by replay_main.cpp before the first input.
extern const char* fuzz_replay_format;
#define MESHIOPP_FUZZ_FORMAT fuzz_replay_format
#elif !defined(MESHIOPP_FUZZ_FORMAT)
#error "compile with -DMESHIOPP_FUZZ_FORMAT=\"<format name>\" (or -DMESHIOPP_FUZZ_REPLAY)"
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

namespace fs = std::filesystem;

// The folder of this run's named files, made once (removed at exit).
const fs::path& named_dir() {
  static const fs::path dir = [] {
    std::error_code ec;
    fs::path base = fs::is_directory("/dev/shm", ec) ? fs::path("/dev/shm") : fs::temp_directory_path();
    std::string tmpl = (base / "meshiopp-fuzz-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) {
      std::perror("mkdtemp");
      std::abort();
    }
    static const std::string keep = tmpl;
    std::atexit([] {
      std::error_code e;
      fs::remove_all(keep, e);
    });
    return fs::path(tmpl);
  }();
  return dir;
}

void clear_named_dir() {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(named_dir(), ec)) fs::remove(e.path(), ec);
}

bool valid_suffix(std::string_view s) {
  if (s.empty() || s.size() > 32) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-')) return false;
  return true;
}

// Writes the "#@<suffix>" parts of `text` as files; returns the first one's path, or "" when
// a part's suffix is not a valid one (the input is then not read).
std::string put_named(std::string_view text) {
  clear_named_dir();
  std::string first;
  while (text.size() >= 2 && text.substr(0, 2) == "#@") {
    const std::size_t eol = text.find('\n');
    const std::string_view suffix = text.substr(2, eol == std::string_view::npos ? std::string_view::npos : eol - 2);
    if (!valid_suffix(suffix)) return "";
    text = eol == std::string_view::npos ? std::string_view() : text.substr(eol + 1);
    std::size_t next = 0;
    while ((next = text.find("#@", next)) != std::string_view::npos && next != 0 && text[next - 1] != '\n') ++next;
    const std::string_view body = text.substr(0, next);
    text = next == std::string_view::npos ? std::string_view() : text.substr(next);
    const std::string path = (named_dir() / ("in" + std::string(suffix))).string();
    if (FILE* f = std::fopen(path.c_str(), "wb")) {
      if (!body.empty() && std::fwrite(body.data(), 1, body.size(), f) != body.size()) std::abort();
      std::fclose(f);
    } else {
      std::abort();
    }
    if (first.empty()) first = path;
  }
  return first;
}

// <dir>/in<first extension>, a link to the memfd (made again after a named input emptied
// the folder).
std::string memfd_path(const meshioplusplus::Format& format) {
  const std::string ext = format.extensions.empty() ? std::string() : format.extensions.front();
  const fs::path link = named_dir() / ("in" + (valid_suffix(ext) ? ext : std::string()));
  std::error_code ec;
  if (!fs::is_symlink(link, ec)) {
    clear_named_dir();
    fs::create_symlink("/proc/self/fd/" + std::to_string(input_fd()), link, ec);
    if (ec) std::abort();
  }
  return link.string();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const meshioplusplus::Format& format = meshioplusplus::find_format(MESHIOPP_FUZZ_FORMAT);
  if (format.read == nullptr) std::abort();  // a fuzz target for a write-only format is a build error
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string path;
  if (text.substr(0, 2) == "#@") {
    path = put_named(text);
    if (path.empty()) return 0;
  } else {
    put_input(data, size);
    path = memfd_path(format);
  }
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
