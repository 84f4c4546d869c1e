// meshio++ Exodus II writer (netCDF-4 by default, as meshio's writer; netCDF-4 classic
// model, 64-bit offset, CDF5 and classic on request).
// Spec: https://sandialabs.github.io/seacas-docs/exodusII-new.pdf (Appendix: the netCDF
// names and dimensions the Exodus library itself defines, so ParaView/VTK and the SEACAS
// tools read blocks, sets and variables).
//
// Written: coordx/coordy[/coordz] and coor_names; one element block per cell block
// (connect<k> with elem_type, eb_prop1 "ID", eb_names from a cell region that covers
// exactly that block); node sets from point regions; side sets from side regions (our
// facet numbers converted to Exodus sides); point_data and cell_data as nodal and element
// variables at one time step (time_whole = 0), (n, 3) arrays as <name>X/<name>Y/<name>Z
// components, which meshio and VTK both join again; size-1 field_data as global
// variables; QA and info records read from an Exodus file (field_data keys
// "exodus:qa_records", "exodus:info_records") plus one QA record of our own.
//
// Keywords: netcdf_format ("NETCDF4" default, "NETCDF4_CLASSIC", "NETCDF3_64BIT_OFFSET",
// "NETCDF3_64BIT_DATA", "NETCDF3_CLASSIC": netCDF4-python's names), compression ("gzip"
// or none) and compression_opts (1-9), netCDF-4 only.
//
// Atomic: the classic flavours are created by netCDF-C at io::AtomicFile's temporary path
// beside the target and renamed over it only when nc_close succeeded; netCDF-4 files are
// built in memory (an io::MemoryFile) and written through AtomicFile (see write()).
// Compiled only with netCDF-C (MESHIOPP_HAVE_NETCDF); exodus.cpp says which package is missing.
#ifdef MESHIOPP_HAVE_NETCDF

#include <netcdf.h>
#include <netcdf_mem.h>  // needs netcdf.h first

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <cstring>
#include <map>
#include <mutex>
#include <set>

#include "core/io/file.hpp"
#include "core/io/library_lock.hpp"
#include "formats/exodus/exodus_internal.hpp"
#include "formats/exodus/exodus_nc.hpp"
#include "meshioplusplus/cell_types.hpp"
#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/version.hpp"

namespace meshioplusplus::exodus {

namespace {

constexpr std::size_t kChunk = 1 << 16;
constexpr std::size_t kLenString = 33, kLenLine = 81;

class Writer {
 public:
  Writer(const std::string& path, const Mesh& mesh, const Options& options) : path_(path), mesh_(mesh) {
    OptionReader opts(options, "exodus");
    const std::string fmt = opts.get_string("netcdf_format", "NETCDF4");
    const std::string compression = opts.get_string("compression", "");
    level_ = static_cast<int>(opts.get_int("compression_opts", 4));
    opts.finish();
    if (fmt == "NETCDF4") mode_ = NC_NETCDF4, default_format_ = NC_FORMAT_NETCDF4;
    else if (fmt == "NETCDF4_CLASSIC") mode_ = NC_NETCDF4 | NC_CLASSIC_MODEL, default_format_ = NC_FORMAT_NETCDF4_CLASSIC;
    else if (fmt == "NETCDF3_64BIT_OFFSET" || fmt == "NETCDF3_64BIT") mode_ = NC_64BIT_OFFSET, default_format_ = NC_FORMAT_64BIT_OFFSET;
    else if (fmt == "NETCDF3_64BIT_DATA") mode_ = NC_64BIT_DATA, default_format_ = NC_FORMAT_64BIT_DATA;
    else if (fmt == "NETCDF3_CLASSIC") mode_ = 0, default_format_ = NC_FORMAT_CLASSIC;
    else
      throw std::invalid_argument("exodus: netcdf_format " +
                                  expected_found("NETCDF4, NETCDF4_CLASSIC, NETCDF3_64BIT_OFFSET, NETCDF3_64BIT_DATA or NETCDF3_CLASSIC", fmt));
    netcdf4_ = (mode_ & NC_NETCDF4) != 0;
    if (compression == "gzip") {
      if (!netcdf4_) throw std::invalid_argument("exodus: compression='gzip' needs netcdf_format NETCDF4 or NETCDF4_CLASSIC");
      if (level_ < 1 || level_ > 9) throw std::invalid_argument("exodus: compression_opts " + expected_found("1..9", std::to_string(level_)));
      deflate_ = true;
    } else if (!compression.empty() && compression != "None" && compression != "none") {
      throw std::invalid_argument("exodus: compression " + expected_found("'gzip' or None", compression));
    }
  }

