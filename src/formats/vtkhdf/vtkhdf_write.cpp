// meshio++ VTKHDF writer: one partition per mesh (one for write(), one per piece for
// write_pieces()). The layout (where each partition's rows go) is computed first and
// apart from HDF5 (vtkhdf_layout.cpp); then every dataset is created at its final size
// and each partition writes its rows into it, the pattern a collective MPI writer follows
// (one rank per partition, starts from MPI_Exscan).
// Spec: https://docs.vtk.org/en/latest/design_documents/VTKFileFormats.html ("HDF file formats")
#include <set>
#include <stdexcept>

#include "core/io/file.hpp"
#include "formats/vtk_common/cell_blocks.hpp"
#include "formats/vtkhdf/vtkhdf_internal.hpp"
#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/mesh_ops.hpp"

#include "core/io/hdf5.hpp"

namespace meshioplusplus::vtkhdf {

namespace {

// Data arrays of more than two dimensions are flattened to (rows, components), as VTK
// holds them (its reader takes at most one component axis).
NDArray as_rows(const NDArray& a) { return a.ndim() > 2 ? a.reshaped({a.dim(0), a.row_size()}) : a; }

}  // namespace

Partition prepare_partition(const Mesh& input, const std::string& path) {
  const Mesh mesh = sets_as_data(input);  // as VTU: sets become int data, as meshio writes them
  Partition p;
  const NDArray pts = vtk::points_3d(mesh.points);
  p.points = pts.ndim() == 2 ? pts : pts.reshaped({pts.dim(0), 3});
  p.flat = vtk::flat_from_blocks(mesh.cells, false, "vtkhdf", path);
  if (p.flat.has_polyhedra)
    throw write_error("vtkhdf", path, "polyhedron cells: VTKHDF 1.0 holds no face stream (write .vtu instead)");
  p.offsets = p.flat.offsets;
  p.types = p.flat.types;
  for (const auto& [name, a] : mesh.point_data) p.point_data[name] = as_rows(a);
  for (const auto& [name, list] : mesh.cell_data)
    p.cell_data[name] = as_rows(vtk::concat_cell_data(name, list, "vtkhdf", path));
  return p;
}

namespace {

// The partitions must declare the same arrays with the same dtypes and widths (each
// dataset is every partition's rows).
void check_alike(const std::vector<Partition>& parts) {
  auto describe = [](const NDArray& a) { return std::string(dtype_name(a.dtype())) + " x " + std::to_string(a.row_size()); };
  auto same = [&](const char* kind, auto member) {
    const auto& ref = parts[0].*member;
    for (std::size_t k = 1; k < parts.size(); ++k) {
      const auto& other = parts[k].*member;
      std::set<std::string> a, b;
      for (const auto& [n, v] : ref) a.insert(n);
      for (const auto& [n, v] : other) b.insert(n);
      if (a != b)
        throw std::invalid_argument(std::string("vtkhdf: piece ") + std::to_string(k) + " holds other " + kind +
                                    " names than piece 0: every partition must hold the same arrays");
      for (const auto& [n, v] : ref) {
        const NDArray& w = other.at(n);
        if (v.dtype() != w.dtype() || v.row_size() != w.row_size() || v.ndim() != w.ndim())
          throw std::invalid_argument(std::string("vtkhdf: ") + kind + " '" + n + "': piece 0 holds " + describe(v) +
                                      ", piece " + std::to_string(k) + " " + describe(w));
      }
    }
  };
  same("point data", &Partition::point_data);
  same("cell data", &Partition::cell_data);
}

#ifdef MESHIOPP_HAVE_HDF5
namespace h5 = io::hdf5;

// Shape of the dataset holding `rows` rows of arrays shaped like `like`.
NDArray::Shape rows_shape(std::uint64_t rows, const NDArray& like) {
  NDArray::Shape s = like.shape();
  if (s.empty()) s = {1};
  s[0] = rows;
  return s;
}

// Creates dataset `name` of every partition's `get(p)` rows and writes each at its start.
template <class Get>
void write_partitioned(const h5::Context& ctx, hid_t loc, const std::string& name, const std::vector<Partition>& parts,
                       const std::vector<std::uint64_t>& start, Get get) {
  const NDArray& first = get(parts[0]);
  h5::Handle ds = h5::create_dataset(ctx, loc, name, first.dtype(), rows_shape(start.back(), first));
  for (std::size_t p = 0; p < parts.size(); ++p) h5::write_rows(ctx, ds.get(), start[p], get(parts[p]));
}
#endif

void write_partitions(const std::string& path, std::vector<Partition> parts, const Mesh& first_mesh) {
  check_alike(parts);
  // Points of one dtype in the file: float64 unless every partition holds the same.
  for (const Partition& p : parts)
    if (p.points.dtype() != parts[0].points.dtype()) {
      for (Partition& q : parts) q.points = q.points.as_dtype(DType::float64);
      break;
    }
  std::vector<PartitionCounts> counts;
  for (const Partition& p : parts) counts.push_back(p.counts());
  const Layout layout = make_layout(std::move(counts));
#ifdef MESHIOPP_HAVE_HDF5
  io::AtomicFile target(path, "vtkhdf");
  const h5::Context ctx{"vtkhdf", path, true};
  {
    // Built in memory, then written by the AtomicFile (see io::hdf5::FileInMemory).
    h5::Session session;
    std::size_t expected_bytes = 0;  // the partitions' arrays, as the file holds them
    for (const Partition& p : parts) {
      expected_bytes += p.points.nbytes() + p.flat.connectivity.nbytes() + p.offsets.nbytes() + p.types.nbytes();
      for (const auto& entry : p.point_data) expected_bytes += entry.second.nbytes();
      for (const auto& entry : p.cell_data) expected_bytes += entry.second.nbytes();
    }
    h5::FileInMemory file(ctx, expected_bytes);
    h5::Handle root = h5::create_group(ctx, file.get(), "VTKHDF");
    h5::write_attribute(ctx, root.get(), "Version", NDArray::from_vector(std::vector<std::int64_t>{1, 0}));
    h5::write_attribute(ctx, root.get(), "Type", std::string_view("UnstructuredGrid"));
    std::vector<std::int64_t> np, nc, nconn;
    for (const PartitionCounts& c : layout.parts) {
      np.push_back(static_cast<std::int64_t>(c.points));
      nc.push_back(static_cast<std::int64_t>(c.cells));
      nconn.push_back(static_cast<std::int64_t>(c.connectivity));
    }
    h5::write_dataset(ctx, root.get(), "NumberOfPoints", NDArray::from_vector(np));
    h5::write_dataset(ctx, root.get(), "NumberOfCells", NDArray::from_vector(nc));
    h5::write_dataset(ctx, root.get(), "NumberOfConnectivityIds", NDArray::from_vector(nconn));
    write_partitioned(ctx, root.get(), "Points", parts, layout.point_start, [](const Partition& p) -> const NDArray& { return p.points; });
    write_partitioned(ctx, root.get(), "Connectivity", parts, layout.connectivity_start,
                      [](const Partition& p) -> const NDArray& { return p.flat.connectivity; });
    write_partitioned(ctx, root.get(), "Offsets", parts, layout.offsets_start, [](const Partition& p) -> const NDArray& { return p.offsets; });
    write_partitioned(ctx, root.get(), "Types", parts, layout.cell_start, [](const Partition& p) -> const NDArray& { return p.types; });
    h5::Handle point_data = h5::create_group(ctx, root.get(), "PointData");
    for (const auto& entry : parts[0].point_data) {  // no structured binding: clang 14 cannot capture one
      const std::string& name = entry.first;
      write_partitioned(ctx, point_data.get(), name, parts, layout.point_start,
                        [&name](const Partition& p) -> const NDArray& { return p.point_data.at(name); });
    }
    h5::Handle cell_data = h5::create_group(ctx, root.get(), "CellData");
    for (const auto& entry : parts[0].cell_data) {
      const std::string& name = entry.first;
      write_partitioned(ctx, cell_data.get(), name, parts, layout.cell_start,
                        [&name](const Partition& p) -> const NDArray& { return p.cell_data.at(name); });
    }
    h5::Handle field_data = h5::create_group(ctx, root.get(), "FieldData");
    for (const auto& [name, a] : first_mesh.field_data) h5::write_dataset(ctx, field_data.get(), name, a);
    field_data.reset(), cell_data.reset(), point_data.reset(), root.reset();
    file.write_to(target);
  }
  target.commit();
#else
  (void)first_mesh;
  throw write_error("vtkhdf", path, io::hdf5::kMissing);
#endif
}

}  // namespace

void write_vtkhdf(const std::string& path, const Mesh& mesh, const Options& options) {
  OptionReader opts(options, "vtkhdf");
  opts.finish();
  std::vector<Partition> parts;
  parts.push_back(prepare_partition(mesh, path));
  write_partitions(path, std::move(parts), mesh);
}

void write_vtkhdf_pieces(const std::string& path, const std::vector<Mesh>& pieces, const Options& options) {
  OptionReader opts(options, "vtkhdf");
  opts.finish();
  if (pieces.empty()) throw std::invalid_argument("vtkhdf: pieces: expected at least one mesh");
  std::vector<Partition> parts;
  for (const Mesh& m : pieces) parts.push_back(prepare_partition(m, path));
  write_partitions(path, std::move(parts), pieces[0]);
}

}  // namespace meshioplusplus::vtkhdf
