// meshio++ VTU reader: VTK XML UnstructuredGrid, every encoding VTK writes.
// Spec: https://docs.vtk.org/en/latest/design_documents/VTKFileFormats.html#xml-file-formats
//
//   format="ascii"     numbers in the DataArray text, parsed in place (from_chars)
//   format="binary"    base64 in the DataArray text: [header][data]
//   format="appended"  at `offset` in <AppendedData>, raw bytes or base64 text
//   header             UInt32 or UInt64 (header_type), in the file's byte_order:
//                        uncompressed: [nbytes]
//                        compressed:   [nblocks][block size][last block size][csize_0..]
//   compressor         vtkZLibDataCompressor, vtkLZMADataCompressor, vtkLZ4DataCompressor
//                      (core/codec/compressor.hpp; others are reported by name)
//
// Every array is allocated once, at its final size, after its declared size was checked
// against the bytes left in the file; base64 is decoded and zlib blocks are inflated
// (in parallel) straight into it.
#include <cstring>
#include <optional>

#include "core/codec/base64.hpp"
#include "core/codec/compressor.hpp"
#include "core/parallel.hpp"
#include "core/codec/zlib.hpp"
#include "core/io/byteorder.hpp"
#include "core/io/file.hpp"
#include "core/io/cursor.hpp"
#include "core/io/xml.hpp"
#include "formats/vtk_common/cell_blocks.hpp"
#include "formats/vtk_common/vtk_cells.hpp"
#include "formats/vtu/vtu.hpp"
#include "formats/vtu/vtu_internal.hpp"
#include "meshioplusplus/warnings.hpp"

namespace meshioplusplus::vtu {

namespace {

using io::parse_xml;
using io::XmlDocument;
using io::XmlElement;

struct Piece {
  std::size_t num_points = 0, num_cells = 0;
  NDArray points;
  NDArray connectivity, offsets, types, faces, faceoffsets;
  bool has_cells = false;
  std::vector<std::pair<std::string, NDArray>> point_data, cell_data;
};

class Reader {
 public:
  Reader(const std::string& path, unsigned threads)
      : file_(path, "vtu"), cur_(file_.text(), "vtu", path), threads_(threads) {}

  Mesh read() {
    doc_ = parse_xml(cur_);
    const XmlElement& root = doc_.root;
    if (root.name != "VTKFile") fail_at(root, expected_found("root element VTKFile", root.name));
    const std::string type = attr(root, "type");
    if (type != "UnstructuredGrid") fail_at(root, expected_found("VTKFile type=\"UnstructuredGrid\"", type));
    if (const std::string* bo = root.attribute("byte_order")) {
      if (*bo == "LittleEndian") little_ = true;
      else if (*bo == "BigEndian") little_ = false;
      else fail_at(root, expected_found("byte_order LittleEndian or BigEndian", *bo));
    }
    if (const std::string* ht = root.attribute("header_type")) {
      if (*ht == "UInt32") header_bytes_ = 4;
      else if (*ht == "UInt64") header_bytes_ = 8;
      else fail_at(root, expected_found("header_type UInt32 or UInt64", *ht));
    }
    if (const std::string* c = root.attribute("compressor")) {
      if (auto kind = codec::compressor_from_vtk_name(*c)) {
        compressed_ = true;
        compressor_ = *kind;
        if (!codec::compressor_available(*kind))
          fail_at(root, "the file is compressed (" + *c + ") but meshio++ was built without it (rebuild with " +
                            std::string(codec::compressor_package(*kind)) + ")");
      } else if (!c->empty()) {
        fail_at(root, "compressor '" + *c +
                          "' is not supported (meshio++ reads vtkZLibDataCompressor, vtkLZMADataCompressor, vtkLZ4DataCompressor)");
      }
    }
    const XmlElement* grid = nullptr;
    for (const auto& c : root.children) {
      if (c.name == "UnstructuredGrid") {
        if (grid) fail_at(c, "more than one UnstructuredGrid");
        grid = &c;
      } else if (c.name == "AppendedData") {
        appended_ = &c;
      } else {
        fail_at(c, expected_found("UnstructuredGrid or AppendedData", c.name));
      }
    }
    if (!grid) fail_at(root, "no UnstructuredGrid element");
    if (appended_) {
      const std::string enc = attr(*appended_, "encoding");
      if (enc == "base64") {
        std::string_view t = appended_->text();
        const std::size_t u = t.find('_');
        if (u == std::string_view::npos || !io::Cursor::trim(t.substr(0, u)).empty())
          fail_at(*appended_, "expected '_' opening the appended data");
        app_b64_begin_ = t.data() + u + 1;
        app_b64_end_ = t.data() + t.size();
      } else if (enc != "raw") {
        fail_at(*appended_, expected_found("AppendedData encoding raw or base64", enc));
      }
    }

    Mesh mesh;
    std::vector<Piece> pieces;
    for (const auto& c : grid->children) {
      if (c.name == "Piece") {
        pieces.push_back(read_piece(c));
      } else if (c.name == "FieldData") {
        for (const auto& da : c.children) {
          expect_data_array(da);
          const std::string* nt = da.attribute("NumberOfTuples");
          std::optional<std::size_t> tuples;
          if (nt) tuples = parse_count(da, "NumberOfTuples", *nt);
          mesh.field_data[attr(da, "Name")] = read_array(da, tuples);
        }
      } else {
        fail_at(c, expected_found("Piece or FieldData", c.name));
      }
    }
    if (pieces.empty()) fail_at(*grid, "no Piece in UnstructuredGrid");
    merge(pieces, mesh);
    return mesh;
  }

