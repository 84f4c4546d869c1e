// meshio++ formats: VTS / VTR / VTI reading and writing (see structured_xml.hpp).
// Spec: https://docs.vtk.org/en/latest/design_documents/VTKFileFormats.html#structuredgrid
#include "formats/vtk_common/structured_xml.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstring>

#include "formats/vtk_common/cell_blocks.hpp"
#include "formats/vtk_common/xml_data_read.hpp"
#include "formats/vtk_common/xml_data_write.hpp"
#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/mesh_ops.hpp"

namespace meshioplusplus::vtk {

namespace {

using io::XmlElement;
using Extent = std::array<std::int64_t, 6>;
using Dims = std::array<std::size_t, 3>;

const char* format_of(GridKind kind) {
  return kind == GridKind::structured ? "vts" : kind == GridKind::rectilinear ? "vtr" : "vti";
}
const char* dataset_of(GridKind kind) {
  return kind == GridKind::structured ? "StructuredGrid" : kind == GridKind::rectilinear ? "RectilinearGrid" : "ImageData";
}

// Points along each axis; 0 on every axis when the extent is empty.
Dims dims_of(const Extent& e) {
  Dims n{};
  for (int a = 0; a < 3; ++a) {
    if (e[2 * a + 1] < e[2 * a]) return {0, 0, 0};
    n[a] = static_cast<std::size_t>(e[2 * a + 1] - e[2 * a] + 1);
  }
  return n;
}
// Cells along each axis (VTK: max(n - 1, 1), none when the grid is empty).
Dims cell_dims_of(const Dims& n) {
  if (n[0] == 0) return {0, 0, 0};
  return {std::max<std::size_t>(n[0], 2) - 1, std::max<std::size_t>(n[1], 2) - 1, std::max<std::size_t>(n[2], 2) - 1};
}

// The one cell block VTK's structured cells give for a grid of n points per axis.
CellBlock structured_cells(const Dims& n) {
  const Dims c = cell_dims_of(n);
  const std::size_t stride[3] = {1, n[0], n[0] * n[1]};
  std::vector<std::size_t> axes;
  for (std::size_t a = 0; a < 3; ++a)
    if (n[a] > 1) axes.push_back(a);
  static const char* const kNames[4] = {"vertex", "line", "quad", "hexahedron"};
  const std::size_t k = axes.size() == 3 ? 8 : axes.size() == 2 ? 4 : axes.size() == 1 ? 2 : 1;
  const std::size_t m = c[0] * c[1] * c[2];
  NDArray conn = NDArray::uninit(DType::int64, {m, k});
  auto* q = conn.data<std::int64_t>();
  for (std::size_t ck = 0; ck < c[2]; ++ck)
    for (std::size_t cj = 0; cj < c[1]; ++cj)
      for (std::size_t ci = 0; ci < c[0]; ++ci) {
        const auto p = static_cast<std::int64_t>(ci + n[0] * (cj + n[1] * ck));
        if (k == 8) {
          const auto nx = static_cast<std::int64_t>(n[0]), nxy = static_cast<std::int64_t>(n[0] * n[1]);
          const std::int64_t face[4] = {p, p + 1, p + 1 + nx, p + nx};
          for (int r = 0; r < 4; ++r) q[r] = face[r], q[r + 4] = face[r] + nxy;
        } else if (k == 4) {
          const auto sa = static_cast<std::int64_t>(stride[axes[0]]), sb = static_cast<std::int64_t>(stride[axes[1]]);
          q[0] = p, q[1] = p + sa, q[2] = p + sa + sb, q[3] = p + sb;
        } else if (k == 2) {
          q[0] = p, q[1] = p + static_cast<std::int64_t>(stride[axes[0]]);
        } else {
          q[0] = p;
        }
        q += k;
      }
  return CellBlock::rectangular(kNames[axes.size()], conn);
}

std::string extent_text(const Extent& e) {
  std::string s;
  for (int i = 0; i < 6; ++i) {
    if (i) s += ' ';
    s += std::to_string(e[i]);
  }
  return s;
}

std::string number_text(double v) {
  char buf[32];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

// ---------------------------------------------------------------------------- reading

class Reader {
 public:
  Reader(const std::string& path, GridKind kind, unsigned threads)
      : kind_(kind), x_(path, format_of(kind), dataset_of(kind), threads) {}

  Mesh read() {
    Mesh mesh;
    const XmlElement& ds = x_.dataset();
    whole_ = x_.extent_attr(ds, "WholeExtent");
    n_ = dims_of(whole_);
    // Every count below is at most 2^41 per axis; the product is checked in floating point.
    const double np_d = static_cast<double>(n_[0]) * static_cast<double>(n_[1]) * static_cast<double>(n_[2]);
    const double cap = static_cast<double>(1u << 20) + 1032.0 * static_cast<double>(x_.file_size());
    if (np_d > cap)
      x_.fail_at(ds, "WholeExtent " + extent_text(whole_) + " declares " + number_text(np_d) +
                         " points, more than this file can describe (at most " + number_text(std::floor(cap)) + ")");
    np_ = n_[0] * n_[1] * n_[2];
    const Dims c = cell_dims_of(n_);
    nc_ = c[0] * c[1] * c[2];
    if (kind_ == GridKind::image) {
      origin_ = ds.attribute("Origin") ? x_.doubles_attr(ds, "Origin", 3) : std::vector<double>{0, 0, 0};
      spacing_ = ds.attribute("Spacing") ? x_.doubles_attr(ds, "Spacing", 3) : std::vector<double>{1, 1, 1};
      direction_ = ds.attribute("Direction") ? x_.doubles_attr(ds, "Direction", 9)
                                               : std::vector<double>{1, 0, 0, 0, 1, 0, 0, 0, 1};
    }
    bool any_piece = false;
    for (const auto& ch : ds.children) {
      if (ch.name == "Piece") read_piece(ch), any_piece = true;
      else if (ch.name == "FieldData") x_.read_field_data(ch, mesh.field_data);
      else x_.fail_at(ch, expected_found("Piece or FieldData", ch.name));
    }
    if (!any_piece) x_.fail_at(ds, std::string("no Piece in ") + dataset_of(kind_));
    // Every Piece may be empty (an Extent with max < min): then none gave the grid's points.
    if (np_ > 0 && kind_ == GridKind::structured && !have_points_) x_.fail_at(ds, "no non-empty Piece holds the Points");
    if (np_ > 0 && kind_ == GridKind::rectilinear && !have_coords_) x_.fail_at(ds, "no non-empty Piece holds the Coordinates");
    mesh.points = points();
    if (np_ > 0) mesh.cells.push_back(structured_cells(n_));
    for (auto& [name, a] : point_data_) mesh.point_data[name] = a;
    for (auto& [name, a] : cell_data_) mesh.cell_data[name] = {a};
    return mesh;
  }

 private:
  struct Placement {
    Dims size{};    // of the piece (points or cells)
    Dims offset{};  // inside the whole
  };

  // Copies the piece's rows into `whole` (rows i fastest) at its placement.
  static void place(const NDArray& piece, NDArray& whole, const Placement& pl, const Dims& whole_size) {
    const std::size_t row = piece.row_size() * dtype_size(piece.dtype());
    const auto* src = static_cast<const char*>(piece.raw());
    auto* dst = static_cast<char*>(whole.raw());
    for (std::size_t k = 0; k < pl.size[2]; ++k)
      for (std::size_t j = 0; j < pl.size[1]; ++j) {
        const std::size_t at = pl.offset[0] + whole_size[0] * ((pl.offset[1] + j) + whole_size[1] * (pl.offset[2] + k));
        std::memcpy(dst + at * row, src + (j + pl.size[1] * k) * pl.size[0] * row, pl.size[0] * row);
      }
  }

  // True when the piece is the whole grid (the usual single-piece file): its arrays are
  // then the whole's, taken as they are instead of copied into zeroed ones.
  static bool covers(const Placement& pl, const Dims& whole_size) {
    return pl.offset == Dims{0, 0, 0} && pl.size == whole_size;
  }

  void place_all(NamedArrays list, NamedArrays& whole, const Placement& pl, const Dims& whole_size,
                 std::size_t whole_rows, const XmlElement& where) {
    for (auto& [name, a] : list) {
      NDArray* target = nullptr;
      for (auto& [n2, a2] : whole)
        if (n2 == name) target = &a2;
      if (!target && covers(pl, whole_size) && a.ndim() >= 1 && a.dim(0) == whole_rows) {
        whole.emplace_back(name, std::move(a));
        continue;
      }
      if (!target) {
        NDArray::Shape shape = a.shape();
        shape[0] = whole_rows;
        whole.emplace_back(name, NDArray::zeros(a.dtype(), shape));
        target = &whole.back().second;
      } else if (target->dtype() != a.dtype() || target->row_size() != a.row_size()) {
        x_.fail_at(where, "data '" + name + "' differs in dtype or components between pieces");
      }
      place(a, *target, pl, whole_size);
    }
  }

  void read_piece(const XmlElement& pe) {
    const Extent e = x_.extent_attr(pe, "Extent");
    const Dims pn = dims_of(e);
    if (pn[0] == 0) return;  // an empty piece holds nothing
    Placement pts, cells;
    const Dims wc = cell_dims_of(n_);
    for (int a = 0; a < 3; ++a) {
      if (n_[0] == 0 || e[2 * a] < whole_[2 * a] || e[2 * a + 1] > whole_[2 * a + 1])
        x_.fail_at(pe, "Piece Extent " + extent_text(e) + " is not inside the WholeExtent " + extent_text(whole_));
      pts.size[a] = pn[a];
      pts.offset[a] = static_cast<std::size_t>(e[2 * a] - whole_[2 * a]);
      // Along an axis of one point the whole grid has one cell layer; else the piece's
      // cells are those between its points.
      cells.size[a] = n_[a] > 1 ? pn[a] - 1 : 1;
      cells.offset[a] = n_[a] > 1 ? pts.offset[a] : 0;
      if (n_[a] > 1 && pn[a] == 1) cells.size[a] = 0;
    }
    const std::size_t pnp = pn[0] * pn[1] * pn[2];
    const std::size_t pnc = cells.size[0] * cells.size[1] * cells.size[2];
    for (const auto& ch : pe.children) {
      if (ch.name == "PointData") {
        place_all(x_.read_data(ch, pnp), point_data_, pts, n_, np_, ch);
      } else if (ch.name == "CellData") {
        place_all(x_.read_data(ch, pnc), cell_data_, cells, wc, nc_, ch);
      } else if (ch.name == "Points" && kind_ == GridKind::structured) {
        NDArray p = x_.read_points(ch, pnp);
        if (!have_points_ && covers(pts, n_) && p.ndim() == 2 && p.dim(0) == np_ && p.dim(1) == 3) {
          points_ = std::move(p);
          have_points_ = true;
          continue;
        }
        if (!have_points_) points_ = NDArray::zeros(p.dtype(), {np_, 3}), have_points_ = true;
        if (p.dtype() != points_.dtype()) p = p.as_dtype(points_.dtype());
        place(p, points_, pts, n_);
      } else if (ch.name == "Coordinates" && kind_ == GridKind::rectilinear) {
        if (ch.children.size() != 3) x_.fail_at(ch, "Coordinates must hold three DataArrays (x, y, z)");
        for (std::size_t a = 0; a < 3; ++a) {
          x_.expect_data_array(ch.children[a]);
          NDArray c = x_.read_array(ch.children[a], pn[a]);
          if (c.ndim() != 1) x_.fail_at(ch.children[a], "a coordinate array has one component");
          if (!dtype_is_float(c.dtype())) c = c.as_dtype(DType::float64);
          if (!have_coords_) coords_[a] = NDArray::zeros(c.dtype(), {n_[a]});
          if (c.dtype() != coords_[a].dtype()) c = c.as_dtype(coords_[a].dtype());
          std::memcpy(static_cast<char*>(coords_[a].raw()) + pts.offset[a] * dtype_size(c.dtype()), c.raw(), c.nbytes());
        }
        have_coords_ = true;
      } else {
        const char* expected = kind_ == GridKind::structured    ? "PointData, CellData or Points"
                               : kind_ == GridKind::rectilinear ? "PointData, CellData or Coordinates"
                                                                : "PointData or CellData";
        x_.fail_at(ch, expected_found(expected, ch.name));
      }
    }
    if (kind_ == GridKind::structured && !have_points_) x_.fail_at(pe, "Piece has no Points");
    if (kind_ == GridKind::rectilinear && !have_coords_) x_.fail_at(pe, "Piece has no Coordinates");
  }

  NDArray points() {
    if (np_ == 0) return NDArray::zeros(DType::float64, {0, 3});
    if (kind_ == GridKind::structured) return points_;
    if (kind_ == GridKind::rectilinear) {
      DType dt = coords_[0].dtype();
      for (const NDArray& c : coords_)
        if (c.dtype() != dt) dt = DType::float64;
      NDArray out = NDArray::uninit(dt, {np_, 3});
      visit_dtype(dt, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_floating_point_v<T>) {
          const NDArray x = coords_[0].as_dtype(dt), y = coords_[1].as_dtype(dt), z = coords_[2].as_dtype(dt);
          const T *px = x.data<const T>(), *py = y.data<const T>(), *pz = z.data<const T>();
          T* q = out.data<T>();
          for (std::size_t k = 0; k < n_[2]; ++k)
            for (std::size_t j = 0; j < n_[1]; ++j)
              for (std::size_t i = 0; i < n_[0]; ++i) *q++ = px[i], *q++ = py[j], *q++ = pz[k];
        }
      });
      return out;
    }
    NDArray out = NDArray::uninit(DType::float64, {np_, 3});
    double* q = out.data<double>();
    const double* o = origin_.data();
    const double* d = direction_.data();
    for (std::size_t k = 0; k < n_[2]; ++k)
      for (std::size_t j = 0; j < n_[1]; ++j)
        for (std::size_t i = 0; i < n_[0]; ++i) {
          const double ijk[3] = {static_cast<double>(whole_[0] + static_cast<std::int64_t>(i)) * spacing_[0],
                                 static_cast<double>(whole_[2] + static_cast<std::int64_t>(j)) * spacing_[1],
                                 static_cast<double>(whole_[4] + static_cast<std::int64_t>(k)) * spacing_[2]};
          for (int r = 0; r < 3; ++r) *q++ = o[r] + d[3 * r] * ijk[0] + d[3 * r + 1] * ijk[1] + d[3 * r + 2] * ijk[2];
        }
    return out;
  }

