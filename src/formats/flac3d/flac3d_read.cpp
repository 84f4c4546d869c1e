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
// Binary zones and faces whose records all store one node count (the usual file) are
// decoded on several threads at that fixed stride; otherwise in two passes over their
// records: the first checks every node count and finds the runs of one shape, the second
// decodes each run straight into its connectivity (gridpoint ids resolved on the way: the
// gridpoints come first) and its ids. Both give the same mesh and the same first error.
// ASCII records are kept as parsed (G records may follow the zones) and resolved at the end.
// A large ASCII file is cut at line starts into one piece per thread, each parsed on its own
// (records are one line each; only lines of bare numbers depend on what came before, so a
// piece's leading number lines wait for the pieces before it), and the pieces are joined in
// file order: the mesh, the warnings and the first error never depend on the thread count.
//
// Safe for untrusted input: binary counts are checked against the bytes left (need) before
// anything is allocated; ASCII arrays grow with the lines present; ids are resolved after the
// whole file is read.
#include <algorithm>
#include <cstring>
#include <exception>
#include <limits>
#include <span>
#include <unordered_map>

#include "core/cell_collector.hpp"
#include "core/growable_buffer.hpp"
#include "core/io/cursor.hpp"
#include "core/io/decode.hpp"
#include "core/io/file.hpp"
#include "core/label_list.hpp"
#include "core/label_map.hpp"
#include "core/parallel.hpp"
#include "core/skip_log.hpp"
#include "formats/flac3d/flac3d_internal.hpp"
#include "meshioplusplus/warnings.hpp"

namespace meshioplusplus::flac3d {

namespace {

constexpr std::size_t kMaxWords = 16;  // a record's words kept: "Z B8 id" and 8 gridpoints

struct Cells {  // ASCII: the zones or the faces as parsed, in file order
  CellCollector rows;  // gridpoint ids, VTK order
  LabelList ids;
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

// The ASCII records of the file, or of one piece of it, as parsed.
struct Records {
  LabelList gp_ids;
  GrowableBuffer xyz;  // 3 float64 per gridpoint
  Cells zones, faces;
  std::vector<Group> groups;
  std::vector<std::pair<std::string, std::size_t>> skipped;  // a record not read: its name, its line
  std::size_t lines = 0;                                     // lines parsed (line numbers count on from it)
  bool any_record = false;                                   // a line other than numbers, blanks, comments
};

// What a line of bare numbers belongs to: the group whose header came before, the record
// skipped before, or neither (then it is a record of its own, skipped).
struct Context {
  std::ptrdiff_t group = -1;  // in Records::groups
  bool skipping = false;
};

// Files below this are parsed on one thread.
constexpr std::size_t kPiecesFrom = std::size_t{1} << 20;

class Reader {
 public:
  Reader(const std::string& path, unsigned threads)
      : file_(path, "flac3d"), cur_(file_.text(), "flac3d", path), path_(path), threads_(threads) {}

  Mesh read() {
    const std::size_t head = std::min<std::size_t>(8, cur_.size());
    binary_ = std::memchr(cur_.begin(), '\0', head) != nullptr;
    if (binary_) binary();
    else ascii();
    return build();
  }

