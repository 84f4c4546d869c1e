// meshio++ CGNS reader: every unstructured zone of every base (CGNSBase_t / Zone_t) as one
// mesh (point ids shifted per zone, one cell region per zone), read with the HDF5 toolkit
// (core/io/hdf5.hpp): GridCoordinates, Elements_t sections of fixed types, MIXED, NGON_n and
// NFACE_n (CGNS 3 inline counts, or CGNS 4's ElementStartOffset), ZoneBC_t (vertex BCs as
// point regions, face BCs as side regions), ZoneSubRegion_t, FlowSolution_t by GridLocation.
// The file's tree is walked at fixed depths (base, zone, zone child, grandchild), so a
// cyclic HDF5 link cannot loop. Every error names the CGNS node path.
// Spec: https://cgns.github.io/CGNS_docs_current/sids/index.html (SIDS) and
// https://cgns.github.io/CGNS_docs_current/filemap/ (HDF5 mapping).
#include <algorithm>
#include <atomic>
#include <mutex>
#include <numeric>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>
#include <type_traits>

#include "formats/cgns/cgns_internal.hpp"
#include "meshioplusplus/cell_types.hpp"
#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/mesh_ops.hpp"
#include "meshioplusplus/warnings.hpp"

#include "core/io/hdf5.hpp"
#ifdef MESHIOPP_HAVE_HDF5
#include "core/io/file.hpp"
#include "core/parallel.hpp"
#include "core/uninit_vector.hpp"
#endif

namespace meshioplusplus::cgns {

#ifdef MESHIOPP_HAVE_HDF5
namespace {

namespace h5 = io::hdf5;

// An ADF file starts with "@(#)ADF Database Version" (the first 4 bytes with their high bit set).
constexpr std::string_view kAdfMagic = "ADF Database Version";

struct Node {
  std::string path;   // HDF5 path: "/Base/Zone1/GridCoordinates"
  std::string name;   // the group's name
  std::string label;  // "Zone_t"; "" when the file does not say (meshio's files)
};

// One Elements_t section, as read.
struct Section {
  Node node;
  std::int64_t type = 0;
  std::int64_t start = 0, end = 0;  // ElementRange
  std::vector<CellBlock> blocks;    // its cells (MIXED: one block per run of one type)
  bool faces_only = false;          // NGON_n faces of a zone with NFACE_n: not cells
  std::vector<std::int64_t> offsets, nodes;  // NGON_n: its faces (0-based nodes)
  std::vector<std::int64_t> counts_offsets, counts;  // NFACE_n: faces per cell (signed ids)
  std::int64_t first_cell = -1;     // global (zone) cell index of its first element
};

// The section (sorted by ElementRange start, ranges disjoint) holding element `id`, or
// nullptr; `type` other than -1 asks for a section of that ElementType_t.
const Section* find_section(const std::vector<Section>& sections, std::int64_t id, std::int64_t type = -1) {
  auto it = std::upper_bound(sections.begin(), sections.end(), id, [](std::int64_t v, const Section& s) { return v < s.start; });
  if (it == sections.begin()) return nullptr;
  --it;
  if (id > it->end || (type >= 0 && it->type != type)) return nullptr;
  return &*it;
}

class Reader {
 public:
  Reader(const std::string& path, unsigned threads) : ctx_{"cgns", path, false}, threads_(threads) {}

  Mesh read() {
    h5::Session session;
    h5::Handle file = open();
    file_ = file.get();
    std::vector<Node> bases;
    for (const Node& n : children(root_node()))
      if (n.label == "CGNSBase_t" || (n.label.empty() && unlabeled_)) bases.push_back(n);
    if (bases.empty()) fail("/", "no CGNSBase_t node: not a CGNS file (or one without bases)");
    std::vector<Mesh> parts;
    std::vector<std::string> base_names;
    for (const Node& base : bases) {
      base_names.push_back(base.name);
      int cell_dim = 3, phys_dim = 3;
      if (std::optional<NDArray> d = data(base)) {
        if (d->size() != 2) fail(base.path, expected_found("2 values (CellDimension, PhysicalDimension)", std::to_string(d->size()) + " values"));
        cell_dim = static_cast<int>(d->value_as_int64(0));
        phys_dim = static_cast<int>(d->value_as_int64(1));
        if (cell_dim < 1 || cell_dim > 3 || phys_dim < 1 || phys_dim > 3 || cell_dim > phys_dim)
          fail(base.path, expected_found("1 <= CellDimension <= PhysicalDimension <= 3",
                                         std::to_string(cell_dim) + ", " + std::to_string(phys_dim)));
      }
      for (const Node& zone : children(base)) {
        if (zone.label != "Zone_t" && !(zone.label.empty() && unlabeled_)) continue;
        Mesh part = read_zone(zone, cell_dim, phys_dim);
        const std::string region = bases.size() > 1 ? base.name + "/" + zone.name : zone.name;
        NDArray all = NDArray::uninit(DType::int64, {part.num_cells()});
        std::iota(all.data<std::int64_t>(), all.data<std::int64_t>() + all.size(), std::int64_t{0});
        part.regions.push_back(Region{region, RegionKind::cell, cell_dim, static_cast<int>(parts.size() + 1), std::move(all)});
        parts.push_back(std::move(part));
      }
    }
    if (parts.empty()) fail(bases[0].path, "no Zone_t node: the file holds no mesh");
    Mesh mesh;
    if (parts.size() == 1) {
      mesh = std::move(parts[0]);
    } else {
      try {
        mesh = concatenate(parts);
      } catch (const std::invalid_argument& e) {
        fail(bases[0].path, std::string("zones cannot be read as one mesh: ") + e.what());
      }
    }
    for (const Node& base : bases)
      if (std::optional<NDArray> d = data(base)) mesh.field_data["CGNSBase:" + base.name] = d->as_dtype(DType::int32);
    read_field_data(bases, mesh);
    return mesh;
  }