  GridKind kind_;
  XmlDataReader x_;
  Extent whole_{};
  Dims n_{};
  std::size_t np_ = 0, nc_ = 0;
  std::vector<double> origin_, spacing_, direction_;
  NDArray points_, coords_[3];
  bool have_points_ = false, have_coords_ = false;
  NamedArrays point_data_, cell_data_;
};

// ---------------------------------------------------------------------------- writing

// Integers of an option value such as "(3, 4, 5)" or "0 2 0 3 0 4".
std::vector<std::int64_t> option_ints(const std::string& format, const std::string& key, const std::string& v,
                                      std::size_t n) {
  std::vector<std::int64_t> out;
  const char* p = v.data();
  const char* end = p + v.size();
  while (p != end) {
    if (*p == '(' || *p == ')' || *p == '[' || *p == ']' || *p == ',' || io::is_space(*p)) {
      ++p;
      continue;
    }
    std::int64_t x = 0;
    const auto r = std::from_chars(p, end, x);
    if (r.ec != std::errc() || x < -(std::int64_t(1) << 40) || x > (std::int64_t(1) << 40))
      throw std::invalid_argument(format + ": option '" + key + "': expected " + std::to_string(n) + " integers, found '" + v + "'");
    out.push_back(x);
    p = r.ptr;
  }
  if (out.size() != n)
    throw std::invalid_argument(format + ": option '" + key + "': expected " + std::to_string(n) + " integers, found '" + v + "'");
  return out;
}

class Writer {
 public:
  Writer(const std::string& path, const Mesh& mesh, GridKind kind) : path_(path), mesh_(mesh), kind_(kind), fmt_(format_of(kind)) {}

