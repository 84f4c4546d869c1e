// meshio++ Exodus II reader (netCDF classic, 64-bit offset, CDF5 and netCDF-4 files).
// Spec: https://sandialabs.github.io/seacas-docs/exodusII-new.pdf (Appendix: the netCDF
// names: coordx/coordy/coordz or coord, connect<k> with elem_type, eb_names, node_ns<k>,
// elem_ss<k>/side_ss<k>, name_nod_var/vals_nod_var<k>, name_elem_var/
// vals_elem_var<v>eb<b>, name_glo_var/vals_glo_var, time_whole, qa_records, info_records).
//
// What meshio's reader does, and more: point_data and cell_data come from ONE time step,
// the first by default as in meshio (option `step`, negative counts from the end);
// nodal variables named <name>X/<name>Y/<name>Z or <name>_R/<name>_Z are joined into one
// array as meshio joins them; named element blocks become cell regions, node sets point
// regions and side sets side regions (Exodus side numbers converted to the core's facet
// numbering); global variables at the step, every time value, the QA and info records and
// the coordinate names go to field_data (docs/formats/exodus.md lists the keys).
//
// Arrays are read by nc_get_vara_* straight into the buffers the mesh returns (allocated
// once with NDArray::uninit in their final dtype); connectivity is made 0-based in place.
// Only columns of (n, k) arrays (coordinates, joined vectors) pass through a bounded
// 64 Ki-element scratch buffer.
//
// Safe for untrusted input as far as netCDF-C is: before anything is allocated from a
// declared size, the variable's bytes are checked against the file (classic formats store
// data uncompressed; netCDF-4 is allowed deflate's maximum ratio); every index is checked
// against the node, element and side counts; every failure is a ReadError naming the file
// and the variable.
// Compiled only with netCDF-C (MESHIOPP_HAVE_NETCDF); exodus.cpp says which package is missing.
#ifdef MESHIOPP_HAVE_NETCDF

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>
#include <optional>

#include <netcdf.h>
#include <netcdf_mem.h>  // needs netcdf.h first

#include "core/io/file.hpp"
#include "core/io/hdf5.hpp"  // empty without MESHIOPP_HAVE_HDF5
#include "core/io/library_lock.hpp"
#include "formats/exodus/exodus_internal.hpp"
#include "formats/exodus/exodus_nc.hpp"
#include "meshioplusplus/cell_types.hpp"
#include "meshioplusplus/errors.hpp"

namespace meshioplusplus::exodus {

namespace {

// Deflate cannot compress better than about 1032:1; a netCDF-4 variable claiming more
// bytes than that over the whole file is a lie (or unwritten fill, which is refused too).
constexpr std::uint64_t kMaxNetcdf4Ratio = 1100;
constexpr std::size_t kScratch = 1 << 16;

class File {
 public:
  File(const std::string& path) : path_(path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) fail("cannot open: no such file");
    file_bytes_ = static_cast<std::uint64_t>(st.st_size);
    int status = NC_NOERR;
    if (S_ISREG(st.st_mode)) {
      check_header_of(path);
      check_hdf5_layouts(nullptr, 0);
      status = nc_open(path.c_str(), NC_NOWRITE, &id_);
    } else {
      // netCDF-C seeks: a pipe or a character device is read whole first and opened from
      // memory (a writable copy: netCDF may keep its own state in the image).
      const io::FileBytes bytes(path, "exodus");
      image_.assign(bytes.data(), bytes.size());
      file_bytes_ = image_.size();
      check_classic_header(image_, path);
      check_hdf5_layouts(image_.data(), image_.size());
      status = nc_open_mem(path.c_str(), NC_NOWRITE, image_.size(), image_.data(), &id_);
    }
    if (status != NC_NOERR) {
      id_ = -1;
      fail(std::string("not a readable netCDF file (") + nc_strerror(status) + ")");
    }
    int format = 0;
    check(nc_inq_format(id_, &format), "file format");
    netcdf4_ = format == NC_FORMAT_NETCDF4 || format == NC_FORMAT_NETCDF4_CLASSIC;
  }
  ~File() {
    if (id_ >= 0) nc_close(id_);
  }

  // A netCDF-4 file is an HDF5 file: its datasets' layouts and its attributes' global heap
  // objects are checked (io::hdf5::check_layouts: HDF5 1.10.8 trusts both) before netCDF-C
  // opens it, with the HDF5 toolkit, which closes the file again before netCDF-C opens it.
  // `image`: the bytes of a file read whole (a pipe); nullptr: the regular file path_.
  void check_hdf5_layouts(const char* image, std::size_t size) const {
#ifdef MESHIOPP_HAVE_HDF5
    static constexpr char kSignature[8] = {'\x89', 'H', 'D', 'F', '\r', '\n', '\x1a', '\n'};
    const io::hdf5::Context ctx{"exodus", path_, false};
    if (image) {
      if (size >= 8 && std::memcmp(image, kSignature, 8) == 0) io::hdf5::open_file_image(ctx, image, size);
      return;
    }
    char head[8] = {};
    const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) fail("cannot open");
    const bool hdf5 = ::pread(fd, head, 8, 0) == 8 && std::memcmp(head, kSignature, 8) == 0;
    ::close(fd);
    if (hdf5) io::hdf5::open_file(ctx);
#else
    (void)image, (void)size;
#endif
  }

