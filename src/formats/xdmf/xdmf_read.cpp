// meshio++ XDMF reader: XDMF 3 and XDMF 2 light data (Domain / Grid / Geometry / Topology /
// Attribute / Information) with heavy data inline (Format="XML"), in raw binary files
// (Format="Binary", with Endian, Seek) or in HDF5 files (Format="HDF", "file.h5:/path"
// relative to the .xdmf file's folder). Spec:
// https://www.xdmf.org/index.php/XDMF_Model_and_Format
#include <algorithm>
#include <cstring>
#include <filesystem>

#include "core/array_parts.hpp"
#include "core/io/hdf5.hpp"
#include "formats/xdmf/xdmf_internal.hpp"
#include "meshioplusplus/cell_types.hpp"
#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/warnings.hpp"

namespace meshioplusplus::xdmf {

namespace {

const std::string kNoHdf5 = std::string(io::hdf5::kMissing) +
    " to read and write XDMF heavy data in HDF5 files (Format=\"HDF\")";

std::string_view trim(std::string_view s) { return io::Cursor::trim(s); }

const std::string* either(const Document& doc, const io::XmlElement& el, std::string_view a, std::string_view b) {
  const std::string* x = el.attribute(a);
  const std::string* y = el.attribute(b);
  if (x && y && *x != *y) doc.fail(el, "both " + std::string(a) + "=\"" + *x + "\" and " + std::string(b) + "=\"" + *y + "\"");
  return x ? x : y;
}

std::optional<DType> dtype_of(std::string_view type, std::string_view precision) {
  const bool one = precision == "1", two = precision == "2", four = precision == "4", eight = precision == "8";
  if (type == "Float") return four ? std::optional(DType::float32) : eight ? std::optional(DType::float64) : std::nullopt;
  if (type == "Int") return one ? DType::int8 : two ? DType::int16 : four ? DType::int32 : eight ? std::optional(DType::int64) : std::nullopt;
  if (type == "UInt") return one ? DType::uint8 : two ? DType::uint16 : four ? DType::uint32 : eight ? std::optional(DType::uint64) : std::nullopt;
  if (type == "Char") return DType::int8;
  if (type == "UChar") return DType::uint8;
  return std::nullopt;
}

// Rows [first, first + n) of `a` as an array of their own.
NDArray rows(const NDArray& a, std::size_t first, std::size_t n) {
  NDArray::Shape shape = a.shape();
  shape[0] = n;
  NDArray out = NDArray::uninit(a.dtype(), shape);
  const std::size_t row = a.row_size() * dtype_size(a.dtype());
  if (n) std::memcpy(out.raw(), static_cast<const char*>(a.raw()) + first * row, n * row);
  return out;
}

}  // namespace

#ifdef MESHIOPP_HAVE_HDF5
struct Document::HeavyFiles {
  struct Open {
    io::hdf5::Handle file;
    std::size_t size = 0;
  };
  std::map<std::string, Open> files;
};
#else
struct Document::HeavyFiles {};
#endif

Document::Document(const std::string& path)
    : path_(path), file_(path, "xdmf"), cur_(file_.text(), "xdmf", path), heavy_(std::make_unique<HeavyFiles>()) {
  folder_ = std::filesystem::path(path).parent_path().string();
  doc_ = io::parse_xml(cur_);
  const io::XmlElement& root = doc_.root;
  if (root.name != "Xdmf") fail(root, expected_found("the root element <Xdmf>", root.name));
  if (const std::string* v = root.attribute("Version")) {
    const std::string_view version = trim(*v);
    if (version.empty() || (version[0] != '2' && version[0] != '3') || (version.size() > 1 && version[1] != '.'))
      fail(root, expected_found("Version 2.x or 3.x", *v));
    major_ = version[0] - '0';
  }
  for (const auto& child : root.children)
    if (child.name == "Domain") {
      domain_ = &child;
      break;
    }
  if (!domain_) fail(root, "no <Domain> in <Xdmf>");
}

Document::~Document() {
#ifdef MESHIOPP_HAVE_HDF5
  io::hdf5::Session session;  // the HDF5 files close under the library lock
  heavy_.reset();
#endif
}

void Document::fail(const io::XmlElement& at, const std::string& what) const { cur_.fail_at(what, at.begin ? at.begin : cur_.begin()); }

std::vector<const io::XmlElement*> Document::grids() const {
  std::vector<const io::XmlElement*> out;
  for (const auto& child : domain_->children)
    if (child.name == "Grid") out.push_back(&child);
  return out;
}

std::string Document::resolve(std::string_view relative) const {
  std::filesystem::path p{std::string(relative)};
  if (p.is_absolute()) return p.string();
  std::filesystem::path beside = std::filesystem::path(folder_) / p;
  // meshio's Binary files name their path from the working directory: the file beside the
  // .xdmf file wins, the working directory's is the fallback.
  std::error_code ec;
  if (!std::filesystem::exists(beside, ec) && std::filesystem::exists(p, ec)) return p.string();
  return beside.string();
}

NDArray Document::data_item(const io::XmlElement& parent) {
  const io::XmlElement* item = nullptr;
  std::size_t n = 0;
  for (const auto& child : parent.children)
    if (child.name == "DataItem") item = n++ == 0 ? &child : item;
  if (n != 1) {
    std::string what = "expected one <DataItem> in <" + std::string(parent.name) + ">, found " + std::to_string(n);
    if (n == 0 && parent.name == "Topology") what += " (structured topologies are not read)";
    fail(parent, what);
  }
  return read_item(*item);
}

NDArray Document::read_item(const io::XmlElement& item) {
  if (item.attribute("Reference")) fail(item, "DataItem references (Reference=) are not read");
  if (const std::string* type = item.attribute("ItemType"); type && *type != "Uniform")
    fail(item, "DataItem ItemType=\"" + *type + "\" is not read (only Uniform)");
  const std::string* dims_text = item.attribute("Dimensions");
  if (!dims_text) fail(item, "<DataItem> has no Dimensions");
  NDArray::Shape shape;
  std::uint64_t count = 1;
  for (std::string_view rest = *dims_text; !trim(rest).empty();) {
    rest = rest.substr(rest.find_first_not_of(" \t\r\n"));
    const std::size_t cut = std::min(rest.find_first_of(" \t\r\n"), rest.size());
    std::uint64_t d = 0;
    if (!io::parse_count(rest.substr(0, cut), d) || shape.size() == 8)
      fail(item, "Dimensions: " + expected_found("up to 8 counts", *dims_text));
    if (d != 0 && count > io::kMaxCount / d) fail(item, "Dimensions \"" + *dims_text + "\" overflow a count");
    count *= d;
    shape.push_back(static_cast<std::size_t>(d));
    rest = rest.substr(cut);
  }
  if (shape.empty()) fail(item, "Dimensions: " + expected_found("at least one count", *dims_text));

  const std::string* type = either(*this, item, "DataType", "NumberType");
  const std::string* precision = item.attribute("Precision");
  const std::string type_name = type ? std::string(trim(*type)) : "Float";
  const std::string precision_name = precision ? std::string(trim(*precision)) : "4";
  const std::optional<DType> dtype = dtype_of(type_name, precision_name);
  if (!dtype) fail(item, expected_found("a DataType Float/Int/UInt/Char/UChar with Precision 1, 2, 4 or 8",
                                        type_name + " " + precision_name));

  const std::string* format_attr = item.attribute("Format");
  const std::string format = format_attr ? std::string(trim(*format_attr)) : "XML";
  if (format == "XML") {
    io::Cursor text = cur_.window(item.text_begin, item.text_end);
    text.need_values(count, "DataItem values");
    NDArray out = NDArray::uninit(*dtype, shape);
    visit_dtype(*dtype, [&](auto tag) { text.text_values(out.data<decltype(tag)>(), count, "DataItem values"); });
    text.skip_space();
    if (!text.at_end()) text.fail_expected("the end of the DataItem (Dimensions=\"" + *dims_text + "\")");
    return out;
  }
  if (format == "Binary") return read_binary(item, *dtype, count).reshaped(shape);
  if (format == "HDF") {
    NDArray out = read_hdf(item, trim(item.text()));
    if (out.size() != count)
      fail(item, "the HDF5 dataset holds " + std::to_string(out.size()) + " values but Dimensions=\"" + *dims_text +
                     "\" declares " + std::to_string(count));
    return out.reshaped(shape);
  }
  fail(item, expected_found("Format XML, Binary or HDF", format));
}

NDArray Document::read_binary(const io::XmlElement& item, DType dtype, std::size_t count) {
  if (const std::string* c = item.attribute("Compression"); c && trim(*c) != "Raw")
    fail(item, "Binary Compression=\"" + *c + "\" is not read (only Raw)");
  bool little = io::host_is_little_endian();
  if (const std::string* e = item.attribute("Endian")) {
    const std::string_view endian = trim(*e);
    if (endian == "Big") little = false;
    else if (endian == "Little") little = true;
    else if (endian != "Native") fail(item, "Endian: " + expected_found("Native, Big or Little", *e));
  }
  std::uint64_t seek = 0;
  if (const std::string* s = item.attribute("Seek"); s && !io::parse_count(trim(*s), seek))
    fail(item, "Seek: " + expected_found("a byte offset", *s));
  const std::string_view name = trim(item.text());
  if (name.empty()) fail(item, "a Binary DataItem names no file");
  const std::string bin_path = resolve(name);
  io::FileBytes bin(bin_path, "xdmf");
  io::Cursor c(bin.text(), "xdmf", bin_path);
  c.seek(seek, "Seek offset");
  c.set_little_endian(little);
  c.need(count, dtype_size(dtype), "binary values");
  NDArray out = NDArray::uninit(dtype, {count});
  visit_dtype(dtype, [&](auto tag) { c.read_array(out.data<decltype(tag)>(), count, "binary values"); });
  return out;
}

NDArray Document::read_hdf(const io::XmlElement& item, std::string_view reference) {
  const std::size_t colon = reference.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == reference.size())
    fail(item, "HDF DataItem: " + expected_found("file.h5:/path/to/dataset", reference));
#ifdef MESHIOPP_HAVE_HDF5
  const std::string h5_path = resolve(trim(reference.substr(0, colon)));
  std::string dataset(trim(reference.substr(colon + 1)));
  if (dataset.empty() || dataset[0] != '/') dataset.insert(dataset.begin(), '/');  // meshio allows the slash out
  const io::hdf5::Context ctx{"xdmf", h5_path, false};
  auto it = heavy_->files.find(h5_path);
  if (it == heavy_->files.end()) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(h5_path, ec);
    if (ec) throw read_error("xdmf", h5_path, "cannot open: " + ec.message() + " (referenced by " + path_ + ")");
    it = heavy_->files.emplace(h5_path, HeavyFiles::Open{io::hdf5::open_file(ctx), static_cast<std::size_t>(size)}).first;
  }
  return io::hdf5::read_dataset(ctx, it->second.file.get(), dataset, it->second.size);