  void write() {
    io::AtomicFile file(path_, "exodus");
    // The flavour comes from the mode flags and, for the classic ones, from the process-wide
    // default format, which other netCDF users (the Exodus library among them) may change:
    // set it for this call and put it back.
    //
    // netCDF-4 files are built in memory and written out by AtomicFile: after a failed
    // write(2) HDF5 keeps the file open and crashes at process exit when it retries, so HDF5
    // never writes to disk here. netCDF-C creates the file in an io::MemoryFile where one is
    // available, else in its own in-memory image (HDF5's core driver). The classic
    // flavours are written by netCDF-C at the temporary path itself.
    std::unique_ptr<io::MemoryFile> memory;
    if (netcdf4_ && io::MemoryFile::available(estimated_bytes())) memory = std::make_unique<io::MemoryFile>("exodus", path_);
    const bool image = netcdf4_ && !memory;
    const std::string& create_path = memory ? memory->path() : file.temp_path();
    int old_default = 0;
    nc_set_default_format(default_format_, &old_default);
    const int created = image ? nc_create_mem(create_path.c_str(), mode_, estimated_bytes(), &id_)
                              : nc_create(create_path.c_str(), mode_ | NC_CLOBBER, &id_);
    nc_set_default_format(old_default, nullptr);
    if (memory) memory->unlink_name();  // netCDF-C (HDF5) has its own descriptor now
    if (created != NC_NOERR) id_ = -1;
    check(created, "cannot create the netCDF file");
    NC_memio bytes{};
    try {
      check(nc_set_fill(id_, NC_NOFILL, nullptr), "nc_set_fill");
      define();
      check(nc_enddef(id_), "nc_enddef");
      put();
      const int status = image ? nc_close_memio(id_, &bytes) : nc_close(id_);
      id_ = -1;
      if (status != NC_NOERR) fail(std::string("close failed: ") + nc_strerror(status));
    } catch (...) {
      if (id_ >= 0) nc_abort(id_);
      id_ = -1;
      throw;
    }
    if (image) {
      std::unique_ptr<void, void (*)(void*)> owner(bytes.memory, &std::free);
      file.write(bytes.memory, bytes.size);
    } else if (memory) {
      file.write_from(*memory);
    }
    file.commit();
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { throw WriteError(error_message("exodus", path_, {}, what)); }
  // Every netCDF call of a write writes (headers, data, or at nc_enddef/nc_close the
  // buffered rest): a failure is reported as a failed write of `what`.
  void check(int status, const std::string& what) const {
    if (status != NC_NOERR) fail("write failed (" + what + "): " + nc_strerror(status));
  }

  int def_dim(const std::string& name, std::size_t len) {
    int d = -1;
    check(nc_def_dim(id_, name.c_str(), len, &d), "dimension " + name);
    return d;
  }
  int def_var(const std::string& name, nc_type type, std::vector<int> dims, bool big = false) {
    int v = -1;
    check(nc_def_var(id_, name.c_str(), type, static_cast<int>(dims.size()), dims.data(), &v), "variable " + name);
    if (big && deflate_) check(nc_def_var_deflate(id_, v, 1, 1, level_), "variable " + name + " deflate");
    return v;
  }
  void text_att(int varid, const char* name, const std::string& value) {
    check(nc_put_att_text(id_, varid, name, value.size(), value.c_str()), std::string("attribute ") + name);
  }
  void int_att(int varid, const char* name, int value) {
    check(nc_put_att_int(id_, varid, name, NC_INT, 1, &value), std::string("attribute ") + name);
  }
  void float_att(int varid, const char* name, float value) {
    check(nc_put_att_float(id_, varid, name, NC_FLOAT, 1, &value), std::string("attribute ") + name);
  }

  // The names that fit Exodus' len_name (32 characters by default; longer ones widen it).
  void plan_names(std::size_t longest) { len_name_ = std::max<std::size_t>(kLenString, longest + 1); }

  void plan() {
    const auto bases = block_bases(mesh_.cells);
    for (std::size_t b = 0; b < mesh_.cells.size(); ++b) {
      const CellBlock& cb = mesh_.cells[b];
      if (cb.ragged) fail("cells[" + std::to_string(b) + "] (" + cb.type + "): Exodus II has no ragged polygon/polyhedron blocks here");
      const ElementType* et = exodus_type_for(cb.type);
      if (et == nullptr) fail("cells[" + std::to_string(b) + "]: cell type " + expected_found("one Exodus II maps", cb.type));
      types_.push_back(et);
    }
    block_names_.assign(mesh_.cells.size(), "");
    block_ids_.resize(mesh_.cells.size());
    for (std::size_t b = 0; b < mesh_.cells.size(); ++b) block_ids_[b] = static_cast<int>(b + 1);
    std::set<int> used_ids;
    std::size_t longest = 0;
    for (const Region& r : mesh_.regions) {
      longest = std::max(longest, r.name.size());
      if (r.kind == RegionKind::cell) {
        // A cell region is an element block's name when it covers exactly that block.
        for (std::size_t b = 0; b < mesh_.cells.size(); ++b) {
          const auto n = static_cast<std::size_t>(bases[b + 1] - bases[b]);
          if (r.entries.size() != n || n == 0 || !block_names_[b].empty()) continue;
          if (r.entries.value_as_int64(0) != bases[b] || r.entries.value_as_int64(n - 1) != bases[b + 1] - 1) continue;
          block_names_[b] = r.name;
          if (r.tag > 0 && used_ids.insert(r.tag).second) block_ids_[b] = r.tag;
          break;
        }
      } else if (r.entries.size() == 0) {
        continue;  // an empty set would need a length-0 (unlimited) dimension: not written
      } else if (r.kind == RegionKind::point) {
        node_sets_.push_back(&r);
      } else {
        side_sets_.push_back(&r);
      }
    }
    // Unnamed blocks keep 1..n ids that no named block took.
    int next = 1;
    for (std::size_t b = 0; b < mesh_.cells.size(); ++b) {
      if (!block_names_[b].empty() && used_ids.count(block_ids_[b])) continue;
      while (used_ids.count(next)) ++next;
      block_ids_[b] = next;
      used_ids.insert(next);
    }
    for (const auto& [name, a] : mesh_.point_data) add_variables(name, a, nodal_);
    for (const auto& [name, blocks] : mesh_.cell_data) {
      if (blocks.empty()) continue;
      add_variables(name, blocks[0], element_);
    }
    for (const auto& [name, a] : mesh_.field_data)
      if (name.rfind("exodus:", 0) != 0 && a.size() == 1) globals_.push_back({name, 0});
    for (const auto& v : nodal_) longest = std::max(longest, v.name.size());
    for (const auto& v : element_) longest = std::max(longest, v.name.size());
    for (const auto& v : globals_) longest = std::max(longest, v.name.size());
    plan_names(longest);
  }

  struct Variable {
    std::string name;   // the Exodus variable name
    std::size_t column;  // column of the source array
    std::string source = {};  // the point_data / cell_data key
    std::size_t width = 1;
  };

  // (n,) -> one variable; (n, 3) -> <name>X, <name>Y, <name>Z; (n, k) -> <name>_0.. (k != 3).
  void add_variables(const std::string& name, const NDArray& a, std::vector<Variable>& out) {
    const std::size_t w = a.row_size();
    if (a.ndim() <= 1) {
      out.push_back({name, 0, name, 1});
    } else if (w == 3 && a.ndim() == 2) {
      for (std::size_t c = 0; c < 3; ++c) out.push_back({name + "XYZ"[c], c, name, 3});
    } else {
      for (std::size_t c = 0; c < w; ++c) out.push_back({name + "_" + std::to_string(c), c, name, w});
    }
  }

  void define() {
    plan();
    text_att(NC_GLOBAL, "title", "Created by meshio++");
    float_att(NC_GLOBAL, "api_version", 8.11f);
    float_att(NC_GLOBAL, "version", 8.11f);
    const bool single = mesh_.points.dtype() == DType::float32;
    int_att(NC_GLOBAL, "floating_point_word_size", single ? 4 : 8);
    int_att(NC_GLOBAL, "file_size", 1);
    int_att(NC_GLOBAL, "maximum_name_length", static_cast<int>(len_name_ - 1));
    std::int64_t max_node = static_cast<std::int64_t>(mesh_.num_points());
    int64_ = max_node > 2147483647 || static_cast<std::int64_t>(mesh_.num_cells()) > 2147483647;
    if (int64_ && mode_ != NC_NETCDF4 && mode_ != NC_64BIT_DATA)
      fail("more than 2^31 nodes or elements need netcdf_format NETCDF4 or NETCDF3_64BIT_DATA");
    if (!int64_) int_att(NC_GLOBAL, "int64_status", 0);
    const nc_type real = single ? NC_FLOAT : NC_DOUBLE;
    const nc_type integer = int64_ ? NC_INT64 : NC_INT;

    const int d_len_string = def_dim("len_string", kLenString);
    const int d_len_line = def_dim("len_line", kLenLine);
    const int d_four = def_dim("four", 4);
    const int d_len_name = def_dim("len_name", len_name_);
    const int d_time = def_dim("time_step", NC_UNLIMITED);
    const std::size_t dim = mesh_.points.dim(1);
    const int d_num_dim = def_dim("num_dim", dim);
    const std::size_t nn = mesh_.num_points();
    const int d_nodes = nn > 0 ? def_dim("num_nodes", nn) : -1;
    if (mesh_.num_cells() > 0) def_dim("num_elem", mesh_.num_cells());
    v_time_ = def_var("time_whole", real, {d_time});

    // QA records: the ones read from an Exodus file, then ours.
    qa_ = records("exodus:qa_records", 3, 4 * kLenString);
    const int d_qa = def_dim("num_qa_rec", qa_.size() / (4 * kLenString) + 1);
    v_qa_ = def_var("qa_records", NC_CHAR, {d_qa, d_four, d_len_string});
    info_ = records("exodus:info_records", 2, kLenLine);
    if (!info_.empty()) v_info_ = def_var("info_records", NC_CHAR, {def_dim("num_info", info_.size() / kLenLine), d_len_line});

    v_coor_names_ = def_var("coor_names", NC_CHAR, {d_num_dim, d_len_name});
    if (nn > 0)
      for (std::size_t d = 0; d < dim; ++d) v_coord_.push_back(def_var(std::string("coord") + "xyz"[d], real, {d_nodes}, true));

    const std::size_t nblk = mesh_.cells.size();
    if (nblk > 0) {
      const int d_blk = def_dim("num_el_blk", nblk);
      v_eb_status_ = def_var("eb_status", NC_INT, {d_blk});
      v_eb_prop1_ = def_var("eb_prop1", NC_INT, {d_blk});
      text_att(v_eb_prop1_, "name", "ID");
      v_eb_names_ = def_var("eb_names", NC_CHAR, {d_blk, d_len_name});
      for (std::size_t b = 0; b < nblk; ++b) {
        const std::string k = std::to_string(b + 1);
        if (mesh_.cells[b].size() == 0) {
          // A netCDF dimension of length 0 is the unlimited one: an empty block gets no
          // dimensions and no connect<k>, as the Exodus library writes it.
          v_connect_.push_back(-1);
          block_dims_.push_back(-1);
          continue;
        }
        const int d_el = def_dim("num_el_in_blk" + k, mesh_.cells[b].size());
        const int d_per = def_dim("num_nod_per_el" + k, mesh_.cells[b].connectivity.dim(1));
        const int v = def_var("connect" + k, integer, {d_el, d_per}, true);
        text_att(v, "elem_type", std::string(types_[b]->exodus));
        v_connect_.push_back(v);
        block_dims_.push_back(d_el);
      }
    }
    if (!node_sets_.empty()) {
      const int d = def_dim("num_node_sets", node_sets_.size());
      v_ns_status_ = def_var("ns_status", NC_INT, {d});
      v_ns_prop1_ = def_var("ns_prop1", NC_INT, {d});
      text_att(v_ns_prop1_, "name", "ID");
      v_ns_names_ = def_var("ns_names", NC_CHAR, {d, d_len_name});
      for (std::size_t k = 0; k < node_sets_.size(); ++k) {
        const std::string s = std::to_string(k + 1);
        const int dn = def_dim("num_nod_ns" + s, node_sets_[k]->entries.size());
        v_node_ns_.push_back(def_var("node_ns" + s, integer, {dn}));
      }
    }
    if (!side_sets_.empty()) {
      const int d = def_dim("num_side_sets", side_sets_.size());
      v_ss_status_ = def_var("ss_status", NC_INT, {d});
      v_ss_prop1_ = def_var("ss_prop1", NC_INT, {d});
      text_att(v_ss_prop1_, "name", "ID");
      v_ss_names_ = def_var("ss_names", NC_CHAR, {d, d_len_name});
      for (std::size_t k = 0; k < side_sets_.size(); ++k) {
        const std::string s = std::to_string(k + 1);
        const int dn = def_dim("num_side_ss" + s, side_sets_[k]->entries.dim(0));
        v_elem_ss_.push_back(def_var("elem_ss" + s, integer, {dn}));
        v_side_ss_.push_back(def_var("side_ss" + s, integer, {dn}));
      }
    }
    if (!globals_.empty()) {
      const int d = def_dim("num_glo_var", globals_.size());
      v_name_glo_ = def_var("name_glo_var", NC_CHAR, {d, d_len_name});
      v_glo_ = def_var("vals_glo_var", NC_DOUBLE, {d_time, d});
    }
    if (!nodal_.empty() && nn > 0) {
      const int d = def_dim("num_nod_var", nodal_.size());
      v_name_nod_ = def_var("name_nod_var", NC_CHAR, {d, d_len_name});
      for (std::size_t k = 0; k < nodal_.size(); ++k)
        v_nod_.push_back(def_var("vals_nod_var" + std::to_string(k + 1),
                                 real_type(mesh_.point_data.at(nodal_[k].source).dtype()), {d_time, d_nodes}, true));
    }
    if (!element_.empty() && nblk > 0) {
      const int d = def_dim("num_elem_var", element_.size());
      v_name_elem_ = def_var("name_elem_var", NC_CHAR, {d, d_len_name});
      const int d_blk = def_dim_id("num_el_blk");
      v_elem_tab_ = def_var("elem_var_tab", NC_INT, {d_blk, d});
      v_elem_.assign(element_.size(), std::vector<int>(nblk, -1));
      for (std::size_t v = 0; v < element_.size(); ++v)
        for (std::size_t b = 0; b < nblk; ++b)
          if (block_dims_[b] >= 0) v_elem_[v][b] = def_var("vals_elem_var" + std::to_string(v + 1) + "eb" + std::to_string(b + 1),
                                  real_type(mesh_.cell_data.at(element_[v].source)[b].dtype()), {d_time, block_dims_[b]}, true);
    }
  }

  // The file's size, roughly (netCDF's own in-memory file starts this large, so HDF5's core
  // driver seldom has to grow it; an io::MemoryFile is used only with room for it).
  std::size_t estimated_bytes() const {
    std::size_t n = (1 << 20) + mesh_.points.nbytes();
    for (const auto& c : mesh_.cells) n += c.connectivity.size() * 4;
    for (const auto& [k, a] : mesh_.point_data) n += a.size() * 8;
    for (const auto& [k, list] : mesh_.cell_data)
      for (const auto& a : list) n += a.size() * 8;
    return n + n / 16;
  }

  // Exodus variables are floating point: float32 data stays float32, the rest is double.
  static nc_type real_type(DType d) { return d == DType::float32 ? NC_FLOAT : NC_DOUBLE; }

  int def_dim_id(const char* name) const {
    int d = -1;
    check(nc_inq_dimid(id_, name, &d), std::string("dimension ") + name);
    return d;
  }

  // Rows of a char field_data array read from an Exodus file, re-padded to `row` bytes
  // (a record written by another tool may use other string lengths).
  std::string records(const char* key, std::size_t ndim, std::size_t row) const {
    auto it = mesh_.field_data.find(key);
    if (it == mesh_.field_data.end()) return {};
    const NDArray& a = it->second;
    if (a.ndim() != ndim || a.size() == 0 || dtype_size(a.dtype()) != 1 || (ndim == 3 && a.dim(1) != 4)) return {};
    const std::size_t n = ndim == 3 ? a.dim(0) * 4 : a.dim(0);
    const std::size_t len = a.dim(ndim - 1);
    const std::size_t cell = ndim == 3 ? kLenString : row;
    std::string out(n * cell, '\0');
    const char* src = static_cast<const char*>(a.raw());
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t take = std::min(len, cell - 1);
      std::size_t used = 0;
      while (used < take && src[i * len + used] != '\0') ++used;
      std::memcpy(out.data() + i * cell, src + i * len, used);
    }
    return out;
  }

