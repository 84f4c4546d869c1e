// meshio++ Nastran bulk data reader.
// Spec: MSC Nastran Quick Reference Guide, "Format of Bulk Data Entries" and the GRID, CORD2R,
// CORD2C, CORD2S and element entries:
// https://nexus.hexagon.com/documentationcenter/en-US/bundle/MSC_Nastran_2022.4/page/Nastran_Combined_Book/qrg/bulkab/TOC.BULK.Data.xhtml
//
// A line is free field when it holds a comma (fields between commas), else fixed: field 1 in
// columns 1-8, then eight 8-column fields (small field) or, when field 1 holds a '*', four
// 16-column fields (large field); columns 73-80 are the continuation field and are not data
// (a line longer than 80 columns, which the spec does not allow, is read as data throughout).
// Tabs in a fixed line advance to the next multiple of 8 columns. '$' starts a comment.
// A line whose field 1 is blank or starts with '+' or '*' continues the card above; each
// fixed line gives the card 8 (or 4) data fields, so short lines read as blank fields, and a
// continued free-field line is padded the same way. "BEGIN BULK" is optional (whatever
// precedes it is executive and case control, and is not read); ENDDATA ends the data. A file
// with none of BEGIN BULK, ENDDATA, GRID, CORD2x or an element card is not a deck: ReadError.
// Cards may come in any order: grid ids are resolved after the whole file is read.
//
// Reals take Nastran's spellings (1.5-3 is 1.5e-3, 1.+4, 1.5D+2; integers are accepted as
// reals). GRIDs whose CP names a CORD2R, CORD2C or CORD2S are moved to the basic system
// (chains of RID resolved); every other card that is not mesh (properties, materials, loads,
// CORD1*, INCLUDE, ...) is skipped with one warning per card name giving its first line and
// count, and GRIDs left in a system we do not apply are named in a warning.
//
// Data, as meshio names it: point_data "nastran:ref" (the GRID's CP field: 0 after we move
// the point to the basic system) when any GRID has CP, cell_data "nastran:ref" (the property
// id; a blank PID is the element id, the spec's default; 0 for cards without a PID field)
// when any element has a PID. Blocks
// are runs of consecutive elements of one meshio type, in file order, as meshio makes them.
//
// Safe for untrusted input: fields are views into the mapped file, at most 64 are kept per
// card, arrays grow only with what the bytes hold, and coordinate chains are walked without
// recursion.
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstring>
#include <deque>
#include <unordered_map>

#include "core/cell_collector.hpp"
#include "core/growable_buffer.hpp"
#include "core/io/cursor.hpp"
#include "core/io/file.hpp"
#include "core/label_map.hpp"
#include "formats/nastran/nastran_internal.hpp"
#include "meshioplusplus/warnings.hpp"

