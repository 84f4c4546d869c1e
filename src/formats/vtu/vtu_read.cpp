// meshio++ VTU reader: VTK XML UnstructuredGrid, every encoding VTK writes (the
// DataArray decoding is vtk_common/xml_data_read.hpp, shared by the XML family).
// Spec: https://docs.vtk.org/en/latest/design_documents/VTKFileFormats.html#xml-file-formats
#include <cstring>
#include <optional>

#include "core/io/xml.hpp"
#include "formats/vtk_common/cell_blocks.hpp"
#include "formats/vtk_common/vtk_cells.hpp"
#include "formats/vtk_common/xml_data_read.hpp"
#include "formats/vtu/vtu.hpp"
#include "formats/vtu/vtu_internal.hpp"
#include "meshioplusplus/warnings.hpp"

namespace meshioplusplus::vtu {

namespace {

using io::XmlElement;

struct Piece {
  std::size_t num_points = 0, num_cells = 0;
  NDArray points;
  NDArray connectivity, offsets, types, faces, faceoffsets;
  bool has_cells = false;
  vtk::NamedArrays point_data, cell_data;
  // A grid of one Piece: its blocks, built as soon as its Cells were read (the flat arrays
  // are dropped then, so they never coexist with the data arrays read after them).
  std::optional<vtk::BlocksOut> blocks;
};

class Reader {
 public:
  Reader(const std::string& path, unsigned threads) : x_(path, "vtu", "UnstructuredGrid", threads) {}

  Mesh read() {
    const XmlElement* grid = &x_.dataset();
    Mesh mesh;
    std::vector<Piece> pieces;
    std::size_t npieces = 0;
    for (const auto& c : grid->children) npieces += c.name == "Piece";
    for (const auto& c : grid->children) {
      if (c.name == "Piece") {
        pieces.push_back(read_piece(c, npieces == 1));
      } else if (c.name == "FieldData") {
        x_.read_field_data(c, mesh.field_data);
      } else {
        fail_at(c, expected_found("Piece or FieldData", c.name));
      }
    }
    if (pieces.empty()) fail_at(*grid, "no Piece in UnstructuredGrid");
    merge(pieces, mesh);
    return mesh;
  }

 private:
  [[noreturn]] void fail_at(const XmlElement& el, const std::string& what) const { x_.fail_at(el, what); }
  [[noreturn]] void fail_ptr(const char* at, const std::string& what) const { x_.fail_ptr(at, what); }
  std::string attr(const XmlElement& el, std::string_view key) const { return x_.attr(el, key); }
  std::size_t parse_count(const XmlElement& el, std::string_view key, const std::string& v) const {
    return x_.parse_count(el, key, v);
  }
  void expect_data_array(const XmlElement& el) const { x_.expect_data_array(el); }
  NDArray read_array(const XmlElement& da, std::optional<std::size_t> tuples, const vtk::XmlDataReader::PieceVisitor* visit = nullptr) {
    return x_.read_array(da, tuples, visit);
  }

  Piece read_piece(const XmlElement& pe, bool only) {
    Piece p;
    p.num_points = parse_count(pe, "NumberOfPoints", attr(pe, "NumberOfPoints"));
    p.num_cells = parse_count(pe, "NumberOfCells", attr(pe, "NumberOfCells"));
    bool have_points = false;
    for (const auto& c : pe.children) {
      if (c.name == "Points") {
        p.points = x_.read_points(c, p.num_points);
        have_points = true;
      } else if (c.name == "Cells") {
        read_cells(c, p, only);
        if (only) {
          if (!p.blocks) p.blocks = build_blocks(p);
          p.connectivity = p.offsets = p.types = p.faces = p.faceoffsets = NDArray();
        }
      } else if (c.name == "PointData") {
        p.point_data = x_.read_data(c, p.num_points);
      } else if (c.name == "CellData") {
        p.cell_data = x_.read_data(c, p.num_cells);
      } else {
        fail_at(c, expected_found("Points, Cells, PointData or CellData", c.name));
      }
    }
    if (!have_points) {
      if (p.num_points != 0) fail_at(pe, "Piece has NumberOfPoints=" + std::to_string(p.num_points) + " but no Points");
      p.points = NDArray::zeros(DType::float64, {0, 3});
    }
    if (!p.has_cells && p.num_cells != 0) fail_at(pe, "Piece has NumberOfCells=" + std::to_string(p.num_cells) + " but no Cells");
    return p;
  }

