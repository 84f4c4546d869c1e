// meshio++ ANSYS Fluent writer.
// Spec: https://romeo.univ-reims.fr/documents/fluent/tgrid/ug/appb.pdf
//
// Default (faces=false), meshio's layout, which meshio and meshio++ read back: a header,
// the dimension, the node and cell totals, the nodes (3010 binary float64, or 10 with
// ".16e" text), then per cell block a cell section listing each cell's nodes (2012 binary
// int32, 3012 when an index needs 64 bits, or 12 with hexadecimal text). Fluent itself
// and VTK do not read cell sections with nodes.
//
// faces=true: the standard layout Fluent, VTK's vtkFLUENTReader and meshio++ read: the
// nodes, one cell zone (2, "fluid") declaring each cell's type, and the faces with their
// cells c0 / c1 (right-hand normal into c0): interior faces in zone 3
// ("default-interior"), boundary faces in a zone per side region (named after it) and the
// rest in zone "wall"; zone names in 45 sections. meshio reads such a file as its faces.
//
// Cell types: triangle, quad, tetra, pyramid, wedge, hexahedron; faces=true adds polygons
// (2-D) and polyhedra (a mesh holding them is written with faces=true unless the caller
// passes `faces`). Anything else is a WriteError naming it (meshio raises too).
#include <algorithm>
#include <charconv>
#include <cstring>
#include <map>
#include <numeric>

#include "core/io/array_writer.hpp"
#include "core/io/text_writer.hpp"
#include "formats/ansys/ansys_internal.hpp"
#include "meshioplusplus/cell_types.hpp"
#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/version.hpp"
#include "meshioplusplus/warnings.hpp"

