// meshio++ Nastran bulk data writer: "BEGIN BULK", GRIDs, one element card per cell, ENDDATA.
// Spec: MSC Nastran Quick Reference Guide, "Format of Bulk Data Entries" (see nastran.hpp).
//
// Keywords as meshio's writer: point_format and cell_format, each "free", "fixed-small" or
// "fixed-large" (defaults "fixed-large" and "fixed-small"). Point ids and element ids are
// 1-based positions; point_data "nastran:ref" goes to the GRID's CP field and cell_data
// "nastran:ref" to the element's PID field, as meshio does; without it the PID written is
// the element id (what a blank PID means). 2-D points get z = 0.
// Reals always hold a decimal point (the spec requires one). A fixed field holds the value
// with the most significant digits that fit its 8 or 16 columns (plain or exponent form;
// small fields use the compact exponent 1.2345-6); free field writes the shortest string
// that reads back to the same double. A continued card writes '+' (small) or '*' (large) in
// field 1 of each continuation line and leaves field 10 blank.
#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "core/io/file.hpp"
#include "core/io/text_writer.hpp"
#include "formats/nastran/nastran_internal.hpp"
#include "meshioplusplus/cell_types.hpp"
#include "meshioplusplus/errors.hpp"

namespace meshioplusplus::nastran {

namespace {

enum class Layout { free, small, large };

Layout layout_of(const std::string& key, const std::string& value) {
  if (value == "free") return Layout::free;
  if (value == "fixed-small") return Layout::small;
  if (value == "fixed-large") return Layout::large;
  throw std::invalid_argument("nastran: " + key + " must be 'free', 'fixed-small' or 'fixed-large', not '" + value + "'");
}

// `mantissa` "d.ddd" and exponent `e` as Nastran text: "d.dddE+e" or, compact, "d.ddd+e".
std::size_t exponent_form(char* out, std::string_view mantissa, int e, bool compact) {
  std::size_t n = 0;
  for (char c : mantissa) out[n++] = c;
  if (mantissa.find('.') == std::string_view::npos) out[n++] = '.';
  if (!compact) out[n++] = 'E';
  out[n++] = e < 0 ? '-' : '+';
  auto r = std::to_chars(out + n, out + n + 8, e < 0 ? -e : e);
  return static_cast<std::size_t>(r.ptr - out);
}

// to_chars' scientific text "m.mmme-05" rewritten in Nastran's exponent form.
std::size_t rewrite_scientific(char* out, const char* s, const char* end, bool compact) {
  const char* e = static_cast<const char*>(std::memchr(s, 'e', static_cast<std::size_t>(end - s)));
  if (!e) {  // plain notation: make sure there is a decimal point
    std::size_t n = static_cast<std::size_t>(end - s);
    std::memmove(out, s, n);
    if (!std::memchr(out, '.', n) && !std::memchr(out, 'n', n)) out[n++] = '.';  // not for inf / nan
    return n;
  }
  int ex = 0;
  std::from_chars(e[1] == '+' ? e + 2 : e + 1, end, ex);
  char mant[40];
  const std::size_t m = static_cast<std::size_t>(e - s);
  std::memcpy(mant, s, m);
  return exponent_form(out, std::string_view(mant, m), ex, compact);
}

// `v` in at most `width` characters with the most significant digits; `width` 0 = shortest
// round trip (free field). Returns the length written to `out` (>= 40 chars).
std::size_t format_real(char* out, double v, std::size_t width, bool compact) {
  char tmp[64];
  auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
  std::size_t n = rewrite_scientific(out, tmp, r.ptr, compact);
  if (width == 0 || n <= width || !std::isfinite(v)) return n;
  // Lossy: the better of exponent form and plain form at the widest precision that fits.
  const std::size_t sign = v < 0 ? 1 : 0;
  const int e10 = static_cast<int>(std::floor(std::log10(std::fabs(v))));
  int best_digits = -1;
  std::size_t best_n = 0;
  char cand[64];
  for (int tries = 0; tries < 2; ++tries) {  // a rounding carry can lengthen the exponent once
    const int ee = e10 + tries;
    const std::size_t exp_len = (compact ? 1 : 2) + (std::abs(ee) >= 100 ? 3 : std::abs(ee) >= 10 ? 2 : 1);
    if (width < sign + 2 + exp_len) continue;
    const int p = static_cast<int>(width - sign - 2 - exp_len);
    auto s = std::to_chars(tmp, tmp + sizeof tmp, v, std::chars_format::scientific, p);
    const std::size_t m = rewrite_scientific(cand, tmp, s.ptr, compact);
    if (m <= width) {
      best_digits = p + 1;
      best_n = m;
      std::memcpy(out, cand, m);
      break;
    }
  }
  // Plain: sign, integer digits (or "0"), '.', decimals.
  const int int_digits = e10 >= 0 ? e10 + 1 : 1;
  const int decimals = static_cast<int>(width) - static_cast<int>(sign) - int_digits - 1;
  if (decimals >= 0) {
    const int digits = e10 >= 0 ? int_digits + decimals : decimals + e10 + 1;
    if (digits > best_digits) {
      auto s = std::to_chars(tmp, tmp + sizeof tmp, v, std::chars_format::fixed, decimals);
      std::size_t m = static_cast<std::size_t>(s.ptr - tmp);
      if (!std::memchr(tmp, '.', m)) tmp[m++] = '.';
      while (m > 0 && tmp[m - 1] == '0') --m;  // "0.50000000" -> "0.5"
      if (m <= width) {
        std::memcpy(out, tmp, m);
        best_n = m;
      }
    }
  }
  return best_n;
}

class Writer {
 public:
  Writer(io::AtomicFile& f, Layout points, Layout cells) : f_(f), w_(f), pl_(points), cl_(cells) {}