 private:
  [[noreturn]] void fail_at(const XmlElement& el, const std::string& what) const { cur_.fail_at(what, el.begin); }
  [[noreturn]] void fail_ptr(const char* at, const std::string& what) const { cur_.fail_at(what, at); }

  std::string attr(const XmlElement& el, std::string_view key) const {
    const std::string* v = el.attribute(key);
    if (!v) fail_at(el, "<" + std::string(el.name) + "> has no attribute " + std::string(key));
    return *v;
  }
  std::size_t parse_count(const XmlElement& el, std::string_view key, const std::string& v) const {
    std::uint64_t n = 0;
    if (!io::parse_count(io::Cursor::trim(v), n)) fail_at(el, std::string(key) + ": " + expected_found("a count", v));
    return static_cast<std::size_t>(n);
  }
  void expect_data_array(const XmlElement& el) const {
    if (el.name != "DataArray") fail_at(el, expected_found("DataArray", el.name));
  }

  static std::optional<DType> dtype_from(std::string_view t) {
    if (t == "Float32") return DType::float32;
    if (t == "Float64") return DType::float64;
    if (t == "Int8" || t == "Char") return DType::int8;
    if (t == "Int16") return DType::int16;
    if (t == "Int32") return DType::int32;
    if (t == "Int64") return DType::int64;
    if (t == "UInt8" || t == "UChar") return DType::uint8;
    if (t == "UInt16") return DType::uint16;
    if (t == "UInt32") return DType::uint32;
    if (t == "UInt64") return DType::uint64;
    return std::nullopt;
  }

  std::uint64_t header_value(const unsigned char* p) const {
    return header_bytes_ == 8 ? io::load<std::uint64_t>(p, little_) : io::load<std::uint32_t>(p, little_);
  }