  void put_names(int varid, const std::vector<std::string>& names) {
    std::string buf(names.size() * len_name_, '\0');
    for (std::size_t i = 0; i < names.size(); ++i) std::memcpy(buf.data() + i * len_name_, names[i].data(), names[i].size());
    if (!buf.empty()) check(nc_put_var_text(id_, varid, buf.c_str()), "names");
  }
  void put_ints(int varid, const std::vector<int>& values) {
    if (!values.empty()) check(nc_put_var_int(id_, varid, values.data()), "integers");
  }

  // Column `column` of a (n, width) array (or a 1-D array) into elements [0, n) of the last
  // axis of `varid` at `prefix`, in chunks (netCDF converts the dtype as it writes).
  void put_column(int varid, std::vector<std::size_t> prefix, const NDArray& a, std::size_t column, std::size_t width,
                  std::int64_t add = 0) {
    const std::size_t n = a.dim(0);
    std::vector<std::size_t> start = prefix, count(prefix.size(), 1);
    start.push_back(0);
    count.push_back(0);
    const std::string what = "variable " + var_name(varid);
    visit_dtype(a.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const T* src = static_cast<const T*>(a.raw());
      if (width == 1 && add == 0) {
        count.back() = n;
        if (n > 0) check(nc::put_vara(id_, varid, start.data(), count.data(), a.dtype(), src), what);
        return;
      }
      std::vector<T> scratch(std::min(n, kChunk));
      for (std::size_t i = 0; i < n; i += kChunk) {
        const std::size_t c = std::min(kChunk, n - i);
        for (std::size_t k = 0; k < c; ++k) scratch[k] = static_cast<T>(src[(i + k) * width + column] + add);
        start.back() = i;
        count.back() = c;
        check(nc::put_vara(id_, varid, start.data(), count.data(), a.dtype(), scratch.data()), what);
      }
    });
  }

