// meshio++ core: format lookup, option parsing and the top-level read/write (see format.hpp).
#include "meshioplusplus/format.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "core/io/file.hpp"
#include "core/parallel.hpp"
#include "core/polygon_blocks.hpp"
#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/warnings.hpp"

namespace meshioplusplus {

namespace {

std::string known_format_names() {
  std::string out;
  for (const auto& f : formats()) out.append(out.empty() ? "" : ", ").append(f.name);
  return out.empty() ? "(none)" : out;
}

bool ends_with_ci(std::string_view s, std::string_view suffix) {
  if (suffix.size() > s.size()) return false;
  return std::equal(suffix.begin(), suffix.end(), s.end() - static_cast<std::ptrdiff_t>(suffix.size()),
                    [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b)); });
}

// `message` as error_message(format, path, ...) shapes it, without a leading "<format>: " it
// may already carry; unchanged when it names the file already: every error and warning of a
// read or write names the file.
std::string naming_the_file(const std::string& format, const std::string& path, std::string_view message) {
  if (message.find(path) != std::string_view::npos) return std::string(message);
  const std::string prefix = format + ": ";
  if (message.substr(0, prefix.size()) == prefix) message.remove_prefix(prefix.size());
  return error_message(format, path, {}, message);
}

const Format& format_for(const std::string& path, const std::string& format, bool for_write) {
  return format.empty() ? deduce_format(path, for_write) : find_format(format);
}

}  // namespace

const Format& find_format(std::string_view name) {
  for (const auto& f : formats())
    if (f.name == name) return f;
  throw std::invalid_argument("unknown file format '" + std::string(name) + "' (known: " + known_format_names() + ")");
}

std::vector<const Format*> formats_for_path(std::string_view path) { return formats_for_path(path, formats()); }

std::vector<const Format*> formats_for_path(std::string_view path, const std::vector<Format>& among) {
  std::vector<std::pair<std::size_t, const Format*>> hits;
  for (const auto& f : among)
    for (const auto& ext : f.extensions)
      if (ends_with_ci(path, ext)) hits.emplace_back(ext.size(), &f);
  std::stable_sort(hits.begin(), hits.end(), [](auto& a, auto& b) { return a.first > b.first; });
  std::vector<const Format*> out;
  for (auto& [len, f] : hits)
    if (std::find(out.begin(), out.end(), f) == out.end()) out.push_back(f);
  return out;
}

const Format& deduce_format(std::string_view path, bool for_write) {
  std::vector<const Format*> able;
  for (const Format* f : formats_for_path(path))
    if (for_write ? f->write != nullptr : f->read != nullptr) able.push_back(f);
  if (!for_write && able.size() > 1) {
    // Shared extension: the content decides where a candidate can tell its own files.
    std::string head(kClaimBytes, '\0');
    if (std::FILE* file = std::fopen(std::string(path).c_str(), "rb")) {
      head.resize(std::fread(head.data(), 1, head.size(), file));
      std::fclose(file);
      for (const Format* f : able)
        if (f->claims && f->claims(head)) return *f;
    }
  }
  if (!able.empty()) return *able.front();
  if (const auto named = formats_for_path(path); !named.empty())  // write-only formats (SVG)
    throw std::invalid_argument("format '" + named.front()->name + "' of '" + std::string(path) + "' cannot be " +
                                (for_write ? "written" : "read") + ": the format is " + (for_write ? "read" : "write") + "-only");
  throw std::invalid_argument("cannot deduce a file format from '" + std::string(path) +
                              "'; pass file_format= one of: " + known_format_names());
}

Mesh read(const std::string& path, const std::string& format, const Options& options) {
  const Format& f = format_for(path, format, false);
  if (!f.read) throw std::invalid_argument("format '" + f.name + "' cannot be read: the format is write-only");
  // `ragged` is an option of every format, handled here: true keeps variable-size cells as
  // one ragged block per run of one type instead of meshio's rectangular polygon /
  // polyhedron<n> blocks.
  Options format_options = options;
  Options ours;
  if (auto it = format_options.find("ragged"); it != format_options.end()) {
    ours.insert(*it);
    format_options.erase(it);
  }
  OptionReader reader(ours, f.name);
  const bool ragged = reader.get_bool("ragged", false);
  take_warnings();  // a failed earlier read on this thread may have left some
  Mesh mesh = f.read(path, format_options);
  // Each note names the format and the file, as errors do (a reader may already have).
  for (const std::string& w : take_warnings()) mesh.warnings.push_back(naming_the_file(f.name, path, w));
  if (!ragged) split_variable_blocks(mesh);
  // Every region comes out canonical, whichever reader made it (most are as made: looked
  // over on the read's threads), so Python takes the entries without a second look.
  const unsigned threads = OptionReader(format_options, f.name).threads();
  for (Region& r : mesh.regions) r.canonicalize(threads);
  return mesh;
}

