// meshio++ MED reader: one mesh of the file (the first by name, as meshio reads the only
// one; option `mesh`), its first computation step, node and cell families as meshio gives
// them (point_data["point_tags"], cell_data["cell_tags"]) and as regions (one per group),
// and the fields on that mesh: every step under meshio's names by default, or one step
// under the field's own name (option `step`).
// Spec: https://docs.salome-platform.org/latest/dev/MEDCoupling/developer/med-file.html
#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "formats/med/med_internal.hpp"
#include "meshioplusplus/cell_types.hpp"
#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/warnings.hpp"

namespace meshioplusplus::med {

namespace {
struct ReadOptions {
  std::optional<std::string> mesh;
  std::optional<long long> step;
  unsigned threads = 1;
};
}  // namespace

#ifdef MESHIOPP_HAVE_HDF5
namespace {

namespace h5 = io::hdf5;

// Python's f"{t:g}" (C's %g: 6 significant digits, trailing zeros dropped).
std::string format_g(double t) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, t, std::chars_format::general, 6);
  return std::string(buf, r.ptr);
}

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "'" : ", '") + n + "'";
  return out;
}

class Reader {
 public:
  Reader(const std::string& path, ReadOptions options) : ctx_{"med", path, false}, options_(std::move(options)) {}

  Mesh read() {
    h5::Session session;
    file_ = h5::open_readable(ctx_, file_bytes_);
    const hid_t f = file_.get();
    if (!h5::exists(f, "ENS_MAA")) fail("no group /ENS_MAA: not a MED file");
    const std::vector<std::string> meshes = h5::group_names(ctx_, group("/ENS_MAA").get());
    if (meshes.empty()) fail("group /ENS_MAA holds no mesh");
    if (options_.mesh) {
      if (std::find(meshes.begin(), meshes.end(), *options_.mesh) == meshes.end())
        fail("option mesh='" + *options_.mesh + "': no such mesh; the file holds " + join(meshes));
      name_ = *options_.mesh;
    } else {
      name_ = meshes[0];
      if (meshes.size() > 1)
        warn("med: the file holds " + std::to_string(meshes.size()) + " meshes (" + join(meshes) + "); read '" + name_ +
             "' (option mesh= picks another)");
    }
    const std::string mesh_path = "/ENS_MAA/" + name_;
    const std::int64_t dim = int_attr(mesh_path, "ESP");
    if (dim < 1 || dim > 3) fail("group " + mesh_path + ": attribute ESP: " + expected_found("1, 2 or 3", std::to_string(dim)));
    // MED 3+ holds the mesh in a computation-step subgroup; older files directly.
    std::string step_path = mesh_path;
    if (!h5::exists(f, mesh_path + "/NOE")) {
      const std::vector<std::string> steps = h5::group_names(ctx_, group(mesh_path).get());
      if (steps.empty()) fail("group " + mesh_path + ": no NOE group and no computation step");
      if (steps.size() > 1)
        warn("med: mesh '" + name_ + "' has " + std::to_string(steps.size()) + " computation steps; read the first (" +
             steps[0] + ")");
      step_path = mesh_path + "/" + steps[0];
    }
    read_points(step_path, static_cast<std::size_t>(dim));
    read_cells(step_path);
    read_families();
    if (h5::exists(f, "CHA")) read_fields();
    return std::move(mesh_);
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { throw read_error("med", ctx_.path, what); }

  h5::Handle group(const std::string& path) const { return h5::open_group(ctx_, file_.get(), path); }
  bool exists(const std::string& path) const { return h5::exists(file_.get(), path); }

  // The object's attribute `name` as one number (nullopt when absent); a failure names the object.
  std::optional<NDArray> attr(const std::string& obj_path, const char* name) const {
    h5::Handle obj(H5Oopen(file_.get(), obj_path.c_str(), H5P_DEFAULT), H5Oclose);
    if (!obj) h5::fail(ctx_, "cannot open " + obj_path);
    std::optional<NDArray> a;
    try {
      a = h5::read_attribute(ctx_, obj.get(), name);
    } catch (const ReadError&) {
      fail(obj_path + ": attribute " + name + ": " + expected_found("one number", "an unreadable attribute"));
    }
    if (a && a->size() != 1)
      fail(obj_path + ": attribute " + name + ": " + expected_found("one number", std::to_string(a->size()) + " values"));
    return a;
  }
  std::int64_t int_attr(const std::string& obj_path, const char* name) const {
    const std::optional<NDArray> a = attr(obj_path, name);
    if (!a) fail(obj_path + ": no attribute " + name);
    if (a->dtype() == DType::float32 || a->dtype() == DType::float64)
      fail(obj_path + ": attribute " + name + ": " + expected_found("an integer", "a float"));
    const std::int64_t v = a->value_as_int64(0);
    if (a->dtype() == DType::uint64 && v < 0) fail(obj_path + ": attribute " + name + ": out of range");
    return v;
  }
  // A count attribute (NBR, NGA) of an object, 0 .. `bound`.
  std::size_t count_attr(const std::string& obj_path, const char* name, std::uint64_t bound) const {
    const std::int64_t v = int_attr(obj_path, name);
    if (v < 0 || static_cast<std::uint64_t>(v) > bound)
      fail(obj_path + ": attribute " + name + ": " +
           expected_found("a count 0.." + std::to_string(bound), std::to_string(v)));
    return static_cast<std::size_t>(v);
  }
  std::string string_attr(const std::string& obj_path, const char* name) const {
    h5::Handle obj(H5Oopen(file_.get(), obj_path.c_str(), H5P_DEFAULT), H5Oclose);
    if (!obj) h5::fail(ctx_, "cannot open " + obj_path);
    std::optional<std::string> s;
    try {
      s = h5::read_string_attribute(ctx_, obj.get(), name);
    } catch (const ReadError&) {
      fail(obj_path + ": attribute " + name + ": " + expected_found("a string", "an unreadable attribute"));
    }
    if (!s) fail(obj_path + ": no attribute " + name);
    return *s;
  }

  // Dataset `path` as a flat array of `expected` values (NBR times the values per entity).
  NDArray values(const std::string& path, std::uint64_t expected, bool integers) const {
    NDArray a = h5::read_dataset(ctx_, file_.get(), path, file_bytes_);
    if (a.ndim() != 1 || a.size() != expected)
      fail("dataset " + path + ": " + expected_found(std::to_string(expected) + " values", std::to_string(a.size())));
    if (integers && (a.dtype() == DType::float32 || a.dtype() == DType::float64))
      fail("dataset " + path + ": " + expected_found("integers", "floats"));
    return a;
  }

  // Entity counts are bounded by the file's size (one byte per entity at least).
  std::uint64_t bound() const { return std::max<std::uint64_t>(file_bytes_, 1); }

  void read_points(const std::string& step_path, std::size_t dim) {
    const std::string coo = step_path + "/NOE/COO";
    const std::size_t n = count_attr(coo, "NBR", bound());
    const NDArray flat = values(coo, std::uint64_t(n) * dim, false);
    const DType dt = flat.dtype() == DType::float32 ? DType::float32 : DType::float64;
    mesh_.points = from_columns(flat, n, dim, 1, dt, 0, options_.threads);
    if (dim == 1) {  // the data model holds 2-D or 3-D points: y = 0
      NDArray p = NDArray::zeros(dt, {n, 2});
      visit_dtype(dt, [&](auto tag) {
        using T = decltype(tag);
        for (std::size_t i = 0; i < n; ++i) p.data<T>()[2 * i] = mesh_.points.data<const T>()[i];
      });
      mesh_.points = std::move(p);
      warn("med: mesh '" + name_ + "' is 1-D; its points are read with y = 0");
    }
    const std::string fam = step_path + "/NOE/FAM";
    if (exists(fam)) {
      NDArray tags = values(fam, n, true);
      node_families_ = tags;
      mesh_.point_data["point_tags"] = std::move(tags);
    }
  }

  void read_cells(const std::string& step_path) {
    const std::string mai = step_path + "/MAI";
    if (!exists(mai)) return;
    const std::int64_t num_points = static_cast<std::int64_t>(mesh_.points.dim(0));
    std::vector<NDArray> tags;
    bool any_tags = false;
    for (const std::string& med_type : h5::group_names(ctx_, group(mai).get())) {
      const std::optional<std::string_view> type = meshio_type_name(med_type);
      if (!type) {
        warn("med: cells of MED type '" + med_type + "' skipped: meshio++ reads meshio's types only");
        continue;
      }
      const std::string nod = mai + "/" + med_type + "/NOD";
      const auto k = static_cast<std::size_t>(cell_type(*type).num_nodes);
      const std::size_t m = count_attr(nod, "NBR", bound());
      const h5::DatasetPieces data(ctx_, file_.get(), nod, file_bytes_);
      NodeRows rows;
      if (data.pieces()) {
        if (data.size() != std::uint64_t(m) * k)
          fail("dataset " + nod + ": " + expected_found(std::to_string(std::uint64_t(m) * k) + " values", std::to_string(data.size())));
        if (data.dtype() == DType::float32 || data.dtype() == DType::float64)
          fail("dataset " + nod + ": " + expected_found("integers", "floats"));
        rows = node_rows_in_pieces(data, m, k, static_cast<std::size_t>(num_points), options_.threads);
      } else {
        rows = node_rows_from_columns(values(nod, std::uint64_t(m) * k, true), m, k, static_cast<std::size_t>(num_points),
                                      options_.threads);
      }
      if (rows.first_bad) {  // the node number as the file holds it: the stored index + 1, wrapping back
        const std::size_t i = *rows.first_bad;
        const auto number = static_cast<std::int64_t>(static_cast<std::uint64_t>(rows.nodes.data<const std::int64_t>()[i]) + 1);
        fail("dataset " + nod + ", cell " + std::to_string(i / k) + ": node " + std::to_string(number) + " out of range (1.." +
             std::to_string(num_points) + ")");
      }
      NDArray conn = std::move(rows.nodes);
      const std::string fam = mai + "/" + med_type + "/FAM";
      if (exists(fam)) {
        tags.push_back(values(fam, m, true));
        any_tags = true;
      } else {
        tags.emplace_back();
      }
      cell_types_.push_back(med_type);
      mesh_.cells.push_back(CellBlock::rectangular(std::string(*type), std::move(conn)));
    }
    if (!any_tags) return;
    // meshio lists the FAM of the blocks that have one; a block without is family 0 here,
    // so that the list has one array per block.
    for (std::size_t b = 0; b < tags.size(); ++b)
      if (tags[b].ndim() == 0 || tags[b].size() != mesh_.cells[b].size()) {
        tags[b] = NDArray::zeros(DType::int32, {mesh_.cells[b].size()});
      }
    cell_families_ = tags;
    mesh_.cell_data["cell_tags"] = std::move(tags);
  }

  // family number -> its groups, for /FAS/<mesh>/<kind>.
  std::map<std::int64_t, std::vector<std::string>> families(const std::string& kind) const {
    std::map<std::int64_t, std::vector<std::string>> out;
    const std::string path = "/FAS/" + name_ + "/" + kind;
    if (!exists(path)) return out;
    for (const std::string& family : h5::group_names(ctx_, group(path).get())) {
      const std::string fam_path = path + "/" + family;
      const std::int64_t num = int_attr(fam_path, "NUM");
      std::vector<std::string>& names = out[num];
      const std::string nom = fam_path + "/GRO/NOM";
      if (!exists(nom)) continue;
      std::vector<std::string> groups = read_group_names(ctx_, file_.get(), nom, file_bytes_);
      const std::optional<NDArray> nbr = attr(fam_path + "/GRO", "NBR");
      if (nbr && nbr->value_as_int64(0) != static_cast<std::int64_t>(groups.size()))
        fail("dataset " + nom + ": " + expected_found(std::to_string(nbr->value_as_int64(0)) + " names (GRO/NBR)",
                                                      std::to_string(groups.size())));
      names.insert(names.end(), groups.begin(), groups.end());
    }
    return out;
  }

  // One region per group name: the entities whose family lists the group.
  void add_regions(const std::map<std::int64_t, std::vector<std::string>>& fams, const std::vector<NDArray>& numbers,
                   RegionKind kind) {
    std::map<std::string, std::vector<std::int64_t>> entries;
    for (const auto& entry : fams)
      for (const std::string& g : entry.second) entries[g];
    if (entries.empty()) return;
    std::int64_t index = 0;
    for (const NDArray& a : numbers)
      for (std::size_t i = 0; i < a.size(); ++i, ++index) {
        const auto it = fams.find(a.value_as_int64(i));
        if (it == fams.end()) continue;
        for (const std::string& g : it->second) {
          std::vector<std::int64_t>& e = entries[g];
          if (e.empty() || e.back() != index) e.push_back(index);
        }
      }
    for (auto& entry : entries) {
      Region r;
      r.name = entry.first;
      r.kind = kind;
      r.entries = NDArray::from_vector(entry.second);
      mesh_.regions.push_back(std::move(r));
    }
  }

  void read_families() {
    if (!exists("/FAS/" + name_)) return;
    add_regions(families("NOEUD"), node_families_.ndim() ? std::vector<NDArray>{node_families_} : std::vector<NDArray>{},
                RegionKind::point);
    add_regions(families("ELEME"), cell_families_, RegionKind::cell);
  }

  // --- fields -------------------------------------------------------------------------

  // Values of one support of one step: (NBR, NGA, NCO) column-major, spread over the
  // entities by the profile; a row per entity of `entities`.
  NDArray support_values(const std::string& supp_path, std::size_t entities, bool cells) {
    const std::string profile = string_attr(supp_path, "PFL");
    const std::string prof_path = supp_path + "/" + profile;
    if (profile.empty() || profile.find('/') != std::string::npos || !exists(prof_path))
      fail("group " + supp_path + ": attribute PFL names no profile group ('" + profile + "')");
    const std::size_t nbr = count_attr(prof_path, "NBR", bound());
    const std::size_t nga = cells ? count_attr(prof_path, "NGA", bound()) : 1;
    const std::string co = prof_path + "/CO";
    NDArray flat = h5::read_dataset(ctx_, file_.get(), co, file_bytes_);
    const std::uint64_t per = std::uint64_t(nbr) * std::max<std::size_t>(nga, 1);
    if (flat.ndim() != 1 || nbr == 0 || nga == 0 || flat.size() % per != 0 || flat.size() == 0)
      fail("dataset " + co + ": " + expected_found("a multiple of NBR x NGA = " + std::to_string(per) + " values",
                                                   std::to_string(flat.size())));
    const std::size_t nco = flat.size() / per;
    const std::size_t row = nga * nco;
    std::vector<std::int64_t> index;  // entity of each stored row
    if (profile != kNoProfile) {
      const std::string pfl = "/PROFILS/" + profile + "/PFL";
      if (!exists(pfl)) fail("group " + supp_path + ": profile '" + profile + "' has no dataset " + pfl);
      const NDArray ids = values(pfl, nbr, true);
      for (std::size_t i = 0; i < nbr; ++i) {
        const std::int64_t id = ids.value_as_int64(i);
        if (id < 1 || static_cast<std::uint64_t>(id) > entities)
          fail("dataset " + pfl + ", entry " + std::to_string(i) + ": " +
               expected_found("an index 1.." + std::to_string(entities), std::to_string(id)));
        index.push_back(id - 1);
      }
    } else if (nbr != entities) {
      fail("group " + prof_path + ": attribute NBR: " +
           expected_found(std::to_string(entities) + (cells ? " cells" : " nodes"), std::to_string(nbr)));
    }
    // Column-major (NBR, NGA, NCO) -> row-major rows of NGA * NCO values.
    const DType dt = index.empty() ? flat.dtype() : DType::float64;  // holes are NaN
    NDArray rows = from_columns(flat, nbr, nga, nco, dt, 0, options_.threads);
    if (!index.empty()) {
      NDArray full = NDArray::uninit(DType::float64, {entities, row});
      double* o = full.data<double>();
      std::fill(o, o + entities * row, std::numeric_limits<double>::quiet_NaN());
      const double* in = rows.data<const double>();
      for (std::size_t i = 0; i < nbr; ++i) std::copy(in + i * row, in + (i + 1) * row, o + index[i] * row);
      rows = std::move(full);
    }
    // meshio's shapes: (n,) for one value, (n, NCO) for one point, (n, NGA, NCO) otherwise.
    if (nga == 1) return nco == 1 ? rows.reshaped({entities}) : rows.reshaped({entities, nco});
    return rows.reshaped({entities, nga, nco});
  }

  void read_step(const std::string& step_path, const std::string& name) {
    std::vector<NDArray> blocks(mesh_.cells.size());
    std::vector<bool> have(mesh_.cells.size(), false);
    std::size_t first = blocks.size();  // the first block the field has values on
    for (const std::string& supp : h5::group_names(ctx_, group(step_path).get())) {
      const std::string supp_path = step_path + "/" + supp;
      if (supp == "NOE") {
        mesh_.point_data[name] = support_values(supp_path, mesh_.points.dim(0), false);
        continue;
      }
      const std::size_t dot = supp.find('.');
      const std::string med_type = dot == std::string::npos ? supp : supp.substr(dot + 1);
      const auto it = std::find(cell_types_.begin(), cell_types_.end(), med_type);
      if (dot == std::string::npos || it == cell_types_.end()) {
        warn("med: field values " + supp_path + " skipped: no cells of type '" + med_type + "' were read");
        continue;
      }
      const std::size_t b = static_cast<std::size_t>(it - cell_types_.begin());
      blocks[b] = support_values(supp_path, mesh_.cells[b].size(), true);
      have[b] = true;
      first = std::min(first, b);
    }
    if (first == blocks.size()) return;
    // A field on some blocks only: NaN on the others (meshio leaves None there).
    const NDArray& like = blocks[first];
    bool one_dtype = true;
    for (std::size_t b = 0; b < blocks.size(); ++b) {
      if (have[b]) {
        one_dtype = one_dtype && blocks[b].dtype() == like.dtype();
        continue;
      }
      NDArray::Shape shape = like.shape();
      shape[0] = mesh_.cells[b].size();
      if (shape.size() == 3) shape[1] = static_cast<std::size_t>(mesh_.cells[b].nodes_per_cell());  // per cell node
      NDArray a = NDArray::uninit(DType::float64, shape);
      std::fill(a.data<double>(), a.data<double>() + a.size(), std::numeric_limits<double>::quiet_NaN());
      blocks[b] = std::move(a);
      one_dtype = one_dtype && like.dtype() == DType::float64;
    }
    if (!one_dtype)
      for (NDArray& a : blocks) a = a.dtype() == DType::float64 ? a : a.as_dtype(DType::float64);
    mesh_.cell_data[name] = std::move(blocks);
  }

  void read_fields() {
    for (const std::string& field : h5::group_names(ctx_, group("/CHA").get())) {
      const std::string field_path = "/CHA/" + field;
      h5::Handle g = group(field_path);
      std::optional<std::string> owner;
      try {
        owner = h5::read_string_attribute(ctx_, g.get(), "MAI");
      } catch (const ReadError&) {
        fail("group " + field_path + ": attribute MAI: " + expected_found("a mesh name", "an unreadable attribute"));
      }
      if (owner && *owner != name_) continue;  // a field of another mesh
      const std::vector<std::string> steps = h5::group_names(ctx_, g.get());
      std::vector<double> times;
      for (const std::string& s : steps) {
        const std::optional<NDArray> t = attr(field_path + "/" + s, "PDT");
        times.push_back(t ? t->value_as_double(0) : 0.0);
      }
      if (steps.empty()) continue;
      if (options_.step) {
        const long long n = static_cast<long long>(steps.size());
        const long long k = *options_.step < 0 ? n + *options_.step : *options_.step;
        if (k < 0 || k >= n) {
          warn("med: field '" + field + "' skipped: it has " + std::to_string(n) + " step(s), option step=" +
               std::to_string(*options_.step) + " asked");
          continue;
        }
        read_step(field_path + "/" + steps[k], field);
      } else {
        for (std::size_t i = 0; i < steps.size(); ++i)
          read_step(field_path + "/" + steps[i],
                    steps.size() == 1 ? field : field + "[" + std::to_string(i) + "] - " + format_g(times[i]));
      }
      // Every step's time, as Exodus gives exodus:time_whole.
      mesh_.field_data["med:time:" + field] = NDArray::from_vector(times);
    }
  }

  h5::Context ctx_;
  ReadOptions options_;
  h5::Handle file_;
  std::size_t file_bytes_ = 0;
  std::string name_;
  Mesh mesh_;
  NDArray node_families_;
  std::vector<NDArray> cell_families_;
  std::vector<std::string> cell_types_;  // MED type of each block read
};

}  // namespace
#endif

Mesh read_med(const std::string& path, const Options& options) {
  OptionReader opts(options, "med");
  ReadOptions ro;
  if (options.count("mesh")) ro.mesh = opts.get_string("mesh", "");
  if (options.count("step")) ro.step = opts.get_int("step", 0);
  ro.threads = opts.threads();
  opts.finish();
#ifdef MESHIOPP_HAVE_HDF5
  return Reader(path, std::move(ro)).read();
#else
  throw read_error("med", path, io::hdf5::kMissing);
#endif
}

}  // namespace meshioplusplus::med
