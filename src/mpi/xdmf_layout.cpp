// meshio++ MPI layout 4: XDMF 3 with its heavy data in one HDF5 file, written and read
// collectively through parallel HDF5 (docs/parallel.md), in the serial writer's layout
// (one Uniform Grid: Geometry, Topology (Mixed for several cell types), Attributes) so that
// meshio and dolfinx-style readers read it serially.
// Specs: https://www.xdmf.org/index.php/XDMF_Model_and_Format; parallel HDF5 as
// parallel_hdf5.hpp.
//
// Write. The file has one numbering of the points:
//   * by global id, when every rank's mesh carries global_point_ids and vtkGhostType (what a
//     collective read gives), no cell is a ghost, and the owned points' ids are 0..N-1 each
//     exactly once (checked: one Allreduce, then the owners settled as a read settles them):
//     each owned point is written at row = its global id and the cells refer to global ids,
//     so the file holds the serial mesh, shared points once (dolfinx's layout). Those two
//     arrays are then not written (the row is the id; every point is owned);
//   * else the ranks' points one after the other (rank r's at the points of the ranks
//     before it), shared points once per rank, as VTKHDF and PVTU hold them; the arrays
//     the mesh carries (ids, ghosts) are written like any other.
// Cells are the ranks' cells in rank order: a Uniform topology when every rank holds one
// cell type (and no polygons), else Mixed. Every dataset is created by every rank; cells
// and cell data are written with one collective H5Dwrite each, the points of the first
// numbering run by run (independent writes, rows sorted by id), of the second collectively.
// The .h5 file is made under a temporary name and renamed by rank 0, then rank 0 writes the
// .xdmf file (an atomic replace): a failure loses neither file already there.
//
// Read on R ranks: rank 0 reads the .xdmf text and broadcasts it; every rank parses it,
// opens the .h5 file collectively and reads the cells [r*C/R, (r+1)*C/R) (a Uniform
// topology: its rows; Mixed: each rank walks the stream in windows from the start, as the
// cells there have no index) and the points they use, owners settled as for VTKHDF, reads
// independent (parallel_hdf5.hpp). Only HDF heavy data is read in parallel.
#include <mpi.h>

#include "mpi/mpi_internal.hpp"

#ifdef MESHIOPP_HAVE_PARALLEL_HDF5

#include <algorithm>
#include <array>
#include <cstring>
#include <filesystem>
#include <functional>
#include <optional>

#include "core/io/cursor.hpp"
#include "core/io/file.hpp"
#include "core/io/xml.hpp"
#include "formats/vtk_common/cell_blocks.hpp"
#include "formats/xdmf/xdmf_internal.hpp"
#include "meshioplusplus/cell_types.hpp"
#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/warnings.hpp"
#include "mpi/parallel_hdf5.hpp"