  std::string var_name(int varid) const {
    char name[NC_MAX_NAME + 1] = {};
    nc_inq_varname(id_, varid, name);
    return name;
  }

  void put() {
    const double t0 = 0.0;
    const std::size_t zero = 0, one = 1;
    check(nc_put_vara_double(id_, v_time_, &zero, &one, &t0), "variable time_whole");

    // QA: ours last. Its date and time fields stay empty so that the same mesh always
    // gives the same bytes.
    std::string qa = qa_;
    std::string mine(4 * kLenString, '\0');
    const std::string fields[4] = {"meshio++", meshioplusplus::version(), "", ""};
    for (int i = 0; i < 4; ++i) std::memcpy(mine.data() + i * kLenString, fields[i].data(), std::min(fields[i].size(), kLenString - 1));
    qa += mine;
    check(nc_put_var_text(id_, v_qa_, qa.c_str()), "variable qa_records");
    if (!info_.empty()) check(nc_put_var_text(id_, v_info_, info_.c_str()), "variable info_records");

    const std::size_t dim = mesh_.points.dim(1);
    std::vector<std::string> coor = {"X", "Y", "Z"};
    coor.resize(dim);
    auto it = mesh_.field_data.find("exodus:coor_names");
    if (it != mesh_.field_data.end() && it->second.ndim() == 2 && it->second.dim(0) == dim && dtype_size(it->second.dtype()) == 1) {
      const char* src = static_cast<const char*>(it->second.raw());
      const std::size_t len = it->second.dim(1);
      for (std::size_t d = 0; d < dim; ++d) {
        std::string s(src + d * len, len);
        s.resize(std::strlen(s.c_str()));
        if (!s.empty()) coor[d] = s.substr(0, len_name_ - 1);
      }
    }
    put_names(v_coor_names_, coor);
    for (std::size_t d = 0; d < v_coord_.size(); ++d) put_column(v_coord_[d], {}, mesh_.points, d, dim);

    const std::size_t nblk = mesh_.cells.size();
    if (nblk > 0) {
      put_ints(v_eb_status_, std::vector<int>(nblk, 1));
      put_ints(v_eb_prop1_, block_ids_);
      put_names(v_eb_names_, block_names_);
      for (std::size_t b = 0; b < nblk; ++b)
        if (v_connect_[b] >= 0) put_connectivity(b);
    }
    if (!node_sets_.empty()) {
      std::vector<std::string> names;
      std::vector<int> ids;
      std::set<int> used;
      for (std::size_t k = 0; k < node_sets_.size(); ++k) {
        names.push_back(node_sets_[k]->name);
        ids.push_back(unique_id(node_sets_[k]->tag, k, used));
        put_column(v_node_ns_[k], {}, node_sets_[k]->entries, 0, 1, 1);
      }
      put_ints(v_ns_status_, std::vector<int>(node_sets_.size(), 1));
      put_ints(v_ns_prop1_, ids);
      put_names(v_ns_names_, names);
    }
    if (!side_sets_.empty()) put_side_sets();
    if (!globals_.empty()) {
      std::vector<std::string> names;
      std::vector<double> values;
      for (const auto& g : globals_) {
        names.push_back(g.name);
        values.push_back(mesh_.field_data.at(g.name).value_as_double(0));
      }
      put_names(v_name_glo_, names);
      const std::size_t start[2] = {0, 0}, count[2] = {1, values.size()};
      check(nc_put_vara_double(id_, v_glo_, start, count, values.data()), "variable vals_glo_var");
    }
    if (!v_nod_.empty()) {
      std::vector<std::string> names;
      for (std::size_t k = 0; k < nodal_.size(); ++k) {
        names.push_back(nodal_[k].name);
        const NDArray& a = mesh_.point_data.at(nodal_[k].source);
        put_column(v_nod_[k], {0}, a, nodal_[k].column, nodal_[k].width);
      }
      put_names(v_name_nod_, names);
    }
    if (!v_elem_.empty()) {
      std::vector<std::string> names;
      for (std::size_t v = 0; v < element_.size(); ++v) {
        names.push_back(element_[v].name);
        const auto& blocks = mesh_.cell_data.at(element_[v].source);
        for (std::size_t b = 0; b < nblk; ++b) {
          if (blocks[b].row_size() != element_[v].width)
            fail("cell_data['" + element_[v].source + "'][" + std::to_string(b) + "]: " +
                 expected_found(std::to_string(element_[v].width) + " values per cell (as block 0)", std::to_string(blocks[b].row_size())));
          if (v_elem_[v][b] >= 0) put_column(v_elem_[v][b], {0}, blocks[b], element_[v].column, element_[v].width);
        }
      }
      put_names(v_name_elem_, names);
      std::vector<int> table;
      for (std::size_t b = 0; b < nblk; ++b) table.insert(table.end(), element_.size(), block_dims_[b] >= 0 ? 1 : 0);
      put_ints(v_elem_tab_, table);
    }
  }