  void write(const Mesh& mesh) {
    w_.str("$ Nastran bulk data written by meshio++\nBEGIN BULK\n");
    write_points(mesh);
    write_cells(mesh);
    w_.str("ENDDATA\n");
    w_.flush();
  }

 private:
  void write_points(const Mesh& mesh) {
    const NDArray pts = mesh.points.as_dtype(DType::float64);
    const std::size_t n = pts.dim(0), dim = pts.dim(1);
    if (dim != 2 && dim != 3) throw WriteError("nastran: " + f_.path() + ": points must have 2 or 3 columns, found " + std::to_string(dim));
    const double* x = pts.data<double>();
    NDArray cp;
    auto it = mesh.point_data.find("nastran:ref");
    if (it != mesh.point_data.end()) cp = it->second.as_dtype(DType::int64);
    for (std::size_t i = 0; i < n; ++i) {
      const double xyz[3] = {x[i * dim], x[i * dim + 1], dim == 3 ? x[i * dim + 2] : 0.0};
      const std::int64_t id = static_cast<std::int64_t>(i) + 1;
      const std::int64_t* cpv = cp.size() ? cp.data<std::int64_t>() + i * cp.row_size() : nullptr;
      if (pl_ == Layout::free) {
        w_.str("GRID,").integer(id).ch(',');
        if (cpv) w_.integer(*cpv);
        for (double c : xyz) w_.ch(',').str(real(c, 0, false));
        w_.ch('\n');
      } else if (pl_ == Layout::small) {
        w_.str("GRID    ");
        int_field(id, 8, "GRID id");
        if (cpv) int_field(*cpv, 8, "GRID CP");
        else w_.str("        ");
        for (double c : xyz) right(real(c, 8, true), 8);
        w_.ch('\n');
      } else {
        w_.str("GRID*   ");
        int_field(id, 16, "GRID id");
        if (cpv) int_field(*cpv, 16, "GRID CP");
        else w_.str("                ");
        right(real(xyz[0], 16, false), 16);
        right(real(xyz[1], 16, false), 16);
        w_.str("\n*       ");
        right(real(xyz[2], 16, false), 16);
        w_.ch('\n');
      }
    }
  }