  // `only`: the grid's one Piece, whose blocks may be made here.
  void read_cells(const XmlElement& ce, Piece& p, bool only) {
    const XmlElement *conn = nullptr, *offs = nullptr, *types = nullptr, *faces = nullptr, *faceoffs = nullptr;
    for (const auto& da : ce.children) {
      expect_data_array(da);
      const std::string nm = attr(da, "Name");
      if (nm == "connectivity") conn = &da;
      else if (nm == "offsets") offs = &da;
      else if (nm == "types") types = &da;
      else if (nm == "faces") faces = &da;
      else if (nm == "faceoffsets") faceoffs = &da;
    }
    if (!conn || !offs || !types) fail_at(ce, "Cells needs DataArrays connectivity, offsets and types");
    // VTK stores end offsets; the flat form wants a leading 0: they are read in after it
    // (no copy of the file's array). A grid of one Piece of one cell type is known so by
    // scans of its arrays (vtk_common/cell_blocks.hpp): its offsets and types are read but
    // never kept, and its connectivity becomes its block with no pass of its own.
    vtk::UniformEnds ends;
    vtk::SameValue same_type;
    vtk::IdRange ids;
    std::optional<NDArray> scanned = x_.scan_array(
        *offs, p.num_cells, [&](unsigned r, DType d, std::size_t f, std::size_t n, const void* v) { return ends.feed(r, d, f, n, v); });
    const std::int64_t step = ends.step(p.num_cells);
    if (step == 0) {  // read after the leading 0 (checks the declared size first)
      p.offsets = NDArray::uninit(DType::int64, {p.num_cells + 1});
      auto* full = p.offsets.data<std::int64_t>();
      full[0] = 0;
      const DType dt = scanned ? scanned->dtype() : x_.read_int64(*offs, p.num_cells, full + 1);
      if (dtype_is_float(dt)) fail_at(*offs, "offsets must be integers");
      if (scanned) vtk::XmlDataReader::copy_as_int64(*scanned, full + 1);  // decoded by the scan: not decoded again
    }
    vtk::XmlDataReader::drop_scanned(scanned);
    const std::int64_t nconn = step != 0 ? step * static_cast<std::int64_t>(p.num_cells) : p.offsets.data<const std::int64_t>()[p.num_cells];
    if (nconn < 0) fail_at(*offs, "the last offset is negative");
    // The connectivity length comes from the data; it must match the last offset.
    const vtk::XmlDataReader::PieceVisitor scan_ids = [&](unsigned r, DType d, std::size_t f, std::size_t n, const void* v) { ids.feed(r, d, f, n, v); };
    NDArray cn = read_array(*conn, std::nullopt, &scan_ids);
    if (dtype_is_float(cn.dtype())) fail_at(*conn, "connectivity must be integers");
    if (static_cast<std::int64_t>(cn.size()) < nconn)
      fail_at(*conn, "connectivity has " + std::to_string(cn.size()) + " entries, the offsets reach " + std::to_string(nconn));
    p.connectivity = cn.as_dtype(DType::int64);
    cn = NDArray();
    std::optional<NDArray> scanned_types;
    if (only && step != 0 && !faces && !faceoffs && ids.within(static_cast<std::int64_t>(p.num_points))) {
      scanned_types = x_.scan_array(
          *types, p.num_cells, [&](unsigned r, DType d, std::size_t f, std::size_t n, const void* v) { return same_type.feed(r, d, f, n, v); });
      if (const std::optional<std::int64_t> one_type = same_type.value(p.num_cells))
        p.blocks = vtk::uniform_blocks(p.connectivity, p.num_cells, step, *one_type);
    }
    if (p.blocks) {
      vtk::XmlDataReader::drop_scanned(scanned_types);
      p.has_cells = true;
      return;
    }
    if (step != 0) {  // the general path wants the flat offsets after all
      p.offsets = NDArray::uninit(DType::int64, {p.num_cells + 1});
      auto* full = p.offsets.data<std::int64_t>();
      for (std::size_t i = 0; i <= p.num_cells; ++i) full[i] = step * static_cast<std::int64_t>(i);
    }
    NDArray t = scanned_types ? std::move(*scanned_types) : read_array(*types, p.num_cells);
    if (dtype_is_float(t.dtype())) fail_at(*types, "types must be integers");
    if (t.dtype() != DType::uint8) {
      NDArray u = NDArray::uninit(DType::uint8, {p.num_cells});
      auto* pu = u.data<std::uint8_t>();
      visit_dtype(t.dtype(), [&](auto tag) {  // a typed loop, not a call per value
        using T = decltype(tag);
        if constexpr (std::is_integral_v<T>) {
          const T* pt = t.data<const T>();
          for (std::size_t i = 0; i < p.num_cells; ++i) {
            const auto v = static_cast<std::int64_t>(pt[i]);
            if (v < 0 || v > 255) fail_at(*types, "cell " + std::to_string(i) + ": " + vtk::vtk_type_label(v) + " is not a VTK cell type");
            pu[i] = static_cast<std::uint8_t>(v);
          }
        }
      });
      t = u;
    }
    p.types = t;
    if (faces || faceoffs) {
      if (!faces || !faceoffs) fail_at(ce, "Cells has only one of faces / faceoffsets");
      NDArray fo = read_array(*faceoffs, p.num_cells);
      NDArray f = read_array(*faces, std::nullopt);
      if (dtype_is_float(fo.dtype()) || dtype_is_float(f.dtype())) fail_at(ce, "faces / faceoffsets must be integers");
      p.faceoffsets = fo.as_dtype(DType::int64);
      p.faces = f.as_dtype(DType::int64);
    }
    p.has_cells = true;
  }

