// meshio++ core I/O: the HDF5 toolkit (see hdf5.hpp). Spec: the HDF5 C API reference,
// https://docs.hdfgroup.org/hdf5/v1_10/
#ifdef MESHIOPP_HAVE_HDF5

#include "core/io/hdf5.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/codec/zlib.hpp"
#include "core/io/file.hpp"
#include "core/io/library_lock.hpp"
#include "core/parallel.hpp"
#include "meshioplusplus/errors.hpp"

namespace meshioplusplus::io::hdf5 {

namespace {

// HDF5 may hold at most 32 dimensions; meshes use 1 to 3.
constexpr int kMaxRank = 32;
// A filtered (deflated) dataset may expand at most this much: deflate's own limit is
// about 1032:1.
constexpr std::uint64_t kMaxExpansion = 1100;
// Attributes are small metadata; more than this is a lie.
constexpr std::size_t kMaxAttributeBytes = std::size_t(1) << 26;

herr_t innermost(unsigned, const H5E_error2_t* err, void* out) {
  auto* message = static_cast<std::string*>(out);
  if (err && err->desc && *err->desc) *message = err->desc;  // walked downward: the last one is the innermost
  return 0;
}

hid_t native_type(DType dtype) {
  switch (dtype) {
    case DType::int8: return H5T_NATIVE_INT8;
    case DType::int16: return H5T_NATIVE_INT16;
    case DType::int32: return H5T_NATIVE_INT32;
    case DType::int64: return H5T_NATIVE_INT64;
    case DType::uint8: return H5T_NATIVE_UINT8;
    case DType::uint16: return H5T_NATIVE_UINT16;
    case DType::uint32: return H5T_NATIVE_UINT32;
    case DType::uint64: return H5T_NATIVE_UINT64;
    case DType::float32: return H5T_NATIVE_FLOAT;
    case DType::float64: break;
  }
  return H5T_NATIVE_DOUBLE;
}

// Little-endian file types: the same bytes on every host.
hid_t file_type(DType dtype) {
  switch (dtype) {
    case DType::int8: return H5T_STD_I8LE;
    case DType::int16: return H5T_STD_I16LE;
    case DType::int32: return H5T_STD_I32LE;
    case DType::int64: return H5T_STD_I64LE;
    case DType::uint8: return H5T_STD_U8LE;
    case DType::uint16: return H5T_STD_U16LE;
    case DType::uint32: return H5T_STD_U32LE;
    case DType::uint64: return H5T_STD_U64LE;
    case DType::float32: return H5T_IEEE_F32LE;
    case DType::float64: break;
  }
  return H5T_IEEE_F64LE;
}

// The dtype of a file's integer or float type; nullopt for anything else.
std::optional<DType> dtype_of_type(hid_t type) {
  const H5T_class_t cls = H5Tget_class(type);
  const std::size_t size = H5Tget_size(type);
  if (cls == H5T_INTEGER) {
    const bool is_signed = H5Tget_sign(type) == H5T_SGN_2;
    switch (size) {
      case 1: return is_signed ? DType::int8 : DType::uint8;
      case 2: return is_signed ? DType::int16 : DType::uint16;
      case 4: return is_signed ? DType::int32 : DType::uint32;
      case 8: return is_signed ? DType::int64 : DType::uint64;
      default: return std::nullopt;
    }
  }
  if (cls == H5T_FLOAT) {
    if (size == 4) return DType::float32;
    if (size == 8) return DType::float64;
  }
  return std::nullopt;
}

std::string type_description(hid_t type) {
  const H5T_class_t cls = H5Tget_class(type);
  const char* name = cls == H5T_INTEGER ? "integer" : cls == H5T_FLOAT ? "float" : cls == H5T_STRING ? "string"
                   : cls == H5T_COMPOUND ? "compound" : cls == H5T_ENUM ? "enum" : cls == H5T_ARRAY ? "array"
                   : cls == H5T_VLEN ? "variable-length" : cls == H5T_REFERENCE ? "reference" : "opaque";
  return std::string(name) + " of " + std::to_string(H5Tget_size(type)) + " bytes";
}

// The dataspace's shape ((1,) for a scalar, (0,) for a null space) and its element count.
NDArray::Shape shape_of(const Context& ctx, hid_t space, const std::string& what) {
  const H5S_class_t cls = H5Sget_simple_extent_type(space);
  if (cls == H5S_SCALAR) return {1};
  if (cls == H5S_NULL) return {0};
  const int rank = H5Sget_simple_extent_ndims(space);
  if (rank < 0 || rank > kMaxRank) fail(ctx, what + ": cannot read its dataspace");
  hsize_t dims[kMaxRank];
  if (H5Sget_simple_extent_dims(space, dims, nullptr) < 0) fail(ctx, what + ": cannot read its dataspace");
  if (rank == 0) return {1};
  return NDArray::Shape(dims, dims + rank);
}

std::uint64_t byte_count(const Context& ctx, const NDArray::Shape& shape, std::size_t item, const std::string& what) {
  std::uint64_t n = item;
  for (std::size_t d : shape) {
    if (d != 0 && n > (std::uint64_t(1) << 62) / d) fail(ctx, what + ": its declared size overflows");
    n *= d;
  }
  return n;
}

Handle link_create_plist() {
  Handle lcpl(H5Pcreate(H5P_LINK_CREATE), H5Pclose);
  if (lcpl) H5Pset_create_intermediate_group(lcpl.get(), 1);
  return lcpl;
}

// Creation properties of a group or dataset (`cls`: H5P_GROUP_CREATE, H5P_DATASET_CREATE)
// without HDF5's default access/modification times in the object header: the same mesh
// then gives the same bytes whenever it is written (and writes running in parallel equal
// the sequential ones), as every other writer of ours does. Empty when HDF5 refused.
Handle untimed_create_plist(hid_t cls) {
  Handle plist(H5Pcreate(cls), H5Pclose);
  if (plist && H5Pset_obj_track_times(plist.get(), 0) < 0) plist.reset();
  return plist;
}

}  // namespace

Session::Session() : lock_(hdf5_netcdf_mutex()) {
  H5Eget_auto2(H5E_DEFAULT, &old_func_, &old_data_);
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

Session::~Session() { H5Eset_auto2(H5E_DEFAULT, old_func_, old_data_); }

namespace {
// Regular files (device, inode) whose read failed inside HDF5 in this process. HDF5 1.10 can
// keep a corrupt file it failed to close open inside the library, and a later H5Fopen of the
// same file (the same device and inode, even rewritten since) then shares that stale state:
// such a file is opened from a copy of its bytes instead (open_file). Guarded by the HDF5 lock.
std::set<std::pair<dev_t, ino_t>>& failed_files() {
  static std::set<std::pair<dev_t, ino_t>> files;
  return files;
}
std::optional<std::pair<dev_t, ino_t>> file_identity(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return std::make_pair(st.st_dev, st.st_ino);
}
}  // namespace

void fail(const Context& ctx, std::string_view what) {
  if (!ctx.writing)
    if (const auto id = file_identity(ctx.path)) {
      const Session session;
      failed_files().insert(*id);
    }
  std::string message;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, &innermost, &message);
  H5Eclear2(H5E_DEFAULT);
  std::string text(what);
  if (!message.empty()) text += " (HDF5: " + message + ")";
  if (ctx.writing) throw write_error(ctx.format, ctx.path, text);
  throw read_error(ctx.format, ctx.path, text);
}

Handle open_file(const Context& ctx, hid_t access) {
  Session session;
  if (const auto id = file_identity(ctx.path); access == H5P_DEFAULT && id && failed_files().count(*id)) {
    const FileBytes bytes(ctx.path, ctx.format);
    return open_file_image(ctx, bytes.data(), bytes.size());
  }
  std::error_code ec;
  if (std::filesystem::is_regular_file(ctx.path, ec) && std::filesystem::file_size(ctx.path, ec) == 0 && !ec)
    fail(ctx, "cannot open as an HDF5 file: it is empty");  // as open_file_image says
  Handle file(H5Fopen(ctx.path.c_str(), H5F_ACC_RDONLY, access), H5Fclose);
  if (!file) fail(ctx, "cannot open as an HDF5 file");
  const FileBytes bytes(ctx.path, ctx.format, /*populate=*/false);  // mapped lazily: only the object headers' pages are read
  check_layouts(ctx, file.get(), bytes.data(), bytes.size());
  return file;
}

Handle create_file(const Context& ctx, const std::string& path, hid_t access) {
  Session session;
  Handle file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access), H5Fclose);
  if (!file) fail(ctx, "cannot create the HDF5 file " + path);
  return file;
}