 private:
  [[noreturn]] void fail(const std::string& node, const std::string& what) const {
    throw read_error("cgns", ctx_.path, "node " + node + ": " + what);
  }

  // The file, with its size (what bounds every declared size). ADF-flavour files are named
  // as such; a pipe or character device is read whole and opened from memory.
  h5::Handle open() {
    std::error_code ec;
    const bool regular = std::filesystem::is_regular_file(ctx_.path, ec);
    std::optional<io::FileBytes> whole;
    std::string head;
    if (regular) {
      const io::FileBytes bytes(ctx_.path, "cgns");
      file_bytes_ = bytes.size();
      head.assign(reinterpret_cast<const char*>(bytes.data()), std::min<std::size_t>(bytes.size(), 64));
    } else {
      whole.emplace(ctx_.path, "cgns");
      file_bytes_ = whole->size();
      head.assign(reinterpret_cast<const char*>(whole->data()), std::min<std::size_t>(whole->size(), 64));
    }
    if (head.find(kAdfMagic) != std::string::npos)
      throw read_error("cgns", ctx_.path,
                       "an ADF-flavour CGNS file: only the HDF5 flavour is read; convert it with "
                       "`cgnsconvert -h in.cgns out.cgns` (from the CGNS tools)");
    return regular ? h5::open_file(ctx_) : h5::open_file_image(ctx_, whole->data(), whole->size());
  }

  Node root_node() {
    Node root{"/", "", ""};
    root.label = attribute(root, "label").value_or("");
    // meshio's writer labels nothing: its nodes are then known by their place and name.
    unlabeled_ = root.label.empty();
    return root;
  }

  std::optional<std::string> attribute(const Node& node, const char* name) const {
    h5::Handle g = h5::open_group(ctx_, file_, node.path);
    try {
      return h5::read_string_attribute(ctx_, g.get(), name);
    } catch (const ReadError&) {
      fail(node.path, std::string("attribute '") + name + "' is not a string");
    }
  }

  // The child nodes of `node` (HDF5 groups), in the file's creation order.
  std::vector<Node> children(const Node& node) const {
    h5::Handle g = h5::open_group(ctx_, file_, node.path);
    std::vector<Node> out;
    for (const std::string& name : h5::group_names(ctx_, g.get(), /*creation_order=*/true)) {
      Node child{node.path == "/" ? "/" + name : node.path + "/" + name, name, ""};
      child.label = attribute(child, "label").value_or("");
      out.push_back(std::move(child));
    }
    return out;
  }

  std::optional<Node> child(const Node& node, const std::string& name) const {
    const std::string path = node.path + "/" + name;
    if (!h5::exists(file_, path)) return std::nullopt;
    Node n{path, name, ""};
    n.label = attribute(n, "label").value_or("");
    return n;
  }

  // The node's " data", when it has one.
  std::optional<NDArray> data(const Node& node) const {
    const std::string path = node.path + "/ data";
    if (!h5::exists(file_, path)) return std::nullopt;
    return h5::read_dataset(ctx_, file_, path, file_bytes_);
  }
  NDArray required(const Node& node) const {
    std::optional<NDArray> d = data(node);
    if (!d) fail(node.path, "no data (expected a \" data\" dataset)");
    return std::move(*d);
  }
  // Integer data as int64 (C1 / float data is an error naming the node).
  NDArray integers(const Node& node) const {
    NDArray d = required(node);
    if (d.dtype() == DType::float32 || d.dtype() == DType::float64)
      fail(node.path, expected_found("integer data (I4 or I8)", std::string(dtype_name(d.dtype()))));
    return d.dtype() == DType::int64 ? d : d.as_dtype(DType::int64);
  }
  // C1 data (int8 bytes) as a string, up to the first NUL.
  std::string text(const Node& node) const {
    const std::optional<NDArray> d = data(node);
    if (!d) return {};
    if (d->dtype() != DType::int8 && d->dtype() != DType::uint8)
      fail(node.path, expected_found("character data (C1)", std::string(dtype_name(d->dtype()))));
    std::string s(static_cast<const char*>(d->raw()), d->size());
    s.resize(std::min(s.size(), s.find('\0')));
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s;
  }
  std::string grid_location(const Node& node) const {
    const std::optional<Node> loc = child(node, "GridLocation");
    return loc ? text(*loc) : "Vertex";
  }

