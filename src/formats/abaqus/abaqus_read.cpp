// meshio++ Abaqus reader: the mesh part of an input deck.
// Spec: Abaqus Keywords Reference Guide, restated in the CalculiX User's Manual
// (http://www.dhondt.de/ccx_2.20.pdf, section 7: *NODE, *ELEMENT, *NSET, *ELSET, *SURFACE,
// *INCLUDE; the input-syntax rules of section 7.1). Parts, assemblies and instances follow
// the Abaqus Analysis User's Guide, "Defining an assembly".
//
// Syntax: a line starting with "**" is a comment; a line starting with '*' is a keyword
// line ("*ELEMENT, TYPE=C3D8, ELSET=EALL"), keywords and parameter names are
// case-insensitive, a keyword line ending with a comma continues on the next line; other
// lines are data lines of comma-separated fields. An element's node labels may continue
// over several data lines. Node and element labels are sparse and in any order.
//
// What is read: *NODE (NSET=), *ELEMENT (TYPE=, ELSET=), *NSET/*ELSET (GENERATE, INSTANCE=,
// members that are other sets, *NSET ELSET=), *SURFACE (TYPE=ELEMENT face labels as side
// regions, TYPE=NODE as point regions), *INCLUDE and the INPUT= parameter of data
// keywords (relative to the including file; a cycle is an error), *PART / *ASSEMBLY /
// *INSTANCE (translation and rotation lines; names of instance sets become "inst.set"),
// *HEADING. Everything else is skipped with a warning (meshioplusplus::warn, see warnings.hpp) naming the keyword
// and its line (a *STEP is skipped whole, with one warning); an unknown element type skips
// that *ELEMENT block with a warning.
//
// Safe for untrusted input: every field is bounded by its line, every array grows with the
// bytes read, set generation and set expansion are charged to a work budget proportional to
// the mesh, includes name regular files only, nest at most 64 deep and number at most 4096
// (a deck can include any file its reader may read, as Abaqus does: do not read untrusted
// decks with includes in a privileged place).
#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/io/cursor.hpp"
#include "core/io/file.hpp"
#include "core/growable_buffer.hpp"
#include "core/label_list.hpp"
#include "core/label_map.hpp"
#include "formats/abaqus/abaqus_internal.hpp"
#include "meshioplusplus/cell_types.hpp"
#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/warnings.hpp"

namespace meshioplusplus::abaqus {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kFormat = "abaqus";
constexpr std::size_t kMaxWarnings = 100;
constexpr std::size_t kMaxIncludeDepth = 64;
constexpr std::size_t kMaxIncludes = 4096;
constexpr std::size_t kMaxSetDepth = 1000;

struct Where {
  std::size_t file = 0;
  std::int64_t line = -1;
  std::int64_t byte = -1;
};

struct ElementBlock {
  std::string type;  // meshio name
  std::size_t k = 0;  // nodes per element
  LabelList labels;
  GrowableBuffer nodes;  // int64 node labels, k per element; resolved in place, then the block
  Where where;
};

// One keyword block's contribution to a set: labels, GENERATE ranges, member sets.
struct SetChunk {
  int space = -1;  // the label space of the labels (INSTANCE=); -1: the set's own
  std::vector<std::int64_t> labels;
  std::vector<std::array<std::int64_t, 3>> ranges;
  std::vector<std::string> refs;  // names of member sets
  std::string from_elset;         // *NSET, ELSET=: the nodes of that element set
  Where where;
};

struct SetDef {
  std::string name;  // as first written
  std::vector<SetChunk> chunks;
  int state = 0;  // resolution: 0 not yet, 1 in progress, 2 done
  std::vector<std::int64_t> resolved;  // sorted global point or cell indices
};

struct SurfaceItem {
  std::int64_t label = -1;  // an element or node label, or -1 when `set` names a set
  std::string set;
  std::string face;  // upper case ("S3"), empty when absent
  Where where;
};

struct SurfaceDef {
  std::string name;
  bool node = false;  // TYPE=NODE
  std::vector<SurfaceItem> items;
  Where where;
};

using SetTable = std::pair<std::vector<SetDef>, std::map<std::string, std::size_t>>;

// A label space: the top level (model or assembly), a part, or an instance of a part.
struct Space {
  std::string name;    // part or instance name, "" at the top level
  std::string prefix;  // "inst." for instances
  LabelList node_labels;
  std::vector<double> xyz;  // 3 per node
  int dim = 0;              // most coordinates given on any node line
  std::vector<ElementBlock> blocks;
  SetTable nsets, elsets;
  std::vector<SurfaceDef> surfaces;
  std::map<std::string, std::size_t> surface_index;
  // An instance: the part's nodes come first and move with the transform.
  std::size_t part_nodes = 0;
  int transform_lines = 0;
  double translation[3] = {0, 0, 0};
  double axis_a[3] = {0, 0, 0}, axis_b[3] = {0, 0, 0}, angle = 0;
  bool emitted = false;  // top level and instances; parts only through their instances
  // Assembly.
  LabelMap nodes, elements;
  std::int64_t point_base = 0, cell_base = 0;
};

enum class Ctx { none, skip, node, element, nset, elset, surface, instance };

std::string upper(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  bool space = false;
  for (char c : s) {
    if (c == ' ' || c == '\t' || c == '\r') {
      space = !out.empty();
      continue;
    }
    if (space) out.push_back(' '), space = false;
    out.push_back((c >= 'a' && c <= 'z') ? static_cast<char>(c - 32) : c);
  }
  return out;
}

struct Keyword {
  std::string name;  // upper case, single spaces: "END PART"
  std::vector<std::pair<std::string, std::string>> params;  // (KEY, value as written)
  Where where;
  bool has(std::string_view key) const {
    for (const auto& p : params)
      if (p.first == key) return true;
    return false;
  }
  std::string get(std::string_view key) const {
    for (const auto& p : params)
      if (p.first == key) return p.second;
    return "";
  }
};

Keyword parse_keyword(std::string_view text, Where where) {
  Keyword kw;
  kw.where = where;
  text.remove_prefix(1);  // '*'
  kw.name = upper(io::next_field(text));
  while (!text.empty()) {
    std::string_view f = io::next_field(text);
    if (f.empty()) continue;
    const std::size_t eq = f.find('=');
    std::string key = upper(f.substr(0, eq));
    std::string_view value = eq == std::string_view::npos ? std::string_view() : io::Cursor::trim(f.substr(eq + 1));
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
    kw.params.emplace_back(std::move(key), std::string(value));
  }
  return kw;
}

class Reader {
 public:
  explicit Reader(const std::string& path) { spaces_.emplace_back().emitted = true; main_path_ = path; }

