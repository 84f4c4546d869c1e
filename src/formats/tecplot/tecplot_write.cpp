// meshio++ Tecplot ASCII writer (one finite-element zone, BLOCK packing).
// Spec: https://github.com/su2code/SU2/raw/master/externals/tecio/360_data_format_guide.pdf
//
// As meshio writes it: TITLE, VARIABLES "X", "Y"[, "Z"], the point data, then the cell
// data (a (n, k) array as k variables <name>_0 ... <name>_(k-1); arrays named X, Y, Z, x,
// y or z are skipped with a warning), one ZONE with NODES, ELEMENTS, DATAPACKING=BLOCK, the
// ZONETYPE and VARLOCATION for the cell data; 20 values a line, shortest round-trip
// numbers; the elements 1-based, one a line. One cell type: its zone type (pyramids and
// wedges as degenerate FEBRICK elements). Several: FEQUADRILATERAL (triangles as quads
// with a repeated node) or FEBRICK (tetrahedra, pyramids, wedges as degenerate bricks),
// by meshio's node tables; cells of a lower dimension than the highest are skipped with a
// warning (meshio skips 2-D cells beside 3-D ones), so are cell types Tecplot has no zone
// for. No cell Tecplot can hold is a WriteError.
#include <string_view>
#include <vector>

#include "core/io/array_writer.hpp"
#include "core/io/file.hpp"
#include "core/io/text_writer.hpp"
#include "formats/tecplot/tecplot_internal.hpp"
#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/version.hpp"
#include "meshioplusplus/warnings.hpp"