  Mesh read_zone(const Node& zone, int cell_dim, int phys_dim) {
    if (const std::optional<Node> type = child(zone, "ZoneType")) {
      const std::string t = text(*type);
      if (t == "Structured")
        fail(zone.path, "a Structured zone: only Unstructured zones are read (convert it, e.g. with cgns_to_vtk, "
                        "or read the file with VTK's vtkCGNSReader)");
      if (t != "Unstructured") fail(type->path, expected_found("Unstructured", t));
    }
    std::int64_t nvertex = -1, ncell = -1;
    if (std::optional<NDArray> d = data(zone)) {
      if (d->size() != 3) fail(zone.path, expected_found("3 sizes (vertices, cells, boundary vertices) of an unstructured zone",
                                                         std::to_string(d->size()) + " values"));
      nvertex = d->value_as_int64(0);
      ncell = d->value_as_int64(1);
      if (nvertex < 0 || ncell < 0) fail(zone.path, "negative vertex or cell count");
    }
    Mesh mesh;
    read_coordinates(zone, phys_dim, nvertex, mesh);
    nvertex = static_cast<std::int64_t>(mesh.num_points());

    std::vector<Section> sections;
    std::vector<Node> bcs, subregions, solutions;
    for (const Node& n : children(zone)) {
      if (n.label == "Elements_t" || (unlabeled_ && h5::exists(file_, n.path + "/ElementConnectivity")))
        sections.push_back(read_section(n, nvertex));
      else if (n.label == "ZoneBC_t")
        for (const Node& bc : children(n))
          if (bc.label == "BC_t") bcs.push_back(bc);
      if (n.label == "ZoneSubRegion_t") subregions.push_back(n);
      if (n.label == "FlowSolution_t") solutions.push_back(n);
    }
    std::sort(sections.begin(), sections.end(), [](const Section& a, const Section& b) { return a.start < b.start; });
    for (std::size_t i = 1; i < sections.size(); ++i)
      if (sections[i].start <= sections[i - 1].end)
        fail(sections[i].node.path, "ElementRange [" + std::to_string(sections[i].start) + ", " + std::to_string(sections[i].end) +
                                        "] overlaps that of " + sections[i - 1].node.path);
    resolve_polyhedra(sections);
    std::int64_t cell = 0;
    for (Section& s : sections) {
      if (s.faces_only) continue;
      s.first_cell = cell;
      for (CellBlock& b : s.blocks) {
        cell += static_cast<std::int64_t>(b.size());
        mesh.cells.push_back(std::move(b));
      }
      s.blocks.clear();
    }
    for (const Node& sol : solutions) read_solution(sol, cell_dim, mesh);
    for (const Node& bc : bcs) read_region(bc, sections, cell_dim, nvertex, mesh, true);
    for (const Node& r : subregions) read_region(r, sections, cell_dim, nvertex, mesh, false);
    (void)ncell;
    return mesh;
  }

  void read_coordinates(const Node& zone, int phys_dim, std::int64_t nvertex, Mesh& mesh) {
    std::optional<Node> grid = child(zone, "GridCoordinates");
    if (!grid) fail(zone.path, "no GridCoordinates node");
    static const char* const kNames[3] = {"CoordinateX", "CoordinateY", "CoordinateZ"};
    // One axis at a time into the points (the points and one axis alive at once, not every
    // axis); a later axis of another float type turns the points into float64.
    std::size_t dim = 0;
    for (int d = 0; d < phys_dim; ++d) {
      const std::optional<Node> c = child(*grid, kNames[d]);
      if (!c) {
        if (d == 2 && unlabeled_) break;
        fail(grid->path, std::string("no ") + kNames[d] + " (only Cartesian coordinates are read)");
      }
      NDArray a = required(*c);
      if (a.dtype() != DType::float32 && a.dtype() != DType::float64) a = a.as_dtype(DType::float64);
      if (nvertex < 0) nvertex = static_cast<std::int64_t>(a.size());
      if (a.size() != static_cast<std::size_t>(nvertex))
        fail(c->path, expected_found(std::to_string(nvertex) + " values (the zone's vertices)", std::to_string(a.size())));
      const std::size_t n = static_cast<std::size_t>(nvertex);
      if (d == 0) mesh.points = NDArray::uninit(a.dtype(), {n, static_cast<std::size_t>(phys_dim)});
      if (a.dtype() != mesh.points.dtype()) {
        mesh.points = mesh.points.as_dtype(DType::float64);
        a = a.as_dtype(DType::float64);
      }
      visit_dtype(a.dtype(), [&](auto tag) {
        using T = decltype(tag);
        T* out = mesh.points.data<T>();
        const T* in = a.data<const T>();
        for (std::size_t i = 0; i < n; ++i) out[i * static_cast<std::size_t>(phys_dim) + d] = in[i];
      });
      dim = static_cast<std::size_t>(d) + 1;
    }
    if (dim < static_cast<std::size_t>(phys_dim)) {  // 2-D coordinates of an unlabeled 3-D zone: drop the z column
      const std::size_t n = mesh.points.dim(0), width = static_cast<std::size_t>(phys_dim);
      NDArray p = NDArray::uninit(mesh.points.dtype(), {n, dim});
      visit_dtype(p.dtype(), [&](auto tag) {
        using T = decltype(tag);
        for (std::size_t i = 0; i < n; ++i)
          for (std::size_t k = 0; k < dim; ++k) p.data<T>()[i * dim + k] = mesh.points.data<const T>()[i * width + k];
      });
      mesh.points = std::move(p);
    }
  }

  // A 1-based vertex id as a 0-based point index, checked.
  std::int64_t vertex(std::int64_t id, std::int64_t nvertex, const Node& node) const {
    if (id < 1 || id > nvertex)
      fail(node.path, expected_found("vertex ids in 1.." + std::to_string(nvertex), std::to_string(id)));
    return id - 1;
  }