#else
  fail(item, kNoHdf5);
#endif
}

namespace {

// The blocks of a Mixed topology: runs of one type (and, for polygons, one node count).
// The stream is compacted in place: each cell's nodes move down over the codes before them
// (a cell takes at least one value more in the stream than in its block, so a move never
// overtakes what is still to be read), the runs end up back to back at the front of the
// array, and each block is a part of it (array_part). The blocks then cost no memory of
// their own, where copying them out held the stream and the blocks at once (1.9x the
// arrays returned, on a tetrahedral cube written by meshio). The stream's tail (the codes'
// share of it) is given back to the system (Buffer::discard_tail).
void read_mixed(const Document& doc, const io::XmlElement& topo, const NDArray& raw, std::vector<CellBlock>& cells) {
  NDArray v = raw.as_dtype(DType::int64);
  if (!v.owns_data()) v = v.copy();  // not ours to overwrite
  std::int64_t* a = v.data<std::int64_t>();
  const std::size_t n = v.size();
  struct Run {
    const Topology* type;
    std::size_t k;
    std::size_t count;
  };
  std::vector<Run> runs;
  auto walk = [&](auto&& emit) {
    std::size_t r = 0;
    while (r < n) {
      const std::size_t at = r;
      const Topology* t = topology_coded(a[r++]);
      if (!t) doc.fail(topo, "Mixed topology: unknown cell type code " + std::to_string(a[at]) + " at value " + std::to_string(at));
      std::size_t k = 0;
      if (t->code == kPolyvertex || t->code == kPolyline || t->code == kPolygon) {
        if (r == n) doc.fail(topo, "Mixed topology: the node count of the cell at value " + std::to_string(at) + " is missing");
        const std::int64_t declared = a[r++];
        const std::int64_t want = t->code == kPolyvertex ? 1 : t->code == kPolyline ? 2 : -1;
        if ((want > 0 && declared != want) || declared < 3 - (t->code != kPolygon) * 2 || declared > static_cast<std::int64_t>(n - r))
          doc.fail(topo, "Mixed topology: a " + std::string(t->xdmf) + " of " + std::to_string(declared) +
                             " nodes at value " + std::to_string(at) + " is not read" +
                             (want > 0 ? " (only " + std::to_string(want) + ")" : ""));
        k = static_cast<std::size_t>(declared);
      } else {
        k = static_cast<std::size_t>(cell_type(t->meshio).num_nodes);
      }
      if (k > n - r) doc.fail(topo, "Mixed topology: the cell at value " + std::to_string(at) + " runs past the end of the array");
      emit(t, k, a + r);
      r += k;
    }
  };
  walk([&](const Topology* t, std::size_t k, const std::int64_t*) {
    if (!runs.empty() && runs.back().type == t && runs.back().k == k) ++runs.back().count;
    else runs.push_back({t, k, 1});
  });
  std::int64_t* out = a;
  walk([&](const Topology*, std::size_t k, const std::int64_t* nodes) {
    std::memmove(out, nodes, k * sizeof(std::int64_t));
    out += k;
  });
  std::size_t at = 0;
  for (const Run& run : runs) {
    cells.push_back(CellBlock::rectangular(std::string(run.type->meshio), array_part(v, at, {run.count, run.k})));
    at += run.count * run.k;
  }
  if (v.buffer()) v.buffer()->discard_tail(at * sizeof(std::int64_t));  // the codes' share: no block views it
}

}  // namespace

