// meshio++ Kratos MDPA writer.
// Spec: Kratos "Input data" (https://github.com/KratosMultiphysics/Kratos/wiki/Input-data).
//
// meshio's layout: an empty ModelPartData and "Properties 0", the Nodes ("id x y z",
// float_fmt, default ".16e"; 2-D points get z = 0), one "Elements <name>" block per cell
// block (ids 1..N over all blocks; the property id from cell_data "mdpa:property_id", else
// 0; meshio's geometry names, "3D" when any block is a volume), then point_data as
// NodalData and cell_data as ElementalData. Data rows are written as Kratos reads them:
// "id 0 value" (is_fixed 0) for nodes and "id value" for elements, a variable of k > 1
// components as "[k](v1,...,vk)" (meshio writes bare values, which Kratos cannot read).
// Point and cell regions become SubModelParts holding SubModelPartNodes / Elements, nested
// by the '.' in their names ("a.b" is part b inside part a). binary=True is refused, as
// meshio refuses it.
#include <map>
#include <set>

#include "core/io/cursor.hpp"
#include "core/io/file.hpp"
#include "core/io/text_writer.hpp"
#include "formats/mdpa/mdpa_internal.hpp"
#include "meshioplusplus/cell_types.hpp"
#include "meshioplusplus/errors.hpp"

namespace meshioplusplus::mdpa {

namespace {

bool bad_name(const std::string& s) {
  if (s.empty()) return true;
  for (char c : s)
    if (io::is_space(c) || c == '/') return true;
  return false;
}

struct PartNode {
  std::string name;
  const Region* points = nullptr;
  const Region* cells = nullptr;
  std::vector<std::size_t> children;
};

class Writer {
 public:
  Writer(io::AtomicFile& f, io::FloatFormat ff) : f_(f), w_(f), ff_(ff) {}

  void write(const Mesh& mesh) {
    check(mesh);
    w_.str("Begin ModelPartData\n//  VARIABLE_NAME value\nEnd ModelPartData\n\nBegin Properties 0\nEnd Properties\n\n");
    nodes(mesh);
    elements(mesh);
    for (const auto& [name, values] : mesh.point_data) data("NodalData", name, {values}, true);
    for (const auto& [name, values] : mesh.cell_data)
      if (name != "mdpa:property_id" && name != "gmsh:physical" && name != "gmsh:geometrical") data("ElementalData", name, values, false);
    parts(mesh);
    w_.flush();
  }

 private:
  [[noreturn]] void fail(const std::string& what) { throw write_error("mdpa", f_.path(), what); }

  void check(const Mesh& mesh) {
    for (const CellBlock& b : mesh.cells) {
      if (b.ragged || kratos_name(b.type, false).empty())
        fail("cell type '" + b.type + "' has no Kratos geometry (supported: vertex, line, line3, triangle, triangle6, quad, quad8, quad9, "
             "tetra, tetra10, wedge, hexahedron, hexahedron20, hexahedron27)");
      if (cell_type(b.type).dim == 3) three_d_ = true;
    }
    for (const auto& [name, v] : mesh.point_data)
      if (bad_name(name)) fail("point_data name '" + name + "' is not a Kratos variable name (empty, or holds a blank or '/')");
    for (const auto& [name, v] : mesh.cell_data)
      if (bad_name(name)) fail("cell_data name '" + name + "' is not a Kratos variable name (empty, or holds a blank or '/')");
  }

  void nodes(const Mesh& mesh) {
    const NDArray pts = mesh.points.as_dtype(DType::float64);
    const std::size_t n = pts.dim(0), dim = pts.ndim() > 1 ? pts.dim(1) : 0;
    const double* x = pts.data<double>();
    w_.str("Begin Nodes\n");
    for (std::size_t i = 0; i < n; ++i) {
      w_.ch(' ').integer(i + 1);
      for (std::size_t k = 0; k < 3; ++k) w_.ch(' ').real(k < dim ? x[i * dim + k] : 0.0, ff_);
      w_.ch('\n');
    }
    w_.str("End Nodes\n\n");
  }