  [[noreturn]] void fail(const std::string& what) const { throw write_error(fmt_, path_, what); }

  // The extent to write: given, or detected from the first cell.
  Extent grid(const std::optional<Extent>& given) {
    pts_ = points_3d(mesh_.points).as_dtype(DType::float64);
    const std::size_t np = pts_.dim(0);
    if (mesh_.cells.size() != 1)
      fail(std::string(dataset_of(kind_)) + " needs a structured mesh: one block of hexahedron, quad or line cells on a logical grid of points; the mesh has " +
           std::to_string(mesh_.cells.size()) + " cell blocks");
    const CellBlock& b = mesh_.cells[0];
    if (b.ragged || (b.type != "hexahedron" && b.type != "quad" && b.type != "line"))
      fail(std::string(dataset_of(kind_)) + " needs a structured mesh: hexahedron, quad or line cells on a logical grid of points; the block is '" + b.type + "'");
    const NDArray conn = b.connectivity.as_dtype(DType::int64);
    std::vector<Extent> candidates;
    if (given) {
      candidates.push_back(*given);
    } else if (b.size() > 0) {
      const auto* c = conn.data<const std::int64_t>();
      auto ext = [](std::int64_t nx, std::int64_t ny, std::int64_t nz) { return Extent{0, nx - 1, 0, ny - 1, 0, nz - 1}; };
      const auto n = static_cast<std::int64_t>(np);
      if (b.type == "hexahedron") {
        const std::int64_t nx = c[3] - c[0], nxy = c[4] - c[0];
        if (nx > 0 && nxy > 0 && nxy % nx == 0 && n % nxy == 0) candidates.push_back(ext(nx, nxy / nx, n / nxy));
      } else if (b.type == "quad") {
        const std::int64_t a = c[3] - c[0];
        if (a > 0 && n % a == 0) candidates = {ext(a, n / a, 1), ext(a, 1, n / a), ext(1, a, n / a)};
      } else {
        candidates = {ext(n, 1, 1), ext(1, n, 1), ext(1, 1, n)};
      }
    }
    std::string why = "its cells are not those of a logical grid of its " + std::to_string(np) + " points (give extent= or dims=)";
    for (const Extent& e : candidates) {
      const Dims n = dims_of(e);
      if (n[0] * n[1] * n[2] != np || np == 0) {
        why = "extent " + extent_text(e) + " has " + std::to_string(n[0] * n[1] * n[2]) + " points, the mesh " + std::to_string(np);
        continue;
      }
      const CellBlock expect = structured_cells(n);
      if (expect.type != b.type || expect.connectivity.nbytes() != conn.nbytes() ||
          std::memcmp(expect.connectivity.raw(), conn.raw(), conn.nbytes()) != 0) {
        why = "its " + b.type + " cells are not the " + expect.type + " cells of extent " + extent_text(e) + " in VTK's order";
        continue;
      }
      if (std::string g = geometry(n); !g.empty()) {
        why = g + " (extent " + extent_text(e) + ")";
        continue;
      }
      return e;
    }
    fail(std::string(dataset_of(kind_)) + " needs a structured mesh; " + why);
  }

