// meshio++ WKT reader.
// Spec: https://www.ogc.org/standard/sfa/ (OGC 06-103r4, Simple Feature Access part 1,
// section 7 "Well-known Text Representation for Geometry")
//
// Reads one or more surface geometries: TIN and MULTIPOLYGON (lists of polygons), TRIANGLE
// and POLYGON (one), each optionally tagged Z, M or ZM, or EMPTY; keywords in any case.
// A polygon's exterior ring must be closed (its last point its first); its distinct
// corners make a cell: 3 a triangle, 4 a quad, more a polygon, one block per run of one
// size in file order. Interior rings (holes) are skipped with a warning: a cell has none.
// Points are merged as meshio merges them: equal coordinates are one point, numbered in
// order of first appearance. Coordinates: x y, x y z, or x y z m (M dropped; with the M tag
// x y m); every point of the file must have the same count. meshio 5.0 reads only TIN of
// 3-D triangles; everything it reads, this reads the same.
//
// Memory: points are merged as they are parsed (core/point_weld.hpp) and the corners
// gathered in a GrowableBuffer; the points and the blocks (parts of the corners) are
// handed over without a copy.
#include <cstring>
#include <utility>
#include <vector>

#include "core/array_parts.hpp"
#include "core/growable_buffer.hpp"
#include "core/io/cursor.hpp"
#include "core/point_weld.hpp"
#include "core/io/file.hpp"
#include "formats/wkt/wkt_internal.hpp"
#include "meshioplusplus/warnings.hpp"

namespace meshioplusplus::wkt {

namespace {

class Reader {
 public:
  explicit Reader(const std::string& path) : file_(path, "wkt"), cur_(file_.text(), "wkt", path), points_(file_.size() / 256) {}

  Mesh read() {
    for (;;) {
      cur_.skip_space();
      if (cur_.at_end()) break;
      geometry();
    }
    if (geometries_ == 0) cur_.fail("no geometry in the file");
    return assemble();
  }

 private:
  std::string keyword() {
    cur_.skip_space();
    const char* b = cur_.ptr();
    const char* q = b;
    while (q != cur_.end() && std::isalpha(static_cast<unsigned char>(*q))) ++q;
    cur_.set_ptr(q);
    std::string k(b, q);
    for (char& c : k) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return k;
  }

  void expect(char c, const char* what) {
    cur_.skip_space();
    if (cur_.at_end() || *cur_.ptr() != c) cur_.fail_expected(what);
    cur_.set_ptr(cur_.ptr() + 1);
  }
  bool next_is(char c) {
    cur_.skip_space();
    return !cur_.at_end() && *cur_.ptr() == c;
  }

  void geometry() {
    const char* at = cur_.ptr();
    const std::string k = keyword();
    ++geometries_;
    const bool many = k == "TIN" || k == "MULTIPOLYGON";
    if (!many && k != "TRIANGLE" && k != "POLYGON")
      cur_.fail_at(expected_found("a surface geometry (TIN, TRIANGLE, POLYGON, MULTIPOLYGON)", k.empty() ? std::string_view(at, std::min<std::size_t>(16, cur_.end() - at)) : std::string_view(k)), at);
    const char* tag_at = cur_.ptr();
    std::string tag = keyword();
    if (tag == "EMPTY") return;
    if (!tag.empty() && tag != "Z" && tag != "M" && tag != "ZM") cur_.fail_at(expected_found("Z, M, ZM, EMPTY or '('", tag), tag_at);
    measured_ = tag == "M" || tag == "ZM";
    if (!tag.empty()) {
      const char* e_at = cur_.ptr();
      if (keyword() == "EMPTY") return;
      cur_.set_ptr(e_at);
    }
    if (!many) return polygon();
    expect('(', "'(' opening the polygon list");
    if (next_is(')')) return cur_.set_ptr(cur_.ptr() + 1);  // "TIN ()": meshio's empty TIN
    do polygon();
    while (comma());
    expect(')', "',' or ')' in the polygon list");
  }

  bool comma() {
    if (!next_is(',')) return false;
    cur_.set_ptr(cur_.ptr() + 1);
    return true;
  }

