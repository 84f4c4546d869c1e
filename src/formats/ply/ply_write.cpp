// meshio++ PLY writer: binary (little-endian, the default, as meshio) or ASCII.
// Spec: http://paulbourke.net/dataformats/ply/
//
// Option: binary=true (meshio's keyword and default). Like meshio's writer: one "vertex"
// element with x, y (, z) in the points' type and every 1-D point_data array as a property
// under its name (arrays of more dimensions are skipped with a warning); one "face"
// element with "property list uint8 int32 vertex_indices" over the vertex, line,
// triangle, quad and polygon blocks in block order (other cell types are skipped with a
// warning); the type names are meshio's (int8 ... uint64, float, double). Beyond meshio:
// 1-D cell_data arrays (one dtype over the blocks written) become face properties after
// the list, the count type widens past 255 vertices and the index type past 2^31 points,
// and field_data "ply:comment" / "ply:obj_info" are written back as header lines.
#include <algorithm>
#include <cstring>
#include <vector>

#include "core/io/array_writer.hpp"
#include "core/io/cursor.hpp"
#include "core/io/byteorder.hpp"
#include "core/io/file.hpp"
#include "core/io/text_writer.hpp"
#include "formats/ply/ply_internal.hpp"
#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/warnings.hpp"

namespace meshioplusplus::ply {

namespace {

bool face_type(const std::string& t) {
  return t == "vertex" || t == "line" || t == "triangle" || t == "quad" || t == "polygon";
}

void check_name(const std::string& path, const std::string& what, const std::string& name) {
  bool ok = !name.empty();
  for (char c : name) ok = ok && !io::is_space(c);
  if (!ok) throw WriteError(error_message("ply", path, {}, what + " name '" + name + "' is empty or has whitespace, which a PLY header cannot hold"));
}

// One column of a record: where its values are and how wide each is.
struct Col {
  const char* base;
  std::size_t stride;  // bytes between rows
  std::size_t width;
  DType type;
};

void put_ascii(io::TextWriter& w, const char* p, DType t, const io::FloatFormat& ff) {
  visit_dtype(t, [&](auto tag) {
    using T = decltype(tag);
    T v;
    std::memcpy(&v, p, sizeof v);
    if constexpr (std::is_floating_point_v<T>) w.real(v, ff);
    else if constexpr (sizeof(T) == 1) w.integer(static_cast<int>(v));
    else w.integer(v);
  });
}

// The face list of one cell: its node count and nodes (row of a rectangular block or a
// ragged polygon).
struct FaceSource {
  const CellBlock* block;
  NDArray conn;  // int64 rectangular connectivity or ragged indices
  const std::int64_t* offsets = nullptr;
};

class Writer {
 public:
  Writer(const std::string& path, const Mesh& mesh, bool binary) : path_(path), mesh_(mesh), binary_(binary) {}

