// meshio++ UGRID reader: ASCII and the binary variants (C stream and Fortran unformatted,
// either byte order, 4- or 8-byte reals, 32- or 64-bit integers), chosen by the name.
// Spec: https://www.simcenter.msstate.edu/software/documentation/ug_io/3d_grid_file_type_ugrid.html
//
// Layout: the seven counts (nodes, surface triangles, surface quads, tetrahedra, pyramids,
// prisms, hexahedra), the coordinates (x y z per node), the triangles and quads (1-based
// node indices), one surface ID per triangle then per quad, then the volume elements. A
// Fortran file holds the counts in one record and the rest in a second, each framed by
// an int32 byte count; a framing count that does not match the data is read anyway with a
// warning (meshio 5 writes such counts), a closing count that differs from its opening one
// is an error. What follows the hexahedra (UGRID's optional boundary-layer data) is
// skipped with a warning.
//
// Arrays, as meshio's: points float32 for 4-byte reals, else float64 (ASCII: float64, where
// meshio reads float32); connectivity int64, 0-based, pyramids in VTK's order; cell data
// ugrid:ref holds the surface IDs of triangles and quads and zeros for volume elements
// (int32, int64 for the 64-bit-integer variants). Each surface ID is also a cell region
// "ugrid_ref_2_<id>" (add_ref_regions). Binary sections are decoded straight into those
// arrays in one pass (decode_indices), read with pread a chunk at a time on several threads
// (core/io/section_reader.hpp), the coordinates straight into the points; the counts, markers
// and surface IDs with pread too (Cursor::load_through): the mapping is never touched.
//
// Safe for untrusted input: the counts are checked against the bytes (or text) left before
// anything is allocated, every index against the node count, every read is bounded.
#include <algorithm>
#include <cstring>
#include <vector>

#include "core/io/cursor.hpp"
#include "core/io/decode.hpp"
#include "core/io/file.hpp"
#include "core/io/section_reader.hpp"
#include "core/ref_regions.hpp"
#include "formats/ugrid/ugrid_internal.hpp"
#include "meshioplusplus/warnings.hpp"

namespace meshioplusplus::ugrid {

namespace {

constexpr const char* kCountNames[7] = {"node count", "triangle count", "quad count", "tetrahedron count",
                                        "pyramid count", "prism count", "hexahedron count"};

template <class I, bool Swap>
void decode_permuted(std::int64_t* out, const char* src, std::size_t rows, std::size_t k, const int* perm) {
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < k; ++j)
      out[i * k + j] = static_cast<std::int64_t>(io::load_as<I, Swap>(src + (i * k + static_cast<std::size_t>(perm[j])) * sizeof(I))) - 1;
}

class Reader {
 public:
  Reader(const std::string& path, unsigned threads)
      : file_(path, "ugrid", /*populate=*/!variant_of(path).binary), cur_(file_.text(), "ugrid", path), var_(variant_of(path)), path_(path), threads_(threads) {
    if (var_.binary) cur_.load_through(file_);
  }

  Mesh read() {
    if (var_.binary) read_binary();
    else read_ascii();
    return build();
  }

 private:
  // --- binary --------------------------------------------------------------------------
  std::int64_t load_int(std::string_view what) {
    return var_.int_bytes == 8 ? cur_.load<std::int64_t>(what) : cur_.load<std::int32_t>(what);
  }

  // A Fortran record's opening byte count.
  std::int32_t open_record(std::string_view what) {
    return cur_.load<std::int32_t>(what);
  }
  void close_record(std::int32_t opened, std::string_view what) {
    const char* at = cur_.ptr();
    const auto closed = cur_.load<std::int32_t>(what);
    if (closed != opened)
      cur_.fail_at("expected the closing record marker " + std::to_string(opened) + " of the " + std::string(what) + ", found " +
                       std::to_string(closed),
                   at);
  }