  // Empty when the points fit the kind: any for VTS, (x[i], y[j], z[k]) for VTR, and
  // equally spaced for VTI. Fills coords_ / origin_ / spacing_.
  std::string geometry(const Dims& n) {
    if (kind_ == GridKind::structured) return {};
    const double* p = pts_.data<const double>();
    const std::size_t stride[3] = {1, n[0], n[0] * n[1]};
    for (int a = 0; a < 3; ++a) {
      coords_[a].resize(n[a]);
      for (std::size_t i = 0; i < n[a]; ++i) coords_[a][i] = p[3 * i * stride[a] + a];
    }
    for (std::size_t k = 0, at = 0; k < n[2]; ++k)
      for (std::size_t j = 0; j < n[1]; ++j)
        for (std::size_t i = 0; i < n[0]; ++i, at += 3)
          if (p[at] != coords_[0][i] || p[at + 1] != coords_[1][j] || p[at + 2] != coords_[2][k])
            return "point " + std::to_string(at / 3) + " is not (x[i], y[j], z[k]) of a rectilinear grid";
    if (kind_ == GridKind::rectilinear) return {};
    for (int a = 0; a < 3; ++a) {
      const auto& x = coords_[a];
      spacing_[a] = n[a] > 1 ? (x.back() - x.front()) / static_cast<double>(n[a] - 1) : 1.0;
      const double tol = 1e-6 * std::max({std::abs(x.back() - x.front()), std::abs(x.front()), 1e-300});
      for (std::size_t i = 0; i < n[a]; ++i)
        if (std::abs(x[i] - (x.front() + spacing_[a] * static_cast<double>(i))) > tol)
          return std::string("the points are not equally spaced along ") + "xyz"[a];
      if (n[a] > 1 && spacing_[a] == 0) return std::string("zero spacing along ") + "xyz"[a];
    }
    return {};
  }