Handle open_file_image(const Context& ctx, const void* data, std::size_t size) {
  Session session;
  if (size == 0) fail(ctx, "cannot open as an HDF5 file: it is empty");
  Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  if (!fapl || H5Pset_fapl_core(fapl.get(), std::size_t(1) << 20, /*backing_store=*/0) < 0 ||
      H5Pset_file_image(fapl.get(), const_cast<void*>(data), size) < 0)
    fail(ctx, "cannot set up an HDF5 file in memory");
  // HDF5 1.10's core driver still open()s a file of the name given (blocking on a pipe
  // with no writer left): the image gets a name of its own, new for each open (HDF5 shares
  // an open file by name, and may hold one it failed to close: see failed_files()).
  static std::atomic<unsigned long long> images{0};
  const std::string name = ctx.path + ":meshioplusplus-image-" + std::to_string(++images);
  Handle file(H5Fopen(name.c_str(), H5F_ACC_RDONLY, fapl.get()), H5Fclose);
  if (!file) fail(ctx, "cannot open as an HDF5 file");
  check_layouts(ctx, file.get(), data, size);
  return file;
}

Handle open_readable(const Context& ctx, std::size_t& file_bytes) {
  std::error_code ec;
  if (std::filesystem::is_regular_file(ctx.path, ec)) {
    const auto size = std::filesystem::file_size(ctx.path, ec);
    if (ec) throw read_error(ctx.format, ctx.path, "cannot open: " + ec.message());
    file_bytes = static_cast<std::size_t>(size);
    return open_file(ctx);
  }
  const FileBytes bytes(ctx.path, ctx.format);
  file_bytes = bytes.size();
  return open_file_image(ctx, bytes.data(), bytes.size());
}

