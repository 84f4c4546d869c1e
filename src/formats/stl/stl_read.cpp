// meshio++ STL reader: binary and ASCII (one or several solids).
// Spec: https://en.wikipedia.org/wiki/STL_(file_format)
//
// Binary or ASCII is decided by the file's size, as meshio and robust readers do: a file of
// exactly 84 + 50 * n bytes whose header declares n triangles is binary even when its
// 80-byte header begins with "solid" (see binary_triangle_count for files over 4 GiB).
// Otherwise a file beginning with "solid" is ASCII; anything else is a binary file whose
// count disagrees with its size, a ReadError naming both numbers.
//
// Output as meshio's reader gives it: one "triangle" block, corners merged into points in
// the order of their first occurrence (core/point_weld.hpp), points float32 for binary files and
// float64 for ASCII ones, facet normals as cell_data "facet_normals" (same dtype). ASCII
// solid names become cell regions (one per named solid, its facets). The binary header
// and the two attribute bytes of each facet are read past and not kept. Option merge=false
// (VTK's SetMerging(0)) keeps every corner as its own point: points (3n, 3), cells
// 0 1 2 / 3 4 5 / ..., at the speed of copying the file.
//
// Safe for untrusted input: the binary count is checked against the size before anything
// is allocated, the ASCII grammar is checked token by token, every read is bounded.
#include <algorithm>
#include <cstring>
#include <vector>

#include "core/growable_buffer.hpp"
#include "core/point_weld.hpp"
#include "core/io/byteorder.hpp"
#include "core/io/cursor.hpp"
#include "core/io/file.hpp"
#include "formats/stl/stl_internal.hpp"

namespace meshioplusplus::stl {

std::optional<std::uint64_t> binary_triangle_count(std::uint64_t file_size, std::uint32_t declared) {
  if (file_size < kHeaderBytes || (file_size - kHeaderBytes) % kTriangleBytes != 0) return std::nullopt;
  const std::uint64_t n = (file_size - kHeaderBytes) / kTriangleBytes;
  const std::uint64_t implied = kHeaderBytes + kTriangleBytes * static_cast<std::uint64_t>(declared);
  if (static_cast<std::uint32_t>(implied) != static_cast<std::uint32_t>(file_size)) return std::nullopt;
  return n;
}

namespace {

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if ((a[i] | 0x20) != b[i]) return false;  // b is lower-case letters only
  return true;
}

// The first word of the file, past leading whitespace, is "solid" (any case).
bool starts_with_solid(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && io::is_space(text[i])) ++i;
  return text.size() - i >= 5 && iequals(text.substr(i, 5), "solid") && (text.size() - i == 5 || io::is_space(text[i + 5]));
}

Mesh assemble(NDArray points, NDArray cells, NDArray normals) {
  Mesh m;
  m.points = std::move(points);
  if (cells.dim(0) != 0) {
    m.cells.push_back(CellBlock::rectangular("triangle", std::move(cells)));
    m.cell_data["facet_normals"].push_back(std::move(normals));
  }
  return m;
}

// Every corner its own point, cells 0 1 2 / 3 4 5 / ...: the merge=false read.
NDArray corner_cells(std::uint64_t n) {
  NDArray cells = NDArray::uninit(DType::int64, {n, 3});
  std::int64_t* c = cells.data<std::int64_t>();
  for (std::uint64_t i = 0; i < 3 * n; ++i) c[i] = static_cast<std::int64_t>(i);
  return cells;
}

Mesh read_binary(const io::FileBytes& file, const std::string& path, std::uint64_t n, bool merge) {
  const char* base = file.data() + kHeaderBytes;
  NDArray normals = NDArray::uninit(DType::float32, {n, 3});
  float* nrm = normals.data<float>();
  const bool swap = !io::host_is_little_endian();
  for (std::uint64_t t = 0; t < n; ++t) std::memcpy(nrm + 3 * t, base + kTriangleBytes * t, 12);
  if (swap) io::byteswap_inplace(nrm, 3 * n, 4);
  if (!merge) {
    NDArray points = NDArray::uninit(DType::float32, {3 * n, 3});
    float* p = points.data<float>();
    for (std::uint64_t t = 0; t < n; ++t) std::memcpy(p + 9 * t, base + kTriangleBytes * t + 12, 36);
    if (swap) io::byteswap_inplace(p, 9 * n, 4);
    return assemble(std::move(points), corner_cells(n), std::move(normals));
  }
  NDArray cells = NDArray::uninit(DType::int64, {n, 3});
  GrowableBuffer merged;
  auto load = [&](std::size_t i, float out[3]) {
    std::memcpy(out, base + kTriangleBytes * (i / 3) + 12 + 12 * (i % 3), 12);
    if (swap) io::byteswap_inplace(out, 3, 4);
  };
  const std::size_t np = weld<float>(3 * n, load, cells.data<std::int64_t>(), merged);
  if (np == SIZE_MAX) throw ReadError(error_message("stl", path, {}, "more than 2^32 - 2 distinct points are not supported"));
  return assemble(merged.take(DType::float32, {np, 3}), std::move(cells), std::move(normals));
}

