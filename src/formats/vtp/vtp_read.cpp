// meshio++ VTP reader: VTK XML PolyData, every encoding VTK writes (the DataArray decoding
// is vtk_common/xml_data_read.hpp).
// Spec: https://docs.vtk.org/en/latest/design_documents/VTKFileFormats.html#polydata
//
// A Piece holds four cell arrays (Verts, Lines, Strips, Polys: connectivity + end
// offsets each); VTK numbers the cells verts, lines, polys, strips, and CellData follows
// that numbering. They become meshio's blocks as vtkTriangleFilter (PassVerts, PassLines)
// would cut them, except that polygons stay whole:
//   vert of k points   -> k "vertex" cells
//   line of k points   -> k - 1 "line" cells (a polyline is cut into segments)
//   poly of 3 / 4 / k  -> "triangle" / "quad" / "polygon"
//   strip of k points  -> k - 2 "triangle"s, every second one reversed
//                         (vtkTriangleStrip::DecomposeStrip: (p1, p0, p2) for odd i)
// in VTK's cell order (verts, lines, polys, strips; pieces concatenated within each kind),
// every piece's cell data row repeated for each cell cut from it.
#include <cstring>

#include "formats/vtk_common/cell_blocks.hpp"
#include "formats/vtk_common/xml_data_read.hpp"
#include "formats/vtp/vtp_internal.hpp"
#include "meshioplusplus/warnings.hpp"

namespace meshioplusplus::vtp {

namespace {

using io::XmlElement;

// VTK cell ids of what the cells become.
constexpr std::uint8_t kVertex = 1, kLine = 3, kTriangle = 5, kPolygon = 7, kQuad = 9;

// The four kinds in VTK's cell numbering.
constexpr const char* kKinds[4] = {"Verts", "Lines", "Polys", "Strips"};
constexpr const char* kCounts[4] = {"NumberOfVerts", "NumberOfLines", "NumberOfPolys", "NumberOfStrips"};

struct CellArray {
  NDArray offsets;       // (n,) int64 end offsets; not kept when `step` implies them
  NDArray connectivity;  // int64, point ids already checked against the piece's points
  std::int64_t step = 0;  // k when every cell has k nodes (offsets k, 2k, ...)
  bool present = false;   // the Piece has this element
};

// The end offsets k, 2k, ..., n k.
NDArray uniform_ends(std::int64_t k, std::size_t n) {
  NDArray out = NDArray::uninit(DType::int64, {n});
  auto* o = out.data<std::int64_t>();
  for (std::size_t i = 0; i < n; ++i) o[i] = k * static_cast<std::int64_t>(i + 1);
  return out;
}

struct Piece {
  std::size_t num_points = 0;
  std::size_t counts[4] = {0, 0, 0, 0};
  NDArray points;
  CellArray cells[4];
  vtk::NamedArrays point_data, cell_data;
  std::size_t num_cells() const { return counts[0] + counts[1] + counts[2] + counts[3]; }
};

// Rows `rows` of `a`, in that order.
NDArray gather_rows(const NDArray& a, const std::vector<std::int64_t>& rows) {
  NDArray::Shape shape = a.shape();
  shape[0] = rows.size();
  NDArray out = NDArray::uninit(a.dtype(), shape);
  const std::size_t row_bytes = a.row_size() * dtype_size(a.dtype());
  const auto* src = static_cast<const char*>(a.raw());
  auto* dst = static_cast<char*>(out.raw());
  for (std::size_t i = 0; i < rows.size(); ++i)
    std::memcpy(dst + i * row_bytes, src + static_cast<std::size_t>(rows[i]) * row_bytes, row_bytes);
  return out;
}

class Reader {
 public:
  Reader(const std::string& path, unsigned threads) : x_(path, "vtp", "PolyData", threads) {}

  Mesh read() {
    Mesh mesh;
    std::vector<Piece> pieces;
    for (const auto& c : x_.dataset().children) {
      if (c.name == "Piece") pieces.push_back(read_piece(c));
      else if (c.name == "FieldData") x_.read_field_data(c, mesh.field_data);
      else x_.fail_at(c, expected_found("Piece or FieldData", c.name));
    }
    if (pieces.empty()) x_.fail_at(x_.dataset(), "no Piece in PolyData");
    build(pieces, mesh);
    return mesh;
  }

