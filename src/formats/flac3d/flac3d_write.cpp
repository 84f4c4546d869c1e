// meshio++ FLAC3D grid writer, ASCII and binary.
// Spec: Itasca Grid Format (see flac3d.hpp); the binary layout is meshio's.
//
// meshio's files: gridpoints (ids 1..n; ASCII "G\t<id, 8 wide>\t x\t y\t z" in float_fmt,
// default ".16e"), the zones (tetra T4, pyramid P5, wedge W6, hexahedron B8; ids 1..N in
// block order), the zone groups, the faces (triangle T3, quad Q4; ids 1..M), the face groups.
// A zone's nodes are put in FLAC3D's order so that its first four are right-handed (meshio's
// two orders, chosen by the sign of the triple product, so a mirrored cell is written
// mirrored back). Each cell region becomes a ZGROUP of its zones and an FGROUP of its faces
// (the part that is not empty); a region named "zone:<name>:<slot>" or "face:<name>:<slot>"
// (what the reader makes) is written as group <name> in slot <slot>, any other as group
// <region name> in slot 1 (ASCII) or "Default" (binary), as meshio writes them. Binary,
// little-endian: uint32 1375135718 and 3, the gridpoint count and (uint32 id, 3 float64) each,
// then zones and faces: count, (uint32 id, uint32 node count, node ids) each, group count,
// (uint16 name length, name, uint16 slot length, slot, uint32 count, ids) each.
// Other cell types (quadratic cells, lines, vertices, polygons) are a WriteError naming the
// type (meshio drops them with a warning, or crashes); point and side regions are not
// written.
// Gridpoint and cell rows are formatted on `threads` threads (core/io/parallel_text.hpp);
// the bytes never depend on the count.
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "core/io/byteorder.hpp"
#include "core/io/file.hpp"
#include "core/io/parallel_text.hpp"
#include "core/io/text_writer.hpp"
#include "formats/flac3d/flac3d_internal.hpp"
#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/version.hpp"

namespace meshioplusplus::flac3d {

namespace {

struct GroupOut {
  bool zone;
  std::string name, slot;
  std::vector<std::uint32_t> ids;
};

class Writer {
 public:
  Writer(io::AtomicFile& f, bool binary, io::FloatFormat ff, unsigned threads) : f_(f), w_(f), binary_(binary), ff_(ff), threads_(threads) {}

  void write(const Mesh& mesh) {
    check(mesh);
    const NDArray pts = mesh.points.as_dtype(DType::float64);
    points(pts);
    number(mesh);
    cells(mesh, pts, true);
    groups(true);
    cells(mesh, pts, false);
    groups(false);
    w_.flush();
  }

 private:
  [[noreturn]] void fail(const std::string& what) { throw write_error("flac3d", f_.path(), what); }

  void check(const Mesh& mesh) {
    for (const CellBlock& b : mesh.cells)
      if (b.ragged || !shape_for(b.type))
        fail("cell type '" + b.type + "' has no FLAC3D form (zones: tetra, pyramid, wedge, hexahedron; faces: triangle, quad)");
    if (mesh.points.size() / (mesh.points.ndim() > 1 ? mesh.points.dim(1) : 1) > 0xffffffffu && binary_)
      fail("more gridpoints than the binary format's 32-bit ids can number");
  }

  static void u32(io::TextWriter& w, std::uint32_t v) {
    unsigned char b[4] = {static_cast<unsigned char>(v), static_cast<unsigned char>(v >> 8), static_cast<unsigned char>(v >> 16),
                          static_cast<unsigned char>(v >> 24)};
    w.bytes(b, 4);
  }
  static void f64(io::TextWriter& w, double v) {
    unsigned char b[8];
    std::memcpy(b, &v, 8);
    if (!io::host_is_little_endian()) std::reverse(b, b + 8);
    w.bytes(b, 8);
  }
  void u32(std::uint32_t v) { u32(w_, v); }