  void read_binary() {
    cur_.set_little_endian(var_.little);
    swap_ = var_.little != io::host_is_little_endian();
    const std::size_t ib = static_cast<std::size_t>(var_.int_bytes), rb = static_cast<std::size_t>(var_.real_bytes);
    std::int32_t header_marker = 0;
    if (var_.fortran) header_marker = open_record("record marker of the counts");
    for (int i = 0; i < 7; ++i) {
      const char* at = cur_.ptr();
      const std::int64_t v = load_int(kCountNames[i]);
      if (v < 0 || static_cast<std::uint64_t>(v) > io::kMaxCount)
        cur_.fail_at("expected a " + std::string(kCountNames[i]) + " from 0 to 2^48, found " + std::to_string(v), at);
      counts_[i] = static_cast<std::size_t>(v);
    }
    if (var_.fortran) {
      if (header_marker != static_cast<std::int32_t>(7 * ib))
        warn("ugrid: " + path_ + ": the counts' record marker says " + std::to_string(header_marker) + " bytes, the counts are " +
             std::to_string(7 * ib) + " (read anyway)");
      close_record(header_marker, "counts");
    }
    std::int32_t body_marker = 0;
    const char* body_at = nullptr;
    if (var_.fortran) {
      body_marker = open_record("record marker of the nodes and elements");
      body_at = cur_.ptr();
    }
    // Every count is at most 2^48 and every row at most 24 bytes: the sum cannot overflow.
    std::uint64_t body = counts_[0] * 3 * rb + (counts_[1] + counts_[2]) * ib;
    for (std::size_t s = 0; s < kSections.size(); ++s) body += counts_[s + 1] * static_cast<std::size_t>(kSections[s].nodes) * ib;
    if (body > cur_.left())
      cur_.fail("the counts declare " + std::to_string(counts_[0]) + " nodes and " + std::to_string(elements()) + " elements, " +
                std::to_string(body) + " bytes, but only " + std::to_string(cur_.left()) + " bytes remain");

    const std::size_t n = counts_[0];
    points_ = NDArray::uninit(rb == 4 ? DType::float32 : DType::float64, {n, 3});
    const std::size_t points_at = cur_.offset();
    cur_.take(n * 3 * rb, "coordinates");
    io::read_values(file_, points_at, n * 3, rb, swap_, threads_, points_.raw());
    if (ib == 4) sections<std::int32_t>();
    else sections<std::int64_t>();

    if (var_.fortran) {
      // The closing marker right after the hexahedra, or where the opening marker says the
      // record ends (optional sections inside the record are skipped).
      const std::uint64_t declared = static_cast<std::uint32_t>(body_marker);
      const std::size_t body_off = static_cast<std::size_t>(body_at - cur_.begin());
      if (cur_.left() >= 4 && io::load<std::int32_t>(file_.bytes_at(cur_.offset(), 4), var_.little) == body_marker) {
        if (declared != body)
          warn("ugrid: " + path_ + ": the record marker says " + std::to_string(declared) + " bytes, the nodes and elements are " +
               std::to_string(body) + " (read anyway)");
      } else if (body_marker > 0 && declared > body && declared + 4 <= cur_.size() - body_off) {
        warn("ugrid: " + path_ + ": skipped " + std::to_string(declared - body) +
             " bytes after the hexahedra in their record (UGRID's optional sections are not read)");
        cur_.seek(body_off + declared);
      }
      close_record(body_marker, "nodes and elements");
    }
    if (!cur_.at_end())
      warn("ugrid: " + path_ + ": skipped " + std::to_string(cur_.left()) + " bytes after the hexahedra (UGRID's optional sections are not read)");
  }

  template <class I> void sections() {
    const std::size_t n = counts_[0];
    ids_.clear();
    for (std::size_t s = 0; s < kSections.size(); ++s) {
      const std::size_t m = counts_[s + 1], k = static_cast<std::size_t>(kSections[s].nodes);
      const char* at = cur_.ptr();
      cur_.take(m * k * sizeof(I), kSections[s].type);
      NDArray conn = NDArray::uninit(DType::int64, {m, k});
      std::int64_t* out = conn.data<std::int64_t>();
      const std::size_t offset = static_cast<std::size_t>(at - cur_.begin());
      if (kSections[s].type == "pyramid") {
        io::read_chunks(file_, offset, m, k * sizeof(I), threads_, [&](std::size_t, std::size_t r0, std::size_t rows, const char* src) {
          if (swap_) decode_permuted<I, true>(out + r0 * k, src, rows, k, kPyramidToVtk.data());
          else decode_permuted<I, false>(out + r0 * k, src, rows, k, kPyramidToVtk.data());
          return true;
        });
        check(conn, s, at);
      } else if (m > 0 && io::read_indices<I>(file_, offset, m * k, swap_, 1, threads_, out) >= n) {
        check(conn, s, at);
      }
      blocks_.push_back(std::move(conn));
      if (s == 1) {  // after the quads: the surface IDs of the triangles, then of the quads
        for (std::size_t f = 0; f < 2; ++f) {
          NDArray ids = NDArray::uninit(sizeof(I) == 4 ? DType::int32 : DType::int64, {counts_[f + 1]});
          cur_.read_array(ids.data<I>(), counts_[f + 1], "surface IDs");
          ids_.push_back(std::move(ids));
        }
      }
    }
  }

