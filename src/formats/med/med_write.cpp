// meshio++ MED writer: meshio's layout (MED 3.0.0, one mesh at one computation step, its
// fields at one step), so meshio, libmed's mdump and Salome read it; regions become node and
// cell families with their groups (without regions, point_tags / cell_tags are written as
// the family numbers, as meshio does). Built in memory and written by an io::AtomicFile.
// Spec: https://docs.salome-platform.org/latest/dev/MEDCoupling/developer/med-file.html
#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "core/io/file.hpp"
#include "formats/med/med_internal.hpp"
#include "meshioplusplus/cell_types.hpp"
#include "meshioplusplus/errors.hpp"

namespace meshioplusplus::med {

namespace {

#ifdef MESHIOPP_HAVE_HDF5
// A family table: the family number of each entity (0: none) and each family's groups.
struct Families {
  std::vector<std::int64_t> numbers;
  std::map<std::int64_t, std::vector<std::string>> groups;
};

// A scalar (dataspace H5S_SCALAR) attribute value, as h5py's attrs.create(name, 3) makes.
template <class T> NDArray scalar(T v) {
  NDArray a = NDArray::uninit(dtype_of<T>(), {});
  *a.data<T>() = v;
  return a;
}

bool is_integer(DType dt) { return dt != DType::float32 && dt != DType::float64; }

// The families of `count` entities from the regions of `kind`: each distinct set of groups
// an entity is in is one family, numbered `sign` * 1, 2, ... in order of first entity.
Families families_from_regions(const Mesh& mesh, RegionKind kind, std::size_t count, int sign,
                               const std::string& path) {
  std::vector<std::string> names;
  std::vector<std::vector<int>> member(count);
  for (const Region& r : mesh.regions) {
    if (r.kind != kind) continue;
    if (r.name.size() > kGroupNameSize || r.name.empty())
      throw write_error("med", path, "region '" + r.name + "': a MED group name has 1 to 80 characters");
    auto at = std::find(names.begin(), names.end(), r.name);
    const int g = static_cast<int>(at - names.begin());
    if (at == names.end()) names.push_back(r.name);
    for (std::size_t i = 0; i < r.entries.size(); ++i) {
      const auto e = static_cast<std::size_t>(r.entries.value_as_int64(i));
      std::vector<int>& m = member[e];
      if (std::find(m.begin(), m.end(), g) == m.end()) m.push_back(g);
    }
  }
  Families out;
  if (names.empty()) return out;
  out.numbers.assign(count, 0);
  std::map<std::vector<int>, std::int64_t> number_of;
  for (std::size_t e = 0; e < count; ++e) {
    std::vector<int>& m = member[e];
    if (m.empty()) continue;
    std::sort(m.begin(), m.end());
    auto [it, added] = number_of.emplace(m, sign * static_cast<std::int64_t>(number_of.size() + 1));
    if (added)
      for (int g : m) out.groups[it->second].push_back(names[static_cast<std::size_t>(g)]);
    out.numbers[e] = it->second;
  }
  return out;
}

// meshio's fallback: family numbers from an integer data array, families without groups.
Families families_from_tags(const std::vector<const NDArray*>& arrays) {
  Families out;
  for (const NDArray* a : arrays)
    for (std::size_t i = 0; i < a->size(); ++i) {
      const std::int64_t v = a->value_as_int64(i);
      out.numbers.push_back(v);
      if (v != 0) out.groups[v];
    }
  return out;
}

namespace h5 = io::hdf5;

class Writer {
 public:
  Writer(const std::string& path, std::string mesh_name) : ctx_{"med", path, true}, name_(std::move(mesh_name)) {}