  void polygon() {
    const char* at = cur_.ptr();
    expect('(', "'(' opening a polygon");
    ring(at);
    std::size_t holes = 0;
    while (comma()) ++holes, skip_ring();
    expect(')', "',' or ')' closing a polygon");
    if (holes) warn("wkt: skipped " + std::to_string(holes) + " interior ring(s) of the polygon at line " + std::to_string(cur_.position(at).line) + " (a cell has no holes)");
  }

  // The exterior ring: its distinct corners become a cell.
  void ring(const char* polygon_at) {
    expect('(', "'(' opening a ring");
    std::size_t n = 0;
    const std::size_t first = corners_.size() / sizeof(std::int64_t);
    double c[4];
    std::int64_t last = -1;
    do {
      last = point(c);
      corners_.push(last);
      ++n;
    } while (comma());
    expect(')', "',' or ')' in a ring");
    if (n < 4 || corners_.as<std::int64_t>()[first] != last)
      cur_.fail_at("a polygon ring must be closed (its last point its first) with at least 3 corners; found " + std::to_string(n) + " points", polygon_at);
    corners_.truncate(corners_.size() - sizeof(std::int64_t));  // the closing repeat
    if (runs_.empty() || runs_.back().first != n - 1) runs_.push_back({n - 1, 0});
    ++runs_.back().second;
  }

  void skip_ring() {
    expect('(', "'(' opening a ring");
    double c[4];
    do read_coords(c);
    while (comma());
    expect(')', "',' or ')' in a ring");
  }

  int read_coords(double* c) {
    int k = 0;
    for (;;) {
      cur_.skip_space();
      const char* p = cur_.ptr();
      double v = 0;
      const char* e = io::parse_number(p, cur_.end(), v);
      if (!e) {
        if (k < 2) cur_.fail_expected("a coordinate", p);
        break;
      }
      if (k == 4) cur_.fail_at("a point has at most 4 coordinates (x y z m)", p);
      c[k++] = v;
      cur_.set_ptr(e);
    }
    return k;
  }

  std::int64_t point(double* c) {
    const char* at = cur_.ptr();
    const int k = read_coords(c);
    const int kept = measured_ ? k - 1 : (k == 4 ? 3 : k);
    if (kept < 2) cur_.fail_at("a point needs x and y", at);
    if (dim_ == 0) dim_ = kept;
    if (kept != dim_) cur_.fail_at("points have mixed dimensionality: " + std::to_string(kept) + " coordinates here, " + std::to_string(dim_) + " before", at);
    const double key[3] = {c[0], c[1], kept == 3 ? c[2] : 0.0};
    const std::size_t id = points_.find_or_add(key, weld_hash(key));
    if (id == WeldTable<double>::kFull) cur_.fail_at("more than 2^32 - 2 distinct points are not supported", at);
    return static_cast<std::int64_t>(id);
  }

  Mesh assemble() {
    Mesh m;
    const std::size_t np = points_.size(), dim = dim_ == 0 ? 3 : static_cast<std::size_t>(dim_);
    GrowableBuffer& xyz = points_.points();
    if (dim == 2) {  // x y z -> x y, in place (each point moves to a lower address)
      double* p = xyz.as<double>();
      for (std::size_t i = 0; i < np; ++i) {
        p[2 * i] = p[3 * i];
        p[2 * i + 1] = p[3 * i + 1];
      }
      xyz.truncate(np * 2 * sizeof(double));
    }
    m.points = xyz.take(DType::float64, {np, dim});
    const NDArray corners = corners_.take(DType::int64, {corners_.size() / sizeof(std::int64_t)});
    std::size_t off = 0;
    for (const auto& [k, count] : runs_) {
      m.cells.push_back(CellBlock::rectangular(k == 3 ? "triangle" : k == 4 ? "quad" : "polygon", array_part(corners, off, {count, k})));
      off += count * k;
    }
    return m;
  }

  io::FileBytes file_;
  io::Cursor cur_;
  bool measured_ = false;
  std::size_t geometries_ = 0;
  int dim_ = 0;
  WeldTable<double> points_;  // 3 coordinates per point (z = 0 for 2-D)
  GrowableBuffer corners_;    // cells' point indices (int64), flat
  std::vector<std::pair<std::size_t, std::size_t>> runs_;  // (corners per cell, cells) in file order
};

}  // namespace

Mesh read_wkt(const std::string& path, const Options& options) {
  OptionReader opts(options, "wkt");
  opts.finish();
  return Reader(path).read();
}

}  // namespace meshioplusplus::wkt