namespace {

// meshio's write-only format names: a format and the version they ask of its writer.
struct WriteAlias {
  const char* name;
  const char* format;
  const char* option;
  const char* value;
};
constexpr WriteAlias kWriteAliases[] = {
    {"gmsh22", "gmsh", "fmt_version", "2.2"},
    {"vtk42", "vtk", "fmt_version", "4.2"},
    {"vtk51", "vtk", "fmt_version", "5.1"},
};

}  // namespace

std::vector<std::string> write_format_aliases() {
  std::vector<std::string> out;
  for (const auto& a : kWriteAliases) out.emplace_back(a.name);
  return out;
}

namespace {

// Runs `f`'s writer on `path`: a WriteError that does not name the file is made to, and each
// warning of the write names the format and the file, as errors do (the caller drains them).
template <class Writer> void run_writer(const Format& f, const std::string& path, const Writer& write_it) {
  take_warnings();
  try {
    write_it();
  } catch (const WriteError& e) {
    if (std::string_view(e.what()).find(path) != std::string_view::npos) throw;
    throw WriteError(naming_the_file(f.name, path, e.what()));
  }
  for (const std::string& w : take_warnings()) warn(naming_the_file(f.name, path, w));
}

}  // namespace

void write(const std::string& path, const Mesh& mesh, const std::string& format_name, const Options& given) {
  std::string format = format_name;
  Options options = given;
  for (const auto& a : kWriteAliases)
    if (format == a.name) {
      format = a.format;
      if (options.count(a.option) && options.at(a.option) != a.value)
        throw std::invalid_argument(std::string(a.name) + " writes " + a.option + "=" + a.value + ", the options ask for " +
                                    options.at(a.option));
      options[a.option] = a.value;
    }
  const Format& f = format_for(path, format, true);
  if (!f.write) throw std::invalid_argument("format '" + f.name + "' cannot be written");
  const bool sync = sync_option(options, f.name);
  options.erase("sync");
  mesh.validate();
  run_writer(f, path, [&] {
    const io::SyncScope scope(sync);
    f.write(path, mesh, options);
  });
}

namespace {
// The spellings of a boolean option (C++ "true"/"1", Python's str(True)).
bool parse_bool_option(std::string_view format, const std::string& key, const std::string& v) {
  if (v == "true" || v == "1" || v == "True") return true;
  if (v == "false" || v == "0" || v == "False") return false;
  throw std::invalid_argument(std::string(format) + ": option '" + key + "': expected true or false, found '" + v + "'");
}
}  // namespace

bool sync_option(const Options& options, std::string_view format) {
  const auto it = options.find("sync");
  return it == options.end() || parse_bool_option(format, "sync", it->second);
}

void write_pieces(const std::string& path, const std::vector<Mesh>& pieces, const std::string& format,
                  const Options& given) {
  const Format& f = format_for(path, format, true);
  Options options = given;
  const bool sync = sync_option(options, f.name);
  options.erase("sync");
  if (!f.write_pieces) throw std::invalid_argument("format '" + f.name + "' does not write pieces (pvtu and pvtp do)");
  if (pieces.empty()) throw std::invalid_argument(f.name + ": pieces is empty (give at least one mesh)");
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    try {
      pieces[i].validate();
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("piece " + std::to_string(i) + ": " + e.what());
    }
  }
  run_writer(f, path, [&] {
    const io::SyncScope scope(sync);
    f.write_pieces(path, pieces, options);
  });
}

OptionReader::OptionReader(const Options& options, std::string_view format) : options_(options), format_(format) {
  const long long requested = get_int("threads", 0);
  if (requested < 0) throw std::invalid_argument(format_ + ": option 'threads': expected a count >= 0, found " + std::to_string(requested));
  threads_ = resolve_threads(requested);
}

std::string OptionReader::get_string(const std::string& key, const std::string& fallback) {
  used_.insert(key);
  auto it = options_.find(key);
  return it == options_.end() ? fallback : it->second;
}

bool OptionReader::get_bool(const std::string& key, bool fallback) {
  return parse_bool_option(format_, key, get_string(key, fallback ? "true" : "false"));
}

long long OptionReader::get_int(const std::string& key, long long fallback) {
  const std::string v = get_string(key, std::to_string(fallback));
  std::size_t used = 0;
  long long out = 0;
  try {
    out = std::stoll(v, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != v.size() || v.empty())
    throw std::invalid_argument(format_ + ": option '" + key + "': expected an integer, found '" + v + "'");
  return out;
}

void OptionReader::finish() const {
  std::string unknown;
  for (const auto& [key, value] : options_)
    if (!used_.count(key)) unknown.append(unknown.empty() ? "" : ", ").append(key);
  if (unknown.empty()) return;
  std::string known;
  for (const auto& k : used_) known.append(known.empty() ? "" : ", ").append(k);
  throw std::invalid_argument(format_ + ": unknown option(s) " + unknown + " (accepted: " + (known.empty() ? "none" : known) + ")");
}

}  // namespace meshioplusplus