  Mesh run() {
    include(main_path_, Where{});
    end_context(Where{0, -1, -1});
    return assemble();
  }

 private:
  struct File {
    std::string path;
    std::unique_ptr<io::FileBytes> bytes;
  };

  // --- errors and warnings ---------------------------------------------------------------
  std::string message(const Where& w, std::string_view what) const {
    const std::string& path = files_.empty() ? main_path_ : files_[w.file].path;
    return error_message(kFormat, path, Position{w.line, w.byte}, what);
  }
  [[noreturn]] void fail(const Where& w, std::string_view what) const { throw ReadError(message(w, what)); }
  void warn(const Where& w, std::string_view what) {
    if (warnings_.size() < kMaxWarnings) warnings_.push_back(message(Where{w.file, w.line, -1}, what));
    else ++suppressed_;
  }

  // --- files -----------------------------------------------------------------------------
  // Reads `path` (relative to the including file) as if its lines stood in place of the
  // including line.
  void include(const std::string& path, const Where& from) {
    fs::path p(path);
    if (!chain_.empty() && p.is_relative()) p = fs::path(files_[chain_.back()].path).parent_path() / p;
    std::error_code ec;
    fs::path canon = fs::weakly_canonical(p, ec);
    if (ec) canon = p;
    if (!chain_.empty()) {
      if (!fs::is_regular_file(p, ec)) fail(from, "cannot include '" + p.string() + "': not a regular file");
      std::string cycle;
      for (std::size_t f : chain_) {
        if (!cycle.empty() || canonical_[f] == canon) cycle += files_[f].path + " -> ";
      }
      if (!cycle.empty()) fail(from, "include cycle: " + cycle + p.string());
      if (chain_.size() >= kMaxIncludeDepth) fail(from, "includes nested deeper than " + std::to_string(kMaxIncludeDepth));
      // Distinct files that each include the next twice would read 2^depth files.
      if (files_.size() >= kMaxIncludes) fail(from, "more than " + std::to_string(kMaxIncludes) + " includes");
    }
    files_.push_back(File{p.string(), std::make_unique<io::FileBytes>(p.string(), kFormat)});
    canonical_.push_back(canon);
    const std::size_t id = files_.size() - 1;
    chain_.push_back(id);
    parse(id);
    chain_.pop_back();
  }

