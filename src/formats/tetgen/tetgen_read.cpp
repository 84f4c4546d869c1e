// meshio++ TetGen reader: <base>.node, with <base>.ele, <base>.face and <base>.edge when they
// are there.
// Spec: https://wias-berlin.de/software/tetgen/fformats.html (.node, .ele, .face, .edge).
//
// Every file is a header line of counts, then one record per item: its index, its node
// indices (or coordinates), then its attributes and markers. '#' starts a comment that runs
// to the end of its line, anywhere; blank lines are ignored. The first point index in the
// .node file sets the numbering (0 or 1 in practice; meshio takes whatever it is); points
// must be numbered consecutively from it, and every node index of the other files uses it.
//
//   .node  n dim(3) #attributes #markers; index x y z attributes... markers...
//   .ele   n nodes(4 or 10) #region-attributes; index nodes... attributes...
//   .face  n marker(0/1); index 3 or 6 nodes [marker] [2 adjacent tetrahedra]
//   .edge  n marker(0/1); index 2 or 3 nodes [marker] [an adjacent tetrahedron]
//
// A face or edge has 6 or 3 nodes when the elements have 10 (tetgen -o2); the adjacent
// elements that tetgen -nn / -ee appends are recognised by the column count of the first
// record and skipped; a .face or .edge of no records adds no block. Reading either x.node
// or x.ele reads the set; x.node alone is a point cloud. Point attributes are point data tetgen:attr1, 2, ... (float64), point markers
// tetgen:ref, tetgen:ref2, ..., region attributes cell data tetgen:ref, ref2, ... (markers
// and region attributes are int64 when every value is a whole number, else float64), face and edge markers cell data
// tetgen:ref of their blocks; a block without a value of some name gets zeros, as meshio's
// UGRID reader fills volumes. Integer tetgen:ref values make cell regions
// "tetgen_ref_<dim>_<value>" (add_ref_regions).
//
// Safe for untrusted input: every count is checked against the bytes left before anything
// is allocated, every node index against the point count, every read is bounded.
#include <cmath>
#include <filesystem>
#include <string_view>
#include <vector>

#include "core/io/cursor.hpp"
#include "core/io/file.hpp"
#include "core/io/parallel_rows.hpp"
#include "core/ref_regions.hpp"
#include "formats/tetgen/tetgen_internal.hpp"

namespace meshioplusplus::tetgen {

namespace {

// The most attribute or marker columns a header may declare (TetGen writes 0 or 1 markers
// and a handful of attributes; a larger number is a corrupt header).
constexpr std::uint64_t kMaxColumns = 1024;

// One of the files, walked with a cursor that skips '#' comments.
class Table {
 public:
  Table(const std::string& path) : file_(path, "tetgen"), cur_(file_.text(), "tetgen", path) {}

  // The header line's numbers (at least `min`, at most `max`); the rest keep their defaults.
  void header(std::uint64_t* out, std::size_t min, std::size_t max, std::string_view what) {
    skip();
    const char* at = header_at_ = cur_.ptr();
    std::string_view line = cur_.line();
    line = line.substr(0, line.find('#'));
    std::string_view words[8];
    io::Cursor words_cur = cur_.window(line.data(), line.data() + line.size());
    const std::size_t n = words_cur.words(words, 8);
    if (n < min || n > max) cur_.fail_at(expected_found(std::string(what), line), at);
    for (std::size_t i = 0; i < n; ++i) out[i] = cur_.count(words[i], what, words[i].data());
  }

  // The number of whitespace-separated words on the first record's line (up to a comment).
  std::size_t columns() {
    skip();
    const char* p = cur_.ptr();
    std::size_t n = 0;
    while (p != cur_.end() && *p != '\n' && *p != '#') {
      while (p != cur_.end() && *p != '\n' && io::is_space(*p)) ++p;  // every blank, '\f' and '\v' too
      if (p == cur_.end() || *p == '\n' || *p == '#') break;
      ++n;
      while (p != cur_.end() && !io::is_space(*p) && *p != '#') ++p;
    }
    return n;
  }