void Document::read_points_cells(const io::XmlElement& grid, Mesh& mesh) {
  bool have_points = false;
  for (const auto& c : grid.children) {
    if (c.name == "Geometry") {
      const std::string* type_attr = either(*this, c, "Type", "GeometryType");
      const std::string type = type_attr ? std::string(trim(*type_attr)) : "XYZ";
      NDArray points;
      if (type == "XYZ" || type == "XY") {
        const std::size_t dim = type.size();
        NDArray raw = data_item(c);
        if (raw.size() % dim != 0) fail(c, "Geometry " + type + ": " + std::to_string(raw.size()) + " values are not rows of " + std::to_string(dim));
        points = raw.reshaped({raw.size() / dim, dim});
      } else if (type == "X_Y_Z" || type == "X_Y") {
        std::vector<NDArray> axes;
        for (const auto& item : c.children)
          if (item.name == "DataItem") axes.push_back(read_item(item).as_dtype(DType::float64));
        const std::size_t dim = type.size() / 2 + 1;
        if (axes.size() != dim) fail(c, "Geometry " + type + ": expected " + std::to_string(dim) + " DataItems, found " + std::to_string(axes.size()));
        const std::size_t n = axes[0].size();
        for (const auto& ax : axes)
          if (ax.size() != n) fail(c, "Geometry " + type + ": the coordinate arrays differ in length");
        points = NDArray::uninit(DType::float64, {n, dim});
        double* p = points.data<double>();
        for (std::size_t d = 0; d < dim; ++d) {
          const double* x = axes[d].data<const double>();
          for (std::size_t i = 0; i < n; ++i) p[i * dim + d] = x[i];
        }
      } else {
        fail(c, "GeometryType: " + expected_found("XYZ, XY, X_Y_Z or X_Y", type));
      }
      if (!dtype_is_float(points.dtype())) points = points.as_dtype(DType::float64);
      mesh.points = std::move(points);
      have_points = true;
    } else if (c.name == "Topology") {
      const std::string* type_attr = either(*this, c, "Type", "TopologyType");
      if (!type_attr) fail(c, "<Topology> has no TopologyType");
      const std::string type(trim(*type_attr));
      NDArray raw = data_item(c);
      if (dtype_is_float(raw.dtype()))
        fail(c, "Topology: " + expected_found("node indices of an integer DataType", std::string(dtype_name(raw.dtype()))));
      if (type == "Mixed") {
        read_mixed(*this, c, raw, mesh.cells);
        continue;
      }
      const Topology* t = topology_named(type);
      if (!t) fail(c, "TopologyType: " + expected_found("a cell type meshio reads (Triangle, Tetrahedron, Mixed, ...)", type));
      std::size_t k = 0;
      if (t->code == kPolygon || t->code == kPolyline) {
        const std::string* npe = c.attribute("NodesPerElement");
        std::uint64_t v = raw.ndim() == 2 ? raw.shape()[1] : 0;
        if (npe && !io::parse_count(trim(*npe), v)) fail(c, "NodesPerElement: " + expected_found("a count", *npe));
        if (t->code == kPolyline && v != 2) fail(c, "Polyline of " + std::to_string(v) + " nodes per element is not read (only 2)");
        if (t->code == kPolygon && v < 3) fail(c, "Polygon of " + std::to_string(v) + " nodes per element");
        k = static_cast<std::size_t>(v);
      } else {
        k = static_cast<std::size_t>(cell_type(t->meshio).num_nodes);
      }
      if (raw.size() % k != 0) fail(c, std::to_string(raw.size()) + " node indices are not rows of " + std::to_string(k) + " (" + type + ")");
      mesh.cells.push_back(CellBlock::rectangular(std::string(t->meshio), raw.as_dtype(DType::int64).reshaped({raw.size() / k, k})));
    }
  }
  if (!have_points) fail(grid, "the grid has no <Geometry>");
  const std::int64_t npoints = static_cast<std::int64_t>(mesh.num_points());
  for (const auto& block : mesh.cells) {
    const std::int64_t* p = block.connectivity.data<const std::int64_t>();
    for (std::size_t i = 0, n = block.connectivity.size(); i < n; ++i)
      if (p[i] < 0 || p[i] >= npoints)
        fail(grid, block.type + " cells: node index " + std::to_string(p[i]) + " is out of range (" + std::to_string(npoints) + " points)");
  }
}

