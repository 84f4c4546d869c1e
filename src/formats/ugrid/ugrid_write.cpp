// meshio++ UGRID writer: every variant the reader reads, chosen by the name as meshio does.
// Spec: https://www.simcenter.msstate.edu/software/documentation/ug_io/3d_grid_file_type_ugrid.html
//
// The seven counts, the coordinates (4- or 8-byte reals as the variant says; ASCII in the
// shortest text that reads back exactly), triangles, quads, their surface IDs, tetrahedra,
// pyramids (in UGRID's node order), prisms and hexahedra, 1-based. Fortran variants frame
// the counts and the rest as two records with their true byte counts (meshio 5 writes
// wrong ones); a second record of 2 GiB or more is a WriteError (an int32 marker cannot
// hold it: use a C-stream variant). Surface IDs: cell data ugrid:ref when it is integer
// data of one value per cell, else the first such integer cell data in name order, else 1.
// A surface ID outside int32 for a 32-bit variant is a WriteError (the file is left as it
// was). All blocks of one type are written together (meshio refuses a second block of a type);
// other cell types are left out with a warning, as meshio leaves them out. 2-D points are
// written with z = 0.
#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

#include "core/io/byteorder.hpp"
#include "core/io/file.hpp"
#include "core/io/text_writer.hpp"
#include "formats/ugrid/ugrid_internal.hpp"
#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/warnings.hpp"

namespace meshioplusplus::ugrid {

namespace {

bool is_int(const NDArray& a) { return !dtype_is_float(a.dtype()); }

// The surface IDs: per block, its integer array, or nullptr where there is none.
const std::vector<NDArray>* surface_ids(const Mesh& mesh) {
  auto usable = [&](const std::vector<NDArray>& list) {
    bool ok = list.size() == mesh.cells.size();
    for (std::size_t b = 0; ok && b < list.size(); ++b) {
      const auto& t = mesh.cells[b].type;
      if (t != "triangle" && t != "quad") continue;
      ok = is_int(list[b]) && list[b].ndim() == 1 && list[b].dim(0) == mesh.cells[b].size();
    }
    return ok;
  };
  auto it = mesh.cell_data.find("ugrid:ref");
  if (it != mesh.cell_data.end() && usable(it->second)) return &it->second;
  for (const auto& [name, list] : mesh.cell_data)
    if (usable(list)) return &list;
  return nullptr;
}

// Values out in the file's byte order, converted a chunk at a time into a typed buffer.
class Out {
 public:
  Out(io::AtomicFile& f, const Variant& v) : f_(f), v_(v) {}
  template <class T, class Get> void put(std::size_t n, Get&& get) {
    constexpr std::size_t kChunk = 1 << 15;
    std::vector<T> buf(std::min(n, kChunk));
    for (std::size_t i0 = 0; i0 < n; i0 += kChunk) {
      const std::size_t m = std::min(kChunk, n - i0);
      for (std::size_t i = 0; i < m; ++i) buf[i] = static_cast<T>(get(i0 + i));
      if (v_.little != io::host_is_little_endian()) io::byteswap_inplace(buf.data(), m, sizeof(T));
      f_.write(buf.data(), m * sizeof(T));
    }
  }
  template <class Get> void ints(std::size_t n, Get&& get) {
    if (v_.int_bytes == 8) put<std::int64_t>(n, get);
    else put<std::int32_t>(n, get);
  }
  void marker(std::uint64_t bytes) { put<std::int32_t>(1, [&](std::size_t) { return static_cast<std::int32_t>(bytes); }); }