  void skip() { cur_.skip_space_and_comments('#'); }
  // The next number of the records' cursor `c` (this table's, or a window of it).
  template <class T> static T number(io::Cursor& c, std::string_view what) {
    c.skip_space_and_comments('#');
    if constexpr (std::is_same_v<T, std::int64_t>) return c.int64(what);
    else return c.number<T>(what);
  }
  // A node index of record `row`, turned 0-based by `base` and checked against `n`.
  static std::int64_t node(io::Cursor& c, std::size_t row, std::int64_t base, std::size_t n, std::string_view what) {
    c.skip_space_and_comments('#');
    const char* at = c.ptr();
    const auto v = c.int64("a node index");
    if (v < base || static_cast<std::uint64_t>(v - base) >= n)
      c.fail_at(std::string(what) + " " + std::to_string(row + 1) + ": node " + std::to_string(v) + " is outside " +
                    std::to_string(base) + ".." + std::to_string(base + static_cast<std::int64_t>(n) - 1),
                at);
    return v - base;
  }
  // Records [0, n) parsed by `rows(c, r0, r1)` on a cursor `c` at record r0: on several
  // threads where the records are one per line (io::parallel_rows checks; comments between
  // them make it fall back to one thread), so `rows` writes each record's own place only.
  template <class Rows> void records(std::size_t n, unsigned threads, Rows&& rows) {
    skip();
    io::parse_rows(cur_, n, threads, [&](const char* start, std::size_t r0, std::size_t r1) {
      io::Cursor c = cur_.window(start, cur_.end());
      rows(c, r0, r1);
      return c.ptr();
    });
  }
  // `count` records of `cols` values must fit in what is left.
  void need(std::uint64_t count, std::uint64_t cols, std::string_view what) {
    const char* at = cur_.ptr();
    cur_.need_values(cur_.product(count, cols, what, at), what);
  }
  // Nothing but comments and blanks may follow the last record.
  void finish(std::string_view what) {
    skip();
    if (!cur_.at_end()) cur_.fail_expected("the end of the file after the " + std::string(what));
  }
  io::Cursor& cursor() { return cur_; }
  // A header value that is out of range: the error points at the header line.
  [[noreturn]] void bad_header(std::string_view what) const { cur_.fail_at(what, header_at_); }

