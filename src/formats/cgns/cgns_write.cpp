// meshio++ CGNS writer: one CGNSBase_t holding one Unstructured Zone_t, as the CGNS 3.4
// library lays it out (so that its cgnscheck and cgnslist, VTK's vtkCGNSReader and meshio
// read it): the root's attributes and " format" / " hdf5version" datasets,
// CGNSLibraryVersion 3.4, GridCoordinates, one Elements_t section per cell block (the
// blocks of the base's cell dimension first, so that they are elements 1..ncell, as
// cell-centred data expects), polygons as NGON_n and polyhedra as NGON_n faces + NFACE_n
// cells (CGNS 3 layout: counts inline, no ElementStartOffset), regions as ZoneBC_t /
// ZoneSubRegion_t, point and cell data as FlowSolution_t, field data as a
// UserDefinedData_t "FieldData". Built in memory, then written by an io::AtomicFile.
// Spec: https://cgns.github.io/CGNS_docs_current/sids/index.html (SIDS) and
// https://cgns.github.io/CGNS_docs_current/filemap/ (HDF5 mapping).
#include <algorithm>
#include <map>
#include <stdexcept>

#include "core/io/file.hpp"
#include "formats/cgns/cgns_internal.hpp"
#include "meshioplusplus/cell_types.hpp"
#include "meshioplusplus/errors.hpp"

#include "core/io/hdf5.hpp"

namespace meshioplusplus::cgns {

namespace {

constexpr std::size_t kNameBytes = 33;  // 32 characters and a NUL (the SIDS' name limit)
constexpr std::int64_t kI4Max = 2147483647;

// A node name the SIDS allows: 1..32 characters, no '/', not "." or "..".
bool valid_name(const std::string& name) {
  return !name.empty() && name.size() < kNameBytes && name.find('/') == std::string::npos && name != "." && name != "..";
}
void check_name(const std::string& name, const std::string& what, const std::string& path) {
  if (!valid_name(name))
    throw write_error("cgns", path, what + " '" + name + "': a CGNS node name is 1 to 32 characters without '/'");
}

// One Elements_t section to write.
struct Section {
  std::string name;
  int type = 0;
  NDArray connectivity;  // flat, 1-based, int64
  std::int64_t count = 0;
  std::int64_t start = 0;  // ElementRange start (set when numbered)
};

// A rectangular block's connectivity as int64 (shared, not copied, when it already is).
NDArray int64_connectivity(const CellBlock& b) {
  return b.connectivity.dtype() == DType::int64 ? b.connectivity : b.connectivity.as_dtype(DType::int64);
}

// A flat int64 copy of a block's cells in the file's node order, 1-based.
NDArray fixed_connectivity(const CellBlock& b, const ElementKind& k) {
  const NDArray conn = int64_connectivity(b);
  const std::size_t m = b.size(), npe = static_cast<std::size_t>(k.nodes);
  NDArray out = NDArray::uninit(DType::int64, {m * npe});
  const std::int64_t* in = conn.data<std::int64_t>();
  std::int64_t* o = out.data<std::int64_t>();
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < npe; ++j) {
      const std::size_t to = k.vtk_from_cgns.empty() ? j : static_cast<std::size_t>(k.vtk_from_cgns[j]);
      o[i * npe + to] = in[i * npe + j] + 1;
    }
  return out;
}


class Plan {
 public:
  Plan(const Mesh& mesh, const std::string& path, const std::string& zone_name) : mesh_(mesh), path_(path), zone_(zone_name) {}