// ASCII facets are welded as they are parsed, a batch of corners at a time (one table,
// first-occurrence order: the same points as the parallel weld of binary files), so the
// corners are never all held; the points, corner ids and normals grow in GrowableBuffers
// handed over as the mesh's arrays.
class AsciiReader {
 public:
  AsciiReader(const io::FileBytes& file, const std::string& path, bool merge)
      : cur_(file.text(), "stl", path), merge_(merge), table_(merge ? file.size() / 1024 : 0) {
    if (merge_) batch_.reserve(3 * kBatch);
  }

  Mesh read() {
    for (;;) {
      cur_.skip_space();
      if (cur_.at_end()) break;
      keyword("solid", "'solid'");
      const char* at = cur_.ptr();
      const std::string name(io::Cursor::trim(cur_.line()));
      for (char c : name)
        if ((static_cast<unsigned char>(c) < 32 && c != '\t') || c == 127) cur_.fail_expected("a solid name of text characters", at);
      const std::size_t start = facets_;
      solid_body();
      if (!name.empty() && facets_ > start) add_region(name, start, facets_);
    }
    if (merge_) weld_batch();
    const std::size_t n = facets_;
    NDArray normals = normals_.take(DType::float64, {n, 3});
    NDArray points = merge_ ? table_.points().take(DType::float64, {table_.size(), 3}) : corners_.take(DType::float64, {3 * n, 3});
    Mesh m = assemble(std::move(points), merge_ ? ids_.take(DType::int64, {n, 3}) : corner_cells(n), std::move(normals));
    m.regions = std::move(regions_);
    return m;
  }

 private:
  // The next token must be `word` (case-insensitive); `what` names it in the error.
  void keyword(std::string_view word, std::string_view what) {
    cur_.skip_space();
    const char* at = cur_.ptr();
    if (!iequals(cur_.token(), word)) cur_.fail_expected(what, at);
  }
  void numbers(double out[3], std::string_view what) {
    for (int k = 0; k < 3; ++k) out[k] = cur_.number<double>(what);
  }
  // A corner: its coordinates kept as they are (merge=false) or welded into the points.
  void corner() {
    double c[3];
    numbers(c, "a vertex coordinate");
    if (!merge_) {
      std::memcpy(corners_.extend(sizeof c), c, sizeof c);
      return;
    }
    batch_.insert(batch_.end(), c, c + 3);
    if (batch_.size() == 3 * kBatch) weld_batch();
  }
  // Welds the corners parsed since the last call, with the table's prefetching run.
  void weld_batch() {
    const std::size_t k = batch_.size() / 3;
    if (k == 0) return;
    const double* b = batch_.data();
    auto load = [b](std::size_t i, double out[3]) { std::memcpy(out, b + 3 * i, 3 * sizeof(double)); };
    auto* ids = reinterpret_cast<std::int64_t*>(ids_.extend(k * sizeof(std::int64_t)));
    if (!table_.run(0, k, load, ids)) cur_.fail("more than 2^32 - 2 distinct points are not supported");
    batch_.clear();
  }