  static int unique_id(int tag, std::size_t k, std::set<int>& used) {
    int id = tag > 0 ? tag : static_cast<int>(k + 1);
    while (!used.insert(id).second) ++id;
    return id;
  }

  // 1-based, in Exodus node order, in the file's integer type (no conversion pass in
  // netCDF), a bounded chunk of rows at a time.
  void put_connectivity(std::size_t b) {
    if (int64_) put_connectivity_as<long long>(b);
    else put_connectivity_as<int>(b);
  }

  template <class Out> void put_connectivity_as(std::size_t b) {
    const NDArray& conn = mesh_.cells[b].connectivity;
    const std::size_t m = conn.dim(0), k = conn.dim(1);
    const auto& perm = types_[b]->to_ours;
    const std::size_t rows = std::max<std::size_t>(1, (4 * kChunk) / std::max<std::size_t>(k, 1));
    std::vector<Out> scratch(std::min(m, rows) * k);
    visit_dtype(conn.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const T* src = static_cast<const T*>(conn.raw());
      for (std::size_t i = 0; i < m; i += rows) {
        const std::size_t c = std::min(rows, m - i);
        if (perm.empty()) {
          const T* from = src + i * k;
          for (std::size_t e = 0; e < c * k; ++e) scratch[e] = static_cast<Out>(from[e]) + 1;
        } else {
          for (std::size_t r = 0; r < c; ++r)
            for (std::size_t j = 0; j < k; ++j)
              scratch[r * k + static_cast<std::size_t>(perm[j])] = static_cast<Out>(src[(i + r) * k + j]) + 1;
        }
        const std::size_t start[2] = {i, 0}, count[2] = {c, k};
        int status;
        if constexpr (std::is_same_v<Out, int>) status = nc_put_vara_int(id_, v_connect_[b], start, count, scratch.data());
        else status = nc_put_vara_longlong(id_, v_connect_[b], start, count, scratch.data());
        check(status, "variable connect" + std::to_string(b + 1));
      }
    });
  }

