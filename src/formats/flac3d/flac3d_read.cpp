// meshio++ FLAC3D grid reader, ASCII and binary.
// Spec: Itasca Grid Format (see flac3d.hpp); the binary layout is meshio's.
//
// ASCII: one record a line, '*' starting a comment line, blank lines ignored, commas
// between numbers optional. "G id x y z" a gridpoint; "Z <type> id gp1 ... gpk" a zone
// (B8 brick, W6 wedge, P5 pyramid, T4 tetrahedron, B7 brick with a collapsed corner: the
// node count decides, as in meshio); "F <type> id gp1 ... gpk" a face (T3, Q4);
// 'ZGROUP "name" SLOT s' / 'FGROUP "name" SLOT s' followed by lines of zone / face ids. Any
// other record (and the lines of numbers after it) is skipped with one warning per record
// name (its first line and count).
// Binary (a NUL among the first 8 bytes, as meshio decides), little-endian: two uint32
// (meshio writes 1375135718, 3; not checked), uint32 gridpoint count, per gridpoint uint32 id
// and 3 float64; then for zones and then faces: uint32 count, per cell uint32 id, uint32
// node count, the node ids (uint32); uint32 group count, per group uint16 name length, the
// name, uint16 slot length, the slot, uint32 member count, the member ids (uint32). A file
// that ends after the zone groups has no faces.
//
// The mesh, as meshio builds it: faces first, then zones, each a run of blocks of one type;
// FLAC3D's node orders put in VTK's (flac3d_shapes.cpp), a B7's last node twice. cell_data
// "cell_ids": each face's id, each zone's id plus the number of faces (meshio's numbering).
// Groups become cell regions named "zone:<name>:<slot>" / "face:<name>:<slot>" (meshio's
// cell_sets keys; face groups first), over global cell indices. Ids may be sparse and in any
// order; a group member that names no cell is left out with a warning.
//
// Binary zones and faces are read in two passes over their records: the first checks every
// node count and finds the runs of one shape, the second decodes each run straight into its
// connectivity (gridpoint ids resolved on the way: the gridpoints come first) and its ids.
// ASCII records are kept as parsed (G records may follow the zones) and resolved at the end.
//
// Safe for untrusted input: binary counts are checked against the bytes left (need) before
// anything is allocated; ASCII arrays grow with the lines present; ids are resolved after the
// whole file is read.
#include <algorithm>
#include <cstring>
#include <limits>
#include <span>
#include <unordered_map>

#include "core/cell_collector.hpp"
#include "core/io/cursor.hpp"
#include "core/io/decode.hpp"
#include "core/io/file.hpp"
#include "core/label_map.hpp"
#include "core/skip_log.hpp"
#include "formats/flac3d/flac3d_internal.hpp"
#include "meshioplusplus/warnings.hpp"

namespace meshioplusplus::flac3d {

namespace {

constexpr std::size_t kMaxWords = 16;  // a record's words kept: "Z B8 id" and 8 gridpoints

struct Cells {  // ASCII: the zones or the faces as parsed, in file order
  CellCollector rows;  // gridpoint ids, VTK order
  std::vector<std::int64_t> ids;
};

struct Block {  // a run of zones or faces of one shape, resolved
  std::string_view type;
  NDArray conn;  // positions of the gridpoints, VTK order
  NDArray ids;   // the file's zone or face ids (int64)
};

struct Group {
  bool zone = true;
  std::string name, slot;
  std::size_t line = 0;
  std::vector<std::int64_t> ids;
};

class Reader {
 public:
  explicit Reader(const std::string& path) : file_(path, "flac3d"), cur_(file_.text(), "flac3d", path), lines_(cur_.begin()) {}

  Mesh read() {
    const std::size_t head = std::min<std::size_t>(8, cur_.size());
    binary_ = std::memchr(cur_.begin(), '\0', head) != nullptr;
    if (binary_) binary();
    else ascii();
    return build();
  }

