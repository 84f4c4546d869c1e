// meshio++ core I/O: the small HDF5 toolkit every HDF5-based format uses (XDMF's heavy
// data today). Only compiled when the build has the HDF5 C library (MESHIOPP_HAVE_HDF5).
// Spec: the HDF5 C API reference, https://docs.hdfgroup.org/hdf5/v1_10/
//
//   * Handle: an owned hid_t (file, group, dataset, dataspace, datatype, attribute,
//     property list) that closes itself with the right H5?close.
//   * Session: every use of HDF5 happens inside one. It holds io::hdf5_netcdf_mutex() (the
//     serial library is not thread-safe) and silences HDF5's own printing of its error
//     stack to stderr for the duration (restoring the caller's handler afterwards, so h5py
//     in the same process keeps its own); a failed call is turned into ReadError or
//     WriteError naming the file, the object path and HDF5's innermost message.
//   * read_dataset(): a dataset straight into its final NDArray (one allocation, one
//     H5Dread; the dtype is the file's type, the shape its dataspace), its declared size
//     checked against what the file can hold before anything is allocated.
//   * write_dataset(): an NDArray as a dataset, contiguous or chunked + gzip.
//   * attributes: strings and small arrays, read and written.
//   * partitioned datasets (VTKHDF, and collective MPI writers later): read_rows() reads a
//     range of rows; create_dataset() makes a dataset of its final shape and write_rows()
//     fills a range of its rows, so each partition (each rank) writes its own slice.
//   * kMissing: what every HDF5-based format says in a build without the library (declared
//     in every build).
#pragma once

namespace meshioplusplus::io::hdf5 {
// The message of the ReadError / WriteError an HDF5-based format raises in a build without
// libhdf5 (the format stays registered and says which package enables it).
inline constexpr const char* kMissing = "this build of meshio++ has no HDF5; install the Debian package libhdf5-dev and rebuild";
}  // namespace meshioplusplus::io::hdf5

#ifdef MESHIOPP_HAVE_HDF5

#include <hdf5.h>

#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/io/file.hpp"
#include "meshioplusplus/mesh.hpp"
#include "meshioplusplus/ndarray.hpp"

namespace meshioplusplus::io::hdf5 {

// An owned HDF5 identifier; closes itself. Move-only.
class Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  Handle() = default;
  Handle(hid_t id, Closer close) : id_(id), close_(close) {}
  ~Handle() { reset(); }
  Handle(Handle&& o) noexcept : id_(o.id_), close_(o.close_) { o.id_ = H5I_INVALID_HID; }
  Handle& operator=(Handle&& o) noexcept {
    if (this != &o) {
      reset();
      id_ = o.id_;
      close_ = o.close_;
      o.id_ = H5I_INVALID_HID;
    }
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;

  hid_t get() const { return id_; }
  explicit operator bool() const { return id_ >= 0; }
  void reset() {
    if (id_ >= 0 && close_) close_(id_);
    id_ = H5I_INVALID_HID;
  }
  // The id, no longer closed by this handle (for a caller that must see the close fail).
  hid_t release() { return std::exchange(id_, H5I_INVALID_HID); }

 private:
  hid_t id_ = H5I_INVALID_HID;
  Closer close_ = nullptr;
};

// Who is asking: the format and the file that errors name, and whether a failure is a
// ReadError (reading) or a WriteError (writing).
struct Context {
  std::string format;
  std::string path;
  bool writing = false;
};

// The scope of any HDF5 use: the library lock, HDF5's stderr printing off (restored on
// exit). Sessions nest (the lock is recursive).
class Session {
 public:
  Session();
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

 private:
  std::unique_lock<std::recursive_mutex> lock_;
  H5E_auto2_t old_func_ = nullptr;
  void* old_data_ = nullptr;
};

// Throws ReadError / WriteError (by ctx.writing) "<format>: <path>: <what>: <HDF5's
// innermost message>", and clears HDF5's error stack.
[[noreturn]] void fail(const Context& ctx, std::string_view what);

// Files. open_file() is read-only; create_file() truncates. `access`: a file access
// property list (an MPI-IO one makes the call collective).
Handle open_file(const Context& ctx, hid_t access = H5P_DEFAULT);
Handle create_file(const Context& ctx, const std::string& path, hid_t access = H5P_DEFAULT);
// A read-only file opened from its bytes (HDF5's core driver; HDF5 copies them): for a
// pipe or a character device, which HDF5 cannot seek, read whole first (io::FileBytes).
Handle open_file_image(const Context& ctx, const void* data, std::size_t size);
// A file for reading, and its size in bytes (what bounds every declared size): a regular
// file through open_file(); a pipe or a character device, which HDF5 cannot seek, read whole
// first and opened with open_file_image().
Handle open_readable(const Context& ctx, std::size_t& file_bytes);
// "(3, 2)", "(5,)": a shape as error messages write it.
std::string shape_text(const NDArray::Shape& shape);
// A file built in memory and then written to disk by an io::AtomicFile, for writers. HDF5
// writes into an io::MemoryFile (through its sec2 driver), or, where that is not available
// for a file of about `expected_bytes` (io::MemoryFile::available), into its core driver's
// image; either way a failing disk write is
// the AtomicFile's WriteError, and HDF5 is never left holding a file it cannot close (HDF5
// 1.10 crashes at exit on a file whose close failed). Holds the file's size in memory.
// `track_order`: the root group tracks and indexes its links' creation order (as
// create_group's), for readers that list children in creation order only (the CGNS
// library 4's HDF5 layer, which VTK's vtkCGNSReader uses).
class FileInMemory {
 public:
  FileInMemory(const Context& ctx, std::size_t expected_bytes, bool track_order = false);
  ~FileInMemory();
  FileInMemory(const FileInMemory&) = delete;
  FileInMemory& operator=(const FileInMemory&) = delete;