  void put_side_sets() {
    const auto bases = block_bases(mesh_.cells);
    std::vector<std::string> names;
    std::vector<int> ids;
    std::set<int> used;
    for (std::size_t k = 0; k < side_sets_.size(); ++k) {
      const Region& r = *side_sets_[k];
      names.push_back(r.name);
      ids.push_back(unique_id(r.tag, k, used));
      const std::size_t n = r.entries.dim(0);
      std::vector<long long> elems(n), sides(n);
      for (std::size_t i = 0; i < n; ++i) {
        const std::int64_t cell = r.entries.value_as_int64(2 * i), facet = r.entries.value_as_int64(2 * i + 1);
        const auto b = static_cast<std::size_t>(std::upper_bound(bases.begin(), bases.end(), cell) - bases.begin() - 1);
        const auto& map = types_[b]->side_to_facet;
        const auto side = std::find(map.begin(), map.end(), static_cast<int>(facet));
        if (side == map.end())
          fail("side region '" + r.name + "': cell " + std::to_string(cell) + " (" + mesh_.cells[b].type + ") facet " +
               std::to_string(facet) + " has no Exodus side number");
        elems[i] = cell + 1;
        // In a 3-D file a 2-D element is a shell whose edges are sides 3.. (see the reader).
        const bool shell = mesh_.points.dim(1) == 3 && cell_type(mesh_.cells[b].type).dim == 2;
        sides[i] = (side - map.begin()) + 1 + (shell ? 2 : 0);
      }
      if (n > 0) {
        check(nc_put_var_longlong(id_, v_elem_ss_[k], elems.data()), "variable elem_ss" + std::to_string(k + 1));
        check(nc_put_var_longlong(id_, v_side_ss_[k], sides.data()), "variable side_ss" + std::to_string(k + 1));
      }
    }
    put_ints(v_ss_status_, std::vector<int>(side_sets_.size(), 1));
    put_ints(v_ss_prop1_, ids);
    put_names(v_ss_names_, names);
  }