 private:
  // --- ASCII ---------------------------------------------------------------------------------
  std::int64_t id(std::string_view f, const char* what) const {
    std::uint64_t v = 0;
    if (!io::parse_field(f, v) || v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      cur_.fail_at(expected_found(what, f), f.data());
    return static_cast<std::int64_t>(v);
  }
  double real(std::string_view f) const {
    double v = 0;
    if (!io::parse_field(f, v)) cur_.fail_at(expected_found("a coordinate", f), f.data());
    return v;
  }

  // The whole file: one piece per thread when it is large, joined in file order.
  void ascii() {
    const char* begin = cur_.begin();
    const char* end = begin + cur_.size();
    const std::size_t pieces = cur_.size() < kPiecesFrom ? 1 : std::min<std::size_t>(threads_, 16);
    std::vector<const char*> cut{begin};
    for (std::size_t j = 1; j < pieces; ++j) {  // at the line start after each nominal cut
      const char* at = std::max(cut.back(), begin + cur_.size() * j / pieces);
      const void* nl = std::memchr(at, '\n', static_cast<std::size_t>(end - at));
      if (!nl) break;
      cut.push_back(static_cast<const char*>(nl) + 1);
    }
    cut.push_back(end);
    const std::size_t n = cut.size() - 1;
    Records all;
    Context ctx;
    if (n == 1) {
      ascii_lines(begin, end, all, ctx, nullptr);
    } else {
      std::vector<Records> part(n);
      std::vector<Context> after(n);
      std::vector<const char*> lead_end(cut.begin(), cut.end() - 1);
      std::vector<std::exception_ptr> error(n);
      parallel_for(n, static_cast<unsigned>(n), [&](std::size_t j) {
        try {
          ascii_lines(cut[j], cut[j + 1], part[j], after[j], j > 0 ? &lead_end[j] : nullptr);
        } catch (const ReadError&) {  // after its leading lines, which are never parsed here
          error[j] = std::current_exception();
        }
      });
      for (std::size_t j = 0; j < n; ++j) {
        const std::size_t base = all.lines, lines = part[j].lines, groups = all.groups.size();
        const bool decided = j == 0 || part[j].any_record;
        if (lead_end[j] != cut[j]) ascii_lines(cut[j], lead_end[j], all, ctx, nullptr);  // numbers going on from before
        if (error[j]) std::rethrow_exception(error[j]);
        join(all, part[j], base);
        if (decided) {  // the piece's last record decides what its following lines belong to
          ctx = after[j];
          if (ctx.group >= 0) ctx.group += static_cast<std::ptrdiff_t>(groups);
        }
        all.lines = base + lines;
      }
    }
    gp_ids_ = std::move(all.gp_ids);
    xyz_ = std::move(all.xyz);
    zones_ = std::move(all.zones);
    faces_ = std::move(all.faces);
    groups_ = std::move(all.groups);
    for (const auto& [what, line] : all.skipped) skipped_.add("record " + what, line, "not read");
  }

  // Parses the lines of [p, end) into `r` (line numbers going on from r.lines), in context
  // `ctx` (updated). With `lead_end` (a piece after the first, whose context is not known
  // yet), the lines of bare numbers before its first record are left for the join, and
  // *lead_end says where they end (set before anything is parsed: it holds when this
  // throws).
  void ascii_lines(const char* p, const char* end, Records& r, Context& ctx, const char** lead_end) const {
    io::Cursor lines(std::string_view(p, static_cast<std::size_t>(end - p)), "flac3d", path_);
    bool open = lead_end != nullptr;
    if (open) *lead_end = p;
    std::string_view w[kMaxWords];
    while (!lines.at_end()) {
      const std::string_view l = lines.line();
      ++r.lines;
      const std::size_t n = io::split_words(l, w, kMaxWords, /*commas=*/true);
      if (n == 0 || w[0][0] == '*') continue;
      const std::string_view key = w[0];
      const bool numbers = key[0] >= '0' && key[0] <= '9';
      if (open) {
        if (numbers) {
          *lead_end = lines.ptr();
          continue;
        }
        open = false;
      }
      r.any_record |= !numbers;
      if (ctx.skipping && numbers) continue;
      ctx.skipping = false;
      if (ctx.group >= 0 && numbers) {
        Group& g = r.groups[static_cast<std::size_t>(ctx.group)];
        for (std::size_t i = 0; i < std::min(n, kMaxWords); ++i) g.ids.push_back(id(w[i], "a group member id"));
        if (n > kMaxWords) members_beyond(l, g);
        continue;
      }
      ctx.group = -1;
      if (key == "G") {
        if (n != 5) cur_.fail_at(expected_found("'G id x y z'", l), l.data());
        r.gp_ids.push_back(id(w[1], "a gridpoint id"));
        for (int k = 2; k < 5; ++k) r.xyz.push(real(w[k]));
      } else if (key == "Z" || key == "F") {
        const bool zone = key == "Z";
        const Shape* s = n >= 4 && n - 3 <= 8 ? shape_of(zone, static_cast<int>(n - 3)) : nullptr;
        if (!s)
          cur_.fail_at(expected_found(zone ? "'Z <type> id' and 4 to 8 gridpoint ids" : "'F <type> id' and 3 or 4 gridpoint ids", l),
                       l.data());
        Cells& c = zone ? r.zones : r.faces;
        c.ids.push_back(id(w[2], zone ? "a zone id" : "a face id"));
        const std::size_t k = n - 3;
        std::int64_t g[8];
        for (std::size_t j = 0; j < k; ++j) g[j] = id(w[3 + j], "a gridpoint id");
        if (k == 7) g[7] = g[6];
        std::int64_t* out = c.rows.add(s->type, static_cast<std::size_t>(s->nodes), static_cast<std::size_t>(l.data() - cur_.begin()));
        for (std::size_t j = 0; j < static_cast<std::size_t>(s->nodes); ++j) out[j] = g[s->to_vtk[j]];
      } else if (key == "ZGROUP" || key == "FGROUP") {
        r.groups.push_back(group_header(key == "ZGROUP", l, r.lines));
        ctx.group = static_cast<std::ptrdiff_t>(r.groups.size() - 1);
      } else {
        r.skipped.emplace_back(std::string(key.substr(0, 32)), r.lines);
        ctx.skipping = true;
      }
    }
  }

  // Appends piece `p` (whose line numbers start after line `base`) to `all`.
  static void join(Records& all, Records& p, std::size_t base) {
    all.gp_ids.append(p.gp_ids);
    all.xyz.append_consuming(std::move(p.xyz));
    for (Cells* c : {&all.zones, &all.faces}) {
      Cells& from = c == &all.zones ? p.zones : p.faces;
      c->rows.append(std::move(from.rows));
      c->ids.append(from.ids);
    }
    for (Group& g : p.groups) {
      g.line += base;
      all.groups.push_back(std::move(g));
    }
    for (auto& [what, line] : p.skipped) all.skipped.emplace_back(std::move(what), line + base);
    p = Records{};
  }

  // The ids of a member line beyond the words split above.
  void members_beyond(std::string_view l, Group& group) const {
    std::size_t i = 0, seen = 0;
    auto sep = [](char c) { return io::is_space(c) || c == ','; };
    while (i < l.size()) {
      while (i < l.size() && sep(l[i])) ++i;
      const std::size_t b = i;
      while (i < l.size() && !sep(l[i])) ++i;
      if (i > b && ++seen > kMaxWords) group.ids.push_back(id(l.substr(b, i - b), "a group member id"));
    }
  }

  // 'ZGROUP "name" SLOT s', the name quoted with ' or " (it may hold blanks), or bare.
  Group group_header(bool zone, std::string_view l, std::size_t line) const {
    Group g;
    g.zone = zone;
    g.line = line;
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
    points_ = NDArray::uninit(DType::float64, {n, 3});
    double* xyz = points_.data<double>();
    const char* p = cur_.take(std::size_t{n} * 28, "gridpoints");
    for (std::size_t i = 0; i < n; ++i, p += 28) {
      gp_ids_.push_back(io::load<std::uint32_t>(p, true));
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
    if (!uniform_cells(zone, n, blocks)) {
      // Pass 1: every record's node count, and the runs of one shape. Raw loads; a record
      // cut short is read again through the cursor, which names what is missing.
      std::vector<std::pair<const Shape*, std::size_t>> runs;
      const char* first = cur_.ptr();
      const char* p = first;
      const char* end = cur_.end();
      for (std::uint32_t i = 0; i < n; ++i) {
        if (end - p < 8) {
          cur_.set_ptr(p);
          cur_.load<std::uint32_t>(zone ? "zone id" : "face id");
          cur_.load<std::uint32_t>("node count");
        }
        const std::uint32_t k = io::load<std::uint32_t>(p + 4, true);
        const Shape* s = k <= 8 ? shape_of(zone, static_cast<int>(k)) : nullptr;
        if (!s) bad_node_count(zone, k, p);
        if (static_cast<std::size_t>(end - p - 8) < std::size_t{k} * 4) {
          cur_.set_ptr(p + 8);
          cur_.take(std::size_t{k} * 4, "gridpoint ids");
        }
        p += 8 + 4 * std::size_t{k};
        if (runs.empty() || runs.back().first != s) runs.emplace_back(s, 0);
        ++runs.back().second;
      }
      cur_.set_ptr(p);
      // Pass 2: each run decoded into its arrays (the bytes are known to be there).
      p = first;
      for (const auto& [s, count] : runs) {
        const auto k = static_cast<std::size_t>(s->nodes);
        Block b{s->type, NDArray::uninit(DType::int64, {count, k}), NDArray::uninit(DType::int64, {count})};
        for (std::size_t r = 0; r < count; ++r) {
          if (!decode(p, s, b.conn.data<std::int64_t>() + r * k, b.ids.data<std::int64_t>()[r])) missing_gridpoint(p, zone, s);
          p += 8 + 4 * std::size_t{io::load<std::uint32_t>(p + 4, true)};
        }
        blocks.push_back(std::move(b));
      }
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
    gp_ids_.clear();
  }

  // A binary section whose records all store the node count of the first (the usual file:
  // one cell type), decoded on several threads at that fixed stride, reading each record's
  // count only to check it. False, with nothing decoded, when the section is small, does not
  // fit the bytes left, or holds another count (a B7 beside B8s): the two passes handle it.
  // A gridpoint no G record defines is reported from the first record naming one, as the
  // two passes would: every count is checked first.
  bool uniform_cells(bool zone, std::size_t n, std::vector<Block>& blocks) {
    const char* first = cur_.ptr();
    if (threads_ < 2 || n < (std::size_t{1} << 16) || cur_.left() < 8) return false;
    const std::uint32_t stored = io::load<std::uint32_t>(first + 4, true);
    const Shape* s = stored <= 8 ? shape_of(zone, static_cast<int>(stored)) : nullptr;
    const std::size_t size = 8 + 4 * std::size_t{stored};
    if (!s || cur_.left() / size < n) return false;
    const auto k = static_cast<std::size_t>(s->nodes);
    Block b{s->type, NDArray::uninit(DType::int64, {n, k}), NDArray::uninit(DType::int64, {n})};
    std::int64_t* conn = b.conn.data<std::int64_t>();
    std::int64_t* ids = b.ids.data<std::int64_t>();
    const std::size_t pieces = std::min<std::size_t>(threads_, 16);
    std::vector<char> other_count(pieces, 0);
    std::vector<std::size_t> unknown(pieces, n);  // per piece: its first record naming an unknown gridpoint
    parallel_for(pieces, static_cast<unsigned>(pieces), [&](std::size_t t) {
      for (std::size_t r = n * t / pieces, e = n * (t + 1) / pieces; r < e; ++r) {
        const char* at = first + r * size;
        if (io::load<std::uint32_t>(at + 4, true) != stored) {
          other_count[t] = 1;
          return;
        }
        if (!decode(at, s, conn + r * k, ids[r]) && unknown[t] == n) unknown[t] = r;
      }
    });
    if (std::find(other_count.begin(), other_count.end(), 1) != other_count.end()) return false;
    const std::size_t r = *std::min_element(unknown.begin(), unknown.end());
    if (r != n) missing_gridpoint(first + r * size, zone, s);
    cur_.set_ptr(first + n * size);
    blocks.push_back(std::move(b));
    return true;
  }

  // The gridpoint ids a binary record stores (its count checked, its bytes there), a B7's
  // last one twice, as the shape's FLAC3D order numbers them.
  static void record_gridpoints(const char* at, std::int64_t (&g)[8]) {
    const std::uint32_t stored = io::load<std::uint32_t>(at + 4, true);
    for (std::size_t j = 0; j < stored; ++j) g[j] = io::load<std::uint32_t>(at + 8 + 4 * j, true);
    if (stored == 7) g[7] = g[6];
  }

  // The binary record at `at` (its count checked, its bytes there) into its id and its
  // nodes' positions in VTK order (`conn`, s->nodes of them); false when a gridpoint is
  // unknown (its slot then holds -1).
  bool decode(const char* at, const Shape* s, std::int64_t* conn, std::int64_t& id) const {
    id = io::load<std::uint32_t>(at, true);
    std::int64_t g[8];
    record_gridpoints(at, g);
    bool known = true;
    for (int j = 0; j < s->nodes; ++j) known &= (conn[j] = gps_.find(g[s->to_vtk[j]])) >= 0;
    return known;
  }

  [[noreturn]] void bad_node_count(bool zone, std::uint32_t k, const char* at) const {
    cur_.fail_at(expected_found(zone ? "a zone of 4 to 8 gridpoints" : "a face of 3 or 4 gridpoints", std::to_string(k) + " gridpoints"), at);
  }

  // The binary record at `at`, of shape `s`, names a gridpoint no G record defines: the
  // first such one, in the order the record's nodes are resolved.
  [[noreturn]] void missing_gridpoint(const char* at, bool zone, const Shape* s) {
    std::int64_t g[8];
    record_gridpoints(at, g);
    for (int j = 0; j < s->nodes; ++j)
      if (gps_.find(g[s->to_vtk[j]]) < 0) unknown_gridpoint(g[s->to_vtk[j]], zone, at);
    cur_.fail_at("a record whose gridpoints cannot be resolved", at);
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
      std::int64_t* ids = out.ids.data<std::int64_t>();
      for (std::size_t i = 0; i < b.count; ++i) ids[i] = c.ids[b.first + i];
      blocks.push_back(std::move(out));
    }
    return blocks;
  }

  // --- the mesh ------------------------------------------------------------------------------
  Mesh build() {
    Mesh mesh;
    if (!binary_) {
      points_ = xyz_.take(DType::float64, {gp_ids_.size(), 3});
      map_gridpoints();
      face_blocks_ = resolve(faces_, false);
      faces_.ids.clear();
      zone_blocks_ = resolve(zones_, true);
      zones_.ids.clear();
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
  std::string path_;
  unsigned threads_;
  bool binary_ = false;

  LabelList gp_ids_;
  GrowableBuffer xyz_;  // ASCII: 3 float64 per gridpoint
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
  const unsigned threads = opts.threads();
  opts.finish();
  return Reader(path, std::max(1u, threads)).read();
}

}  // namespace meshioplusplus::flac3d
