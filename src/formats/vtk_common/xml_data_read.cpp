// meshio++ formats: the VTK XML dataset reader every XML format shares (see
// xml_data_read.hpp for the encodings).
// Spec: https://docs.vtk.org/en/latest/design_documents/VTKFileFormats.html#xml-file-formats
#include "formats/vtk_common/xml_data_read.hpp"

#include <charconv>
#include <cstring>

#include "core/codec/base64.hpp"
#include "core/codec/zlib.hpp"
#include "core/io/byteorder.hpp"
#include "core/io/section_reader.hpp"
#include "core/uncached_scope.hpp"
#include "core/uninit_vector.hpp"
#include "meshioplusplus/errors.hpp"

namespace meshioplusplus::vtk {

using io::XmlElement;

namespace {

std::optional<DType> dtype_from(std::string_view t) {
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

std::string name_of(const XmlElement& da) {
  const std::string* n = da.attribute("Name");
  return n ? *n : std::string();
}

}  // namespace

XmlDataReader::XmlDataReader(const std::string& path, const char* format, std::string_view dataset, unsigned threads)
    : file_(path, format, /*populate=*/false), cur_(file_.text(), format, path), threads_(threads) {
  // Mapped lazily: appended raw arrays are read with pread and never touch their pages;
  // text is parsed in place, and mapping it lazily costs what MAP_POPULATE would.
  doc_ = io::parse_xml(cur_);
  const XmlElement& root = doc_.root;
  if (root.name != "VTKFile") fail_at(root, expected_found("root element VTKFile", root.name));
  const std::string type = attr(root, "type");
  if (type != dataset) fail_at(root, expected_found("VTKFile type=\"" + std::string(dataset) + "\"", type));
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
  for (const auto& c : root.children) {
    if (c.name == dataset) {
      if (dataset_) fail_at(c, "more than one " + std::string(dataset));
      dataset_ = &c;
    } else if (c.name == "AppendedData") {
      appended_ = &c;
    } else {
      fail_at(c, expected_found(std::string(dataset) + " or AppendedData", c.name));
    }
  }
  if (!dataset_) fail_at(root, "no " + std::string(dataset) + " element");
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
}

std::string XmlDataReader::attr(const XmlElement& el, std::string_view key) const {
  const std::string* v = el.attribute(key);
  if (!v) fail_at(el, "<" + std::string(el.name) + "> has no attribute " + std::string(key));
  return *v;
}

std::size_t XmlDataReader::parse_count(const XmlElement& el, std::string_view key, const std::string& v) const {
  std::uint64_t n = 0;
  if (!io::parse_count(io::Cursor::trim(v), n)) fail_at(el, std::string(key) + ": " + expected_found("a count", v));
  return static_cast<std::size_t>(n);
}

void XmlDataReader::expect_data_array(const XmlElement& el) const {
  if (el.name != "DataArray") fail_at(el, expected_found("DataArray", el.name));
}

std::array<std::int64_t, 6> XmlDataReader::extent_attr(const XmlElement& el, std::string_view key) const {
  const std::string v = attr(el, key);
  std::array<std::int64_t, 6> e{};
  const char* p = v.data();
  const char* end = v.data() + v.size();
  for (auto& x : e) {
    while (p != end && io::is_space(*p)) ++p;
    const char* q = p;
    while (q != end && !io::is_space(*q)) ++q;
    const auto r = std::from_chars(p, q, x);
    // Extents are bounded so that every derived count and index fits in 64 bits.
    if (p == q || r.ptr != q || x < -(std::int64_t(1) << 40) || x > (std::int64_t(1) << 40))
      fail_at(el, std::string(key) + ": " + expected_found("six integers", v));
    p = q;
  }
  while (p != end && io::is_space(*p)) ++p;
  if (p != end) fail_at(el, std::string(key) + ": " + expected_found("six integers", v));
  return e;
}

std::vector<double> XmlDataReader::doubles_attr(const XmlElement& el, std::string_view key, std::size_t n) const {
  const std::string v = attr(el, key);
  std::vector<double> out(n);
  const char* p = v.data();
  const char* end = v.data() + v.size();
  for (auto& x : out) {
    while (p != end && io::is_space(*p)) ++p;
    const char* q = p;
    while (q != end && !io::is_space(*q)) ++q;
    const auto r = std::from_chars(p, q, x);
    if (p == q || r.ptr != q) fail_at(el, std::string(key) + ": " + expected_found(std::to_string(n) + " numbers", v));
    p = q;
  }
  while (p != end && io::is_space(*p)) ++p;
  if (p != end) fail_at(el, std::string(key) + ": " + expected_found(std::to_string(n) + " numbers", v));
  return out;
}

std::uint64_t XmlDataReader::header_value(const unsigned char* p) const {
  return header_bytes_ == 8 ? io::load<std::uint64_t>(p, little_) : io::load<std::uint32_t>(p, little_);
}

NDArray XmlDataReader::read_points(const XmlElement& points, std::size_t num_points) {
  if (points.children.size() != 1) fail_at(points, "Points must hold exactly one DataArray");
  expect_data_array(points.children[0]);
  NDArray pts = read_array(points.children[0], std::nullopt);
  if (pts.size() != num_points * 3)
    fail_at(points.children[0], "Points: " + expected_found(std::to_string(num_points) + " points x 3 components",
                                                            std::to_string(pts.size()) + " values"));
  if (!dtype_is_float(pts.dtype())) pts = pts.as_dtype(DType::float64);
  return pts.reshaped({num_points, 3});
}

NamedArrays XmlDataReader::read_data(const XmlElement& group, std::size_t tuples) {
  NamedArrays list;
  for (const auto& da : group.children) {
    expect_data_array(da);
    const std::string nm = attr(da, "Name");
    for (const auto& [other, unused] : list)
      if (other == nm) fail_at(da, "duplicate " + std::string(group.name) + " array '" + nm + "'");
    list.emplace_back(nm, read_array(da, tuples));
  }
  return list;
}

void XmlDataReader::read_field_data(const XmlElement& group, std::map<std::string, NDArray>& field_data) {
  for (const auto& da : group.children) {
    expect_data_array(da);
    const std::string* nt = da.attribute("NumberOfTuples");
    std::optional<std::size_t> tuples;
    if (nt) tuples = parse_count(da, "NumberOfTuples", *nt);
    field_data[attr(da, "Name")] = read_array(da, tuples);
  }
}

// Reads a DataArray. `tuples`: the expected tuple count when known (checked), else
// taken from the data. Shape (tuples,) for one component, else (tuples, components).
NDArray XmlDataReader::read_array(const XmlElement& da, std::optional<std::size_t> tuples, const PieceVisitor* visit) {
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
    if (visit) (*visit)(0, flat.dtype(), 0, flat.size(), flat.raw());
  } else if (format == "binary" || format == "appended") {
    flat = read_binary(da, *dt, width, expected_count, format == "appended", visit);
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

std::optional<XmlDataReader::RawValues> XmlDataReader::raw_values(const XmlElement& da, std::size_t count) const {
  if (!doc_.raw_begin || compressed_ || little_ != io::host_is_little_endian()) return std::nullopt;
  const std::string* format = da.attribute("format");
  const std::string* type = da.attribute("type");
  const std::string* offset_text = da.attribute("offset");
  const std::string* comps = da.attribute("NumberOfComponents");
  if (!format || *format != "appended" || !type || !offset_text || (comps && io::Cursor::trim(*comps) != "1")) return std::nullopt;
  const auto dt = dtype_from(*type);
  std::uint64_t offset = 0;
  if (!dt || !io::parse_count(io::Cursor::trim(*offset_text), offset)) return std::nullopt;
  const std::size_t width = dtype_size(*dt);
  const auto avail = static_cast<std::size_t>(doc_.raw_end - doc_.raw_begin);
  if (offset > avail || avail - offset < header_bytes_) return std::nullopt;
  const auto at = static_cast<std::size_t>(offset);
  const std::uint64_t nbytes = header_value(reinterpret_cast<const unsigned char*>(doc_.raw_begin + at));
  if (!io::fits(count, width, avail - at - header_bytes_) || nbytes != static_cast<std::uint64_t>(count) * width) return std::nullopt;
  return RawValues{*dt, static_cast<std::size_t>(doc_.raw_begin - file_.data()) + at + header_bytes_};
}

std::optional<NDArray> XmlDataReader::scan_array(const XmlElement& da, std::size_t count, const ScanVisitor& visit) {
  if (const auto raw = raw_values(da, count)) {
    io::read_chunks(file_, raw->offset, count, dtype_size(raw->dtype), threads_,
                    [&](std::size_t range, std::size_t first, std::size_t n, const char* bytes) {
                      return visit(static_cast<unsigned>(range), raw->dtype, first, n, bytes);
                    });
    return std::nullopt;
  }
  NDArray a = read_array(da, count);
  visit(0, a.dtype(), 0, a.size(), a.raw());
  return a;
}

void XmlDataReader::drop_scanned(std::optional<NDArray>& decoded) {
  const UncachedScope dropped;
  decoded.reset();
}

DType XmlDataReader::read_int64(const XmlElement& da, std::size_t count, std::int64_t* out) {
  if (const auto raw = raw_values(da, count); raw && raw->dtype == DType::int64) {
    io::read_values(file_, raw->offset, count, sizeof(std::int64_t), false, threads_, out);
    return DType::int64;
  }
  const NDArray a = read_array(da, count);
  if (!dtype_is_float(a.dtype())) copy_as_int64(a, out);
  return a.dtype();
}

void XmlDataReader::copy_as_int64(const NDArray& a, std::int64_t* out) {
  visit_dtype(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* src = a.data<const T>();
    for (std::size_t i = 0; i < a.size(); ++i) out[i] = static_cast<std::int64_t>(src[i]);
  });
}

NDArray XmlDataReader::read_ascii(const XmlElement& da, DType dt, std::optional<std::size_t> expected) {
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
NDArray XmlDataReader::read_binary(const XmlElement& da, DType dt, std::size_t width, std::optional<std::size_t> expected,
                                 bool appended, const PieceVisitor* visit) {
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
  auto take = [&](void* dst, std::size_t n, const char* what, unsigned threads = 1) {
    if (raw) {
      if (!io::fits(n, 1, static_cast<std::size_t>(raw_end - raw)))
        fail_ptr(raw, "DataArray '" + nm + "': " + what + " needs " + std::to_string(n) + " bytes, " +
                          std::to_string(raw_end - raw) + " are left");
      std::memcpy(dst, raw, n);
      raw += n;
    } else if (!b64->read(dst, n, threads)) {
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
      // pread from the file, not a copy out of the mapping: the first touch of each page of
      // a fresh mapping costs a fault (core/io/section_reader.hpp), pread does not. Swapped
      // and visited a chunk at a time, while it is in cache.
      const bool swap = little_ != io::host_is_little_endian() && width > 1;
      char* values = static_cast<char*>(out.raw());
      io::read_values(file_, static_cast<std::size_t>(raw - file_.data()), total / width, width, swap, threads_, values,
                      [&](unsigned range, std::size_t first, std::size_t n) {
                        if (visit) (*visit)(range, dt, first, n, values + first * width);
                      });
      return out;
    } else {
      take(out.raw(), total, "data", threads_);
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
    out = NDArray::uninit(dt, {total / width});
    auto* dst = static_cast<unsigned char*>(out.raw());
    const unsigned threads = total >= (1u << 20) ? threads_ : 1;
    std::vector<std::string> errors(nblocks);
    if (raw) {
      const auto* cdata = reinterpret_cast<const unsigned char*>(raw);
      parallel_for(nblocks, threads, [&](std::size_t k) {
        errors[k] = codec::decompress(compressor_, cdata + coff[k], csize[k], dst + k * block_size, usize[k]);
      });
    } else {
      // base64: the compressed blocks are decoded a batch of about kBatch bytes at a time
      // (whole blocks, at least one) and inflated from there, so the compressed bytes never
      // sit in memory whole beside the array (they raised a zlib read's peak by a fifth).
      constexpr std::size_t kBatch = std::size_t{4} << 20;
      UninitVector<unsigned char> tmp;  // every byte decoded into before it is read
      for (std::size_t k0 = 0; k0 < nblocks;) {
        std::size_t k1 = k0 + 1;
        while (k1 < nblocks && coff[k1 + 1] - coff[k0] <= kBatch) ++k1;
        tmp.resize(coff[k1] - coff[k0]);
        take(tmp.data(), tmp.size(), "compressed data", threads_);
        parallel_for(k1 - k0, threads, [&](std::size_t j) {
          const std::size_t k = k0 + j;
          errors[k] = codec::decompress(compressor_, tmp.data() + (coff[k] - coff[k0]), csize[k], dst + k * block_size, usize[k]);
        });
        k0 = k1;
      }
    }
    for (std::size_t k = 0; k < nblocks; ++k)
      if (!errors[k].empty())
        fail_ptr(raw ? raw + coff[k] : where, "DataArray '" + nm + "': block " + std::to_string(k) + ": " + errors[k]);
  }
  if (little_ != io::host_is_little_endian() && width > 1) io::byteswap_inplace(out.raw(), out.size(), width);
  if (visit) (*visit)(0, dt, 0, out.size(), out.raw());
  return out;
}

void XmlDataReader::check_size(const char* where, const std::string& nm, std::size_t total, std::size_t width,
                             std::optional<std::size_t> expected) const {
  if (total % width != 0)
    fail_ptr(where, "DataArray '" + nm + "': " + std::to_string(total) + " bytes is not a whole number of " + std::to_string(width) + "-byte values");
  if (expected && total / width != *expected)
    fail_ptr(where, "DataArray '" + nm + "': " + expected_found(std::to_string(*expected) + " values", std::to_string(total / width)));
}


NamedArrays concat_piece_data(const std::vector<const NamedArrays*>& pieces, std::size_t total_rows,
                              const std::function<void(const std::string&)>& fail) {
  NamedArrays out;
  if (pieces.empty()) return out;
  if (pieces.size() == 1) return *pieces[0];
  for (const auto& [name, arr0] : *pieces[0]) {
    NDArray::Shape shape = arr0.shape();
    shape[0] = total_rows;
    NDArray all = NDArray::uninit(arr0.dtype(), shape);
    std::size_t at = 0;
    for (const NamedArrays* p : pieces) {
      const NDArray* found = nullptr;
      for (const auto& [n2, a2] : *p)
        if (n2 == name) found = &a2;
      if (!found || found->dtype() != arr0.dtype() || found->row_size() != arr0.row_size() ||
          at + found->nbytes() > all.nbytes())
        fail("data '" + name + "' is missing or differs in some Piece");
      if (found->nbytes()) std::memcpy(static_cast<char*>(all.raw()) + at, found->raw(), found->nbytes());
      at += found->nbytes();
    }
    out.emplace_back(name, std::move(all));
  }
  return out;
}

}  // namespace meshioplusplus::vtk