  std::string path_;
  const Mesh& mesh_;
  int mode_ = NC_NETCDF4, default_format_ = NC_FORMAT_NETCDF4;
  bool netcdf4_ = true, deflate_ = false, int64_ = false;
  int level_ = 4;
  int id_ = -1;
  std::size_t len_name_ = kLenString;
  std::vector<const ElementType*> types_;
  std::vector<std::string> block_names_;
  std::vector<int> block_ids_;
  std::vector<const Region*> node_sets_, side_sets_;
  std::vector<Variable> nodal_, element_, globals_;
  std::string qa_, info_;
  int v_time_ = -1, v_qa_ = -1, v_info_ = -1, v_coor_names_ = -1;
  std::vector<int> v_coord_, v_connect_, block_dims_;
  int v_eb_status_ = -1, v_eb_prop1_ = -1, v_eb_names_ = -1;
  int v_ns_status_ = -1, v_ns_prop1_ = -1, v_ns_names_ = -1, v_ss_status_ = -1, v_ss_prop1_ = -1, v_ss_names_ = -1;
  std::vector<int> v_node_ns_, v_elem_ss_, v_side_ss_;
  int v_name_glo_ = -1, v_glo_ = -1, v_name_nod_ = -1, v_name_elem_ = -1, v_elem_tab_ = -1;
  std::vector<int> v_nod_;
  std::vector<std::vector<int>> v_elem_;
};

}  // namespace

void write_exodus(const std::string& path, const Mesh& mesh, const Options& options) {
  std::lock_guard<std::recursive_mutex> lock(io::hdf5_netcdf_mutex());
  Writer(path, mesh, options).write();
}

}  // namespace meshioplusplus::exodus

#endif  // MESHIOPP_HAVE_NETCDF