  void parse(std::size_t file) {
    io::Cursor c(files_[file].bytes->text(), kFormat, files_[file].path);
    if (c.rest().substr(0, 3) == "\xEF\xBB\xBF") c.seek(3);  // a UTF-8 byte order mark
    std::int64_t line_no = 0;
    while (!c.at_end()) {
      const char* at = c.ptr();
      std::string_view line = c.line();
      ++line_no;
      std::size_t i = 0;
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
      if (i == line.size()) continue;
      line.remove_prefix(i);
      const Where where{file, line_no, static_cast<std::int64_t>(at - c.begin())};
      if (line[0] != '*') {
        data(line, where);
        continue;
      }
      if (line.size() > 1 && line[1] == '*') continue;  // comment
      std::string text(line);
      // A keyword line ending with a comma continues on the next line.
      while (!io::Cursor::trim(text).empty() && io::Cursor::trim(text).back() == ',' && !c.at_end()) {
        io::Cursor peek = c;
        std::string_view next = io::Cursor::trim(peek.line());
        if (next.substr(0, 2) == "**") {
          c = peek, ++line_no;
          continue;
        }
        if (!next.empty() && next[0] == '*') break;
        c = peek, ++line_no;
        text.append(next);
      }
      keyword(parse_keyword(text, where));
    }
  }

  // --- keywords --------------------------------------------------------------------------
  Space& cur() { return spaces_[static_cast<std::size_t>(cur_)]; }

  SetChunk& chunk(SetTable& table, const std::string& name, const Where& where) {
    auto [it, fresh] = table.second.try_emplace(upper(name), table.first.size());
    if (fresh) table.first.push_back(SetDef{name, {}, 0, {}});
    SetDef& set = table.first[it->second];
    set.chunks.emplace_back();
    set.chunks.back().where = where;
    return set.chunks.back();
  }

  void end_context(const Where& where) {
    if (ctx_ == Ctx::element && fill_ != 0)
      fail(element_start_, "element " + std::to_string(block_->labels.back()) + " has " + std::to_string(fill_ - 1) + " of its " +
                                 std::to_string(block_->k) + " node labels" + (where.line < 0 ? " at the end of the file" : " before the next keyword"));
    ctx_ = Ctx::skip;
    block_ = nullptr, chunk_ = nullptr, node_set_ = nullptr, surface_ = nullptr;
    fill_ = 0;
  }