  Section read_section(const Node& n, std::int64_t nvertex) {
    Section s;
    s.node = n;
    const std::optional<Node> range = child(n, "ElementRange");
    const std::optional<Node> conn_node = child(n, "ElementConnectivity");
    if (!conn_node) fail(n.path, "no ElementConnectivity");
    // Fixed types convert the file's ids (I4 or I8) into the block a piece at a time (or,
    // from a compressed dataset, from the whole of it); the counted layouts (MIXED, NGON_n,
    // NFACE_n) walk an int64 copy.
    const std::string conn_path = conn_node->path + "/ data";
    if (!h5::exists(file_, conn_path)) fail(conn_node->path, "no data (expected a \" data\" dataset)");
    const h5::DatasetPieces pieces(ctx_, file_, conn_path, file_bytes_);
    if (pieces.dtype() == DType::float32 || pieces.dtype() == DType::float64)
      fail(conn_node->path, expected_found("integer data (I4 or I8)", std::string(dtype_name(pieces.dtype()))));
    const std::size_t len = static_cast<std::size_t>(pieces.size());
    NDArray raw, conn;
    const std::int64_t* c = nullptr;
    auto as_int64 = [&]() {
      raw = required(*conn_node);
      conn = raw.dtype() == DType::int64 ? raw : raw.as_dtype(DType::int64);
      c = conn.data<std::int64_t>();
    };
    if (std::optional<NDArray> d = data(n)) {
      if (d->size() != 2) fail(n.path, expected_found("2 values (ElementType, ElementSizeBoundary)", std::to_string(d->size())));
      s.type = d->value_as_int64(0);
    } else {
      // meshio writes no element type, and only tetrahedra.
      s.type = 10;
    }
    if (!range) fail(n.path, "no ElementRange");
    const NDArray r = integers(*range);
    if (r.size() != 2) fail(range->path, expected_found("2 values", std::to_string(r.size())));
    s.start = r.data<std::int64_t>()[0];
    s.end = r.data<std::int64_t>()[1];
    if (s.start < 1 || s.end < s.start - 1 || s.end - s.start >= static_cast<std::int64_t>(len) + 1)
      fail(range->path, expected_found("1 <= start <= end + 1, no more elements than connectivity values",
                                       "[" + std::to_string(s.start) + ", " + std::to_string(s.end) + "]"));
    const std::size_t m = static_cast<std::size_t>(s.end - s.start + 1);

    // CGNS 4 keeps the per-element starts of MIXED / NGON_n / NFACE_n apart.
    std::optional<NDArray> offsets;
    if (const std::optional<Node> o = child(n, "ElementStartOffset")) {
      offsets = integers(*o);
      const std::int64_t* p = offsets->data<std::int64_t>();
      if (offsets->size() != m + 1 || p[0] != 0 || p[m] != static_cast<std::int64_t>(len))
        fail(o->path, expected_found(std::to_string(m + 1) + " offsets from 0 to " + std::to_string(len),
                                     std::to_string(offsets->size()) + " offsets"));
      for (std::size_t i = 0; i < m; ++i)
        if (p[i + 1] < p[i]) fail(o->path, "offsets decrease at element " + std::to_string(i));
    }

    if (const ElementKind* k = element_kind(s.type)) {
      const std::size_t npe = static_cast<std::size_t>(k->nodes);
      if (len != m * npe)
        fail(conn_node->path, expected_found(std::to_string(m) + " x " + std::to_string(npe) + " node ids (" + std::string(k->cgns_name) + ")",
                                             std::to_string(len)));
      if (pieces.pieces()) {
        s.blocks.push_back(CellBlock::rectangular(std::string(k->meshio), fixed_in_pieces(pieces, *k, m, nvertex, *conn_node)));
        return s;
      }
      raw = required(*conn_node);
      // int64 ids in CGNS's own node order become the block where they lie (shifted in place).
      const bool in_place = raw.dtype() == DType::int64 && k->vtk_from_cgns.empty();
      NDArray out = in_place ? raw.reshaped({m, npe}) : NDArray::uninit(DType::int64, {m, npe});
      std::int64_t* o = out.data<std::int64_t>();
      // Checked once after the pass: each range keeps the largest 0-based id as unsigned;
      // ranges of elements on several threads.
      std::vector<std::uint64_t> tops(16, 0);
      std::atomic<std::size_t> next_range{0};
      visit_dtype(raw.dtype(), [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_integral_v<T>) {
          const T* in = raw.data<T>();
          parallel_ranges(m, threads_, [&](std::size_t r0, std::size_t r1) {
            tops[next_range.fetch_add(1)] = ids_to_block(in + r0 * npe, o + r0 * npe, r1 - r0, npe, k->vtk_from_cgns);
          });
        }
      });
      check_ids(out, tops, nvertex, *conn_node);
      s.blocks.push_back(CellBlock::rectangular(std::string(k->meshio), std::move(out)));
      return s;
    }
    as_int64();
    if (s.type == kMixed) {
      read_mixed(s, *conn_node, c, len, m, offsets, nvertex);
      return s;
    }
    if (s.type == kNgon || s.type == kNface) {
      // CGNS 3: each element is its count then its entries; CGNS 4: the entries only.
      std::vector<std::int64_t>& off = s.type == kNgon ? s.offsets : s.counts_offsets;
      std::vector<std::int64_t>& vals = s.type == kNgon ? s.nodes : s.counts;
      off.assign(1, 0);
      std::size_t at = 0;
      for (std::size_t i = 0; i < m; ++i) {
        std::size_t from, to;
        if (offsets) {
          from = static_cast<std::size_t>(offsets->data<std::int64_t>()[i]);
          to = static_cast<std::size_t>(offsets->data<std::int64_t>()[i + 1]);
        } else {
          if (at >= len) fail(conn_node->path, "ends inside element " + std::to_string(i) + " of " + std::to_string(m));
          const std::int64_t count = c[at];
          if (count < 0 || static_cast<std::uint64_t>(count) > len - at - 1)
            fail(conn_node->path, "element " + std::to_string(i) + ": " + expected_found("a count that fits the connectivity", std::to_string(count)));
          from = at + 1;
          to = from + static_cast<std::size_t>(count);
          at = to;
        }
        if (to == from) fail(conn_node->path, "element " + std::to_string(i) + " is empty");
        for (std::size_t j = from; j < to; ++j) vals.push_back(s.type == kNgon ? vertex(c[j], nvertex, *conn_node) : c[j]);
        off.push_back(static_cast<std::int64_t>(vals.size()));
      }
      if (!offsets && at != len)
        fail(conn_node->path, expected_found(std::to_string(at) + " values for " + std::to_string(m) + " elements", std::to_string(len)));
      return s;
    }
    fail(n.path, "element type " + element_type_name(s.type) + " is not read");
  }