std::string shape_text(const NDArray::Shape& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

std::size_t array_bytes(const Mesh& mesh) {
  std::size_t n = mesh.points.nbytes();
  for (const CellBlock& c : mesh.cells) n += c.connectivity.nbytes() + c.offsets.nbytes() + c.face_offsets.nbytes() + c.indices.nbytes();
  for (const auto& [name, a] : mesh.point_data) n += a.nbytes();
  for (const auto& [name, list] : mesh.cell_data)
    for (const NDArray& a : list) n += a.nbytes();
  for (const auto& [name, a] : mesh.field_data) n += a.nbytes();
  for (const Region& r : mesh.regions) n += r.entries.nbytes();
  return n;
}

FileInMemory::FileInMemory(const Context& ctx, std::size_t expected_bytes, bool track_order) : ctx_(ctx) {
  Session session;
  Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  if (!fapl || H5Pset_fclose_degree(fapl.get(), H5F_CLOSE_STRONG) < 0) fail(ctx, "cannot set up an HDF5 file in memory");
  std::string name;
  if (io::MemoryFile::available(expected_bytes)) {
    memory_ = std::make_unique<io::MemoryFile>(ctx.format, ctx.path);
    name = memory_->path();
  } else {
    if (H5Pset_fapl_core(fapl.get(), std::size_t(1) << 24, /*backing_store=*/0) < 0) fail(ctx, "cannot set up an HDF5 file in memory");
    name = ctx.path + ":meshioplusplus-image";  // never touched on disk (see open_file_image)
  }
  Handle fcpl(H5Pcreate(H5P_FILE_CREATE), H5Pclose);
  if (!fcpl || (track_order && H5Pset_link_creation_order(fcpl.get(), H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED) < 0))
    fail(ctx, "cannot set up an HDF5 file in memory");
  file_ = Handle(H5Fcreate(name.c_str(), H5F_ACC_TRUNC, fcpl.get(), fapl.get()), H5Fclose);
  if (memory_) memory_->unlink_name();
  if (!file_) fail(ctx, "cannot create an HDF5 file in memory");
}

FileInMemory::~FileInMemory() {
  Session session;
  file_.reset();
}

void FileInMemory::write_to(io::AtomicFile& target) {
  Session session;
  if (memory_) {
    if (H5Fclose(file_.release()) < 0) fail(ctx_, "cannot close the HDF5 file built in memory");
    target.write_from(*memory_);
    return;
  }
  if (H5Fflush(file_.get(), H5F_SCOPE_GLOBAL) < 0) fail(ctx_, "cannot flush the HDF5 file");
  const ssize_t size = H5Fget_file_image(file_.get(), nullptr, 0);
  if (size < 0) fail(ctx_, "cannot get the HDF5 file's image");
  // Not zeroed first: HDF5 fills it.
  const std::unique_ptr<unsigned char[]> image(new unsigned char[static_cast<std::size_t>(size)]);
  if (size > 0 && H5Fget_file_image(file_.get(), image.get(), static_cast<std::size_t>(size)) != size)
    fail(ctx_, "cannot get the HDF5 file's image");
  file_.reset();
  target.write(image.get(), static_cast<std::size_t>(size));
}

Handle open_group(const Context& ctx, hid_t loc, const std::string& path) {
  Session session;
  Handle group(H5Gopen2(loc, path.c_str(), H5P_DEFAULT), H5Gclose);
  if (!group) fail(ctx, "cannot open the group " + path);
  return group;
}

Handle create_group(const Context& ctx, hid_t loc, const std::string& path, bool track_order) {
  Session session;
  Handle lcpl = link_create_plist();
  Handle gcpl = untimed_create_plist(H5P_GROUP_CREATE);
  if (!gcpl || (track_order && H5Pset_link_creation_order(gcpl.get(), H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED) < 0))
    fail(ctx, "cannot set up the group " + path);
  Handle group(H5Gcreate2(loc, path.c_str(), lcpl.get(), gcpl.get(), H5P_DEFAULT), H5Gclose);
  if (!group) fail(ctx, "cannot create the group " + path);
  return group;
}

bool exists(hid_t loc, const std::string& path) {
  Session session;
  std::string prefix;
  std::size_t start = 0;
  if (!path.empty() && path[0] == '/') {
    prefix = "/";
    start = 1;
  }
  while (start <= path.size()) {
    std::size_t cut = path.find('/', start);
    if (cut == std::string::npos) cut = path.size();
    if (cut > start) {
      prefix += path.substr(start, cut - start);
      const htri_t there = H5Lexists(loc, prefix.c_str(), H5P_DEFAULT);
      if (there <= 0) {
        H5Eclear2(H5E_DEFAULT);
        return false;
      }
      prefix += "/";
    }
    start = cut + 1;
  }
  return true;
}

namespace {

// A chunked dataset's grid of chunks: its dimensions, the chunk's, and chunk k's offset
// (its first value's coordinates), chunks in row-major order of the grid.
struct ChunkGrid {
  int rank = 0;
  hsize_t dims[kMaxRank] = {}, chunk[kMaxRank] = {};

  // False when `dataset` is not chunked or HDF5 cannot say its dimensions or chunk.
  bool load(hid_t dataset, hid_t dcpl) {
    if (H5Pget_layout(dcpl) != H5D_CHUNKED) return false;
    Handle space(H5Dget_space(dataset), H5Sclose);
    rank = space ? H5Sget_simple_extent_ndims(space.get()) : -1;
    if (rank < 1 || rank > kMaxRank) return false;
    if (H5Sget_simple_extent_dims(space.get(), dims, nullptr) != rank || H5Pget_chunk(dcpl, rank, chunk) != rank) return false;
    for (int d = 0; d < rank; ++d)
      if (chunk[d] == 0) return false;
    return true;
  }
  std::uint64_t count() const {
    std::uint64_t n = 1;
    for (int d = 0; d < rank; ++d) n *= (dims[d] + chunk[d] - 1) / chunk[d];
    return n;
  }
  void offset_of(std::uint64_t k, hsize_t* at) const {
    for (int d = rank - 1; d >= 0; --d) {
      const std::uint64_t across = (dims[d] + chunk[d] - 1) / chunk[d];
      at[d] = (k % across) * chunk[d];
      k /= across;
    }
  }
  std::string describe(const hsize_t* at) const {
    std::string t = "(";
    for (int d = 0; d < rank; ++d) t += (d ? ", " : "") + std::to_string(at[d]);
    return t + ")";
  }
};

// A chunked dataset without filters stores each chunk whole; HDF5 1.10 reads a chunk the
// index records as shorter through a buffer of the recorded size and copies the whole chunk
// out of it (a heap over-read: the filter pipeline message of a compressed dataset zeroed,
// under HmfHostile). Each written chunk's recorded size is checked before HDF5 reads one.
void check_unfiltered_chunks(const Context& ctx, hid_t dataset, hid_t dcpl, std::size_t element, const std::string& what) {
  if (H5Pget_nfilters(dcpl) != 0) return;
  ChunkGrid grid;
  if (!grid.load(dataset, dcpl)) return;
  std::uint64_t chunk_bytes = element;
  for (int d = 0; d < grid.rank; ++d) chunk_bytes *= grid.chunk[d];
  const std::uint64_t chunks = grid.count();
  for (std::uint64_t k = 0; k < chunks; ++k) {
    hsize_t at[kMaxRank];
    grid.offset_of(k, at);
    // The size the chunk index records (H5Dget_chunk_storage_size answers the nominal
    // chunk size for an unfiltered dataset instead).
    unsigned mask = 0;
    haddr_t address = HADDR_UNDEF;
    hsize_t bytes = 0;
    if (H5Dget_chunk_info_by_coord(dataset, at, &mask, &address, &bytes) < 0) {
      H5Eclear2(H5E_DEFAULT);
      continue;  // not written: HDF5 reads fill values
    }
    if (address != HADDR_UNDEF && bytes != chunk_bytes)
      fail(ctx, what + ", chunk at " + grid.describe(at) + ": stored unfiltered in " + std::to_string(bytes) + " bytes, not " +
                    std::to_string(chunk_bytes));
  }
}

// An opened dataset whose dtype, shape and declared size read_dataset accepts.
struct Checked {
  Handle dataset;
  DType dtype = DType::float64;
  NDArray::Shape shape;       // the dataspace's, then an array type's dimensions
  Handle memory_type;         // set for an array type: the native array to read into
};

Checked open_checked(const Context& ctx, hid_t loc, const std::string& path, std::size_t file_bytes,
                     bool array_members = false) {
  const std::string what = "dataset " + path;
  if (!exists(loc, path)) fail(ctx, what + ": no such dataset");
  Checked c;
  c.dataset = Handle(H5Dopen2(loc, path.c_str(), H5P_DEFAULT), H5Dclose);
  if (!c.dataset) fail(ctx, "cannot open " + what);
  Handle type(H5Dget_type(c.dataset.get()), H5Tclose);
  if (!type) fail(ctx, what + ": cannot read its type");
  NDArray::Shape member_dims;
  if (array_members && H5Tget_class(type.get()) == H5T_ARRAY) {
    const int rank = H5Tget_array_ndims(type.get());
    hsize_t dims[kMaxRank];
    if (rank < 1 || rank > kMaxRank || H5Tget_array_dims2(type.get(), dims) != rank)
      fail(ctx, what + ": cannot read the dimensions of its array type");
    member_dims.assign(dims, dims + rank);
    type = Handle(H5Tget_super(type.get()), H5Tclose);
    if (!type) fail(ctx, what + ": cannot read the base of its array type");
  }
  const std::optional<DType> dtype = dtype_of_type(type.get());
  if (!dtype) fail(ctx, what + ": " + expected_found("an integer or float type of 1, 2, 4 or 8 bytes", type_description(type.get())));
  c.dtype = *dtype;
  Handle space(H5Dget_space(c.dataset.get()), H5Sclose);
  if (!space) fail(ctx, what + ": cannot read its dataspace");
  c.shape = shape_of(ctx, space.get(), what);
  if (!member_dims.empty()) {
    std::vector<hsize_t> dims(member_dims.begin(), member_dims.end());
    c.memory_type = Handle(H5Tarray_create2(native_type(c.dtype), static_cast<unsigned>(dims.size()), dims.data()), H5Tclose);
    if (!c.memory_type) fail(ctx, what + ": cannot make the memory type of its array type");
    c.shape.insert(c.shape.end(), member_dims.begin(), member_dims.end());
  }
  const std::uint64_t nbytes = byte_count(ctx, c.shape, dtype_size(c.dtype), what);

  // What the file can hold, before allocating: external storage (other files) is refused;
  // the bytes stored must be in the file; the declared size must come from them.
  Handle dcpl(H5Dget_create_plist(c.dataset.get()), H5Pclose);
  if (!dcpl) fail(ctx, what + ": cannot read its creation properties");
  if (H5Pget_external_count(dcpl.get()) != 0) fail(ctx, what + ": external storage (data in other files) is not read");
  const int filters = H5Pget_nfilters(dcpl.get());
  const std::uint64_t stored = H5Dget_storage_size(c.dataset.get());
  if (stored > file_bytes)
    fail(ctx, what + ": declares " + std::to_string(stored) + " stored bytes but the file has " + std::to_string(file_bytes));
  const std::uint64_t limit = std::max<std::uint64_t>(filters > 0 ? stored * kMaxExpansion : stored, file_bytes);
  if (nbytes > limit)
    fail(ctx, what + ": declares " + std::to_string(nbytes) + " bytes of values but stores " + std::to_string(stored));
  Handle file_type(H5Dget_type(c.dataset.get()), H5Tclose);
  if (!file_type) fail(ctx, what + ": cannot read its type");
  check_unfiltered_chunks(ctx, c.dataset.get(), dcpl.get(), H5Tget_size(file_type.get()), what);
  return c;
}

// Rows [first, first + shape[0]) of `dataset` (its trailing dimensions `shape`'s): the
// file's dataspace with that hyperslab selected (a scalar dataspace as it is) and a memory
// dataspace of `shape`. False when HDF5 refused either.
struct RowSelection {
  Handle file, memory;
  explicit operator bool() const { return file && memory; }
};

RowSelection select_rows(hid_t dataset, std::uint64_t first, const NDArray::Shape& shape) {
  RowSelection sel{Handle(H5Dget_space(dataset), H5Sclose), Handle()};
  std::vector<hsize_t> start(shape.size(), 0), counts(shape.begin(), shape.end());
  start[0] = first;
  sel.memory = Handle(H5Screate_simple(static_cast<int>(counts.size()), counts.data(), nullptr), H5Sclose);
  if (!shape.empty() && shape[0] == 0) {  // no rows: nothing selected (a collective call still takes part)
    if (sel.file && H5Sselect_none(sel.file.get()) < 0) sel.file.reset();
    if (sel.memory && H5Sselect_none(sel.memory.get()) < 0) sel.memory.reset();
    return sel;
  }
  if (sel.file && H5Sget_simple_extent_type(sel.file.get()) == H5S_SIMPLE &&
      H5Sselect_hyperslab(sel.file.get(), H5S_SELECT_SET, start.data(), nullptr, counts.data(), nullptr) < 0)
    sel.file.reset();
  return sel;
}

// HDF5's shuffle filter undone: `element` planes of bytes back into values.
void unshuffle_bytes(const unsigned char* in, std::size_t nbytes, std::size_t element, unsigned char* out) {
  const std::size_t values = nbytes / element;
  for (std::size_t b = 0; b < element; ++b)
    for (std::size_t v = 0; v < values; ++v) out[v * element + b] = in[b * values + v];
  std::memcpy(out + values * element, in + values * element, nbytes - values * element);
}

// Compressed chunks read per batch before they are inflated on every core: bounds the
// memory the compressed bytes take beside the output (a read's peak stays near the arrays).
constexpr std::size_t kChunkBatchBytes = std::size_t{1} << 20;

// The whole dataset `c` into `out`, when it is chunked and compressed with deflate alone or
// shuffle + deflate, stored in the file's byte order as `out` holds it, and every chunk is
// there: each chunk's stored bytes fetched as they are (H5Dread_chunk), inflated on every
// core by the codec VTU uses (libdeflate where the build has it) and copied into place.
// HDF5's own pipeline inflates one chunk at a time with zlib (about 225 MB/s here) and
// copies each value of a chunk that is not whole rows on its own. False when the dataset
// is not such a one; HDF5 reads it then.
bool read_compressed_chunks(const Context& ctx, const Checked& c, const std::string& path, std::size_t file_bytes,
                            NDArray& out) {
  if constexpr (std::endian::native != std::endian::little) return false;
  if (!codec::zlib_available() || out.size() == 0) return false;
  const hid_t dataset = c.dataset.get();
  Handle dcpl(H5Dget_create_plist(dataset), H5Pclose);
  if (!dcpl || H5Pget_layout(dcpl.get()) != H5D_CHUNKED) return false;
  const int filters = H5Pget_nfilters(dcpl.get());
  bool shuffle = false;
  for (int f = 0; f < filters; ++f) {
    unsigned flags = 0;
    std::size_t n = 0;
    const H5Z_filter_t id = H5Pget_filter2(dcpl.get(), static_cast<unsigned>(f), &flags, &n, nullptr, 0, nullptr, nullptr);
    if (id == H5Z_FILTER_SHUFFLE && f == 0 && filters == 2) shuffle = true;
    else if (id != H5Z_FILTER_DEFLATE || f != filters - 1) return false;
  }
  if (filters < 1) return false;
  // The file's element: the values' type in little-endian order (an array type's base).
  Handle type(H5Dget_type(dataset), H5Tclose);
  if (!type) return false;
  const std::size_t element = H5Tget_size(type.get());
  Handle base(H5Tget_class(type.get()) == H5T_ARRAY ? H5Tget_super(type.get()) : H5Tcopy(type.get()), H5Tclose);
  if (!base || (H5Tget_class(base.get()) != H5T_INTEGER && H5Tget_class(base.get()) != H5T_FLOAT) ||
      H5Tget_order(base.get()) != H5T_ORDER_LE || H5Tget_size(base.get()) != dtype_size(c.dtype) ||
      H5Tequal(base.get(), native_type(c.dtype)) <= 0)
    return false;
  ChunkGrid grid;
  if (!grid.load(dataset, dcpl.get())) return false;
  const int rank = grid.rank;
  const hsize_t *dims = grid.dims, *chunk = grid.chunk;
  const std::uint64_t chunks = grid.count();
  std::uint64_t values = 1, chunk_bytes = element;
  for (int d = 0; d < rank; ++d) {
    values *= dims[d];
    if (chunk_bytes > (std::uint64_t{1} << 40) / chunk[d]) return false;
    chunk_bytes *= chunk[d];
  }
  if (values * element != out.nbytes()) return false;
  struct Stored {
    std::uint64_t index;
    std::size_t begin, size;
    std::uint32_t mask;  // filters skipped for this chunk (bit f: filter f)
  };
  auto* o = static_cast<unsigned char*>(out.raw());
  // Column chunks ((n, 1) chunks of an (n, k) table, as MOAB and meshio's HMF write): the k
  // chunks of one block of rows are one work item, decoded one after the other and copied
  // into their column of the block, so the block's lines are written k times while they
  // are still in the core's cache, not k times from memory by chunks decoded far apart.
  const bool columns = rank == 2 && chunk[1] == 1 && dims[1] > 1 && dims[1] <= 16 && (element == 4 || element == 8);
  const std::size_t group = columns ? static_cast<std::size_t>(dims[1]) : 1;  // chunks per work item
  std::vector<unsigned char> batch;
  batch.reserve(kChunkBatchBytes);  // grown only by a chunk that does not fit (no doubling copies)
  std::vector<Stored> stored;
  const std::string what = "dataset " + path;
  // Chunk `st` inflated and unshuffled: its chunk_bytes bytes, in `plain` or `spare`.
  const auto decode = [&](const Stored& st, unsigned char* plain, unsigned char* spare) -> const unsigned char* {
    hsize_t at[kMaxRank];
    grid.offset_of(st.index, at);
    auto where = [&] { return grid.describe(at); };
    const unsigned char* src = batch.data() + st.begin;
    const bool deflated = !(st.mask & (1u << (filters - 1))), shuffled = shuffle && !(st.mask & 1u);
    if (deflated && chunk_bytes / kMaxExpansion > st.size)
      throw read_error(ctx.format, ctx.path, what + ", chunk at " + where() + ": declares " + std::to_string(chunk_bytes) +
                                                 " bytes but stores " + std::to_string(st.size));
    const auto n = static_cast<std::size_t>(chunk_bytes);
    if (deflated) {
      const std::string err = codec::zlib_inflate(src, st.size, plain, n);
      if (!err.empty()) throw read_error(ctx.format, ctx.path, what + ", chunk at " + where() + ": " + err);
    } else if (st.size == n) {
      std::memcpy(plain, src, n);
    } else {
      throw read_error(ctx.format, ctx.path, what + ", chunk at " + where() + ": stored unfiltered in " + std::to_string(st.size) +
                                                 " bytes, not " + std::to_string(n));
    }
    if (!shuffled) return plain;
    unshuffle_bytes(plain, n, element, spare);
    return spare;
  };
  for (std::uint64_t next = 0; next < chunks;) {
    // Fetch chunks up to the batch's size (at least one work item: `group` chunks).
    batch.clear(), stored.clear();
    while (next < chunks && (stored.empty() || batch.size() < kChunkBatchBytes || next % group != 0)) {
      hsize_t at[kMaxRank];
      grid.offset_of(next, at);
      hsize_t bytes = 0;
      if (H5Dget_chunk_storage_size(dataset, at, &bytes) < 0 || bytes == 0) {
        H5Eclear2(H5E_DEFAULT);
        return false;  // a chunk never written: HDF5 reads its fill values
      }
      if (bytes > file_bytes)
        fail(ctx, what + ": a chunk declares " + std::to_string(bytes) + " stored bytes but the file has " +
                      std::to_string(file_bytes));
      const std::size_t begin = batch.size();
      batch.resize(begin + bytes);
      std::uint32_t mask = 0;
      if (H5Dread_chunk(dataset, H5P_DEFAULT, at, &mask, batch.data() + begin) < 0) fail(ctx, "cannot read a chunk of " + what);
      stored.push_back({next, begin, static_cast<std::size_t>(bytes), mask});
      ++next;
    }
    const auto n = static_cast<std::size_t>(chunk_bytes);
    parallel_for(stored.size() / group, resolve_threads(0), [&](std::size_t item) {
      // Not zeroed first: every byte is written before it is read. The spare (where a chunk
      // is unshuffled) only where the dataset shuffles.
      const std::unique_ptr<unsigned char[]> buffers(new unsigned char[(shuffle ? 2 : 1) * n]);
      unsigned char* spare = shuffle ? buffers.get() + n : nullptr;
      if (columns) {
        // One block of rows: column c of the block from chunk item * group + c.
        hsize_t at[kMaxRank];
        grid.offset_of(stored[item * group].index, at);
        const std::size_t rows = static_cast<std::size_t>(std::min<hsize_t>(chunk[0], dims[0] - at[0]));
        for (std::size_t c = 0; c < group; ++c) {
          const unsigned char* plain = decode(stored[item * group + c], buffers.get(), spare);
          auto column = [&](auto tag) {
            using U = decltype(tag);
            U* dst = reinterpret_cast<U*>(o) + static_cast<std::size_t>(at[0]) * group + c;  // out is aligned for its dtype
            for (std::size_t r = 0; r < rows; ++r) std::memcpy(dst + r * group, plain + r * sizeof(U), sizeof(U));
          };
          element == 8 ? column(std::uint64_t{}) : column(std::uint32_t{});
        }
        return;
      }
      const Stored& st = stored[item];
      const unsigned char* plain = decode(st, buffers.get(), spare);
      hsize_t at[kMaxRank];
      grid.offset_of(st.index, at);
      // Copy the part inside the dataset, one run of the last dimension at a time.
      hsize_t extent[kMaxRank], pos[kMaxRank] = {};
      for (int d = 0; d < rank; ++d) extent[d] = std::min<hsize_t>(chunk[d], dims[d] - at[d]);
      const std::size_t run = static_cast<std::size_t>(extent[rank - 1]) * element;
      if (rank == 2 && extent[1] == 1 && (element == 4 || element == 8)) {
        // A column chunk of a table too wide for the blocks of rows above: a strided copy of
        // values, not a memcpy call per value.
        const std::size_t rows = static_cast<std::size_t>(extent[0]), stride = static_cast<std::size_t>(dims[1]),
                          chunk_stride = static_cast<std::size_t>(chunk[1]);  // an edge chunk keeps its full width
        const std::size_t first = static_cast<std::size_t>(at[0] * dims[1] + at[1]);
        auto strided = [&](auto tag) {
          using U = decltype(tag);
          U* dst = reinterpret_cast<U*>(o) + first;  // out is aligned for its dtype, element == its size
          for (std::size_t r = 0; r < rows; ++r) std::memcpy(dst + r * stride, plain + r * chunk_stride * sizeof(U), sizeof(U));
        };
        element == 8 ? strided(std::uint64_t{}) : strided(std::uint32_t{});
        return;
      }
      for (;;) {
        std::uint64_t from = 0, to = 0;
        for (int d = 0; d < rank; ++d) {
          from = from * chunk[d] + pos[d];
          to = to * dims[d] + at[d] + pos[d];
        }
        std::memcpy(o + to * element, plain + from * element, run);
        int d = rank - 2;
        while (d >= 0 && ++pos[d] == extent[d]) pos[d--] = 0;
        if (d < 0) break;
      }
    });
  }
  return true;
}

}  // namespace

NDArray read_dataset(const Context& ctx, hid_t loc, const std::string& path, std::size_t file_bytes) {
  Session session;
  Checked c = open_checked(ctx, loc, path, file_bytes);
  NDArray out = NDArray::uninit(c.dtype, c.shape);
  if (out.size() != 0 && !read_compressed_chunks(ctx, c, path, file_bytes, out) &&
      H5Dread(c.dataset.get(), native_type(c.dtype), H5S_ALL, H5S_ALL, H5P_DEFAULT, out.raw()) < 0)
    fail(ctx, "cannot read dataset " + path);
  return out;
}

DatasetPieces::DatasetPieces(const Context& ctx, hid_t loc, const std::string& path, std::size_t file_bytes)
    : ctx_(ctx), path_(path) {
  Checked c = open_checked(ctx, loc, path, file_bytes);
  dtype_ = c.dtype;
  size_ = 1;
  for (std::size_t d : c.shape) size_ *= d;
  Handle dcpl(H5Dget_create_plist(c.dataset.get()), H5Pclose);
  Handle space(H5Dget_space(c.dataset.get()), H5Sclose);
  pieces_ = dcpl && space && H5Pget_nfilters(dcpl.get()) == 0 && H5Sget_simple_extent_type(space.get()) == H5S_SIMPLE &&
            H5Sget_simple_extent_ndims(space.get()) == 1;
  dataset_ = std::move(c.dataset);
}

DatasetPieces::~DatasetPieces() = default;

void DatasetPieces::read(std::uint64_t first, std::uint64_t count, DType as, void* out) const {
  if (!pieces_) throw std::logic_error("DatasetPieces::read: " + path_ + " is not read in pieces");
  // A worker thread has no Session of its own (the caller's holds the library lock); in a
  // thread-safe HDF5 build (Debian's) the error printing is per thread: off here too.
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  if (first > size_ || count > size_ - first)
    fail(ctx_, "dataset " + path_ + ": values [" + std::to_string(first) + ", " + std::to_string(first + count) +
                   ") asked, it has " + std::to_string(size_));
  if (count == 0) return;
  const hsize_t start = first, n = count;
  Handle file(H5Dget_space(dataset_.get()), H5Sclose);
  Handle memory(H5Screate_simple(1, &n, nullptr), H5Sclose);
  if (!file || !memory || H5Sselect_hyperslab(file.get(), H5S_SELECT_SET, &start, nullptr, &n, nullptr) < 0 ||
      H5Dread(dataset_.get(), native_type(as), memory.get(), file.get(), H5P_DEFAULT, out) < 0)
    fail(ctx_, "cannot read dataset " + path_);
}

NDArray read_array_dataset(const Context& ctx, hid_t loc, const std::string& path, std::size_t file_bytes) {
  Session session;
  Checked c = open_checked(ctx, loc, path, file_bytes, /*array_members=*/true);
  NDArray out = NDArray::uninit(c.dtype, c.shape);
  const hid_t memory = c.memory_type ? c.memory_type.get() : native_type(c.dtype);
  if (out.size() != 0 && !read_compressed_chunks(ctx, c, path, file_bytes, out) &&
      H5Dread(c.dataset.get(), memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.raw()) < 0)
    fail(ctx, "cannot read dataset " + path);
  return out;
}

NDArray read_rows(const Context& ctx, hid_t loc, const std::string& path, std::uint64_t first, std::uint64_t count,
                  std::size_t file_bytes, hid_t transfer) {
  Session session;
  Checked c = open_checked(ctx, loc, path, file_bytes);
  const std::uint64_t rows = c.shape[0];
  if (first > rows || count > rows - first)
    fail(ctx, "dataset " + path + ": rows [" + std::to_string(first) + ", " + std::to_string(first + count) +
                  ") asked, it has " + std::to_string(rows));
  NDArray::Shape shape = c.shape;
  shape[0] = count;
  NDArray out = NDArray::uninit(c.dtype, shape);
  if (out.size() == 0 && transfer == H5P_DEFAULT) return out;
  RowSelection sel = select_rows(c.dataset.get(), first, shape);
  if (!sel) fail(ctx, "dataset " + path + ": cannot select rows");
  if (H5Dread(c.dataset.get(), native_type(c.dtype), sel.memory.get(), sel.file.get(), transfer, out.raw()) < 0)
    fail(ctx, "cannot read dataset " + path);
  return out;
}

NDArray::Shape dataset_shape(const Context& ctx, hid_t loc, const std::string& path) {
  Session session;
  if (!exists(loc, path)) fail(ctx, "dataset " + path + ": no such dataset");
  Handle dataset(H5Dopen2(loc, path.c_str(), H5P_DEFAULT), H5Dclose);
  if (!dataset) fail(ctx, "cannot open dataset " + path);
  Handle space(H5Dget_space(dataset.get()), H5Sclose);
  if (!space) fail(ctx, "dataset " + path + ": cannot read its dataspace");
  return shape_of(ctx, space.get(), "dataset " + path);
}

namespace {
struct NamesOfType {
  H5O_type_t type;
  std::vector<std::string> names;
};
herr_t add_name_of_type(hid_t group, const char* name, const H5L_info_t*, void* out) {
  auto* wanted = static_cast<NamesOfType*>(out);
  H5O_info_t info;
  if (H5Oget_info_by_name(group, name, &info, H5P_DEFAULT) >= 0 && info.type == wanted->type)
    wanted->names.emplace_back(name);
  return 0;
}
std::vector<std::string> names_of_type(const Context& ctx, hid_t loc, H5O_type_t type, const char* what,
                                       bool creation_order = false) {
  Session session;
  NamesOfType wanted{type, {}};
  hsize_t index = 0;
  if (creation_order && H5Literate(loc, H5_INDEX_CRT_ORDER, H5_ITER_INC, &index, &add_name_of_type, &wanted) >= 0) {
    H5Eclear2(H5E_DEFAULT);
    return std::move(wanted.names);
  }
  H5Eclear2(H5E_DEFAULT);  // not asked, or the group does not index creation order
  wanted.names.clear();
  index = 0;
  if (H5Literate(loc, H5_INDEX_NAME, H5_ITER_INC, &index, &add_name_of_type, &wanted) < 0)
    fail(ctx, std::string("cannot list the ") + what + " of a group");
  H5Eclear2(H5E_DEFAULT);
  return std::move(wanted.names);
}
}  // namespace

std::vector<std::string> dataset_names(const Context& ctx, hid_t loc) {
  return names_of_type(ctx, loc, H5O_TYPE_DATASET, "datasets");
}

std::vector<std::string> group_names(const Context& ctx, hid_t loc, bool creation_order) {
  return names_of_type(ctx, loc, H5O_TYPE_GROUP, "groups", creation_order);
}

bool is_numeric_dataset(const Context& ctx, hid_t loc, const std::string& path, bool array_members) {
  Session session;
  Handle dataset(H5Dopen2(loc, path.c_str(), H5P_DEFAULT), H5Dclose);
  if (!dataset) fail(ctx, "cannot open dataset " + path);
  Handle type(H5Dget_type(dataset.get()), H5Tclose);
  if (type && array_members && H5Tget_class(type.get()) == H5T_ARRAY) type = Handle(H5Tget_super(type.get()), H5Tclose);
  return type && dtype_of_type(type.get()).has_value();
}

Handle open_object(const Context& ctx, hid_t loc, const std::string& path) {
  Session session;
  if (!exists(loc, path)) fail(ctx, path + ": no such object");
  Handle object(H5Oopen(loc, path.c_str(), H5P_DEFAULT), H5Oclose);
  if (!object) fail(ctx, "cannot open " + path);
  return object;
}

Handle create_dataset(const Context& ctx, hid_t loc, const std::string& name, DType dtype, const NDArray::Shape& shape) {
  Session session;
  std::vector<hsize_t> dims(shape.begin(), shape.end());
  Handle space(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), H5Sclose);
  if (!space) fail(ctx, "cannot make the dataspace of dataset " + name);
  // Every row is written by the partitions: no fill values first (a second pass over the file).
  Handle dcpl = untimed_create_plist(H5P_DATASET_CREATE);
  if (!dcpl || H5Pset_fill_time(dcpl.get(), H5D_FILL_TIME_NEVER) < 0) fail(ctx, "cannot set up dataset " + name);
  Handle lcpl = link_create_plist();
  Handle dataset(H5Dcreate2(loc, name.c_str(), file_type(dtype), space.get(), lcpl.get(), dcpl.get(), H5P_DEFAULT),
                 H5Dclose);
  if (!dataset) fail(ctx, "cannot create dataset " + name);
  return dataset;
}