  void keyword(const Keyword& kw) {
    const std::string& k = kw.name;
    if (in_step_) {
      if (k == "END STEP") in_step_ = false;
      return;
    }
    if (k == "INCLUDE") {  // textual inclusion: the current data context carries on
      const std::string input = kw.get("INPUT");
      if (input.empty()) fail(kw.where, "expected *INCLUDE, INPUT=<file>, found no INPUT parameter");
      include(input, kw.where);
      return;
    }
    end_context(kw.where);
    if (k == "NODE") {
      Space& s = cur();
      const std::string system = upper(kw.get("SYSTEM"));
      if (!system.empty() && system != "R")
        warn(kw.where, "*NODE, SYSTEM=" + system + ": coordinates are read as rectangular (not converted)");
      if (kw.has("NSET")) node_set_ = &chunk(s.nsets, kw.get("NSET"), kw.where);
      ctx_ = Ctx::node;
    } else if (k == "ELEMENT") {
      const std::string type = upper(kw.get("TYPE"));
      const std::string_view ours = meshio_type(type);
      if (type.empty() || ours.empty()) {
        warn(kw.where, type.empty() ? "*ELEMENT without TYPE=: its elements are skipped"
                                    : "unknown element type " + type + ": its elements are skipped");
      } else {
        Space& s = cur();
        s.blocks.emplace_back();
        block_ = &s.blocks.back();
        block_->type = std::string(ours);
        block_->k = static_cast<std::size_t>(cell_type(ours).num_nodes);
        block_->where = kw.where;
        if (kw.has("ELSET")) chunk_ = &chunk(s.elsets, kw.get("ELSET"), kw.where);
        ctx_ = Ctx::element;
      }
    } else if (k == "NSET" || k == "ELSET") {
      const bool nodes = k == "NSET";
      const std::string name = kw.get(k);
      if (name.empty()) {
        warn(kw.where, "*" + k + " without " + k + "=: skipped");
      } else {
        Space& s = cur();
        int space = -1;
        if (kw.has("INSTANCE")) {
          auto it = instance_index_.find(upper(kw.get("INSTANCE")));
          if (it == instance_index_.end()) {
            warn(kw.where, "*" + k + ", INSTANCE=" + kw.get("INSTANCE") + ": no such instance; set skipped");
            return;
          }
          space = it->second;
        }
        chunk_ = &chunk(nodes ? s.nsets : s.elsets, name, kw.where);
        chunk_->space = space;
        if (nodes && kw.has("ELSET")) chunk_->from_elset = kw.get("ELSET");
        generate_ = kw.has("GENERATE");
        ctx_ = nodes ? Ctx::nset : Ctx::elset;
      }
    } else if (k == "SURFACE") {
      const std::string name = kw.get("NAME");
      const std::string type = kw.has("TYPE") ? upper(kw.get("TYPE")) : "ELEMENT";
      if (name.empty() || (type != "ELEMENT" && type != "NODE")) {
        warn(kw.where, name.empty() ? "*SURFACE without NAME=: skipped" : "*SURFACE, TYPE=" + type + ": not mesh faces; skipped");
      } else {
        Space& s = cur();
        auto [it, fresh] = s.surface_index.try_emplace(upper(name), s.surfaces.size());
        if (fresh) s.surfaces.push_back(SurfaceDef{name, type == "NODE", {}, kw.where});
        surface_ = &s.surfaces[it->second];
        ctx_ = Ctx::surface;
      }
    } else if (k == "PART") {
      const std::string name = kw.get("NAME");
      spaces_.emplace_back().name = name;
      cur_ = static_cast<int>(spaces_.size() - 1);
      part_index_[upper(name)] = cur_;
    } else if (k == "END PART" || k == "END INSTANCE") {
      cur_ = 0;
    } else if (k == "ASSEMBLY" || k == "END ASSEMBLY") {
      cur_ = 0;
    } else if (k == "INSTANCE") {
      const std::string name = kw.get("NAME"), part = kw.get("PART");
      auto it = part_index_.find(upper(part));
      if (it == part_index_.end()) {
        warn(kw.where, "*INSTANCE " + name + ": no part named '" + part + "' defined before it; the instance holds only what it defines itself");
        spaces_.emplace_back();
      } else {
        Space copy = spaces_[static_cast<std::size_t>(it->second)];
        spaces_.push_back(std::move(copy));
        instanced_[it->second] = true;
      }
      Space& s = spaces_.back();
      s.name = name;
      s.prefix = name + ".";
      s.part_nodes = s.node_labels.size();
      s.emitted = true;
      cur_ = static_cast<int>(spaces_.size() - 1);
      instance_index_[upper(name)] = cur_;
      ctx_ = Ctx::instance;
    } else if (k == "HEADING") {
      // The deck's title: not mesh data, and not worth a warning.
    } else if (k == "STEP") {
      warn(kw.where, "skipped *STEP (history data up to *END STEP: not mesh data)");
      in_step_ = true;
    } else {
      warn(kw.where, "skipped *" + k + " (not mesh data)");
    }
    // INPUT= on a data keyword: the data lines are in that file.
    if (ctx_ != Ctx::skip && ctx_ != Ctx::instance && kw.has("INPUT")) include(kw.get("INPUT"), kw.where);
  }

  // --- data lines ------------------------------------------------------------------------
  void data(std::string_view line, const Where& where) {
    switch (ctx_) {
      case Ctx::node: return node_line(line, where);
      case Ctx::element: return element_line(line, where);
      case Ctx::nset:
      case Ctx::elset: return set_line(line, where);
      case Ctx::surface: return surface_line(line, where);
      case Ctx::instance: return instance_line(line, where);
      case Ctx::none:
        warn(where, "data line before any keyword: skipped");
        ctx_ = Ctx::skip;
        return;
      case Ctx::skip: return;
    }
  }

  std::int64_t label(std::string_view f, const Where& where, const char* what) const {
    std::int64_t v = 0;
    if (!io::parse_field(f, v) || v < 0) fail(where, expected_found(std::string("a ") + what + " (a non-negative integer)", f));
    return v;
  }

  void node_line(std::string_view line, const Where& where) {
    Space& s = cur();
    const std::int64_t id = label(io::next_field(line), where, "node label");
    double x[3] = {0, 0, 0};
    int n = 0;
    while (!line.empty() && n < 3) {
      std::string_view f = io::next_field(line);
      if (f.empty() && line.empty()) break;  // a trailing comma adds no coordinate
      if (!f.empty() && !io::parse_field(f, x[n])) fail(where, expected_found("a coordinate", f));
      ++n;
    }
    // Fields after the third coordinate (a normal's direction cosines) are not mesh data.
    s.node_labels.push_back(id);
    s.xyz.insert(s.xyz.end(), x, x + 3);
    s.dim = std::max(s.dim, n);
    if (node_set_) node_set_->labels.push_back(id);
  }

