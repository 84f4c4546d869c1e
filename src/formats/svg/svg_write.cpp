// meshio++ SVG writer: one <path> per line, triangle and quad cell, as meshio draws it.
// Spec: https://www.w3.org/TR/SVG11/paths.html (path data "M x y L x y ... Z"),
//       https://www.w3.org/TR/SVG11/styling.html (the <style> element).
//
// The drawing is meshio's: the points' x and y (a 3-D mesh only when every z is 0 within
// 1e-14, else a WriteError), y flipped inside its own range (max_y + min_y - y) so the
// picture is not upside down, everything scaled by image_width / width (default 100; None
// or a mesh of zero width keeps the mesh's units), the viewBox "min_x min_y width height"
// of the scaled range. One <style> sets fill, stroke, stroke-width (default width / 100,
// written as Python's str() writes a float) and stroke-linejoin:bevel for every path.
// Lines are "M x0 y0L x1 y1", triangles and quads add an "L" per node and a closing "Z".
// Other cell types are left out (meshio skips them too). Numbers use float_fmt (".3f").
// The whole file is one line without an XML declaration, as Python's ElementTree writes it.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "core/io/file.hpp"
#include "core/io/text_writer.hpp"
#include "core/io/xml.hpp"
#include "formats/svg/svg_internal.hpp"
#include "meshioplusplus/errors.hpp"

namespace meshioplusplus::svg {

namespace {

// A keyword meshio takes as a number or None (Python's "None" reaches us as that string).
bool is_none(const std::string& s) { return s.empty() || s == "None"; }

double number_option(const std::string& key, const std::string& value) {
  double v = 0;
  const auto r = std::from_chars(value.data(), value.data() + value.size(), v);
  if (r.ec != std::errc{} || r.ptr != value.data() + value.size() || !std::isfinite(v))
    throw std::invalid_argument("svg: " + key + " '" + value + "': expected a number or None");
  return v;
}

// `v` as Python's str(float) writes it: the shortest round-trip digits, positional for
// 1e-4 <= |v| < 1e16 (with at least one decimal, "1.0"), else "1e-05" / "1.5e+16".
std::string python_float(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  if (v == 0) return std::signbit(v) ? "-0.0" : "0.0";
  char sci[64];
  const auto r = std::to_chars(sci, sci + sizeof sci, v, std::chars_format::scientific);
  const std::string_view s(sci, static_cast<std::size_t>(r.ptr - sci));
  const std::size_t e = s.find('e');
  const int exponent = std::atoi(std::string(s.substr(e + 1)).c_str());
  if (exponent < -4 || exponent >= 16) {
    std::string out(s.substr(0, e));
    const int mag = std::abs(exponent);
    out += exponent < 0 ? "e-" : "e+";
    if (mag < 10) out += '0';
    return out + std::to_string(mag);
  }
  char fixed[400];
  const auto f = std::to_chars(fixed, fixed + sizeof fixed, v, std::chars_format::fixed);
  std::string out(fixed, f.ptr);
  if (out.find('.') == std::string::npos) out += ".0";
  return out;
}

}  // namespace

void write_svg(const std::string& path, const Mesh& mesh, const Options& options) {
  OptionReader opts(options, "svg");
  const io::FloatFormat ff = io::FloatFormat::parse(opts.get_string("float_fmt", ".3f"));
  const std::string stroke_width_opt = opts.get_string("stroke_width", "None");
  const std::string image_width_opt = opts.get_string("image_width", "100");
  const std::string fill = opts.get_string("fill", "#c8c5bd");
  const std::string stroke = opts.get_string("stroke", "#000080");
  opts.finish();
  const bool scale_to_image = !is_none(image_width_opt);
  const double image_width = scale_to_image ? number_option("image_width", image_width_opt) : 0.0;

  const std::size_t n = mesh.num_points();
  const std::size_t dim = mesh.points.ndim() == 2 ? mesh.points.dim(1) : 0;
  if (dim != 2 && dim != 3) throw write_error("svg", path, "points must be (n, 2) or (n, 3)");
  const NDArray points = mesh.points.as_dtype(DType::float64);
  const double* p = points.data<double>();
  if (dim == 3)
    for (std::size_t i = 0; i < n; ++i)
      if (!(std::fabs(p[3 * i + 2]) <= 1e-14))
        throw write_error("svg", path, "SVG can only handle flat 2D meshes: point " + std::to_string(i) +
                                           " has z = " + python_float(p[3 * i + 2]));

  double min_x = 0, max_x = 0, min_y = 0, max_y = 0;
  if (n > 0) {
    min_x = max_x = p[0];
    min_y = max_y = p[1];
    for (std::size_t i = 1; i < n; ++i) {
      min_x = std::min(min_x, p[dim * i]), max_x = std::max(max_x, p[dim * i]);
      min_y = std::min(min_y, p[dim * i + 1]), max_y = std::max(max_y, p[dim * i + 1]);
    }
  }
  double width = max_x - min_x, height = max_y - min_y;
  // The drawing's coordinates: y flipped within its range, then scaled (meshio's order of
  // operations, so the numbers round the same way).
  std::vector<double> xy(2 * n);
  for (std::size_t i = 0; i < n; ++i) xy[2 * i] = p[dim * i], xy[2 * i + 1] = max_y + min_y - p[dim * i + 1];
  if (scale_to_image && width != 0) {
    const double s = image_width / width;
    min_x *= s, min_y *= s, width *= s, height *= s;
    for (double& v : xy) v *= s;
  }
  const std::string stroke_width = is_none(stroke_width_opt) ? python_float(width / 100) : stroke_width_opt;

  io::AtomicFile file(path, "svg");
  io::TextWriter w(file);
  w.str("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" viewBox=\"");
  w.real(min_x, ff).ch(' ').real(min_y, ff).ch(' ').real(width, ff).ch(' ').real(height, ff);
  w.str("\"><style>");
  w.str(io::xml_escape("path {fill: " + fill + "; stroke: " + stroke + "; stroke-width: " + stroke_width +
                       "; stroke-linejoin:bevel}"));
  w.str("</style>");
  auto node = [&](std::int64_t v, bool first) {
    w.str(first ? "M " : "L ");
    w.real(xy[2 * v], ff).ch(' ').real(xy[2 * v + 1], ff);
  };
  for (const CellBlock& block : mesh.cells) {
    const bool closed = block.type == "triangle" || block.type == "quad";
    if (!closed && block.type != "line") continue;
    auto cell = [&](const std::int64_t* c, std::size_t k) {
      w.str("<path d=\"");
      for (std::size_t j = 0; j < k; ++j) node(c[j], j == 0);
      w.str(closed ? "Z\" />" : "\" />");
    };
    if (block.ragged) {
      const NDArray off = block.offsets.as_dtype(DType::int64), idx = block.indices.as_dtype(DType::int64);
      const std::int64_t* o = off.data<std::int64_t>();
      for (std::size_t i = 0; i < block.size(); ++i)
        cell(idx.data<std::int64_t>() + o[i], static_cast<std::size_t>(o[i + 1] - o[i]));
      continue;
    }
    const NDArray conn = block.connectivity.as_dtype(DType::int64);
    const std::size_t k = conn.ndim() == 2 ? conn.dim(1) : 0;
    for (std::size_t i = 0; i < block.size(); ++i) cell(conn.data<std::int64_t>() + k * i, k);
  }
  w.str("</svg>");
  w.flush();
  file.commit();
}

}  // namespace meshioplusplus::svg