  hid_t get() const { return file_.get(); }
  // Closes the file, with any object of it still open (H5F_CLOSE_STRONG), and appends its
  // bytes to `target`. Throws WriteError.
  void write_to(io::AtomicFile& target);

 private:
  Context ctx_;
  std::unique_ptr<io::MemoryFile> memory_;  // null: HDF5's core driver holds the file
  Handle file_;
};
// The bytes of a mesh's arrays (points, connectivity, data, regions): what a writer's file
// holds, roughly, for FileInMemory's `expected_bytes`.
std::size_t array_bytes(const Mesh& mesh);
// Every dataset's storage layout, read from the file's bytes before HDF5 decodes it: HDF5
// 1.10.8 divides by the chunk dimensions of a layout message when a dataset is opened, so a
// corrupt file with a zero there would kill the process (SIGFPE); here it is a ReadError
// naming the dataset. Likewise each variable-length attribute value (netCDF-4's DIMENSION_LIST,
// h5py's strings) must be a global heap object of exactly its bytes in a collection that walks
// to its end (HDF5 1.10.8 trusts those sizes: a segfault, or an endless loop, on a corrupt one).
// open_file() and open_file_image() run it on every file they open.
// `bytes` / `size`: the whole file.
void check_layouts(const Context& ctx, hid_t file, const void* bytes, std::size_t size);
// Groups: opened, or created (with every missing parent) below `loc`.
Handle open_group(const Context& ctx, hid_t loc, const std::string& path);
// `track_order`: the new group tracks and indexes its links' creation order.
Handle create_group(const Context& ctx, hid_t loc, const std::string& path, bool track_order = false);
// Whether `path` names a link that exists below `loc` (every intermediate group too).
bool exists(hid_t loc, const std::string& path);

// The file's dataset `path` (absolute, or relative to `loc`) as one NDArray of the file's
// dtype and shape (a scalar dataspace gives shape (1,)). Integer and float types of 1, 2,
// 4 and 8 bytes in either byte order; anything else is a ReadError naming the dataset.
// `file_bytes` (the file's size) bounds the declared size: an unfiltered dataset may not
// declare more than it stores; a filtered one not more than 1100 times what it stores.
NDArray read_dataset(const Context& ctx, hid_t loc, const std::string& path, std::size_t file_bytes);
// Rows [first, first + count) along the first axis of dataset `path`, with read_dataset's
// checks (of the whole dataset); a range past the last row is a ReadError naming the
// dataset, its rows and the range. `transfer`: a dataset transfer property list (a
// collective MPI-IO one: every rank then calls, also with count 0).
NDArray read_rows(const Context& ctx, hid_t loc, const std::string& path, std::uint64_t first, std::uint64_t count,
                  std::size_t file_bytes, hid_t transfer = H5P_DEFAULT);
// A one-dimensional, unfiltered dataset opened and checked once (read_dataset's checks),
// then read a piece at a time: values [first, first + count) straight into the caller's
// memory as `as` (HDF5 converts). For readers that convert each piece while it is still in
// cache, with no intermediate array of the whole dataset. `pieces()` is false for any
// other dataset (a compressed one would inflate its chunks again for every piece): read it
// with read_dataset() then. The caller holds a Session for the object's whole life; read()
// may be called from other threads one at a time (the caller serializes them), and turns
// HDF5's error printing off on the thread it runs on.
class DatasetPieces {
 public:
  DatasetPieces(const Context& ctx, hid_t loc, const std::string& path, std::size_t file_bytes);
  ~DatasetPieces();
  DatasetPieces(const DatasetPieces&) = delete;
  DatasetPieces& operator=(const DatasetPieces&) = delete;
  bool pieces() const { return pieces_; }
  DType dtype() const { return dtype_; }
  std::uint64_t size() const { return size_; }
  void read(std::uint64_t first, std::uint64_t count, DType as, void* out) const;