  void build() {
    phys_dim_ = static_cast<int>(mesh_.points.dim(1));
    if (mesh_.points.ndim() != 2 || phys_dim_ < 1 || phys_dim_ > 3)
      throw write_error("cgns", path_, "points: expected an (n, 1..3) array");
    cell_dim_ = 0;
    for (const CellBlock& b : mesh_.cells) cell_dim_ = std::max(cell_dim_, cell_type(b.type).dim);
    if (cell_dim_ == 0) cell_dim_ = std::max(1, std::min(phys_dim_, 3));
    if (cell_dim_ > phys_dim_)
      throw write_error("cgns", path_, "cells of dimension " + std::to_string(cell_dim_) + " in a space of dimension " + std::to_string(phys_dim_));
    const std::vector<std::int64_t> bases = block_bases(mesh_.cells);
    bases_ = bases;
    for (const CellBlock& b : mesh_.cells) conn64_.push_back(b.ragged ? NDArray() : int64_connectivity(b));
    element_of_cell_.assign(mesh_.num_cells(), 0);
    // Blocks of the cell dimension first (elements 1..ncell), then the others, in mesh order.
    std::vector<std::size_t> order;
    for (int pass = 0; pass < 2; ++pass)
      for (std::size_t b = 0; b < mesh_.cells.size(); ++b)
        if ((cell_type(mesh_.cells[b].type).dim == cell_dim_) == (pass == 0) && mesh_.cells[b].size() > 0) order.push_back(b);
    std::vector<Section> face_sections;  // NGON_n faces of polyhedra: numbered last
    std::vector<std::size_t> nface_of;  // section index of each polyhedron block's NFACE_n
    std::int64_t next = 1;
    for (std::size_t b : order) {
      const CellBlock& block = mesh_.cells[b];
      Section s;
      s.name = sections_.empty() ? "GridElements" : "GridElements_" + std::to_string(sections_.size() + 1);
      s.count = static_cast<std::int64_t>(block.size());
      const std::string_view kind = cell_type(block.type).name;  // "polyhedron" for Python's "polyhedron8"
      if (kind == "polygon") {
        s.type = kNgon;
        std::vector<std::int64_t> flat;
        for (std::size_t i = 0; i < block.size(); ++i) {
          const std::int64_t* from = block.ragged ? block.indices.data<std::int64_t>() + block.offsets.data<std::int64_t>()[i]
                                                  : conn64_[b].data<std::int64_t>() + i * conn64_[b].dim(1);
          const std::int64_t* to = block.ragged ? block.indices.data<std::int64_t>() + block.offsets.data<std::int64_t>()[i + 1]
                                                : from + conn64_[b].dim(1);
          flat.push_back(to - from);
          for (const std::int64_t* v = from; v != to; ++v) flat.push_back(*v + 1);
        }
        s.connectivity = NDArray::from_vector(flat);
      } else if (kind == "polyhedron") {
        if (!block.ragged) throw write_error("cgns", path_, "a polyhedron block without its face lists");
        s.type = kNface;
        polyhedra_.push_back({sections_.size(), b});
      } else {
        const ElementKind* k = element_kind_of(block.type);
        if (!k) throw write_error("cgns", path_, "cell type '" + block.type + "' has no CGNS element type");
        s.type = k->cgns;
        s.connectivity = fixed_connectivity(block, *k);
      }
      s.start = next;
      for (std::size_t i = 0; i < block.size(); ++i) element_of_cell_[static_cast<std::size_t>(bases[b]) + i] = next + static_cast<std::int64_t>(i);
      next += s.count;
      if (cell_type(block.type).dim == cell_dim_) ncell_ += s.count;
      sections_.push_back(std::move(s));
    }
    next_ = next;
    side_faces();
    polyhedron_faces();
  }

  const std::vector<Section>& sections() const { return sections_; }
  int cell_dim() const { return cell_dim_; }
  int phys_dim() const { return phys_dim_; }
  std::int64_t ncell() const { return ncell_; }
  std::int64_t element(std::int64_t cell) const { return element_of_cell_[static_cast<std::size_t>(cell)]; }
  // Element ids of each side region's faces, by region index.
  const std::map<std::size_t, std::vector<std::int64_t>>& side_elements() const { return side_elements_; }
  std::int64_t max_id() const { return std::max<std::int64_t>(next_ - 1, static_cast<std::int64_t>(mesh_.num_points())); }