  // check_classic_header on the file's first bytes, 64 KiB at first: a check that runs out
  // of bytes is repeated on 8 times as many until it has seen the whole file, so a header
  // is only refused for what the whole file cannot hold (and the data is never read here).
  void check_header_of(const std::string& path) const {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) fail("cannot open");
    std::string head;
    std::size_t want = std::min<std::uint64_t>(file_bytes_, 1 << 16);
    for (;;) {
      head.resize(want);
      std::size_t have = 0;
      while (have < want) {
        const ssize_t n = ::pread(fd, head.data() + have, want - have, static_cast<off_t>(have));
        if (n <= 0) break;
        have += static_cast<std::size_t>(n);
      }
      head.resize(have);
      try {
        check_classic_header(head, path);
        break;
      } catch (const ReadError&) {
        if (have < want || want >= file_bytes_) {
          ::close(fd);
          throw;
        }
        want = static_cast<std::size_t>(std::min<std::uint64_t>(file_bytes_, std::uint64_t{want} * 8));
      }
    }
    ::close(fd);
  }
  File(const File&) = delete;
  File& operator=(const File&) = delete;

  int id() const { return id_; }
  const std::string& path() const { return path_; }

  [[noreturn]] void fail(const std::string& what) const {
    throw ReadError(error_message("exodus", path_, {}, what));
  }
  void check(int status, const std::string& what) const {
    if (status != NC_NOERR) fail(what + ": " + nc_strerror(status));
  }

  std::optional<std::size_t> dim(const std::string& name) const {
    int d = -1;
    if (nc_inq_dimid(id_, name.c_str(), &d) != NC_NOERR) return std::nullopt;
    std::size_t len = 0;
    check(nc_inq_dimlen(id_, d, &len), "dimension " + name);
    return len;
  }
  std::size_t dim_or_zero(const std::string& name) const { return dim(name).value_or(0); }

  std::optional<int> var(const std::string& name) const {
    int v = -1;
    if (nc_inq_varid(id_, name.c_str(), &v) != NC_NOERR) return std::nullopt;
    return v;
  }
  int require_var(const std::string& name, const std::string& why) const {
    auto v = var(name);
    if (!v) fail("missing variable " + name + " (" + why + ")");
    return *v;
  }
  std::string var_name(int varid) const {
    char name[NC_MAX_NAME + 1] = {};
    check(nc_inq_varname(id_, varid, name), "variable name");
    return name;
  }
  std::vector<std::size_t> shape(int varid) const {
    int ndims = 0;
    check(nc_inq_varndims(id_, varid, &ndims), "variable " + var_name(varid));
    std::vector<int> dims(static_cast<std::size_t>(ndims));
    check(nc_inq_vardimid(id_, varid, dims.data()), "variable " + var_name(varid));
    std::vector<std::size_t> out;
    for (int d : dims) {
      std::size_t len = 0;
      check(nc_inq_dimlen(id_, d, &len), "variable " + var_name(varid));
      out.push_back(len);
    }
    return out;
  }
  nc_type type(int varid) const {
    nc_type t = NC_NAT;
    check(nc_inq_vartype(id_, varid, &t), "variable " + var_name(varid));
    return t;
  }
  // The dtype a numeric variable is read into (its own); text variables are an error.
  DType numeric_dtype(int varid) const {
    auto d = nc::dtype_of_nc(type(varid));
    if (!d) fail("variable " + var_name(varid) + ": expected a numeric type, found netCDF type " +
                 std::to_string(type(varid)));
    return *d;
  }
  // Every variable is checked before anything is allocated from its declared shape: its
  // bytes must fit in the file (see kMaxNetcdf4Ratio).
  void fits(int varid) const {
    std::uint64_t n = 1;
    for (std::size_t len : shape(varid))
      if (__builtin_mul_overflow(n, static_cast<std::uint64_t>(len), &n)) n = std::numeric_limits<std::uint64_t>::max();
    std::size_t size = 1;
    nc_type t = type(varid);
    if (t != NC_CHAR) {
      if (!nc::dtype_of_nc(t)) fail("variable " + var_name(varid) + ": unsupported netCDF type " + std::to_string(t));
      size = dtype_size(*nc::dtype_of_nc(t));
    }
    std::uint64_t bytes = 0;
    if (__builtin_mul_overflow(n, static_cast<std::uint64_t>(size), &bytes)) bytes = std::numeric_limits<std::uint64_t>::max();
    std::uint64_t limit = file_bytes_;
    if (netcdf4_ && __builtin_mul_overflow(file_bytes_, kMaxNetcdf4Ratio, &limit)) limit = std::numeric_limits<std::uint64_t>::max();
    if (bytes > limit)
      fail("variable " + var_name(varid) + ": " +
           expected_found("at most " + std::to_string(limit) + " bytes of data (the file holds " +
                              std::to_string(file_bytes_) + ")",
                          std::to_string(bytes) + " bytes declared by its dimensions"));
  }

  // Rows of a (n, len) character variable, each cut at its first NUL.
  std::vector<std::string> strings(const std::string& name) const {
    std::vector<std::string> out;
    auto v = var(name);
    if (!v) return out;
    if (type(*v) != NC_CHAR) fail("variable " + name + ": expected characters");
    fits(*v);
    const auto s = shape(*v);
    if (s.size() != 2) fail("variable " + name + ": " + expected_found("2 dimensions", std::to_string(s.size())));
    if (s[1] == 0) return out;  // names of no characters: nothing to hold, however many rows are declared
    std::string all(s[0] * s[1], '\0');
    if (!all.empty()) check(nc_get_var_text(id_, *v, all.data()), "variable " + name);
    for (std::size_t i = 0; i < s[0]; ++i) {
      std::string row = all.substr(i * s[1], s[1]);
      row.resize(std::strlen(row.c_str()));
      out.push_back(row);
    }
    return out;
  }
  // A character variable of any shape as a uint8 array (QA and info records).
  std::optional<NDArray> chars(const std::string& name) const {
    auto v = var(name);
    if (!v) return std::nullopt;
    if (type(*v) != NC_CHAR) fail("variable " + name + ": expected characters");
    fits(*v);
    auto s = shape(*v);
    NDArray out = NDArray::uninit(DType::uint8, s);
    if (out.size() > 0) check(nc_get_var_text(id_, *v, static_cast<char*>(out.raw())), "variable " + name);
    return out;
  }

  // Reads elements [0, n) of the last axis at `prefix` (one index per leading axis) into
  // out[i * stride] in `dtype`: straight into `out` when stride is 1, else through a bounded
  // scratch buffer.
  void read_last_axis(int varid, std::vector<std::size_t> prefix, std::size_t n, DType dtype, void* out,
                      std::size_t stride) const {
    std::vector<std::size_t> start = prefix, count(prefix.size(), 1);
    start.push_back(0);
    count.push_back(n);
    const std::string what = "variable " + var_name(varid);
    if (stride == 1) {
      uncached(varid);
      if (n > 0) check(nc::get_vara(id_, varid, start.data(), count.data(), dtype, out), what);
      return;
    }
    visit_dtype(dtype, [&](auto tag) {
      using T = decltype(tag);
      std::vector<T> scratch(std::min(n, kScratch));
      T* dst = static_cast<T*>(out);
      for (std::size_t i = 0; i < n; i += kScratch) {
        const std::size_t c = std::min(kScratch, n - i);
        start.back() = i;
        count.back() = c;
        check(nc::get_vara(id_, varid, start.data(), count.data(), dtype, scratch.data()), what);
        for (std::size_t k = 0; k < c; ++k) dst[(i + k) * stride] = scratch[k];
      }
    });
    uncached(varid);  // gives the cache back
  }

  // Chunks of a netCDF-4 variable go through HDF5's chunk cache, one per variable, kept
  // until the file closes (and HDF5's free lists keep its memory after that): a nodal
  // variable's chunk sat beside the array read from it. A read that covers whole chunks
  // turns the cache off first, so HDF5 reads each chunk straight into the array; a read in
  // pieces (the strided one above) keeps it, so no chunk is read twice, and gives it back
  // after.
  void uncached(int varid) const {
    if (netcdf4_) nc_set_var_chunk_cache(id_, varid, 0, 0, 0.75f);
  }

 private:
  std::string path_;
  std::string image_;  // the bytes of a file that is not a regular file (see the constructor)
  int id_ = -1;
  std::uint64_t file_bytes_ = 0;
  bool netcdf4_ = false;
};