  // Concatenates the pieces (point ids shifted by the points before them) and builds blocks.
  void merge(std::vector<Piece>& pieces, Mesh& mesh) {
    const char* where = x_.document().root.begin;
    Piece all;
    if (pieces.size() == 1) {
      all = std::move(pieces[0]);
    } else {
      std::size_t np = 0, nc = 0, nconn = 0, nfaces = 0;
      bool any_faces = false;
      for (auto& p : pieces) {
        np += p.num_points, nc += p.num_cells, nconn += p.connectivity.size(), nfaces += p.faces.size();
        any_faces = any_faces || p.faceoffsets.size() > 0;
      }
      all.num_points = np, all.num_cells = nc, all.has_cells = true;
      DType pdt = pieces[0].points.dtype();
      for (auto& p : pieces) if (p.points.dtype() != pdt) pdt = DType::float64;
      all.points = NDArray::uninit(pdt, {np, 3});
      all.connectivity = NDArray::uninit(DType::int64, {nconn});
      all.offsets = NDArray::uninit(DType::int64, {nc + 1});
      all.types = NDArray::uninit(DType::uint8, {nc});
      if (any_faces) all.faces = NDArray::uninit(DType::int64, {nfaces}), all.faceoffsets = NDArray::uninit(DType::int64, {nc});
      std::size_t ip = 0, ic = 0, iconn = 0, iface = 0;
      auto* off = all.offsets.data<std::int64_t>();
      off[0] = 0;
      for (auto& p : pieces) {
        NDArray pts = p.points.as_dtype(pdt);
        std::memcpy(static_cast<char*>(all.points.raw()) + ip * 3 * dtype_size(pdt), pts.raw(), pts.nbytes());
        if (p.has_cells) {
          const auto* c = p.connectivity.data<const std::int64_t>();
          auto* dst = all.connectivity.data<std::int64_t>() + iconn;
          for (std::size_t j = 0; j < p.connectivity.size(); ++j) dst[j] = c[j] + static_cast<std::int64_t>(ip);
          const auto* o = p.offsets.data<const std::int64_t>();
          for (std::size_t j = 0; j < p.num_cells; ++j) off[ic + j + 1] = o[j + 1] + static_cast<std::int64_t>(iconn);
          std::memcpy(all.types.data<std::uint8_t>() + ic, p.types.raw(), p.num_cells);
          if (any_faces) {
            auto* fo = all.faceoffsets.data<std::int64_t>() + ic;
            if (p.faceoffsets.size() == 0) {
              for (std::size_t j = 0; j < p.num_cells; ++j) fo[j] = -1;
            } else {
              // Shift the point ids inside each face stream, and the stream offsets.
              const auto* pf = p.faces.data<const std::int64_t>();
              const auto* pfo = p.faceoffsets.data<const std::int64_t>();
              auto* dfaces = all.faces.data<std::int64_t>() + iface;
              std::memcpy(dfaces, pf, p.faces.nbytes());
              std::int64_t begin = 0;
              for (std::size_t j = 0; j < p.num_cells; ++j) {
                fo[j] = pfo[j] < 0 ? -1 : pfo[j] + static_cast<std::int64_t>(iface);
                if (pfo[j] < 0) continue;
                if (pfo[j] < begin || pfo[j] > static_cast<std::int64_t>(p.faces.size()))
                  fail_ptr(where, "faceoffsets of cell " + std::to_string(ic + j) + " out of range");
                if (pfo[j] == begin) continue;
                std::int64_t q = begin;
                const std::int64_t nf = pf[q++];
                for (std::int64_t f = 0; f < nf && q < pfo[j]; ++f) {
                  const std::int64_t npf = pf[q++];
                  for (std::int64_t r = 0; r < npf && q < pfo[j]; ++r, ++q) dfaces[q] += static_cast<std::int64_t>(ip);
                }
                begin = pfo[j];
              }
            }
          }
        }
        ip += p.num_points, ic += p.num_cells, iconn += p.connectivity.size(), iface += p.faces.size();
      }
      std::vector<const vtk::NamedArrays*> pd, cd;
      for (const auto& p : pieces) pd.push_back(&p.point_data), cd.push_back(&p.cell_data);
      auto fail = [&](const std::string& what) { fail_ptr(where, what); };
      all.point_data = vtk::concat_piece_data(pd, np, fail);
      all.cell_data = vtk::concat_piece_data(cd, nc, fail);
    }
    if (!all.blocks) all.blocks = build_blocks(all);
    const vtk::BlocksOut& blocks = *all.blocks;
    mesh.points = all.points;
    mesh.cells = blocks.blocks;
    for (auto& [name, a] : all.point_data) mesh.point_data[name] = a;
    for (auto& [name, a] : all.cell_data) mesh.cell_data[name] = vtk::split_rows(a, blocks);
    for (const std::string& note : blocks.skipped) warn(note);
  }

