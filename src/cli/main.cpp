// meshio++ command-line tool (C++, no Python): meshio's verbs and options.
//   convert (c)  IN OUT [-i FMT] [-o FMT] [-a] [-f FLOAT_FMT] [-s] [-d] [-p] [-z]
//   info (i)     IN [-i FMT]
//   compress     IN [-i FMT] [--max]     rewrite in place: binary + zlib (--max: lzma)
//   decompress   IN [-i FMT]             rewrite in place without compression
//   ascii (a)    IN [-i FMT]             rewrite in place as ASCII
//   binary (b)   IN [-i FMT]             rewrite in place as binary
//   formats
// The in-place verbs use the writer options that mean the same in every format (binary,
// compression); a writer without the option is reported, never guessed at. The Python
// script (src/python/meshioplusplus/_cli.py) has the same verbs; docs/cli.md lists them.
// A progress line goes to stderr for steps over half a second, only when stderr is a
// terminal.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <vector>

#include "meshioplusplus/meshioplusplus.hpp"

namespace mpp = meshioplusplus;

namespace {

const char* kUsage =
    "usage: meshioplusplus convert INFILE OUTFILE [-i FORMAT] [-o FORMAT] [-a] [-f FLOAT_FMT] [-s] [-d] [-p] [-z]\n"
    "       meshioplusplus info INFILE [-i FORMAT]\n"
    "       meshioplusplus compress INFILE [-i FORMAT] [--max]\n"
    "       meshioplusplus decompress INFILE [-i FORMAT]\n"
    "       meshioplusplus ascii INFILE [-i FORMAT]\n"
    "       meshioplusplus binary INFILE [-i FORMAT]\n"
    "       meshioplusplus formats\n"
    "\n"
    "Reads and writes unstructured meshes (meshio++ C++ core).\n"
    "  convert, c    read INFILE and write it as OUTFILE (format from the extension or -o)\n"
    "  info, i       print a summary of INFILE\n"
    "  compress      rewrite INFILE compressed (binary, zlib; --max: lzma where the format has it)\n"
    "  decompress    rewrite INFILE without compression\n"
    "  ascii, a      rewrite INFILE in the ASCII variant of its format\n"
    "  binary, b     rewrite INFILE in the binary variant of its format\n"
    "  formats       list the formats this build reads and writes\n"
    "options:\n"
    "  -i, --input-format FORMAT    format of INFILE (default: from its extension)\n"
    "  -o, --output-format FORMAT   format of OUTFILE (default: from its extension)\n"
    "  -a, --ascii                  write ASCII where the format has a choice\n"
    "  -f, --float-format FMT       float format of ASCII output, e.g. .16e\n"
    "  -s, --sets-to-int-data       write point/cell sets as integer data\n"
    "  -d, --int-data-to-sets       turn integer point/cell data into sets\n"
    "  -p, --prune                  remove lower-dimensional cells and orphaned points\n"
    "  -z, --prune-z-0              drop the z coordinate when it is 0 everywhere\n"
    "      --max, -max              compress: maximum compression\n"
    "  -v, --version                print the version\n"
    "  -h, --help                   show this help\n";

struct Args {
  std::string verb;
  std::vector<std::string> files;
  std::string input_format, output_format, float_format;
  bool ascii = false, sets_to_int = false, int_to_sets = false, prune = false, prune_z = false, max = false;
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string s = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument("option " + s + " needs a value");
      return argv[++i];
    };
    if (s == "-h" || s == "--help") a.verb = "help";
    else if (s == "-v" || s == "--version") a.verb = "version";
    else if (s == "-i" || s == "--input-format") a.input_format = value();
    else if (s == "-o" || s == "--output-format") a.output_format = value();
    else if (s == "-f" || s == "--float-format") a.float_format = value();
    else if (s == "-a" || s == "--ascii") a.ascii = true;
    else if (s == "-s" || s == "--sets-to-int-data") a.sets_to_int = true;
    else if (s == "-d" || s == "--int-data-to-sets") a.int_to_sets = true;
    else if (s == "-p" || s == "--prune") a.prune = true;
    else if (s == "-z" || s == "--prune-z-0") a.prune_z = true;
    else if (s == "--max" || s == "-max") a.max = true;
    else if (!s.empty() && s[0] == '-') throw std::invalid_argument("unknown option " + s);
    else if (a.verb.empty()) a.verb = s;
    else a.files.push_back(s);
  }
  if (a.verb == "c") a.verb = "convert";
  if (a.verb == "i") a.verb = "info";
  if (a.verb == "a") a.verb = "ascii";
  if (a.verb == "b") a.verb = "binary";
  return a;
}

// "reading X ... 1.5 s" on stderr while a step runs longer than half a second, only when
// stderr is a terminal.
class Progress {
 public:
  explicit Progress(std::string what) : what_(std::move(what)) {
    if (!isatty(fileno(stderr))) return;
    thread_ = std::thread([this] {
      const auto start = std::chrono::steady_clock::now();
      std::unique_lock<std::mutex> lock(mutex_);
      if (cv_.wait_for(lock, std::chrono::milliseconds(500), [this] { return done_; })) return;
      while (!cv_.wait_for(lock, std::chrono::milliseconds(250), [this] { return done_; })) {
        shown_ = true;
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::fprintf(stderr, "\r%s ... %.1f s", what_.c_str(), s);
        std::fflush(stderr);
      }
    });
  }
  ~Progress() {
    if (!thread_.joinable()) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
    if (shown_) std::fprintf(stderr, "\r%s ... done\n", what_.c_str());
  }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

