// meshio++ TetGen writer: <base>.node and <base>.ele, plus <base>.face and <base>.edge when
// the mesh has boundary triangles or edges.
// Spec: https://wias-berlin.de/software/tetgen/fformats.html
//
// As meshio writes it: 0-based indices, the float_fmt keyword (default ".16e") for
// coordinates and real attributes, one point marker (point data tetgen:ref, else the first
// integer point data whose name holds ":ref") and the other one-value-per-point arrays as
// point attributes, cell data as region attributes (tetgen:ref, else a name holding ":ref",
// first). Beyond meshio: every tetra (or tetra10, in TetGen's node order) block goes to one
// .ele (meshio writes a header per block), the .ele is written even without tetrahedra (so
// x.ele reads back), triangles (triangle6 beside tetra10) go to .face and lines (line3) to
// .edge with their tetgen:ref markers. Other cells and point data of several components are
// left out with a warning. All four files are always written (a .face or .edge of no
// records when the mesh has none, which the reader takes as no block), so no file of an
// earlier mesh of the same name is left to be read with this one. They are written side by
// side and committed together: a failure before the commits leaves every existing file
// untouched.
#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

#include "core/io/file.hpp"
#include "core/io/text_writer.hpp"
#include "formats/tetgen/tetgen_internal.hpp"
#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/version.hpp"
#include "meshioplusplus/warnings.hpp"

