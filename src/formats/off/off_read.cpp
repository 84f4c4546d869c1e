// meshio++ OFF reader (ASCII).
// Spec: http://www.geomview.org/docs/html/OFF.html
//
// Header keyword [ST][C][N]OFF (the counts may follow on the same line), then
// "NVertices NFaces NEdges" (NEdges is read and ignored), the vertices (x y z, then the
// normal for N, an RGBA colour for C, a texture coordinate for ST), then one face per line:
// "Nv i0 ... i(Nv-1)" optionally followed by a colour of 1 (colour-map index), 3 (RGB) or 4
// (RGBA) numbers. '#' starts a comment that runs to the end of its line, anywhere.
//
// Faces become blocks by runs of equal size in file order, as meshio's PLY reader does:
// 3 -> "triangle", 4 -> "quad", 5 or more -> "polygon" (rectangular, one block per run),
// 1 -> "vertex", 2 -> "line". Per-vertex extras become point_data (vertex_normals,
// vertex_colors, vertex_texture_coordinates), face colours cell_data "face_colors" with as
// many columns as the widest colour in the file (narrower ones padded with NaN). Not read:
// 4OFF / nOFF (4-D and n-D vertices) and binary OFF: a ReadError says so.
//
// Safe for untrusted input: counts are checked against the bytes left before anything is
// allocated, every index against the vertex count, every read is bounded.
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "core/io/cursor.hpp"
#include "core/io/file.hpp"
#include "formats/off/off_internal.hpp"

namespace meshioplusplus::off {

namespace {

class Reader {
 public:
  explicit Reader(const std::string& path) : file_(path, "off"), cur_(file_.text(), "off", path) {}

  Mesh read() {
    header();
    const std::size_t nv = count("the vertex count");
    const std::size_t nf = count("the face count");
    count("the edge count");
    const std::size_t per_vertex = 3 + (normals_ ? 3 : 0) + (colors_ ? 4 : 0) + (texture_ ? 2 : 0);
    cur_.need(nv, 2 * per_vertex, "vertices");  // "0 " per value at the least
    Mesh m;
    m.points = NDArray::uninit(DType::float64, {nv, 3});
    NDArray normals, colors, texture;
    if (normals_) normals = NDArray::uninit(DType::float64, {nv, 3});
    if (colors_) colors = NDArray::uninit(DType::float64, {nv, 4});
    if (texture_) texture = NDArray::uninit(DType::float64, {nv, 2});
    double* p = m.points.data<double>();
    for (std::size_t i = 0; i < nv; ++i) {
      values(p + 3 * i, 3, "a vertex coordinate");
      if (normals_) values(normals.data<double>() + 3 * i, 3, "a vertex normal component");
      if (colors_) values(colors.data<double>() + 4 * i, 4, "a vertex colour component (COFF: RGBA)");
      if (texture_) values(texture.data<double>() + 2 * i, 2, "a texture coordinate");
    }
    if (normals_) m.point_data[kVertexNormals] = std::move(normals);
    if (colors_) m.point_data[kVertexColors] = std::move(colors);
    if (texture_) m.point_data[kVertexTexture] = std::move(texture);
    faces(m, nv, nf);
    cur_.skip_space_and_comments('#');
    if (!cur_.at_end()) cur_.fail_expected("the end of the file after " + std::to_string(nf) + " faces");
    return m;
  }

 private:
  void header() {
    cur_.skip_space_and_comments('#');
    const char* at = cur_.ptr();
    std::string_view t = cur_.token();
    auto strip = [&](std::string_view prefix) {
      if (t.substr(0, prefix.size()) != prefix) return false;
      t.remove_prefix(prefix.size());
      return true;
    };
    texture_ = strip("ST");
    colors_ = strip("C");
    normals_ = strip("N");
    if (t == "4OFF" || t == "nOFF" || t == "4nOFF")
      cur_.fail_at("4-D and n-D vertices (" + std::string(t) + ") are not supported", at);
    if (t != "OFF") cur_.fail_expected("an OFF header keyword ([ST][C][N]OFF)", at);
    const char* q = cur_.ptr();
    while (q != cur_.end() && (*q == ' ' || *q == '\t')) ++q;
    if (cur_.end() - q >= 6 && std::string_view(q, 6) == "BINARY") cur_.fail_at("binary OFF is not supported", q);
  }

  std::size_t count(std::string_view what) {
    cur_.skip_space_and_comments('#');
    return static_cast<std::size_t>(cur_.index(what));
  }

  void values(double* out, int n, std::string_view what) {
    for (int k = 0; k < n; ++k) {
      cur_.skip_space_and_comments('#');
      out[k] = cur_.number<double>(what);
    }
  }