namespace meshioplusplus::ansys {

namespace {

void hex(io::TextWriter& w, std::uint64_t v) {
  char tmp[20];
  auto r = std::to_chars(tmp, tmp + sizeof tmp, v, 16);
  w.str(std::string_view(tmp, static_cast<std::size_t>(r.ptr - tmp)));
}

// meshio's reader needs a line break before a binary body; Fluent ends one with
// ")\nEnd of Binary Section   <index>)" (VTK's reader looks for that text).
void section_end(io::TextWriter& w, bool binary, std::string_view key, bool fluent = false) {
  if (binary) w.str(fluent ? ")\nEnd of Binary Section   " : "\n)End of Binary Section ").str(key).str(")\n");
  else w.str("))\n");
}

void write_points(io::TextWriter& w, const NDArray& pts, bool binary, bool fluent) {
  const std::size_t n = pts.dim(0), dim = pts.dim(1);
  w.str(binary ? "(3010" : "(10").str(" (1 1 ");
  hex(w, n);
  w.str(" 1 ");
  hex(w, dim);
  w.str(binary && fluent ? ")(" : ")(\n");
  if (binary) io::write_binary(w, pts, true);
  else io::write_ascii(w, pts, io::FloatFormat::parse(".16e"));
  section_end(w, binary, "3010", fluent);
}

// Every cell's facets, matched into faces: each face's nodes, its cells (c0 = the cell its
// normal points into) and its zone.
struct FaceTable {
  std::vector<std::int64_t> offsets{0}, nodes, c0, c1;
  std::vector<std::int32_t> zone;  // -1 interior, -2 boundary without a side region, else region
};

FaceTable make_faces(const Mesh& mesh, const std::string& path) {
  // Facets, outward as seen from their cell: cell, local facet, nodes.
  struct Facet {
    std::int64_t cell, local, at, size;
  };
  std::vector<Facet> facets;
  std::vector<std::int64_t> buf, sorted;
  std::int64_t cell = 0;
  for (const auto& b : mesh.cells) {
    if (b.ragged) {
      const NDArray off = b.offsets.as_dtype(DType::int64), idx = b.indices.as_dtype(DType::int64);
      const std::int64_t* o = off.data<std::int64_t>();
      const std::int64_t* v = idx.data<std::int64_t>();
      if (b.type == "polygon") {
        for (std::size_t i = 0; i < b.size(); ++i, ++cell)
          for (std::int64_t j = o[i]; j < o[i + 1]; ++j) {
            facets.push_back({cell, j - o[i], static_cast<std::int64_t>(buf.size()), 2});
            buf.push_back(v[j]);
            buf.push_back(v[j + 1 < o[i + 1] ? j + 1 : o[i]]);
          }
      } else {
        const NDArray foff = b.face_offsets.as_dtype(DType::int64);
        const std::int64_t* fo = foff.data<std::int64_t>();
        for (std::size_t i = 0; i < b.size(); ++i, ++cell)
          for (std::int64_t f = o[i]; f < o[i + 1]; ++f) {
            facets.push_back({cell, f - o[i], static_cast<std::int64_t>(buf.size()), fo[f + 1] - fo[f]});
            buf.insert(buf.end(), v + fo[f], v + fo[f + 1]);
          }
      }
      continue;
    }
    const auto& local = cell_facets(b.type);
    const NDArray c = b.connectivity.as_dtype(DType::int64);
    const std::size_t k = c.dim(1);
    for (std::size_t i = 0; i < b.size(); ++i, ++cell)
      for (std::size_t f = 0; f < local.size(); ++f) {
        facets.push_back({cell, static_cast<std::int64_t>(f), static_cast<std::int64_t>(buf.size()), static_cast<std::int64_t>(local[f].size())});
        for (int l : local[f]) buf.push_back(c.data<std::int64_t>()[i * k + static_cast<std::size_t>(l)]);
      }
  }
  // Match facets with equal node sets: sort by the sorted node list.
  sorted = buf;
  for (const Facet& f : facets) std::sort(sorted.begin() + f.at, sorted.begin() + f.at + f.size);
  std::vector<std::size_t> order(facets.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  auto key_less = [&](std::size_t a, std::size_t b) {
    const Facet &x = facets[a], &y = facets[b];
    return std::lexicographical_compare(sorted.begin() + x.at, sorted.begin() + x.at + x.size, sorted.begin() + y.at, sorted.begin() + y.at + y.size);
  };
  auto key_eq = [&](std::size_t a, std::size_t b) { return !key_less(a, b) && !key_less(b, a); };
  std::sort(order.begin(), order.end(), key_less);
  // Side regions: (cell, facet) -> region.
  std::map<std::pair<std::int64_t, std::int64_t>, std::int32_t> side;
  for (std::size_t r = 0; r < mesh.regions.size(); ++r) {
    const Region& reg = mesh.regions[r];
    if (reg.kind != RegionKind::side) continue;
    const NDArray e = reg.entries.as_dtype(DType::int64);
    for (std::size_t i = 0; i < e.dim(0); ++i) side.emplace(std::pair{e.data<std::int64_t>()[2 * i], e.data<std::int64_t>()[2 * i + 1]}, static_cast<std::int32_t>(r));
  }
  FaceTable t;
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i + 1;
    while (j < order.size() && key_eq(order[i], order[j])) ++j;
    if (j - i > 2) throw WriteError("ansys: a face is shared by " + std::to_string(j - i) + " cells (expected a conforming mesh): " + path);
    const Facet& a = facets[order[i]];
    if (j - i == 2) {  // interior: a's outward normal points into b = c0
      t.nodes.insert(t.nodes.end(), buf.begin() + a.at, buf.begin() + a.at + a.size);
      t.c0.push_back(facets[order[i + 1]].cell);
      t.c1.push_back(a.cell);
      t.zone.push_back(-1);
    } else {  // boundary: inward for its cell, which is c0
      t.nodes.insert(t.nodes.end(), buf.rbegin() + static_cast<std::ptrdiff_t>(buf.size()) - a.at - a.size, buf.rbegin() + static_cast<std::ptrdiff_t>(buf.size()) - a.at);
      t.c0.push_back(a.cell);
      t.c1.push_back(-1);
      auto it = side.find({a.cell, a.local});
      t.zone.push_back(it == side.end() ? -2 : it->second);
    }
    t.offsets.push_back(static_cast<std::int64_t>(t.nodes.size()));
    i = j;
  }
  return t;
}

void write_faces_layout(io::TextWriter& w, const Mesh& mesh, bool binary, const std::string& path) {
  const std::size_t dim = mesh.points.dim(1);
  const FaceTable t = make_faces(mesh, path);
  const std::size_t ncells = mesh.num_cells(), nfaces = t.c0.size();
  w.str("(2 ").integer(dim).str(")\n(10 (0 1 ");
  hex(w, mesh.points.dim(0));
  w.str(" 0))\n(12 (0 1 ");
  hex(w, ncells);
  w.str(" 0))\n(13 (0 1 ");
  hex(w, nfaces);
  w.str(" 0))\n");
  write_points(w, mesh.points.as_dtype(DType::float64), binary, true);
  // One cell zone: the common type, or a mixed zone listing each cell's type.
  std::vector<std::uint8_t> types;
  for (const auto& b : mesh.cells) {
    const CellCode* c = cell_code(b.type);
    types.insert(types.end(), b.size(), static_cast<std::uint8_t>(c ? c->code : 7));
  }
  const bool uniform = std::all_of(types.begin(), types.end(), [&](std::uint8_t v) { return v == types.front(); });
  if (ncells) {
    w.str("(12 (2 1 ");
    hex(w, ncells);
    w.str(" 1 ").integer(uniform ? types.front() : 0);
    if (uniform) {
      w.str("))\n");
    } else {
      w.str(")(\n");
      for (std::size_t i = 0; i < types.size(); ++i) w.integer(types[i]).ch(i % 16 == 15 ? '\n' : ' ');
      w.str("))\n");
    }
  }
  // Face zones: interior, then one per side region in region order, then the rest.
  std::vector<std::int32_t> zones = {-1};
  for (std::size_t r = 0; r < mesh.regions.size(); ++r)
    if (mesh.regions[r].kind == RegionKind::side) zones.push_back(static_cast<std::int32_t>(r));
  zones.push_back(-2);
  std::uint64_t first = 1, id = 3;
  std::vector<std::pair<std::uint64_t, std::string>> names;
  for (std::int32_t z : zones) {
    std::vector<std::size_t> in;
    for (std::size_t i = 0; i < nfaces; ++i)
      if (t.zone[i] == z) in.push_back(i);
    if (in.empty()) continue;
    std::int64_t k = t.offsets[in[0] + 1] - t.offsets[in[0]];
    for (std::size_t i : in)
      if (t.offsets[i + 1] - t.offsets[i] != k) k = 0;
    if (k > 4) k = 5;  // polygonal: rows lead with their node count, as mixed ones
    const std::string key = binary ? "2013" : "13";
    w.str("(").str(key).str(" (");
    hex(w, id);
    w.ch(' ');
    hex(w, first);
    w.ch(' ');
    hex(w, first + in.size() - 1);
    w.str(z == -1 ? " 2 " : " 3 ").integer(k).str(binary ? ")(" : ")(\n");
    for (std::size_t i : in) {
      const std::int64_t b = t.offsets[i], e = t.offsets[i + 1];
      std::vector<std::int64_t> row;
      if (k == 0 || k == 5) row.push_back(e - b);
      for (std::int64_t j = b; j < e; ++j) row.push_back(t.nodes[static_cast<std::size_t>(j)] + 1);
      row.push_back(t.c0[i] + 1);
      row.push_back(t.c1[i] + 1);
      if (binary) {
        for (std::int64_t v : row) {
          if (v > INT32_MAX) throw WriteError("ansys: an index does not fit the 32-bit binary faces: " + path);
          const auto x = static_cast<std::int32_t>(v);
          w.bytes(&x, 4);
        }
      } else {
        for (std::size_t j = 0; j < row.size(); ++j) {
          if (j) w.ch(' ');
          hex(w, static_cast<std::uint64_t>(row[j]));
        }
        w.ch('\n');
      }
    }
    section_end(w, binary, key, true);
    names.emplace_back(id, z == -1 ? "interior default-interior" : z == -2 ? "wall wall" : "wall " + mesh.regions[static_cast<std::size_t>(z)].name);
    first += in.size();
    ++id;
  }
  if (ncells) w.str("(45 (2 fluid fluid)())\n");
  for (const auto& [zid, words] : names) {
    for (char c : words)
      if (c == '(' || c == ')' || c == '"' || c == '\n') throw WriteError("ansys: a zone name cannot hold parentheses, quotes or line breaks: '" + words + "': " + path);
    w.str("(45 (").integer(zid).ch(' ').str(words).str(")())\n");
  }
}

}  // namespace

void write_ansys(const std::string& path, const Mesh& mesh, const Options& options) {
  OptionReader opts(options, "ansys");
  const bool binary = opts.get_bool("binary", true);
  bool faces = opts.get_bool("faces", false);
  opts.finish();
  const std::size_t dim = mesh.points.dim(1);
  // Polyhedra and polygons have no place in meshio's layout: unless the caller chose a
  // layout, such a mesh is written in Fluent's, with a note.
  if (!options.count("faces"))
    for (const auto& b : mesh.cells)
      if (!faces && (b.type == "polyhedron" || (b.type == "polygon" && dim == 2))) {
        faces = true;
        warn("ansys: the mesh has " + b.type + " cells, which meshio's layout cannot hold: written in Fluent's face layout (faces=true)");
      }
  if (dim != 2 && dim != 3) throw WriteError("ansys: can only write dimension 2 or 3, found " + std::to_string(dim));
  // meshio's layout meets each block as it comes (meshio raises there too); the faces
  // layout needs every block before it writes anything.
  auto check = [&](const CellBlock& b) {
    const bool ok = cell_code(b.type) || (faces && (b.type == "polyhedron" || (b.type == "polygon" && dim == 2)));
    if (!ok)
      throw WriteError("ansys: cannot write cell type '" + b.type + "' (writable: triangle, tetra, quad, hexahedron, pyramid, wedge" +
                       (faces ? ", polyhedron, polygon in 2-D)" : "; faces=true adds polyhedron and 2-D polygon)"));
  };
  if (faces)
    for (const auto& b : mesh.cells) check(b);
  io::AtomicFile file(path, "ansys");
  io::TextWriter w(file);
  w.str("(1 \"meshio++ ").str(version()).str("\")\n");
  if (faces) {
    write_faces_layout(w, mesh, binary, path);
  } else {
    const std::size_t n = mesh.points.dim(0);
    w.str("(2 ").integer(dim).str(")\n(10 (0 1 ");
    hex(w, n);
    w.str(" 0))\n(12 (0 1 ");
    hex(w, mesh.num_cells());
    w.str(" 0))\n");
    write_points(w, mesh.points.as_dtype(DType::float64), binary, false);
    std::uint64_t first = 1;
    for (const auto& b : mesh.cells) {
      check(b);
      if (b.size() == 0) continue;
      const NDArray c = b.connectivity.as_dtype(DType::int64);  // no copy when int64 already
      const std::int64_t* v = c.data<std::int64_t>();
      const std::size_t m = c.size(), k = c.dim(1);
      std::int64_t top = 0;
      for (std::size_t i = 0; i < m; ++i) top = std::max(top, v[i] + 1);  // 1-based
      const bool wide = top > INT32_MAX;
      const std::string key = binary ? (wide ? "3012" : "2012") : "12";
      w.str("(").str(key).str(" (1 ");
      hex(w, first);
      w.ch(' ');
      hex(w, first + b.size() - 1);
      w.str(" 1 ").integer(cell_code(b.type)->code).str(")(\n");
      if (binary) {  // the 1-based values through a bounded scratch buffer
        constexpr std::size_t kChunk = 1 << 16;
        std::vector<std::int64_t> buf64(wide ? std::min(m, kChunk) : 0);
        std::vector<std::int32_t> buf32(wide ? 0 : std::min(m, kChunk));
        for (std::size_t at = 0; at < m; at += kChunk) {
          const std::size_t n = std::min(kChunk, m - at);
          if (wide) {
            for (std::size_t i = 0; i < n; ++i) buf64[i] = v[at + i] + 1;
            io::write_binary(w, NDArray::view(buf64.data(), DType::int64, {n}), true);
          } else {
            for (std::size_t i = 0; i < n; ++i) buf32[i] = static_cast<std::int32_t>(v[at + i] + 1);
            io::write_binary(w, NDArray::view(buf32.data(), DType::int32, {n}), true);
          }
        }
      } else {
        for (std::size_t i = 0; i < b.size(); ++i) {
          for (std::size_t j = 0; j < k; ++j) {
            if (j) w.ch(' ');
            hex(w, static_cast<std::uint64_t>(v[i * k + j] + 1));
          }
          w.ch('\n');
        }
      }
      section_end(w, binary, key);
      first += b.size();
    }
  }
  w.flush();
  file.commit();
}

}  // namespace meshioplusplus::ansys
