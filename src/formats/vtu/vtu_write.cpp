// meshio++ VTU writer: VTK XML UnstructuredGrid, version 1.0.
// Spec: https://docs.vtk.org/en/latest/design_documents/VTKFileFormats.html#xml-file-formats
//
// Options (meshio's names first):
//   binary=true             false -> data_mode "ascii"
//   compression="zlib"      "zlib", "lzma", "lz4" or None (core/codec/compressor.hpp)
//   data_mode               "ascii" | "binary" (inline base64) | "appended" (raw bytes)
//   header_type="UInt64"    or "UInt32"; None (meshio's default) means UInt64
//   compression_level       0..9; zlib: 1 by default (VTK's own writer uses 5, meshio 6),
//                           level 1 uses zlib's Z_RLE strategy (twice as fast, ~3% larger);
//                           lzma: xz preset, 6 by default (Python's lzma, so meshio);
//                           lz4: acceleration 10 - level, 9 by default (acceleration 1)
//   threads=0               compression threads (0 = all cores); output never depends on it
//   float_fmt=""            ASCII floats: meshio's float_fmt ("" = shortest round-trip)
//
// Compressed arrays are cut into 32 KiB blocks (VTK's default) that are compressed
// independently, all arrays' blocks in one parallel loop, so the file is byte-identical
// whatever the thread count. Byte order is the host's (LittleEndian on x86/ARM).
#include <cstring>

#include "core/codec/base64.hpp"
#include "core/parallel.hpp"
#include "core/codec/compressor.hpp"
#include "core/io/array_writer.hpp"
#include "core/io/byteorder.hpp"
#include "core/io/file.hpp"
#include "core/io/text_writer.hpp"
#include "core/io/xml.hpp"
#include "formats/vtk_common/cell_blocks.hpp"
#include "formats/vtk_common/vtk_cells.hpp"
#include "formats/vtu/vtu_internal.hpp"
#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/mesh_ops.hpp"