 private:
  // Side regions name faces: those already cells of the mesh (one dimension lower) are
  // reused, the others written as new sections named after the region.
  void side_faces() {
    std::vector<std::int64_t> face_offsets{0}, face_nodes, face_element;
    const std::vector<std::int64_t> bases = block_bases(mesh_.cells);
    for (std::size_t b = 0; b < mesh_.cells.size(); ++b) {
      const CellBlock& block = mesh_.cells[b];
      const CellTypeInfo info = cell_type(block.type);
      if (block.ragged || info.dim != cell_dim_ - 1) continue;
      const NDArray& c = conn64_[b];
      const std::size_t k = c.dim(1), corners = static_cast<std::size_t>(cell_type(info.linear).num_nodes);
      for (std::size_t i = 0; i < block.size(); ++i) {
        face_nodes.insert(face_nodes.end(), c.data<std::int64_t>() + i * k, c.data<std::int64_t>() + i * k + corners);
        face_offsets.push_back(static_cast<std::int64_t>(face_nodes.size()));
        face_element.push_back(element_of_cell_[static_cast<std::size_t>(bases[b]) + i]);
      }
    }
    std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> existing;
    bool any_side = false;
    for (const Region& r : mesh_.regions) any_side = any_side || r.kind == RegionKind::side;
    if (!any_side) return;
    const FacetMatch match = match_facets(mesh_.cells, cell_dim_, face_offsets, face_nodes);
    for (std::size_t i = 0; i < match.face_of.size(); ++i)
      existing.emplace(std::make_pair(match.sides[2 * i], match.sides[2 * i + 1]), face_element[match.face_of[i]]);
    for (std::size_t ri = 0; ri < mesh_.regions.size(); ++ri) {
      const Region& r = mesh_.regions[ri];
      if (r.kind != RegionKind::side) continue;
      check_name(r.name, "region", path_);
      std::map<int, std::vector<std::int64_t>> added;  // by element type: the new faces' nodes (1-based)
      std::map<int, std::vector<std::size_t>> added_entry;
      std::vector<std::int64_t>& ids = side_elements_[ri];
      const std::size_t n = r.entries.dim(0);
      ids.assign(n, 0);
      for (std::size_t e = 0; e < n; ++e) {
        const std::int64_t cell = r.entries.value_as_int64(2 * e), facet = r.entries.value_as_int64(2 * e + 1);
        if (const auto it = existing.find({cell, facet}); it != existing.end()) {
          ids[e] = it->second;
          continue;
        }
        const std::vector<std::int64_t> nodes = facet_nodes(cell, facet);
        const int type = nodes.size() == 1 ? 2 : nodes.size() == 2 ? 3 : nodes.size() == 3 ? 5 : 7;
        for (std::int64_t v : nodes) added[type].push_back(v + 1);
        added_entry[type].push_back(e);
      }
      for (auto& entry : added) {
        Section s;
        s.name = added.size() == 1 ? r.name : r.name.substr(0, 24) + "_" + std::string(element_type_name(entry.first)).substr(0, 7);
        check_name(s.name, "section", path_);
        s.type = entry.first;
        s.count = static_cast<std::int64_t>(added_entry[entry.first].size());
        s.connectivity = NDArray::from_vector(entry.second);
        s.start = next_;
        for (std::size_t q = 0; q < added_entry[entry.first].size(); ++q) ids[added_entry[entry.first][q]] = next_ + static_cast<std::int64_t>(q);
        next_ += s.count;
        sections_.push_back(std::move(s));
      }
    }
  }

  std::vector<std::int64_t> facet_nodes(std::int64_t cell, std::int64_t facet) const {
    const std::vector<std::int64_t>& bases = bases_;
    if (cell < 0 || cell >= bases.back()) throw write_error("cgns", path_, "side region: cell " + std::to_string(cell) + " out of range");
    const auto b = static_cast<std::size_t>(std::upper_bound(bases.begin(), bases.end(), cell) - bases.begin() - 1);
    const CellBlock& block = mesh_.cells[b];
    if (block.ragged) throw write_error("cgns", path_, "side region: polygon and polyhedron cells have no numbered facets");
    const auto& facets = cell_facets(block.type);
    if (facet < 0 || static_cast<std::size_t>(facet) >= facets.size())
      throw write_error("cgns", path_, "side region: facet " + std::to_string(facet) + " of a " + block.type);
    const NDArray& c = conn64_[b];
    const std::int64_t* row = c.data<std::int64_t>() + static_cast<std::size_t>(cell - bases[b]) * c.dim(1);
    std::vector<std::int64_t> out;
    for (int l : facets[static_cast<std::size_t>(facet)]) out.push_back(row[l]);
    return out;
  }