namespace meshioplusplus::mpi_detail {

namespace {

namespace fs = std::filesystem;

constexpr const char* kFormat = "xdmf";
constexpr std::size_t kStreamWindow = std::size_t(1) << 20;  // values of a Mixed stream read at a time

// This rank's cells as the file holds them.
struct LocalCells {
  std::vector<std::size_t> blocks;             // the mesh's blocks written
  std::array<std::uint64_t, 2> codes{0, 0};    // bit c: a cell of XDMF code c is here
  std::size_t nodes_per_cell = 0;              // of the one block type (Uniform)
  std::uint64_t count = 0;
  std::uint64_t stream_values = 0;            // of the Mixed stream (xdmf::mixed_stream)
};

LocalCells local_cells(const Mesh& mesh) {
  LocalCells out;
  for (std::size_t b = 0; b < mesh.cells.size(); ++b) {
    const CellBlock& block = mesh.cells[b];
    const xdmf::Topology* t = xdmf::topology_for(block.type);
    if (!t || (block.ragged && block.type != "polygon")) {
      warn("skipped " + std::to_string(block.size()) + " " + block.type + " cells: XDMF has no such topology");
      continue;
    }
    if (block.size() == 0) continue;
    out.blocks.push_back(b);
    out.codes[static_cast<std::size_t>(t->code) / 64] |= std::uint64_t(1) << (t->code % 64);
    out.count += block.size();
    out.stream_values += (block.ragged ? block.indices.size() : block.connectivity.size()) +
                         block.size() * (xdmf::counted_code(t->code) ? 2 : 1);
    if (!block.ragged) out.nodes_per_cell = block.connectivity.dim(1);
    if (xdmf::counted_code(t->code)) out.codes[1] |= std::uint64_t(1) << 63;  // counted: Mixed
  }
  return out;
}

// The cells' nodes as file point numbers (`number(local)`): a (cells, k) Uniform array, or
// the serial writer's Mixed stream.
NDArray topology_rows(const Mesh& mesh, const LocalCells& cells, bool uniform,
                      const std::function<std::int64_t(std::int64_t)>& number) {
  if (!uniform) return xdmf::mixed_stream(mesh.cells, cells.blocks, number);
  NDArray out = NDArray::uninit(DType::int64, {cells.count, cells.nodes_per_cell});
  std::int64_t* o = out.data<std::int64_t>();
  for (std::size_t b : cells.blocks) {
    const NDArray& conn = mesh.cells[b].connectivity;
    const std::int64_t* nodes = conn.data<const std::int64_t>();
    const std::size_t count = conn.size();
    for (std::size_t i = 0; i < count; ++i) *o++ = number(nodes[i]);
  }
  return out;
}

// Cell data as one array over the written blocks (block order), as the serial writer.
std::map<std::string, NDArray> cell_rows(const Mesh& mesh, const LocalCells& cells, const std::string& path) {
  std::map<std::string, NDArray> out;
  for (const auto& [name, per_block] : mesh.cell_data) {
    std::vector<NDArray> parts;
    for (std::size_t b : cells.blocks) parts.push_back(per_block.at(b));
    if (parts.empty()) {
      out[name] = no_rows(per_block.empty() ? DType::float64 : per_block[0].dtype(),
                          per_block.empty() ? NDArray::Shape{} : NDArray::Shape(per_block[0].shape().begin() + 1, per_block[0].shape().end()));
      continue;
    }
    NDArray::Shape shape = parts[0].shape();
    std::size_t rows = 0;
    for (const NDArray& a : parts) {
      if (a.dtype() != parts[0].dtype() || a.row_size() != parts[0].row_size() || a.ndim() != parts[0].ndim())
        throw write_error(kFormat, path, "cell data '" + name + "' differs in dtype or shape between blocks: XDMF holds one array over all cells");
      rows += a.dim(0);
    }
    shape[0] = rows;
    NDArray all = NDArray::uninit(parts[0].dtype(), shape);
    auto* o = static_cast<unsigned char*>(all.raw());
    for (const NDArray& a : parts) {
      if (a.nbytes()) std::memcpy(o, a.raw(), a.nbytes());
      o += a.nbytes();
    }
    out[name] = std::move(all);
  }
  return out;
}

// Whether the points can be numbered by their global ids (see the header), on every rank.
bool number_by_global_id(MPI_Comm comm, const Mesh& mesh, std::vector<std::int64_t>& owned_ids,
                         std::vector<std::size_t>& owned_rows, std::uint64_t& total) {
  const Ranks ranks(comm);
  auto ids = mesh.point_data.find(kGlobalPointIds);
  auto ghost = mesh.point_data.find(kGhostType);
  int eligible = mesh.num_points() == 0 ||
                 (ids != mesh.point_data.end() && ghost != mesh.point_data.end() && ids->second.ndim() == 1 &&
                  ghost->second.ndim() == 1 && !dtype_is_float(ids->second.dtype()));
  if (auto cg = mesh.cell_data.find(kGhostType); cg != mesh.cell_data.end())
    for (const NDArray& g : cg->second)
      eligible = eligible && count_owned(g.as_dtype(DType::uint8)) == static_cast<std::int64_t>(g.size());
  std::int64_t lo = 0, hi = -1;
  if (eligible && mesh.num_points()) {
    const NDArray id64 = ids->second.as_dtype(DType::int64);
    const NDArray g8 = ghost->second.as_dtype(DType::uint8);
    for (std::size_t i = 0; i < mesh.num_points(); ++i)
      if (g8.data<const std::uint8_t>()[i] == 0) owned_rows.push_back(i);
    std::sort(owned_rows.begin(), owned_rows.end(), [&](std::size_t a, std::size_t b) {
      return id64.data<const std::int64_t>()[a] < id64.data<const std::int64_t>()[b];
    });
    for (std::size_t i : owned_rows) owned_ids.push_back(id64.data<const std::int64_t>()[i]);
    const auto [min, max] = std::minmax_element(id64.data<const std::int64_t>(), id64.data<const std::int64_t>() + id64.size());
    lo = *min, hi = *max;  // of every point: a ghost refers to a row its owner writes
    eligible = std::adjacent_find(owned_ids.begin(), owned_ids.end()) == owned_ids.end();
  }
  std::int64_t facts[3] = {eligible ? 0 : 1, -lo, hi};  // any ineligible, min id, max id: by MAX
  MPI_Allreduce(MPI_IN_PLACE, facts, 3, MPI_INT64_T, MPI_MAX, comm);
  total = static_cast<std::uint64_t>(sum(comm, static_cast<std::int64_t>(owned_ids.size())));
  if (facts[0] || facts[1] > 0 || facts[2] >= static_cast<std::int64_t>(total)) return false;
  // Each id in 0..N-1 owned exactly once: the owners settled as a read settles them; an id
  // this rank claims that another rank owns was claimed twice, one its home saw nobody
  // claim is missing. Ids a ghost refers to are then written by their owner.
  const Ownership owners = settle_owners(comm, owned_ids, total);
  int unique = owners.adopted.empty();
  for (int o : owners.owner) unique = unique && o == ranks.rank;
  MPI_Allreduce(MPI_IN_PLACE, &unique, 1, MPI_INT, MPI_MIN, comm);
  return unique == 1;
}

// Parsed descriptors of the grid an .xdmf file holds (HDF heavy data only).
struct Item {
  std::string file, dataset;
};
struct Grid {
  Item geometry;
  const xdmf::Topology* uniform = nullptr;  // nullptr: Mixed
  std::size_t nodes_per_cell = 0;
  std::uint64_t num_cells = 0;
  Item topology;
  struct Attribute {
    std::string name;
    bool cell = false;
    Item item;
  };
  std::vector<Attribute> attributes;
};

}  // namespace

// ---------------------------------------------------------------------------------------

void write_xdmf(const std::string& path, const Mesh& input, MPI_Comm comm, const Options& options) {
  const Ranks ranks(comm);
  LocalCells cells;
  Mesh mesh = input;
  all_or_none<WriteError>(comm, [&] {
    OptionReader opts(options, kFormat);
    const std::string data_format = opts.get_string("data_format", "HDF");
    if (data_format != "HDF")
      throw std::invalid_argument("xdmf: a parallel write keeps its heavy data in HDF5 (data_format=\"HDF\"), not '" + data_format + "'");
    opts.finish();
    mesh.validate();
    cells = local_cells(mesh);
  });
  // Uniform when all ranks' cells are of one type of one node count.
  std::array<std::uint64_t, 2> codes = cells.codes;
  MPI_Allreduce(MPI_IN_PLACE, codes.data(), 2, MPI_UINT64_T, MPI_BOR, comm);
  std::uint64_t npe[2] = {cells.count ? cells.nodes_per_cell : 0, cells.count ? ~std::uint64_t(cells.nodes_per_cell) : 0};
  MPI_Allreduce(MPI_IN_PLACE, npe, 2, MPI_UINT64_T, MPI_MAX, comm);  // max k and max ~k = ~min k
  const int kinds = __builtin_popcountll(codes[0]) + __builtin_popcountll(codes[1]);
  const bool uniform = kinds == 1 && npe[0] == ~npe[1];

  std::vector<std::int64_t> owned_ids;
  std::vector<std::size_t> owned_rows;
  std::uint64_t owned_total = 0;
  const bool by_id = number_by_global_id(comm, mesh, owned_ids, owned_rows, owned_total);
  if (by_id) {  // implied by the rows: every point written is owned, its row is its id
    mesh.point_data.erase(kGlobalPointIds);
    mesh.point_data.erase(kGhostType);
    mesh.cell_data.erase(kGhostType);
  }

  std::map<std::string, NDArray> cell_data;
  all_or_none<WriteError>(comm, [&] { cell_data = cell_rows(mesh, cells, path); });
  const bool empty = mesh.num_points() == 0 && cells.count == 0;
  const Declared declared = agree(comm, empty, mesh.points, mesh.point_data, cell_data, {}, "");
  all_or_none<WriteError>(comm, [&] {
    const bool take_declared = empty && !declared.all_empty;
    conform(kFormat, path, mesh.point_data, declared.point_data, take_declared, "point data", ranks.rank, declared.reference);
    conform(kFormat, path, cell_data, declared.cell_data, take_declared, "cell data", ranks.rank, declared.reference);
    if (mesh.points.dtype() != declared.points.dtype) mesh.points = mesh.points.as_dtype(declared.points.dtype);
    if (take_declared) mesh.points = no_rows(declared.points.dtype, declared.points.trailing);
    if (mesh.points.ndim() != 2 || mesh.points.shape() != NDArray::Shape({mesh.points.dim(0), declared.points.trailing.at(0)}))
      throw write_error(kFormat, path, "points: rank " + std::to_string(ranks.rank) + " holds " + std::to_string(mesh.points.ndim() == 2 ? mesh.points.dim(1) : 0) +
                                           " coordinates per point, rank " + std::to_string(declared.reference) + " " +
                                           std::to_string(declared.points.trailing.at(0)));
  });

  // Rows: points (the second numbering), cells, topology values; one Exscan, one Allreduce.
  std::int64_t counts[3] = {static_cast<std::int64_t>(mesh.num_points()), static_cast<std::int64_t>(cells.count),
                            static_cast<std::int64_t>(uniform ? cells.count : cells.stream_values)};
  std::int64_t start[3] = {0, 0, 0}, total[3] = {0, 0, 0};
  NDArray topology;
  MPI_Exscan(counts, start, 3, MPI_INT64_T, MPI_SUM, comm);
  if (ranks.rank == 0) start[0] = start[1] = start[2] = 0;
  MPI_Allreduce(counts, total, 3, MPI_INT64_T, MPI_SUM, comm);
  all_or_none<WriteError>(comm, [&] {
    const NDArray ids = by_id ? input.point_data.at(kGlobalPointIds).as_dtype(DType::int64) : NDArray();
    const std::int64_t base = start[0];
    topology = topology_rows(mesh, cells, uniform, [&](std::int64_t local) {
      return by_id ? ids.data<const std::int64_t>()[local] : base + local;
    });
  });
  const std::uint64_t num_points = by_id ? owned_total : static_cast<std::uint64_t>(total[0]);
  const auto u = [](std::int64_t v) { return static_cast<std::uint64_t>(v); };

  const fs::path stem = fs::path(path).parent_path() / fs::path(path).stem();
  const std::string h5_path = stem.string() + ".h5", h5_name = fs::path(h5_path).filename().string();
  const std::string temporary = temporary_name(comm, h5_path);
  std::vector<std::pair<std::string, const Declared::Array*>> point_items, cell_items;  // dataset, declaration
  all_or_none<WriteError>(comm, [&] {
    const h5::Context ctx{kFormat, h5_path, true};
    h5::Session session;
    const h5::Handle collective = transfer(ctx, true);
    h5::Handle file = create_collective(ctx, comm, temporary);
    auto create = [&](const std::string& name, DType dtype, std::uint64_t rows, const NDArray::Shape& trailing) {
      NDArray::Shape shape{rows};
      shape.insert(shape.end(), trailing.begin(), trailing.end());
      return h5::create_dataset(ctx, file.get(), name, dtype, shape);
    };
    // Per-point rows: at the rows of the ids (runs, independent), or at this rank's start.
    auto write_points = [&](const h5::Handle& ds, const NDArray& rows) {
      if (!by_id) return h5::write_rows(ctx, ds.get(), u(start[0]), rows, collective.get());
      const std::size_t row_bytes = rows.nbytes() / std::max<std::size_t>(rows.dim(0), 1);
      NDArray::Shape one = rows.shape();
      std::size_t i = 0;
      while (i < owned_rows.size()) {
        std::size_t j = i + 1;
        while (j < owned_rows.size() && owned_ids[j] == owned_ids[j - 1] + 1) ++j;
        one[0] = j - i;
        NDArray run = NDArray::uninit(rows.dtype(), one);
        for (std::size_t k = i; k < j; ++k)
          std::memcpy(static_cast<unsigned char*>(run.raw()) + (k - i) * row_bytes,
                      static_cast<const unsigned char*>(rows.raw()) + owned_rows[k] * row_bytes, row_bytes);
        h5::write_rows(ctx, ds.get(), u(owned_ids[i]), run);  // independent
        i = j;
      }
    };
    write_points(create("geometry", declared.points.dtype, num_points, declared.points.trailing), mesh.points);
    const h5::Handle topo = uniform ? create("topology", DType::int64, u(total[1]), {npe[0]})
                                    : create("topology", DType::int64, u(total[2]), {});
    h5::write_rows(ctx, topo.get(), uniform ? u(start[1]) : u(start[2]), topology, collective.get());
    std::size_t k = 0;
    for (const auto& d : declared.point_data) {
      const std::string name = "data" + std::to_string(k++);
      write_points(create(name, d.dtype, num_points, d.trailing), mesh.point_data.at(d.name));
      point_items.emplace_back(name, &d);
    }
    for (const auto& d : declared.cell_data) {
      const std::string name = "data" + std::to_string(k++);
      const h5::Handle ds = create(name, d.dtype, u(total[1]), d.trailing);
      h5::write_rows(ctx, ds.get(), u(start[1]), cell_data.at(d.name), collective.get());
      cell_items.emplace_back(name, &d);
    }
  });
  put_in_place(comm, temporary, h5_path, kFormat);
  all_or_none<WriteError>(comm, [&] {
    if (ranks.rank != 0) return;
    auto item = [&](std::string& x, const std::string& dataset, DType dtype, std::uint64_t rows, const NDArray::Shape& trailing,
                    const char* indent) {
      x += indent;
      x += "<DataItem DataType=\"" + std::string(xdmf::number_type(dtype)) + "\" Dimensions=\"" + std::to_string(rows);
      for (std::size_t n : trailing) x += " " + std::to_string(n);
      x += "\" Format=\"HDF\" Precision=\"" + std::to_string(dtype_size(dtype)) + "\">" + io::xml_escape(h5_name) + ":/" + dataset +
           "</DataItem>\n";
    };
    std::string x = "<?xml version=\"1.0\"?>\n<Xdmf Version=\"3.0\">\n  <Domain>\n    <Grid Name=\"Grid\">\n";
    x += "      <Geometry GeometryType=\"" + std::string(declared.points.trailing.at(0) == 2 ? "XY" : "XYZ") + "\">\n";
    item(x, "geometry", declared.points.dtype, num_points, declared.points.trailing, "        ");
    x += "      </Geometry>\n";
    if (kinds > 0) {
      if (uniform) {
        int code = 0;
        while (!((codes[static_cast<std::size_t>(code) / 64] >> (code % 64)) & 1)) ++code;
        x += "      <Topology TopologyType=\"" + std::string(xdmf::topology_coded(code)->xdmf) + "\" NumberOfElements=\"" +
             std::to_string(total[1]) + "\" NodesPerElement=\"" + std::to_string(npe[0]) + "\">\n";
        item(x, "topology", DType::int64, u(total[1]), {npe[0]}, "        ");
      } else {
        x += "      <Topology TopologyType=\"Mixed\" NumberOfElements=\"" + std::to_string(total[1]) + "\">\n";
        item(x, "topology", DType::int64, u(total[2]), {}, "        ");
      }
      x += "      </Topology>\n";
    }
    for (auto* list : {&point_items, &cell_items})
      for (const auto& [dataset, d] : *list) {
        const bool cell = list == &cell_items;
        NDArray::Shape like{0};
        like.insert(like.end(), d->trailing.begin(), d->trailing.end());
        x += "      <Attribute Name=\"" + io::xml_escape(d->name) + "\" AttributeType=\"" +
             std::string(xdmf::attribute_type(NDArray::zeros(d->dtype, like))) + "\" Center=\"" + (cell ? "Cell" : "Node") + "\">\n";
        item(x, dataset, d->dtype, cell ? u(total[1]) : num_points, d->trailing, "        ");
        x += "      </Attribute>\n";
      }
    x += "    </Grid>\n  </Domain>\n</Xdmf>\n";
    io::AtomicFile file(path, kFormat);
    file.write(x);
    file.commit();
  });
}

// ---------------------------------------------------------------------------------------

namespace {

Grid parse_grid(const std::string& path, std::string_view text) {
  const io::Cursor cur(text, kFormat, path);
  const io::XmlDocument doc = io::parse_xml(cur);
  auto fail = [&](const io::XmlElement& at, const std::string& what) { cur.fail_at(what, at.begin ? at.begin : cur.begin()); };
  if (doc.root.name != "Xdmf") fail(doc.root, expected_found("the root element <Xdmf>", doc.root.name));
  const io::XmlElement* grid = nullptr;
  for (const auto& d : doc.root.children)
    if (d.name == "Domain")
      for (const auto& g : d.children)
        if (g.name == "Grid" && !grid) grid = &g;
  if (!grid) fail(doc.root, "no <Grid> in <Domain>");
  if (const std::string* type = grid->attribute("GridType"); type && *type != "Uniform")
    fail(*grid, "GridType=\"" + *type + "\": a parallel read takes one Uniform grid (read time series with xdmf.TimeSeriesReader)");
  auto item_of = [&](const io::XmlElement& parent) {
    const io::XmlElement* it = nullptr;
    for (const auto& c : parent.children)
      if (c.name == "DataItem") it = &c;
    if (!it) fail(parent, "no <DataItem> in <" + std::string(parent.name) + ">");
    const std::string* format = it->attribute("Format");
    if (!format || *format != "HDF")
      fail(*it, "a parallel read takes heavy data in HDF5 (Format=\"HDF\"), found Format=\"" + (format ? *format : std::string("XML")) +
                    "\"; read the file serially");
    Item item;
    const std::string ref(io::Cursor::trim(it->text()));
    const std::size_t colon = ref.find(':');
    if (colon == std::string::npos) fail(*it, "expected file.h5:/dataset, found '" + ref + "'");
    item.file = (fs::path(path).parent_path() / ref.substr(0, colon)).string();
    item.dataset = ref.substr(colon + 1);
    return item;
  };
  Grid out;
  bool geometry = false, topology = false;
  for (const auto& c : grid->children) {
    if (c.name == "Geometry") {
      const std::string* type = c.attribute("GeometryType");
      if (type && *type != "XYZ" && *type != "XY") fail(c, "GeometryType=\"" + *type + "\" is not read in parallel (XYZ or XY)");
      out.geometry = item_of(c);
      geometry = true;
    } else if (c.name == "Topology") {
      const std::string* type = c.attribute("TopologyType");
      if (!type) type = c.attribute("Type");
      if (!type) fail(c, "<Topology> has no TopologyType");
      if (*type != "Mixed") {
        out.uniform = xdmf::topology_named(*type);
        if (!out.uniform) fail(c, "unknown TopologyType \"" + *type + "\"");
      }
      if (const std::string* n = c.attribute("NumberOfElements")) out.num_cells = std::stoull(*n);
      out.topology = item_of(c);
      topology = true;
    } else if (c.name == "Attribute") {
      const std::string* name = c.attribute("Name");
      const std::string* center = c.attribute("Center");
      if (!name || !center || (*center != "Node" && *center != "Cell")) {
        warn("xdmf: an <Attribute> without a Name or with a Center other than Node or Cell is skipped");
        continue;
      }
      out.attributes.push_back({*name, *center == "Cell", item_of(c)});
    }
  }
  if (!geometry) fail(*grid, "no <Geometry> in <Grid>");
  if (!topology) fail(*grid, "no <Topology> in <Grid>");
  return out;
}

// The cells [c0, c1) of a Mixed stream of `values` values, walked from the start in windows
// (independent reads): blocks of runs of one type and node count, nodes as in the file.
std::vector<CellBlock> mixed_cells(const h5::Context& ctx, hid_t file, const std::string& dataset, std::uint64_t values,
                                   std::uint64_t c0, std::uint64_t c1, std::size_t file_bytes) {
  std::vector<CellBlock> blocks;
  std::vector<std::vector<std::int64_t>> rows;  // per block, its nodes
  const auto fail = [&](const std::string& what) { throw read_error(kFormat, ctx.path, "Mixed topology: " + what); };
  std::uint64_t pos = 0, cell = 0, window = kStreamWindow;
  while (cell < c1 && pos < values) {
    const std::uint64_t n = std::min<std::uint64_t>(window, values - pos);
    const NDArray w = h5::read_rows(ctx, file, dataset, pos, n, file_bytes).as_dtype(DType::int64);
    const std::int64_t* a = w.data<const std::int64_t>();
    std::uint64_t r = 0;
    bool progressed = false;
    while (r < n && cell < c1) {
      const std::uint64_t at = r;
      const xdmf::Topology* t = xdmf::topology_coded(a[r]);
      if (!t) fail("unknown cell type code " + std::to_string(a[r]) + " at value " + std::to_string(pos + at));
      std::uint64_t k = 0, head = 1;
      if (xdmf::counted_code(t->code)) {
        if (at + 1 >= n) break;  // the count is in the next window
        if (a[at + 1] < 1 || static_cast<std::uint64_t>(a[at + 1]) > values)
          fail("a " + std::string(t->xdmf) + " of " + std::to_string(a[at + 1]) + " nodes at value " + std::to_string(pos + at));
        k = static_cast<std::uint64_t>(a[at + 1]);
        head = 2;
      } else {
        k = static_cast<std::uint64_t>(cell_type(t->meshio).num_nodes);
      }
      if (at + head + k > n) {
        if (pos + at + head + k > values) fail("the cell at value " + std::to_string(pos + at) + " runs past the end of the array");
        break;  // the cell ends in the next window
      }
      if (cell >= c0) {
        if (blocks.empty() || blocks.back().type != t->meshio || blocks.back().connectivity.dim(1) != k) {
          blocks.push_back(CellBlock::rectangular(std::string(t->meshio), NDArray::uninit(DType::int64, {0, k})));
          rows.emplace_back();
        }
        rows.back().insert(rows.back().end(), a + at + head, a + at + head + k);
      }
      r = at + head + k;
      ++cell;
      progressed = true;
    }
    if (!progressed) window *= 2;  // one cell longer than a window
    pos += r;
  }
  if (cell < c1) fail("NumberOfElements declares " + std::to_string(c1) + " or more cells, the stream holds " + std::to_string(cell));
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const std::size_t k = blocks[b].connectivity.dim(1);
    blocks[b] = CellBlock::rectangular(blocks[b].type, NDArray::from_vector(rows[b], {rows[b].size() / k, k}));
  }
  return blocks;
}

}  // namespace

