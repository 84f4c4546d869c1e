// meshio++ OFF writer (ASCII).
// Spec: http://www.geomview.org/docs/html/OFF.html
//
// Writes every "triangle", "quad" and "polygon" block (rectangular or ragged) as faces, in
// block order; any other cell type is a WriteError naming the block (meshio writes only
// triangles and drops the rest with a warning). 2-D points get z = 0, as meshio does.
// Header "OFF", or "COFF" when point_data "vertex_colors" (n, 4) is present (its RGBA
// follows each vertex); cell_data "face_colors" (1, 3 or 4 columns; NaN columns are left
// out) follows each face. Numbers in the shortest form that reads back to the same value;
// NEdges is written as 0, as meshio does (the spec lets readers ignore it).
#include <cmath>
#include <vector>

#include "core/io/file.hpp"
#include "core/io/text_writer.hpp"
#include "formats/off/off_internal.hpp"
#include "meshioplusplus/errors.hpp"

namespace meshioplusplus::off {

void write_off(const std::string& path, const Mesh& mesh, const Options& options) {
  OptionReader opts(options, "off");
  opts.finish();
  auto fail = [&](const std::string& what) { throw WriteError(error_message("off", path, {}, what)); };
  const std::size_t dim = mesh.points.dim(1);
  if (mesh.points.ndim() != 2 || (dim != 2 && dim != 3)) fail("points must be (n, 2) or (n, 3)");
  std::size_t nfaces = 0;
  for (std::size_t b = 0; b < mesh.cells.size(); ++b) {
    const CellBlock& block = mesh.cells[b];
    if (block.type != "triangle" && block.type != "quad" && block.type != "polygon")
      fail("OFF holds faces only (triangle, quad, polygon): cell block " + std::to_string(b) + " is '" + block.type + "'");
    nfaces += block.size();
  }
  const NDArray* vcolors = nullptr;
  if (auto it = mesh.point_data.find(kVertexColors); it != mesh.point_data.end()) {
    if (it->second.ndim() != 2 || it->second.dim(1) != 4) fail("point_data 'vertex_colors' must be (n, 4) RGBA");
    vcolors = &it->second;
  }
  const std::vector<NDArray>* fcolors = nullptr;
  if (auto it = mesh.cell_data.find(kFaceColors); it != mesh.cell_data.end()) {
    for (const auto& a : it->second)
      if (a.ndim() != 2 || (a.dim(1) != 1 && a.dim(1) != 3 && a.dim(1) != 4))
        fail("cell_data 'face_colors' must have 1, 3 or 4 columns per face");
    fcolors = &it->second;
  }
  const bool f32 = mesh.points.dtype() == DType::float32;
  const NDArray points = mesh.points.as_dtype(DType::float64);
  const io::FloatFormat shortest;

  io::AtomicFile file(path, "off");
  io::TextWriter w(file);
  auto num = [&](double v) {
    if (f32) w.real(static_cast<float>(v), shortest);
    else w.real(v, shortest);
  };
  w.str(vcolors ? "COFF\n" : "OFF\n").str("# Created by meshio++\n\n");
  w.integer(mesh.num_points()).ch(' ').integer(nfaces).str(" 0\n\n");
  const double* p = points.data<double>();
  const NDArray vc = vcolors ? vcolors->as_dtype(DType::float64) : NDArray();
  for (std::size_t i = 0; i < mesh.num_points(); ++i) {
    num(p[dim * i]), w.ch(' '), num(p[dim * i + 1]), w.ch(' ');
    if (dim == 3) num(p[dim * i + 2]);
    else w.ch('0');
    if (vcolors)
      for (int k = 0; k < 4; ++k) w.ch(' '), w.real(vc.data<double>()[4 * i + k], shortest);
    w.ch('\n');
  }
  for (std::size_t b = 0; b < mesh.cells.size(); ++b) {
    const CellBlock& block = mesh.cells[b];
    const NDArray fc = fcolors ? (*fcolors).at(b).as_dtype(DType::float64) : NDArray();
    const std::size_t nc = fcolors ? fc.dim(1) : 0;
    auto colour = [&](std::size_t i) {
      for (std::size_t k = 0; k < nc; ++k) {
        const double v = fc.data<double>()[nc * i + k];
        if (!std::isnan(v)) w.ch(' '), w.real(v, shortest);
      }
      w.ch('\n');
    };
    if (block.ragged) {
      const NDArray off = block.offsets.as_dtype(DType::int64), idx = block.indices.as_dtype(DType::int64);
      const std::int64_t* o = off.data<std::int64_t>();
      for (std::size_t i = 0; i < block.size(); ++i) {
        w.integer(o[i + 1] - o[i]);
        for (std::int64_t j = o[i]; j < o[i + 1]; ++j) w.ch(' ').integer(idx.data<std::int64_t>()[j]);
        colour(i);
      }
      continue;
    }
    const NDArray conn = block.connectivity.as_dtype(DType::int64);
    const std::size_t k = conn.dim(1);
    const std::int64_t* c = conn.data<std::int64_t>();
    for (std::size_t i = 0; i < block.size(); ++i) {
      w.integer(k);
      for (std::size_t j = 0; j < k; ++j) w.ch(' ').integer(c[k * i + j]);
      colour(i);
    }
  }
  w.flush();
  file.commit();
}

}  // namespace meshioplusplus::off