  void element_line(std::string_view line, const Where& where) {
    ElementBlock& b = *block_;
    while (!line.empty()) {
      std::string_view f = io::next_field(line);
      if (f.empty()) {
        if (line.empty()) break;  // a trailing comma: the element continues on the next line
        fail(where, std::string("expected ") + (fill_ == 0 ? "an element label" : "a node label") + ", found an empty field");
      }
      const std::int64_t v = label(f, where, fill_ == 0 ? "element label" : "node label");
      if (fill_ == 0) {
        b.labels.push_back(v);
        if (chunk_) chunk_->labels.push_back(v);
        element_start_ = where;
      } else {
        b.nodes.push(v);
      }
      if (++fill_ == b.k + 1) fill_ = 0;
    }
  }

  void set_line(std::string_view line, const Where& where) {
    SetChunk& c = *chunk_;
    if (generate_) {
      std::int64_t v[3] = {0, 0, 1};
      int n = 0;
      while (!line.empty()) {
        std::string_view f = io::next_field(line);
        if (f.empty()) continue;
        if (n == 3) fail(where, expected_found("first, last, increment of *" + std::string(ctx_ == Ctx::nset ? "NSET" : "ELSET") + ", GENERATE", f));
        v[n++] = label(f, where, "label");
      }
      if (n < 2 || v[2] < 1) fail(where, "expected first, last[, increment >= 1] of a GENERATE line, found " + std::to_string(n) + " values");
      c.ranges.push_back({v[0], v[1], v[2]});
      return;
    }
    while (!line.empty()) {
      std::string_view f = io::next_field(line);
      if (f.empty()) continue;
      std::int64_t v = 0;
      if (io::parse_field(f, v) && v >= 0) c.labels.push_back(v);
      else c.refs.emplace_back(f.size() >= 2 && f.front() == '"' && f.back() == '"' ? f.substr(1, f.size() - 2) : f);
    }
  }

  void surface_line(std::string_view line, const Where& where) {
    SurfaceItem item;
    item.where = where;
    std::string_view first = io::next_field(line);
    std::int64_t v = 0;
    if (io::parse_field(first, v) && v >= 0) item.label = v;
    else item.set = std::string(first);
    item.face = upper(io::next_field(line));
    if (surface_->node) item.face.clear();  // a node surface's second field is a weight
    surface_->items.push_back(std::move(item));
  }

  void instance_line(std::string_view line, const Where& where) {
    Space& s = cur();
    double v[7] = {0, 0, 0, 0, 0, 0, 0};
    int n = 0;
    while (!line.empty() && n < 7) {
      std::string_view f = io::next_field(line);
      if (!f.empty() && !io::parse_field(f, v[n])) fail(where, expected_found("a number", f));
      ++n;
    }
    if (s.transform_lines == 0) {
      std::copy(v, v + 3, s.translation);
    } else if (s.transform_lines == 1) {
      std::copy(v, v + 3, s.axis_a);
      std::copy(v + 3, v + 6, s.axis_b);
      s.angle = v[6];
    } else {
      warn(where, "*INSTANCE " + s.name + ": data line after the translation and rotation lines skipped");
    }
    ++s.transform_lines;
  }

  // --- assembly --------------------------------------------------------------------------
  static void transform(Space& s) {
    if (s.transform_lines == 0) return;
    const double* t = s.translation;
    double axis[3] = {s.axis_b[0] - s.axis_a[0], s.axis_b[1] - s.axis_a[1], s.axis_b[2] - s.axis_a[2]};
    const double len = std::sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
    const bool rotate = s.transform_lines > 1 && len > 0 && s.angle != 0;
    double r[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    if (rotate) {  // Rodrigues: rotation by `angle` degrees about the unit axis through a and b
      const double u[3] = {axis[0] / len, axis[1] / len, axis[2] / len};
      const double th = s.angle * std::acos(-1.0) / 180.0, c = std::cos(th), sn = std::sin(th);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) r[i][j] = (i == j ? c : 0) + (1 - c) * u[i] * u[j];
      r[0][1] -= sn * u[2], r[0][2] += sn * u[1], r[1][0] += sn * u[2], r[1][2] -= sn * u[0], r[2][0] -= sn * u[1], r[2][1] += sn * u[0];
    }
    // Abaqus applies the translation first, then the rotation.
    for (std::size_t i = 0; i < s.part_nodes; ++i) {
      double* p = &s.xyz[3 * i];
      double q[3] = {p[0] + t[0] - s.axis_a[0], p[1] + t[1] - s.axis_a[1], p[2] + t[2] - s.axis_a[2]};
      for (int d = 0; d < 3; ++d) p[d] = r[d][0] * q[0] + r[d][1] * q[1] + r[d][2] * q[2] + s.axis_a[d];
      if (p[2] != 0) s.dim = 3;  // a planar part moved out of its plane
    }
  }