namespace meshioplusplus::vtu {

namespace {

constexpr std::size_t kBlockSize = 32768;

const char* vtu_type_name(DType d) {
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

struct OutArray {
  std::string attrs;      // type, Name, NumberOfComponents, ...
  NDArray data;           // contiguous values
  std::size_t comps = 1;  // values per line in ASCII
  // Compressed payload: one zlib stream per block.
  std::vector<std::vector<unsigned char>> blocks;
  std::size_t first_job = 0;
};

enum class Mode { ascii, binary, appended };

class Writer {
 public:
  Writer(const std::string& path, const Mesh& mesh, Mode mode, bool compress, std::size_t header_bytes, int level,
         unsigned threads, io::FloatFormat ff, codec::Compressor compressor)
      : path_(path), mesh_(mesh), mode_(mode), compress_(compress), header_bytes_(header_bytes), level_(level), threads_(threads), ff_(ff),
        compressor_(compressor) {}

  // VTK 9.1 changed the node order of high-order VTK_LAGRANGE_HEXAHEDRON cells and
  // converts files whose VTKFile version is below 2.2 from the old order; the tables write
  // the current order, so such a file must say 2.2, as VTK's own writer does. Every other
  // file says 1.0, which meshio 5 also reads (it refuses 2.2).
  const char* file_version() const {
    for (const CellBlock& b : mesh_.cells)
      if (vtk::vtk_type_for(b.type).id == vtk::kLagrangeHexahedron && b.nodes_per_cell() > 8) return "2.2";
    return "1.0";
  }

  void write() {
    collect();
    if (compress_ && mode_ != Mode::ascii) compress_all();
    io::AtomicFile file(path_, "vtu");
    io::TextWriter w(file);
    w.str("<?xml version=\"1.0\"?>\n<VTKFile type=\"UnstructuredGrid\" version=\"").str(file_version()).str("\" byte_order=\"");
    w.str(io::host_is_little_endian() ? "LittleEndian" : "BigEndian");
    w.str("\" header_type=\"").str(header_bytes_ == 8 ? "UInt64" : "UInt32").str("\"");
    if (compress_ && mode_ != Mode::ascii) w.str(" compressor=\"").str(codec::compressor_vtk_name(compressor_)).str("\"");
    w.str(">\n<!--This file was created by meshio++-->\n<UnstructuredGrid>\n");
    std::size_t k = 0;
    auto group = [&](const char* tag, std::size_t count, const char* indent) {
      if (count == 0) return;
      w.str(indent).str("<").str(tag).str(">\n");
      for (std::size_t i = 0; i < count; ++i) write_array(w, arrays_[k++]);
      w.str(indent).str("</").str(tag).str(">\n");
    };
    group("FieldData", n_field_, "");
    w.str("<Piece NumberOfPoints=\"").integer(mesh_.num_points()).str("\" NumberOfCells=\"").integer(num_cells_).str("\">\n");
    group("Points", 1, "");
    group("Cells", n_cells_arrays_, "");
    group("PointData", n_point_, "");
    group("CellData", n_cell_, "");
    w.str("</Piece>\n</UnstructuredGrid>\n");
    if (mode_ == Mode::appended) {
      w.str("<AppendedData encoding=\"raw\">\n_");
      w.flush();
      for (auto& a : arrays_) write_raw_payload(file, a);
      w.str("\n</AppendedData>\n");
    }
    w.str("</VTKFile>\n");
    w.flush();
    file.commit();
  }

 private:
  void add(std::string name, NDArray data, const char* extra_attr = nullptr) {
    OutArray a;
    const std::size_t comps = data.ndim() >= 2 ? data.row_size() : 1;
    a.attrs = "type=\"" + std::string(vtu_type_name(data.dtype())) + "\" Name=\"" + io::xml_escape(name) + "\"";
    if (data.ndim() >= 2) a.attrs += " NumberOfComponents=\"" + std::to_string(comps) + "\"";
    if (extra_attr) a.attrs += extra_attr;
    a.comps = comps;
    a.data = std::move(data);
    arrays_.push_back(std::move(a));
  }

  void collect() {
    for (const auto& [name, a] : mesh_.field_data) {
      const std::size_t tuples = a.ndim() == 0 ? 1 : a.dim(0);
      const std::string extra = " NumberOfTuples=\"" + std::to_string(tuples) + "\"";
      add(name, a, extra.c_str());
    }
    n_field_ = arrays_.size();
    // Points: VTK wants 3 coordinates.
    const NDArray pts = vtk::points_3d(mesh_.points);
    add("Points", pts.ndim() == 2 ? pts : pts.reshaped({pts.dim(0), 3}));
    // Cells.
    vtk::FlatOut flat = vtk::flat_from_blocks(mesh_.cells, false, "vtu", path_);
    num_cells_ = flat.types.size();
    const std::size_t before = arrays_.size();
    add("connectivity", flat.connectivity);
    std::vector<std::int64_t> ends(flat.offsets.begin() + 1, flat.offsets.end());
    add("offsets", NDArray::from_vector(ends));
    add("types", NDArray::from_vector(flat.types));
    if (flat.has_polyhedra) {
      add("faces", NDArray::from_vector(flat.face_stream));
      add("faceoffsets", NDArray::from_vector(flat.face_ends));
    }
    n_cells_arrays_ = arrays_.size() - before;
    for (const auto& [name, a] : mesh_.point_data) add(name, a);
    n_point_ = arrays_.size() - before - n_cells_arrays_;
    for (const auto& [name, list] : mesh_.cell_data) add(name, vtk::concat_cell_data(name, list, "vtu", path_));
    n_cell_ = arrays_.size() - before - n_cells_arrays_ - n_point_;
  }

  void compress_all() {
    if (!codec::compressor_available(compressor_))
      throw write_error("vtu", path_, "compression='" + std::string(codec::compressor_name(compressor_)) +
                        "' needs a library meshio++ was built without (rebuild with " +
                        std::string(codec::compressor_package(compressor_)) + ")");
    // One job list over every block of every array: one parallel loop for the file.
    std::vector<std::pair<std::size_t, std::size_t>> jobs;
    for (std::size_t i = 0; i < arrays_.size(); ++i) {
      const std::size_t n = arrays_[i].data.nbytes();
      const std::size_t nb = (n + kBlockSize - 1) / kBlockSize;
      arrays_[i].blocks.resize(nb);
      for (std::size_t b = 0; b < nb; ++b) jobs.emplace_back(i, b);
    }
    parallel_for(jobs.size(), threads_, [&](std::size_t j) {
      auto [i, b] = jobs[j];
      const auto* bytes = static_cast<const unsigned char*>(arrays_[i].data.raw());
      const std::size_t n = arrays_[i].data.nbytes(), begin = b * kBlockSize;
      arrays_[i].blocks[b] = codec::compress(compressor_, bytes + begin, std::min(kBlockSize, n - begin), level_);
    });
  }

  void put_header_value(std::vector<unsigned char>& h, std::uint64_t v) const {
    if (header_bytes_ == 8) {
      const std::size_t at = h.size();
      h.resize(at + 8);
      std::memcpy(h.data() + at, &v, 8);
    } else {
      if (v > 0xFFFFFFFFull) throw write_error("vtu", path_, "an array of " + std::to_string(v) + " bytes needs header_type=\"UInt64\"");
      const auto v32 = static_cast<std::uint32_t>(v);
      const std::size_t at = h.size();
      h.resize(at + 4);
      std::memcpy(h.data() + at, &v32, 4);
    }
  }

  std::vector<unsigned char> header_of(const OutArray& a) const {
    std::vector<unsigned char> h;
    const std::size_t n = a.data.nbytes();
    if (!compress_) {
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

  std::size_t payload_size(const OutArray& a) const {
    std::size_t n = header_of(a).size();
    if (!compress_) return n + a.data.nbytes();
    for (const auto& b : a.blocks) n += b.size();
    return n;
  }

  void write_array(io::TextWriter& w, OutArray& a) {
    w.str("<DataArray ").str(a.attrs);
    if (mode_ == Mode::appended) {
      w.str(" format=\"appended\" offset=\"").integer(appended_offset_).str("\"/>\n");
      appended_offset_ += payload_size(a);
      return;
    }
    if (mode_ == Mode::binary) {
      w.str(" format=\"binary\">\n");
      const auto h = header_of(a);
      std::string text;
      if (!compress_) {
        // meshio and VTK both read header + data as one base64 stream.
        std::vector<unsigned char> all(h.size() + a.data.nbytes());
        std::memcpy(all.data(), h.data(), h.size());
        if (a.data.nbytes()) std::memcpy(all.data() + h.size(), a.data.raw(), a.data.nbytes());
        encode_parallel(text, all.data(), all.size());
      } else {
        // VTK's layout: the header and the compressed blocks as two base64 streams.
        codec::base64_append(text, h.data(), h.size());
        std::size_t total = 0;
        for (const auto& b : a.blocks) total += b.size();
        std::vector<unsigned char> all;
        all.reserve(total);
        for (const auto& b : a.blocks) all.insert(all.end(), b.begin(), b.end());
        std::string data_text;
        encode_parallel(data_text, all.data(), all.size());
        text += data_text;
      }
      w.str(text).str("\n</DataArray>\n");
      return;
    }
    w.str(" format=\"ascii\">\n");
    io::write_ascii(w, a.data, ff_, {std::max<std::size_t>(a.comps, 1), " ", true});
    w.str("</DataArray>\n");
  }

  // Base64 of large buffers in parallel chunks (multiples of 3 bytes: identical output).
  void encode_parallel(std::string& out, const unsigned char* data, std::size_t n) const {
    out.resize(codec::base64_encoded_size(n));
    constexpr std::size_t chunk = 3 << 18;
    const std::size_t nchunks = (n + chunk - 1) / chunk;
    parallel_for(nchunks, n > (4u << 20) ? threads_ : 1, [&](std::size_t c) {
      const std::size_t b = c * chunk;
      codec::base64_encode(data + b, std::min(chunk, n - b), out.data() + b / 3 * 4);
    });
  }

  void write_raw_payload(io::AtomicFile& f, const OutArray& a) {
    const auto h = header_of(a);
    f.write(h.data(), h.size());
    if (!compress_) {
      if (a.data.nbytes()) f.write(a.data.raw(), a.data.nbytes());
      return;
    }
    for (const auto& b : a.blocks) f.write(b.data(), b.size());
  }

  const std::string& path_;
  const Mesh& mesh_;
  Mode mode_;
  bool compress_;
  std::size_t header_bytes_;
  int level_;
  unsigned threads_;
  io::FloatFormat ff_;
  codec::Compressor compressor_;
  std::vector<OutArray> arrays_;
  std::size_t n_field_ = 0, n_cells_arrays_ = 0, n_point_ = 0, n_cell_ = 0, num_cells_ = 0;
  std::size_t appended_offset_ = 0;
};

}  // namespace

void write_vtu(const std::string& path, const Mesh& input, const Options& options) {
  const Mesh mesh = sets_as_data(input);  // VTU has no sets: meshio writes them as int data
  OptionReader opts(options, "vtu");
  const bool binary = opts.get_bool("binary", true);
  std::string compression = opts.get_string("compression", "zlib");
  std::string data_mode = opts.get_string("data_mode", binary ? "binary" : "ascii");
  std::string header_type = opts.get_string("header_type", "UInt64");
  if (header_type == "None") header_type = "UInt64";  // meshio's header_type=None: the writer's choice
  auto compressor = codec::compressor_from_name(compression);
  if (!compressor) compressor = codec::compressor_from_vtk_name(compression);
  const long long default_level = !compressor ? 1 : *compressor == codec::Compressor::lzma ? 6 : *compressor == codec::Compressor::lz4 ? 9 : 1;
  const long long level = opts.get_int("compression_level", default_level);
  const std::string float_fmt = opts.get_string("float_fmt", "");
  opts.finish();
  Mode mode;
  if (data_mode == "ascii") mode = Mode::ascii;
  else if (data_mode == "binary") mode = Mode::binary;
  else if (data_mode == "appended" || data_mode == "raw") mode = Mode::appended;
  else throw std::invalid_argument("vtu: option 'data_mode': expected ascii, binary or appended, found '" + data_mode + "'");
  bool compress = false;
  if (compressor) compress = true;
  else if (compression == "None" || compression == "none" || compression.empty() || compression == "false") compress = false;
  else throw std::invalid_argument("vtu: compression '" + compression + "' is not supported (use \"zlib\", \"lzma\", \"lz4\" or None)");
  if (header_type != "UInt32" && header_type != "UInt64")
    throw std::invalid_argument("vtu: option 'header_type': expected UInt32 or UInt64, found '" + header_type + "'");
  if (level < 0 || level > 9) throw std::invalid_argument("vtu: option 'compression_level': expected 0..9");
  if (mode == Mode::ascii) compress = false;
  Writer(path, mesh, mode, compress, header_type == "UInt64" ? 8 : 4, static_cast<int>(level), opts.threads(),
         io::FloatFormat::parse(float_fmt), compressor.value_or(codec::Compressor::zlib))
      .write();
}

}  // namespace meshioplusplus::vtu