void Document::read_attributes(const io::XmlElement& grid, Mesh& mesh, std::initializer_list<std::string_view> quiet) {
  const std::size_t ncells = mesh.num_cells();
  for (const auto& c : grid.children) {
    if (c.name == "Attribute") {
      const std::string* name = c.attribute("Name");
      if (!name) fail(c, "<Attribute> has no Name");
      const std::string* center_attr = c.attribute("Center");
      const std::string center = center_attr ? std::string(trim(*center_attr)) : "Node";
      NDArray data = data_item(c);
      if (center == "Node") {
        if (data.dim(0) != mesh.num_points())
          fail(c, "point data '" + *name + "' has " + std::to_string(data.dim(0)) + " rows for " + std::to_string(mesh.num_points()) + " points");
        mesh.point_data[*name] = std::move(data);
      } else if (center == "Cell") {
        if (data.dim(0) != ncells)
          fail(c, "cell data '" + *name + "' has " + std::to_string(data.dim(0)) + " rows for " + std::to_string(ncells) + " cells");
        std::vector<NDArray> per_block;
        if (mesh.cells.size() == 1) {
          per_block.push_back(std::move(data));
        } else {
          std::size_t first = 0;
          for (const auto& block : mesh.cells) {
            per_block.push_back(rows(data, first, block.size()));
            first += block.size();
          }
        }
        mesh.cell_data[*name] = std::move(per_block);
      } else if (center == "Grid") {
        mesh.field_data[*name] = std::move(data);
      } else {
        warn("skipped <Attribute Name=\"" + *name + "\" Center=\"" + center + "\">: only Node, Cell and Grid data are read");
      }
    } else if (c.name == "Information") {
      // meshio's field data: <Information><main><map key="name" dim="2">7</map>...</main></Information>
      bool any = false;
      for (const auto& main : c.children)
        for (const auto& map : main.children) {
          if (map.name != "map") continue;
          const std::string* key = map.attribute("key");
          const std::string* dim = map.attribute("dim");
          std::uint64_t tag = 0, d = 0;
          if (!key || !dim || !io::parse_count(trim(*dim), d) || !io::parse_count(trim(map.text()), tag))
            fail(map, "<map> of <Information>: " + expected_found("key=, dim= and a tag number", map.text()));
          mesh.field_data[*key] = NDArray::from_vector<std::int64_t>({static_cast<std::int64_t>(tag), static_cast<std::int64_t>(d)});
          any = true;
        }
      if (!any) warn("skipped an <Information> element: only meshio's field data (<main><map key= dim=>) is read");
    } else if (c.name != "Geometry" && c.name != "Topology" &&
               std::find(quiet.begin(), quiet.end(), c.name) == quiet.end()) {
      warn("skipped <" + std::string(c.name) + "> in a <Grid>: not mesh data");
    }
  }
}