  // Reads a DataArray. `tuples`: the expected tuple count when known (checked), else
  // taken from the data. Shape (tuples,) for one component, else (tuples, components).
  NDArray read_array(const XmlElement& da, std::optional<std::size_t> tuples) {
    const std::string tname = attr(da, "type");
    const auto dt = dtype_from(tname);
    if (!dt) fail_at(da, "DataArray type '" + tname + "' is not a numeric VTK type");
    std::size_t comps = 1;
    if (const std::string* nc = da.attribute("NumberOfComponents"))
      if (!io::Cursor::trim(*nc).empty()) comps = parse_count(da, "NumberOfComponents", *nc);
    if (comps == 0 || comps > 1000000) fail_at(da, "NumberOfComponents must be in [1, 1000000]");
    const std::size_t width = dtype_size(*dt);
    std::string format = "ascii";
    if (const std::string* f = da.attribute("format")) format = *f;

    std::optional<std::size_t> expected_count;
    if (tuples) expected_count = cur_.product(*tuples, comps, "DataArray size", da.begin);

    NDArray flat;
    if (format == "ascii") {
      flat = read_ascii(da, *dt, expected_count);
    } else if (format == "binary" || format == "appended") {
      flat = read_binary(da, *dt, width, expected_count, format == "appended");
    } else {
      fail_at(da, expected_found("DataArray format ascii, binary or appended", format));
    }
    const std::size_t count = flat.size();
    if (count % comps != 0)
      fail_at(da, "DataArray '" + name_of(da) + "' has " + std::to_string(count) + " values, not a multiple of " +
                      std::to_string(comps) + " components");
    if (comps == 1) return flat;
    return flat.reshaped({count / comps, comps});
  }

  std::string name_of(const XmlElement& da) const {
    const std::string* n = da.attribute("Name");
    return n ? *n : std::string();
  }

  NDArray read_ascii(const XmlElement& da, DType dt, std::optional<std::size_t> expected) {
    io::Cursor text = cur_.window(da.text_begin, da.text_end);
    std::size_t count = 0;
    if (expected) {
      count = *expected;
    } else {
      // Count tokens first (one pass over whitespace), then allocate once.
      bool in = false;
      for (const char* q = da.text_begin; q != da.text_end; ++q) {
        const bool sp = io::is_space(*q);
        count += (!sp && !in);
        in = !sp;
      }
    }
    const std::string what = "values of DataArray '" + name_of(da) + "'";
    text.need_values(count, what);
    NDArray out = NDArray::uninit(dt, {count});
    visit_dtype(dt, [&](auto tag) {
      using T = decltype(tag);
      text.text_values(out.data<T>(), count, what);
    });
    text.skip_space();
    if (!text.at_end()) text.fail("DataArray '" + name_of(da) + "' holds more than the " + std::to_string(count) + " declared values");
    return out;
  }