void write_rows(const Context& ctx, hid_t dataset, std::uint64_t first, const NDArray& rows, hid_t transfer) {
  Session session;
  if (rows.size() == 0 && transfer == H5P_DEFAULT) return;
  RowSelection sel = select_rows(dataset, first, rows.shape());
  if (!sel) fail(ctx, "cannot select rows " + std::to_string(first) + ".. of a dataset");
  if (H5Dwrite(dataset, native_type(rows.dtype()), sel.memory.get(), sel.file.get(), transfer, rows.raw()) < 0)
    fail(ctx, "cannot write rows " + std::to_string(first) + ".. of a dataset");
}

namespace {

// HDF5's shuffle filter: the chunk's `element`-byte values as `element` planes, the first
// bytes of every value, then the second bytes, ...; a tail shorter than a value stays last.
void shuffle_bytes(const unsigned char* in, std::size_t nbytes, std::size_t element, unsigned char* out) {
  const std::size_t values = nbytes / element;
  for (std::size_t b = 0; b < element; ++b)
    for (std::size_t v = 0; v < values; ++v) out[b * values + v] = in[v * element + b];
  std::memcpy(out + values * element, in + values * element, nbytes - values * element);
}

// The chunks of a chunked, deflate-filtered dataset of `chunk_rows` whole rows each, made
// here and stored as they are (H5Dwrite_chunk): compressed on every core by the codec VTU
// uses (libdeflate where the build has it), byte-shuffled first where the dataset's pipeline
// shuffles. The same standard zlib streams HDF5's deflate filter makes and reads (every
// HDF5 reader reads them), written several times faster than HDF5's own filter, which calls
// zlib one chunk at a time (about 35 MB/s here). The last chunk is padded to the full chunk
// size with zeros, as HDF5 stores edge chunks.
void write_compressed_chunks(const Context& ctx, hid_t dataset, const std::string& name, const NDArray& array,
                             hsize_t chunk_rows, std::size_t element, const DatasetOptions& options) {
  const std::size_t rows = array.dim(0);
  const std::size_t row_bytes = array.row_size() * dtype_size(array.dtype());
  const std::size_t chunk_bytes = static_cast<std::size_t>(chunk_rows) * row_bytes;
  const std::size_t chunks = (rows + chunk_rows - 1) / chunk_rows;
  const auto* data = static_cast<const unsigned char*>(array.raw());
  const int level = std::min(options.gzip_level, 9);
  std::vector<std::vector<unsigned char>> packed(chunks);
  parallel_for(chunks, resolve_threads(0), [&](std::size_t k) {
    const std::size_t first = k * chunk_rows, bytes = std::min<std::size_t>(chunk_rows, rows - first) * row_bytes;
    const unsigned char* chunk = data + first * row_bytes;
    std::vector<unsigned char> padded, shuffled;
    if (bytes < chunk_bytes) {
      padded.assign(chunk_bytes, 0);
      std::memcpy(padded.data(), chunk, bytes);
      chunk = padded.data();
    }
    if (options.shuffle) {
      shuffled.resize(chunk_bytes);
      shuffle_bytes(chunk, chunk_bytes, element, shuffled.data());
      chunk = shuffled.data();
    }
    packed[k] = codec::zlib_compress(chunk, chunk_bytes, level);
  });
  std::vector<hsize_t> offset(array.ndim() > 1 && !options.rows_as_arrays ? array.ndim() : 1, 0);
  for (std::size_t k = 0; k < chunks; ++k) {
    offset[0] = k * chunk_rows;
    if (H5Dwrite_chunk(dataset, H5P_DEFAULT, /*filters=*/0, offset.data(), packed[k].size(), packed[k].data()) < 0)
      fail(ctx, "cannot write chunk " + std::to_string(k) + " of dataset " + name);
    std::vector<unsigned char>().swap(packed[k]);
  }
}

}  // namespace

