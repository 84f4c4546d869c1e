// meshio++ STL writer: ASCII (the default, as meshio's) or binary (binary=true).
// Spec: https://en.wikipedia.org/wiki/STL_(file_format)
//
// STL holds triangles only: a mesh with any other cell block is a WriteError naming the
// block (meshio drops such blocks with a warning; dropping cells silently is worse). 2-D
// points get z = 0, as meshio does. Facet normals come from cell_data "facet_normals" when
// the mesh has it (what the reader produces), else are computed from the corners
// (right-hand rule, unit length; a degenerate facet gets 0 0 0 where meshio writes NaN).
// ASCII: numbers in the shortest form that reads back to the same value (meshio's "{}"),
// one "solid <name>" per cell region when the mesh's cell regions cut its triangles into
// consecutive runs (what the reader makes of a multi-solid file), else one unnamed solid.
// Binary: an 80-byte header that does not begin with "solid", the triangle count as
// uint32 (modulo 2^32 past 2^32 - 1 triangles), 50 little-endian bytes per facet with a
// zero attribute byte count.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "core/io/byteorder.hpp"
#include "core/io/file.hpp"
#include "core/io/text_writer.hpp"
#include "formats/stl/stl_internal.hpp"
#include "meshioplusplus/errors.hpp"

namespace meshioplusplus::stl {

namespace {

struct Solid {
  std::string name;
  std::size_t start = 0, stop = 0;
};

// One solid per cell region when the regions tile [0, total) with consecutive runs, else
// one unnamed solid for everything.
std::vector<Solid> solids_of(const Mesh& mesh, std::size_t total) {
  std::vector<Solid> out;
  for (const auto& r : mesh.regions) {
    if (r.kind != RegionKind::cell) continue;
    const std::size_t n = r.entries.size();
    if (n == 0) continue;
    const std::int64_t lo = r.entries.value_as_int64(0), hi = r.entries.value_as_int64(n - 1);
    if (lo < 0 || hi - lo + 1 != static_cast<std::int64_t>(n) || r.name.empty() ||
        r.name.find_first_of("\r\n") != std::string::npos)
      return {{"", 0, total}};
    out.push_back({r.name, static_cast<std::size_t>(lo), static_cast<std::size_t>(hi) + 1});
  }
  std::sort(out.begin(), out.end(), [](const Solid& a, const Solid& b) { return a.start < b.start; });
  std::size_t at = 0;
  for (const auto& s : out) {
    if (s.start != at) return {{"", 0, total}};
    at = s.stop;
  }
  if (out.empty() || at != total) return {{"", 0, total}};
  return out;
}

// The triangles of every block in one view: corners as double, normals as double.
class Facets {
 public:
  Facets(const Mesh& mesh, const std::string& path) {
    const std::size_t dim = mesh.points.dim(1);
    if (mesh.points.ndim() != 2 || (dim != 2 && dim != 3))
      throw WriteError(error_message("stl", path, {}, "points must be (n, 2) or (n, 3)"));
    points_ = mesh.points.as_dtype(DType::float64);
    dim_ = dim;
    const auto normals = mesh.cell_data.find("facet_normals");
    for (std::size_t b = 0; b < mesh.cells.size(); ++b) {
      const CellBlock& block = mesh.cells[b];
      if (block.type != "triangle")
        throw WriteError(error_message("stl", path, {},
                                       "STL holds triangles only: cell block " + std::to_string(b) + " is '" +
                                           block.type + "' (" + std::to_string(block.size()) + " cells)"));
      blocks_.push_back(block.connectivity.as_dtype(DType::int64));
      if (normals != mesh.cell_data.end()) {
        const NDArray& a = normals->second.at(b);
        if (a.ndim() != 2 || a.dim(0) != block.size() || a.dim(1) != 3)
          throw WriteError(error_message("stl", path, {}, "cell_data 'facet_normals' of block " + std::to_string(b) +
                                                               " must be (" + std::to_string(block.size()) + ", 3)"));
        normals_.push_back(a.as_dtype(DType::float64));
      }
      total_ += block.size();
    }
  }

  std::size_t size() const { return total_; }