namespace meshioplusplus::nastran {

namespace {

constexpr std::size_t kMaxFields = 64;  // no card we read needs more (CHEXA: 22)
constexpr io::RealSyntax kReal{true, true};

struct Cord {
  std::int64_t cid = 0, rid = 0;
  char kind = 'R';                        // R, C, S
  std::array<double, 9> abc{};            // A, B, C in system RID
  std::size_t line = 0;
  int state = 0;                          // 0 unresolved, 1 resolving, 2 ok, 3 unusable
  std::array<double, 3> o{}, ex{}, ey{}, ez{};  // basic origin and axes once resolved
};

struct Skipped {
  std::string name, reason;
  std::size_t count = 0, first_line = 0;
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool looks_numeric(std::string_view s) {
  double v = 0;
  return !s.empty() && io::parse_real(s.data(), s.data() + s.size(), v, kReal) == s.data() + s.size();
}

std::array<double, 3> cross(const std::array<double, 3>& a, const std::array<double, 3>& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

bool normalize(std::array<double, 3>& v) {
  const double n = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  if (!(n > 0) || !std::isfinite(n)) return false;
  for (double& x : v) x /= n;
  return true;
}

class Reader {
 public:
  explicit Reader(const std::string& path) : file_(path, "nastran"), cur_(file_.text(), "nastran", path) {
    fields_.reserve(kMaxFields);
  }

  Mesh read() {
    const char* p = bulk_start();
    const char* end = file_.data() + file_.size();
    while (p < end) {
      const char* ls = p;
      const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
      const char* le = nl ? nl : end;
      p = nl ? nl + 1 : end;
      ++line_no_;
      std::string_view line(ls, static_cast<std::size_t>(le - ls));
      if (const void* c = std::memchr(line.data(), '$', line.size())) line = line.substr(0, static_cast<std::size_t>(static_cast<const char*>(c) - line.data()));
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (trim(line).empty()) continue;
      if (!take_line(line, ls)) break;
    }
    finish_card();
    bulk_seen_ |= !ids_.empty() || !elements_.empty() || !cords_.empty();
    if (!bulk_seen_)
      cur_.fail_at("no Nastran bulk data: expected BEGIN BULK, ENDDATA, GRID or element cards, found none", file_.data());
    return build();
  }

 private:
  // --- lines and cards ---------------------------------------------------------------------
  // Where bulk data starts: after "BEGIN BULK" when it comes before any GRID or element
  // card, else at the top of the file.
  const char* bulk_start() {
    const char* p = file_.data();
    const char* end = p + file_.size();
    std::size_t n = 0;
    while (p < end) {
      const char* ls = p;
      const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
      p = nl ? nl + 1 : end;
      ++n;
      std::string_view line = trim(std::string_view(ls, static_cast<std::size_t>((nl ? nl : end) - ls)));
      if (line.empty() || line[0] == '$') continue;
      std::size_t k = 0;
      while (k < line.size() && k < 12 && line[k] != ',' && line[k] != ' ' && line[k] != '\t' && line[k] != '*') ++k;
      std::string word(line.substr(0, k));
      for (char& c : word) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      if (word == "BEGIN") {
        std::string rest(line.substr(k));
        for (char& c : rest) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        if (rest.find("BULK") != std::string::npos) {
          line_no_ = n;
          bulk_seen_ = true;
          return p;
        }
      }
      if (word == "GRID" || word == "ENDDATA" || word.rfind("CORD", 0) == 0 || find_element_card(word)) break;
    }
    return file_.data();
  }

  // One non-blank line; false at ENDDATA.
  bool take_line(std::string_view line, const char* at) {
    const bool free = std::memchr(line.data(), ',', line.size()) != nullptr;
    const bool tabs = !free && std::memchr(line.data(), '\t', line.size()) != nullptr;
    if (tabs) line = expand_tabs(line);
    std::string_view f1 = free ? line.substr(0, line.find(',')) : line.substr(0, std::min<std::size_t>(8, line.size()));
    f1 = trim(f1);
    const bool large = f1.find('*') != std::string_view::npos;
    const bool continuation = f1.empty() || f1[0] == '+' || f1[0] == '*';
    if (continuation) {
      if (name_.empty()) {
        skip("continuation line", line_no_, "no card before it");
        return true;
      }
      // The line before gave the card its full width of data fields (free field: padded).
      while (fields_.size() < kMaxFields && fields_.size() - line_start_ < line_cap_) fields_.push_back({});
    } else {
      finish_card();
      name_.assign(f1);
      for (char& c : name_) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      while (!name_.empty() && name_.back() == '*') name_.pop_back();
      if (name_ == "ENDDATA") {
        bulk_seen_ = true;
        name_.clear();
        return false;
      }
      card_at_ = at;
      card_line_ = line_no_;
    }
    if (tabs && fields_.size() < kMaxFields) {  // keep the text the card's fields point into
      tab_lines_.push_back(std::move(expanded_));
      line = tab_lines_.back();
    }
    line_start_ = fields_.size();
    line_cap_ = large ? 4 : 8;
    if (fields_.size() >= kMaxFields) return true;
    if (free) {
      std::string_view rest = line.substr(line.find(',') + 1);
      const std::size_t before = fields_.size();
      std::size_t n = 0;
      for (;;) {
        const bool last = rest.find(',') == std::string_view::npos;
        std::string_view f = io::next_field(rest);
        if (fields_.size() < kMaxFields) fields_.push_back(f);
        ++n;
        if (last) break;
      }
      // Exactly one field past the line's data fields is its continuation field, unless it
      // is a number (a long free-field line with no continuation mark).
      if (n == line_cap_ + 1 && fields_.size() == before + n && !looks_numeric(fields_.back())) fields_.pop_back();
    } else {
      const std::size_t width = large ? 16 : 8;
      // A line longer than 80 columns is not the spec's: its columns past 72 are read as
      // more data fields of the same width (meshio's large-field writer puts the rest of a
      // long card on its last line).
      const std::size_t used = trim(line).size() + static_cast<std::size_t>(trim(line).data() - line.data());
      if (used > 80) line_cap_ = (used - 8 + width - 1) / width;
      for (std::size_t i = 0; i < line_cap_ && fields_.size() < kMaxFields; ++i) {
        const std::size_t b = 8 + i * width;
        fields_.push_back(b < line.size() ? trim(line.substr(b, std::min(width, line.size() - b))) : std::string_view());
      }
    }
    return true;
  }

  std::string_view expand_tabs(std::string_view line) {
    std::string& s = expanded_;
    s.clear();
    for (char c : line) {
      if (c == '\t') {
        do s.push_back(' ');
        while (s.size() % 8 != 0);
      } else {
        s.push_back(c);
      }
      if (s.size() > 4096) break;  // bounded: a card never needs more
    }
    return s;
  }

  std::string_view field(std::size_t i) const { return i < fields_.size() ? fields_[i] : std::string_view(); }

  [[noreturn]] void fail_card(const std::string& what) const {
    cur_.fail_at(name_ + " card: " + what, card_at_);
  }
  std::int64_t int_field(std::size_t i, const char* what) const {
    std::int64_t v = 0;
    if (!io::parse_field(field(i), v)) fail_card(expected_found(std::string("an integer ") + what + " in field " + std::to_string(i + 2), field(i)));
    return v;
  }
  // A blank field is `fallback`; `present` says whether it was not blank.
  std::int64_t int_field_or(std::size_t i, const char* what, std::int64_t fallback, bool* present = nullptr) const {
    if (field(i).empty()) {
      if (present) *present = false;
      return fallback;
    }
    if (present) *present = true;
    return int_field(i, what);
  }
  double real_field(std::size_t i, const char* what) const {
    const std::string_view f = field(i);
    if (f.empty()) return 0.0;
    double v = 0;
    if (io::parse_real(f.data(), f.data() + f.size(), v, kReal) != f.data() + f.size())
      fail_card(expected_found(std::string("a real ") + what + " in field " + std::to_string(i + 2), f));
    return v;
  }

  // Counts a card not read, under its name and the reason (one warning per pair).
  void skip(std::string_view name, std::size_t line, std::string_view reason = "not mesh data") {
    // Decks repeat one card many times (PSHELL, FORCE, ...): the last one is counted directly.
    if (last_skip_ < skipped_.size() && skipped_[last_skip_].name == name && skipped_[last_skip_].reason == reason) {
      ++skipped_[last_skip_].count;
      return;
    }
    std::string key = std::string(name) + '\n' + std::string(reason);
    auto it = skipped_index_.find(key);
    if (it == skipped_index_.end()) {
      it = skipped_index_.emplace(std::move(key), skipped_.size()).first;
      skipped_.push_back({std::string(name), std::string(reason), 0, line});
    }
    ++skipped_[it->second].count;
    last_skip_ = it->second;
  }

  void finish_card() {
    if (!name_.empty()) {
      if (name_ == "GRID") grid();
      else if (const ElementCard* ec = (last_card_ && last_card_->card == name_) ? last_card_ : find_element_card(name_)) element(*ec);
      else if (name_ == "CORD2R" || name_ == "CORD2C" || name_ == "CORD2S") cord2();
      else if (name_ == "CORD1R" || name_ == "CORD1C" || name_ == "CORD1S") cord1();
      else if (name_ == "INCLUDE") skip(name_, card_line_, "the included file is not read");
      else skip(name_, card_line_);
    }
    name_.clear();
    fields_.clear();
    tab_lines_.clear();
    line_start_ = 0;
  }

  // --- cards -------------------------------------------------------------------------------
  void grid() {
    // GRID ID CP X1 X2 X3 CD PS SEID
    ids_.push_back(int_field(0, "ID"));
    bool has_cp = false;
    const std::int64_t cp = int_field_or(1, "CP", 0, &has_cp);
    any_cp_ |= has_cp;
    cps_.push(cp);
    if (cp != 0 && first_cp_line_.find(cp) == first_cp_line_.end()) first_cp_line_.emplace(cp, card_line_);
    for (std::size_t k = 0; k < 3; ++k) xyz_.push(real_field(2 + k, "coordinate"));
  }

  void element(const ElementCard& ec) {
    last_card_ = &ec;
    const std::int64_t eid = int_field(0, "EID");
    std::int64_t pid = 0;  // cards with no property field (CONM2, CONROD, CELAS2, ...)
    if (ec.pid >= 0) {
      bool has = false;
      pid = int_field_or(static_cast<std::size_t>(ec.pid), "PID", eid, &has);
      any_pid_ |= has;
    }
    std::array<std::int64_t, 20> g{};
    int present = 0, leading = 0;
    for (int i = 0; i < ec.nodes; ++i) {
      const std::size_t f = static_cast<std::size_t>(ec.first_grid + i * ec.grid_stride);
      if (field(f).empty()) continue;
      g[static_cast<std::size_t>(i)] = int_field(f, "grid id");
      ++present;
      if (leading == i) ++leading;
    }
    if (ec.grids_only && !field(static_cast<std::size_t>(ec.first_grid + ec.nodes)).empty()) {
      // More grids than the card has (gmsh writes its 27-node hexahedra and 18-node wedges
      // this way, in its own node order): not a Nastran element, so not guessed at.
      skip(name_, card_line_, "more grid ids than the card has (" + std::to_string(ec.nodes) + "), not read");
      return;
    }
    std::string_view type;
    int n = 0;
    const int* perm = nullptr;
    if (present == ec.nodes) {
      type = ec.type, n = ec.nodes, perm = ec.perm;
    } else if (!ec.linear.empty() && present == ec.linear_nodes && leading == ec.linear_nodes) {
      type = ec.linear, n = ec.linear_nodes;
    } else {
      std::string want = std::to_string(ec.nodes);
      if (!ec.linear.empty()) want = std::to_string(ec.linear_nodes) + " or " + want;
      fail_card("element " + std::to_string(eid) + " has " + std::to_string(present) + " grid ids; expected " + want);
    }
    std::int64_t* row = elements_.add(type, static_cast<std::size_t>(n), static_cast<std::size_t>(card_at_ - file_.data()));
    for (int i = 0; i < n; ++i) row[i] = g[static_cast<std::size_t>(perm ? perm[i] : i)];
    pids_.push_back(pid);
  }

  void cord2() {
    // CORD2x CID RID A1 A2 A3 B1 B2 B3 / C1 C2 C3
    Cord c;
    c.cid = int_field(0, "CID");
    c.rid = int_field_or(1, "RID", 0);
    c.kind = name_.back();
    c.line = card_line_;
    for (std::size_t k = 0; k < 9; ++k) c.abc[k] = real_field(2 + k, "coordinate");
    if (c.cid <= 0) fail_card(expected_found("a CID > 0", field(0)));
    cord_by_id(c.cid, name_, card_line_) = c;
  }

  void cord1() {
    // CORD1x CIDA G1A G2A G3A CIDB G1B G2B G3B: up to two systems defined by grid points.
    for (std::size_t k : {0u, 4u}) {
      if (field(k).empty()) continue;
      const std::int64_t cid = int_field(k, "CID");
      cord1_[cid] = {name_, card_line_};
    }
  }

  Cord& cord_by_id(std::int64_t cid, const std::string& name, std::size_t line) {
    auto [it, fresh] = cord_index_.emplace(cid, cords_.size());
    if (fresh) {
      cords_.emplace_back();
    } else {
      warnings_.push_back(name + " at line " + std::to_string(line) + " defines coordinate system " + std::to_string(cid) +
                          " again; the last definition is used");
    }
    return cords_[it->second];
  }

  // --- coordinate systems --------------------------------------------------------------------
  std::array<double, 3> to_basic(const Cord& c, const double* p) const {
    double r[3];
    const double d = 3.14159265358979323846 / 180.0;
    if (c.kind == 'C') {
      r[0] = p[0] * std::cos(p[1] * d), r[1] = p[0] * std::sin(p[1] * d), r[2] = p[2];
    } else if (c.kind == 'S') {
      r[0] = p[0] * std::sin(p[1] * d) * std::cos(p[2] * d), r[1] = p[0] * std::sin(p[1] * d) * std::sin(p[2] * d),
      r[2] = p[0] * std::cos(p[1] * d);
    } else {
      r[0] = p[0], r[1] = p[1], r[2] = p[2];
    }
    std::array<double, 3> out;
    for (int k = 0; k < 3; ++k) out[static_cast<std::size_t>(k)] = c.o[static_cast<std::size_t>(k)] + r[0] * c.ex[static_cast<std::size_t>(k)] + r[1] * c.ey[static_cast<std::size_t>(k)] + r[2] * c.ez[static_cast<std::size_t>(k)];
    return out;
  }

  // The basic-system frame of CORD2x `idx` (state 2), or state 3 with a warning. The RID
  // chain is walked iteratively: a cycle or a missing RID makes every system on it unusable.
  void resolve(std::size_t idx) {
    std::vector<std::size_t> chain;
    std::size_t i = idx;
    for (;;) {
      Cord& c = cords_[i];
      if (c.state >= 2) break;
      if (c.state == 1) {
        warnings_.push_back("CORD2" + std::string(1, c.kind) + " " + std::to_string(c.cid) + " at line " + std::to_string(c.line) +
                            ": its RID chain is a cycle; GRIDs referencing it keep their local coordinates");
        for (std::size_t j : chain) cords_[j].state = 3;
        return;
      }
      c.state = 1;
      chain.push_back(i);
      if (c.rid == 0) break;
      auto it = cord_index_.find(c.rid);
      if (it == cord_index_.end()) {
        warnings_.push_back("CORD2" + std::string(1, c.kind) + " " + std::to_string(c.cid) + " at line " + std::to_string(c.line) +
                            " is defined in coordinate system " + std::to_string(c.rid) +
                            ", which no CORD2R/C/S card defines; GRIDs referencing it keep their local coordinates");
        for (std::size_t j : chain) cords_[j].state = 3;
        return;
      }
      i = it->second;
    }
    // Resolve from the end of the chain (defined in basic or in a resolved system) back.
    for (std::size_t k = chain.size(); k-- > 0;) {
      Cord& c = cords_[chain[k]];
      std::array<double, 3> a, b, cc;
      if (c.rid == 0) {
        a = {c.abc[0], c.abc[1], c.abc[2]}, b = {c.abc[3], c.abc[4], c.abc[5]}, cc = {c.abc[6], c.abc[7], c.abc[8]};
      } else {
        const Cord& r = cords_[cord_index_.at(c.rid)];
        if (r.state != 2) {
          c.state = 3;
          continue;
        }
        a = to_basic(r, &c.abc[0]), b = to_basic(r, &c.abc[3]), cc = to_basic(r, &c.abc[6]);
      }
      std::array<double, 3> ez{b[0] - a[0], b[1] - a[1], b[2] - a[2]}, ac{cc[0] - a[0], cc[1] - a[1], cc[2] - a[2]};
      std::array<double, 3> ey = cross(ez, ac);
      if (!normalize(ez) || !normalize(ey)) {
        warnings_.push_back("CORD2" + std::string(1, c.kind) + " " + std::to_string(c.cid) + " at line " + std::to_string(c.line) +
                            ": points A, B, C do not define axes (coincident or collinear); GRIDs referencing it keep their local coordinates");
        c.state = 3;
        continue;
      }
      c.o = a, c.ez = ez, c.ey = ey, c.ex = cross(ey, ez), c.state = 2;
    }
  }

  void apply_coordinate_systems() {
    std::unordered_map<std::int64_t, std::size_t> unresolved;  // cp -> GRIDs left local
    const std::size_t n = ids_.size();
    std::int64_t last_cp = 0;
    const Cord* frame = nullptr;
    for (std::size_t i = 0; i < n; ++i) {
      const std::int64_t cp = cps_.as<const std::int64_t>()[i];
      if (cp == 0) continue;
      if (cp != last_cp) {
        last_cp = cp;
        frame = nullptr;
        auto it = cord_index_.find(cp);
        if (it != cord_index_.end()) {
          if (cords_[it->second].state < 2) resolve(it->second);
          if (cords_[it->second].state == 2) frame = &cords_[it->second];
        }
      }
      if (!frame) {
        ++unresolved[cp];
        continue;
      }
      double* x = xyz_.as<double>() + 3 * i;
      const auto b = to_basic(*frame, x);
      std::memcpy(x, b.data(), sizeof b);
      cps_.as<std::int64_t>()[i] = 0;
    }
    std::vector<std::pair<std::int64_t, std::size_t>> left(unresolved.begin(), unresolved.end());
    std::sort(left.begin(), left.end());
    for (const auto& [cp, count] : left) {
      const std::string grids = std::to_string(count) + " GRID" + (count == 1 ? "" : "s") + " (the first at line " +
                                std::to_string(first_cp_line_.at(cp)) + ")";
      auto c1 = cord1_.find(cp);
      if (c1 != cord1_.end())
        warnings_.push_back(c1->second.first + " at line " + std::to_string(c1->second.second) + " defines coordinate system " +
                            std::to_string(cp) + " by grid points, which is not supported: " + grids +
                            " referencing it keep their coordinates in that local system");
      else if (cord_index_.count(cp) == 0)
        warnings_.push_back(grids + " reference coordinate system " + std::to_string(cp) +
                            ", which no CORD card defines: their coordinates are left in that local system");
      else
        warnings_.push_back(grids + " reference coordinate system " + std::to_string(cp) +
                            ", which could not be applied (see above): their coordinates are left in that local system");
    }
  }

  // --- the mesh ----------------------------------------------------------------------------
  Mesh build() {
    Mesh mesh;
    apply_coordinate_systems();
    const std::size_t n = ids_.size();
    mesh.points = xyz_.take(DType::float64, {n, 3});  // uncopied where GrowableBuffer can
    if (any_cp_) mesh.point_data["nastran:ref"] = cps_.take(DType::int64, {n});  // uncopied where it can
    cps_.clear();

    LabelMap map;
    const auto dup = map.build(ids_);
    if (dup.duplicates)
      warnings_.push_back(std::to_string(dup.duplicates) + " GRID id(s) are defined more than once (GRID " +
                          std::to_string(dup.first_duplicate) + ", for one); elements use the last definition");

    std::vector<NDArray> refs;
    const auto missing = [&](std::string_view type, std::int64_t grid, std::size_t offset) {
      cur_.fail_at("element (" + std::string(type) + ") refers to GRID " + std::to_string(grid) + ", which no GRID card defines",
                   file_.data() + offset);
    };
    for (auto& b : elements_.blocks(map, missing)) {
      mesh.cells.push_back(CellBlock::rectangular(std::string(b.type), std::move(b.connectivity)));
      if (any_pid_) {
        NDArray pid = NDArray::uninit(DType::int64, {b.count});
        std::int64_t* out = pid.data<std::int64_t>();
        for (std::size_t i = 0; i < b.count; ++i) out[i] = pids_[b.first + i];
        refs.push_back(std::move(pid));
      }
    }
    if (any_pid_) mesh.cell_data["nastran:ref"] = std::move(refs);

    std::vector<std::string> skipped;
    for (const Skipped& s : skipped_)
      skipped.push_back("skipped " + std::to_string(s.count) + " " + s.name + " card" + (s.count == 1 ? "" : "s") +
                        " (the first at line " + std::to_string(s.first_line) + "): " + s.reason);
    skipped.insert(skipped.end(), warnings_.begin(), warnings_.end());
    for (std::string& w : skipped) meshioplusplus::warn(std::move(w));  // read() gathers them into Mesh::warnings
    return mesh;
  }

  io::FileBytes file_;
  io::Cursor cur_;
  std::size_t line_no_ = 0;
  bool bulk_seen_ = false;  // BEGIN BULK, ENDDATA or a card we read: the file is a deck

  // The card being assembled.
  std::string name_;
  const char* card_at_ = nullptr;
  std::size_t card_line_ = 0;
  std::vector<std::string_view> fields_;
  std::size_t line_start_ = 0, line_cap_ = 8;
  std::string expanded_;               // the line being read, tabs expanded
  std::deque<std::string> tab_lines_;  // tab-expanded lines the card's fields point into
  const ElementCard* last_card_ = nullptr;

  // GRIDs.
  LabelList ids_;
  GrowableBuffer cps_;  // the CP of each GRID (int64)
  GrowableBuffer xyz_;  // 3 doubles per GRID
  bool any_cp_ = false;
  std::unordered_map<std::int64_t, std::size_t> first_cp_line_;

  // Elements.
  CellCollector elements_;
  // One per element, in file order. A blank PID is the element's EID: a deck without PIDs
  // (meshio writes none) holds consecutive ones, kept without memory (label_list.hpp).
  LabelList pids_;
  bool any_pid_ = false;

  // Coordinate systems.
  std::vector<Cord> cords_;
  std::unordered_map<std::int64_t, std::size_t> cord_index_;
  std::unordered_map<std::int64_t, std::pair<std::string, std::size_t>> cord1_;

  std::vector<Skipped> skipped_;
  std::unordered_map<std::string, std::size_t> skipped_index_;
  std::size_t last_skip_ = 0;
  std::vector<std::string> warnings_;
};

}  // namespace

Mesh read_nastran(const std::string& path, const Options& options) {
  OptionReader opts(options, "nastran");
  opts.finish();
  return Reader(path).read();
}

}  // namespace meshioplusplus::nastran