void write_dataset(const Context& ctx, hid_t loc, const std::string& name, const NDArray& array,
                   const DatasetOptions& options) {
  Session session;
  const NDArray::Shape& shape = array.shape();
  const bool as_arrays = options.rows_as_arrays && shape.size() > 1;
  std::vector<hsize_t> dims(shape.begin(), as_arrays ? shape.begin() + 1 : shape.end());
  Handle space(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), H5Sclose);
  if (!space) fail(ctx, "cannot make the dataspace of dataset " + name);
  const NDArray::Shape member(as_arrays ? shape.begin() + 1 : shape.end(), shape.end());
  Handle ftype = numeric_type(ctx, array.dtype(), member);
  Handle mtype;
  if (as_arrays) {
    std::vector<hsize_t> mdims(member.begin(), member.end());
    mtype = Handle(H5Tarray_create2(native_type(array.dtype()), static_cast<unsigned>(mdims.size()), mdims.data()), H5Tclose);
    if (!mtype) fail(ctx, "cannot make the memory type of dataset " + name);
  }
  Handle dcpl = untimed_create_plist(H5P_DATASET_CREATE);
  if (!dcpl) fail(ctx, "cannot make the creation properties of dataset " + name);
  hsize_t chunk_rows = 0;
  if (options.gzip_level >= 0 && array.size() != 0) {
    // Chunks of whole rows, about chunk_bytes each.
    std::vector<hsize_t> chunk = dims;
    const std::size_t row_bytes = std::max<std::size_t>(1, array.row_size() * dtype_size(array.dtype()));
    chunk[0] = chunk_rows = std::clamp<hsize_t>(options.chunk_bytes / row_bytes, 1, dims[0]);
    if (H5Pset_chunk(dcpl.get(), static_cast<int>(chunk.size()), chunk.data()) < 0 ||
        (options.shuffle && H5Pset_shuffle(dcpl.get()) < 0) ||
        H5Pset_deflate(dcpl.get(), static_cast<unsigned>(std::min(options.gzip_level, 9))) < 0)
      fail(ctx, "cannot set the compression of dataset " + name);
  }
  Handle lcpl = link_create_plist();
  Handle dataset(H5Dcreate2(loc, name.c_str(), ftype.get(), space.get(), lcpl.get(), dcpl.get(), H5P_DEFAULT), H5Dclose);
  if (!dataset) fail(ctx, "cannot create dataset " + name);
  if (array.size() == 0) return;
  if (options.gzip_level >= 0 && std::endian::native == std::endian::little && codec::zlib_available()) {
    const std::size_t element = as_arrays ? array.row_size() * dtype_size(array.dtype()) : dtype_size(array.dtype());
    write_compressed_chunks(ctx, dataset.get(), name, array, chunk_rows, element, options);
    return;
  }
  const hid_t memory = as_arrays ? mtype.get() : native_type(array.dtype());
  if (H5Dwrite(dataset.get(), memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, array.raw()) < 0)
    fail(ctx, "cannot write dataset " + name);
}