// A wider dtype holding both (for the columns of one joined array).
DType common_float(DType a, DType b) {
  return a == b && dtype_is_float(a) ? a : DType::float64;
}

struct Categorized {
  std::string name;
  std::vector<std::size_t> members;  // indices into the variable names
};

// meshio's grouping of nodal variable names: <name>X, <name>Y, <name>Z -> "<name>";
// <name>_R, <name>_Z -> "<name>"; everything else single (meshio/exodus/_exodus.py).
std::vector<Categorized> categorize(const std::vector<std::string>& names) {
  std::vector<Categorized> out;
  std::vector<bool> done(names.size(), false);
  auto index_of = [&](const std::string& n) -> std::optional<std::size_t> {
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == n) return i;
    return std::nullopt;
  };
  for (std::size_t k = 0; k < names.size(); ++k) {
    if (done[k]) continue;
    const std::string& name = names[k];
    done[k] = true;
    if (!name.empty() && name.back() == 'X') {
      const std::string base = name.substr(0, name.size() - 1);
      auto iy = index_of(base + "Y"), iz = index_of(base + "Z");
      if (iy && iz && !done[*iy] && !done[*iz]) {
        done[*iy] = done[*iz] = true;
        out.push_back({base, {k, *iy, *iz}});
        continue;
      }
    } else if (name.size() >= 2 && name.compare(name.size() - 2, 2, "_R") == 0) {
      const std::string base = name.substr(0, name.size() - 2);
      auto iz = index_of(base + "_Z");
      if (iz && !done[*iz]) {
        done[*iz] = true;
        out.push_back({base, {k, *iz}});
        continue;
      }
    }
    out.push_back({name, {k}});
  }
  return out;
}