  // Charges `n` steps of set work to the budget (proportional to the mesh).
  void charge(std::uint64_t n, const Where& where) {
    work_ += n;
    if (work_ > budget_)
      fail(where, "sets and surfaces expand to more than " + std::to_string(budget_) + " entries (a set of sets or GENERATE range that multiplies the mesh)");
  }

  SetDef* find_set(SetTable& table, const std::string& name) {
    auto it = table.second.find(upper(name));
    return it == table.second.end() ? nullptr : &table.first[it->second];
  }
  // A member set named in space `s` ("name", or "instance.name" from the assembly).
  std::pair<Space*, SetDef*> lookup(Space& s, Space* alt, const std::string& name, bool nodes) {
    for (Space* sp : {&s, alt}) {
      if (!sp) continue;
      if (SetDef* d = find_set(nodes ? sp->nsets : sp->elsets, name)) return {sp, d};
    }
    const std::size_t dot = name.find('.');
    if (dot != std::string::npos) {
      auto it = instance_index_.find(upper(name.substr(0, dot)));
      if (it != instance_index_.end()) {
        Space& inst = spaces_[static_cast<std::size_t>(it->second)];
        if (SetDef* d = find_set(nodes ? inst.nsets : inst.elsets, name.substr(dot + 1))) return {&inst, d};
      }
    }
    return {nullptr, nullptr};
  }

  const std::vector<std::int64_t>& resolve(Space& s, SetDef& set, bool nodes) {
    if (set.state == 2) return set.resolved;
    if (set.state == 1) {
      warn(set.chunks.front().where, "set " + s.prefix + set.name + " contains itself (through its member sets); the cycle is cut");
      return set.resolved;
    }
    // Member sets resolve recursively: bound the depth (each level is a distinct set).
    if (++depth_ > kMaxSetDepth) fail(set.chunks.front().where, "sets nested deeper than " + std::to_string(kMaxSetDepth) + " levels");
    set.state = 1;
    std::vector<std::int64_t> out;
    std::size_t missing = 0;
    std::int64_t example = 0;
    for (const SetChunk& c : set.chunks) {
      Space& ls = c.space >= 0 ? spaces_[static_cast<std::size_t>(c.space)] : s;
      const LabelMap& map = nodes ? ls.nodes : ls.elements;
      const std::int64_t base = nodes ? ls.point_base : ls.cell_base;
      charge(c.labels.size(), c.where);
      for (std::int64_t l : c.labels) {
        const std::int64_t p = map.find(l);
        if (p >= 0) out.push_back(base + p);
        else if (missing++ == 0) example = l;
      }
      for (const auto& r : c.ranges) {
        charge(map.range_steps(r[0], r[1], r[2]), c.where);
        map.for_each_in_range(r[0], r[1], r[2], [&](std::int64_t p) { out.push_back(base + p); });
      }
      for (const std::string& ref : c.refs) {
        auto [rs, rd] = lookup(ls, &s, ref, nodes);
        if (!rd) {
          warn(c.where, "set " + s.prefix + set.name + ": member '" + ref + "' is neither a label nor a defined " + (nodes ? "node" : "element") + " set; skipped");
          continue;
        }
        const auto& members = resolve(*rs, *rd, nodes);
        charge(members.size(), c.where);
        out.insert(out.end(), members.begin(), members.end());
      }
      if (!c.from_elset.empty()) {
        auto [rs, rd] = lookup(ls, &s, c.from_elset, false);
        if (!rd) {
          warn(c.where, "set " + s.prefix + set.name + ": ELSET=" + c.from_elset + " is not a defined element set; skipped");
        } else {
          for (std::int64_t cell : resolve(*rs, *rd, false)) {
            const auto& [conn, k] = cell_nodes(cell);
            charge(k, c.where);
            out.insert(out.end(), conn, conn + k);
          }
        }
      }
    }
    if (missing)
      warn(set.chunks.front().where, "set " + s.prefix + set.name + ": " + std::to_string(missing) + " label(s) name no " +
                                         (nodes ? "node" : "element") + " (" + std::to_string(example) + " is one); skipped");
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    set.resolved = std::move(out);
    set.state = 2;
    --depth_;
    return set.resolved;
  }