  void write_cells(const Mesh& mesh) {
    const std::vector<NDArray>* refs = nullptr;
    auto it = mesh.cell_data.find("nastran:ref");
    if (it != mesh.cell_data.end()) refs = &it->second;
    std::int64_t eid = 0;
    std::array<std::int64_t, 32> fields;
    constexpr std::int64_t kBlank = INT64_MIN;
    for (std::size_t b = 0; b < mesh.cells.size(); ++b) {
      const CellBlock& block = mesh.cells[b];
      const ElementCard* ec = block.ragged ? nullptr : element_card_for_type(block.type);
      if (!ec)
        throw WriteError("nastran: " + f_.path() + ": cell type '" + block.type +
                         "' has no Nastran element card (supported: vertex, line, triangle, triangle6, quad, quad8, quad9, "
                         "tetra, tetra10, pyramid, pyramid13, wedge, wedge15, hexahedron, hexahedron20)");
      const NDArray conn = block.connectivity.as_dtype(DType::int64);
      const std::size_t k = conn.dim(1), m = conn.dim(0);
      const int* perm = static_cast<int>(k) == ec->nodes ? ec->perm : nullptr;
      // inverse: the card's grid position j holds VTK node inv[j]
      std::array<int, 20> inv{};
      for (std::size_t j = 0; j < k; ++j) inv[static_cast<std::size_t>(perm ? perm[j] : static_cast<int>(j))] = static_cast<int>(j);
      NDArray pid;
      if (refs && b < refs->size()) pid = (*refs)[b].as_dtype(DType::int64);
      const std::int64_t* c = conn.data<std::int64_t>();
      const std::size_t count = static_cast<std::size_t>(ec->first_grid) + (k - 1) * static_cast<std::size_t>(ec->grid_stride) + 1;
      for (std::size_t i = 0; i < m; ++i) {
        fields.fill(kBlank);
        fields[0] = ++eid;
        // Without cell_data "nastran:ref" the PID is the element id: the spec's default for a
        // blank PID, written out because some readers (gmsh's) drop blank fixed fields.
        if (ec->pid >= 0) fields[static_cast<std::size_t>(ec->pid)] = pid.size() > i ? pid.data<std::int64_t>()[i] : eid;
        for (std::size_t j = 0; j < k; ++j)
          fields[static_cast<std::size_t>(ec->first_grid) + j * static_cast<std::size_t>(ec->grid_stride)] = c[i * k + static_cast<std::size_t>(inv[j])] + 1;
        card(ec->card, fields.data(), count, kBlank);
      }
    }
  }

  // One element card of integer data fields (kBlank = a blank field).
  void card(std::string_view name, const std::int64_t* v, std::size_t n, std::int64_t blank) {
    const std::size_t per_line = cl_ == Layout::large ? 4 : 8;
    const std::size_t width = cl_ == Layout::large ? 16 : 8;
    if (cl_ == Layout::free) {
      w_.str(name);
      for (std::size_t i = 0; i < n; ++i) {
        if (i > 0 && i % per_line == 0) w_.str("\n+");
        w_.ch(',');
        if (v[i] != blank) w_.integer(v[i]);
      }
      w_.ch('\n');
      return;
    }
    w_.str(name);
    if (cl_ == Layout::large) {
      w_.ch('*');
      for (std::size_t p = name.size() + 1; p < 8; ++p) w_.ch(' ');
    } else {
      for (std::size_t p = name.size(); p < 8; ++p) w_.ch(' ');
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (i > 0 && i % per_line == 0) w_.str(cl_ == Layout::large ? "\n*       " : "\n+       ");
      if (v[i] == blank) {
        for (std::size_t p = 0; p < width; ++p) w_.ch(' ');
      } else {
        int_field(v[i], width, "element field");
      }
    }
    w_.ch('\n');
  }

  std::string_view real(double v, std::size_t width, bool compact) {
    const std::size_t n = format_real(buf_, v, width, compact);
    return {buf_, n};
  }
  void right(std::string_view s, std::size_t width) {
    for (std::size_t p = s.size(); p < width; ++p) w_.ch(' ');
    w_.str(s);
  }
  // An integer left-justified in `width` columns; one that does not fit is an error.
  void int_field(std::int64_t v, std::size_t width, const char* what) {
    char tmp[24];
    auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
    const std::size_t n = static_cast<std::size_t>(r.ptr - tmp);
    if (n > width)
      throw WriteError("nastran: " + f_.path() + ": " + what + " " + std::to_string(v) + " does not fit a " + std::to_string(width) +
                       "-character field (use the 'fixed-large' or 'free' layout)");
    w_.str(std::string_view(tmp, n));
    for (std::size_t p = n; p < width; ++p) w_.ch(' ');
  }

  io::AtomicFile& f_;
  io::TextWriter w_;
  Layout pl_, cl_;
  char buf_[80];
};

}  // namespace

void write_nastran(const std::string& path, const Mesh& mesh, const Options& options) {
  OptionReader opts(options, "nastran");
  const Layout points = layout_of("point_format", opts.get_string("point_format", "fixed-large"));
  const Layout cells = layout_of("cell_format", opts.get_string("cell_format", "fixed-small"));
  opts.finish();
  io::AtomicFile f(path, "nastran");
  Writer(f, points, cells).write(mesh);
  f.commit();
}

}  // namespace meshioplusplus::nastran