  void write() {
    const std::size_t n = mesh_.num_points();
    const std::size_t dim = mesh_.points.dim(1);
    // vertex columns
    const std::size_t pw = dtype_size(mesh_.points.dtype());
    for (std::size_t c = 0; c < dim; ++c)
      vcols_.push_back({static_cast<const char*>(mesh_.points.raw()) + c * pw, dim * pw, pw, mesh_.points.dtype()});
    std::vector<std::pair<std::string, DType>> vprops;
    static const char* xyz[3] = {"x", "y", "z"};
    for (std::size_t c = 0; c < dim; ++c) vprops.emplace_back(xyz[c], mesh_.points.dtype());
    for (const auto& [name, a] : mesh_.point_data) {
      if (a.ndim() != 1) {
        warn("ply: PLY writer doesn't support multidimensional point data; skipping '" + name + "'");
        continue;
      }
      check_name(path_, "point_data", name);
      vcols_.push_back({static_cast<const char*>(a.raw()), dtype_size(a.dtype()), dtype_size(a.dtype()), a.dtype()});
      vprops.emplace_back(name, a.dtype());
    }
    // face blocks
    std::uint64_t nfaces = 0, max_k = 0;
    for (std::size_t b = 0; b < mesh_.cells.size(); ++b) {
      const CellBlock& blk = mesh_.cells[b];
      if (!face_type(blk.type)) {
        warn("ply: cell type '" + blk.type + "' is not supported by the PLY format; skipping");
        continue;
      }
      blocks_.push_back(b);
      nfaces += blk.size();
      if (!blk.ragged) {
        max_k = std::max<std::uint64_t>(max_k, blk.connectivity.dim(1));
      } else {
        const NDArray off = blk.offsets.as_dtype(DType::int64);
        const auto* o = off.data<std::int64_t>();
        for (std::size_t i = 0; i + 1 < off.size(); ++i) max_k = std::max<std::uint64_t>(max_k, static_cast<std::uint64_t>(o[i + 1] - o[i]));
      }
    }
    // cell data: 1-D in every block written, one dtype
    std::vector<std::pair<std::string, DType>> fprops;
    for (const auto& [name, list] : mesh_.cell_data) {
      bool ok = !blocks_.empty();
      DType t = ok ? list[blocks_[0]].dtype() : DType::float64;
      for (std::size_t b : blocks_) ok = ok && list[b].ndim() == 1 && list[b].dtype() == t;
      if (!ok) {
        if (!blocks_.empty()) warn("ply: cell_data '" + name + "' is not one 1-D array of one dtype per face block; skipping");
        continue;
      }
      check_name(path_, "cell_data", name);
      if (name == "vertex_indices") continue;
      cdata_.push_back(&list);
      fprops.emplace_back(name, t);
    }
    count_type_ = max_k <= 0xff ? DType::uint8 : max_k <= 0xffff ? DType::uint16 : DType::uint32;
    index_type_ = n <= 0x80000000ull ? DType::int32 : n <= 0x100000000ull ? DType::uint32 : DType::int64;

    io::AtomicFile file(path_, "ply");
    io::TextWriter w(file);
    w.str("ply\n");
    w.str(binary_ ? (io::host_is_little_endian() ? "format binary_little_endian 1.0\n" : "format binary_big_endian 1.0\n") : "format ascii 1.0\n");
    if (!header_lines(w, kCommentKey, "comment")) w.str("comment Created by meshioplusplus\n");
    header_lines(w, kObjInfoKey, "obj_info");
    w.str("element vertex ").integer(n).ch('\n');
    for (const auto& [name, t] : vprops) w.str("property ").str(type_name(t)).ch(' ').str(name).ch('\n');
    if (nfaces > 0) {
      w.str("element face ").integer(nfaces).ch('\n');
      w.str("property list ").str(type_name(count_type_)).ch(' ').str(type_name(index_type_)).str(" vertex_indices\n");
      for (const auto& [name, t] : fprops) w.str("property ").str(type_name(t)).ch(' ').str(name).ch('\n');
    }
    w.str("end_header\n");
    write_vertices(w, n);
    write_faces(w);
    w.flush();
    file.commit();
  }

 private:
  // "comment ..." lines from a field_data byte array, one per '\n'-separated line.
  bool header_lines(io::TextWriter& w, const char* key, const char* keyword) {
    auto it = mesh_.field_data.find(key);
    if (it == mesh_.field_data.end()) return false;
    const NDArray& a = it->second;
    if (a.dtype() != DType::uint8 && a.dtype() != DType::int8) {
      warn(std::string("ply: field_data '") + key + "' is not a uint8 array of text; not written");
      return false;
    }
    std::string_view text(static_cast<const char*>(a.raw()), a.size());
    for (;;) {
      const auto nl = text.find('\n');
      std::string_view line = text.substr(0, nl);
      w.str(keyword);
      if (!line.empty()) w.ch(' ').str(line);
      w.ch('\n');
      if (nl == std::string_view::npos) break;
      text.remove_prefix(nl + 1);
    }
    return true;
  }

  void write_vertices(io::TextWriter& w, std::size_t n) {
    if (binary_) {
      if (vcols_.size() == mesh_.points.dim(1)) {  // the points are the records
        io::write_binary(w, mesh_.points, io::host_is_little_endian());
        return;
      }
      std::size_t rec = 0;
      for (const Col& c : vcols_) rec += c.width;
      constexpr std::size_t chunk_rows = 1 << 14;
      std::vector<char> buf(rec * std::min(n, chunk_rows));
      for (std::size_t r0 = 0; r0 < n; r0 += chunk_rows) {
        const std::size_t rows = std::min(chunk_rows, n - r0);
        std::size_t off = 0;
        for (const Col& c : vcols_) {
          for (std::size_t i = 0; i < rows; ++i) std::memcpy(buf.data() + i * rec + off, c.base + (r0 + i) * c.stride, c.width);
          off += c.width;
        }
        w.bytes(buf.data(), rows * rec);
      }
      return;
    }
    const io::FloatFormat ff;
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t c = 0; c < vcols_.size(); ++c) {
        if (c) w.ch(' ');
        put_ascii(w, vcols_[c].base + i * vcols_[c].stride, vcols_[c].type, ff);
      }
      w.ch('\n');
    }
  }