  // The blocks of a piece's flat cells (all cells of the grid after merging).
  vtk::BlocksOut build_blocks(Piece& all) {
    const char* where = x_.document().root.begin;
    if (!all.has_cells) {
      all.offsets = NDArray::zeros(DType::int64, {1});
      all.connectivity = NDArray::uninit(DType::int64, {0});
      all.types = NDArray::uninit(DType::uint8, {0});
    }
    vtk::FlatCells flat;
    flat.offsets = all.offsets;
    flat.connectivity = all.connectivity;
    flat.types = all.types;
    flat.owned = true;
    std::vector<std::int64_t> begins;
    if (all.faceoffsets.size() > 0) {
      flat.stream = all.faces.data<const std::int64_t>();
      flat.stream_size = all.faces.size();
      const auto* fo = all.faceoffsets.data<const std::int64_t>();
      // Begin of cell i's stream: the end of the previous polyhedron's stream.
      begins.assign(all.num_cells, 0);
      std::int64_t prev = 0;
      for (std::size_t i = 0; i < all.num_cells; ++i) {
        begins[i] = prev;
        if (fo[i] >= 0) prev = fo[i];
      }
      flat.face_range = [fo, &begins](std::size_t i) { return std::make_pair(begins[i], fo[i]); };
    }
    return vtk::blocks_from_flat(flat, all.num_points, [&](const std::string& what) { fail_ptr(where, "Cells: " + what); });
  }

  vtk::XmlDataReader x_;
};

}  // namespace

Mesh read_vtu(const std::string& path, const Options& options) {
  OptionReader opts(options, "vtu");
  opts.finish();
  return Reader(path, opts.threads()).read();
}

}  // namespace meshioplusplus::vtu