 private:
  const char* header_at_ = nullptr;
  io::FileBytes file_;
  io::Cursor cur_;
};

// Markers and region attributes: int64 when every value is a whole number in range (TetGen
// writes integers; meshio writes its float markers as "2.0"), else float64.
NDArray whole_or_real(std::vector<double>&& v) {
  bool whole = true;
  for (double x : v) whole = whole && x == std::floor(x) && std::fabs(x) < 9.0e18;
  if (!whole) return NDArray::from_vector(v);
  NDArray out = NDArray::uninit(DType::int64, {v.size()});
  std::int64_t* p = out.data<std::int64_t>();
  for (std::size_t i = 0; i < v.size(); ++i) p[i] = static_cast<std::int64_t>(v[i]);
  return out;
}

struct Points {
  NDArray xyz;
  std::vector<NDArray> attrs, markers;
  std::int64_t base = 0;
};

Points read_node(const std::string& path, unsigned threads) {
  Table t(path);
  std::uint64_t h[4] = {0, 3, 0, 0};
  t.header(h, 1, 4, "a .node header: <#points> [<dimension> <#attributes> <#markers>]");
  io::Cursor& cur = t.cursor();
  if (h[1] != 3) t.bad_header("the dimension is " + std::to_string(h[1]) + ": expected 3 (meshio++ reads 3-D points)");
  if (h[2] > kMaxColumns || h[3] > kMaxColumns) t.bad_header("expected at most " + std::to_string(kMaxColumns) + " attributes and markers");
  const std::size_t n = h[0], na = h[2], nm = h[3];
  t.need(n, 4 + na + nm, "points");
  Points out;
  out.xyz = NDArray::uninit(DType::float64, {n, 3});
  for (std::size_t k = 0; k < na; ++k) out.attrs.push_back(NDArray::uninit(DType::float64, {n}));
  std::vector<std::vector<double>> markers(nm, std::vector<double>(n));
  double* xyz = out.xyz.data<double>();
  if (n > 0) {  // the first index sets the numbering
    t.skip();
    io::Cursor first = cur.window(cur.ptr(), cur.end());
    out.base = first.number<std::int64_t>("a point index");
  }
  t.records(n, threads, [&](io::Cursor& c, std::size_t r0, std::size_t r1) {
    for (std::size_t i = r0; i < r1; ++i) {
      c.skip_space_and_comments('#');
      const char* at = c.ptr();
      const auto index = c.int64("a point index");
      if (index != out.base + static_cast<std::int64_t>(i))
        c.fail_at("points must be numbered consecutively: expected point " + std::to_string(out.base + static_cast<std::int64_t>(i)) +
                      ", found " + std::to_string(index),
                  at);
      for (int k = 0; k < 3; ++k) xyz[3 * i + k] = Table::number<double>(c, "a coordinate");
      for (std::size_t k = 0; k < na; ++k) out.attrs[k].data<double>()[i] = Table::number<double>(c, "a point attribute");
      for (std::size_t k = 0; k < nm; ++k) markers[k][i] = Table::number<double>(c, "a boundary marker");
    }
  });
  t.finish("points");
  for (auto& v : markers) out.markers.push_back(whole_or_real(std::move(v)));
  return out;
}

struct Block {
  CellBlock cells;
  std::vector<NDArray> refs;  // tetgen:ref, tetgen:ref2, ...
};

Block read_ele(const std::string& path, const Points& pts, unsigned threads) {
  Table t(path);
  std::uint64_t h[3] = {0, 4, 0};
  t.header(h, 1, 3, "an .ele header: <#tetrahedra> [<nodes per tetrahedron> <#region attributes>]");
  if (h[1] != 4 && h[1] != 10) t.bad_header("expected 4 or 10 nodes per tetrahedron, found " + std::to_string(h[1]));
  if (h[2] > kMaxColumns) t.bad_header("expected at most " + std::to_string(kMaxColumns) + " region attributes");
  const std::size_t m = h[0], k = h[1], na = h[2];
  const std::size_t n = pts.xyz.dim(0);
  t.need(m, 1 + k + na, "tetrahedra");
  NDArray conn = NDArray::uninit(DType::int64, {m, k});
  std::int64_t* c = conn.data<std::int64_t>();
  std::vector<std::vector<double>> attrs(na, std::vector<double>(m));
  t.records(m, threads, [&](io::Cursor& cur, std::size_t r0, std::size_t r1) {
    std::int64_t row[10];
    for (std::size_t i = r0; i < r1; ++i) {
      Table::number<std::int64_t>(cur, "a tetrahedron index");
      for (std::size_t j = 0; j < k; ++j) row[j] = Table::node(cur, i, pts.base, n, "tetrahedron");
      for (std::size_t j = 0; j < k; ++j) c[i * k + j] = k == 10 ? row[kTetra10ToVtk[j]] : row[j];
      for (std::size_t a = 0; a < na; ++a) attrs[a][i] = Table::number<double>(cur, "a region attribute");
    }
  });
  t.finish("tetrahedra");
  Block b{CellBlock::rectangular(k == 10 ? "tetra10" : "tetra", std::move(conn)), {}};
  for (auto& a : attrs) b.refs.push_back(whole_or_real(std::move(a)));
  return b;
}

// A .face (`nodes` 3, `extra_choices` {0, 2}) or .edge (2, {0, 1}) file; `second_order`
// doubles the faces' nodes to 6 and gives edges 3.
Block read_boundary(const std::string& path, const Points& pts, bool face, bool second_order, unsigned threads) {
  Table t(path);
  std::uint64_t h[2] = {0, 0};
  const char* what = face ? "face" : "edge";
  t.header(h, 1, 2, face ? "a .face header: <#faces> [<boundary marker 0 or 1>]" : "an .edge header: <#edges> [<boundary marker 0 or 1>]");
  io::Cursor& cur = t.cursor();
  if (h[1] > 1) t.bad_header(std::string("the ") + what + " boundary marker flag is " + std::to_string(h[1]) + ": expected 0 or 1");
  const std::size_t m = h[0], nm = h[1];
  const std::size_t k = face ? (second_order ? 6 : 3) : (second_order ? 3 : 2);
  const std::size_t adjacent = face ? 2 : 1;  // columns tetgen -nn / -ee appends
  std::size_t extra = 0;
  if (m > 0) {
    const char* at = cur.ptr();
    const std::size_t cols = t.columns();
    if (cols == 1 + k + nm + adjacent) extra = adjacent;
    else if (cols != 1 + k + nm)
      cur.fail_at(std::string("expected ") + std::to_string(1 + k + nm) + " or " + std::to_string(1 + k + nm + adjacent) + " columns in a " +
                      what + " record, found " + std::to_string(cols),
                  at);
  }
  const std::size_t n = pts.xyz.dim(0);
  t.need(m, 1 + k + nm + extra, face ? "faces" : "edges");
  NDArray conn = NDArray::uninit(DType::int64, {m, k});
  std::int64_t* c = conn.data<std::int64_t>();
  NDArray markers = nm ? NDArray::uninit(DType::int64, {m}) : NDArray();
  t.records(m, threads, [&](io::Cursor& rec, std::size_t r0, std::size_t r1) {
    for (std::size_t i = r0; i < r1; ++i) {
      Table::number<std::int64_t>(rec, face ? "a face index" : "an edge index");
      for (std::size_t j = 0; j < k; ++j) c[i * k + j] = Table::node(rec, i, pts.base, n, what);
      if (nm) markers.data<std::int64_t>()[i] = Table::number<std::int64_t>(rec, "a boundary marker");
      for (std::size_t j = 0; j < extra; ++j) Table::number<std::int64_t>(rec, "an adjacent tetrahedron");
    }
  });
  t.finish(face ? "faces" : "edges");
  const char* type = face ? (second_order ? "triangle6" : "triangle") : (second_order ? "line3" : "line");
  Block b{CellBlock::rectangular(type, std::move(conn)), {}};
  if (nm) b.refs.push_back(std::move(markers));
  return b;
}

bool exists(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec);
}

}  // namespace