  // Face records built in a bounded scratch buffer, a chunk of faces at a time, each value
  // stored through a pointer (no per-value container growth).
  template <class C, class I> void faces_binary(io::TextWriter& w) {
    constexpr std::size_t chunk = 1 << 15;  // faces per chunk
    std::vector<char> buf;
    std::size_t cd_width = 0;
    for (const auto* list : cdata_) cd_width += dtype_size((*list)[blocks_[0]].dtype());
    for (std::size_t b : blocks_) {
      const CellBlock& blk = mesh_.cells[b];
      const NDArray conn = (blk.ragged ? blk.indices : blk.connectivity).as_dtype(DType::int64);
      const NDArray off = blk.ragged ? blk.offsets.as_dtype(DType::int64) : NDArray();
      const std::int64_t* idx = conn.data<std::int64_t>();
      const std::int64_t* o = blk.ragged ? off.data<std::int64_t>() : nullptr;
      const std::size_t m = blk.size();
      const std::size_t k0 = blk.ragged ? 0 : blk.connectivity.dim(1);
      for (std::size_t i0 = 0; i0 < m; i0 += chunk) {
        const std::size_t rows = std::min(chunk, m - i0);
        const std::size_t nidx = blk.ragged ? static_cast<std::size_t>(o[i0 + rows] - o[i0]) : rows * k0;
        buf.resize(rows * (sizeof(C) + cd_width) + nidx * sizeof(I));
        char* q = buf.data();
        for (std::size_t i = i0; i < i0 + rows; ++i) {
          const std::size_t begin = o ? static_cast<std::size_t>(o[i]) : i * k0;
          const std::size_t k = o ? static_cast<std::size_t>(o[i + 1]) - begin : k0;
          const C count = static_cast<C>(k);
          std::memcpy(q, &count, sizeof count);
          q += sizeof count;
          for (std::size_t j = 0; j < k; ++j, q += sizeof(I)) {
            const I v = static_cast<I>(idx[begin + j]);
            std::memcpy(q, &v, sizeof v);
          }
          for (const auto* list : cdata_) {
            const NDArray& a = (*list)[b];
            const std::size_t width = dtype_size(a.dtype());
            std::memcpy(q, static_cast<const char*>(a.raw()) + i * width, width);
            q += width;
          }
        }
        w.bytes(buf.data(), static_cast<std::size_t>(q - buf.data()));
      }
    }
  }

  void write_faces(io::TextWriter& w) {
    if (blocks_.empty()) return;
    if (binary_) {
      // The file's byte order is the host's (as meshio): values are stored as they are.
      visit_dtype(count_type_, [&](auto c) {
        visit_dtype(index_type_, [&](auto i) {
          if constexpr (std::is_integral_v<decltype(c)> && std::is_integral_v<decltype(i)>) faces_binary<decltype(c), decltype(i)>(w);
        });
      });
      return;
    }
    const io::FloatFormat ff;
    for (std::size_t b : blocks_) {
      const CellBlock& blk = mesh_.cells[b];
      const NDArray conn = (blk.ragged ? blk.indices : blk.connectivity).as_dtype(DType::int64);
      const NDArray off = blk.ragged ? blk.offsets.as_dtype(DType::int64) : NDArray();
      const auto* idx = conn.data<std::int64_t>();
      const std::size_t k0 = blk.ragged ? 0 : blk.connectivity.dim(1);
      for (std::size_t i = 0; i < blk.size(); ++i) {
        const std::size_t begin = blk.ragged ? static_cast<std::size_t>(off.data<std::int64_t>()[i]) : i * k0;
        const std::size_t k = blk.ragged ? static_cast<std::size_t>(off.data<std::int64_t>()[i + 1]) - begin : k0;
        w.integer(k);
        for (std::size_t j = 0; j < k; ++j) w.ch(' ').integer(idx[begin + j]);
        for (const auto* list : cdata_) {
          const NDArray& a = (*list)[b];
          w.ch(' ');
          put_ascii(w, static_cast<const char*>(a.raw()) + i * dtype_size(a.dtype()), a.dtype(), ff);
        }
        w.ch('\n');
      }
    }
  }

  const std::string& path_;
  const Mesh& mesh_;
  bool binary_;
  std::vector<Col> vcols_;
  std::vector<std::size_t> blocks_;
  std::vector<const std::vector<NDArray>*> cdata_;
  DType count_type_ = DType::uint8;
  DType index_type_ = DType::int32;
};

}  // namespace

void write_ply(const std::string& path, const Mesh& mesh, const Options& options) {
  OptionReader opts(options, "ply");
  const bool binary = opts.get_bool("binary", true);
  opts.finish();
  Writer(path, mesh, binary).write();
}

}  // namespace meshioplusplus::ply