  // A fixed-type section's ids, 1-based in CGNS's node order, as the 0-based block in VTK's:
  // pieces of elements read as int64 straight into the block (in place when no reordering)
  // and converted while they are in cache, the pieces of one range per thread (HDF5 calls
  // one at a time). A bad id is named as vertex() names it.
  NDArray fixed_in_pieces(const h5::DatasetPieces& pieces, const ElementKind& k, std::size_t m, std::int64_t nvertex,
                          const Node& conn_node) const {
    constexpr std::size_t kPieceElements = std::size_t{1} << 15;
    const std::size_t npe = static_cast<std::size_t>(k.nodes);
    NDArray out = NDArray::uninit(DType::int64, {m, npe});
    std::int64_t* o = out.data<std::int64_t>();
    const bool reorder = !k.vtk_from_cgns.empty();
    std::vector<std::uint64_t> tops(16, 0);
    std::atomic<std::size_t> next_range{0};
    std::mutex hdf5_calls;
    parallel_ranges(m, threads_, [&](std::size_t r0, std::size_t r1) {
      UninitVector<std::int64_t> scratch(reorder ? std::min(kPieceElements, r1 - r0) * npe : 0);
      std::uint64_t top = 0;
      for (std::size_t p0 = r0; p0 < r1; p0 += kPieceElements) {
        const std::size_t count = std::min(kPieceElements, r1 - p0);
        std::int64_t* piece = o + p0 * npe;
        {
          std::lock_guard<std::mutex> lock(hdf5_calls);
          pieces.read(p0 * npe, count * npe, DType::int64, reorder ? scratch.data() : piece);
        }
        top = std::max(top, ids_to_block(reorder ? scratch.data() : piece, piece, count, npe, k.vtk_from_cgns));
      }
      tops[next_range.fetch_add(1)] = top;
    });
    check_ids(out, tops, nvertex, conn_node);
    return out;
  }

  // `count` elements of `npe` 1-based ids in CGNS's node order (`order`: VTK's node i is the
  // file's order[i]; empty: the same) as 0-based ids in VTK's order; `in` may be `out` when
  // the order is the same. Returns the largest 0-based id as unsigned (an id below 1 wraps
  // to a huge value), for check_ids.
  template <class I>
  static std::uint64_t ids_to_block(const I* in, std::int64_t* out, std::size_t count, std::size_t npe,
                                    const std::vector<int>& order) {
    std::uint64_t top = 0;
    auto put = [&](std::size_t at, I id) {
      const std::uint64_t v = static_cast<std::uint64_t>(static_cast<std::int64_t>(id)) - 1;
      top = std::max(top, v);
      out[at] = static_cast<std::int64_t>(v);
    };
    if (order.empty()) {
      for (std::size_t i = 0; i < count * npe; ++i) put(i, in[i]);
    } else {
      for (std::size_t i = 0; i < count; ++i)
        for (std::size_t j = 0; j < npe; ++j) put(i * npe + j, in[i * npe + static_cast<std::size_t>(order[j])]);
    }
    return top;
  }

  // After ids_to_block on every range: a ReadError naming the first id outside 1..nvertex.
  void check_ids(const NDArray& block, const std::vector<std::uint64_t>& tops, std::int64_t nvertex, const Node& conn_node) const {
    if (nvertex >= 0 && *std::max_element(tops.begin(), tops.end()) < static_cast<std::uint64_t>(nvertex)) return;
    const std::int64_t* o = block.data<const std::int64_t>();
    for (std::size_t i = 0; i < block.size(); ++i)
      vertex(static_cast<std::int64_t>(static_cast<std::uint64_t>(o[i]) + 1), nvertex, conn_node);
  }