  // Binary: inline base64, appended base64 or appended raw.
  NDArray read_binary(const XmlElement& da, DType dt, std::size_t width, std::optional<std::size_t> expected, bool appended) {
    const std::string nm = name_of(da);
    const char* raw = nullptr;
    const char* raw_end = nullptr;
    std::optional<codec::Base64Reader> b64;
    const char* where = da.begin;
    if (appended) {
      if (!appended_) fail_at(da, "DataArray '" + nm + "' is appended but the file has no AppendedData");
      const std::size_t offset = parse_count(da, "offset", attr(da, "offset"));
      if (doc_.raw_begin) {
        const std::size_t avail = static_cast<std::size_t>(doc_.raw_end - doc_.raw_begin);
        if (offset > avail) fail_at(da, "DataArray '" + nm + "': offset " + std::to_string(offset) + " is past the " + std::to_string(avail) + " appended bytes");
        raw = doc_.raw_begin + offset;
        raw_end = doc_.raw_end;
        where = raw;
      } else {
        const std::size_t avail = static_cast<std::size_t>(app_b64_end_ - app_b64_begin_);
        if (offset > avail) fail_at(da, "DataArray '" + nm + "': offset " + std::to_string(offset) + " is past the appended data");
        b64.emplace(app_b64_begin_ + offset, app_b64_end_);
        where = app_b64_begin_ + offset;
      }
    } else {
      b64.emplace(da.text_begin, da.text_end);
      where = da.text_begin;
    }

    // Byte source: raw span or base64 stream.
    auto take = [&](void* dst, std::size_t n, const char* what) {
      if (raw) {
        if (!io::fits(n, 1, static_cast<std::size_t>(raw_end - raw)))
          fail_ptr(raw, "DataArray '" + nm + "': " + what + " needs " + std::to_string(n) + " bytes, " +
                            std::to_string(raw_end - raw) + " are left");
        std::memcpy(dst, raw, n);
        raw += n;
      } else if (!b64->read(dst, n)) {
        fail_ptr(b64->error_at(), "DataArray '" + nm + "': " + what + ": " + b64->error());
      }
    };
    auto bytes_left = [&]() -> std::size_t { return raw ? static_cast<std::size_t>(raw_end - raw) : b64->max_remaining(); };
    // The one bounds check (io::fits) of a declared count against the bytes left.
    // `what` reads "<part> declares" and `unit` names the items counted.
    auto need = [&](std::uint64_t count, std::size_t min_bytes, const char* what, const char* unit) {
      if (!io::fits(count, min_bytes, bytes_left()))
        fail_ptr(where, "DataArray '" + nm + "': " + what + " " + std::to_string(count) + " " + unit + ", only " +
                            std::to_string(bytes_left()) + " bytes are left");
    };

    unsigned char hb[8];
    std::size_t total = 0;
    NDArray out;
    if (!compressed_) {
      take(hb, header_bytes_, "header");
      const std::uint64_t nbytes = header_value(hb);
      need(nbytes, 1, "header declares", "bytes");
      total = static_cast<std::size_t>(nbytes);
      check_size(where, nm, total, width, expected);
      out = NDArray::uninit(dt, {total / width});
      if (raw) {
        if (total) std::memcpy(out.raw(), raw, total);
      } else {
        take(out.raw(), total, "data");
      }
    } else {
      take(hb, header_bytes_, "compression header");
      const std::uint64_t nblocks = header_value(hb);
      need(nblocks, header_bytes_, "compression header declares", header_bytes_ == 8 ? "blocks of 8-byte sizes" : "blocks of 4-byte sizes");
      std::vector<unsigned char> header(static_cast<std::size_t>(2 + nblocks) * header_bytes_);
      take(header.data(), header.size(), "compression header");
      const std::uint64_t block_size = header_value(header.data());
      const std::uint64_t last_size = header_value(header.data() + header_bytes_);
      if (nblocks > 0 && (block_size == 0 || last_size > block_size))
        fail_ptr(where, "DataArray '" + nm + "': compression header: block size " + std::to_string(block_size) +
                            ", last block size " + std::to_string(last_size));
      std::vector<std::size_t> csize(nblocks), coff(nblocks + 1, 0), usize(nblocks);
      std::uint64_t ctotal = 0;
      for (std::size_t k = 0; k < nblocks; ++k) {
        csize[k] = static_cast<std::size_t>(header_value(header.data() + (2 + k) * header_bytes_));
        ctotal += csize[k];
        need(ctotal, 1, "compressed blocks need", "bytes");
        coff[k + 1] = static_cast<std::size_t>(ctotal);
        usize[k] = static_cast<std::size_t>(k + 1 == nblocks && last_size != 0 ? last_size : block_size);
      }
      if (nblocks > 0) {
        if (block_size > (std::uint64_t(1) << 40) || (nblocks - 1) > (std::uint64_t(1) << 40) / block_size)
          fail_ptr(where, "DataArray '" + nm + "': uncompressed size overflows");
        total = static_cast<std::size_t>((nblocks - 1) * block_size) + usize[nblocks - 1];
      }
      check_size(where, nm, total, width, expected);
      // Each compressor expands by a bounded ratio: a declared size beyond it is corrupt, not allocated.
      if (static_cast<double>(total) > static_cast<double>(ctotal) * codec::max_expansion(compressor_) + 64)
        fail_ptr(where, "DataArray '" + nm + "': " + std::to_string(total) + " bytes cannot come from " + std::to_string(ctotal) + " compressed bytes");
      std::vector<unsigned char> tmp;
      const unsigned char* cdata;
      if (raw) {
        cdata = reinterpret_cast<const unsigned char*>(raw);
      } else {
        tmp.resize(static_cast<std::size_t>(ctotal));
        take(tmp.data(), tmp.size(), "compressed data");
        cdata = tmp.data();
      }
      out = NDArray::uninit(dt, {total / width});
      auto* dst = static_cast<unsigned char*>(out.raw());
      const unsigned threads = total >= (1u << 20) ? threads_ : 1;
      std::vector<std::string> errors(nblocks);
      parallel_for(nblocks, threads, [&](std::size_t k) {
        errors[k] = codec::decompress(compressor_, cdata + coff[k], csize[k], dst + k * block_size, usize[k]);
      });
      for (std::size_t k = 0; k < nblocks; ++k)
        if (!errors[k].empty())
          fail_ptr(raw ? raw + coff[k] : where, "DataArray '" + nm + "': block " + std::to_string(k) + ": " + errors[k]);
    }
    if (little_ != io::host_is_little_endian() && width > 1) io::byteswap_inplace(out.raw(), out.size(), width);
    return out;
  }