  // Facet t's normal and corners (12 values), blocks in order.
  void get(std::size_t t, double out[12]) {
    while (t >= base_ + blocks_[cur_].dim(0)) base_ += blocks_[cur_++].dim(0);
    while (t < base_) base_ -= blocks_[--cur_].dim(0);
    const std::size_t i = t - base_;
    const std::int64_t* c = blocks_[cur_].data<std::int64_t>() + 3 * i;
    const double* p = points_.data<double>();
    for (int k = 0; k < 3; ++k) {
      const double* q = p + dim_ * static_cast<std::size_t>(c[k]);
      out[3 + 3 * k] = q[0];
      out[4 + 3 * k] = q[1];
      out[5 + 3 * k] = dim_ == 3 ? q[2] : 0.0;
    }
    if (!normals_.empty()) {
      std::memcpy(out, normals_[cur_].data<double>() + 3 * i, 3 * sizeof(double));
      return;
    }
    const double ax = out[6] - out[3], ay = out[7] - out[4], az = out[8] - out[5];
    const double bx = out[9] - out[3], by = out[10] - out[4], bz = out[11] - out[5];
    double n[3] = {ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx};
    const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    for (int k = 0; k < 3; ++k) out[k] = len > 0 ? n[k] / len : 0.0;
  }

  bool float32_points() const { return float32_; }
  void set_float32(bool f) { float32_ = f; }

 private:
  NDArray points_;
  std::size_t dim_ = 3;
  std::vector<NDArray> blocks_, normals_;
  std::size_t total_ = 0, cur_ = 0, base_ = 0;
  bool float32_ = false;
};

void write_ascii(io::AtomicFile& file, Facets& facets, const std::vector<Solid>& solids) {
  io::TextWriter w(file);
  const io::FloatFormat shortest;
  // Float32 input prints as the shortest float32 string (numpy's str of a float32).
  auto num = [&](double v) {
    if (facets.float32_points()) w.real(static_cast<float>(v), shortest);
    else w.real(v, shortest);
  };
  double f[12];
  for (const auto& s : solids) {
    w.str("solid");
    if (!s.name.empty()) w.ch(' ').str(s.name);
    w.ch('\n');
    for (std::size_t t = s.start; t < s.stop; ++t) {
      facets.get(t, f);
      w.str("facet normal ");
      num(f[0]), w.ch(' '), num(f[1]), w.ch(' '), num(f[2]);
      w.str("\n outer loop\n");
      for (int k = 0; k < 3; ++k) {
        w.str("  vertex ");
        num(f[3 + 3 * k]), w.ch(' '), num(f[4 + 3 * k]), w.ch(' '), num(f[5 + 3 * k]);
        w.ch('\n');
      }
      w.str(" endloop\nendfacet\n");
    }
    w.str("endsolid");
    if (!s.name.empty()) w.ch(' ').str(s.name);
    w.ch('\n');
  }
  w.flush();
}

void write_binary(io::AtomicFile& file, Facets& facets) {
  char header[kHeaderBytes];
  std::memset(header, ' ', 80);
  const char title[] = "binary STL written by meshio++";
  std::memcpy(header, title, sizeof title - 1);
  const std::uint32_t count = static_cast<std::uint32_t>(facets.size());  // modulo 2^32 past the limit
  std::memcpy(header + 80, &count, 4);
  if (!io::host_is_little_endian()) io::byteswap_inplace(header + 80, 1, 4);
  file.write(header, sizeof header);
  constexpr std::size_t kChunk = 1 << 15;
  std::vector<char> buf(kChunk * kTriangleBytes);
  double f[12];
  float v[12];
  for (std::size_t t0 = 0; t0 < facets.size(); t0 += kChunk) {
    const std::size_t m = std::min(kChunk, facets.size() - t0);
    char* out = buf.data();
    for (std::size_t i = 0; i < m; ++i, out += kTriangleBytes) {
      facets.get(t0 + i, f);
      for (int k = 0; k < 12; ++k) v[k] = static_cast<float>(f[k]);
      if (!io::host_is_little_endian()) io::byteswap_inplace(v, 12, 4);
      std::memcpy(out, v, 48);
      out[48] = out[49] = 0;
    }
    file.write(buf.data(), m * kTriangleBytes);
  }
}

}  // namespace

void write_stl(const std::string& path, const Mesh& mesh, const Options& options) {
  OptionReader opts(options, "stl");
  const bool binary = opts.get_bool("binary", false);
  opts.finish();
  Facets facets(mesh, path);
  facets.set_float32(mesh.points.dtype() == DType::float32);
  io::AtomicFile file(path, "stl");
  if (binary) write_binary(file, facets);
  else write_ascii(file, facets, solids_of(mesh, facets.size()));
  file.commit();
}

}  // namespace meshioplusplus::stl