int gzip_level(std::string_view format, const std::string& compression, const std::string& level) {
  if (compression == "None" || compression == "none" || compression.empty()) return -1;
  if (compression != "gzip")
    throw std::invalid_argument(std::string(format) + ": compression '" + compression +
                                "' is not supported (use \"gzip\" or None)");
  if (level == "None" || level.empty()) return 4;
  int value = -1;
  const auto [end, ec] = std::from_chars(level.data(), level.data() + level.size(), value);
  if (ec != std::errc() || end != level.data() + level.size() || value < 0 || value > 9)
    throw std::invalid_argument(std::string(format) + ": compression_opts must be 0..9 for gzip, found " + level);
  return value;
}

void write_string_dataset(const Context& ctx, hid_t loc, const std::string& name, const std::vector<std::string>& values,
                          const DatasetOptions& options) {
  Session session;
  std::size_t width = 1;
  for (const std::string& v : values) width = std::max(width, v.size());
  std::string bytes(values.size() * width, '\0');  // null-padded, as numpy's "S<n>"
  for (std::size_t i = 0; i < values.size(); ++i) bytes.replace(i * width, values[i].size(), values[i]);
  Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
  if (!type || H5Tset_size(type.get(), width) < 0 || H5Tset_strpad(type.get(), H5T_STR_NULLPAD) < 0)
    fail(ctx, "cannot make the type of dataset " + name);
  const hsize_t dims[1] = {values.size()};
  Handle space(H5Screate_simple(1, dims, nullptr), H5Sclose);
  Handle dcpl = untimed_create_plist(H5P_DATASET_CREATE);
  if (!space || !dcpl) fail(ctx, "cannot set up dataset " + name);
  if (options.gzip_level >= 0 && !values.empty() &&
      (H5Pset_chunk(dcpl.get(), 1, dims) < 0 || H5Pset_deflate(dcpl.get(), static_cast<unsigned>(std::min(options.gzip_level, 9))) < 0))
    fail(ctx, "cannot set the compression of dataset " + name);
  Handle lcpl = link_create_plist();
  Handle dataset(H5Dcreate2(loc, name.c_str(), type.get(), space.get(), lcpl.get(), dcpl.get(), H5P_DEFAULT), H5Dclose);
  if (!dataset) fail(ctx, "cannot create dataset " + name);
  if (!values.empty() && H5Dwrite(dataset.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes.data()) < 0)
    fail(ctx, "cannot write dataset " + name);
}

