// meshio++ PERMAS writer.
// Spec: the PERMAS user reference, $STRUCTURE records (see permas.hpp).
//
// meshio's layout: two '!' header lines, $ENTER COMPONENT NAME=DFLT_COMP, $STRUCTURE, $COOR
// ("id x y z", the shortest text that reads back exactly; 2-D points get z = 0), one
// "$ELEMENT TYPE=<class>" per cell block (meshio's class names; ids 1..N over all blocks;
// triangle6, tetra10, quad9 and wedge15 rows in PERMAS' order), then each point region as
// "$NSET NAME = <name>" and each cell region as "$ESET NAME = <name>" (ids, 10 a line;
// meshio writes no sets), $END STRUCTURE, $EXIT COMPONENT, $FIN. Node and element lines are
// formatted on `threads` threads (core/io/parallel_text.hpp; the bytes never depend on it).
// A name ending in ".gz" is written as one gzip member: the deck goes to a scratch file
// beside the target, is compressed from there, and the target is replaced atomically.
#include <algorithm>
#include <cstring>

#include "core/codec/zlib.hpp"
#include "core/io/cursor.hpp"
#include "core/io/file.hpp"
#include "core/io/parallel_text.hpp"
#include "core/io/text_writer.hpp"
#include "formats/permas/permas_internal.hpp"
#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/version.hpp"

namespace meshioplusplus::permas {

namespace {

bool bad_name(const std::string& s) {
  if (s.empty()) return true;
  for (char c : s)
    if (io::is_space(c) || c == '=' || c == '!' || c == '$' || c == '&') return true;
  return false;
}

void check(const std::string& path, const Mesh& mesh) {
  for (const CellBlock& b : mesh.cells)
    if (b.ragged || class_for(b.type).empty())
      throw write_error("permas", path,
                        "cell type '" + b.type +
                            "' has no PERMAS element class here (supported: vertex, line, line3, triangle, triangle6, quad, quad8, "
                            "quad9, tetra, tetra10, pyramid, wedge, wedge15, hexahedron, hexahedron20, hexahedron27)");
  for (const Region& r : mesh.regions)
    if (r.kind != RegionKind::side && bad_name(r.name))
      throw write_error("permas", path, "set name '" + r.name + "' cannot stand in a record (empty, or holds a blank, '=', '!', '$' or '&')");
}

void deck(io::TextWriter& w, const Mesh& mesh, unsigned threads) {
  w.str("!PERMAS DataFile Version 18.0\n!written by meshio++ v").str(version()).str("\n");
  w.str("$ENTER COMPONENT NAME=DFLT_COMP\n$STRUCTURE\n$COOR\n");
  const NDArray pts = mesh.points.as_dtype(DType::float64);
  const std::size_t n = pts.dim(0), dim = pts.ndim() > 1 ? pts.dim(1) : 0;
  const double* x = pts.data<double>();
  const io::FloatFormat shortest;
  io::write_rows(w, n, threads, [&](io::TextWriter& t, std::size_t r0, std::size_t r1) {
    for (std::size_t i = r0; i < r1; ++i) {
      t.integer(i + 1);
      for (std::size_t k = 0; k < 3; ++k) t.ch(' ').real(k < dim ? x[i * dim + k] : 0.0, shortest);
      t.ch('\n');
    }
  });
  std::int64_t id = 0;
  for (const CellBlock& b : mesh.cells) {
    const NDArray conn = b.connectivity.as_dtype(DType::int64);
    const std::size_t m = conn.dim(0), k = conn.dim(1);
    const int* order = permas_order(b.type);
    const std::int64_t* c = conn.data<std::int64_t>();
    w.str("!\n$ELEMENT TYPE=").str(class_for(b.type)).ch('\n');
    io::write_rows(w, m, threads, [&](io::TextWriter& t, std::size_t r0, std::size_t r1) {
      for (std::size_t i = r0; i < r1; ++i) {
        t.integer(id + static_cast<std::int64_t>(i) + 1);
        for (std::size_t j = 0; j < k; ++j) t.ch(' ').integer(c[i * k + (order ? order[j] : j)] + 1);
        t.ch('\n');
      }
    });
    id += static_cast<std::int64_t>(m);
  }
  for (const Region& r : mesh.regions) {
    if (r.kind == RegionKind::side) continue;
    w.str(r.kind == RegionKind::point ? "!\n$NSET NAME = " : "!\n$ESET NAME = ").str(r.name).ch('\n');
    const NDArray e = r.entries.as_dtype(DType::int64);
    const std::int64_t* v = e.data<std::int64_t>();
    const std::size_t members = e.size();
    io::write_rows(w, (members + 9) / 10, threads, [&](io::TextWriter& t, std::size_t l0, std::size_t l1) {
      for (std::size_t i = l0 * 10, end = std::min(members, l1 * 10); i < end; ++i) {
        t.integer(v[i] + 1);
        t.ch(i % 10 == 9 || i + 1 == members ? '\n' : ' ');
      }
    });
  }
  w.str("$END STRUCTURE\n$EXIT COMPONENT\n$FIN\n");
  w.flush();
}

bool ends_with(const std::string& s, const char* tail) {
  const std::size_t n = std::strlen(tail);
  return s.size() >= n && s.compare(s.size() - n, n, tail) == 0;
}

}  // namespace

void write_permas(const std::string& path, const Mesh& mesh, const Options& options) {
  OptionReader opts(options, "permas");
  const unsigned threads = std::max(1u, opts.threads());
  opts.finish();
  check(path, mesh);
  if (!ends_with(path, ".gz")) {
    io::AtomicFile f(path, "permas");
    io::TextWriter w(f);
    deck(w, mesh, threads);
    f.commit();
    return;
  }
  if (!codec::zlib_available()) throw write_error("permas", path, "a .gz name, and meshio++ was built without zlib");
  io::AtomicFile scratch(path, "permas");  // never committed: removed when it goes out of scope
  {
    io::TextWriter w(scratch);
    deck(w, mesh, threads);
  }
  std::vector<unsigned char> packed;
  {
    const io::FileBytes plain(scratch.temp_path(), "permas");
    try {
      packed = codec::gzip_compress(plain.data(), plain.size(), 6);
    } catch (const std::exception& e) {
      throw write_error("permas", path, std::string("gzip: ") + e.what());
    }
  }
  io::AtomicFile f(path, "permas");
  f.write(packed.data(), packed.size());
  f.commit();
}

}  // namespace meshioplusplus::permas