 private:
  io::AtomicFile& f_;
  const Variant& v_;
};

}  // namespace

void write_ugrid(const std::string& path, const Mesh& mesh, const Options& options) {
  OptionReader opts(options, "ugrid");
  opts.finish();
  const Variant& var = variant_of(path);
  const std::size_t n = mesh.num_points(), d = mesh.points.dim(1);
  if (d != 2 && d != 3) throw write_error("ugrid", path, "points must have 2 or 3 coordinates, found " + std::to_string(d));

  // The blocks of each section, in kSections order.
  std::vector<std::vector<std::size_t>> blocks(kSections.size());
  std::size_t counts[7] = {n, 0, 0, 0, 0, 0, 0};
  for (std::size_t b = 0; b < mesh.cells.size(); ++b) {
    const CellBlock& block = mesh.cells[b];
    std::size_t s = 0;
    while (s < kSections.size() && (block.ragged || block.type != kSections[s].type)) ++s;
    if (s == kSections.size()) {
      warn("ugrid: cell type '" + block.type + "' has no UGRID section; skipping " + std::to_string(block.size()) + " cells");
      continue;
    }
    blocks[s].push_back(b);
    counts[s + 1] += block.size();
  }
  std::vector<NDArray> conns(mesh.cells.size());
  for (const auto& list : blocks)
    for (std::size_t b : list) conns[b] = mesh.cells[b].connectivity.as_dtype(DType::int64);
  const std::vector<NDArray>* ids = surface_ids(mesh);
  const NDArray pts = mesh.points.as_dtype(DType::float64);
  const double* x = pts.data<double>();
  auto coord = [&](std::size_t i) { return i % 3 < d ? x[(i / 3) * d + i % 3] : 0.0; };
  const auto ib = static_cast<std::uint64_t>(var.int_bytes);
  for (int i = 0; i < 7; ++i)
    if (ib == 4 && counts[i] > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
      throw write_error("ugrid", path, "more than 2^31 - 1 nodes or elements of one kind: use a 64-bit-integer variant (.b8l, .lb8l)");

  io::AtomicFile file(path, "ugrid");
  // The file value of column j of row i of block b (section s): 1-based, in UGRID's order.
  auto section_value = [&](std::size_t s, std::size_t b, std::size_t i, std::size_t j) -> std::int64_t {
    const std::size_t k = static_cast<std::size_t>(kSections[s].nodes);
    const std::int64_t* c = conns[b].data<std::int64_t>();
    // UGRID's pyramid: file column j holds VTK's node kFromVtk[j] (kPyramidToVtk inverted).
    static constexpr int kFromVtk[5] = {1, 0, 4, 2, 3};
    const std::size_t col = k == 5 ? static_cast<std::size_t>(kFromVtk[j]) : j;
    return c[i * k + col] + 1;
  };
  // Found while writing (after the coordinates and faces): an ID a 32-bit integer cannot hold.
  auto surface_id = [&](std::size_t b, std::size_t i) -> std::int64_t {
    const std::int64_t id = ids ? (*ids)[b].value_as_int64(i) : 1;
    if (ib == 4 && (id < std::numeric_limits<std::int32_t>::min() || id > std::numeric_limits<std::int32_t>::max()))
      throw write_error("ugrid", path, "surface ID " + std::to_string(id) + " of " + mesh.cells[b].type + " " + std::to_string(i) +
                                           " does not fit a 32-bit integer: use a 64-bit-integer variant (.b8l, .lb8l)");
    return id;
  };

  if (!var.binary) {
    io::TextWriter w(file);
    const io::FloatFormat ff;
    for (int i = 0; i < 7; ++i) w.integer(counts[i]).ch(i == 6 ? '\n' : ' ');
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t c = 0; c < 3; ++c) {
        if (mesh.points.dtype() == DType::float32) w.real(static_cast<float>(coord(3 * i + c)), ff);
        else w.real(coord(3 * i + c), ff);
        w.ch(c == 2 ? '\n' : ' ');
      }
    }
    for (std::size_t s = 0; s < kSections.size(); ++s) {
      const std::size_t k = static_cast<std::size_t>(kSections[s].nodes);
      for (std::size_t b : blocks[s])
        for (std::size_t i = 0; i < mesh.cells[b].size(); ++i)
          for (std::size_t j = 0; j < k; ++j) w.integer(section_value(s, b, i, j)).ch(j + 1 == k ? '\n' : ' ');
      if (s == 1)
        for (std::size_t f = 0; f < 2; ++f)
          for (std::size_t b : blocks[f])
            for (std::size_t i = 0; i < mesh.cells[b].size(); ++i) w.integer(surface_id(b, i)).ch('\n');
    }
    w.flush();
    file.commit();
    return;
  }

  Out o(file, var);
  std::uint64_t body = n * 3 * static_cast<std::uint64_t>(var.real_bytes) + (counts[1] + counts[2]) * ib;
  for (std::size_t s = 0; s < kSections.size(); ++s) body += counts[s + 1] * static_cast<std::uint64_t>(kSections[s].nodes) * ib;
  if (var.fortran && body > static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max()))
    throw write_error("ugrid", path, "the nodes and elements take " + std::to_string(body) +
                                         " bytes, more than a Fortran record marker (int32) holds: use a C-stream variant (.b8.ugrid, .lb8.ugrid)");
  if (var.fortran) o.marker(7 * ib);
  o.ints(7, [&](std::size_t i) { return static_cast<std::int64_t>(counts[i]); });
  if (var.fortran) {
    o.marker(7 * ib);
    o.marker(body);
  }
  if (var.real_bytes == 4) o.put<float>(n * 3, coord);
  else o.put<double>(n * 3, coord);
  for (std::size_t s = 0; s < kSections.size(); ++s) {
    const std::size_t k = static_cast<std::size_t>(kSections[s].nodes);
    for (std::size_t b : blocks[s]) o.ints(mesh.cells[b].size() * k, [&](std::size_t v) { return section_value(s, b, v / k, v % k); });
    if (s == 1)
      for (std::size_t f = 0; f < 2; ++f)
        for (std::size_t b : blocks[f]) o.ints(mesh.cells[b].size(), [&](std::size_t i) { return surface_id(b, i); });
  }
  if (var.fortran) o.marker(body);
  file.commit();
}

}  // namespace meshioplusplus::ugrid