  void elements(const Mesh& mesh) {
    auto props_it = mesh.cell_data.find("mdpa:property_id");
    std::int64_t id = 0;
    for (std::size_t b = 0; b < mesh.cells.size(); ++b) {
      const CellBlock& block = mesh.cells[b];
      const NDArray conn = block.connectivity.as_dtype(DType::int64);
      NDArray props;
      if (props_it != mesh.cell_data.end() && b < props_it->second.size()) props = props_it->second[b].as_dtype(DType::int64);
      const std::size_t m = conn.dim(0), k = conn.dim(1);
      const int* order = kratos_order(block.type);
      const std::int64_t* c = conn.data<std::int64_t>();
      w_.str("Begin Elements ").str(kratos_name(block.type, three_d_)).ch('\n');
      for (std::size_t i = 0; i < m; ++i) {
        w_.ch(' ').integer(++id).ch(' ').integer(props.size() == m ? props.data<std::int64_t>()[i] : 0);
        for (std::size_t j = 0; j < k; ++j) w_.ch(' ').integer(c[i * k + (order ? order[j] : j)] + 1);
        w_.ch('\n');
      }
      w_.str("End Elements\n\n");
    }
  }

  void data(const char* block, const std::string& name, const std::vector<NDArray>& arrays, bool nodal) {
    w_.str("Begin ").str(block).ch(' ').str(name).ch('\n');
    std::int64_t id = 0;
    for (const NDArray& a : arrays) {
      const NDArray v = a.as_dtype(DType::float64);
      const std::size_t rows = v.ndim() ? v.dim(0) : 0, comps = rows ? v.size() / rows : 1;
      const double* x = v.data<double>();
      for (std::size_t i = 0; i < rows; ++i) {
        w_.ch(' ').integer(++id).str(nodal ? " 0 " : " ");
        if (comps == 1 && v.ndim() == 1) {
          w_.real(x[i], ff_);
        } else {
          w_.ch('[').integer(comps).str("](");
          for (std::size_t k = 0; k < comps; ++k) {
            if (k) w_.ch(',');
            w_.real(x[i * comps + k], ff_);
          }
          w_.ch(')');
        }
        w_.ch('\n');
      }
    }
    w_.str("End ").str(block).str("\n\n");
  }

  // Regions as sub-model parts, nested by the '.' in their names.
  void parts(const Mesh& mesh) {
    std::vector<PartNode> tree(1);  // tree[0]: the model part itself
    for (const Region& r : mesh.regions) {
      if (r.kind == RegionKind::side) continue;
      std::size_t at = 0;
      std::size_t from = 0;
      for (;;) {
        const std::size_t dot = r.name.find('.', from);
        const std::string seg = r.name.substr(from, dot == std::string::npos ? std::string::npos : dot - from);
        if (bad_name(seg)) fail("region name '" + r.name + "' is not a sub-model part path (an empty part, a blank or a '/')");
        std::size_t next = 0;
        for (std::size_t c : tree[at].children)
          if (tree[c].name == seg) next = c;
        if (!next) {
          next = tree.size();
          tree[at].children.push_back(next);
          tree.push_back({seg, nullptr, nullptr, {}});
        }
        at = next;
        if (dot == std::string::npos) break;
        from = dot + 1;
      }
      (r.kind == RegionKind::point ? tree[at].points : tree[at].cells) = &r;
    }
    for (std::size_t c : tree[0].children) part(tree, c, 0);
  }

  void part(const std::vector<PartNode>& tree, std::size_t i, std::size_t depth) {
    const std::string indent(2 * depth, ' ');
    const PartNode& p = tree[i];
    w_.str(indent).str("Begin SubModelPart ").str(p.name).ch('\n');
    ids(indent, "SubModelPartNodes", p.points);
    ids(indent, "SubModelPartElements", p.cells);
    for (std::size_t c : p.children) part(tree, c, depth + 1);
    w_.str(indent).str("End SubModelPart\n");
  }

  void ids(const std::string& indent, const char* block, const Region* r) {
    w_.str(indent).str("  Begin ").str(block).ch('\n');
    if (r) {
      const NDArray e = r->entries.as_dtype(DType::int64);
      for (std::size_t k = 0; k < e.size(); ++k) w_.str(indent).str("    ").integer(e.data<std::int64_t>()[k] + 1).ch('\n');
    }
    w_.str(indent).str("  End ").str(block).ch('\n');
  }

  io::AtomicFile& f_;
  io::TextWriter w_;
  io::FloatFormat ff_;
  bool three_d_ = false;
};

}  // namespace

void write_mdpa(const std::string& path, const Mesh& mesh, const Options& options) {
  OptionReader opts(options, "mdpa");
  const io::FloatFormat ff = io::FloatFormat::parse(opts.get_string("float_fmt", ".16e"));
  const bool binary = opts.get_bool("binary", false);
  opts.finish();
  if (binary) throw write_error("mdpa", path, "binary=True: the MDPA format is text only (meshio refuses it too)");
  io::AtomicFile f(path, "mdpa");
  Writer(f, ff).write(mesh);
  f.commit();
}

}  // namespace meshioplusplus::mdpa