  std::pair<const std::int64_t*, std::size_t> cell_nodes(std::int64_t cell) const {
    const auto it = std::upper_bound(bases_.begin(), bases_.end(), cell) - 1;
    const std::size_t b = static_cast<std::size_t>(it - bases_.begin());
    const NDArray& conn = mesh_.cells[b].connectivity;
    const std::size_t k = conn.dim(1);
    return {conn.data<std::int64_t>() + static_cast<std::size_t>(cell - *it) * k, k};
  }

  Mesh assemble() {
    // Parts that no instance uses are read as if instanced once under their own name.
    for (auto& [key, id] : part_index_) {
      if (instanced_.count(id)) continue;
      Space& p = spaces_[static_cast<std::size_t>(id)];
      warn(Where{0, -1, -1}, "part " + p.name + " has no *INSTANCE; read in place as instance '" + p.name + "'");
      p.prefix = p.name + ".";
      p.emitted = true;
      instance_index_.try_emplace(key, id);
    }
    std::vector<Space*> order;
    for (Space& s : spaces_)
      if (s.emitted) order.push_back(&s);

    std::size_t npoints = 0, ncells = 0;
    int dim = 0;
    for (Space* s : order) {
      transform(*s);
      s->point_base = static_cast<std::int64_t>(npoints);
      s->cell_base = static_cast<std::int64_t>(ncells);
      npoints += s->node_labels.size();
      for (const ElementBlock& b : s->blocks) ncells += b.labels.size();
      if (!s->node_labels.empty()) dim = std::max(dim, s->dim);
    }
    dim = dim < 3 ? 2 : 3;
    mesh_.points = NDArray::uninit(DType::float64, {npoints, static_cast<std::size_t>(dim)});
    double* pts = mesh_.points.data<double>();
    for (Space* s : order) {
      for (std::size_t i = 0; i < s->node_labels.size(); ++i)
        for (int d = 0; d < dim; ++d) *pts++ = s->xyz[3 * i + static_cast<std::size_t>(d)];
      std::vector<double>().swap(s->xyz);
      const auto dn = s->nodes.build(s->node_labels);
      if (dn.duplicates)
        warn(Where{0, -1, -1}, std::to_string(dn.duplicates) + " node label(s) of " + (s->name.empty() ? "the model" : s->name) + " defined more than once (" +
                                   std::to_string(dn.first_duplicate) + " is one); elements and sets use the last definition");
      for (ElementBlock& b : s->blocks) {
        const std::size_t m = b.labels.size();
        std::int64_t* out = b.nodes.as<std::int64_t>();
        for (std::size_t i = 0; i < m * b.k; ++i) {
          const std::int64_t p = s->nodes.find(out[i]);
          if (p < 0)
            fail(b.where, "element " + std::to_string(b.labels[i / b.k]) + " (*ELEMENT, TYPE=" + b.type + " block) references node " +
                              std::to_string(out[i]) + ", which is not defined" + (s->name.empty() ? "" : " in " + s->name));
          out[i] = s->point_base + p;
        }
        if (const int* perm = node_permutation(b.type)) {
          std::vector<std::int64_t> row(b.k);
          for (std::size_t i = 0; i < m; ++i) {
            std::copy(out + i * b.k, out + (i + 1) * b.k, row.begin());
            for (std::size_t j = 0; j < b.k; ++j) out[i * b.k + j] = row[static_cast<std::size_t>(perm[j])];
          }
        }
        mesh_.cells.push_back(CellBlock::rectangular(b.type, b.nodes.take(DType::int64, {m, b.k})));
      }
      // The element labels, needed from here on only through the map (for the sets).
      const auto de = [&] {
        if (s->blocks.size() == 1) return s->elements.build(s->blocks.front().labels);
        LabelList all;
        for (const ElementBlock& b : s->blocks)
          for (std::size_t i = 0; i < b.labels.size(); ++i) all.push_back(b.labels[i]);
        return s->elements.build(all);
      }();
      for (ElementBlock& b : s->blocks) b.labels.clear();
      if (de.duplicates)
        warn(Where{0, -1, -1}, std::to_string(de.duplicates) + " element label(s) of " + (s->name.empty() ? "the model" : s->name) + " defined more than once (" +
                                   std::to_string(de.first_duplicate) + " is one); sets use the last definition");
    }
    bases_ = block_bases(mesh_.cells);
    budget_ = 64 * (npoints + ncells) + (1u << 20);

    for (Space* s : order) {
      for (SetDef& set : s->nsets.first) add_region(s->prefix + set.name, RegionKind::point, resolve(*s, set, true));
      for (SetDef& set : s->elsets.first) add_region(s->prefix + set.name, RegionKind::cell, resolve(*s, set, false));
      for (SurfaceDef& surf : s->surfaces) surface_region(*s, surf);
    }
    if (suppressed_) warnings_.push_back(std::to_string(suppressed_) + " more warnings not shown");
    for (std::string& w : warnings_) meshioplusplus::warn(std::move(w));
    return std::move(mesh_);
  }