class Reader {
 public:
  Reader(const std::string& path, const Options& options) : f_(path) {
    OptionReader opts(options, "exodus");
    step_option_ = opts.get_int("step", 0);
    opts.finish();
  }

  Mesh read() {
    num_nodes_ = f_.dim_or_zero("num_nodes");
    read_points();
    read_blocks();
    read_node_sets();
    read_side_sets();
    read_time_and_variables();
    read_records();
    return std::move(mesh_);
  }

 private:
  void read_points() {
    const std::size_t num_dim = num_dim_ = f_.dim_or_zero("num_dim");
    if (num_dim < 1 || num_dim > 3)
      f_.fail("dimension num_dim: " + expected_found("1, 2 or 3", std::to_string(num_dim)));
    const std::size_t dim = std::max<std::size_t>(num_dim, 2);  // meshio++ points are 2-D or 3-D
    static const char* names[] = {"coordx", "coordy", "coordz"};
    int joined = f_.var("coord").value_or(-1);
    std::vector<int> comps;
    if (!f_.var("coordx") && joined >= 0) {
      const auto s = f_.shape(joined);
      if (s.size() != 2 || s[0] != num_dim || s[1] != num_nodes_)
        f_.fail("variable coord: " + expected_found("shape (num_dim, num_nodes)", "another shape"));
      f_.fits(joined);
    } else if (num_nodes_ > 0) {
      joined = -1;
      for (std::size_t d = 0; d < num_dim; ++d) {
        const int v = f_.require_var(names[d], "node coordinates");
        const auto s = f_.shape(v);
        if (s.size() != 1 || s[0] != num_nodes_)
          f_.fail(std::string("variable ") + names[d] + ": " +
                  expected_found("shape (num_nodes) = (" + std::to_string(num_nodes_) + ")", "another shape"));
        f_.fits(v);
        comps.push_back(v);
      }
    }
    DType dtype = DType::float64;
    if (joined >= 0) dtype = f_.numeric_dtype(joined);
    else if (!comps.empty()) dtype = f_.numeric_dtype(comps[0]);
    for (int v : comps) dtype = common_float(dtype, f_.numeric_dtype(v));
    if (!dtype_is_float(dtype)) dtype = DType::float64;
    mesh_.points = NDArray::uninit(dtype, {num_nodes_, dim});
    if (num_dim < dim) std::memset(mesh_.points.raw(), 0, mesh_.points.nbytes());
    auto* base = static_cast<unsigned char*>(mesh_.points.raw());
    for (std::size_t d = 0; d < num_dim && num_nodes_ > 0; ++d) {
      void* out = base + d * dtype_size(dtype);
      if (joined >= 0) f_.read_last_axis(joined, {d}, num_nodes_, dtype, out, dim);
      else f_.read_last_axis(comps[d], {}, num_nodes_, dtype, out, dim);
    }
  }

