// meshio++ Wavefront OBJ reader: polygonal geometry.
// Spec: https://paulbourke.net/dataformats/obj/
//
// Statements read: "v x y z [w]" (points; w and any further values are ignored), "vt u
// [v [w]]", "vn i j k", "f" with corners "v", "v/vt", "v//vn", "v/vt/vn" (positive
// 1-based, or negative: relative to the last element defined so far, as the spec says), "l"
// (a polyline: one line cell per segment), "g" / "o" / "usemtl" (named cell regions
// "g:<name>", "o:<name>", "usemtl:<name>"), "#" comments. Everything else ("mtllib", "s",
// "p", free-form curves, ...) is ignored quietly.
// Blocks follow meshio: a run of faces with one vertex count is one block (3 triangle,
// 4 quad, else polygon), and every "g" starts a new one; a run of "l" segments is a line
// block. cell_data "obj:group_ids" holds the number of "g" statements before each cell,
// minus one (meshio's block id, here per cell).
// Texture coordinates and normals become point_data "obj:vt" / "obj:vn" when they map one
// to one to points: every corner that names one pairs it with its point consistently, and
// each point is paired with one (points no corner pairs take the one with their own index
// when the file has as many as points). Otherwise they are dropped with a warning.
// Safe for untrusted input: every index is checked against what is defined before it (the
// spec's order: a face refers to vertices already given); buffers grow
// with the bytes read, never with a number from the file.
#include <algorithm>
#include <cstring>
#include <map>
#include <vector>

#include "core/array_parts.hpp"
#include "core/growable_buffer.hpp"
#include "core/io/cursor.hpp"
#include "core/io/file.hpp"
#include "formats/obj/obj_internal.hpp"
#include "meshioplusplus/warnings.hpp"

namespace meshioplusplus::obj {

namespace {

const char* face_type(std::uint64_t k) { return k == 3 ? "triangle" : k == 4 ? "quad" : "polygon"; }

inline bool blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

class Reader {
 public:
  explicit Reader(const std::string& path) : file_(path, "obj"), cur_(file_.text(), "obj", path) {}

  Mesh read() {
    while (!cur_.at_end()) {
      const std::string_view line = cur_.line();
      p_ = line.data();
      e_ = p_ + line.size();
      while (p_ != e_ && blank(*p_)) ++p_;
      if (p_ == e_ || *p_ == '#') continue;
      const char* k = p_;
      while (p_ != e_ && !blank(*p_)) ++p_;
      const std::string_view key(k, static_cast<std::size_t>(p_ - k));
      if (key == "v") vertex(points_, 3, 3, "a vertex coordinate");
      else if (key == "f") face(false);
      else if (key == "vt") texcoord();
      else if (key == "vn") vertex(normals_, 3, 3, "a normal component");
      else if (key == "l") face(true);
      else if (key == "g") group();
      else if (key == "o") current_object_ = std::string(rest());
      else if (key == "usemtl") current_material_ = std::string(rest());
      // anything else: ignored (mtllib, s, p, curves, ...)
    }
    return finish();
  }

 private:
  static void append(std::vector<double>& out, double v) { out.push_back(v); }
  static void append(GrowableBuffer& out, double v) { out.push(v); }
  // `need` numbers of a statement into `out`, ignoring any after the first `keep`.
  template <class Out> void vertex(Out& out, std::size_t need, std::size_t keep, const char* what) {
    for (std::size_t i = 0; i < keep; ++i) {
      while (p_ != e_ && blank(*p_)) ++p_;
      double v;
      const char* q = (p_ == e_) ? nullptr : io::parse_number(p_, e_, v);
      if (!q || (q != e_ && !blank(*q))) {
        if (i >= need) break;
        cur_.fail_expected(what, p_);
      }
      append(out, v);
      p_ = q;
    }
  }

  void texcoord() {
    double t[3] = {0, 0, 0};
    std::size_t n = 0;
    for (; n < 3; ++n) {
      while (p_ != e_ && blank(*p_)) ++p_;
      if (p_ == e_ || *p_ == '#') break;
      const char* q = io::parse_number(p_, e_, t[n]);
      if (!q || (q != e_ && !blank(*q))) cur_.fail_expected("a texture coordinate", p_);
      p_ = q;
    }
    if (n == 0) cur_.fail_expected("a texture coordinate", p_);
    vt_dim_ = std::max(vt_dim_, n);
    texcoords_.insert(texcoords_.end(), t, t + 3);
  }