  void read_mixed(Section& s, const Node& conn_node, const std::int64_t* c, std::size_t len, std::size_t m,
                  const std::optional<NDArray>& offsets, std::int64_t nvertex) {
    std::size_t at = 0;
    const ElementKind* run = nullptr;
    std::vector<std::int64_t> rows;
    auto flush = [&]() {
      if (!run || rows.empty()) return;
      const std::size_t npe = static_cast<std::size_t>(run->nodes);
      s.blocks.push_back(CellBlock::rectangular(std::string(run->meshio), NDArray::from_vector(rows, {rows.size() / npe, npe})));
      rows.clear();
    };
    for (std::size_t i = 0; i < m; ++i) {
      if (offsets) at = static_cast<std::size_t>(offsets->data<std::int64_t>()[i]);
      if (at >= len) fail(conn_node.path, "ends inside element " + std::to_string(i) + " of " + std::to_string(m));
      const ElementKind* k = element_kind(c[at]);
      if (!k) fail(conn_node.path, "element " + std::to_string(i) + ": type " + element_type_name(c[at]) + " is not read in a MIXED section");
      const std::size_t npe = static_cast<std::size_t>(k->nodes);
      if (npe > len - at - 1) fail(conn_node.path, "ends inside element " + std::to_string(i) + " (" + std::string(k->cgns_name) + ")");
      if (offsets && static_cast<std::size_t>(offsets->data<std::int64_t>()[i + 1]) != at + 1 + npe)
        fail(conn_node.path, "element " + std::to_string(i) + ": its ElementStartOffset span does not hold a " + std::string(k->cgns_name));
      if (k != run) flush();
      run = k;
      for (std::size_t j = 0; j < npe; ++j) {
        const std::size_t from = k->vtk_from_cgns.empty() ? j : static_cast<std::size_t>(k->vtk_from_cgns[j]);
        rows.push_back(vertex(c[at + 1 + from], nvertex, conn_node));
      }
      at += 1 + npe;
    }
    flush();
    if (!offsets && at != len)
      fail(conn_node.path, expected_found(std::to_string(at) + " values for " + std::to_string(m) + " elements", std::to_string(len)));
  }

  // NFACE_n cells from the NGON_n faces they name; NGON_n sections an NFACE_n refers to are
  // faces, not cells; the others are polygons.
  void resolve_polyhedra(std::vector<Section>& sections) {
    bool any_nface = false;
    for (const Section& s : sections) any_nface = any_nface || s.type == kNface;
    for (Section& s : sections)
      if (s.type == kNgon) s.faces_only = any_nface;
    for (Section& s : sections) {
      if (s.type == kNgon && !s.faces_only)
        s.blocks.push_back(CellBlock::polygons(NDArray::from_vector(s.offsets), NDArray::from_vector(s.nodes)));
      if (s.type != kNface) continue;
      std::vector<std::int64_t> cell_offsets{0}, face_offsets{0}, indices;
      const std::size_t m = s.counts_offsets.size() - 1;
      for (std::size_t i = 0; i < m; ++i) {
        for (auto j = static_cast<std::size_t>(s.counts_offsets[i]); j < static_cast<std::size_t>(s.counts_offsets[i + 1]); ++j) {
          const std::int64_t id = s.counts[j];
          const std::int64_t a = id < 0 ? -id : id;
          const Section* owner = find_section(sections, a, kNgon);
          if (!owner)
            fail(s.node.path + "/ElementConnectivity", "cell " + std::to_string(i) + ": face " + std::to_string(id) + " is no NGON_n element");
          const auto k = static_cast<std::size_t>(a - owner->start);
          const auto from = static_cast<std::size_t>(owner->offsets[k]), to = static_cast<std::size_t>(owner->offsets[k + 1]);
          if (id > 0)
            indices.insert(indices.end(), owner->nodes.begin() + static_cast<std::ptrdiff_t>(from), owner->nodes.begin() + static_cast<std::ptrdiff_t>(to));
          else  // a negative id: the face seen from the other side
            for (std::size_t q = to; q > from; --q) indices.push_back(owner->nodes[q - 1]);
          face_offsets.push_back(static_cast<std::int64_t>(indices.size()));
        }
        cell_offsets.push_back(static_cast<std::int64_t>(face_offsets.size() - 1));
      }
      s.blocks.push_back(CellBlock::polyhedra(NDArray::from_vector(cell_offsets), NDArray::from_vector(face_offsets), NDArray::from_vector(indices)));
    }
  }