namespace meshioplusplus::tecplot {

namespace {

int dimension_of(std::string_view t) {
  if (t == "line") return 1;
  if (t == "triangle" || t == "quad") return 2;
  if (t == "tetra" || t == "pyramid" || t == "wedge" || t == "hexahedron") return 3;
  return 0;
}

// Zone corner j of a `type` cell is its node table[j] (size k).
std::vector<int> table(std::string_view type, bool single) {
  if (type == "pyramid") return {std::begin(kPyramidAsBrick), std::end(kPyramidAsBrick)};
  if (type == "wedge") return {std::begin(kWedgeAsBrick), std::end(kWedgeAsBrick)};
  if (!single && type == "triangle") return {std::begin(kTriangleAsQuad), std::end(kTriangleAsQuad)};
  if (!single && type == "tetra") return {std::begin(kTetraAsBrick), std::end(kTetraAsBrick)};
  const std::size_t k = type == "line" ? 2 : type == "triangle" ? 3 : type == "hexahedron" ? 8 : 4;
  std::vector<int> t(k);
  for (std::size_t j = 0; j < k; ++j) t[j] = static_cast<int>(j);
  return t;
}

bool is_coordinate_name(const std::string& n) {
  return n == "X" || n == "Y" || n == "Z" || n == "x" || n == "y" || n == "z";
}

}  // namespace

void write_tecplot(const std::string& path, const Mesh& mesh, const Options& options) {
  OptionReader opts(options, "tecplot");
  opts.finish();
  auto fail = [&](const std::string& what) { throw write_error("tecplot", path, what); };
  const std::size_t dim = mesh.points.dim(1);
  if (mesh.points.ndim() != 2 || (dim != 2 && dim != 3)) fail("points must be (n, 2) or (n, 3)");
  int top = 0;
  for (std::size_t b = 0; b < mesh.cells.size(); ++b) {
    const int d = mesh.cells[b].ragged ? 0 : dimension_of(mesh.cells[b].type);
    if (d == 0) warn("tecplot: cell type '" + mesh.cells[b].type + "' has no Tecplot zone type; skipping cell block " + std::to_string(b));
    top = std::max(top, d);
  }
  std::vector<std::size_t> kept;
  std::vector<std::string_view> types;
  for (std::size_t b = 0; b < mesh.cells.size(); ++b) {
    const int d = mesh.cells[b].ragged ? 0 : dimension_of(mesh.cells[b].type);
    if (d == 0) continue;
    if (d < top) {
      warn("tecplot: the mesh has " + std::to_string(top) + "-D cells; skipping cell block " + std::to_string(b) + " ('" +
           mesh.cells[b].type + "')");
      continue;
    }
    kept.push_back(b);
    if (std::find(types.begin(), types.end(), mesh.cells[b].type) == types.end()) types.push_back(mesh.cells[b].type);
  }
  if (kept.empty()) fail("no cell type supported by Tecplot in the mesh (line, triangle, quad, tetra, pyramid, wedge, hexahedron)");
  const bool single = types.size() == 1;
  if (!single && top == 1) fail("internal: several 1-D cell types");
  std::string zone_type;
  if (single) {
    const std::string_view t = types[0];
    zone_type = t == "line" ? "FELINESEG" : t == "triangle" ? "FETRIANGLE" : t == "quad" ? "FEQUADRILATERAL" : t == "tetra" ? "FETETRAHEDRON" : "FEBRICK";
  } else {
    zone_type = top == 2 ? "FEQUADRILATERAL" : "FEBRICK";
  }
  std::size_t ncells = 0;
  for (std::size_t b : kept) ncells += mesh.cells[b].size();

  // Variables: names and their values (one 1-D float64 array each).
  std::vector<std::string> names{"X", "Y"};
  std::vector<NDArray> values;
  const NDArray points = mesh.points.as_dtype(DType::float64);
  for (std::size_t c = 0; c < dim; ++c) {
    NDArray col = NDArray::uninit(DType::float64, {mesh.num_points()});
    for (std::size_t i = 0; i < mesh.num_points(); ++i) col.data<double>()[i] = points.data<double>()[dim * i + c];
    values.push_back(std::move(col));
  }
  if (dim == 3) names.push_back("Z");
  auto add = [&](const std::string& name, const std::vector<const NDArray*>& parts, std::size_t rows, const char* kind) {
    if (is_coordinate_name(name)) {
      warn("tecplot: skipping " + std::string(kind) + " data '" + name + "'");
      return;
    }
    const NDArray& first = *parts.front();
    if (first.ndim() != 1 && first.ndim() != 2) fail(std::string(kind) + " data '" + name + "' must be 1-D or 2-D");
    const std::size_t k = first.ndim() == 1 ? 1 : first.dim(1);
    for (std::size_t c = 0; c < k; ++c) {
      NDArray col = NDArray::uninit(DType::float64, {rows});
      std::size_t at = 0;
      for (const NDArray* part : parts) {
        if (part->ndim() != first.ndim() || (k > 1 && part->dim(1) != k)) fail(std::string(kind) + " data '" + name + "' has blocks of different shapes");
        const NDArray d = part->as_dtype(DType::float64);
        for (std::size_t i = 0; i < d.dim(0); ++i) col.data<double>()[at++] = d.data<double>()[k * i + c];
      }
      names.push_back(k == 1 ? name : name + "_" + std::to_string(c));
      values.push_back(std::move(col));
    }
  };
  for (const auto& [name, a] : mesh.point_data) add(name, {&a}, mesh.num_points(), "point");
  const std::size_t first_cell_var = names.size();
  for (const auto& [name, arrays] : mesh.cell_data) {
    std::vector<const NDArray*> parts;
    for (std::size_t b : kept) parts.push_back(&arrays.at(b));
    add(name, parts, ncells, "cell");
  }

  io::AtomicFile file(path, "tecplot");
  io::TextWriter w(file);
  w.str("TITLE = \"Written by meshio++ v").str(version()).str("\"\n");
  w.str("VARIABLES = ");
  for (std::size_t v = 0; v < names.size(); ++v) w.str(v ? ", \"" : "\"").str(names[v]).ch('"');
  w.str("\nZONE NODES = ").integer(mesh.num_points()).str(", ELEMENTS = ").integer(ncells).str(",\n");
  w.str("DATAPACKING = BLOCK, ZONETYPE = ").str(zone_type);
  if (first_cell_var < names.size()) {
    w.str(",\nVARLOCATION = ([").integer(first_cell_var + 1);
    if (names.size() > first_cell_var + 1) w.ch('-').integer(names.size());
    w.str("] = CELLCENTERED)");
  }
  w.ch('\n');
  const io::FloatFormat shortest;
  for (const NDArray& v : values) io::write_ascii(w, v, shortest, {20, " ", true});
  for (std::size_t b : kept) {
    const std::vector<int> t = table(mesh.cells[b].type, single);
    const NDArray conn = mesh.cells[b].connectivity.as_dtype(DType::int64);
    const std::size_t k = conn.dim(1);
    const std::int64_t* c = conn.data<std::int64_t>();
    for (std::size_t i = 0; i < conn.dim(0); ++i) {
      for (std::size_t j = 0; j < t.size(); ++j) {
        if (j) w.ch(' ');
        w.integer(c[k * i + static_cast<std::size_t>(t[j])] + 1);
      }
      w.ch('\n');
    }
  }
  w.flush();
  file.commit();
}

}  // namespace meshioplusplus::tecplot
