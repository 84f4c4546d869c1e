// meshio++ AVS-UCD writer (ASCII).
// Spec: https://lanl.github.io/LaGriT/pages/docs/read_avs.html
//
// As meshio writes it: a "# Written by meshio++" comment, the header counts, nodes 1..n
// (2-D points get z = 0), cells 1..m in block order with meshio's node orders mapped to
// AVS's. The material number of each cell is the first integer cell data array (in name
// order; zero when there is none); every other cell data array, and every point data
// array, is a data component (its label the array's name, its size 1 or the array's
// column count), written with "real" units. Numbers are the shortest strings that read
// back to the same values (meshio writes data with %.14e). A cell type AVS has no name for
// is a WriteError naming the block (meshio fails on it too).
#include <vector>

#include "core/io/file.hpp"
#include "core/io/text_writer.hpp"
#include "formats/avsucd/avsucd_internal.hpp"
#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/version.hpp"

namespace meshioplusplus::avsucd {

namespace {

struct Component {
  std::string name;
  std::size_t size;
  std::vector<NDArray> blocks;  // float64, one per block (point data: one)
};

bool is_integer(DType t) { return !dtype_is_float(t); }

void write_section(io::TextWriter& w, const std::vector<Component>& comps, std::size_t n) {
  const io::FloatFormat shortest;
  w.integer(comps.size());
  for (const Component& c : comps) w.ch(' ').integer(c.size);
  w.ch('\n');
  for (const Component& c : comps) w.str(c.name).str(", real\n");
  std::vector<std::size_t> block(comps.size(), 0), row(comps.size(), 0);
  for (std::size_t i = 0; i < n; ++i) {
    w.integer(i + 1);
    for (std::size_t c = 0; c < comps.size(); ++c) {
      const Component& comp = comps[c];
      while (row[c] == comp.blocks[block[c]].dim(0)) ++block[c], row[c] = 0;
      const double* v = comp.blocks[block[c]].data<double>() + row[c] * comp.size;
      for (std::size_t k = 0; k < comp.size; ++k) w.ch(' ').real(v[k], shortest);
      ++row[c];
    }
    w.ch('\n');
  }
}

}  // namespace

void write_avsucd(const std::string& path, const Mesh& mesh, const Options& options) {
  OptionReader opts(options, "avsucd");
  opts.finish();
  auto fail = [&](const std::string& what) { throw write_error("avsucd", path, what); };
  const std::size_t dim = mesh.points.dim(1);
  if (mesh.points.ndim() != 2 || (dim != 2 && dim != 3)) fail("points must be (n, 2) or (n, 3)");
  std::vector<const CellType*> types;
  for (std::size_t b = 0; b < mesh.cells.size(); ++b) {
    const CellBlock& block = mesh.cells[b];
    const CellType* type = nullptr;
    for (const CellType& t : kCellTypes)
      if (t.meshio == block.type) type = &t;
    if (!type || block.ragged)
      fail("AVS-UCD holds vertex, line, triangle, quad, tetra, pyramid, wedge and hexahedron cells: cell block " +
           std::to_string(b) + " is '" + block.type + "'");
    types.push_back(type);
  }
  const std::size_t ncells = mesh.num_cells();

  // The material array: the first integer cell data array of one value per cell.
  std::string material_key;
  for (const auto& [name, arrays] : mesh.cell_data)
    if (!arrays.empty() && is_integer(arrays.front().dtype()) && arrays.front().ndim() == 1) {
      material_key = name;
      break;
    }
  auto component = [&](const std::string& name, const std::vector<NDArray>& arrays, const char* kind) {
    const NDArray& first = arrays.front();
    if (first.ndim() != 1 && first.ndim() != 2)
      fail(std::string(kind) + " data '" + name + "' must have one value or one row of values per entry");
    Component c{name, first.ndim() == 1 ? 1 : first.dim(1), {}};
    for (const NDArray& a : arrays) c.blocks.push_back(a.as_dtype(DType::float64));
    return c;
  };
  std::vector<Component> node_data, cell_data;
  for (const auto& [name, a] : mesh.point_data) node_data.push_back(component(name, {a}, "point"));
  for (const auto& [name, arrays] : mesh.cell_data)
    if (name != material_key && !arrays.empty()) cell_data.push_back(component(name, arrays, "cell"));
  std::size_t nnd = 0, ncd = 0;
  for (const Component& c : node_data) nnd += c.size;
  for (const Component& c : cell_data) ncd += c.size;

  const bool f32 = mesh.points.dtype() == DType::float32;
  const NDArray points = mesh.points.as_dtype(DType::float64);
  const io::FloatFormat shortest;
  io::AtomicFile file(path, "avsucd");
  io::TextWriter w(file);
  auto num = [&](double v) {
    if (f32) w.real(static_cast<float>(v), shortest);
    else w.real(v, shortest);
  };
  w.str("# Written by meshio++ v").str(version()).ch('\n');
  w.integer(mesh.num_points()).ch(' ').integer(ncells).ch(' ').integer(nnd).ch(' ').integer(ncd).str(" 0\n");
  const double* p = points.data<double>();
  for (std::size_t i = 0; i < mesh.num_points(); ++i) {
    w.integer(i + 1).ch(' ');
    num(p[dim * i]), w.ch(' '), num(p[dim * i + 1]), w.ch(' ');
    if (dim == 3) num(p[dim * i + 2]);
    else w.ch('0');
    w.ch('\n');
  }
  std::size_t id = 0;
  for (std::size_t b = 0; b < mesh.cells.size(); ++b) {
    const CellType& t = *types[b];
    const NDArray conn = mesh.cells[b].connectivity.as_dtype(DType::int64);
    const NDArray mat = material_key.empty() ? NDArray() : mesh.cell_data.at(material_key)[b].as_dtype(DType::int64);
    const std::int64_t* c = conn.data<std::int64_t>();
    for (std::size_t i = 0; i < conn.dim(0); ++i) {
      w.integer(++id).ch(' ').integer(material_key.empty() ? std::int64_t{0} : mat.data<std::int64_t>()[i]).ch(' ').str(t.avs);
      for (std::size_t j = 0; j < t.nodes; ++j) w.ch(' ').integer(c[t.nodes * i + t.to_file[j]] + 1);
      w.ch('\n');
    }
  }
  if (nnd) write_section(w, node_data, mesh.num_points());
  if (ncd) write_section(w, cell_data, ncells);
  w.flush();
  file.commit();
}

}  // namespace meshioplusplus::avsucd