  void write(const XmlWriteOptions& o, const std::optional<Extent>& given) {
    const Extent e = grid(given);
    XmlDataWriter w(fmt_, path_, o);
    w.add_field_data(mesh_);
    w.group("PointData");
    for (const auto& [name, a] : mesh_.point_data) w.add(name, a);
    w.group("CellData");
    for (const auto& [name, list] : mesh_.cell_data) w.add(name, concat_cell_data(name, list, fmt_, path_));
    std::string ds = " WholeExtent=\"" + extent_text(e) + "\"";
    if (kind_ == GridKind::structured) {
      w.group("Points");
      const NDArray pts = points_3d(mesh_.points);
      w.add("Points", pts.ndim() == 2 ? pts : pts.reshaped({pts.dim(0), 3}));
    } else if (kind_ == GridKind::rectilinear) {
      w.group("Coordinates");
      const DType dt = dtype_is_float(mesh_.points.dtype()) ? mesh_.points.dtype() : DType::float64;
      static const char* const kNames[3] = {"x_coordinates", "y_coordinates", "z_coordinates"};
      for (int a = 0; a < 3; ++a) w.add(kNames[a], NDArray::from_vector(coords_[a]).as_dtype(dt));
    } else {
      std::string origin, spacing;
      for (int a = 0; a < 3; ++a) {
        if (a) origin += ' ', spacing += ' ';
        origin += number_text(coords_[a][0] - spacing_[a] * static_cast<double>(e[2 * a]));
        spacing += number_text(spacing_[a]);
      }
      ds += " Origin=\"" + origin + "\" Spacing=\"" + spacing + "\" Direction=\"1 0 0 0 1 0 0 0 1\"";
    }
    w.write(dataset_of(kind_), "1.0", ds, " Extent=\"" + extent_text(e) + "\"");
  }