 private:
  std::size_t optional_count(const XmlElement& el, std::string_view key) const {
    const std::string* v = el.attribute(key);
    return v ? x_.parse_count(el, key, *v) : 0;
  }

  Piece read_piece(const XmlElement& pe) {
    Piece p;
    p.num_points = optional_count(pe, "NumberOfPoints");
    for (int k = 0; k < 4; ++k) p.counts[k] = optional_count(pe, kCounts[k]);
    bool have_points = false;
    const XmlElement* cell_data = nullptr;
    for (const auto& c : pe.children) {
      if (c.name == "Points") {
        p.points = x_.read_points(c, p.num_points);
        have_points = true;
      } else if (c.name == "PointData") {
        p.point_data = x_.read_data(c, p.num_points);
      } else if (c.name == "CellData") {
        cell_data = &c;
      } else {
        int kind = -1;
        for (int k = 0; k < 4; ++k)
          if (c.name == kKinds[k]) kind = k;
        if (kind < 0) x_.fail_at(c, expected_found("Points, Verts, Lines, Strips, Polys, PointData or CellData", c.name));
        p.cells[kind] = read_cells(c, p.counts[kind], p.num_points);
      }
    }
    if (!have_points) {
      if (p.num_points != 0) x_.fail_at(pe, "Piece has NumberOfPoints=" + std::to_string(p.num_points) + " but no Points");
      p.points = NDArray::zeros(DType::float64, {0, 3});
    }
    for (int k = 0; k < 4; ++k) {
      if (p.counts[k] != 0 && !p.cells[k].present)
        x_.fail_at(pe, "Piece has " + std::string(kCounts[k]) + "=" + std::to_string(p.counts[k]) + " but no " + kKinds[k]);
      if (p.counts[k] == 0) p.cells[k] = CellArray{NDArray::zeros(DType::int64, {0}), NDArray::zeros(DType::int64, {0})};
    }
    if (cell_data) {
      std::size_t total = 0;
      for (std::size_t c : p.counts) total += c;
      p.cell_data = x_.read_data(*cell_data, total);
    }
    return p;
  }

  // connectivity + end offsets of one kind, every offset and point id checked. Cells all of
  // one size (offsets k, 2k, ...) with every id a point are known so while the arrays are
  // read (vtk_common/cell_blocks.hpp's scans): their offsets are not kept, and the
  // connectivity needs no pass of its own.
  CellArray read_cells(const XmlElement& ce, std::size_t count, std::size_t num_points) {
    const XmlElement *conn = nullptr, *offs = nullptr;
    for (const auto& da : ce.children) {
      x_.expect_data_array(da);
      const std::string nm = x_.attr(da, "Name");
      if (nm == "connectivity") conn = &da;
      else if (nm == "offsets") offs = &da;
    }
    if (!conn || !offs) x_.fail_at(ce, "<" + std::string(ce.name) + "> needs DataArrays connectivity and offsets");
    vtk::UniformEnds ends;
    vtk::IdRange ids;
    std::optional<NDArray> scanned =
        x_.scan_array(*offs, count, [&](unsigned r, DType d, std::size_t f, std::size_t n, const void* v) { return ends.feed(r, d, f, n, v); });
    const std::int64_t step = ends.step(count);
    NDArray o;  // kept only when the cells differ in size (implied otherwise)
    if (step == 0) o = scanned ? std::move(*scanned) : x_.read_array(*offs, count);
    vtk::XmlDataReader::drop_scanned(scanned);
    const vtk::XmlDataReader::PieceVisitor scan_ids = [&](unsigned r, DType d, std::size_t f, std::size_t n, const void* v) { ids.feed(r, d, f, n, v); };
    NDArray c = x_.read_array(*conn, std::nullopt, &scan_ids);
    if ((step == 0 && dtype_is_float(o.dtype())) || dtype_is_float(c.dtype()))
      x_.fail_at(ce, std::string(ce.name) + ": offsets and connectivity must be integers");
    CellArray out;
    out.present = true;
    out.connectivity = c.as_dtype(DType::int64);
    c = NDArray();
    const auto nconn = static_cast<std::int64_t>(out.connectivity.size());
    const auto np = static_cast<std::int64_t>(num_points);
    if (step != 0 && step * static_cast<std::int64_t>(count) <= nconn && ids.within(np)) {
      out.step = step;
      return out;
    }
    out.offsets = step != 0 ? uniform_ends(step, count) : o.as_dtype(DType::int64);
    const auto* po = out.offsets.data<const std::int64_t>();
    std::int64_t prev = 0;
    for (std::size_t i = 0; i < count; ++i) {
      if (po[i] < prev || po[i] > nconn)
        x_.fail_at(*offs, std::string(ce.name) + " cell " + std::to_string(i) + ": offset " + std::to_string(po[i]) +
                              " is outside [" + std::to_string(prev) + ", " + std::to_string(nconn) + "]");
      prev = po[i];
    }
    const auto* pc = out.connectivity.data<const std::int64_t>();
    for (std::int64_t j = 0; j < prev; ++j)
      if (pc[j] < 0 || pc[j] >= np)
        x_.fail_at(*conn, std::string(ce.name) + ": point id " + std::to_string(pc[j]) + " is outside [0, " + std::to_string(np) + ")");
    return out;
  }

