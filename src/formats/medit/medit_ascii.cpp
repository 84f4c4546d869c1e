// meshio++ Medit ASCII (.mesh): reader and writer.
// Spec: https://github.com/LoicMarechal/libMeshb (keywords and their fields; the ASCII
// form is the keyword, then for a list keyword its count, then the fields, all separated by
// white space) and https://www.ljll.fr/frey/publications/RT-0253.pdf (Medit).
//
// Read: MeshVersionFormatted (1 gives float32 points, as meshio), Dimension (2 or 3, its
// value on the same or the next line), Vertices, the element keywords of kElements (and the
// "Hexaedra" spelling), End. '#' starts a comment line. Any other keyword is skipped with
// its values: everything up to the next word that starts with a letter (Medit values are
// numbers, or quoted strings, which never do). Safe for untrusted input: counts are checked
// against the bytes left before anything is allocated, and indices against the vertices.
//
// Write: meshio's layout and keyword (float_fmt, default ".16e"); the references are the
// first integer point / cell data (medit:ref preferred), else 1; cell types Medit has no
// keyword for are left out, as meshio does.
#include <algorithm>
#include <atomic>
#include <cctype>

#include "core/io/cursor.hpp"
#include "core/io/parallel_rows.hpp"
#include "core/io/text_writer.hpp"
#include "formats/medit/medit_internal.hpp"