  void points(const NDArray& pts) {
    const std::size_t n = pts.dim(0), dim = pts.ndim() > 1 ? pts.dim(1) : 0;
    const double* x = pts.data<double>();
    if (binary_) {
      u32(kBinaryMagic[0]), u32(kBinaryMagic[1]), u32(static_cast<std::uint32_t>(n));
      io::write_rows(w_, n, threads_, [&](io::TextWriter& t, std::size_t r0, std::size_t r1) {
        for (std::size_t i = r0; i < r1; ++i) {
          u32(t, static_cast<std::uint32_t>(i + 1));
          for (std::size_t k = 0; k < 3; ++k) f64(t, k < dim ? x[i * dim + k] : 0.0);
        }
      });
      return;
    }
    w_.str("* FLAC3D grid produced by meshio++ v").str(version()).str("\n* GRIDPOINTS\n");
    io::write_rows(w_, n, threads_, [&](io::TextWriter& t, std::size_t r0, std::size_t r1) {
      char pad[24];
      for (std::size_t i = r0; i < r1; ++i) {
        const int len = std::snprintf(pad, sizeof pad, "%8zu", i + 1);
        t.str("G\t").str(std::string_view(pad, static_cast<std::size_t>(len)));
        for (std::size_t k = 0; k < 3; ++k) t.ch('\t').real(k < dim ? x[i * dim + k] : 0.0, ff_);
        t.ch('\n');
      }
    });
  }

  // Zone and face ids of every cell (1-based, each kind numbered on its own), and the groups.
  void number(const Mesh& mesh) {
    std::uint64_t zones = 0, faces = 0;
    for (const CellBlock& b : mesh.cells) {
      const bool zone = shape_for(b.type)->zone;
      first_id_.push_back(zone ? zones : faces);
      (zone ? zones : faces) += b.size();
    }
    if (binary_ && (zones > 0xffffffffu || faces > 0xffffffffu)) fail("more cells than the binary format's 32-bit ids can number");
    const std::vector<std::int64_t> bases = block_bases(mesh.cells);
    for (const Region& r : mesh.regions) {
      if (r.kind != RegionKind::cell) continue;
      std::string name = r.name, slot = binary_ ? "Default" : "1";
      for (const char* prefix : {"zone:", "face:"}) {
        const std::size_t colon = r.name.rfind(':');
        if (r.name.rfind(prefix, 0) == 0 && colon > 5) name = r.name.substr(5, colon - 5), slot = r.name.substr(colon + 1);
      }
      if (!binary_ && (name.find_first_of("\"\n\r") != std::string::npos || slot.find_first_of("\n\r") != std::string::npos))
        fail("group name '" + name + "' holds a double quote or a line break, which a ZGROUP line cannot");
      if (name.size() > 0xffff || slot.size() > 0xffff) fail("group name '" + name.substr(0, 40) + "...' is longer than 65535 bytes");
      GroupOut zg{true, name, slot, {}}, fg{false, name, slot, {}};
      const NDArray e = r.entries.as_dtype(DType::int64);
      for (std::size_t i = 0; i < e.size(); ++i) {
        const std::int64_t c = e.data<std::int64_t>()[i];
        const std::size_t b = static_cast<std::size_t>(std::upper_bound(bases.begin(), bases.end(), c) - bases.begin() - 1);
        const bool zone = shape_for(mesh.cells[b].type)->zone;
        (zone ? zg : fg).ids.push_back(static_cast<std::uint32_t>(first_id_[b] + static_cast<std::uint64_t>(c - bases[b]) + 1));
      }
      if (!zg.ids.empty()) groups_.push_back(std::move(zg));
      if (!fg.ids.empty()) groups_.push_back(std::move(fg));
    }
  }