  void add_region(const std::string& name, RegionKind kind, const std::vector<std::int64_t>& entries) {
    Region r;
    r.name = name;
    r.kind = kind;
    r.entries = NDArray::from_vector(entries);
    mesh_.regions.push_back(std::move(r));
  }

  void surface_region(Space& s, SurfaceDef& surf) {
    std::vector<std::int64_t> out;  // points, or (cell, facet) pairs
    std::vector<std::string> bad;
    for (const SurfaceItem& item : surf.items) {
      std::vector<std::int64_t> members;
      if (item.label >= 0) {
        const std::int64_t p = (surf.node ? s.nodes : s.elements).find(item.label);
        if (p < 0) {
          warn(item.where, "surface " + s.prefix + surf.name + ": " + (surf.node ? "node " : "element ") + std::to_string(item.label) + " is not defined; skipped");
          continue;
        }
        members.push_back((surf.node ? s.point_base : s.cell_base) + p);
      } else {
        auto [rs, rd] = lookup(s, nullptr, item.set, surf.node);
        if (!rd) {
          warn(item.where, "surface " + s.prefix + surf.name + ": '" + item.set + "' is not a defined " + (surf.node ? "node" : "element") + " set; skipped");
          continue;
        }
        members = resolve(*rs, *rd, surf.node);
      }
      charge(members.size(), item.where);
      if (surf.node) {
        out.insert(out.end(), members.begin(), members.end());
        continue;
      }
      if (item.face.empty()) {
        warn(item.where, "surface " + s.prefix + surf.name + ": an element set without a face label (all free faces) is not read; skipped");
        continue;
      }
      for (std::int64_t cell : members) {
        const std::size_t b = static_cast<std::size_t>(std::upper_bound(bases_.begin(), bases_.end(), cell) - bases_.begin() - 1);
        const std::string& type = mesh_.cells[b].type;
        const int facet = facet_of_face_label(type, item.face);
        if (facet < 0) {
          std::string what = item.face + " on " + type;
          if (std::find(bad.begin(), bad.end(), what) == bad.end()) {
            bad.push_back(what);
            warn(item.where, "surface " + s.prefix + surf.name + ": face label " + item.face + " does not name a face of a " + type + " element; skipped");
          }
          continue;
        }
        out.push_back(cell);
        out.push_back(facet);
      }
    }
    Region r;
    r.name = s.prefix + surf.name;
    r.kind = surf.node ? RegionKind::point : RegionKind::side;
    r.entries = surf.node ? NDArray::from_vector(out) : NDArray::from_vector(out, {out.size() / 2, 2});
    r.canonicalize();
    mesh_.regions.push_back(std::move(r));
  }

  std::string main_path_;
  std::vector<File> files_;
  std::vector<fs::path> canonical_;
  std::vector<std::size_t> chain_;
  std::deque<Space> spaces_;  // [0] is the top level; parts and instances follow
  std::map<std::string, int> part_index_, instance_index_;
  std::map<int, bool> instanced_;
  int cur_ = 0;
  Ctx ctx_ = Ctx::none;
  bool in_step_ = false;
  bool generate_ = false;
  ElementBlock* block_ = nullptr;
  SetChunk* chunk_ = nullptr;
  SetChunk* node_set_ = nullptr;
  SurfaceDef* surface_ = nullptr;
  std::size_t fill_ = 0;  // values of the current element record read so far
  Where element_start_;
  std::vector<std::string> warnings_;
  std::size_t suppressed_ = 0;
  std::uint64_t work_ = 0, budget_ = 0;
  std::size_t depth_ = 0;
  std::vector<std::int64_t> bases_;
  Mesh mesh_;
};

}  // namespace

Mesh read_abaqus(const std::string& path, const Options& options) {
  OptionReader opts(options, kFormat);
  opts.finish();
  return Reader(path).run();
}

}  // namespace meshioplusplus::abaqus
