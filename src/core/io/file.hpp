// meshio++ core I/O: reading a whole file once (memory-mapped), and atomic writes.
//
// FileBytes maps a file read-only (one mmap; falls back to one read() for files that
// cannot be mapped) so parsers work in place on the bytes. Files of kReadSmallFilesBelow
// bytes or fewer are read() into a heap buffer instead: unmapping costs a TLB flush on every
// core the process has run threads on, tens of microseconds, more than copying 64 KiB. AtomicFile writes to a
// temporary file in the target's folder and renames it over the target on commit(), after
// flushing it to the device (and the folder after the rename); if the writer throws before
// commit(), the temporary file is removed and an existing file at the target path is
// untouched. The file's mode is what open() would give under the process umask. Libraries that write
// by path (netCDF) write to temp_path() instead.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace meshioplusplus::io {

inline constexpr std::size_t kReadSmallFilesBelow = 64 * 1024;

class FileBytes {
 public:
  // Throws ReadError "<format>: <path>: cannot open: <reason>". With `populate` false the
  // mapping is made without its pages: a reader that takes its large sections with
  // copy_out() touches only the pages it parses (its header), and calls populate() if it
  // turns out to parse the whole file after all.
  FileBytes(const std::string& path, std::string_view format, bool populate = true);
  ~FileBytes();
  FileBytes(const FileBytes&) = delete;
  FileBytes& operator=(const FileBytes&) = delete;

  std::string_view text() const { return {data_, size_}; }
  const char* data() const { return data_; }
  std::size_t size() const { return size_; }

  // Copies bytes [offset, offset + n) of the file into `dst` (bounds checked by the caller)
  // with pread: the kernel copies from the page cache, where reading a fresh mapping pays a
  // fault, or in a virtual machine a costlier first touch, per page (docs/benchmarks.md).
  // Safe to call from several threads at once. Throws ReadError if the file has shrunk.
  void copy_out(std::size_t offset, std::size_t n, void* dst) const;
  // Maps every page of the file now (one call) where the constructor did not.
  void populate() const;

 private:
  const char* data_ = nullptr;
  std::size_t size_ = 0;
  bool mapped_ = false;
  int fd_ = -1;  // open while mapped, for copy_out
  std::string format_, path_;
  std::vector<char> fallback_;
};

// Whether AtomicFile::commit() flushes the file and its folder to the device (fdatasync
// before the rename, fsync of the folder after it). On unless the `sync` write option says
// false: write() holds a SyncScope for the call, and every AtomicFile made on that thread
// during it takes the setting when it is created. Without the flush a write is still atomic
// (a rename: no reader sees a partial file, and a failed write leaves the old file as it
// was), but a power cut soon after it may lose the new file, as it may after a write by
// meshio, VTK or gmsh.
bool sync_on_commit();
class SyncScope {
 public:
  explicit SyncScope(bool sync);
  ~SyncScope();
  SyncScope(const SyncScope&) = delete;
  SyncScope& operator=(const SyncScope&) = delete;

 private:
  bool previous_;
};

class AtomicFile {
 public:
  // Creates the temporary file; throws WriteError naming the path on failure.
  AtomicFile(const std::string& path, std::string_view format);
  ~AtomicFile();  // removes the temporary file unless committed
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void write(const void* data, std::size_t nbytes);
  void write(std::string_view text) { write(text.data(), text.size()); }
  // Flushes, closes and renames over the target; throws WriteError on failure.
  void commit();
  const std::string& path() const { return path_; }
  // The temporary file (already created, empty): a library that writes by path (netCDF,
  // HDF5) creates its file here, closes it, then the caller commit()s.
  const std::string& temp_path() const { return tmp_path_; }

 private:
  std::string path_;
  std::string tmp_path_;
  std::string format_;
  int fd_ = -1;
  bool committed_ = false;
  bool sync_ = sync_on_commit();  // the setting of the thread that made the file
  std::size_t written_ = 0;  // bytes written so far
  std::size_t flushed_ = 0;  // bytes whose writeback has been started
};

}  // namespace meshioplusplus::io
