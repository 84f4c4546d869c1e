// meshio++ PERMAS reader.
// Spec: the PERMAS user reference, input syntax and $STRUCTURE records (see permas.hpp).
//
// A deck is a run of records: a line whose first non-blank character is '$' names the
// record ("$ELEMENT TYPE = TRIA3 ESET = SKIN"; keywords and parameter names in any case,
// "KEY = value" with or without blanks), and the data lines after it, up to the next '$',
// belong to it. '!' starts a comment running to the end of its line; a line starting with
// '&' continues the line before it (a record's parameters, or data). Data is read as a
// stream of numbers, so a row may also run over several lines (meshio writes none, but
// reads an element row continued after a trailing '!').
//
// Read: $COOR ("id x y z"; NSET = name puts the nodes in a point set), $ELEMENT TYPE = class
// ("id n1 n2 ..."; every class meshio maps, plus TRIA6 and QUAD8; ESET = name puts the
// elements in a cell set), $NSET NAME = name and $ESET NAME = name (ids; several records of
// one name add up). The records that only frame the model ($ENTER, $EXIT, $STRUCTURE, $END,
// $FIN) are passed over quietly; every other record ($SYSTEM, $MATERIAL, $LOADING,
// results, ...) and an $ELEMENT block of a class with no meshio type are skipped with one
// warning per keyword, naming its first line and count. Reals take PERMAS' spellings (Fortran
// 'D' exponents, "0.7+1").
//
// The mesh: one block per run of rows of one meshio type in file order, so a row's global
// cell index is its position among the rows read; triangle6, tetra10, quad9 and wedge15 rows
// are put in VTK's order. Sets become point and cell regions in the order their names first
// appear. A gzip file (.post.gz, .dato.gz; found by its magic bytes) is inflated first, into
// a buffer sized by its trailer after checking that size against deflate's largest ratio;
// error positions then count in the inflated text.
//
// Safe for untrusted input: arrays grow only with the rows actually present, every number
// is bounded by the end of the text, and labels are resolved after the whole deck is read.
#include <algorithm>
#include <cctype>
#include <cstring>
#include <limits>
#include <memory>
#include <unordered_map>
#include <vector>

#include "core/cell_collector.hpp"
#include "core/codec/zlib.hpp"
#include "core/io/cursor.hpp"
#include "core/io/file.hpp"
#include "core/growable_buffer.hpp"
#include "core/label_map.hpp"
#include "core/skip_log.hpp"
#include "formats/permas/permas_internal.hpp"
#include "meshioplusplus/cell_types.hpp"
#include "meshioplusplus/warnings.hpp"

namespace meshioplusplus::permas {

namespace {

constexpr io::RealSyntax kReal{true, true};
constexpr std::size_t kMaxWords = 64;  // words of one record kept

struct Set {
  std::string name;
  bool points = true;
  std::size_t line = 0;
  std::vector<std::int64_t> ids;
};

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// The deck's text: the file itself, or its gzip member inflated.
class Text {
 public:
  Text(const std::string& path) : file_(path, "permas") {
    const std::string err = codec::gunzip_if_gzip(file_.text(), io::kMaxCount, inflated_, text_);
    if (!err.empty()) throw read_error("permas", path, err);
  }
  std::string_view text() const { return text_; }

 private:
  io::FileBytes file_;
  std::vector<char> inflated_;
  std::string_view text_;
};

class Reader {
 public:
  explicit Reader(const std::string& path) : text_(path), cur_(text_.text(), "permas", path), lines_(cur_.begin()) {}

  Mesh read() {
    for (;;) {
      skip_filler();
      if (cur_.at_end()) break;
      if (*cur_.ptr() != '$') cur_.fail_expected("a '$' record");
      record();
    }
    return build();
  }

 private:
  // --- text ----------------------------------------------------------------------------------
  // Blanks, comments and continuation marks.
  void skip_filler() {
    for (;;) {
      cur_.skip_space();
      if (cur_.at_end()) return;
      const char c = *cur_.ptr();
      if (c == '!') cur_.line();
      else if (c == '&') cur_.set_ptr(cur_.ptr() + 1);
      else return;
    }
  }
  // Whether a data value follows (not the end, not the next record).
  bool more() {
    skip_filler();
    return !cur_.at_end() && *cur_.ptr() != '$';
  }
  std::int64_t label(const char* what) {
    if (!more()) cur_.fail_expected(what);
    const std::uint64_t v = cur_.index(what);
    if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) cur_.fail_expected(what);
    return static_cast<std::int64_t>(v);
  }
  double real(const char* what) {
    if (!more()) cur_.fail_expected(what);
    return cur_.real<double>(what, kReal);
  }
  std::size_t line_at(const char* at) { return lines_.line_at(at); }