  void read_blocks() {
    const std::size_t nblk = object_count("num_el_blk");
    const auto names = f_.strings("eb_names");
    std::vector<std::int64_t> ids = int_values("eb_prop1", nblk);
    std::int64_t base = 0;
    for (std::size_t k = 0; k < nblk; ++k) {
      const std::string var = "connect" + std::to_string(k + 1);
      const std::size_t m = f_.dim_or_zero("num_el_in_blk" + std::to_string(k + 1));
      auto v = f_.var(var);
      if (!v) {
        if (m == 0) continue;  // the Exodus library defines no connect<k> for an empty block
        f_.fail("missing variable " + var + " (element block " + std::to_string(k + 1) + " has " +
                std::to_string(m) + " elements)");
      }
      const auto s = f_.shape(*v);
      if (s.size() != 2) f_.fail("variable " + var + ": " + expected_found("2 dimensions", std::to_string(s.size())));
      if (s[0] == 0) continue;
      std::string elem_type = text_attribute(*v, "elem_type", var);
      const ElementType* et = find_exodus_type(elem_type);
      if (et == nullptr)
        f_.fail("variable " + var + ": element type " + expected_found("an Exodus type meshio++ maps", elem_type));
      const CellTypeInfo info = cell_type(et->meshio);
      if (s[1] != static_cast<std::size_t>(info.num_nodes))
        f_.fail("variable " + var + ": " + elem_type + " " +
                expected_found(std::to_string(info.num_nodes) + " nodes per element", std::to_string(s[1])));
      f_.fits(*v);
      NDArray conn = NDArray::uninit(DType::int64, {s[0], s[1]});
      const std::size_t start[2] = {0, 0}, count[2] = {s[0], s[1]};
      auto* p = conn.data<std::int64_t>();
      const std::size_t total = conn.size();
      const auto nn = static_cast<std::int64_t>(num_nodes_);
      auto bad = [&](std::size_t i, std::int64_t value) {
        f_.fail("variable " + var + ": element " + std::to_string(i / s[1] + 1) + " node " +
                expected_found("an index in 1.." + std::to_string(num_nodes_), std::to_string(value)));
      };
      // 0-based in the same pass as a branch-free min/max (the range check); only a
      // failure looks for the first offender.
      std::int64_t lo = std::numeric_limits<std::int64_t>::max(), hi = std::numeric_limits<std::int64_t>::min();
      if (f_.type(*v) == NC_INT) {
        // int32 on disk (the common case): read the raw values into the first half of the
        // int64 buffer, then widen in place from the end (element i's int64 lands at bytes
        // >= 8i, past every int32 still unread). netCDF's own conversion would stage every
        // chunk through a second buffer.
        auto* p32 = reinterpret_cast<std::int32_t*>(p);
        f_.check(nc_get_vara_int(f_.id(), *v, start, count, p32), "variable " + var);
        for (std::size_t i = total; i-- > 0;) {
          const std::int64_t x = static_cast<std::int64_t>(p32[i]) - 1;
          p[i] = x;
          lo = x < lo ? x : lo;
          hi = x > hi ? x : hi;
        }
      } else {
        f_.check(nc::get_vara(f_.id(), *v, start, count, DType::int64, p), "variable " + var);
        for (std::size_t i = 0; i < total; ++i) {
          const std::int64_t x = static_cast<std::int64_t>(static_cast<std::uint64_t>(p[i]) - 1);  // no signed overflow
          p[i] = x;
          lo = x < lo ? x : lo;
          hi = x > hi ? x : hi;
        }
      }
      if (total > 0 && (lo < 0 || hi >= nn))
        for (std::size_t i = 0; i < total; ++i)
          if (p[i] < 0 || p[i] >= nn) bad(i, p[i] + 1);
      if (!et->to_ours.empty()) permute_rows(conn, et->to_ours);
      block_types_.push_back(et);
      block_exodus_index_.push_back(k);
      mesh_.cells.push_back(CellBlock::rectangular(std::string(et->meshio), std::move(conn)));
      if (k < names.size() && !names[k].empty()) {
        Region r;
        r.name = names[k];
        r.kind = RegionKind::cell;
        r.dim = info.dim;
        r.tag = k < ids.size() ? static_cast<int>(ids[k]) : -1;
        r.entries = NDArray::uninit(DType::int64, {s[0]});
        std::int64_t* entries = r.entries.data<std::int64_t>();
        for (std::size_t i = 0; i < s[0]; ++i) entries[i] = base + static_cast<std::int64_t>(i);
        mesh_.regions.push_back(std::move(r));
      }
      base += static_cast<std::int64_t>(s[0]);
    }
    bases_ = block_bases(mesh_.cells);
  }

  // The count of element blocks, node sets or side sets: every one of them declares a
  // dimension of its own (num_el_in_blk<k>, num_nod_ns<k>, num_side_ss<k>), so the count
  // cannot exceed the file's dimensions; a lying count is refused before it is looped over.
  std::size_t object_count(const char* dim) const {
    const std::size_t n = f_.dim_or_zero(dim);
    int ndims = 0;
    f_.check(nc_inq_ndims(f_.id(), &ndims), "dimension count");
    if (n > static_cast<std::size_t>(ndims))
      f_.fail(std::string("dimension ") + dim + ": " +
              expected_found("at most " + std::to_string(ndims) + " (one dimension each)", std::to_string(n)));
    return n;
  }

  static void permute_rows(NDArray& conn, const std::vector<int>& to_ours) {
    const std::size_t k = conn.dim(1);
    auto* p = conn.data<std::int64_t>();
    std::vector<std::int64_t> row(k);
    for (std::size_t i = 0; i < conn.dim(0); ++i) {
      std::copy(p + i * k, p + (i + 1) * k, row.begin());
      for (std::size_t j = 0; j < k; ++j) p[i * k + j] = row[static_cast<std::size_t>(to_ours[j])];
    }
  }

  std::string text_attribute(int varid, const char* att, const std::string& var) const {
    std::size_t len = 0;
    nc_type t = NC_NAT;
    if (nc_inq_att(f_.id(), varid, att, &t, &len) != NC_NOERR) f_.fail("variable " + var + ": missing attribute " + att);
    if (t != NC_CHAR || len > 4096) f_.fail("variable " + var + ": attribute " + att + " is not a short text");
    std::string s(len, '\0');
    f_.check(nc_get_att_text(f_.id(), varid, att, s.data()), "variable " + var + " attribute " + att);
    s.resize(std::strlen(s.c_str()));
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s;
  }