 private:
  std::string what_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false, shown_ = false;
};

mpp::Mesh read_with_progress(const std::string& path, const std::string& format) {
  mpp::Mesh mesh;
  {
    Progress p("reading " + path);
    mesh = mpp::read(path, format);
  }
  for (const auto& note : mesh.warnings) std::fprintf(stderr, "meshioplusplus: warning: %s: %s\n", path.c_str(), note.c_str());
  return mesh;
}

double megabytes(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) throw std::runtime_error("cannot stat " + path);
  return static_cast<double>(st.st_size) / (1024.0 * 1024.0);
}

// Rewrites `path` in its own format with the first option set the writer accepts.
int rewrite(const Args& a, const std::vector<mpp::Options>& attempts) {
  const std::string& path = a.files[0];
  std::string format = a.input_format;
  if (format.empty()) {
    auto candidates = mpp::formats_for_path(path);
    if (candidates.empty()) throw std::invalid_argument("cannot deduce a file format from '" + path + "'; pass --input-format");
    format = candidates.front()->name;
  }
  std::printf("File size before: %.2f MB\n", megabytes(path));
  mpp::Mesh mesh = read_with_progress(path, format);
  std::string last;
  bool written = false;
  for (const auto& options : attempts) {
    try {
      Progress p("writing " + path);
      mpp::write(path, mesh, format, options);
      written = true;
      break;
    } catch (const std::invalid_argument& e) {
      last = e.what();
      if (last.find("unknown option") == std::string::npos) throw;
    }
  }
  if (!written) throw std::invalid_argument(a.verb + ": the " + format + " writer has no option for this (" + last + ")");
  std::printf("File size after: %.2f MB\n", megabytes(path));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    Args a = parse(argc, argv);
    if (a.verb.empty() || a.verb == "help") {
      std::fputs(kUsage, a.verb.empty() ? stderr : stdout);
      return a.verb.empty() ? 2 : 0;
    }
    if (a.verb == "version") {
      std::puts("meshioplusplus (C++)");
      return 0;
    }
    if (a.verb == "formats") {
      for (const auto& f : mpp::formats()) {
        std::string exts;
        for (const auto& e : f.extensions) exts += " " + e;
        std::printf("%-10s %s%s:%s\n", f.name.c_str(), f.read ? "r" : "-", f.write ? "w" : "-", exts.c_str());
      }
      return 0;
    }
    if (a.verb == "info" && a.files.size() == 1) {
      mpp::Mesh mesh = read_with_progress(a.files[0], a.input_format);
      std::fputs(mpp::summary(mesh).c_str(), stdout);
      // meshio's info checks: cells pointing past the points, points no cell uses.
      std::vector<bool> used(mesh.num_points(), false);
      bool consistent = true;
      for (const auto& b : mesh.cells) {
        const mpp::NDArray& nodes = b.ragged ? b.indices : b.connectivity;
        for (std::size_t i = 0; i < nodes.size() && consistent; ++i) {
          const std::int64_t v = nodes.value_as_int64(i);
          if (v < 0 || static_cast<std::size_t>(v) >= used.size()) consistent = false;
          else used[static_cast<std::size_t>(v)] = true;
        }
      }
      if (!consistent) std::fputs("meshioplusplus: warning: Inconsistent mesh. Cells refer to nonexistent points.\n", stderr);
      else if (std::find(used.begin(), used.end(), false) != used.end())
        std::fputs("meshioplusplus: warning: Some points are not part of any cell.\n", stderr);
      return 0;
    }
    if (a.verb == "convert" && a.files.size() == 2) {
      mpp::Mesh mesh = read_with_progress(a.files[0], a.input_format);
      if (a.prune) {
        mpp::remove_lower_dimensional_cells(mesh);
        mpp::remove_orphaned_nodes(mesh);
      }
      if (a.prune_z) mpp::prune_z_0(mesh);
      if (a.sets_to_int) mpp::sets_to_int_data(mesh);
      if (a.int_to_sets) mpp::int_data_to_sets(mesh);
      mpp::Options options;
      if (a.ascii) options["binary"] = "false";
      if (!a.float_format.empty()) options["float_fmt"] = a.float_format;
      Progress p("writing " + a.files[1]);
      mpp::write(a.files[1], mesh, a.output_format, options);
      return 0;
    }
    if (a.files.size() == 1) {
      if (a.verb == "compress")
        return rewrite(a, {{{"binary", "true"}, {"compression", a.max ? "lzma" : "zlib"}}, {{"binary", "true"}},
                           {{"compression", "gzip"}}});  // the last: Exodus (gzip inside netCDF-4)
      if (a.verb == "decompress")
        return rewrite(a, {{{"binary", "true"}, {"compression", "None"}}, {{"compression", "None"}}});
      if (a.verb == "ascii") return rewrite(a, {{{"binary", "false"}}});
      if (a.verb == "binary") return rewrite(a, {{{"binary", "true"}}});
    }
    std::fputs(kUsage, stderr);
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "meshioplusplus: error: %s\n", e.what());
    return 1;
  }
}