  // --- records ------------------------------------------------------------------------------
  // The record's words (its '&' continuation lines included, comments left out); the cursor
  // moves to its data.
  std::size_t record_words(std::string_view* words) {
    std::size_t n = 0;
    cur_.set_ptr(cur_.ptr() + 1);  // the '$'
    for (;;) {
      std::string_view l = cur_.line();
      const std::size_t bang = l.find('!');
      if (bang != std::string_view::npos) l = l.substr(0, bang);
      std::size_t i = 0;
      while (i < l.size()) {
        while (i < l.size() && (io::is_space(l[i]) || l[i] == '=')) {
          if (l[i] == '=' && n < kMaxWords) words[n++] = l.substr(i, 1);
          ++i;
        }
        const std::size_t b = i;
        while (i < l.size() && !io::is_space(l[i]) && l[i] != '=') ++i;
        if (i > b && n < kMaxWords) words[n++] = l.substr(b, i - b);
      }
      // A next line starting with '&' continues the record.
      const char* save = cur_.ptr();
      cur_.skip_blank();
      if (!cur_.at_end() && *cur_.ptr() == '&') {
        cur_.set_ptr(cur_.ptr() + 1);
        continue;
      }
      cur_.set_ptr(save);
      return n;
    }
  }

  // The value of parameter `key` ("KEY = value"), or empty.
  static std::string_view param(const std::string_view* w, std::size_t n, std::string_view key) {
    for (std::size_t i = 1; i + 2 < n; ++i)
      if (w[i + 1] == "=" && upper(w[i]) == key) return w[i + 2];
    return {};
  }

  void record() {
    const char* at = cur_.ptr();
    std::string_view w[kMaxWords];
    const std::size_t n = record_words(w);
    const std::string key = n ? upper(w[0]) : std::string();
    if (key == "COOR") nodes(param(w, n, "NSET"), at);
    else if (key == "ELEMENT") elements(w, n, at);
    else if (key == "NSET" || key == "ESET") set(key == "NSET", param(w, n, "NAME"), at);
    else if (key == "ENTER" || key == "EXIT" || key == "STRUCTURE" || key == "END" || key == "FIN") skip_data(key, at, false);
    else skip_data("$" + (key.empty() ? std::string("(blank)") : key), at, true, "not mesh data");
  }

  void skip_data(const std::string& what, const char* at, bool warn, const char* reason = "not mesh data") {
    bool any = false;
    while (more()) {
      cur_.line();
      any = true;
    }
    if (warn || any) skip(warn ? what + " record" : "data after $" + what, at, reason);
  }

  std::size_t set_index(bool points, std::string_view name, const char* at) {
    const std::string key = (points ? "p:" : "c:") + std::string(name);
    auto it = set_index_.find(key);
    if (it != set_index_.end()) return it->second;
    sets_.push_back({std::string(name), points, line_at(at), {}});
    return set_index_[key] = sets_.size() - 1;
  }

  void nodes(std::string_view nset, const char* at) {
    std::vector<std::int64_t>* members = nset.empty() ? nullptr : &sets_[set_index(true, nset, at)].ids;
    while (more()) {
      const std::int64_t id = label("a node id");
      node_ids_.push_back(id);
      for (int k = 0; k < 3; ++k) xyz_.push(real("a coordinate"));
      if (members) members->push_back(id);
    }
  }

  void elements(const std::string_view* w, std::size_t n, const char* at) {
    const std::string_view cls = param(w, n, "TYPE");
    if (cls.empty()) cur_.fail_at(expected_found("'$ELEMENT TYPE = <class>'", std::string_view(at, cur_.ptr() - at)), at);
    const std::string_view type = cell_type_of(cls);
    if (type.empty()) {
      skip_data("$ELEMENT TYPE = " + upper(cls), at, true, "no meshio cell type for this element class");
      return;
    }
    const std::string_view eset = param(w, n, "ESET");
    const std::size_t si = eset.empty() ? 0 : set_index(false, eset, at);
    const auto k = static_cast<std::size_t>(cell_type(type).num_nodes);
    const int* order = permas_order(type);
    std::int64_t raw[32];
    while (more()) {
      const char* row = cur_.ptr();
      const std::int64_t id = label("an element id");
      for (std::size_t j = 0; j < k; ++j) raw[j] = label("a node id");
      std::int64_t* dst = cells_.add(type, k, static_cast<std::size_t>(row - cur_.begin()));
      for (std::size_t j = 0; j < k; ++j) dst[order ? order[j] : j] = raw[j];
      elem_ids_.push_back(id);
      if (!eset.empty()) sets_[si].ids.push_back(id);
    }
  }

