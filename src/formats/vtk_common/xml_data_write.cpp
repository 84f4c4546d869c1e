// meshio++ formats: the VTK XML dataset writer every XML format shares (see
// xml_data_write.hpp for the options and the layout).
// Spec: https://docs.vtk.org/en/latest/design_documents/VTKFileFormats.html#xml-file-formats
#include "formats/vtk_common/xml_data_write.hpp"

#include <algorithm>
#include <cstring>

#include "core/codec/base64.hpp"
#include "core/io/byteorder.hpp"
#include "core/io/xml.hpp"
#include "core/parallel.hpp"
#include "meshioplusplus/errors.hpp"

namespace meshioplusplus::vtk {

namespace {

constexpr std::size_t kBlockSize = 32768;

const char* vtk_type_name(DType d) {
  switch (d) {
    case DType::int8: return "Int8";
    case DType::int16: return "Int16";
    case DType::int32: return "Int32";
    case DType::int64: return "Int64";
    case DType::uint8: return "UInt8";
    case DType::uint16: return "UInt16";
    case DType::uint32: return "UInt32";
    case DType::uint64: return "UInt64";
    case DType::float32: return "Float32";
    case DType::float64: break;
  }
  return "Float64";
}

}  // namespace

XmlWriteOptions XmlWriteOptions::read(OptionReader& opts, std::string_view format) {
  const std::string fmt(format);
  XmlWriteOptions o;
  const bool binary = opts.get_bool("binary", true);
  std::string compression = opts.get_string("compression", "zlib");
  std::string data_mode = opts.get_string("data_mode", binary ? "binary" : "ascii");
  std::string header_type = opts.get_string("header_type", "UInt64");
  if (header_type == "None") header_type = "UInt64";  // meshio's header_type=None: the writer's choice
  auto compressor = codec::compressor_from_name(compression);
  if (!compressor) compressor = codec::compressor_from_vtk_name(compression);
  const long long default_level = !compressor ? 1 : *compressor == codec::Compressor::lzma ? 6 : *compressor == codec::Compressor::lz4 ? 9 : 1;
  const long long level = opts.get_int("compression_level", default_level);
  o.float_format = io::FloatFormat::parse(opts.get_string("float_fmt", ""));
  if (data_mode == "ascii") o.mode = Mode::ascii;
  else if (data_mode == "binary") o.mode = Mode::binary;
  else if (data_mode == "appended" || data_mode == "raw") o.mode = Mode::appended;
  else throw std::invalid_argument(fmt + ": option 'data_mode': expected ascii, binary or appended, found '" + data_mode + "'");
  if (compressor) o.compress = true;
  else if (compression == "None" || compression == "none" || compression.empty() || compression == "false") o.compress = false;
  else throw std::invalid_argument(fmt + ": compression '" + compression + "' is not supported (use \"zlib\", \"lzma\", \"lz4\" or None)");
  if (header_type != "UInt32" && header_type != "UInt64")
    throw std::invalid_argument(fmt + ": option 'header_type': expected UInt32 or UInt64, found '" + header_type + "'");
  if (level < 0 || level > 9) throw std::invalid_argument(fmt + ": option 'compression_level': expected 0..9");
  if (o.mode == Mode::ascii) o.compress = false;
  o.header_bytes = header_type == "UInt64" ? 8 : 4;
  o.level = static_cast<int>(level);
  o.threads = opts.threads();
  o.compressor = compressor.value_or(codec::Compressor::zlib);
  return o;
}

XmlDataWriter::XmlDataWriter(std::string format, std::string path, const XmlWriteOptions& options)
    : format_(std::move(format)), path_(std::move(path)), o_(options) {}

void XmlDataWriter::group(std::string tag) { groups_.push_back(Group{std::move(tag), {}}); }

void XmlDataWriter::add(const std::string& name, NDArray data, const std::string& extra_attrs) {
  OutArray a;
  const std::size_t comps = data.ndim() >= 2 ? data.row_size() : 1;
  a.attrs = "type=\"" + std::string(vtk_type_name(data.dtype())) + "\" Name=\"" + io::xml_escape(name) + "\"";
  if (data.ndim() >= 2) a.attrs += " NumberOfComponents=\"" + std::to_string(comps) + "\"";
  a.attrs += extra_attrs;
  a.comps = comps;
  a.data = std::move(data);
  groups_.back().arrays.push_back(std::move(a));
}

void XmlDataWriter::add_field_data(const Mesh& mesh) {
  if (mesh.field_data.empty()) return;
  group("FieldData");
  for (const auto& [name, a] : mesh.field_data) {
    const std::size_t tuples = a.ndim() == 0 ? 1 : a.dim(0);
    add(name, a, " NumberOfTuples=\"" + std::to_string(tuples) + "\"");
  }
}

void XmlDataWriter::write(std::string_view type, std::string_view version, const std::string& dataset_attrs,
                          const std::string& piece_attrs) {
  if (o_.compress && o_.mode != XmlWriteOptions::Mode::ascii) compress_all();
  io::AtomicFile file(path_, format_);
  io::TextWriter w(file);
  w.str("<?xml version=\"1.0\"?>\n<VTKFile type=\"").str(type).str("\" version=\"").str(version).str("\" byte_order=\"");
  w.str(io::host_is_little_endian() ? "LittleEndian" : "BigEndian");
  w.str("\" header_type=\"").str(o_.header_bytes == 8 ? "UInt64" : "UInt32").str("\"");
  if (o_.compress && o_.mode != XmlWriteOptions::Mode::ascii)
    w.str(" compressor=\"").str(codec::compressor_vtk_name(o_.compressor)).str("\"");
  w.str(">\n<!--This file was created by meshio++-->\n<").str(type).str(dataset_attrs).str(">\n");
  auto put_group = [&](const Group& g) {
    w.str("<").str(g.tag).str(">\n");
    for (const OutArray& a : g.arrays) write_array(w, a);
    w.str("</").str(g.tag).str(">\n");
  };
  for (const Group& g : groups_)
    if (g.tag == "FieldData") put_group(g);
  w.str("<Piece").str(piece_attrs).str(">\n");
  for (const Group& g : groups_)
    if (g.tag != "FieldData" && !g.arrays.empty()) put_group(g);
  w.str("</Piece>\n</").str(type).str(">\n");
  if (o_.mode == XmlWriteOptions::Mode::appended) {
    w.str("<AppendedData encoding=\"raw\">\n_");
    w.flush();
    // The payloads in the order their DataArray elements were written (offsets above).
    for (const Group& g : groups_)
      if (g.tag == "FieldData")
        for (const OutArray& a : g.arrays) write_raw_payload(file, a);
    for (const Group& g : groups_)
      if (g.tag != "FieldData")
        for (const OutArray& a : g.arrays) write_raw_payload(file, a);
    w.str("\n</AppendedData>\n");
  }
  w.str("</VTKFile>\n");
  w.flush();
  file.commit();
}

void XmlDataWriter::compress_all() {
  if (!codec::compressor_available(o_.compressor))
    throw write_error(format_, path_, "compression='" + std::string(codec::compressor_name(o_.compressor)) +
                                         "' needs a library meshio++ was built without (rebuild with " +
                                         std::string(codec::compressor_package(o_.compressor)) + ")");
  // One job list over every block of every array: one parallel loop for the file.
  std::vector<std::pair<OutArray*, std::size_t>> jobs;
  for (Group& g : groups_)
    for (OutArray& a : g.arrays) {
      const std::size_t n = a.data.nbytes();
      const std::size_t nb = (n + kBlockSize - 1) / kBlockSize;
      a.blocks.resize(nb);
      for (std::size_t b = 0; b < nb; ++b) jobs.emplace_back(&a, b);
    }
  parallel_for(jobs.size(), o_.threads, [&](std::size_t j) {
    auto [a, b] = jobs[j];
    const auto* bytes = static_cast<const unsigned char*>(a->data.raw());
    const std::size_t n = a->data.nbytes(), begin = b * kBlockSize;
    a->blocks[b] = codec::compress(o_.compressor, bytes + begin, std::min(kBlockSize, n - begin), o_.level);
  });
}

void XmlDataWriter::put_header_value(std::vector<unsigned char>& h, std::uint64_t v) const {
  if (o_.header_bytes == 8) {
    const std::size_t at = h.size();
    h.resize(at + 8);
    std::memcpy(h.data() + at, &v, 8);
  } else {
    if (v > 0xFFFFFFFFull)
      throw write_error(format_, path_, "an array of " + std::to_string(v) + " bytes needs header_type=\"UInt64\"");
    const auto v32 = static_cast<std::uint32_t>(v);
    const std::size_t at = h.size();
    h.resize(at + 4);
    std::memcpy(h.data() + at, &v32, 4);
  }
}

std::vector<unsigned char> XmlDataWriter::header_of(const OutArray& a) const {
  std::vector<unsigned char> h;
  const std::size_t n = a.data.nbytes();
  if (!o_.compress) {
    put_header_value(h, n);
    return h;
  }
  const std::size_t nb = a.blocks.size();
  put_header_value(h, nb);
  put_header_value(h, kBlockSize);
  put_header_value(h, nb == 0 ? 0 : n - (nb - 1) * kBlockSize);
  for (const auto& b : a.blocks) put_header_value(h, b.size());
  return h;
}

std::size_t XmlDataWriter::payload_size(const OutArray& a) const {
  std::size_t n = header_of(a).size();
  if (!o_.compress) return n + a.data.nbytes();
  for (const auto& b : a.blocks) n += b.size();
  return n;
}

void XmlDataWriter::write_array(io::TextWriter& w, const OutArray& a) {
  w.str("<DataArray ").str(a.attrs);
  if (o_.mode == XmlWriteOptions::Mode::appended) {
    w.str(" format=\"appended\" offset=\"").integer(appended_offset_).str("\"/>\n");
    appended_offset_ += payload_size(a);
    return;
  }
  if (o_.mode == XmlWriteOptions::Mode::binary) {
    w.str(" format=\"binary\">\n");
    // Encoded straight into the file a window at a time (no copy of the data, no whole text).
    codec::Base64Writer text([&](const char* chars, std::size_t n) { w.bytes(chars, n); }, o_.threads);
    const auto h = header_of(a);
    text.append(h.data(), h.size());
    if (!o_.compress) {
      // meshio and VTK both read header + data as one base64 stream.
      text.append(a.data.raw(), a.data.nbytes());
    } else {
      // VTK's layout: the header and the compressed blocks as two base64 streams.
      text.finish();
      for (const auto& b : a.blocks) text.append(b.data(), b.size());
    }
    text.finish();
    w.str("\n</DataArray>\n");
    return;
  }
  w.str(" format=\"ascii\">\n");
  io::write_ascii(w, a.data, o_.float_format, {std::max<std::size_t>(a.comps, 1), " ", true});
  w.str("</DataArray>\n");
}

void XmlDataWriter::write_raw_payload(io::AtomicFile& f, const OutArray& a) const {
  const auto h = header_of(a);
  f.write(h.data(), h.size());
  if (!o_.compress) {
    if (a.data.nbytes()) f.write(a.data.raw(), a.data.nbytes());
    return;
  }
  for (const auto& b : a.blocks) f.write(b.data(), b.size());
}

}  // namespace meshioplusplus::vtk