Mesh read_xdmf(const std::string& path, const Options& options) {
  OptionReader opts(options, "xdmf");
  opts.finish();
  Document doc(path);
  const auto grids = doc.grids();
  const io::XmlElement* mesh_grid = nullptr;
  const io::XmlElement* collection = nullptr;
  for (const io::XmlElement* g : grids) {
    const std::string* type = g->attribute("GridType");
    if (!type || trim(*type) == "Uniform") {
      if (!mesh_grid) mesh_grid = g;
      else warn("skipped a second uniform <Grid>: one grid is read");
    } else if (trim(*type) == "Collection" && !collection) {
      collection = g;
    } else {
      warn("skipped a <Grid GridType=\"" + *type + "\">");
    }
  }
  if (collection) {
    // A time series: the mesh is the Domain's uniform grid, else the first step's.
    if (!mesh_grid)
      for (const auto& g : collection->children)
        if (g.name == "Grid") {
          mesh_grid = &g;
          break;
        }
    warn("the file is a collection (time series): read its mesh; read the steps with meshioplusplus.xdmf.TimeSeriesReader");
  }
  if (!mesh_grid) doc.fail(doc.domain(), "no <Grid> in <Domain>");
  Mesh mesh;
  doc.read_points_cells(*mesh_grid, mesh);
  doc.read_attributes(*mesh_grid, mesh, {"Time", "xi:include"});
  return mesh;
}

}  // namespace meshioplusplus::xdmf