Mesh read_tetgen(const std::string& path, const Options& options) {
  OptionReader opts(options, "tetgen");
  const unsigned threads = opts.threads();
  opts.finish();
  const std::string base = base_name(path);
  if (base.empty()) throw read_error("tetgen", path, kBadName);
  // The .node file is read first (the others refer to it); a missing x.node is the error
  // "cannot open" naming it.
  Points pts = read_node(base + ".node", threads);
  std::vector<Block> blocks;
  bool second_order = false;
  if (exists(base + ".ele") || path.ends_with(".ele")) {
    blocks.push_back(read_ele(base + ".ele", pts, threads));
    second_order = blocks.back().cells.type == "tetra10";
  }
  // A .face or .edge of no records adds no block (the writer always writes both).
  for (const bool face : {true, false}) {
    const std::string side = base + (face ? ".face" : ".edge");
    if (!exists(side)) continue;
    Block b = read_boundary(side, pts, face, second_order, threads);
    if (b.cells.size() > 0) blocks.push_back(std::move(b));
  }

  Mesh m;
  m.points = std::move(pts.xyz);
  for (std::size_t k = 0; k < pts.attrs.size(); ++k) m.point_data[attr_name(k)] = std::move(pts.attrs[k]);
  for (std::size_t k = 0; k < pts.markers.size(); ++k) m.point_data[ref_name(k)] = std::move(pts.markers[k]);
  std::size_t names = 0;
  for (const auto& b : blocks) names = std::max(names, b.refs.size());
  std::vector<const NDArray*> region_refs;
  for (auto& b : blocks) {
    m.cells.push_back(std::move(b.cells));
    region_refs.push_back(b.refs.empty() ? nullptr : &b.refs.front());
  }
  add_ref_regions(m, "tetgen_ref", region_refs, threads);
  for (std::size_t k = 0; k < names; ++k) {
    std::vector<NDArray>& list = m.cell_data[ref_name(k)];
    for (std::size_t b = 0; b < blocks.size(); ++b)
      list.push_back(k < blocks[b].refs.size() ? std::move(blocks[b].refs[k]) : NDArray::zeros(DType::int64, {m.cells[b].size()}));
  }
  return m;
}

}  // namespace meshioplusplus::tetgen