  // A 1-D integer variable of `n` values (ids), or empty when absent.
  std::vector<std::int64_t> int_values(const std::string& name, std::size_t n) const {
    std::vector<std::int64_t> out;
    auto v = f_.var(name);
    if (!v) return out;
    const auto s = f_.shape(*v);
    if (s.size() != 1 || s[0] != n) f_.fail("variable " + name + ": " + expected_found("shape (" + std::to_string(n) + ")", "another shape"));
    f_.fits(*v);
    out.resize(n);
    f_.read_last_axis(*v, {}, n, DType::int64, out.data(), 1);
    return out;
  }

  // A 1-D variable of 1-based indices in 1..limit, made 0-based.
  NDArray indices(const std::string& name, std::size_t limit, const std::string& what) const {
    const int v = f_.require_var(name, what);
    const auto s = f_.shape(v);
    if (s.size() != 1) f_.fail("variable " + name + ": " + expected_found("1 dimension", std::to_string(s.size())));
    f_.fits(v);
    NDArray out = NDArray::uninit(DType::int64, {s[0]});
    f_.read_last_axis(v, {}, s[0], DType::int64, out.raw(), 1);
    auto* p = out.data<std::int64_t>();
    for (std::size_t i = 0; i < s[0]; ++i) {
      if (p[i] < 1 || p[i] > static_cast<std::int64_t>(limit))
        f_.fail("variable " + name + ": entry " + std::to_string(i + 1) + " " +
                expected_found("an index in 1.." + std::to_string(limit), std::to_string(p[i])));
      p[i] -= 1;
    }
    return out;
  }

  void read_node_sets() {
    const std::size_t n = object_count("num_node_sets");
    if (n == 0) return;
    const auto names = f_.strings("ns_names");
    const auto ids = int_values("ns_prop1", n);
    for (std::size_t k = 0; k < n; ++k) {
      const std::string var = "node_ns" + std::to_string(k + 1);
      if (!f_.var(var) && f_.dim_or_zero("num_nod_ns" + std::to_string(k + 1)) == 0) continue;
      Region r;
      const int id = k < ids.size() ? static_cast<int>(ids[k]) : static_cast<int>(k + 1);
      r.name = k < names.size() && !names[k].empty() ? names[k] : "nodelist_" + std::to_string(id);
      r.kind = RegionKind::point;
      r.tag = id;
      r.dim = 0;
      r.entries = indices(var, num_nodes_, "node set " + std::to_string(k + 1));
      r.canonicalize();
      mesh_.regions.push_back(std::move(r));
    }
  }

  void read_side_sets() {
    const std::size_t n = object_count("num_side_sets");
    if (n == 0) return;
    const auto names = f_.strings("ss_names");
    const auto ids = int_values("ss_prop1", n);
    const auto num_elem = static_cast<std::size_t>(bases_.back());
    for (std::size_t k = 0; k < n; ++k) {
      const std::string ev = "elem_ss" + std::to_string(k + 1), sv = "side_ss" + std::to_string(k + 1);
      if (!f_.var(ev) && f_.dim_or_zero("num_side_ss" + std::to_string(k + 1)) == 0) continue;
      NDArray elems = indices(ev, num_elem, "side set " + std::to_string(k + 1));
      NDArray sides = indices(sv, 6, "side set " + std::to_string(k + 1));  // no topology has more
      if (sides.size() != elems.size())
        f_.fail("variable " + sv + ": " + expected_found(std::to_string(elems.size()) + " sides (as " + ev + ")",
                                                         std::to_string(sides.size())));
      const std::size_t m = elems.size();
      NDArray entries = NDArray::uninit(DType::int64, {m, 2});
      auto* e = elems.data<std::int64_t>();
      auto* s = sides.data<std::int64_t>();
      auto* out = entries.data<std::int64_t>();
      bool representable = true;
      for (std::size_t i = 0; i < m && representable; ++i) {
        const auto b = static_cast<std::size_t>(std::upper_bound(bases_.begin(), bases_.end(), e[i]) - bases_.begin() - 1);
        const auto& map = block_types_[b]->side_to_facet;
        const std::int64_t offset = shell_side_offset(b);
        if (map.empty() || s[i] < offset) {
          representable = false;  // beams, spheres, the faces of shells: no facet to map to
          break;
        }
        if (s[i] - offset >= static_cast<std::int64_t>(map.size()))
          f_.fail("variable " + sv + ": entry " + std::to_string(i + 1) + " " +
                  expected_found("a side in 1.." + std::to_string(map.size() + static_cast<std::size_t>(offset)) +
                                     " for " + std::string(block_types_[b]->exodus),
                                 std::to_string(s[i] + 1)));
        out[2 * i] = e[i];
        out[2 * i + 1] = map[static_cast<std::size_t>(s[i] - offset)];
      }
      if (!representable) continue;
      Region r;
      const int id = k < ids.size() ? static_cast<int>(ids[k]) : static_cast<int>(k + 1);
      r.name = k < names.size() && !names[k].empty() ? names[k] : "surface_" + std::to_string(id);
      r.kind = RegionKind::side;
      r.tag = id;
      r.entries = std::move(entries);
      r.canonicalize();
      mesh_.regions.push_back(std::move(r));
    }
  }

