// meshio++ I-DEAS Universal writer: datasets 2411 (nodes), 2412 (elements), 2467 (groups).
// Spec: the I-DEAS Universal File Datasets Summary, datasets 2411, 2412, 2467 (see unv.hpp).
//
// Node and element labels are 1-based positions (elements in block order). Coordinates are
// written 1P3D25.16: 17 significant digits, so every double reads back exactly. 2412 takes the
// physical property and material table numbers from cell_data "unv:physical_property" and
// "unv:material" when present (else 1 and 0: gmsh reads a material number as a physical
// group), colour 7; beam elements get their record of three zeros. Each point and cell region
// becomes a group (its tag as the group number when positive and unused, else the next free
// number) with node (7) or element (8) entities; a side region has no UNV form and is not
// written. Option group_dataset: 2467 (default) or 2477, the same layout under the number
// gmsh 4.8 reads.
#include <array>
#include <charconv>
#include <cstring>
#include <set>

#include "core/io/file.hpp"
#include "core/io/text_writer.hpp"
#include "formats/unv/unv_internal.hpp"
#include "meshioplusplus/errors.hpp"

namespace meshioplusplus::unv {

namespace {

class Writer {
 public:
  Writer(io::AtomicFile& f, int group_dataset) : f_(f), w_(f), group_dataset_(group_dataset) {}

  void write(const Mesh& mesh) {
    check(mesh);
    write_nodes(mesh);
    write_elements(mesh);
    write_groups(mesh);
    w_.flush();
  }

 private:
  void check(const Mesh& mesh) {
    for (const CellBlock& b : mesh.cells)
      if (b.ragged || !element_for_type(b.type))
        throw WriteError("unv: " + f_.path() + ": cell type '" + b.type +
                         "' has no dataset 2412 element (supported: vertex, line, line3, triangle, triangle6, quad, quad8, quad9, "
                         "tetra, tetra10, wedge, wedge15, hexahedron, hexahedron20)");
    for (const Region& r : mesh.regions)
      if (r.name.find('\n') != std::string::npos || r.name.find('\r') != std::string::npos)
        throw WriteError("unv: " + f_.path() + ": region name '" + r.name + "' holds a line break, which a group name cannot");
  }

  void ints(std::initializer_list<std::int64_t> v) {
    for (std::int64_t x : v) int10(x);
    w_.ch('\n');
  }
  void int10(std::int64_t x) {
    char tmp[24];
    auto r = std::to_chars(tmp, tmp + sizeof tmp, x);
    for (auto n = r.ptr - tmp; n < 10; ++n) w_.ch(' ');
    w_.str(std::string_view(tmp, static_cast<std::size_t>(r.ptr - tmp)));
  }
  // FORTRAN D25.16: "   1.0000000000000000D+00".
  void real25(double v) {
    char tmp[48];
    auto r = std::to_chars(tmp, tmp + sizeof tmp, v, std::chars_format::scientific, 16);
    std::size_t n = static_cast<std::size_t>(r.ptr - tmp);
    if (char* e = static_cast<char*>(std::memchr(tmp, 'e', n))) *e = 'D';
    for (std::size_t k = n; k < 25; ++k) w_.ch(' ');
    w_.str(std::string_view(tmp, n));
  }

  void write_nodes(const Mesh& mesh) {
    const NDArray pts = mesh.points.as_dtype(DType::float64);
    const std::size_t n = pts.dim(0), dim = pts.dim(1);
    const double* x = pts.data<double>();
    w_.str("    -1\n  2411\n");
    for (std::size_t i = 0; i < n; ++i) {
      ints({static_cast<std::int64_t>(i) + 1, 1, 1, 11});
      for (std::size_t k = 0; k < 3; ++k) real25(k < dim ? x[i * dim + k] : 0.0);
      w_.ch('\n');
    }
    w_.str("    -1\n");
  }

  void write_elements(const Mesh& mesh) {
    auto table = [&](const char* name, std::size_t b) -> NDArray {
      auto it = mesh.cell_data.find(name);
      if (it == mesh.cell_data.end() || b >= it->second.size()) return {};
      return it->second[b].as_dtype(DType::int64);
    };
    w_.str("    -1\n  2412\n");
    std::int64_t label = 0;
    for (std::size_t b = 0; b < mesh.cells.size(); ++b) {
      const CellBlock& block = mesh.cells[b];
      const UnvElement* el = element_for_type(block.type);
      const NDArray conn = block.connectivity.as_dtype(DType::int64);
      const NDArray prop = table("unv:physical_property", b), mat = table("unv:material", b);
      const std::size_t m = conn.dim(0), k = conn.dim(1);
      std::array<std::size_t, 20> inv{};  // record position j holds VTK node inv[j]
      for (std::size_t j = 0; j < k; ++j) inv[static_cast<std::size_t>(el->perm ? el->perm[j] : static_cast<int>(j))] = j;
      const std::int64_t* c = conn.data<std::int64_t>();
      for (std::size_t i = 0; i < m; ++i) {
        ints({++label, el->fe_id, prop.size() > i ? prop.data<std::int64_t>()[i] : 1, mat.size() > i ? mat.data<std::int64_t>()[i] : 0, 7,
              static_cast<std::int64_t>(k)});
        if (is_beam(el->fe_id)) ints({0, 0, 0});
        for (std::size_t j = 0; j < k; ++j) {
          int10(c[i * k + inv[j]] + 1);
          if (j % 8 == 7 || j + 1 == k) w_.ch('\n');
        }
      }
    }
    w_.str("    -1\n");
  }

  void write_groups(const Mesh& mesh) {
    std::set<std::int64_t> used;
    for (const Region& r : mesh.regions)
      if (r.kind != RegionKind::side && r.tag > 0) used.insert(r.tag);
    std::set<std::int64_t> taken;
    std::int64_t next = 1;
    bool open = false;
    for (const Region& r : mesh.regions) {
      if (r.kind == RegionKind::side) continue;
      if (!open) w_.str(group_dataset_ == 2477 ? "    -1\n  2477\n" : "    -1\n  2467\n"), open = true;
      std::int64_t number = r.tag;
      if (number <= 0 || taken.count(number)) {
        while (used.count(next) || taken.count(next)) ++next;
        number = next;
      }
      taken.insert(number);
      const NDArray e = r.entries.as_dtype(DType::int64);
      const std::size_t n = e.size();
      ints({number, 0, 0, 0, 0, 0, 0, static_cast<std::int64_t>(n)});
      w_.str(r.name.empty() ? "group_" + std::to_string(number) : r.name).ch('\n');
      const std::int64_t type = r.kind == RegionKind::point ? 7 : 8;
      for (std::size_t i = 0; i < n; ++i) {
        int10(type), int10(e.data<std::int64_t>()[i] + 1), int10(0), int10(0);
        if (i % 2 == 1 || i + 1 == n) w_.ch('\n');
      }
    }
    if (open) w_.str("    -1\n");
  }

  io::AtomicFile& f_;
  io::TextWriter w_;
  int group_dataset_;
};

}  // namespace

void write_unv(const std::string& path, const Mesh& mesh, const Options& options) {
  OptionReader opts(options, "unv");
  const long long groups = opts.get_int("group_dataset", 2467);
  if (groups != 2467 && groups != 2477)
    throw std::invalid_argument("unv: group_dataset must be 2467 or 2477, not " + std::to_string(groups));
  opts.finish();
  io::AtomicFile f(path, "unv");
  Writer(f, static_cast<int>(groups)).write(mesh);
  f.commit();
}

}  // namespace meshioplusplus::unv