Handle numeric_type(const Context& ctx, DType dtype, const NDArray::Shape& dims) {
  Session session;
  if (dims.empty()) {
    Handle copy(H5Tcopy(file_type(dtype)), H5Tclose);
    if (!copy) fail(ctx, "cannot copy a datatype");
    return copy;
  }
  std::vector<hsize_t> d(dims.begin(), dims.end());
  Handle array(H5Tarray_create2(file_type(dtype), static_cast<unsigned>(d.size()), d.data()), H5Tclose);
  if (!array) fail(ctx, "cannot make an array datatype");
  return array;
}

Handle int_enum_type(const Context& ctx, const std::vector<std::pair<std::string, int>>& members) {
  Session session;
  Handle type(H5Tenum_create(H5T_NATIVE_INT), H5Tclose);
  if (!type) fail(ctx, "cannot make an enum datatype");
  for (const auto& [name, value] : members)
    if (H5Tenum_insert(type.get(), name.c_str(), &value) < 0) fail(ctx, "cannot add " + name + " to an enum datatype");
  return type;
}

void commit_type(const Context& ctx, hid_t loc, const std::string& name, hid_t type) {
  Session session;
  Handle lcpl = link_create_plist();
  Handle copy(H5Tcopy(type), H5Tclose);  // a committed type cannot be committed again: commit a copy
  if (!copy || H5Tcommit2(loc, name.c_str(), copy.get(), lcpl.get(), H5P_DEFAULT, H5P_DEFAULT) < 0)
    fail(ctx, "cannot commit datatype " + name);
}

