// meshio++ Wavefront OBJ writer, laid out as meshio's: a comment line, "v x y z" per point
// (a 2-D mesh gets z = 0), "vn" rows from point_data "obj:vn", "vt" rows from "obj:vt",
// then one "f" line per triangle, quad or polygon (1-based). Beyond meshio: when vt or vn
// are written the face corners name them ("v/vt", "v//vn", "v/vt/vn", the same index as the
// point), so readers that take texture coordinates through the faces (VTK) see them; line
// blocks are written as "l" statements. Other cell types are a WriteError, as in meshio.
// Spec: https://paulbourke.net/dataformats/obj/
#include <cstring>

#include "core/io/array_writer.hpp"
#include "core/io/file.hpp"
#include "core/io/text_writer.hpp"
#include "formats/obj/obj_internal.hpp"
#include "meshioplusplus/errors.hpp"

namespace meshioplusplus::obj {

namespace {

void rows(io::TextWriter& w, const char* keyword, const NDArray& a, const io::FloatFormat& ff) {
  const NDArray d = a.as_dtype(DType::float64);
  const std::size_t n = d.dim(0), k = d.row_size();
  const double* v = d.data<double>();
  for (std::size_t i = 0; i < n; ++i) {
    w.str(keyword);
    for (std::size_t j = 0; j < k; ++j) w.ch(' ').real(v[i * k + j], ff);
    w.ch('\n');
  }
}

}  // namespace

void write_obj(const std::string& path, const Mesh& mesh, const Options& options) {
  OptionReader opts(options, "obj");
  opts.finish();
  for (const CellBlock& b : mesh.cells)
    if (b.type != "triangle" && b.type != "quad" && b.type != "polygon" && b.type != "line")
      throw WriteError(error_message("obj", path, {}, "Wavefront .obj files can only contain triangle, quad, polygon or line cells, found '" + b.type + "'"));
  const std::size_t np = mesh.num_points();
  auto data = [&](const char* name) -> const NDArray* {
    auto it = mesh.point_data.find(name);
    return it == mesh.point_data.end() ? nullptr : &it->second;
  };
  const NDArray* vn = data(kNormals);
  const NDArray* vt = data(kTexCoords);

  io::AtomicFile file(path, "obj");
  io::TextWriter w(file);
  const io::FloatFormat ff;
  w.str("# Created by meshioplusplus\n");
  {
    const NDArray p = mesh.points.as_dtype(DType::float64);
    const double* v = p.data<double>();
    const std::size_t dim = p.dim(1);
    for (std::size_t i = 0; i < np; ++i) {
      w.str("v ").real(v[i * dim], ff).ch(' ').real(v[i * dim + 1], ff).ch(' ');
      if (dim > 2) w.real(v[i * dim + 2], ff);
      else w.ch('0');
      w.ch('\n');
    }
  }
  if (vn) rows(w, "vn", *vn, ff);
  if (vt) rows(w, "vt", *vt, ff);
  for (const CellBlock& b : mesh.cells) {
    const bool line = b.type == "line";
    const NDArray conn = (b.ragged ? b.indices : b.connectivity).as_dtype(DType::int64);
    const NDArray off = b.ragged ? b.offsets.as_dtype(DType::int64) : NDArray();
    const std::int64_t* idx = conn.data<std::int64_t>();
    const std::size_t k0 = b.ragged ? 0 : b.connectivity.dim(1);
    for (std::size_t i = 0; i < b.size(); ++i) {
      const std::size_t begin = b.ragged ? static_cast<std::size_t>(off.data<std::int64_t>()[i]) : i * k0;
      const std::size_t end = b.ragged ? static_cast<std::size_t>(off.data<std::int64_t>()[i + 1]) : begin + k0;
      w.ch(line ? 'l' : 'f');
      for (std::size_t j = begin; j < end; ++j) {
        const std::int64_t v = idx[j] + 1;
        w.ch(' ').integer(v);
        if (line) continue;
        if (vt) w.ch('/').integer(v);
        if (vn) w.str(vt ? "/" : "//").integer(v);
      }
      w.ch('\n');
    }
  }
  w.flush();
  file.commit();
}

}  // namespace meshioplusplus::obj