  // Builds the file in memory and appends it to `target`.
  void build(const Mesh& mesh, io::AtomicFile& target) {
    check(mesh);
    h5::Session session;
    h5::FileInMemory file(ctx_, h5::array_bytes(mesh));
    {
      h5::Handle info = h5::create_group(ctx_, file.get(), "INFOS_GENERALES");
      int_attr(info, "MAJ", 3), int_attr(info, "MIN", 0), int_attr(info, "REL", 0);  // meshio's: read by SALOME 8.3
    }
    const std::size_t dim = mesh.points.dim(1), n = mesh.points.dim(0);
    h5::Handle m = h5::create_group(ctx_, file.get(), "ENS_MAA/" + name_);
    int_attr(m, "DIM", static_cast<std::int64_t>(dim)), int_attr(m, "ESP", static_cast<std::int64_t>(dim));
    int_attr(m, "REP", 0), int_attr(m, "SRT", 1), int_attr(m, "TYP", 0);  // cartesian, MED_SORT_ITDT, unstructured
    h5::write_attribute(ctx_, m.get(), "UNT", std::string_view(""));
    h5::write_attribute(ctx_, m.get(), "UNI", std::string_view(""));
    h5::write_attribute(ctx_, m.get(), "NOM", padded({"X", "Y", "Z"}, dim));
    h5::write_attribute(ctx_, m.get(), "DES", std::string_view("Mesh created with meshio++"));
    h5::Handle step = h5::create_group(ctx_, m.get(), "-0000000000000000001-0000000000000000001");
    int_attr(step, "CGT", 1), int_attr(step, "NDT", -1), int_attr(step, "NOR", -1);
    h5::write_attribute(ctx_, step.get(), "PDT", scalar(-1.0));

    h5::Handle noe = h5::create_group(ctx_, step.get(), "NOE");
    int_attr(noe, "CGT", 1), int_attr(noe, "CGS", 1);
    h5::write_attribute(ctx_, noe.get(), "PFL", std::string_view(kNoProfile));
    counted(noe, "COO", to_columns(mesh.points, dim, 1, DType::float64), n);

    const Families node_fams = node_families(mesh, n);
    if (!node_fams.numbers.empty()) counted(noe, "FAM", NDArray::from_vector(node_fams.numbers), n);

    std::size_t cells = 0;
    for (const CellBlock& b : mesh.cells) cells += b.size();
    const Families cell_fams = cell_families(mesh, cells);
    h5::Handle mai = h5::create_group(ctx_, step.get(), "MAI");
    int_attr(mai, "CGT", 1);
    std::size_t base = 0;
    for (const CellBlock& b : mesh.cells) {
      h5::Handle g = h5::create_group(ctx_, mai.get(), std::string(*med_type_name(b.type)));
      int_attr(g, "CGT", 1), int_attr(g, "CGS", 1);
      h5::write_attribute(ctx_, g.get(), "PFL", std::string_view(kNoProfile));
      counted(g, "NOD", to_columns(b.connectivity, static_cast<std::size_t>(b.nodes_per_cell()), 1, DType::int64, /*shift=*/1),
              b.size());
      if (!cell_fams.numbers.empty()) {
        std::vector<std::int64_t> f(cell_fams.numbers.begin() + static_cast<std::ptrdiff_t>(base),
                                    cell_fams.numbers.begin() + static_cast<std::ptrdiff_t>(base + b.size()));
        counted(g, "FAM", NDArray::from_vector(f), b.size());
      }
      base += b.size();
    }

    h5::Handle fas = h5::create_group(ctx_, file.get(), "FAS/" + name_);
    {
      h5::Handle zero = h5::create_group(ctx_, fas.get(), "FAMILLE_ZERO");  // must be defined in any case
      int_attr(zero, "NUM", 0);
    }
    write_families(fas, "NOEUD", node_fams);
    write_families(fas, "ELEME", cell_fams);

    h5::Handle cha = h5::create_group(ctx_, file.get(), "CHA");
    for (const auto& [data_name, a] : mesh.point_data) {
      if (data_name == "point_tags") continue;  // the node families
      h5::Handle s = field_step(cha, data_name, a.ndim() > 1 ? a.row_size() : 1);
      support(s, "NOE", a.reshaped({a.dim(0), a.row_size()}), 1, a.row_size());
    }
    for (const auto& [data_name, list] : mesh.cell_data) {
      if (data_name == "cell_tags") continue;  // the cell families
      const NDArray& first = list[0];
      const std::size_t nco = first.ndim() > 2 ? first.dim(2) : first.ndim() == 2 ? first.dim(1) : 1;
      h5::Handle s = field_step(cha, data_name, nco);
      for (std::size_t b = 0; b < list.size(); ++b) {
        const NDArray& a = list[b];
        const std::string type(*med_type_name(mesh.cells[b].type));
        // (n,) or (n, k): one value per cell (MED's ELEM); (n, nodes, k): per cell node (ELNO).
        const std::size_t nga = a.ndim() > 2 ? a.dim(1) : 1;
        support(s, (nga > 1 ? "NOE." : "MAI.") + type, a.reshaped({a.dim(0), nga * nco}), nga, nco);
      }
    }
    cha.reset(), fas.reset(), mai.reset(), noe.reset(), step.reset(), m.reset();
    file.write_to(target);
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { throw write_error("med", ctx_.path, what); }

  // Everything MED cannot hold, refused before anything is made.
  void check(const Mesh& mesh) const {
    if (name_.empty() || name_.size() > kNameSize || name_.find('/') != std::string::npos)
      throw std::invalid_argument("med: option 'mesh': a MED mesh name has 1 to 64 characters and no '/', found '" +
                                  name_ + "'");
    std::set<std::string> types;
    for (const CellBlock& b : mesh.cells) {
      if (!med_type_name(b.type))
        fail("cell type '" + b.type + "': MED (as meshio maps it) holds vertex, line(3), triangle(6), quad(8), "
             "tetra(10), hexahedron(20), pyramid(13), wedge(15)");
      if (!types.insert(b.type).second)
        fail("two blocks of cell type '" + b.type + "': MED holds one block per cell type (merge them first)");
    }
    auto check_name = [&](const std::string& name) {
      if (name.empty() || name.size() > kNameSize || name.find('/') != std::string::npos || name == ".")
        fail("data '" + name + "': a MED field name has 1 to 64 characters and no '/'");
    };
    for (const auto& [name, a] : mesh.point_data)
      if (name != "point_tags") check_name(name);
    for (const auto& [name, list] : mesh.cell_data) {
      if (name == "cell_tags") continue;
      check_name(name);
      if (mesh.point_data.count(name)) fail("data '" + name + "' is both point and cell data: one MED field each");
      for (std::size_t b = 0; b < list.size(); ++b) {
        const NDArray& a = list[b];
        const std::size_t nodes = static_cast<std::size_t>(mesh.cells[b].nodes_per_cell());
        if (a.ndim() > 3 || (a.ndim() == 3 && a.dim(1) != nodes))
          fail("cell data '" + name + "', block " + std::to_string(b) + ": " +
               expected_found("(cells,), (cells, k) or (cells, nodes of the cell, k)", "another shape") +
               " (values at Gauss points need a localization MED file writers define; meshio skips them)");
        const NDArray& first = list[0];
        const std::size_t k = a.ndim() > 2 ? a.dim(2) : a.ndim() == 2 ? a.dim(1) : 1;
        const std::size_t k0 = first.ndim() > 2 ? first.dim(2) : first.ndim() == 2 ? first.dim(1) : 1;
        if (k != k0) fail("cell data '" + name + "': blocks with different numbers of components");
      }
    }
  }

  void int_attr(const h5::Handle& obj, const char* name, std::int64_t v) const {
    h5::write_attribute(ctx_, obj.get(), name, scalar(v));
  }

  // Component names: 16 characters each, space padded (MED_SNAME_SIZE).
  static std::string padded(const std::vector<std::string>& names, std::size_t count) {
    std::string out;
    for (std::size_t i = 0; i < count; ++i) {
      std::string n = i < names.size() ? names[i] : "";
      n.resize(16, ' ');
      out += n;
    }
    return out;
  }

  // Dataset `name` with meshio's attributes CGT = 1 and NBR = `count`.
  void counted(const h5::Handle& loc, const std::string& name, const NDArray& values, std::size_t count) const {
    h5::write_dataset(ctx_, loc.get(), name, values);
    h5::Handle ds(H5Dopen2(loc.get(), name.c_str(), H5P_DEFAULT), H5Dclose);
    if (!ds) h5::fail(ctx_, "cannot open dataset " + name);
    int_attr(ds, "CGT", 1);
    int_attr(ds, "NBR", static_cast<std::int64_t>(count));
  }

  Families node_families(const Mesh& mesh, std::size_t n) const {
    Families f = families_from_regions(mesh, RegionKind::point, n, 1, ctx_.path);
    if (!f.groups.empty()) return f;
    const auto it = mesh.point_data.find("point_tags");
    if (it == mesh.point_data.end()) return f;
    if (it->second.ndim() != 1 || !is_integer(it->second.dtype())) fail("point_tags: expected one integer per point");
    return families_from_tags({&it->second});
  }

  Families cell_families(const Mesh& mesh, std::size_t cells) const {
    Families f = families_from_regions(mesh, RegionKind::cell, cells, -1, ctx_.path);
    if (!f.groups.empty()) return f;
    const auto it = mesh.cell_data.find("cell_tags");
    if (it == mesh.cell_data.end()) return f;
    std::vector<const NDArray*> arrays;
    for (const NDArray& a : it->second) {
      if (a.ndim() != 1 || !is_integer(a.dtype())) fail("cell_tags: expected one integer per cell");
      arrays.push_back(&a);
    }
    return families_from_tags(arrays);
  }

  // /FAS/<mesh>/<kind>/FAM_<n>_<groups>: NUM, and GRO (NBR, NOM) when the family has groups.
  void write_families(const h5::Handle& fas, const char* kind, const Families& f) const {
    if (f.groups.empty()) return;
    h5::Handle k = h5::create_group(ctx_, fas.get(), kind);
    for (const auto& [num, groups] : f.groups) {
      std::string name = "FAM_" + std::to_string(num);
      for (const std::string& g : groups) name += "_" + g;
      std::replace(name.begin(), name.end(), '/', '_');
      name.resize(std::min(name.size(), kNameSize));  // unique still: the number leads
      h5::Handle fam = h5::create_group(ctx_, k.get(), name);
      int_attr(fam, "NUM", num);
      if (groups.empty()) continue;
      h5::Handle gro = h5::create_group(ctx_, fam.get(), "GRO");
      int_attr(gro, "NBR", static_cast<std::int64_t>(groups.size()));
      write_group_names(ctx_, gro.get(), "NOM", groups);
    }
  }

  // /CHA/<name> and its one step (meshio's: NDT = NOR = 1, PDT = 0).
  h5::Handle field_step(const h5::Handle& cha, const std::string& name, std::size_t nco) const {
    h5::Handle field = h5::create_group(ctx_, cha.get(), name);
    h5::write_attribute(ctx_, field.get(), "MAI", std::string_view(name_));
    int_attr(field, "TYP", 6);  // MED_FLOAT64: values are written as float64
    h5::write_attribute(ctx_, field.get(), "UNI", std::string_view(""));
    h5::write_attribute(ctx_, field.get(), "UNT", std::string_view(""));
    int_attr(field, "NCO", static_cast<std::int64_t>(nco));
    h5::write_attribute(ctx_, field.get(), "NOM", padded({}, nco));
    h5::Handle step = h5::create_group(ctx_, field.get(), "0000000000000000000100000000000000000001");
    int_attr(step, "NDT", 1), int_attr(step, "NOR", 1);
    h5::write_attribute(ctx_, step.get(), "PDT", scalar(0.0));
    int_attr(step, "RDT", -1), int_attr(step, "ROR", -1);
    return step;
  }

  // One support of a step: rows of NGA * NCO values, written column-major as float64.
  void support(const h5::Handle& step, const std::string& name, const NDArray& rows, std::size_t nga,
               std::size_t nco) const {
    h5::Handle s = h5::create_group(ctx_, step.get(), name);
    h5::write_attribute(ctx_, s.get(), "GAU", std::string_view(""));
    h5::write_attribute(ctx_, s.get(), "PFL", std::string_view(kNoProfile));
    h5::Handle p = h5::create_group(ctx_, s.get(), kNoProfile);
    int_attr(p, "NBR", static_cast<std::int64_t>(rows.dim(0)));
    int_attr(p, "NGA", static_cast<std::int64_t>(nga));
    h5::write_attribute(ctx_, p.get(), "GAU", std::string_view(""));
    h5::write_dataset(ctx_, p.get(), "CO", to_columns(rows, nga, nco, DType::float64));
  }

  h5::Context ctx_;
  std::string name_;
};
#endif

}  // namespace

void write_med(const std::string& path, const Mesh& mesh, const Options& options) {
  OptionReader opts(options, "med");
  const std::string name = opts.get_string("mesh", "mesh");
  opts.finish();
#ifdef MESHIOPP_HAVE_HDF5
  io::AtomicFile target(path, "med");
  Writer(path, name).build(mesh, target);
  target.commit();
#else
  (void)mesh, (void)name;
  throw write_error("med", path, io::hdf5::kMissing);
#endif
}

}  // namespace meshioplusplus::med