  // Polyhedra: every face of every cell as one NGON_n element (numbered after everything
  // else), and each cell the list of its faces' ids (NFACE_n, CGNS 3 layout).
  void polyhedron_faces() {
    for (const auto& p : polyhedra_) {
      const CellBlock& block = mesh_.cells[p.second];
      const std::int64_t* off = block.offsets.data<std::int64_t>();
      const std::int64_t* foff = block.face_offsets.data<std::int64_t>();
      const std::int64_t* idx = block.indices.data<std::int64_t>();
      std::vector<std::int64_t> ngon, nface;
      const std::int64_t first = next_;
      std::int64_t face = 0;
      for (std::size_t i = 0; i < block.size(); ++i) {
        nface.push_back(off[i + 1] - off[i]);
        for (std::int64_t f = off[i]; f < off[i + 1]; ++f, ++face) {
          nface.push_back(first + face);
          ngon.push_back(foff[f + 1] - foff[f]);
          for (std::int64_t j = foff[f]; j < foff[f + 1]; ++j) ngon.push_back(idx[j] + 1);
        }
      }
      sections_[p.first].connectivity = NDArray::from_vector(nface);
      Section s;
      s.name = sections_[p.first].name + "_faces";
      s.type = kNgon;
      s.count = face;
      s.connectivity = NDArray::from_vector(ngon);
      s.start = next_;
      next_ += face;
      sections_.push_back(std::move(s));
    }
  }

  const Mesh& mesh_;
  std::string path_, zone_;
  int cell_dim_ = 3, phys_dim_ = 3;
  std::int64_t ncell_ = 0, next_ = 1;
  std::vector<Section> sections_;
  std::vector<std::int64_t> element_of_cell_, bases_;
  std::vector<NDArray> conn64_;  // each rectangular block's connectivity as int64
  std::vector<std::pair<std::size_t, std::size_t>> polyhedra_;  // (NFACE_n section, block)
  std::map<std::size_t, std::vector<std::int64_t>> side_elements_;
};

#ifdef MESHIOPP_HAVE_HDF5
namespace h5 = io::hdf5;

class Writer {
 public:
  Writer(const std::string& path, int gzip) : ctx_{"cgns", path, true} { options_.gzip_level = gzip; }

  // A CGNS node: a group with its name, label, data type and flags; its data, if any.
  h5::Handle node(hid_t parent, const std::string& name, const std::string& label, const char* type,
                  const NDArray* data = nullptr, bool compress = false) {
    // Children listed in creation order: the CGNS 4 library (VTK's reader) lists no other way.
    h5::Handle g = h5::create_group(ctx_, parent, name, /*track_order=*/true);
    h5::write_fixed_string_attribute(ctx_, g.get(), "name", name, kNameBytes);
    h5::write_fixed_string_attribute(ctx_, g.get(), "label", label, kNameBytes);
    h5::write_fixed_string_attribute(ctx_, g.get(), "type", type, 3);
    h5::write_attribute(ctx_, g.get(), "flags", NDArray::from_vector<std::int32_t>({1}));
    if (data) h5::write_dataset(ctx_, g.get(), " data", *data, compress ? options_ : h5::DatasetOptions{});
    return g;
  }
  h5::Handle text_node(hid_t parent, const std::string& name, const std::string& label, std::string_view value) {
    const NDArray d = chars(value);
    return node(parent, name, label, "C1", &d);
  }
  static NDArray chars(std::string_view s) {
    NDArray d = NDArray::uninit(DType::int8, {s.size()});
    std::copy(s.begin(), s.end(), d.data<std::int8_t>());
    return d;
  }
  // An integer array as I4 when every value fits, else I8.
  h5::Handle ints(hid_t parent, const std::string& name, const std::string& label, const std::vector<std::int64_t>& v,
                  NDArray::Shape shape, bool wide) {
    NDArray d = NDArray::from_vector(v, std::move(shape));
    if (!wide) d = d.as_dtype(DType::int32);
    return node(parent, name, label, wide ? "I8" : "I4", &d);
  }
  const char* data_type(DType dt) const {
    switch (dt) {
      case DType::float32: return "R4";
      case DType::float64: return "R8";
      case DType::int64: case DType::uint32: case DType::uint64: return "I8";
      default: return "I4";
    }
  }
  // A data array in a type CGNS has (R4, R8, I4, I8).
  void data_array(hid_t parent, const std::string& name, const NDArray& a) {
    check_name(name, "data array", ctx_.path);
    const char* t = data_type(a.dtype());
    const DType dt = t[0] == 'R' ? a.dtype() : t[1] == '8' ? DType::int64 : DType::int32;
    const NDArray d = a.dtype() == dt ? a : a.as_dtype(dt);
    node(parent, name, "DataArray_t", t, &d, true);
  }
  // `a` (rows, ...) as scalar arrays: one, nameX/nameY[/nameZ], or name_0.. name_k-1.
  void components(hid_t parent, const std::string& name, const NDArray& a) {
    const std::size_t n = a.dim(0), k = a.row_size();
    if (a.ndim() == 1 || k == 1) {
      data_array(parent, name, a.reshaped({n}));
      return;
    }
    for (std::size_t c = 0; c < k; ++c) {
      NDArray col = NDArray::uninit(a.dtype(), {n});
      const std::size_t item = dtype_size(a.dtype());
      for (std::size_t i = 0; i < n; ++i)
        std::copy_n(static_cast<const char*>(a.raw()) + (i * k + c) * item, item, static_cast<char*>(col.raw()) + i * item);
      data_array(parent, k <= 3 ? name + "XYZ"[c] : name + "_" + std::to_string(c), col);
    }
  }

