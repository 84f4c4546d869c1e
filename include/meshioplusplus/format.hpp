// meshio++ core: the format registry and the top-level read/write entry points.
//
// Each format (src/formats/<name>/) describes itself with one Format value and is listed by
// one line in src/formats/registry.cpp. A path maps to candidate formats by its extension;
// multi-suffix names (".vtu.gz" style) match their longest suffix first. An explicit format
// name always wins. Unknown formats are reported with the list of known ones.
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "meshioplusplus/mesh.hpp"

namespace meshioplusplus {

// Keyword options of a read or write, as strings ("binary" -> "true", "fmt_version" -> "4.1").
using Options = std::map<std::string, std::string>;

struct Format {
  std::string name;                     // "gmsh"
  std::vector<std::string> extensions;  // {".msh"}
  Mesh (*read)(const std::string& path, const Options& options) = nullptr;
  void (*write)(const std::string& path, const Mesh& mesh, const Options& options) = nullptr;
  // Optional content check for reads of an extension several formats share (".msh": Gmsh
  // and ANSYS Fluent): true when `head`, the file's first bytes (up to kClaimBytes), looks
  // like this format. deduce_format reads the head only when more than one candidate can
  // read the path, and picks the first candidate whose check accepts it; when none does
  // (or the file cannot be opened) the extension rule alone decides.
  bool (*claims)(std::string_view head) = nullptr;
  // Collections of several files (pvtu, pvtp): one piece file per mesh plus the collection
  // file at `path`; nullptr for every other format.
  void (*write_pieces)(const std::string& path, const std::vector<Mesh>& pieces, const Options& options) = nullptr;
};

// How many bytes of a file deduce_format hands to Format::claims.
inline constexpr std::size_t kClaimBytes = 256;

// Every registered format, in registration order.
const std::vector<Format>& formats();
// By name; throws std::invalid_argument naming the known formats when unknown.
const Format& find_format(std::string_view name);
// Formats whose extension ends `path` (longest suffix first; equal lengths keep
// registration order); empty when none. The second form searches `among` instead of the
// registry (the same rule, for tests of the rule itself).
std::vector<const Format*> formats_for_path(std::string_view path);
std::vector<const Format*> formats_for_path(std::string_view path, const std::vector<Format>& among);
// The format a read (or write) of `path` uses when none is named: the first of
// formats_for_path(path) that can read (write); for a read with several such candidates,
// the first whose `claims` accepts the file's first bytes, if any does. Throws std::invalid_argument naming the
// known formats when there is none. Python asks this same function (_core.deduce_format).
const Format& deduce_format(std::string_view path, bool for_write);

// Reads `path` with `format` (deduced from the extension when empty). Its regions are
// canonical (Region::canonicalize).
Mesh read(const std::string& path, const std::string& format = "", const Options& options = {});
// meshio's write-only format names ("gmsh22", "vtk42", "vtk51"): write() takes them as
// the format plus the version option they imply.
std::vector<std::string> write_format_aliases();
// Validates `mesh` and writes it atomically to `path`. Besides the format's own options,
// every format takes `sync` ("true" by default): "false" skips flushing the file and its
// folder to the device before returning (the write stays atomic; see docs/robustness.md).
void write(const std::string& path, const Mesh& mesh, const std::string& format = "",
           const Options& options = {});
// The `sync` option of a write (true when absent); std::invalid_argument naming `format`
// for anything but true/false/1/0/True/False.
bool sync_option(const Options& options, std::string_view format);
// Validates each piece and writes them as one collection (a format with write_pieces:
// pvtu, pvtp); std::invalid_argument for any other format. Python: write(..., pieces=[...]).
void write_pieces(const std::string& path, const std::vector<Mesh>& pieces, const std::string& format = "",
                  const Options& options = {});

// Typed access to Options that remembers which keys were used, so finish() can reject the
// rest by name: a misspelt keyword is an error, never silently ignored.
class OptionReader {
 public:
  // Reads the `threads` option every reader and writer accepts (threads()).
  OptionReader(const Options& options, std::string_view format);
  std::string get_string(const std::string& key, const std::string& fallback);
  bool get_bool(const std::string& key, bool fallback);
  long long get_int(const std::string& key, long long fallback);
  // Threads a reader or writer may use: the `threads` option, 0 or absent = every core.
  // Accepted by every format whether or not it has parallel work, so the same options
  // work for any format; output never depends on it.
  unsigned threads() const { return threads_; }
  // Throws std::invalid_argument naming every unused key and the accepted ones.
  void finish() const;

 private:
  const Options& options_;
  std::string format_;
  std::set<std::string> used_;
  unsigned threads_ = 1;
};

}  // namespace meshioplusplus
