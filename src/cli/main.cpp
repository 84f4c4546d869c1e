// meshio++ command-line tool (C++, no Python): `meshioplusplus convert IN OUT` and
// `meshioplusplus info FILE`, with meshio's option names where they overlap
// (--input-format/-i, --output-format/-o, --ascii/-a, --float-format/-f).
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "meshioplusplus/meshioplusplus.hpp"

namespace mpp = meshioplusplus;

namespace {

const char* kUsage =
    "usage: meshioplusplus convert INFILE OUTFILE [-i FORMAT] [-o FORMAT] [-a|--ascii] [-f FLOAT_FMT]\n"
    "       meshioplusplus info INFILE [-i FORMAT]\n"
    "       meshioplusplus formats\n"
    "\n"
    "Reads and writes unstructured meshes (meshio++ C++ core).\n"
    "  convert   read INFILE and write it as OUTFILE (format from the extension or -o)\n"
    "  info      print a summary of INFILE\n"
    "  formats   list the formats this build reads and writes\n"
    "options:\n"
    "  -i, --input-format FORMAT    format of INFILE (default: from its extension)\n"
    "  -o, --output-format FORMAT   format of OUTFILE (default: from its extension)\n"
    "  -a, --ascii                  write ASCII where the format has a choice\n"
    "  -f, --float-format FMT       float format of ASCII output, e.g. .16e\n"
    "  -h, --help                   show this help\n";

struct Args {
  std::string verb;
  std::vector<std::string> files;
  std::string input_format, output_format, float_format;
  bool ascii = false;
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
    else if (s == "-i" || s == "--input-format") a.input_format = value();
    else if (s == "-o" || s == "--output-format") a.output_format = value();
    else if (s == "-f" || s == "--float-format") a.float_format = value();
    else if (s == "-a" || s == "--ascii") a.ascii = true;
    else if (!s.empty() && s[0] == '-') throw std::invalid_argument("unknown option " + s);
    else if (a.verb.empty()) a.verb = s;
    else a.files.push_back(s);
  }
  return a;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    Args a = parse(argc, argv);
    if (a.verb.empty() || a.verb == "help") {
      std::fputs(kUsage, a.verb.empty() ? stderr : stdout);
      return a.verb.empty() ? 2 : 0;
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
      mpp::Mesh mesh = mpp::read(a.files[0], a.input_format);
      std::fputs(mpp::summary(mesh).c_str(), stdout);
      return 0;
    }
    if (a.verb == "convert" && a.files.size() == 2) {
      mpp::Mesh mesh = mpp::read(a.files[0], a.input_format);
      mpp::Options options;
      if (a.ascii) options["binary"] = "false";
      if (!a.float_format.empty()) options["float_fmt"] = a.float_format;
      mpp::write(a.files[1], mesh, a.output_format, options);
      return 0;
    }
    std::fputs(kUsage, stderr);
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "meshioplusplus: error: %s\n", e.what());
    return 1;
  }
}