  // In a 3-D file a 2-D element is a shell: its sides 1 and 2 are its two faces and its
  // edges are numbered from 3 (vtkExodusIIReader reads them so).
  std::int64_t shell_side_offset(std::size_t block) const {
    return num_dim_ == 3 && cell_type(block_types_[block]->meshio).dim == 2 ? 2 : 0;
  }

  void read_time_and_variables() {
    const std::size_t num_steps = f_.dim_or_zero("time_step");
    if (auto v = f_.var("time_whole")) {
      const auto s = f_.shape(*v);
      if (s.size() != 1) f_.fail("variable time_whole: " + expected_found("1 dimension", std::to_string(s.size())));
      f_.fits(*v);
      NDArray t = NDArray::uninit(DType::float64, {s[0]});
      f_.read_last_axis(*v, {}, s[0], DType::float64, t.raw(), 1);
      mesh_.field_data["exodus:time_whole"] = std::move(t);
    }
    if (num_steps == 0) return;
    std::int64_t step = step_option_ < 0 ? static_cast<std::int64_t>(num_steps) + step_option_ : step_option_;
    if (step < 0 || step >= static_cast<std::int64_t>(num_steps))
      f_.fail("option step=" + std::to_string(step_option_) + ": " +
              expected_found("a step in 0.." + std::to_string(num_steps - 1) + " (or -" + std::to_string(num_steps) +
                                 "..-1)",
                             std::to_string(step_option_)));
    step_ = static_cast<std::size_t>(step);
    read_nodal_variables();
    read_element_variables();
    read_global_variables();
  }

  // Checks a (time_step, <n>) variable and returns its id.
  int step_variable(const std::string& name, std::size_t n, const std::string& what) const {
    const int v = f_.require_var(name, what);
    const auto s = f_.shape(v);
    if (s.size() != 2 || s[1] != n || s[0] <= step_)
      f_.fail("variable " + name + ": " +
              expected_found("shape (time_step > " + std::to_string(step_) + ", " + std::to_string(n) + ")",
                             "another shape"));
    f_.fits(v);
    return v;
  }

  void read_nodal_variables() {
    const auto names = f_.strings("name_nod_var");
    if (names.empty()) return;
    const auto one = f_.var("vals_nod_var");  // the old layout: (time_step, num_nod_var, num_nodes)
    std::vector<int> vars;  // per name: the variable (one var: the same id for all)
    std::vector<std::vector<std::size_t>> shapes;
    for (std::size_t k = 0; k < names.size(); ++k) {
      if (one) {
        if (k == 0) {
          const auto s = f_.shape(*one);
          if (s.size() != 3 || s[1] != names.size() || s[2] != num_nodes_ || s[0] <= step_)
            f_.fail("variable vals_nod_var: " + expected_found("shape (time_step, num_nod_var, num_nodes)", "another shape"));
          f_.fits(*one);
        }
        vars.push_back(*one);
        shapes.push_back({num_nodes_});
        continue;
      }
      const std::string name = "vals_nod_var" + std::to_string(k + 1);
      const int v = f_.require_var(name, "nodal variable '" + names[k] + "'");
      auto s = f_.shape(v);
      // meshio writes multi-dimensional point data as (time_step, num_nodes, k, ...).
      if (s.size() < 2 || s[1] != num_nodes_ || s[0] <= step_)
        f_.fail("variable " + name + ": " + expected_found("shape (time_step > " + std::to_string(step_) + ", num_nodes = " +
                                                               std::to_string(num_nodes_) + ", ...)",
                                                           "another shape"));
      f_.fits(v);
      vars.push_back(v);
      shapes.emplace_back(s.begin() + 1, s.end());
    }
    for (const auto& group : categorize(names)) {
      bool plain = true;
      for (std::size_t m : group.members) plain = plain && shapes[m].size() == 1;
      if (group.members.size() > 1 && plain) {
        DType dtype = f_.numeric_dtype(vars[group.members[0]]);
        for (std::size_t m : group.members) dtype = common_float(dtype, f_.numeric_dtype(vars[m]));
        const std::size_t w = group.members.size();
        NDArray a = NDArray::uninit(dtype, {num_nodes_, w});
        for (std::size_t c = 0; c < w; ++c)
          read_nodal(vars[group.members[c]], group.members[c], !!one, dtype,
                     static_cast<unsigned char*>(a.raw()) + c * dtype_size(dtype), w);
        mesh_.point_data[group.name] = std::move(a);
        continue;
      }
      for (std::size_t m : group.members) {
        const DType dtype = f_.numeric_dtype(vars[m]);
        NDArray a = NDArray::uninit(dtype, shapes[m]);
        if (shapes[m].size() == 1) {
          read_nodal(vars[m], m, !!one, dtype, a.raw(), 1);
        } else if (a.size() > 0) {
          std::vector<std::size_t> start(shapes[m].size() + 1, 0), count = {1};
          start[0] = step_;
          count.insert(count.end(), shapes[m].begin(), shapes[m].end());
          f_.uncached(vars[m]);
          f_.check(nc::get_vara(f_.id(), vars[m], start.data(), count.data(), dtype, a.raw()),
                   "variable " + f_.var_name(vars[m]));
        }
        mesh_.point_data[names[m]] = std::move(a);
      }
    }
  }