  // FlowSolution_t: each DataArray_t child as point data (Vertex) or cell data
  // (CellCenter, one value per cell of the base's cell dimension, in element order);
  // nameX/nameY[/nameZ] triples become one (n, 2|3) array, as VTK's reader combines them.
  void read_solution(const Node& sol, int cell_dim, Mesh& mesh) {
    const std::string loc = grid_location(sol);
    if (loc != "Vertex" && loc != "CellCenter") {
      warn("cgns: " + sol.path + ": GridLocation " + loc + " is not read (Vertex and CellCenter only); skipped");
      return;
    }
    if (child(sol, "PointList") || child(sol, "PointRange")) {
      warn("cgns: " + sol.path + ": a solution on part of the zone (PointList/PointRange) is not read; skipped");
      return;
    }
    const bool vertex_data = loc == "Vertex";
    std::size_t rows = mesh.num_points();
    std::vector<std::size_t> main_cells;  // (block, row) flattened to global cells of cell_dim
    std::vector<std::int64_t> bases = block_bases(mesh.cells);
    if (!vertex_data) {
      for (std::size_t b = 0; b < mesh.cells.size(); ++b)
        if (cell_type(mesh.cells[b].type).dim == cell_dim)
          for (std::size_t i = 0; i < mesh.cells[b].size(); ++i) main_cells.push_back(static_cast<std::size_t>(bases[b]) + i);
      rows = main_cells.size();
    }
    std::vector<std::pair<std::string, NDArray>> arrays;
    for (const Node& a : children(sol)) {
      if (a.label != "DataArray_t") continue;
      NDArray v = required(a);
      if (v.size() != rows)
        fail(a.path, expected_found(std::to_string(rows) + (vertex_data ? " values (one per vertex)" : " values (one per cell of dimension " + std::to_string(cell_dim) + ")"),
                                    std::to_string(v.size())));
      arrays.emplace_back(a.name, v.reshaped({rows}));
    }
    for (const auto& entry : combine_components(arrays)) {  // no structured binding: a lambda below uses it
      const std::string& name = entry.first;
      const NDArray& a = entry.second;
      std::string key = name;
      if ((vertex_data && mesh.point_data.count(key)) || (!vertex_data && mesh.cell_data.count(key))) key = sol.name + "/" + name;
      if (vertex_data) {
        mesh.point_data[key] = a;
        continue;
      }
      // Cell data: the rows of the cells of the cell dimension; the others NaN (floats) or 0.
      const std::size_t k = a.row_size();
      NDArray full = NDArray::zeros(a.dtype(), a.ndim() == 1 ? NDArray::Shape{mesh.num_cells()} : NDArray::Shape{mesh.num_cells(), k});
      visit_dtype(a.dtype(), [&](auto tag) {
        using T = decltype(tag);
        T* out = full.data<T>();
        if constexpr (std::is_floating_point_v<T>) std::fill(out, out + full.size(), std::numeric_limits<T>::quiet_NaN());
        const T* in = a.data<T>();
        for (std::size_t i = 0; i < main_cells.size(); ++i) std::copy(in + i * k, in + (i + 1) * k, out + main_cells[i] * k);
      });
      std::vector<NDArray> per_block;
      for (std::size_t b = 0; b < mesh.cells.size(); ++b) {
        NDArray::Shape shape = full.shape();
        shape[0] = mesh.cells[b].size();
        NDArray part = NDArray::uninit(full.dtype(), shape);
        const std::size_t bytes = part.nbytes();
        if (bytes) std::memcpy(part.raw(), static_cast<const char*>(full.raw()) + static_cast<std::size_t>(bases[b]) * k * dtype_size(full.dtype()), bytes);
        per_block.push_back(std::move(part));
      }
      mesh.cell_data[key] = std::move(per_block);
    }
  }

  static std::vector<std::pair<std::string, NDArray>> combine_components(std::vector<std::pair<std::string, NDArray>>& arrays) {
    std::vector<std::pair<std::string, NDArray>> out;
    std::vector<bool> used(arrays.size(), false);
    auto find = [&](const std::string& name, DType dt) -> std::optional<std::size_t> {
      for (std::size_t i = 0; i < arrays.size(); ++i)
        if (!used[i] && arrays[i].first == name && arrays[i].second.dtype() == dt) return i;
      return std::nullopt;
    };
    for (std::size_t i = 0; i < arrays.size(); ++i) {
      if (used[i]) continue;
      const std::string& name = arrays[i].first;
      const DType dt = arrays[i].second.dtype();
      if (name.size() > 1 && name.back() == 'X') {
        const std::string stem = name.substr(0, name.size() - 1);
        const std::optional<std::size_t> y = find(stem + "Y", dt);
        if (y) {
          std::vector<std::size_t> parts{i, *y};
          if (const std::optional<std::size_t> z = find(stem + "Z", dt)) parts.push_back(*z);
          const std::size_t n = arrays[i].second.size(), k = parts.size();
          NDArray v = NDArray::uninit(dt, {n, k});
          visit_dtype(dt, [&](auto tag) {
            using T = decltype(tag);
            for (std::size_t c = 0; c < k; ++c) {
              const T* in = arrays[parts[c]].second.template data<T>();
              for (std::size_t r = 0; r < n; ++r) v.data<T>()[r * k + c] = in[r];
            }
          });
          for (std::size_t p : parts) used[p] = true;
          out.emplace_back(stem, std::move(v));
          continue;
        }
      }
      used[i] = true;
      out.emplace_back(name, arrays[i].second);
    }
    return out;
  }

  // The element ids (or vertex ids) a BC_t / ZoneSubRegion_t names: PointList, PointRange,
  // or CGNS 2's ElementList / ElementRange.
  // nullopt when the node names none of them.
  std::optional<std::vector<std::int64_t>> ids(const Node& node, bool& elements) const {
    struct Kind {
      const char* name;
      bool range, elements;
    };
    static const Kind kKinds[] = {{"PointList", false, false}, {"PointRange", true, false}, {"ElementList", false, true}, {"ElementRange", true, true}};
    std::vector<std::int64_t> out;
    for (const Kind& kind : kKinds) {
      const std::optional<Node> n = child(node, kind.name);
      if (!n) continue;
      elements = kind.elements;
      const NDArray v = integers(*n);
      const std::int64_t* p = v.data<std::int64_t>();
      if (kind.range) {
        if (v.size() != 2 || p[1] < p[0] || p[1] - p[0] > static_cast<std::int64_t>(file_bytes_))
          fail(n->path, expected_found("a range [first, last] of an unstructured zone", std::to_string(v.size()) + " values"));
        for (std::int64_t i = p[0]; i <= p[1]; ++i) out.push_back(i);
      } else {
        out.assign(p, p + v.size());
      }
      return out;
    }
    return std::nullopt;
  }