  // One index of a corner: 1-based, or negative relative to `count` defined so far.
  std::int64_t index(const char*& p, const char* e, std::size_t count, const char* what) {
    std::int64_t v = 0;
    const char* q = io::parse_number(p, e, v);
    if (!q || v == 0) cur_.fail_expected(std::string("a nonzero ") + what + " index", p);
    const std::int64_t r = v > 0 ? v - 1 : static_cast<std::int64_t>(count) + v;
    if (r < 0) cur_.fail_at(std::string("relative ") + what + " index " + std::to_string(v) + " refers before the first one", p);
    p = q;
    return r;
  }

  // Remembers that point `pt` is paired with item `item` (texture coordinate or normal).
  static void pair(std::vector<std::int64_t>& map, bool& conflict, std::int64_t pt, std::int64_t item) {
    const auto i = static_cast<std::size_t>(pt);
    if (i >= map.size()) map.resize(std::max(i + 1, map.size() * 2), -1);
    if (map[i] == -1) map[i] = item;
    else if (map[i] != item) conflict = true;
  }

  void face(bool polyline) {
    const std::size_t start = corners_.size() / sizeof(std::int64_t);
    const std::size_t nv = points_.size() / (3 * sizeof(double)), nvt = texcoords_.size() / 3, nvn = normals_.size() / 3;
    for (;;) {
      while (p_ != e_ && blank(*p_)) ++p_;
      if (p_ == e_ || *p_ == '#') break;
      const char* at = p_;
      const std::int64_t v = index(p_, e_, nv, "vertex");
      if (static_cast<std::size_t>(v) >= nv) cur_.fail_at("vertex index " + std::to_string(v + 1) + " is past the " + std::to_string(nv) + " vertices defined so far", at);
      if (p_ != e_ && *p_ == '/') {
        ++p_;
        if (p_ != e_ && *p_ != '/') {
          const std::int64_t t = index(p_, e_, nvt, "texture coordinate");
          if (static_cast<std::size_t>(t) >= nvt) cur_.fail_at("texture coordinate index " + std::to_string(t + 1) + " is past the " + std::to_string(nvt) + " defined", at);
          pair(vt_of_, vt_conflict_, v, t);
          vt_used_ = true;
        }
        if (p_ != e_ && *p_ == '/') {
          ++p_;
          const std::int64_t n = index(p_, e_, nvn, "normal");
          if (static_cast<std::size_t>(n) >= nvn) cur_.fail_at("normal index " + std::to_string(n + 1) + " is past the " + std::to_string(nvn) + " defined", at);
          pair(vn_of_, vn_conflict_, v, n);
          vn_used_ = true;
        }
      }
      if (p_ != e_ && !blank(*p_)) cur_.fail_expected("a corner v, v/vt, v//vn or v/vt/vn", at);
      corners_.push(v);
    }
    const std::size_t k = corners_.size() / sizeof(std::int64_t) - start;
    if (polyline) {
      if (k < 2) cur_.fail_at("a line needs at least 2 vertices, found " + std::to_string(k), p_);
      // segments (a, b), (b, c), ...: rewrite the corners in place as pairs
      const std::int64_t* listed = corners_.as<const std::int64_t>() + start;
      std::vector<std::int64_t> chain(listed, listed + k);
      corners_.truncate(start * sizeof(std::int64_t));
      for (std::size_t i = 0; i + 1 < k; ++i) {
        corners_.push(chain[i]);
        corners_.push(chain[i + 1]);
        add_cell(true, 2);
      }
      return;
    }
    if (k == 0) cur_.fail_at("a face needs at least 1 vertex, found none", p_);
    add_cell(false, k);
  }

  void add_cell(bool line, std::uint64_t k) {
    if (runs_.empty() || new_block_ || runs_.back().line != line || runs_.back().k != k)
      runs_.push_back({line, k, 0, group_id_});
    new_block_ = false;
    ++runs_.back().count;
    const std::int64_t cell = ncells_++;
    // Every face joins every group its `g` line named: bound the total so a short file of
    // many names and many faces cannot ask for memory quadratic in its size.
    memberships_ += current_groups_.size();
    if (memberships_ > 16 * cur_.size() + (1u << 20))
      cur_.fail_at("the group memberships of the faces exceed what a file of this size can hold (" +
                       std::to_string(memberships_) + ")", p_);
    for (const auto& g : current_groups_) groups_[g].push_back(cell);
    if (!current_object_.empty()) objects_[current_object_].push_back(cell);
    if (!current_material_.empty()) materials_[current_material_].push_back(cell);
  }

  std::string_view rest() {
    std::string_view r(p_, static_cast<std::size_t>(e_ - p_));
    return io::Cursor::trim(r);
  }