Mesh read_xdmf(const std::string& path, MPI_Comm comm, const Options& options) {
  const Ranks ranks(comm);
  std::string text;
  all_or_none<ReadError>(comm, [&] {
    OptionReader opts(options, kFormat);
    opts.finish();
    if (ranks.rank == 0) text = std::string(io::FileBytes(path, kFormat).text());
  });
  unsigned long long length = text.size();
  MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
  text.resize(length);
  MPI_Bcast(text.data(), static_cast<int>(length), MPI_CHAR, 0, comm);
  Grid grid;
  all_or_none<ReadError>(comm, [&] { grid = parse_grid(path, text); });

  const h5::Context ctx{kFormat, grid.geometry.file, false};
  h5::Session session;
  h5::Handle file;
  std::size_t file_bytes = 0;
  std::uint64_t num_points = 0;
  all_or_none<ReadError>(comm, [&] {
    for (const Item* item : {&grid.topology}) {
      if (item->file != grid.geometry.file)
        throw read_error(kFormat, path, "a parallel read takes the heavy data of one HDF5 file; " + item->file + " is another");
    }
    for (const auto& a : grid.attributes)
      if (a.item.file != grid.geometry.file)
        throw read_error(kFormat, path, "a parallel read takes the heavy data of one HDF5 file; " + a.item.file + " is another");
    std::error_code ec;
    file_bytes = static_cast<std::size_t>(fs::file_size(grid.geometry.file, ec));
    if (ec) throw read_error(kFormat, grid.geometry.file, "cannot open: " + ec.message());
    file = open_collective(ctx, comm);
    const NDArray::Shape g = h5::dataset_shape(ctx, file.get(), grid.geometry.dataset);
    if (g.size() != 2 || (g[1] != 2 && g[1] != 3))
      throw read_error(kFormat, path, "dataset " + grid.geometry.dataset + ": " + expected_found("(points, 2 or 3)", h5::shape_text(g)));
    num_points = g[0];
    const NDArray::Shape t = h5::dataset_shape(ctx, file.get(), grid.topology.dataset);
    if (grid.uniform) {
      if (t.size() != 2 && t.size() != 1)
        throw read_error(kFormat, path, "dataset " + grid.topology.dataset + ": " + expected_found("(cells, nodes per cell)", h5::shape_text(t)));
      grid.nodes_per_cell = t.size() == 2 ? t[1] : static_cast<std::size_t>(cell_type(grid.uniform->meshio).num_nodes);
      grid.num_cells = t.size() == 2 ? t[0] : t[0] / std::max<std::size_t>(grid.nodes_per_cell, 1);
    }
    for (const auto& a : grid.attributes)
      expect_shape(ctx, file.get(), a.item.dataset, a.cell ? grid.num_cells : num_points, 0, a.cell ? "the cells" : "the points");
  });

  Mesh m = empty_mesh();
  const auto share = ranks.range(grid.num_cells);
  const std::uint64_t c0 = share.first, c1 = share.second;
  std::vector<std::int64_t> used;
  all_or_none<ReadError>(comm, [&] {
    if (grid.uniform) {
      const std::size_t k = grid.nodes_per_cell;
      NDArray rows = h5::read_rows(ctx, file.get(), grid.topology.dataset, c0, c1 - c0, file_bytes);
      rows = rows.as_dtype(DType::int64).reshaped({c1 - c0, k});
      m.cells.push_back(CellBlock::rectangular(std::string(grid.uniform->meshio), rows));
    } else {
      const NDArray::Shape t = h5::dataset_shape(ctx, file.get(), grid.topology.dataset);
      m.cells = mixed_cells(ctx, file.get(), grid.topology.dataset, t.empty() ? 0 : t[0], c0, c1, file_bytes);
    }
    // Node ids: checked, gathered, renumbered to this rank's points (sorted file numbers).
    std::vector<std::pair<std::int64_t*, std::size_t>> spans;
    for (CellBlock& b : m.cells) {
      std::int64_t* ids = b.connectivity.data<std::int64_t>();
      const std::size_t count = b.connectivity.size();
      for (std::size_t i = 0; i < count; ++i)
        if (ids[i] < 0 || static_cast<std::uint64_t>(ids[i]) >= num_points)
          throw read_error(kFormat, path, "dataset " + grid.topology.dataset + ": node " + std::to_string(ids[i]) +
                                              " out of range (" + std::to_string(num_points) + " points)");
      spans.emplace_back(ids, count);
    }
    used = to_local_points(spans);
  });
  // Cell attributes: this rank's rows, collectively (every rank, every dataset).
  all_or_none<ReadError>(comm, [&] {
    std::vector<std::size_t> starts{0};
    for (const CellBlock& b : m.cells) starts.push_back(starts.back() + b.size());
    for (const auto& a : grid.attributes)
      if (a.cell) {
        // per block, views of the one array read (vtk_common's split, no copy)
        m.cell_data[a.name] = vtk::split_rows(h5::read_rows(ctx, file.get(), a.item.dataset, c0, c1 - c0, file_bytes), starts);
      }
  });
  std::vector<PointRows> data;
  for (const auto& a : grid.attributes)
    if (!a.cell) data.push_back({file.get(), a.item.dataset, a.name});
  read_points_of_cells(comm, ctx, file_bytes, num_points, used, {file.get(), grid.geometry.dataset, ""}, data, m);
  all_or_none<ReadError>(comm, [&] {
    if (m.cell_data.count(kGlobalCellIds)) return;  // the file's own
    std::vector<NDArray> ids;
    std::int64_t base = static_cast<std::int64_t>(c0);
    for (const CellBlock& b : m.cells) {
      ids.push_back(iota(b.size(), base));
      base += static_cast<std::int64_t>(b.size());
    }
    m.cell_data[kGlobalCellIds] = std::move(ids);
  });
  file.reset();  // collective close
  finish_local(comm, m, 1, false, false);
  return m;
}

}  // namespace meshioplusplus::mpi_detail

#endif  // MESHIOPP_HAVE_PARALLEL_HDF5