 private:
  const std::string& path_;
  const Mesh& mesh_;
  GridKind kind_;
  std::string fmt_;
  NDArray pts_;
  std::vector<double> coords_[3];
  double spacing_[3] = {1, 1, 1};
};

}  // namespace

Mesh read_structured_xml(const std::string& path, const Options& options, GridKind kind) {
  OptionReader opts(options, format_of(kind));
  opts.finish();
  return Reader(path, kind, opts.threads()).read();
}

void write_structured_xml(const std::string& path, const Mesh& input, const Options& options, GridKind kind) {
  const std::string fmt = format_of(kind);
  const Mesh mesh = sets_as_data(input);
  OptionReader opts(options, fmt);
  const XmlWriteOptions o = XmlWriteOptions::read(opts, fmt);
  const std::string extent = opts.get_string("extent", "");
  const std::string dims = opts.get_string("dims", "");
  opts.finish();
  std::optional<Extent> given;
  if (!extent.empty() && !dims.empty()) throw std::invalid_argument(fmt + ": give extent or dims, not both");
  if (!extent.empty()) {
    const auto v = option_ints(fmt, "extent", extent, 6);
    given = Extent{v[0], v[1], v[2], v[3], v[4], v[5]};
  } else if (!dims.empty()) {
    const auto v = option_ints(fmt, "dims", dims, 3);
    given = Extent{0, v[0] - 1, 0, v[1] - 1, 0, v[2] - 1};
  }
  Writer(path, mesh, kind).write(o, given);
}

}  // namespace meshioplusplus::vtk