  void group() {
    ++group_id_;
    new_block_ = true;
    current_groups_.clear();
    io::Cursor words(rest(), "obj", cur_.path());
    for (std::string_view w = words.token(); !w.empty(); w = words.token())
      if (w != "default" && std::find(current_groups_.begin(), current_groups_.end(), w) == current_groups_.end())
        current_groups_.emplace_back(w);
  }

  // point_data from items (width w) when they map one to one to points; see the header.
  bool per_point(const std::vector<double>& items, std::size_t w, std::size_t width, const std::vector<std::int64_t>& map, bool conflict,
                 bool used, std::size_t np, NDArray& out) {
    const std::size_t n = items.size() / w;
    if (n == 0) return false;
    if (conflict) return false;
    if (!used && n != np) return false;
    out = NDArray::uninit(DType::float64, {np, width});
    double* o = out.data<double>();
    for (std::size_t i = 0; i < np; ++i) {
      std::int64_t src = i < map.size() ? map[i] : -1;
      if (src == -1) {
        if (n != np) return false;
        src = static_cast<std::int64_t>(i);
      }
      std::memcpy(o + i * width, items.data() + static_cast<std::size_t>(src) * w, width * sizeof(double));
    }
    return true;
  }

  Mesh finish() {
    Mesh mesh;
    const std::size_t np = points_.size() / (3 * sizeof(double));
    mesh.points = points_.take(DType::float64, {np, 3});  // uncopied where GrowableBuffer can
    NDArray a;
    if (per_point(texcoords_, 3, vt_dim_, vt_of_, vt_conflict_, vt_used_, np, a)) mesh.point_data[kTexCoords] = a;
    else if (!texcoords_.empty()) warn("obj: " + cur_.path() + ": texture coordinates do not map one to one to points; not read");
    if (per_point(normals_, 3, 3, vn_of_, vn_conflict_, vn_used_, np, a)) mesh.point_data[kNormals] = a;
    else if (!normals_.empty()) warn("obj: " + cur_.path() + ": normals do not map one to one to points; not read");
    // The corners, run after run: each block is a part of them.
    const NDArray corners = corners_.take(DType::int64, {corners_.size() / sizeof(std::int64_t)});
    std::size_t at = 0;
    for (const Run& r : runs_) {
      NDArray c = array_part(corners, at, {r.count, r.k});
      at += r.count * r.k;
      mesh.cells.push_back(CellBlock::rectangular(r.line ? "line" : face_type(r.k), std::move(c)));
      NDArray g = NDArray::uninit(DType::int64, {r.count});
      std::fill_n(g.data<std::int64_t>(), r.count, r.group);
      mesh.cell_data[kGroupIds].push_back(std::move(g));
    }
    auto regions = [&](const std::map<std::string, std::vector<std::int64_t>>& m, const char* prefix) {
      for (const auto& [name, cells] : m) {
        Region r;
        r.name = prefix + name;
        r.kind = RegionKind::cell;
        r.entries = NDArray::from_vector(cells);
        r.canonicalize();
        mesh.regions.push_back(std::move(r));
      }
    };
    regions(groups_, "g:");
    regions(objects_, "o:");
    regions(materials_, "usemtl:");
    return mesh;
  }

  struct Run {
    bool line;
    std::uint64_t k, count;
    std::int64_t group;
  };

  io::FileBytes file_;
  io::Cursor cur_;
  const char* p_ = nullptr;
  const char* e_ = nullptr;
  GrowableBuffer points_;                     // 3 doubles per vertex
  std::vector<double> texcoords_, normals_;  // texcoords_ padded to 3 per item
  std::size_t vt_dim_ = 0;
  GrowableBuffer corners_;  // int64, the runs' cells back to back
  std::vector<std::int64_t> vt_of_, vn_of_;
  bool vt_conflict_ = false, vn_conflict_ = false, vt_used_ = false, vn_used_ = false;
  std::vector<Run> runs_;
  bool new_block_ = false;
  std::int64_t group_id_ = -1, ncells_ = 0;
  std::vector<std::string> current_groups_;
  std::uint64_t memberships_ = 0;  // faces x groups so far (bounded, see add_cell)
  std::string current_object_, current_material_;
  std::map<std::string, std::vector<std::int64_t>> groups_, objects_, materials_;
};

}  // namespace

Mesh read_obj(const std::string& path, const Options& options) {
  OptionReader opts(options, "obj");
  opts.finish();
  return Reader(path).read();
}

}  // namespace meshioplusplus::obj