 private:
  std::size_t line_at(const char* at) { return lines_.line_at(at); }

  // --- ASCII ---------------------------------------------------------------------------------
  std::int64_t id(std::string_view f, const char* what) {
    std::uint64_t v = 0;
    if (!io::parse_field(f, v) || v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      cur_.fail_at(expected_found(what, f), f.data());
    return static_cast<std::int64_t>(v);
  }
  double real(std::string_view f) {
    double v = 0;
    if (!io::parse_field(f, v)) cur_.fail_at(expected_found("a coordinate", f), f.data());
    return v;
  }

  void ascii() {
    std::string_view w[kMaxWords];
    Group* group = nullptr;  // the group whose member lines follow
    bool skipping = false;   // the lines of numbers after a skipped record belong to it
    while (!cur_.at_end()) {
      const std::string_view l = cur_.line();
      const std::size_t n = io::split_words(l, w, kMaxWords, /*commas=*/true);
      if (n == 0 || w[0][0] == '*') continue;
      const std::string_view key = w[0];
      const bool numbers = key[0] >= '0' && key[0] <= '9';
      if (skipping && numbers) continue;
      skipping = false;
      if (group && numbers) {
        for (std::size_t i = 0; i < std::min(n, kMaxWords); ++i) group->ids.push_back(id(w[i], "a group member id"));
        if (n > kMaxWords) members_beyond(l, group);
        continue;
      }
      group = nullptr;
      if (key == "G") {
        if (n != 5) cur_.fail_at(expected_found("'G id x y z'", l), l.data());
        gp_ids_.push_back(id(w[1], "a gridpoint id"));
        for (int k = 2; k < 5; ++k) xyz_.push_back(real(w[k]));
      } else if (key == "Z" || key == "F") {
        const bool zone = key == "Z";
        const Shape* s = n >= 4 && n - 3 <= 8 ? shape_of(zone, static_cast<int>(n - 3)) : nullptr;
        if (!s)
          cur_.fail_at(expected_found(zone ? "'Z <type> id' and 4 to 8 gridpoint ids" : "'F <type> id' and 3 or 4 gridpoint ids", l),
                       l.data());
        Cells& c = zone ? zones_ : faces_;
        c.ids.push_back(id(w[2], zone ? "a zone id" : "a face id"));
        const std::size_t k = n - 3;
        std::int64_t g[8];
        for (std::size_t j = 0; j < k; ++j) g[j] = id(w[3 + j], "a gridpoint id");
        if (k == 7) g[7] = g[6];
        std::int64_t* out = c.rows.add(s->type, static_cast<std::size_t>(s->nodes), static_cast<std::size_t>(l.data() - cur_.begin()));
        for (std::size_t j = 0; j < static_cast<std::size_t>(s->nodes); ++j) out[j] = g[s->to_vtk[j]];
      } else if (key == "ZGROUP" || key == "FGROUP") {
        groups_.push_back(group_header(key == "ZGROUP", l));
        group = &groups_.back();
      } else {
        skip(std::string(key.substr(0, 32)), l.data());
        skipping = true;
      }
    }
  }

  // The ids of a member line beyond the words split above.
  void members_beyond(std::string_view l, Group* group) {
    std::size_t i = 0, seen = 0;
    auto sep = [](char c) { return io::is_space(c) || c == ','; };
    while (i < l.size()) {
      while (i < l.size() && sep(l[i])) ++i;
      const std::size_t b = i;
      while (i < l.size() && !sep(l[i])) ++i;
      if (i > b && ++seen > kMaxWords) group->ids.push_back(id(l.substr(b, i - b), "a group member id"));
    }
  }

  // 'ZGROUP "name" SLOT s', the name quoted with ' or " (it may hold blanks), or bare.
  Group group_header(bool zone, std::string_view l) {
    Group g;
    g.zone = zone;
    g.line = line_at(l.data());
    std::string_view rest = io::Cursor::trim(l.substr(6));
    if (!rest.empty() && (rest[0] == '"' || rest[0] == '\'')) {
      const std::size_t close = rest.find(rest[0], 1);
      if (close == std::string_view::npos) cur_.fail_at(expected_found("a closing quote after the group name", rest), rest.data());
      g.name = std::string(rest.substr(1, close - 1));
      rest = io::Cursor::trim(rest.substr(close + 1));
    } else {
      std::size_t e = 0;
      while (e < rest.size() && !io::is_space(rest[e])) ++e;
      if (e == 0) cur_.fail_at(expected_found("a group name", l), l.data());
      g.name = std::string(rest.substr(0, e));
      rest = io::Cursor::trim(rest.substr(e));
    }
    if (rest.empty()) {
      g.slot = "Default";
    } else {
      if (rest.substr(0, 4) != "SLOT") cur_.fail_at(expected_found("'SLOT <slot>' after the group name", rest), rest.data());
      g.slot = std::string(io::Cursor::trim(rest.substr(4)));
    }
    return g;
  }

  // --- binary --------------------------------------------------------------------------------
  void binary() {
    cur_.set_little_endian(true);
    cur_.load<std::uint32_t>("header");
    cur_.load<std::uint32_t>("header");
    const std::uint32_t n = cur_.load<std::uint32_t>("gridpoint count");
    cur_.need(n, 28, "gridpoints");
    gp_ids_.resize(n);
    points_ = NDArray::uninit(DType::float64, {n, 3});
    double* xyz = points_.data<double>();
    const char* p = cur_.take(std::size_t{n} * 28, "gridpoints");
    for (std::size_t i = 0; i < n; ++i, p += 28) {
      gp_ids_[i] = io::load<std::uint32_t>(p, true);
      io::decode_values(xyz + 3 * i, p + 4, 3, !io::host_is_little_endian());
    }
    map_gridpoints();
    binary_cells(true);
    if (cur_.at_end()) return;  // no face section
    binary_cells(false);
  }

  void binary_cells(bool zone) {
    std::vector<Block>& blocks = zone ? zone_blocks_ : face_blocks_;
    const std::uint32_t n = cur_.load<std::uint32_t>(zone ? "zone count" : "face count");
    cur_.need(n, 8 + 3 * 4, zone ? "zones" : "faces");
    // Pass 1: every record's node count, and the runs of one shape.
    std::vector<std::pair<const Shape*, std::size_t>> runs;
    const char* first = cur_.ptr();
    for (std::uint32_t i = 0; i < n; ++i) {
      const char* at = cur_.ptr();
      cur_.load<std::uint32_t>(zone ? "zone id" : "face id");
      const std::uint32_t k = cur_.load<std::uint32_t>("node count");
      const Shape* s = k <= 8 ? shape_of(zone, static_cast<int>(k)) : nullptr;
      if (!s)
        cur_.fail_at(expected_found(zone ? "a zone of 4 to 8 gridpoints" : "a face of 3 or 4 gridpoints", std::to_string(k) + " gridpoints"),
                     at);
      cur_.take(std::size_t{k} * 4, "gridpoint ids");
      if (runs.empty() || runs.back().first != s) runs.emplace_back(s, 0);
      ++runs.back().second;
    }
    // Pass 2: each run decoded into its arrays (the bytes are known to be there).
    const char* p = first;
    for (const auto& [s, count] : runs) {
      const auto k = static_cast<std::size_t>(s->nodes);
      Block b{s->type, NDArray::uninit(DType::int64, {count, k}), NDArray::uninit(DType::int64, {count})};
      std::int64_t* dst = b.conn.data<std::int64_t>();
      std::int64_t* ids = b.ids.data<std::int64_t>();
      for (std::size_t r = 0; r < count; ++r) {
        const char* at = p;
        ids[r] = io::load<std::uint32_t>(p, true);
        const std::uint32_t stored = io::load<std::uint32_t>(p + 4, true);
        std::int64_t g[8];
        for (std::size_t j = 0; j < stored; ++j) g[j] = io::load<std::uint32_t>(p + 8 + 4 * j, true);
        if (stored == 7) g[7] = g[6];
        p += 8 + 4 * std::size_t{stored};
        for (std::size_t j = 0; j < k; ++j) *dst++ = gridpoint(g[s->to_vtk[j]], zone, at);
      }
      blocks.push_back(std::move(b));
    }
    const std::uint32_t groups = cur_.load<std::uint32_t>("group count");
    cur_.need(groups, 2 + 2 + 4, "groups");
    for (std::uint32_t g = 0; g < groups; ++g) {
      Group grp;
      grp.zone = zone;
      grp.line = static_cast<std::size_t>(cur_.offset());
      const std::uint16_t nl = cur_.load<std::uint16_t>("group name length");
      grp.name = std::string(cur_.take(nl, "group name"), nl);
      const std::uint16_t sl = cur_.load<std::uint16_t>("slot name length");
      grp.slot = std::string(cur_.take(sl, "slot name"), sl);
      const std::uint32_t m = cur_.load<std::uint32_t>("group member count");
      cur_.need(m, 4, "group members");
      grp.ids.resize(m);
      const char* q = cur_.take(std::size_t{m} * 4, "group members");
      for (std::uint32_t i = 0; i < m; ++i) grp.ids[i] = io::load<std::uint32_t>(q + 4 * std::size_t{i}, true);
      groups_.push_back(std::move(grp));
    }
  }

  // The gridpoint ids mapped to their positions (once every G record is read).
  void map_gridpoints() {
    if (std::string note = duplicate_labels_note(gps_.build(gp_ids_), "gridpoint", "zones"); !note.empty()) warnings_.push_back(note);
    gp_ids_ = {};
  }

  // The position of gridpoint `gp`, named by the record at `at` when no G record defines it.
  std::int64_t gridpoint(std::int64_t gp, bool zone, const char* at) {
    const std::int64_t p = gps_.find(gp);
    if (p < 0) unknown_gridpoint(gp, zone, at);
    return p;
  }
  [[noreturn]] void unknown_gridpoint(std::int64_t gp, bool zone, const char* at) {
    cur_.fail_at(std::string(zone ? "the zone" : "the face") + " refers to gridpoint " + std::to_string(gp) + ", which no G record defines", at);
  }

  // ASCII: the records as parsed, resolved into blocks (each run's ids copied beside it).
  std::vector<Block> resolve(Cells& c, bool zone) {
    std::vector<Block> blocks;
    auto missing = [&](std::string_view, std::int64_t gp, std::size_t offset) { unknown_gridpoint(gp, zone, cur_.begin() + offset); };
    for (CellCollector::Block& b : c.rows.blocks(gps_, missing)) {
      Block out{b.type, std::move(b.connectivity), NDArray::uninit(DType::int64, {b.count})};
      std::copy_n(c.ids.begin() + static_cast<std::ptrdiff_t>(b.first), b.count, out.ids.data<std::int64_t>());
      blocks.push_back(std::move(out));
    }
    return blocks;
  }

  void skip(const std::string& what, const char* at) { skipped_.add("record " + what, line_at(at), "not read"); }

  // --- the mesh ------------------------------------------------------------------------------
  Mesh build() {
    Mesh mesh;
    if (!binary_) {
      points_ = NDArray::from_vector(xyz_, {gp_ids_.size(), 3});
      xyz_ = {};
      map_gridpoints();
      face_blocks_ = resolve(faces_, false);
      zone_blocks_ = resolve(zones_, true);
      faces_.ids = {};
      zones_.ids = {};
    }
    mesh.points = std::move(points_);
    std::vector<std::string> warnings = std::move(warnings_);

    // The ids of the zones and of the faces, in file order, mapped when a group needs them.
    auto id_map = [&](bool zone) {
      LabelMap map;
      bool needed = false;
      for (const Group& g : groups_) needed |= g.zone == zone;
      if (!needed) return map;
      std::vector<std::int64_t> ids;
      for (const Block& b : zone ? zone_blocks_ : face_blocks_) ids.insert(ids.end(), b.ids.data<std::int64_t>(), b.ids.data<std::int64_t>() + b.ids.size());
      map.build(ids);
      return map;
    };
    LabelMap zone_ids = id_map(true), face_ids = id_map(false);

    std::size_t nfaces = 0;
    for (const Block& b : face_blocks_) nfaces += b.ids.size();
    std::vector<NDArray> cell_ids;
    for (std::vector<Block>* blocks : {&face_blocks_, &zone_blocks_}) {
      for (Block& b : *blocks) {
        if (blocks == &zone_blocks_)  // meshio numbers the zones after the faces
          for (std::int64_t& id : std::span(b.ids.data<std::int64_t>(), b.ids.size())) id += static_cast<std::int64_t>(nfaces);
        mesh.cells.push_back(CellBlock::rectangular(std::string(b.type), std::move(b.conn)));
        cell_ids.push_back(std::move(b.ids));
      }
    }
    if (!mesh.cells.empty()) mesh.cell_data["cell_ids"] = std::move(cell_ids);

    std::unordered_map<std::string, std::size_t> by_name;
    for (bool zone : {false, true}) {  // meshio's order: face groups, then zone groups
      for (const Group& g : groups_) {
        if (g.zone != zone) continue;
        const std::string name = std::string(zone ? "zone:" : "face:") + g.name + ":" + g.slot;
        std::vector<std::int64_t> entries;
        std::size_t unknown = 0;
        for (std::int64_t id : g.ids) {
          const std::int64_t c = (zone ? zone_ids : face_ids).find(id);
          if (c < 0) ++unknown;
          else entries.push_back(c + (zone ? static_cast<std::int64_t>(nfaces) : 0));
        }
        if (unknown)
          warnings.push_back(std::string(zone ? "zone" : "face") + " group '" + g.name + "' (" + (binary_ ? "byte " : "line ") +
                             std::to_string(g.line) + ") lists " + std::to_string(unknown) + (zone ? " zones" : " faces") +
                             " the file does not define; they are left out");
        auto it = by_name.find(name);
        if (it != by_name.end()) {  // the same group twice: one region
          Region& r = mesh.regions[it->second];
          std::vector<std::int64_t> all(r.entries.data<std::int64_t>(), r.entries.data<std::int64_t>() + r.entries.size());
          all.insert(all.end(), entries.begin(), entries.end());
          r.entries = NDArray::from_vector(all);
          r.canonicalize();
          continue;
        }
        Region r{name, RegionKind::cell, zone ? 3 : 2, -1, NDArray::from_vector(entries)};
        r.canonicalize();
        by_name[name] = mesh.regions.size();
        mesh.regions.push_back(std::move(r));
      }
    }
    std::vector<std::string> out = skipped_.messages();
    out.insert(out.end(), warnings.begin(), warnings.end());
    for (std::string& m : out) meshioplusplus::warn(std::move(m));
    return mesh;
  }

  io::FileBytes file_;
  io::Cursor cur_;
  LineCounter lines_;
  bool binary_ = false;

  std::vector<std::int64_t> gp_ids_;
  std::vector<double> xyz_;  // ASCII
  NDArray points_;
  LabelMap gps_;
  Cells zones_, faces_;                          // ASCII, as parsed
  std::vector<Block> zone_blocks_, face_blocks_;  // resolved
  std::vector<std::string> warnings_;
  std::vector<Group> groups_;
  SkipLog skipped_;
};

}  // namespace

Mesh read_flac3d(const std::string& path, const Options& options) {
  OptionReader opts(options, "flac3d");
  opts.finish();
  return Reader(path).read();
}

}  // namespace meshioplusplus::flac3d