 private:
  Context ctx_;
  std::string path_;
  Handle dataset_;
  DType dtype_ = DType::float64;
  std::uint64_t size_ = 0;
  bool pieces_ = false;
};
// read_dataset(), and a dataset whose type is an HDF5 array of integers or floats (MOAB's
// multi-value tags) gives the dataspace's shape followed by the array's dimensions.
NDArray read_array_dataset(const Context& ctx, hid_t loc, const std::string& path, std::size_t file_bytes);
// The shape of dataset `path` ((1,) for a scalar), nothing read.
NDArray::Shape dataset_shape(const Context& ctx, hid_t loc, const std::string& path);
// The names of the datasets directly below group `loc` (subgroups left out), in name order.
std::vector<std::string> dataset_names(const Context& ctx, hid_t loc);
// The names of the groups directly below group `loc`, in name order; with `creation_order`,
// in creation order when the group tracks it (CGNS: VTK's reader lists children so).
std::vector<std::string> group_names(const Context& ctx, hid_t loc, bool creation_order = false);
// Whether dataset `path` holds integers or floats (what read_dataset reads; with
// `array_members`, also arrays of them: what read_array_dataset reads).
bool is_numeric_dataset(const Context& ctx, hid_t loc, const std::string& path, bool array_members = false);
// Any object (group, dataset, committed type) at `path` below `loc`, opened: for its attributes.
Handle open_object(const Context& ctx, hid_t loc, const std::string& path);

struct DatasetOptions {
  int gzip_level = -1;     // 0..9: chunked + deflate; -1: contiguous, no filter
  bool shuffle = false;    // the byte-shuffle filter before deflate
  std::size_t chunk_bytes = 1 << 20;  // target bytes per chunk when chunked
  // Each row (the trailing dimensions) stored as one element of an HDF5 array type, the
  // dataspace then (rows,): MOAB's multi-value tags, h5py's dtype((T, (k,))).
  bool rows_as_arrays = false;
};
// meshio's h5py writer options `compression` ("gzip", or None / "none" / "") and
// `compression_opts` (the gzip level 0..9; None means 4, h5py's default) as
// DatasetOptions::gzip_level; anything else is std::invalid_argument naming `format`.
int gzip_level(std::string_view format, const std::string& compression, const std::string& level);

// `array` (row-major, its dtype, native byte order) as dataset `name` below `loc`.
void write_dataset(const Context& ctx, hid_t loc, const std::string& name, const NDArray& array,
                   const DatasetOptions& options = {});

// Dataset `name` of `dtype` and `shape` (contiguous, little-endian), created without
// values: each partition then writes its own rows with write_rows().
Handle create_dataset(const Context& ctx, hid_t loc, const std::string& name, DType dtype, const NDArray::Shape& shape);
// `rows` (its trailing dimensions those of the dataset) as rows [first, first + rows.dim(0))
// of `dataset`. `transfer` as read_rows'.
void write_rows(const Context& ctx, hid_t dataset, std::uint64_t first, const NDArray& rows, hid_t transfer = H5P_DEFAULT);

// Strings as h5py writes them: an attribute of one variable-length UTF-8 string (what
// h5py reads back as a str), and a dataset of fixed-length null-padded strings (numpy's
// "S<n>", as h5py writes a list of bytes).
void write_vlen_string_attribute(const Context& ctx, hid_t obj, const std::string& name, std::string_view value);
void write_string_dataset(const Context& ctx, hid_t loc, const std::string& name, const std::vector<std::string>& values,
                          const DatasetOptions& options = {});

// Datatypes: the little-endian file type of `dtype` (an array of `dims` of it when dims is
// not empty), an enum of 32-bit integers, and a type committed (named) as `name` below
// `loc` (what h5py does for `group["type"] = numpy_dtype`).
Handle numeric_type(const Context& ctx, DType dtype, const NDArray::Shape& dims = {});
Handle int_enum_type(const Context& ctx, const std::vector<std::pair<std::string, int>>& members);
void commit_type(const Context& ctx, hid_t loc, const std::string& name, hid_t type);
// A scalar attribute of file type `type`, its value the bytes at `value` in `memory_type`.
void write_attribute(const Context& ctx, hid_t obj, const std::string& name, hid_t type, hid_t memory_type,
                     const void* value);

// Attributes of an object: a string, or a small numeric array.
void write_attribute(const Context& ctx, hid_t obj, const std::string& name, std::string_view value);
// A string attribute of exactly `size` bytes, NUL-padded (`value` must be shorter): for
// layouts whose readers read a fixed-size buffer (CGNS's 33-byte node names and labels).
void write_fixed_string_attribute(const Context& ctx, hid_t obj, const std::string& name, std::string_view value,
                                  std::size_t size);
void write_attribute(const Context& ctx, hid_t obj, const std::string& name, const NDArray& value);
// nullopt when the attribute does not exist.
std::optional<std::string> read_string_attribute(const Context& ctx, hid_t obj, const std::string& name);
std::optional<NDArray> read_attribute(const Context& ctx, hid_t obj, const std::string& name);

}  // namespace meshioplusplus::io::hdf5

#endif  // MESHIOPP_HAVE_HDF5