  void build(std::vector<Piece>& pieces, Mesh& mesh) {
    auto fail = [&](const std::string& what) { x_.fail_at(x_.dataset(), what); };
    // One piece of polygons all of one size (the common surface mesh): its connectivity is
    // the block, its cell data used as it is.
    if (pieces.size() == 1) {
      Piece& p = pieces[0];
      const CellArray& polys = p.cells[2];
      const std::int64_t k = polys.step;
      if (p.counts[0] + p.counts[1] + p.counts[3] == 0 && k != 0 &&
          polys.connectivity.size() == static_cast<std::size_t>(k) * p.counts[2])
        if (auto blocks = vtk::uniform_blocks(polys.connectivity, p.counts[2], k, k == 3 ? kTriangle : k == 4 ? kQuad : kPolygon)) {
          mesh.points = p.points;
          for (auto& [name, a] : p.point_data) mesh.point_data[name] = a;
          mesh.cells = std::move(blocks->blocks);
          for (auto& [name, a] : p.cell_data) mesh.cell_data[name] = {a};
          return;
        }
    }
    for (Piece& p : pieces)
      for (int k = 0; k < 4; ++k)
        if (p.cells[k].step != 0 && p.cells[k].offsets.size() != p.counts[k]) p.cells[k].offsets = uniform_ends(p.cells[k].step, p.counts[k]);
    std::size_t np = 0, nsrc = 0;
    std::vector<std::size_t> point_base, cell_base;
    for (const Piece& p : pieces) point_base.push_back(np), cell_base.push_back(nsrc), np += p.num_points, nsrc += p.num_cells();

    // Points and point data: pieces concatenated.
    if (pieces.size() == 1) {
      mesh.points = pieces[0].points;
    } else {
      DType pdt = pieces[0].points.dtype();
      for (const Piece& p : pieces)
        if (p.points.dtype() != pdt) pdt = DType::float64;
      mesh.points = NDArray::uninit(pdt, {np, 3});
      for (std::size_t i = 0; i < pieces.size(); ++i) {
        const NDArray pts = pieces[i].points.as_dtype(pdt);
        if (pts.nbytes()) std::memcpy(static_cast<char*>(mesh.points.raw()) + point_base[i] * 3 * dtype_size(pdt), pts.raw(), pts.nbytes());
      }
    }
    std::vector<const vtk::NamedArrays*> pd, cd;
    for (const Piece& p : pieces) pd.push_back(&p.point_data), cd.push_back(&p.cell_data);
    for (auto& [name, a] : vtk::concat_piece_data(pd, np, fail)) mesh.point_data[name] = a;
    const vtk::NamedArrays cell_data = vtk::concat_piece_data(cd, nsrc, fail);

    // Output cells in VTK's order; src[i] is the file's cell (data row) of output cell i.
    // Exact sizes first, so the flat arrays are written once, in place (each piece's arrays
    // freed once copied). With one piece whose every cell gives exactly one output cell (no
    // vert or line of several points, no strip), output cell i is file cell i: the cell
    // data is used as it is, not gathered.
    std::size_t nout = 0, nconn = 0;
    bool one_to_one = pieces.size() == 1;
    for (const Piece& p : pieces)
      for (int k = 0; k < 4; ++k) {
        const auto* ends = p.cells[k].offsets.data<const std::int64_t>();
        std::int64_t b = 0;
        for (std::size_t i = 0; i < p.counts[k]; ++i) {
          const auto m = static_cast<std::size_t>(ends[i] - b);
          const std::size_t cells = k == 0 ? m : k == 1 ? (m > 1 ? m - 1 : 0) : k == 2 ? 1 : (m > 2 ? m - 2 : 0);
          nout += cells;
          nconn += k == 0 || k == 2 ? m : k == 1 ? 2 * cells : 3 * cells;
          one_to_one &= cells == 1;
          b = ends[i];
        }
      }
    // Polygons alone (the common surface mesh): their connectivity is the flat one, shared.
    const bool polys_only = one_to_one && pieces[0].counts[0] + pieces[0].counts[1] + pieces[0].counts[3] == 0;
    vtk::FlatCells flat;
    flat.offsets = NDArray::uninit(DType::int64, {nout + 1});
    flat.connectivity = polys_only ? pieces[0].cells[2].connectivity : NDArray::uninit(DType::int64, {nconn});
    flat.types = NDArray::uninit(DType::uint8, {nout});
    flat.owned = true;
    std::int64_t* offsets = flat.offsets.data<std::int64_t>();
    std::int64_t* conn = flat.connectivity.data<std::int64_t>();
    std::uint8_t* types = flat.types.data<std::uint8_t>();
    std::vector<std::int64_t> src;
    if (!one_to_one) src.reserve(nout);
    std::size_t cell = 0, at = 0;
    offsets[0] = 0;
    auto emit = [&](std::uint8_t type, std::int64_t row, std::initializer_list<std::int64_t> ids) {
      for (std::int64_t id : ids) conn[at++] = id;
      offsets[++cell] = static_cast<std::int64_t>(at);
      types[cell - 1] = type;
      if (!one_to_one) src.push_back(row);
    };
    for (int k = 0; k < 4; ++k) {
      for (std::size_t pi = 0; pi < pieces.size(); ++pi) {
        Piece& p = pieces[pi];
        std::size_t row0 = cell_base[pi];
        for (int before = 0; before < k; ++before) row0 += p.counts[before];
        const auto* ends = p.cells[k].offsets.data<const std::int64_t>();
        const auto* ids = p.cells[k].connectivity.data<const std::int64_t>();
        const auto shift = static_cast<std::int64_t>(point_base[pi]);
        std::int64_t b = 0;
        for (std::size_t i = 0; i < p.counts[k]; ++i) {
          const std::int64_t e = ends[i];
          const auto row = static_cast<std::int64_t>(row0 + i);
          const std::int64_t* q = ids + b;
          const std::int64_t m = e - b;
          if (k == 0) {
            for (std::int64_t j = 0; j < m; ++j) emit(kVertex, row, {q[j] + shift});
          } else if (k == 1) {
            for (std::int64_t j = 0; j + 1 < m; ++j) emit(kLine, row, {q[j] + shift, q[j + 1] + shift});
          } else if (k == 2) {
            if (polys_only) at += static_cast<std::size_t>(m);
            else
              for (std::int64_t j = 0; j < m; ++j) conn[at++] = q[j] + shift;
            offsets[++cell] = static_cast<std::int64_t>(at);
            types[cell - 1] = m == 3 ? kTriangle : m == 4 ? kQuad : kPolygon;
            if (!one_to_one) src.push_back(row);
          } else {
            for (std::int64_t j = 0; j + 2 < m; ++j) {
              if (j % 2 == 0) emit(kTriangle, row, {q[j] + shift, q[j + 1] + shift, q[j + 2] + shift});
              else emit(kTriangle, row, {q[j + 1] + shift, q[j] + shift, q[j + 2] + shift});
            }
          }
          b = e;
        }
        p.cells[k] = CellArray{};  // copied out: freed before the blocks are made
      }
    }
    auto blocks = vtk::blocks_from_flat(flat, np, [&](const std::string& what) { fail("cells: " + what); });
    mesh.cells = std::move(blocks.blocks);
    for (const auto& [name, a] : cell_data) mesh.cell_data[name] = vtk::split_rows(one_to_one ? a : gather_rows(a, src), blocks);
    for (const std::string& note : blocks.skipped) warn(note);
  }

  vtk::XmlDataReader x_;
};

}  // namespace

Mesh read_vtp(const std::string& path, const Options& options) {
  OptionReader opts(options, "vtp");
  opts.finish();
  return Reader(path, opts.threads()).read();
}

}  // namespace meshioplusplus::vtp
