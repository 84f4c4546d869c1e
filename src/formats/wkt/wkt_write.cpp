// meshio++ WKT writer.
// Spec: https://www.ogc.org/standard/sfa/ (OGC 06-103r4, section 7)
//
// As meshio writes it: one TIN of every triangle block's triangles, each a closed ring
// "((p0, p1, p2, p0))", joined by ", ", no line break; a point is "x y z" (or "x y" for
// 2-D points) in the shortest round-trip form. Another cell block is a WriteError naming
// it (meshio drops it with a warning; dropping cells would also drop the points only they
// use, as WKT has no point list); no cell at all writes "TIN ()", as meshio does. A
// coordinate that is NaN or infinite is a WriteError (WKT numbers cannot spell them).
#include <cmath>

#include "core/io/file.hpp"
#include "core/io/text_writer.hpp"
#include "formats/wkt/wkt_internal.hpp"
#include "meshioplusplus/errors.hpp"

namespace meshioplusplus::wkt {

void write_wkt(const std::string& path, const Mesh& mesh, const Options& options) {
  OptionReader opts(options, "wkt");
  opts.finish();
  const std::size_t dim = mesh.points.dim(1);
  if (mesh.points.ndim() != 2 || (dim != 2 && dim != 3)) throw write_error("wkt", path, "points must be (n, 2) or (n, 3)");
  for (std::size_t b = 0; b < mesh.cells.size(); ++b)
    if (mesh.cells[b].type != "triangle" || mesh.cells[b].ragged)
      throw write_error("wkt", path, "a TIN holds triangles only: cell block " + std::to_string(b) + " is '" + mesh.cells[b].type + "'");
  const bool f32 = mesh.points.dtype() == DType::float32;
  const NDArray points = mesh.points.as_dtype(DType::float64);
  const double* p = points.data<double>();
  const io::FloatFormat shortest;
  io::AtomicFile file(path, "wkt");
  io::TextWriter w(file);
  auto point = [&](std::int64_t i) {
    for (std::size_t c = 0; c < dim; ++c) {
      if (c) w.ch(' ');
      const double v = p[dim * static_cast<std::size_t>(i) + c];
      if (!std::isfinite(v))
        throw write_error("wkt", path, "point " + std::to_string(i) + " has a coordinate that is not finite (WKT numbers have no NaN or infinity)");
      if (f32) w.real(static_cast<float>(v), shortest);
      else w.real(v, shortest);
    }
  };
  w.str("TIN (");
  bool first = true;
  for (const CellBlock& block : mesh.cells) {
    if (block.type != "triangle" || block.ragged) continue;
    const NDArray conn = block.connectivity.as_dtype(DType::int64);
    const std::int64_t* c = conn.data<std::int64_t>();
    for (std::size_t i = 0; i < conn.dim(0); ++i) {
      w.str(first ? "((" : ", ((");
      first = false;
      point(c[3 * i]), w.str(", "), point(c[3 * i + 1]), w.str(", "), point(c[3 * i + 2]), w.str(", "), point(c[3 * i]);
      w.str("))");
    }
  }
  w.ch(')');
  w.flush();
  file.commit();
}

}  // namespace meshioplusplus::wkt