  void check_size(const char* where, const std::string& nm, std::size_t total, std::size_t width,
                  std::optional<std::size_t> expected) const {
    if (total % width != 0)
      fail_ptr(where, "DataArray '" + nm + "': " + std::to_string(total) + " bytes is not a whole number of " + std::to_string(width) + "-byte values");
    if (expected && total / width != *expected)
      fail_ptr(where, "DataArray '" + nm + "': " + expected_found(std::to_string(*expected) + " values", std::to_string(total / width)));
  }

  Piece read_piece(const XmlElement& pe) {
    Piece p;
    p.num_points = parse_count(pe, "NumberOfPoints", attr(pe, "NumberOfPoints"));
    p.num_cells = parse_count(pe, "NumberOfCells", attr(pe, "NumberOfCells"));
    bool have_points = false;
    for (const auto& c : pe.children) {
      if (c.name == "Points") {
        if (c.children.size() != 1) fail_at(c, "Points must hold exactly one DataArray");
        expect_data_array(c.children[0]);
        NDArray pts = read_array(c.children[0], std::nullopt);
        if (pts.size() != p.num_points * 3)
          fail_at(c.children[0], "Points: " + expected_found(std::to_string(p.num_points) + " points x 3 components",
                                                           std::to_string(pts.size()) + " values"));
        if (!dtype_is_float(pts.dtype())) pts = pts.as_dtype(DType::float64);
        p.points = pts.reshaped({p.num_points, 3});
        have_points = true;
      } else if (c.name == "Cells") {
        read_cells(c, p);
      } else if (c.name == "PointData" || c.name == "CellData") {
        const bool point = c.name == "PointData";
        for (const auto& da : c.children) {
          expect_data_array(da);
          auto& list = point ? p.point_data : p.cell_data;
          const std::string nm = attr(da, "Name");
          for (const auto& [other, unused] : list)
            if (other == nm) fail_at(da, "duplicate " + std::string(c.name) + " array '" + nm + "'");
          list.emplace_back(nm, read_array(da, point ? p.num_points : p.num_cells));
        }
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

  void read_cells(const XmlElement& ce, Piece& p) {
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
    NDArray o = read_array(*offs, p.num_cells);
    if (dtype_is_float(o.dtype())) fail_at(*offs, "offsets must be integers");
    o = o.as_dtype(DType::int64);
    const auto* po = o.data<const std::int64_t>();
    const std::int64_t nconn = p.num_cells ? po[p.num_cells - 1] : 0;
    if (nconn < 0) fail_at(*offs, "the last offset is negative");
    // The connectivity length comes from the data; it must match the last offset.
    NDArray cn = read_array(*conn, std::nullopt);
    if (dtype_is_float(cn.dtype())) fail_at(*conn, "connectivity must be integers");
    if (static_cast<std::int64_t>(cn.size()) < nconn)
      fail_at(*conn, "connectivity has " + std::to_string(cn.size()) + " entries, the offsets reach " + std::to_string(nconn));
    p.connectivity = cn.as_dtype(DType::int64);
    // VTK stores end offsets; the flat form wants a leading 0.
    p.offsets = NDArray::uninit(DType::int64, {p.num_cells + 1});
    auto* full = p.offsets.data<std::int64_t>();
    full[0] = 0;
    if (p.num_cells) std::memcpy(full + 1, po, p.num_cells * sizeof(std::int64_t));
    NDArray t = read_array(*types, p.num_cells);
    if (dtype_is_float(t.dtype())) fail_at(*types, "types must be integers");
    if (t.dtype() != DType::uint8) {
      NDArray u = NDArray::uninit(DType::uint8, {p.num_cells});
      auto* pu = u.data<std::uint8_t>();
      for (std::size_t i = 0; i < p.num_cells; ++i) {
        const std::int64_t v = t.value_as_int64(i);
        if (v < 0 || v > 255) fail_at(*types, "cell " + std::to_string(i) + ": " + vtk::vtk_type_label(v) + " is not a VTK cell type");
        pu[i] = static_cast<std::uint8_t>(v);
      }
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
    const char* where = doc_.root.begin;
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
      // Data: arrays named in the first piece, present in every piece.
      for (int kind = 0; kind < 2; ++kind) {
        auto& first = kind == 0 ? pieces[0].point_data : pieces[0].cell_data;
        for (auto& [name, arr0] : first) {
          NDArray::Shape shape = arr0.shape();
          shape[0] = kind == 0 ? np : nc;
          NDArray out = NDArray::uninit(arr0.dtype(), shape);
          std::size_t at = 0;
          for (auto& p : pieces) {
            auto& list = kind == 0 ? p.point_data : p.cell_data;
            const NDArray* found = nullptr;
            for (auto& [n2, a2] : list) if (n2 == name) found = &a2;
            if (!found || found->dtype() != arr0.dtype() || found->row_size() != arr0.row_size())
              fail_ptr(where, std::string(kind == 0 ? "point" : "cell") + " data '" + name + "' is missing or differs in some Piece");
            std::memcpy(static_cast<char*>(out.raw()) + at, found->raw(), found->nbytes());
            at += found->nbytes();
          }
          (kind == 0 ? all.point_data : all.cell_data).emplace_back(name, std::move(out));
        }
      }
    }
    mesh.points = all.points;
    if (!all.has_cells) {
      all.offsets = NDArray::zeros(DType::int64, {1});
      all.connectivity = NDArray::uninit(DType::int64, {0});
      all.types = NDArray::uninit(DType::uint8, {0});
    }
    vtk::FlatCells flat;
    flat.offsets = all.offsets;
    flat.connectivity = all.connectivity;
    flat.types = all.types;
    if (all.faceoffsets.size() > 0) {
      flat.stream = all.faces.data<const std::int64_t>();
      flat.stream_size = all.faces.size();
      const auto* fo = all.faceoffsets.data<const std::int64_t>();
      // Begin of cell i's stream: the end of the previous polyhedron's stream.
      std::vector<std::int64_t> begins(all.num_cells, 0);
      std::int64_t prev = 0;
      for (std::size_t i = 0; i < all.num_cells; ++i) {
        begins[i] = prev;
        if (fo[i] >= 0) prev = fo[i];
      }
      flat.face_range = [fo, begins = std::move(begins)](std::size_t i) { return std::make_pair(begins[i], fo[i]); };
    }
    auto blocks = vtk::blocks_from_flat(flat, all.num_points, [&](const std::string& what) { fail_ptr(where, "Cells: " + what); });
    mesh.cells = std::move(blocks.blocks);
    for (auto& [name, a] : all.point_data) mesh.point_data[name] = a;
    for (auto& [name, a] : all.cell_data) mesh.cell_data[name] = vtk::split_rows(a, blocks);
    for (const std::string& note : blocks.skipped) warn(note);
  }

  io::FileBytes file_;
  io::Cursor cur_;
  unsigned threads_;
  XmlDocument doc_;
  bool little_ = true;
  std::size_t header_bytes_ = 4;
  bool compressed_ = false;
  codec::Compressor compressor_ = codec::Compressor::zlib;
  const XmlElement* appended_ = nullptr;
  const char* app_b64_begin_ = nullptr;
  const char* app_b64_end_ = nullptr;
};

}  // namespace

Mesh read_vtu(const std::string& path, const Options& options) {
  OptionReader opts(options, "vtu");
  opts.finish();
  return Reader(path, opts.threads()).read();
}

}  // namespace meshioplusplus::vtu