namespace meshioplusplus::medit {

namespace {

bool is_letter(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }

// A signed integer (a reference) at p; returns the end or fails.
inline const char* signed_int(const io::Cursor& cur, const char* p, const char* end, std::int64_t& out, const char* what) {
  while (p != end && io::is_space(*p)) ++p;
  const char* q = io::parse_number(p, end, out);
  if (!q || (q != end && !io::is_space(*q))) cur.fail_expected(what, p);
  return q;
}

// Rows [r0, r1) of Vertices from p; returns the end of the last one.
template <class F>
const char* vertex_rows(const io::Cursor& cur, const char* p, std::size_t r0, std::size_t r1, int dim, F* xyz, std::int64_t* refs) {
  const char* end = cur.end();
  for (std::size_t i = r0; i < r1; ++i) {
    for (int c = 0; c < dim; ++c) {
      while (p != end && io::is_space(*p)) ++p;
      double v;
      const char* q = io::parse_number(p, end, v);
      if (!q || (q != end && !io::is_space(*q))) cur.fail_expected("a vertex coordinate", p);
      xyz[i * static_cast<std::size_t>(dim) + static_cast<std::size_t>(c)] = static_cast<F>(v);
      p = q;
    }
    p = signed_int(cur, p, end, refs[i], "a vertex reference");
  }
  return p;
}

// Rows [r0, r1) of an element section from p; returns the end of the last one and raises
// `top` to the largest 0-based index seen, as unsigned (a 0 in the file wraps to the
// maximum, so one comparison afterwards checks the range).
const char* element_rows(const io::Cursor& cur, const char* p, std::size_t r0, std::size_t r1, std::size_t k,
                         std::int64_t* conn, std::int64_t* refs, std::uint64_t& top) {
  const char* end = cur.end();
  std::uint64_t v = 0, t = top;
  for (std::size_t e = r0; e < r1; ++e) {
    std::int64_t* row = conn + e * k;
    for (std::size_t j = 0; j < k; ++j) {
      if (!io::parse_uint(p, end, v)) cur.fail_expected("a vertex index", p);
      row[j] = static_cast<std::int64_t>(v - 1);  // unsigned wrap, then a defined conversion
      t = std::max(t, v - 1);
    }
    if (io::parse_uint(p, end, v)) refs[e] = static_cast<std::int64_t>(v);
    else p = signed_int(cur, p, end, refs[e], "an element reference");
  }
  top = t;
  return p;
}

}  // namespace

Mesh read_ascii(const std::string& path, std::string_view bytes, unsigned threads) {
  io::Cursor cur(bytes, "medit", path);
  Parsed out;
  bool single = false;  // MeshVersionFormatted 0 or 1: single-precision reals
  for (;;) {
    cur.skip_space();
    if (cur.at_end()) break;
    if (*cur.ptr() == '#') {
      cur.line();
      continue;
    }
    const char* at = cur.ptr();
    const std::string_view kw = cur.token();
    if (!is_letter(kw.front())) cur.fail_expected("a keyword", at);
    if (kw == "MeshVersionFormatted") {
      const char* vat = cur.ptr();
      const std::uint64_t v = cur.index("a format version (1 to 4)");
      if (v > 4) cur.fail_at("MeshVersionFormatted: expected 1 to 4, found " + std::to_string(v), vat);
      single = v <= 1;
    } else if (kw == "Dimension") {
      const char* dat = cur.ptr();
      const std::uint64_t d = cur.index("a dimension (2 or 3)");
      if (d != 2 && d != 3) cur.fail_at("Dimension: expected 2 or 3, found " + std::to_string(d), dat);
      out.dim = static_cast<int>(d);
    } else if (kw == "Vertices") {
      if (out.dim == 0) cur.fail_at("Vertices before Dimension: expected Dimension first", at);
      if (out.have_vertices) cur.fail_at("a second Vertices section: expected one", at);
      const std::size_t n = cur.index("a vertex count");
      const auto d = static_cast<std::size_t>(out.dim);
      cur.need(n, 2 * d + 1, "vertices");  // each at least "x y z r" and separators
      out.points = NDArray::uninit(single ? DType::float32 : DType::float64, {n, d});
      out.point_refs = NDArray::uninit(DType::int64, {n});
      std::int64_t* refs = out.point_refs.data<std::int64_t>();
      if (single) {
        float* xyz = out.points.data<float>();
        io::parse_rows(cur, n, threads, [&](const char* p, std::size_t r0, std::size_t r1) { return vertex_rows(cur, p, r0, r1, out.dim, xyz, refs); });
      } else {
        double* xyz = out.points.data<double>();
        io::parse_rows(cur, n, threads, [&](const char* p, std::size_t r0, std::size_t r1) { return vertex_rows(cur, p, r0, r1, out.dim, xyz, refs); });
      }
      out.have_vertices = true;
    } else if (const ElementKind* e = element_by_keyword(kw)) {
      const std::size_t m = cur.index("an element count");
      const auto k = static_cast<std::size_t>(e->nodes);
      cur.need(m, 2 * k + 1, e->keyword);
      Parsed::Block b{e, NDArray::uninit(DType::int64, {m, k}), NDArray::uninit(DType::int64, {m}),
                      static_cast<std::size_t>(at - cur.begin())};
      std::int64_t* conn = b.connectivity.data<std::int64_t>();
      std::int64_t* refs = b.refs.data<std::int64_t>();
      // The largest index of any piece (a failed parallel attempt can only raise it, which
      // sends the check to finish()).
      std::atomic<std::uint64_t> top{0};
      io::parse_rows(cur, m, threads, [&](const char* p, std::size_t r0, std::size_t r1) {
        std::uint64_t t = 0;
        const char* stop = element_rows(cur, p, r0, r1, k, conn, refs, t);
        std::uint64_t seen = top.load();
        while (t > seen && !top.compare_exchange_weak(seen, t)) {}
        return stop;
      });
      b.checked = out.have_vertices && (m == 0 || top < out.points.dim(0));
      out.blocks.push_back(std::move(b));
    } else if (kw == "End") {
      break;
    } else {
      // A keyword this reader does not use: skip its values up to the next keyword.
      for (;;) {
        cur.skip_space();
        if (cur.at_end() || is_letter(*cur.ptr())) break;
        if (*cur.ptr() == '#' || *cur.ptr() == '"') {
          // A comment, or a quoted string (which may hold spaces): to the end of its line.
          cur.line();
          continue;
        }
        cur.token();
      }
    }
  }
  return finish(std::move(out), path, bytes, threads);
}

void write_ascii(const std::string& path, const Mesh& mesh, const std::string& float_fmt) {
  io::FloatFormat ff;
  try {
    ff = io::FloatFormat::parse(float_fmt);
  } catch (const std::invalid_argument&) {
    throw std::invalid_argument("medit: option 'float_fmt': expected a format such as \".16e\", found '" + float_fmt + "'");
  }
  const std::size_t n = mesh.num_points();
  const std::size_t d = mesh.points.dim(1);
  if (d != 2 && d != 3) throw WriteError("medit: points must have 2 or 3 coordinates, found " + std::to_string(d));
  const NDArray* prefs = point_refs(mesh);
  const std::vector<NDArray>* crefs = cell_refs(mesh);
  const bool single = mesh.points.dtype() == DType::float32;
  const NDArray pts = single ? mesh.points : mesh.points.as_dtype(DType::float64);

  io::AtomicFile file(path, "medit");
  io::TextWriter w(file);
  w.str("MeshVersionFormatted ").integer(single ? 1 : 2).str("\nDimension ").integer(d).str("\n\nVertices\n").integer(n).ch('\n');
  const NDArray pr = prefs ? prefs->as_dtype(DType::int64) : NDArray();
  const std::int64_t* pref = prefs ? pr.data<std::int64_t>() : nullptr;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t c = 0; c < d; ++c) {
      if (single) w.real(pts.data<float>()[i * d + c], ff);
      else w.real(pts.data<double>()[i * d + c], ff);
      w.ch(' ');
    }
    w.integer(pref ? pref[i] : std::int64_t{1}).ch('\n');
  }
  for (std::size_t b = 0; b < mesh.cells.size(); ++b) {
    const CellBlock& block = mesh.cells[b];
    const ElementKind* e = element_by_type(block.type);
    if (!e || block.ragged) continue;  // no Medit keyword: left out, as meshio does
    const std::size_t m = block.size();
    const auto k = static_cast<std::size_t>(e->nodes);
    NDArray refs;
    if (crefs) {
      if (b >= crefs->size() || (*crefs)[b].ndim() != 1 || (*crefs)[b].dim(0) != m)
        throw WriteError("medit: cell data used as element references must have one value per cell (block " +
                         std::to_string(b) + ", " + block.type + ")");
      refs = (*crefs)[b].as_dtype(DType::int64);
    }
    const NDArray conn = block.connectivity.as_dtype(DType::int64);
    const std::int64_t* c = conn.data<std::int64_t>();
    const std::int64_t* r = crefs ? refs.data<std::int64_t>() : nullptr;
    w.ch('\n').str(e->keyword).ch('\n').integer(m).ch('\n');
    for (std::size_t i = 0; i < m; ++i) {
      for (std::size_t j = 0; j < k; ++j) w.integer(c[i * k + j] + 1).ch(' ');
      w.integer(r ? r[i] : std::int64_t{1}).ch('\n');
    }
  }
  w.str("\nEnd\n");
  w.flush();
  file.commit();
}

}  // namespace meshioplusplus::medit