  // The common case, parsed straight into the final array: every face has the size of the
  // first and no colour. False (the cursor back where it was) at the first face that is
  // not so, and the general path below reads the faces again.
  bool uniform_faces(Mesh& m, std::size_t nv, std::size_t nf) {
    const std::size_t start = cur_.offset();
    cur_.skip_space_and_comments('#');
    std::uint64_t k0 = 0;
    const char* p = cur_.ptr();
    if (nf == 0 || !io::parse_uint(p, cur_.end(), k0) || k0 < 3 || k0 > 64) return cur_.seek(start), false;
    if (nf > cur_.left() / (2 * k0 + 1)) return cur_.seek(start), false;  // smaller faces later, or a lie
    NDArray conn = NDArray::uninit(DType::int64, {nf, static_cast<std::size_t>(k0)});
    std::int64_t* out = conn.data<std::int64_t>();
    for (std::size_t f = 0; f < nf; ++f) {
      cur_.skip_space_and_comments('#');
      const std::uint64_t k = cur_.index("a face's vertex count");
      if (k != k0) return cur_.seek(start), false;
      for (std::uint64_t j = 0; j < k; ++j) *out++ = vertex(f, nv);
      cur_.skip_blank();
      if (!cur_.at_end() && *cur_.ptr() != '\n' && *cur_.ptr() != '#') return cur_.seek(start), false;  // a colour
    }
    const char* type = k0 == 3 ? "triangle" : k0 == 4 ? "quad" : "polygon";
    m.cells.push_back(CellBlock::rectangular(type, std::move(conn)));
    return true;
  }

  // One vertex index of face `f`, checked against the `nv` vertices.
  std::int64_t vertex(std::size_t f, std::size_t nv) {
    const char* at = cur_.ptr();
    const std::uint64_t v = cur_.index("a vertex index");
    if (v >= nv)
      cur_.fail_at("face " + std::to_string(f) + ": vertex index " + std::to_string(v) + " is outside [0, " + std::to_string(nv) + ")", at);
    return static_cast<std::int64_t>(v);
  }

  void faces(Mesh& m, std::size_t nv, std::size_t nf) {
    cur_.need(nf, 4, "faces");  // "1 0\n" at the least
    if (uniform_faces(m, nv, nf)) return;
    std::vector<std::uint32_t> sizes(nf);
    std::vector<std::int64_t> idx;
    idx.reserve(std::min<std::size_t>(3 * nf, cur_.left() / 2));
    std::vector<double> colour;   // 4 per face, NaN where absent
    std::vector<std::uint8_t> ncolour;
    std::size_t widest = 0;
    for (std::size_t f = 0; f < nf; ++f) {
      cur_.skip_space_and_comments('#');
      const char* at = cur_.ptr();
      const std::uint64_t k = cur_.index("a face's vertex count");
      if (k == 0) cur_.fail_at("face " + std::to_string(f) + " has no vertices", at);
      cur_.need(k, 2, "face vertices");
      sizes[f] = static_cast<std::uint32_t>(k);
      for (std::uint64_t j = 0; j < k; ++j) idx.push_back(vertex(f, nv));
      // Colour columns: whatever follows on the same line, up to a comment.
      cur_.skip_blank();
      if (cur_.at_end() || *cur_.ptr() == '\n' || *cur_.ptr() == '#') {
        if (!ncolour.empty()) push_colour(colour, ncolour, nullptr, 0);
        continue;
      }
      double c[4];
      std::size_t n = 0;
      const char* cat = cur_.ptr();
      while (!cur_.at_end() && *cur_.ptr() != '\n' && *cur_.ptr() != '#') {
        if (n == 4) cur_.fail_at("face " + std::to_string(f) + ": a colour has 1, 3 or 4 components, found more", cat);
        c[n++] = cur_.number<double>("a face colour component");
        cur_.skip_blank();
      }
      if (n == 2) cur_.fail_at("face " + std::to_string(f) + ": a colour has 1, 3 or 4 components, found 2", cat);
      if (ncolour.empty()) {  // the first coloured face: the faces before it had none
        ncolour.assign(f, 0);
        colour.assign(4 * f, std::numeric_limits<double>::quiet_NaN());
      }
      push_colour(colour, ncolour, c, n);
      widest = std::max(widest, n);
    }
    // Blocks: runs of equal face size, in file order.
    std::size_t f = 0, off = 0;
    std::vector<NDArray> colour_blocks;
    while (f < nf) {
      const std::size_t k = sizes[f];
      std::size_t g = f;
      while (g < nf && sizes[g] == k) ++g;
      NDArray conn = NDArray::uninit(DType::int64, {g - f, k});
      std::memcpy(conn.raw(), idx.data() + off, (g - f) * k * sizeof(std::int64_t));
      const char* type = k == 1 ? "vertex" : k == 2 ? "line" : k == 3 ? "triangle" : k == 4 ? "quad" : "polygon";
      m.cells.push_back(CellBlock::rectangular(type, std::move(conn)));
      if (widest) {
        NDArray c = NDArray::uninit(DType::float64, {g - f, widest});
        for (std::size_t i = f; i < g; ++i)
          for (std::size_t j = 0; j < widest; ++j) c.data<double>()[(i - f) * widest + j] = colour[4 * i + j];
        colour_blocks.push_back(std::move(c));
      }
      off += (g - f) * k;
      f = g;
    }
    if (widest) m.cell_data[kFaceColors] = std::move(colour_blocks);
  }

  static void push_colour(std::vector<double>& colour, std::vector<std::uint8_t>& n, const double* c, std::size_t k) {
    for (std::size_t j = 0; j < 4; ++j) colour.push_back(j < k ? c[j] : std::numeric_limits<double>::quiet_NaN());
    n.push_back(static_cast<std::uint8_t>(k));
  }

  io::FileBytes file_;
  io::Cursor cur_;
  bool normals_ = false, colors_ = false, texture_ = false;
};

}  // namespace

Mesh read_off(const std::string& path, const Options& options) {
  OptionReader opts(options, "off");
  opts.finish();
  return Reader(path).read();
}

}  // namespace meshioplusplus::off