  void set(bool points, std::string_view name, const char* at) {
    if (name.empty()) cur_.fail_at(expected_found(points ? "'$NSET NAME = <name>'" : "'$ESET NAME = <name>'", "no NAME"), at);
    const std::size_t si = set_index(points, name, at);
    while (more()) {
      const char* t = cur_.ptr();
      std::uint64_t v = 0;
      const char* p = t;
      if (io::parse_uint(p, cur_.end(), v) && v <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
        cur_.set_ptr(p);
        sets_[si].ids.push_back(static_cast<std::int64_t>(v));
      } else {
        const std::string_view tok = cur_.token();
        skip("entry '" + std::string(tok.substr(0, 32)) + "' of set " + std::string(name), t, "not a node or element id, not read");
      }
    }
  }

  void skip(const std::string& what, const char* at, const char* reason) { skipped_.add(what, line_at(at), reason); }

  // --- the mesh ------------------------------------------------------------------------------
  Mesh build() {
    Mesh mesh;
    const std::size_t n = node_ids_.size();
    mesh.points = xyz_.take(DType::float64, {n, 3});  // uncopied where GrowableBuffer can
    LabelMap nodes;
    std::vector<std::string> warnings;
    if (std::string note = duplicate_labels_note(nodes.build(node_ids_), "node", "elements"); !note.empty()) warnings.push_back(note);
    const auto missing = [&](std::string_view, std::int64_t id, std::size_t offset) {
      cur_.fail_at("the element refers to node " + std::to_string(id) + ", which no $COOR record defines", cur_.begin() + offset);
    };
    std::vector<int> cell_dim;
    for (auto& b : cells_.blocks(nodes, missing)) {
      if (!sets_.empty()) cell_dim.insert(cell_dim.end(), b.count, cell_type(b.type).dim);  // for the sets' dim
      mesh.cells.push_back(CellBlock::rectangular(std::string(b.type), std::move(b.connectivity)));
    }
    LabelMap elements;
    elements.build(elem_ids_);
    for (const Set& s : sets_) {
      std::vector<std::int64_t> entries;
      entries.reserve(s.ids.size());
      std::size_t unknown = 0;
      int dim = -2;
      for (std::int64_t id : s.ids) {
        const std::int64_t e = (s.points ? nodes : elements).find(id);
        if (e < 0) {
          ++unknown;
          continue;
        }
        entries.push_back(e);
        if (!s.points) {
          const int d = cell_dim[static_cast<std::size_t>(e)];
          dim = dim == -2 ? d : (dim == d ? d : -1);
        }
      }
      if (unknown)
        warnings.push_back(std::string(s.points ? "node" : "element") + " set '" + s.name + "' (line " + std::to_string(s.line) +
                           ") lists " + std::to_string(unknown) + (s.points ? " nodes" : " elements") +
                           " that were not read; they are left out");
      Region r{s.name, s.points ? RegionKind::point : RegionKind::cell, dim < 0 ? -1 : dim, -1, NDArray::from_vector(entries)};
      r.canonicalize();
      mesh.regions.push_back(std::move(r));
    }
    std::vector<std::string> out = skipped_.messages();
    out.insert(out.end(), warnings.begin(), warnings.end());
    for (std::string& m : out) meshioplusplus::warn(std::move(m));
    return mesh;
  }

  Text text_;
  io::Cursor cur_;
  LineCounter lines_;

  LabelList node_ids_, elem_ids_;  // consecutive ids cost nothing (label_list.hpp)
  GrowableBuffer xyz_;  // 3 doubles per node
  CellCollector cells_;
  std::vector<Set> sets_;
  std::unordered_map<std::string, std::size_t> set_index_;
  SkipLog skipped_;
};

}  // namespace

Mesh read_permas(const std::string& path, const Options& options) {
  OptionReader opts(options, "permas");
  opts.finish();
  return Reader(path).read();
}

}  // namespace meshioplusplus::permas