  void read_nodal(int varid, std::size_t index, bool old_layout, DType dtype, void* out, std::size_t stride) const {
    if (old_layout) f_.read_last_axis(varid, {step_, index}, num_nodes_, dtype, out, stride);
    else f_.read_last_axis(varid, {step_}, num_nodes_, dtype, out, stride);
  }

  void read_element_variables() {
    const auto names = f_.strings("name_elem_var");
    if (names.empty() || mesh_.cells.empty()) return;
    // Element variables are joined like nodal ones (<name>X/Y/Z, <name>_R/_Z), as VTK
    // joins them; a block the truth table leaves out holds NaN so the others keep their rows.
    for (const auto& group : categorize(names)) {
      const std::size_t w = group.members.size();
      std::vector<std::vector<int>> ids(mesh_.cells.size(), std::vector<int>(w, -1));
      bool any = false;
      DType dtype = DType::float64;
      bool first = true;
      for (std::size_t b = 0; b < mesh_.cells.size(); ++b)
        for (std::size_t c = 0; c < w; ++c) {
          const std::size_t v = group.members[c];
          const std::string name = "vals_elem_var" + std::to_string(v + 1) + "eb" + std::to_string(block_exodus_index_[b] + 1);
          if (!f_.var(name)) continue;
          ids[b][c] = step_variable(name, mesh_.cells[b].size(), "element variable '" + names[v] + "'");
          const DType d = f_.numeric_dtype(ids[b][c]);
          dtype = first ? d : (d == dtype ? d : common_float(d, dtype));
          first = false;
          any = true;
        }
      if (!any) continue;
      bool complete = true;
      for (const auto& row : ids)
        for (int id : row) complete = complete && id >= 0;
      if (!complete) dtype = common_float(dtype, DType::float64);
      std::vector<NDArray> per_block;
      for (std::size_t b = 0; b < mesh_.cells.size(); ++b) {
        const std::size_t m = mesh_.cells[b].size();
        NDArray a = w == 1 ? NDArray::uninit(dtype, {m}) : NDArray::uninit(dtype, {m, w});
        for (std::size_t c = 0; c < w; ++c) {
          void* out = static_cast<unsigned char*>(a.raw()) + c * dtype_size(dtype);
          if (ids[b][c] >= 0) {
            f_.read_last_axis(ids[b][c], {step_}, m, dtype, out, w);
          } else {
            double* p = static_cast<double*>(out);
            for (std::size_t i = 0; i < m; ++i) p[i * w] = std::numeric_limits<double>::quiet_NaN();
          }
        }
        per_block.push_back(std::move(a));
      }
      mesh_.cell_data[group.name] = std::move(per_block);
    }
  }

  void read_global_variables() {
    const auto names = f_.strings("name_glo_var");
    if (names.empty()) return;
    const int v = step_variable("vals_glo_var", names.size(), "global variables");
    std::vector<double> values(names.size());
    f_.read_last_axis(v, {step_}, names.size(), DType::float64, values.data(), 1);
    for (std::size_t i = 0; i < names.size(); ++i)
      if (!names[i].empty()) mesh_.field_data[names[i]] = NDArray::from_vector<double>({values[i]});
  }

  void read_records() {
    if (auto qa = f_.chars("qa_records")) {
      if (qa->ndim() != 3 || qa->dim(1) != 4) f_.fail("variable qa_records: " + expected_found("shape (num_qa_rec, four, len_string)", "another shape"));
      mesh_.field_data["exodus:qa_records"] = std::move(*qa);
    }
    if (auto info = f_.chars("info_records")) {
      if (info->ndim() != 2) f_.fail("variable info_records: " + expected_found("shape (num_info, len_line)", "another shape"));
      mesh_.field_data["exodus:info_records"] = std::move(*info);
    }
    if (auto names = f_.chars("coor_names")) {
      if (names->ndim() != 2) f_.fail("variable coor_names: " + expected_found("shape (num_dim, len_name)", "another shape"));
      mesh_.field_data["exodus:coor_names"] = std::move(*names);
    }
  }

  File f_;
  long long step_option_ = 0;
  std::size_t step_ = 0;
  std::size_t num_nodes_ = 0, num_dim_ = 0;
  Mesh mesh_;
  std::vector<const ElementType*> block_types_;
  std::vector<std::size_t> block_exodus_index_;
  std::vector<std::int64_t> bases_ = {0};
};

}  // namespace

Mesh read_exodus(const std::string& path, const Options& options) {
  std::lock_guard<std::recursive_mutex> lock(io::hdf5_netcdf_mutex());
  Reader reader(path, options);
  return reader.read();
}

}  // namespace meshioplusplus::exodus

#endif  // MESHIOPP_HAVE_NETCDF
