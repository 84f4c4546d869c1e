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
// the order of their first occurrence (stl_weld.hpp), points float32 for binary files and
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

#include "core/io/byteorder.hpp"
#include "core/io/cursor.hpp"
#include "core/io/file.hpp"
#include "formats/stl/stl_internal.hpp"
#include "formats/stl/stl_weld.hpp"

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

Mesh read_binary(const io::FileBytes& file, const std::string& path, std::uint64_t n, unsigned threads, bool merge) {
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
  std::vector<float> merged;
  auto load = [&](std::size_t i, float out[3]) {
    std::memcpy(out, base + kTriangleBytes * (i / 3) + 12 + 12 * (i % 3), 12);
    if (swap) io::byteswap_inplace(out, 3, 4);
  };
  const std::size_t np = weld<float>(3 * n, load, cells.data<std::int64_t>(), merged, threads);
  if (np == SIZE_MAX) throw ReadError(error_message("stl", path, {}, "more than 2^32 - 2 distinct points are not supported"));
  NDArray points = NDArray::uninit(DType::float32, {np, 3});
  if (np) std::memcpy(points.raw(), merged.data(), 3 * np * sizeof(float));
  return assemble(std::move(points), std::move(cells), std::move(normals));
}

class AsciiReader {
 public:
  AsciiReader(const io::FileBytes& file, const std::string& path, unsigned threads, bool merge)
      : cur_(file.text(), "stl", path), threads_(threads), merge_(merge) {}

  Mesh read() {
    // Facets are at least ~90 bytes of text; a first guess, the vectors grow past it.
    const std::size_t guess = std::min<std::size_t>(cur_.size() / 128, std::size_t(1) << 24);
    corners_.reserve(9 * guess);
    normals_.reserve(3 * guess);
    for (;;) {
      cur_.skip_space();
      if (cur_.at_end()) break;
      keyword("solid", "'solid'");
      const char* at = cur_.ptr();
      const std::string name(io::Cursor::trim(cur_.line()));
      for (char c : name)
        if ((static_cast<unsigned char>(c) < 32 && c != '\t') || c == 127) cur_.fail_expected("a solid name of text characters", at);
      const std::size_t start = normals_.size() / 3;
      solid_body();
      const std::size_t stop = normals_.size() / 3;
      if (!name.empty() && stop > start) add_region(name, start, stop);
    }
    const std::size_t n = normals_.size() / 3;
    NDArray normals = NDArray::uninit(DType::float64, {n, 3});
    if (n) std::memcpy(normals.raw(), normals_.data(), normals_.size() * sizeof(double));
    if (!merge_) {
      NDArray points = NDArray::uninit(DType::float64, {3 * n, 3});
      if (n) std::memcpy(points.raw(), corners_.data(), corners_.size() * sizeof(double));
      Mesh m = assemble(std::move(points), corner_cells(n), std::move(normals));
      m.regions = std::move(regions_);
      return m;
    }
    NDArray cells = NDArray::uninit(DType::int64, {n, 3});
    std::vector<double> merged;
    const double* c = corners_.data();
    auto load = [c](std::size_t i, double out[3]) { std::memcpy(out, c + 3 * i, 3 * sizeof(double)); };
    const std::size_t np = weld<double>(3 * n, load, cells.data<std::int64_t>(), merged, threads_);
    if (np == SIZE_MAX) cur_.fail("more than 2^32 - 2 distinct points are not supported");
    NDArray points = NDArray::uninit(DType::float64, {np, 3});
    if (np) std::memcpy(points.raw(), merged.data(), 3 * np * sizeof(double));
    Mesh m = assemble(std::move(points), std::move(cells), std::move(normals));
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
  void numbers(std::vector<double>& out, std::string_view what) {
    for (int k = 0; k < 3; ++k) out.push_back(cur_.number<double>(what));
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
      numbers(normals_, "a facet normal component");
      keyword("outer", "'outer loop'");
      keyword("loop", "'outer loop'");
      for (int v = 0; v < 3; ++v) {
        keyword("vertex", v == 0 ? "'vertex'" : "'vertex' (an STL facet has three)");
        numbers(corners_, "a vertex coordinate");
      }
      keyword("endloop", "'endloop' (an STL facet has three vertices)");
      keyword("endfacet", "'endfacet'");
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
  unsigned threads_;
  bool merge_;
  std::vector<double> corners_, normals_;
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
  const unsigned threads = opts.threads();
  const bool merge = opts.get_bool("merge", true);
  opts.finish();
  io::FileBytes file(path, "stl");
  std::uint32_t declared = 0;
  const bool has_header = file.size() >= kHeaderBytes;
  if (has_header) {
    declared = io::load<std::uint32_t>(file.data() + 80, true);
    if (auto n = binary_triangle_count(file.size(), declared)) return read_binary(file, path, *n, threads, merge);
  }
  if (starts_with_solid(file.text())) {
    try {
      return AsciiReader(file, path, threads, merge).read();
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