  const h5::Context& ctx() const { return ctx_; }

 private:
  h5::Context ctx_;
  h5::DatasetOptions options_;
};

void write_file(const std::string& path, const Mesh& mesh, const Plan& plan, const std::string& base_name,
                const std::string& zone_name, int gzip, const std::string& skip_region) {
  io::AtomicFile target(path, "cgns");
  Writer w(path, gzip);
  const h5::Context& ctx = w.ctx();
  const bool wide = plan.max_id() > kI4Max;
  {
    h5::Session session;
    h5::FileInMemory file(ctx, h5::array_bytes(mesh), /*track_order=*/true);
    h5::Handle root = h5::open_group(ctx, file.get(), "/");
    h5::write_fixed_string_attribute(ctx, root.get(), "name", "HDF5 MotherNode", kNameBytes);
    h5::write_fixed_string_attribute(ctx, root.get(), "label", "Root Node of HDF5 File", kNameBytes);
    h5::write_fixed_string_attribute(ctx, root.get(), "type", "MT", 3);
    h5::write_dataset(ctx, root.get(), " format", Writer::chars(std::string_view("IEEE_LITTLE_32\0", 15)));
    unsigned major = 0, minor = 0, release = 0;
    H5get_libversion(&major, &minor, &release);
    std::string version = "HDF5 Version " + std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(release);
    version.resize(kNameBytes, '\0');
    h5::write_dataset(ctx, root.get(), " hdf5version", Writer::chars(version));
    const NDArray lib_version = NDArray::from_vector<float>({3.4f});
    w.node(root.get(), "CGNSLibraryVersion", "CGNSLibraryVersion_t", "R4", &lib_version);

    const NDArray dims = NDArray::from_vector<std::int32_t>({plan.cell_dim(), plan.phys_dim()});
    h5::Handle base = w.node(root.get(), base_name, "CGNSBase_t", "I4", &dims);
    const std::int64_t nvertex = static_cast<std::int64_t>(mesh.num_points());
    h5::Handle zone = w.ints(base.get(), zone_name, "Zone_t", {nvertex, plan.ncell(), 0}, {3, 1}, wide);
    w.text_node(zone.get(), "ZoneType", "ZoneType_t", "Unstructured");

    h5::Handle grid = w.node(zone.get(), "GridCoordinates", "GridCoordinates_t", "MT");
    static const char* const kAxes[3] = {"CoordinateX", "CoordinateY", "CoordinateZ"};
    const NDArray pts = mesh.points.dtype() == DType::float32 ? mesh.points : mesh.points.as_dtype(DType::float64);
    for (int d = 0; d < plan.phys_dim(); ++d) {
      NDArray axis = NDArray::uninit(pts.dtype(), {static_cast<std::size_t>(nvertex)});
      const std::size_t item = dtype_size(pts.dtype()), dim = static_cast<std::size_t>(plan.phys_dim());
      for (std::size_t i = 0; i < static_cast<std::size_t>(nvertex); ++i)
        std::copy_n(static_cast<const char*>(pts.raw()) + (i * dim + static_cast<std::size_t>(d)) * item, item, static_cast<char*>(axis.raw()) + i * item);
      w.node(grid.get(), kAxes[d], "DataArray_t", pts.dtype() == DType::float32 ? "R4" : "R8", &axis, true);
    }

    for (const Section& s : plan.sections()) {
      const NDArray head = NDArray::from_vector<std::int32_t>({s.type, 0});
      h5::Handle sec = w.node(zone.get(), s.name, "Elements_t", "I4", &head);
      w.ints(sec.get(), "ElementRange", "IndexRange_t", {s.start, s.start + s.count - 1}, {2}, wide);
      const NDArray conn = wide ? s.connectivity : s.connectivity.as_dtype(DType::int32);
      w.node(sec.get(), "ElementConnectivity", "DataArray_t", wide ? "I8" : "I4", &conn, true);
    }

    // Regions: point regions and faces (one dimension below the cells) as BCs; cells of
    // the cell dimension as ZoneSubRegion_t; the region that is the whole zone, not at all.
    h5::Handle zbc;
    const char* face_location = plan.cell_dim() == 3 ? "FaceCenter" : plan.cell_dim() == 2 ? "EdgeCenter" : "Vertex";
    const std::vector<std::int64_t> bases = block_bases(mesh.cells);
    for (std::size_t ri = 0; ri < mesh.regions.size(); ++ri) {
      const Region& r = mesh.regions[ri];
      if (r.kind == RegionKind::cell && r.name == skip_region) continue;
      if (r.entries.size() == 0) continue;  // a CGNS point set names at least one entity
      check_name(r.name, "region", path);
      std::vector<std::int64_t> ids;
      std::string location = "Vertex";
      bool subregion = false;
      if (r.kind == RegionKind::point) {
        for (std::size_t i = 0; i < r.entries.size(); ++i) ids.push_back(r.entries.value_as_int64(i) + 1);
      } else if (r.kind == RegionKind::side) {
        ids = plan.side_elements().at(ri);
        location = face_location;
      } else {
        int dim = -1;
        for (std::size_t i = 0; i < r.entries.size(); ++i) {
          const std::int64_t c = r.entries.value_as_int64(i);
          if (c < 0 || c >= bases.back()) throw write_error("cgns", path, "region '" + r.name + "': cell " + std::to_string(c) + " out of range");
          const auto b = static_cast<std::size_t>(std::upper_bound(bases.begin(), bases.end(), c) - bases.begin() - 1);
          dim = std::max(dim, cell_type(mesh.cells[b].type).dim);
          ids.push_back(plan.element(c));
        }
        subregion = dim == plan.cell_dim() || dim < plan.cell_dim() - 1;
        location = subregion ? "CellCenter" : face_location;
        if (subregion && dim >= 0 && dim < plan.cell_dim() - 1)
          throw write_error("cgns", path, "region '" + r.name + "': cells of dimension " + std::to_string(dim) +
                                              " are neither cells nor faces of this zone (no CGNS region holds them)");
      }
      std::sort(ids.begin(), ids.end());
      h5::Handle holder;
      if (subregion) {
        const NDArray d = NDArray::from_vector<std::int32_t>({plan.cell_dim()});
        holder = w.node(zone.get(), r.name, "ZoneSubRegion_t", "I4", &d);
      } else {
        if (!zbc) zbc = w.node(zone.get(), "ZoneBC", "ZoneBC_t", "MT");
        holder = w.text_node(zbc.get(), r.name, "BC_t", "UserDefined");
      }
      w.text_node(holder.get(), "GridLocation", "GridLocation_t", location);
      w.ints(holder.get(), "PointList", "IndexArray_t", ids, {ids.size(), 1}, wide);
    }

    if (!mesh.point_data.empty()) {
      h5::Handle sol = w.node(zone.get(), "FlowSolution", "FlowSolution_t", "MT");
      w.text_node(sol.get(), "GridLocation", "GridLocation_t", "Vertex");
      for (const auto& [name, a] : mesh.point_data) w.components(sol.get(), name, a);
    }
    if (!mesh.cell_data.empty()) {
      h5::Handle sol = w.node(zone.get(), "FlowSolutionCellCenter", "FlowSolution_t", "MT");
      w.text_node(sol.get(), "GridLocation", "GridLocation_t", "CellCenter");
      for (const auto& [name, list] : mesh.cell_data) {
        // The rows of the cells of the cell dimension, in element order (they come first).
        std::vector<const NDArray*> parts;
        std::size_t rows = 0;
        for (std::size_t b = 0; b < mesh.cells.size() && b < list.size(); ++b)
          if (cell_type(mesh.cells[b].type).dim == plan.cell_dim()) {
            parts.push_back(&list[b]);
            rows += list[b].dim(0);
          }
        if (parts.empty()) continue;
        NDArray::Shape shape = parts[0]->shape();
        shape[0] = rows;
        NDArray all = NDArray::uninit(parts[0]->dtype(), shape);
        std::size_t at = 0;
        for (const NDArray* p : parts) {
          if (p->dtype() != all.dtype() || p->row_size() != all.row_size())
            throw write_error("cgns", path, "cell data '" + name + "': blocks of different dtypes or widths");
          std::copy_n(static_cast<const char*>(p->raw()), p->nbytes(), static_cast<char*>(all.raw()) + at);
          at += p->nbytes();
        }
        w.components(sol.get(), name, all);
      }
    }
    bool any_field = false;
    for (const auto& entry : mesh.field_data) any_field = any_field || entry.first.rfind("CGNSBase:", 0) != 0;
    if (any_field) {
      h5::Handle fd = w.node(base.get(), "FieldData", "UserDefinedData_t", "MT");
      for (const auto& [name, a] : mesh.field_data)
        if (name.rfind("CGNSBase:", 0) != 0) w.data_array(fd.get(), name, a);
    }
    base.reset(), zone.reset(), root.reset(), zbc.reset();
    file.write_to(target);
  }
  target.commit();
}
#endif

}  // namespace