  void read_region(const Node& node, const std::vector<Section>& sections, int cell_dim, std::int64_t nvertex, Mesh& mesh, bool bc) {
    bool elements = false;
    const std::optional<std::vector<std::int64_t>> named = ids(node, elements);
    if (!named) {
      warn("cgns: " + node.path + ": names no PointList, PointRange, ElementList or ElementRange; no region read");
      return;
    }
    const std::vector<std::int64_t>& list = *named;
    const std::string loc = grid_location(node);
    if (!elements && loc == "Vertex") {
      std::vector<std::int64_t> pts;
      for (std::int64_t id : list) pts.push_back(vertex(id, nvertex, node));
      Region r{node.name, RegionKind::point, -1, -1, NDArray::from_vector(pts)};
      r.canonicalize();
      mesh.regions.push_back(std::move(r));
      return;
    }
    // Element ids: cells of the mesh, or NGON_n faces of polyhedra.
    std::vector<std::int64_t> cells, face_offsets{0}, face_nodes;
    std::vector<std::int64_t> cell_of_face;
    const std::vector<std::int64_t> bases = block_bases(mesh.cells);
    int dim = -1;
    for (std::int64_t id : list) {
      const Section* s = find_section(sections, id);
      if (!s) fail(node.path, expected_found("element ids of the zone's sections", std::to_string(id)));
      if (s->faces_only) {
        const auto k = static_cast<std::size_t>(id - s->start);
        for (auto j = static_cast<std::size_t>(s->offsets[k]); j < static_cast<std::size_t>(s->offsets[k + 1]); ++j)
          cells.push_back(-1 - s->nodes[j]);  // marked: a vertex of a polyhedron face
        continue;
      }
      cells.push_back(s->first_cell + (id - s->start));
    }
    if (std::any_of(cells.begin(), cells.end(), [](std::int64_t c) { return c < 0; })) {
      // Faces of polyhedra have no facet number: the BC's vertices.
      std::vector<std::int64_t> pts;
      for (std::int64_t c : cells)
        if (c < 0) pts.push_back(-1 - c);
      warn("cgns: " + node.path + ": faces of polyhedra cannot be side entries; read as a point region of their vertices");
      Region r{node.name, RegionKind::point, -1, -1, NDArray::from_vector(pts)};
      r.canonicalize();
      mesh.regions.push_back(std::move(r));
      return;
    }
    // Cells one dimension below the cell dimension that bound cells: a side region.
    bool faces = bc && !cells.empty();
    for (std::int64_t c : cells) {
      const auto b = static_cast<std::size_t>(std::upper_bound(bases.begin(), bases.end(), c) - bases.begin() - 1);
      const CellBlock& block = mesh.cells[b];
      const CellTypeInfo info = cell_type(block.type);
      dim = std::max(dim, info.dim);
      if (block.ragged || info.dim != cell_dim - 1) {
        faces = false;
        continue;
      }
      const std::size_t corners = static_cast<std::size_t>(cell_type(info.linear).num_nodes);
      const std::int64_t* row = block.connectivity.data<std::int64_t>() + static_cast<std::size_t>(c - bases[b]) * block.connectivity.dim(1);
      face_nodes.insert(face_nodes.end(), row, row + corners);
      face_offsets.push_back(static_cast<std::int64_t>(face_nodes.size()));
      cell_of_face.push_back(c);
    }
    if (faces) {
      const FacetMatch match = match_facets(mesh.cells, cell_dim, face_offsets, face_nodes);
      if (match.unmatched.empty()) {
        Region r{node.name, RegionKind::side, cell_dim - 1, -1, NDArray::from_vector(match.sides, {match.sides.size() / 2, 2})};
        r.canonicalize();
        mesh.regions.push_back(std::move(r));
        return;
      }
    }
    Region r{node.name, RegionKind::cell, dim, -1, NDArray::from_vector(cells)};
    r.canonicalize();
    mesh.regions.push_back(std::move(r));
  }

  // UserDefinedData_t "FieldData" below a base (what our writer stores field data in).
  void read_field_data(const std::vector<Node>& bases, Mesh& mesh) {
    for (const Node& base : bases) {
      const std::optional<Node> fd = child(base, "FieldData");
      if (!fd || fd->label != "UserDefinedData_t") continue;
      for (const Node& a : children(*fd))
        if (a.label == "DataArray_t") mesh.field_data[a.name] = required(a);
    }
  }

  h5::Context ctx_;
  hid_t file_ = -1;
  std::size_t file_bytes_ = 0;
  bool unlabeled_ = false;
  unsigned threads_ = 1;
};

}  // namespace
#endif

Mesh read_cgns(const std::string& path, const Options& options) {
  OptionReader opts(options, "cgns");
  const unsigned threads = opts.threads();
  opts.finish();
#ifdef MESHIOPP_HAVE_HDF5
  return Reader(path, threads).read();
#else
  throw read_error("cgns", path, io::hdf5::kMissing);
#endif
}

}  // namespace meshioplusplus::cgns