  void cells(const Mesh& mesh, const NDArray& pts, bool zones) {
    std::uint64_t count = 0;
    for (const CellBlock& b : mesh.cells)
      if (shape_for(b.type)->zone == zones) count += b.size();
    if (binary_) u32(static_cast<std::uint32_t>(count));
    else w_.str(zones ? "* ZONES\n" : "* FACES\n");
    const std::size_t dim = pts.ndim() > 1 ? pts.dim(1) : 0;
    const double* x = pts.data<double>();
    auto coord = [&](std::int64_t p, std::size_t k) { return k < dim ? x[static_cast<std::size_t>(p) * dim + k] : 0.0; };
    std::uint32_t id = 0;
    for (const CellBlock& b : mesh.cells) {
      const Shape* s = shape_for(b.type);
      if (s->zone != zones) continue;
      const NDArray conn = b.connectivity.as_dtype(DType::int64);
      const std::size_t m = conn.dim(0), k = conn.dim(1);
      const std::int64_t* c = conn.data<std::int64_t>();
      // Rows on several threads (core/io/parallel_text.hpp): the same bytes on any count.
      io::write_rows(w_, m, threads_, [&](io::TextWriter& t, std::size_t r0, std::size_t r1) {
        for (std::size_t i = r0; i < r1; ++i) {
          const std::int64_t* row = c + i * k;
          const int* order = s->to_flac;
          if (s->to_flac_flipped) {  // right-handed first four nodes, else the mirrored order
            double d[3][3];
            for (int a = 0; a < 3; ++a)
              for (std::size_t q = 0; q < 3; ++q) d[a][q] = coord(row[order[a + 1]], q) - coord(row[order[0]], q);
            const double det = d[0][0] * (d[1][1] * d[2][2] - d[1][2] * d[2][1]) + d[0][1] * (d[1][2] * d[2][0] - d[1][0] * d[2][2]) +
                               d[0][2] * (d[1][0] * d[2][1] - d[1][1] * d[2][0]);
            if (!(det > 0)) order = s->to_flac_flipped;
          }
          const auto cell_id = static_cast<std::uint32_t>(id + i + 1);
          if (binary_) {
            u32(t, cell_id), u32(t, static_cast<std::uint32_t>(k));
            for (std::size_t j = 0; j < k; ++j) u32(t, static_cast<std::uint32_t>(row[order[j]] + 1));
          } else {
            t.ch(zones ? 'Z' : 'F').ch(' ').str(s->name).ch(' ').integer(cell_id);
            for (std::size_t j = 0; j < k; ++j) t.ch(' ').integer(row[order[j]] + 1);
            t.ch('\n');
          }
        }
      });
      id += static_cast<std::uint32_t>(m);
    }
  }

  void groups(bool zones) {
    std::uint32_t count = 0;
    for (const GroupOut& g : groups_) count += g.zone == zones;
    if (binary_) u32(count);
    else w_.str(zones ? "* ZONE GROUPS\n" : "* FACE GROUPS\n");
    for (const GroupOut& g : groups_) {
      if (g.zone != zones) continue;
      if (binary_) {
        const unsigned char nl[2] = {static_cast<unsigned char>(g.name.size()), static_cast<unsigned char>(g.name.size() >> 8)};
        w_.bytes(nl, 2).str(g.name);
        const unsigned char sl[2] = {static_cast<unsigned char>(g.slot.size()), static_cast<unsigned char>(g.slot.size() >> 8)};
        w_.bytes(sl, 2).str(g.slot);
        u32(static_cast<std::uint32_t>(g.ids.size()));
        for (std::uint32_t v : g.ids) u32(v);
        continue;
      }
      w_.str(zones ? "ZGROUP \"" : "FGROUP \"").str(g.name).str("\" SLOT ").str(g.slot).ch('\n');
      for (std::size_t i = 0; i < g.ids.size(); ++i) {
        w_.ch(' ').integer(g.ids[i]);
        if (i % 20 == 19 || i + 1 == g.ids.size()) w_.ch('\n');
      }
    }
  }

  io::AtomicFile& f_;
  io::TextWriter w_;
  bool binary_;
  io::FloatFormat ff_;
  unsigned threads_;
  std::vector<std::uint64_t> first_id_;  // per block: ids before its first cell, among its kind
  std::vector<GroupOut> groups_;
};

}  // namespace

void write_flac3d(const std::string& path, const Mesh& mesh, const Options& options) {
  OptionReader opts(options, "flac3d");
  const io::FloatFormat ff = io::FloatFormat::parse(opts.get_string("float_fmt", ".16e"));
  const bool binary = opts.get_bool("binary", false);
  const unsigned threads = std::max(1u, opts.threads());
  opts.finish();
  io::AtomicFile f(path, "flac3d");
  Writer(f, binary, ff, threads).write(mesh);
  f.commit();
}

}  // namespace meshioplusplus::flac3d