void write_cgns(const std::string& path, const Mesh& mesh, const Options& options) {
  OptionReader opts(options, "cgns");
  // Defaults: the base and zone a read of a CGNS file exposes (the field data
  // "CGNSBase:<name>", the cell region holding every cell), else meshio's "Base" / "Zone1".
  std::string base_default = "Base", zone_default = "Zone1", whole;
  for (const auto& entry : mesh.field_data)
    if (entry.first.rfind("CGNSBase:", 0) == 0) {
      base_default = entry.first.substr(9);
      break;
    }
  for (const Region& r : mesh.regions)
    if (r.kind == RegionKind::cell && r.entries.size() == mesh.num_cells() && mesh.num_cells() > 0) {
      zone_default = whole = r.name;
      break;
    }
  const std::string base_name = opts.get_string("base_name", base_default);
  const std::string zone_name = opts.get_string("zone_name", zone_default);
  // meshio's keywords and defaults (h5py's gzip at level 4)
  const std::string compression = opts.get_string("compression", "gzip");
  const std::string compression_opts = opts.get_string("compression_opts", "4");
  opts.finish();
  for (const auto* name : {&base_name, &zone_name})
    if (!valid_name(*name))
      throw std::invalid_argument(std::string("cgns: option '") + (name == &base_name ? "base_name" : "zone_name") +
                                  "': expected 1 to 32 characters without '/', found '" + *name + "'");
  Plan plan(mesh, path, zone_name);
  plan.build();
#ifdef MESHIOPP_HAVE_HDF5
  write_file(path, mesh, plan, base_name, zone_name, io::hdf5::gzip_level("cgns", compression, compression_opts),
             whole == zone_name ? whole : std::string());
#else
  throw write_error("cgns", path, io::hdf5::kMissing);
#endif
}

}  // namespace meshioplusplus::cgns