void write_attribute(const Context& ctx, hid_t obj, const std::string& name, hid_t type, hid_t memory_type,
                     const void* value) {
  Session session;
  Handle space(H5Screate(H5S_SCALAR), H5Sclose);
  Handle attribute(H5Acreate2(obj, name.c_str(), type, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  if (!attribute || H5Awrite(attribute.get(), memory_type, value) < 0) fail(ctx, "cannot write attribute " + name);
}

void write_vlen_string_attribute(const Context& ctx, hid_t obj, const std::string& name, std::string_view value) {
  Session session;
  Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
  if (!type || H5Tset_size(type.get(), H5T_VARIABLE) < 0 || H5Tset_cset(type.get(), H5T_CSET_UTF8) < 0)
    fail(ctx, "cannot make the type of attribute " + name);
  const std::string text(value);
  const char* pointer = text.c_str();
  write_attribute(ctx, obj, name, type.get(), type.get(), &pointer);
}

void write_attribute(const Context& ctx, hid_t obj, const std::string& name, std::string_view value) {
  Session session;
  Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
  if (!type || H5Tset_size(type.get(), std::max<std::size_t>(1, value.size())) < 0)
    fail(ctx, "cannot make the type of attribute " + name);
  Handle space(H5Screate(H5S_SCALAR), H5Sclose);
  Handle attribute(H5Acreate2(obj, name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  std::string padded(value);
  padded.resize(std::max<std::size_t>(1, value.size()), '\0');
  if (!attribute || H5Awrite(attribute.get(), type.get(), padded.data()) < 0) fail(ctx, "cannot write attribute " + name);
}

void write_fixed_string_attribute(const Context& ctx, hid_t obj, const std::string& name, std::string_view value,
                                  std::size_t size) {
  Session session;
  if (value.size() >= size) fail(ctx, "attribute " + name + ": '" + std::string(value) + "' is longer than " + std::to_string(size - 1) + " characters");
  Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
  if (!type || H5Tset_size(type.get(), size) < 0) fail(ctx, "cannot make the type of attribute " + name);
  Handle space(H5Screate(H5S_SCALAR), H5Sclose);
  Handle attribute(H5Acreate2(obj, name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  std::string padded(value);
  padded.resize(size, '\0');
  if (!attribute || H5Awrite(attribute.get(), type.get(), padded.data()) < 0) fail(ctx, "cannot write attribute " + name);
}

void write_attribute(const Context& ctx, hid_t obj, const std::string& name, const NDArray& value) {
  Session session;
  std::vector<hsize_t> dims(value.shape().begin(), value.shape().end());
  Handle space(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), H5Sclose);
  Handle attribute(H5Acreate2(obj, name.c_str(), file_type(value.dtype()), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  if (!attribute || H5Awrite(attribute.get(), native_type(value.dtype()), value.raw()) < 0)
    fail(ctx, "cannot write attribute " + name);
}

namespace {
Handle open_attribute(const Context& ctx, hid_t obj, const std::string& name) {
  const htri_t there = H5Aexists(obj, name.c_str());
  if (there < 0) fail(ctx, "cannot look up attribute " + name);
  if (there == 0) return {};
  Handle attribute(H5Aopen(obj, name.c_str(), H5P_DEFAULT), H5Aclose);
  if (!attribute) fail(ctx, "cannot open attribute " + name);
  return attribute;
}
}  // namespace

std::optional<std::string> read_string_attribute(const Context& ctx, hid_t obj, const std::string& name) {
  Session session;
  Handle attribute = open_attribute(ctx, obj, name);
  if (!attribute) return std::nullopt;
  Handle type(H5Aget_type(attribute.get()), H5Tclose);
  if (!type || H5Tget_class(type.get()) != H5T_STRING) fail(ctx, "attribute " + name + ": not a string");
  Handle space(H5Aget_space(attribute.get()), H5Sclose);
  if (!space || H5Sget_simple_extent_npoints(space.get()) != 1) fail(ctx, "attribute " + name + ": not one string");
  if (H5Tis_variable_str(type.get()) > 0) {
    char* text = nullptr;
    Handle memtype(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(memtype.get(), H5T_VARIABLE);
    H5Tset_cset(memtype.get(), H5Tget_cset(type.get()));  // h5py's str is UTF-8: no conversion path to ASCII
    if (H5Aread(attribute.get(), memtype.get(), &text) < 0) fail(ctx, "cannot read attribute " + name);
    std::string out = text ? text : "";
    H5free_memory(text);
    return out;
  }
  const std::size_t size = H5Tget_size(type.get());
  if (size > kMaxAttributeBytes) fail(ctx, "attribute " + name + ": declares " + std::to_string(size) + " bytes");
  std::string out(size, '\0');
  if (H5Aread(attribute.get(), type.get(), out.data()) < 0) fail(ctx, "cannot read attribute " + name);
  out.resize(std::min(out.size(), out.find('\0')));
  return out;
}

std::optional<NDArray> read_attribute(const Context& ctx, hid_t obj, const std::string& name) {
  Session session;
  Handle attribute = open_attribute(ctx, obj, name);
  if (!attribute) return std::nullopt;
  const std::string what = "attribute " + name;
  Handle type(H5Aget_type(attribute.get()), H5Tclose);
  const std::optional<DType> dtype = type ? dtype_of_type(type.get()) : std::nullopt;
  if (!dtype) fail(ctx, what + ": not an integer or float attribute");
  Handle space(H5Aget_space(attribute.get()), H5Sclose);
  if (!space) fail(ctx, what + ": cannot read its dataspace");
  const NDArray::Shape shape = shape_of(ctx, space.get(), what);
  if (byte_count(ctx, shape, dtype_size(*dtype), what) > kMaxAttributeBytes) fail(ctx, what + ": too large");
  NDArray out = NDArray::uninit(*dtype, shape);
  if (out.size() != 0 && H5Aread(attribute.get(), native_type(*dtype), out.raw()) < 0) fail(ctx, "cannot read " + what);
  return out;
}

}  // namespace meshioplusplus::io::hdf5

#endif  // MESHIOPP_HAVE_HDF5