  // Finds the first index of section `s` outside the nodes and names it.
  void check(const NDArray& conn, std::size_t s, const char* at) {
    const std::int64_t* c = conn.data<std::int64_t>();
    const std::size_t k = static_cast<std::size_t>(kSections[s].nodes);
    for (std::size_t i = 0; i < conn.size(); ++i)
      if (static_cast<std::uint64_t>(c[i]) >= counts_[0])
        cur_.fail_at(std::string(kSections[s].type) + " " + std::to_string(i / k + 1) + " lists node " + std::to_string(c[i] + 1) +
                         ", outside 1.." + std::to_string(counts_[0]),
                     at);
  }

  std::size_t elements() const {
    std::size_t e = 0;
    for (int i = 1; i < 7; ++i) e += counts_[i];
    return e;
  }

  // --- ASCII ---------------------------------------------------------------------------
  void read_ascii() {
    for (int i = 0; i < 7; ++i) {
      const std::string_view t = cur_.token();
      counts_[i] = cur_.count(t, kCountNames[i], t.data());
    }
    const std::size_t n = counts_[0];
    std::uint64_t values = n * 3 + counts_[1] + counts_[2];
    for (std::size_t s = 0; s < kSections.size(); ++s) values += counts_[s + 1] * static_cast<std::size_t>(kSections[s].nodes);
    cur_.need_values(values, "values (coordinates, node indices and surface IDs)");
    points_ = NDArray::uninit(DType::float64, {n, 3});
    cur_.text_values(points_.data<double>(), n * 3, "coordinates");
    for (std::size_t s = 0; s < kSections.size(); ++s) {
      const std::size_t m = counts_[s + 1], k = static_cast<std::size_t>(kSections[s].nodes);
      NDArray conn = NDArray::uninit(DType::int64, {m, k});
      std::int64_t* out = conn.data<std::int64_t>();
      const bool pyramid = kSections[s].type == "pyramid";
      std::int64_t row[8];
      for (std::size_t i = 0; i < m; ++i) {
        for (std::size_t j = 0; j < k; ++j) {
          const char* at = (cur_.skip_space(), cur_.ptr());
          const std::uint64_t v = cur_.index("a node index");
          if (v == 0 || v > n)
            cur_.fail_at(std::string(kSections[s].type) + " " + std::to_string(i + 1) + " lists node " + std::to_string(v) + ", outside 1.." +
                             std::to_string(n),
                         at);
          row[j] = static_cast<std::int64_t>(v) - 1;
        }
        for (std::size_t j = 0; j < k; ++j) out[i * k + j] = pyramid ? row[kPyramidToVtk[j]] : row[j];
      }
      blocks_.push_back(std::move(conn));
      if (s == 1)
        for (std::size_t f = 0; f < 2; ++f) {
          NDArray ids = NDArray::uninit(DType::int32, {counts_[f + 1]});
          cur_.text_values(ids.data<std::int32_t>(), counts_[f + 1], "surface IDs");
          ids_.push_back(std::move(ids));
        }
    }
    cur_.skip_space();
    if (!cur_.at_end()) warn("ugrid: " + path_ + ": skipped what follows the hexahedra (UGRID's optional sections are not read)");
  }

  // --- the mesh ------------------------------------------------------------------------
  Mesh build() {
    Mesh m;
    m.points = std::move(points_);
    std::vector<NDArray> refs;
    const DType id_type = ids_.empty() ? DType::int32 : ids_.front().dtype();
    for (std::size_t s = 0; s < kSections.size(); ++s) {
      if (counts_[s + 1] == 0) continue;  // meshio leaves empty sections out
      m.cells.push_back(CellBlock::rectangular(std::string(kSections[s].type), std::move(blocks_[s])));
      refs.push_back(s < 2 ? std::move(ids_[s]) : NDArray::zeros(id_type, {counts_[s + 1]}));
    }
    std::vector<const NDArray*> surface;
    for (std::size_t b = 0; b < refs.size(); ++b) surface.push_back(m.cells[b].type == "triangle" || m.cells[b].type == "quad" ? &refs[b] : nullptr);
    add_ref_regions(m, "ugrid_ref", surface, threads_);
    if (!refs.empty()) m.cell_data["ugrid:ref"] = std::move(refs);
    return m;
  }

  io::FileBytes file_;
  io::Cursor cur_;
  const Variant& var_;
  std::string path_;
  unsigned threads_;
  bool swap_ = false;
  std::size_t counts_[7] = {};
  NDArray points_;
  std::vector<NDArray> blocks_;  // one per section, in kSections order
  std::vector<NDArray> ids_;     // surface IDs of the triangles, the quads
};

}  // namespace

Mesh read_ugrid(const std::string& path, const Options& options) {
  OptionReader opts(options, "ugrid");
  opts.finish();
  return Reader(path, opts.threads()).read();
}

}  // namespace meshioplusplus::ugrid