  // Facets up to "endsolid [name]" (or the end of the file: some exporters omit it).
  void solid_body() {
    for (;;) {
      cur_.skip_space();
      if (cur_.at_end()) return;
      const char* at = cur_.ptr();
      const std::string_view t = cur_.token();
      if (iequals(t, "endsolid")) {
        cur_.line();  // the optional name repeats the solid's
        return;
      }
      if (!iequals(t, "facet")) cur_.fail_expected("'facet' or 'endsolid'", at);
      keyword("normal", "'normal' after 'facet'");
      double normal[3];
      numbers(normal, "a facet normal component");
      std::memcpy(normals_.extend(sizeof normal), normal, sizeof normal);
      keyword("outer", "'outer loop'");
      keyword("loop", "'outer loop'");
      for (int v = 0; v < 3; ++v) {
        keyword("vertex", v == 0 ? "'vertex'" : "'vertex' (an STL facet has three)");
        corner();
      }
      keyword("endloop", "'endloop' (an STL facet has three vertices)");
      keyword("endfacet", "'endfacet'");
      ++facets_;
    }
  }

  void add_region(const std::string& name, std::size_t start, std::size_t stop) {
    auto it = std::find_if(regions_.begin(), regions_.end(), [&](const Region& r) { return r.name == name; });
    std::vector<std::int64_t> e;
    if (it != regions_.end()) {
      const auto* old = it->entries.data<std::int64_t>();
      e.assign(old, old + it->entries.size());
    }
    for (std::size_t i = start; i < stop; ++i) e.push_back(static_cast<std::int64_t>(i));
    NDArray entries = NDArray::from_vector(e, {e.size()});
    if (it != regions_.end()) {
      it->entries = std::move(entries);
      return;
    }
    Region r;
    r.name = name;
    r.kind = RegionKind::cell;
    r.dim = 2;
    r.entries = std::move(entries);
    regions_.push_back(std::move(r));
  }

  io::Cursor cur_;
  bool merge_;
  // merge: corners are welded kBatch at a time (a batch fits in cache; the table's lookups
  // are prefetched ahead within it, which a corner-by-corner weld could not do).
  static constexpr std::size_t kBatch = 4096;
  std::vector<double> batch_;
  WeldTable<double> table_;  // merge: the points so far
  GrowableBuffer ids_;       // merge: every corner's point id (int64)
  GrowableBuffer corners_;   // merge=false: every corner's coordinates
  GrowableBuffer normals_;
  std::size_t facets_ = 0;
  std::vector<Region> regions_;
};

std::string count_mismatch(std::uint64_t size, std::uint32_t declared) {
  std::string s = "binary STL header declares " + std::to_string(declared) + " triangles (" +
                  std::to_string(kHeaderBytes + kTriangleBytes * declared) + " bytes) but the file has " +
                  std::to_string(size) + " bytes";
  if ((size - kHeaderBytes) % kTriangleBytes == 0)
    s += " (" + std::to_string((size - kHeaderBytes) / kTriangleBytes) + " triangles)";
  else
    s += ", not 84 + 50 * n";
  return s;
}

// A NUL or a byte outside printable ASCII and whitespace in the first bytes: not text.
bool looks_binary(std::string_view text) {
  const std::size_t n = std::min<std::size_t>(text.size(), 4096);
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == 0 || (c < 32 && !io::is_space(static_cast<char>(c))) || c == 127) return true;
  }
  return false;
}

}  // namespace

Mesh read_stl(const std::string& path, const Options& options) {
  OptionReader opts(options, "stl");
  const bool merge = opts.get_bool("merge", true);
  opts.finish();
  io::FileBytes file(path, "stl");
  std::uint32_t declared = 0;
  const bool has_header = file.size() >= kHeaderBytes;
  if (has_header) {
    declared = io::load<std::uint32_t>(file.data() + 80, true);
    if (auto n = binary_triangle_count(file.size(), declared)) return read_binary(file, path, *n, merge);
  }
  if (starts_with_solid(file.text())) {
    try {
      return AsciiReader(file, path, merge).read();
    } catch (const ReadError& e) {
      // A binary file whose header begins with "solid" but whose count is wrong: say both.
      if (!has_header || !looks_binary(file.text())) throw;
      throw ReadError(error_message("stl", path, {-1, 80},
                                    count_mismatch(file.size(), declared) + "; read as ASCII (it begins with 'solid'): " + e.what()));
    }
  }
  if (!has_header)
    throw ReadError(error_message("stl", path, {1, 0},
                                  "neither ASCII STL (expected 'solid') nor binary STL (" + std::to_string(file.size()) +
                                      " bytes, shorter than the 84-byte header)"));
  throw ReadError(error_message("stl", path, {-1, 80}, count_mismatch(file.size(), declared)));
}

}  // namespace meshioplusplus::stl