namespace meshioplusplus::tetgen {

namespace {

bool is_int(const NDArray& a) { return !dtype_is_float(a.dtype()); }

// One value of `a` (integer as integer, real in `ff`).
void value(io::TextWriter& w, const NDArray& a, std::size_t i, const io::FloatFormat& ff) {
  if (is_int(a)) w.integer(a.value_as_int64(i));
  else w.real(a.value_as_double(i), ff);
}

// The blocks of one kind: their indices into mesh.cells.
struct Group {
  std::string type;
  std::vector<std::size_t> blocks;
  std::size_t rows = 0;
};

// The cell-data names usable as per-cell values of every block of `g`, the ":ref" one first
// (tetgen:ref before any other); `int_only` keeps integer arrays only.
std::vector<std::string> cell_columns(const Mesh& mesh, const Group& g, bool int_only) {
  std::vector<std::string> out;
  for (const auto& [name, list] : mesh.cell_data) {
    bool ok = !g.blocks.empty();
    for (std::size_t b : g.blocks)
      ok = ok && b < list.size() && list[b].ndim() == 1 && list[b].dim(0) == mesh.cells[b].size() && (!int_only || is_int(list[b]));
    if (ok) out.push_back(name);
  }
  auto rank = [](const std::string& n) { return n == "tetgen:ref" ? 0 : n.find(":ref") != std::string::npos ? 1 : 2; };
  std::stable_sort(out.begin(), out.end(), [&](const auto& a, const auto& b) { return rank(a) < rank(b); });
  return out;
}

void comment(io::TextWriter& w) { w.str("# written by meshio++ ").str(version()).ch('\n'); }

// "# <what>: name name ..." (as meshio writes them; the reader names the columns as meshio
// does). A name holding a line break would end the comment and corrupt the records after it.
void names_comment(io::TextWriter& w, const std::string& path, std::string_view what, const std::vector<std::string>& names) {
  if (names.empty()) return;
  w.str("# ").str(what).ch(':');
  for (const auto& s : names) {
    if (s.find_first_of("\r\n") != std::string::npos)
      throw write_error("tetgen", path, "the data name '" + s + "' holds a line break, which a TetGen comment line cannot hold");
    w.ch(' ').str(s);
  }
  w.ch('\n');
}

void write_node(io::TextWriter& w, const std::string& path, const Mesh& mesh, const NDArray& pts, const io::FloatFormat& ff) {
  const std::size_t n = mesh.num_points();
  std::vector<const NDArray*> attrs;
  const NDArray* marker = nullptr;
  std::vector<std::string> names;
  auto ref = mesh.point_data.find("tetgen:ref");
  if (ref != mesh.point_data.end() && is_int(ref->second) && ref->second.ndim() == 1) marker = &ref->second;
  for (const auto& [name, a] : mesh.point_data) {
    if (a.ndim() != 1 || a.dim(0) != n) {
      warn("tetgen: point data '" + name + "' has several components per point; TetGen attributes hold one: skipping it");
      continue;
    }
    if (!marker && is_int(a) && name.find(":ref") != std::string::npos) marker = &a;
    else if (&a != marker) {
      attrs.push_back(&a);
      names.push_back(name);
    }
  }
  comment(w);
  names_comment(w, path, "attribute names", names);
  w.integer(n).str(" 3 ").integer(attrs.size()).ch(' ').integer(marker ? 1 : 0).ch('\n');
  const double* x = pts.data<double>();
  for (std::size_t i = 0; i < n; ++i) {
    w.integer(i);
    for (int c = 0; c < 3; ++c) w.ch(' ').real(x[3 * i + c], ff);
    for (const NDArray* a : attrs) value(w.ch(' '), *a, i, ff);
    if (marker) w.ch(' ').integer(marker->value_as_int64(i));
    w.ch('\n');
  }
}

// Rows of a group: index, nodes (file order), then the values of `columns`.
void write_rows(io::TextWriter& w, const Mesh& mesh, const Group& g, const std::vector<std::string>& columns, const io::FloatFormat& ff) {
  std::size_t row = 0;
  for (std::size_t b : g.blocks) {
    const NDArray conn = mesh.cells[b].connectivity.as_dtype(DType::int64);
    const std::size_t k = conn.dim(1), m = conn.dim(0);
    const std::int64_t* c = conn.data<std::int64_t>();
    std::int64_t file_row[10];
    for (std::size_t i = 0; i < m; ++i) {
      // TetGen's 10-node order: file column kTetra10ToVtk[j] holds VTK's node j.
      if (k == 10)
        for (std::size_t j = 0; j < 10; ++j) file_row[kTetra10ToVtk[j]] = c[i * k + j];
      else
        std::copy(c + i * k, c + i * k + k, file_row);
      w.integer(row++);
      for (std::size_t j = 0; j < k; ++j) w.ch(' ').integer(file_row[j]);
      for (const auto& name : columns) value(w.ch(' '), mesh.cell_data.at(name)[b], i, ff);
      w.ch('\n');
    }
  }
}

}  // namespace

void write_tetgen(const std::string& path, const Mesh& mesh, const Options& options) {
  OptionReader opts(options, "tetgen");
  const std::string float_fmt = opts.get_string("float_fmt", ".16e");
  opts.finish();
  io::FloatFormat ff;
  try {
    ff = io::FloatFormat::parse(float_fmt);
  } catch (const std::invalid_argument&) {
    throw std::invalid_argument("tetgen: option 'float_fmt': expected a format such as \".16e\", found '" + float_fmt + "'");
  }
  const std::string base = base_name(path);
  if (base.empty()) throw write_error("tetgen", path, kBadName);
  if (mesh.points.dim(1) != 3) throw write_error("tetgen", path, "TetGen holds 3-D points, found " + std::to_string(mesh.points.dim(1)) + " coordinates");

  // The volume type is the first tetra / tetra10 block's; faces and edges follow its order.
  Group volume, faces, edges;
  for (const auto& b : mesh.cells)
    if (!b.ragged && (b.type == "tetra" || b.type == "tetra10")) {
      volume.type = b.type;
      break;
    }
  // Without tetrahedra, the first face or edge block decides (the .ele header, of no
  // records, still says 4 or 10 nodes, which sets the order of the .face and .edge read).
  bool second = volume.type == "tetra10";
  if (volume.type.empty())
    for (const auto& b : mesh.cells)
      if (!b.ragged && (b.type == "triangle" || b.type == "line" || b.type == "triangle6" || b.type == "line3")) {
        second = b.type == "triangle6" || b.type == "line3";
        break;
      }
  if (volume.type.empty()) volume.type = second ? "tetra10" : "tetra";
  faces.type = second ? "triangle6" : "triangle";
  edges.type = second ? "line3" : "line";
  for (std::size_t i = 0; i < mesh.cells.size(); ++i) {
    const CellBlock& b = mesh.cells[i];
    Group* g = b.ragged ? nullptr : b.type == volume.type ? &volume : b.type == faces.type ? &faces : b.type == edges.type ? &edges : nullptr;
    if (g) {
      g->blocks.push_back(i);
      g->rows += b.size();
    } else {
      warn("tetgen: cell type '" + b.type + "' has no place beside " + volume.type + " in TetGen's files; skipping " + std::to_string(b.size()) +
           " cells");
    }
  }

  const NDArray pts = mesh.points.as_dtype(DType::float64);
  std::vector<std::unique_ptr<io::AtomicFile>> files;
  auto open = [&](const std::string& ext) -> io::AtomicFile& {
    files.push_back(std::make_unique<io::AtomicFile>(base + ext, "tetgen"));
    return *files.back();
  };
  {
    io::TextWriter w(open(".node"));
    write_node(w, path, mesh, pts, ff);
    w.flush();
  }
  {
    io::TextWriter w(open(".ele"));
    const std::vector<std::string> columns = cell_columns(mesh, volume, false);
    comment(w);
    names_comment(w, path, "attribute names", columns);
    w.integer(volume.rows).ch(' ').integer(second ? 10 : 4).ch(' ').integer(columns.size()).ch('\n');
    write_rows(w, mesh, volume, columns, ff);
    w.flush();
  }
  for (Group* g : {&faces, &edges}) {
    std::vector<std::string> markers = cell_columns(mesh, *g, true);
    markers.resize(std::min<std::size_t>(markers.size(), 1));
    io::TextWriter w(open(g == &faces ? ".face" : ".edge"));
    comment(w);
    w.integer(g->rows).ch(' ').integer(markers.size()).ch('\n');
    write_rows(w, mesh, *g, markers, ff);
    w.flush();
  }
  for (auto& f : files) f->commit();
}

}  // namespace meshioplusplus::tetgen
