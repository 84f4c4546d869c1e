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
// by path (netCDF) write to temp_path() instead, or into a MemoryFile that write_from() copies.
#pragma once

#include <cstddef>
#include <memory>
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
  // Bytes [offset, offset + n) of the file (n at most kWindowBytes, bounds checked by the
  // caller), valid until the next call, without touching the mapping where it was made
  // without its pages: read with pread into a window of kWindowBytes from `offset`, and
  // served from it while the reads stay inside. In a virtual machine the first touch of a
  // page of a fresh mapping costs tens of microseconds, and so does unmapping it after
  // (docs/benchmarks.md): a binary reader that parses a few fields between large sections
  // taken with copy_out() reads them here (Cursor::load_through). One thread at a time.
  static constexpr std::size_t kWindowBytes = 4096;
  const char* bytes_at(std::size_t offset, std::size_t n) const;

 private:
  const char* data_ = nullptr;
  std::size_t size_ = 0;
  bool mapped_ = false;
  int fd_ = -1;  // open while mapped, for copy_out
  mutable bool populated_ = false;
  std::string format_, path_;
  std::vector<char> fallback_;
  mutable std::unique_ptr<char[]> window_;  // bytes_at()
  mutable std::size_t window_at_ = 0, window_size_ = 0;
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

// A file in memory (a tmpfs file under /dev/shm, its name removed once the library has
// opened it) for a library that writes by path (HDF5, netCDF-C) to build its file in before
// AtomicFile::write_from() copies it to disk. Against the library's own in-memory file
// (HDF5's core driver) its pages are the kernel's: no page faults in the process, no zeroing
// as the library's image grows, no copy of the image into a buffer before it is written, and
// the copy to disk stays in the kernel (sendfile(2)): a 37 MB HDF5 file in 0.08 s instead of
// 0.47 s here. (A memfd would be better still, but HDF5 1.10 resolves a symbolic link such
// as /proc/self/fd/<n> with realpath(3), which fails on one.)
//
// The library then writes to memory, never to the disk: HDF5 1.10 crashes at exit on a
// file whose close failed, so a failing disk write must come from AtomicFile, as a
// WriteError. A write to the memory file could still fail when /dev/shm fills up or under a
// finite RLIMIT_FSIZE (it counts against the limit as any file does): available(bytes) is
// true only with no such limit and twice `bytes` (plus 64 MiB) free under /dev/shm, and
// callers keep the library's in-memory file otherwise.
class MemoryFile {
 public:
  static bool available(std::size_t bytes);
  // Throws WriteError "<format>: <target>: cannot create a file in memory: <reason>".
  MemoryFile(std::string_view format, const std::string& target);
  ~MemoryFile();  // closes it, and removes the name if it is still there
  MemoryFile(const MemoryFile&) = delete;
  MemoryFile& operator=(const MemoryFile&) = delete;

  // The name the library creates its file at (truncating what is there).
  const std::string& path() const { return path_; }
  // Removes the name once the library has its own descriptor (nothing is left behind under
  // /dev/shm if the process dies later).
  void unlink_name();
  int fd() const { return fd_; }

 private:
  int fd_ = -1;
  std::string path_;
  bool named_ = false;
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
  // Appends the whole of `source`, copied inside the kernel (no user buffer).
  void write_from(const MemoryFile& source);
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
  std::size_t flushed_ = 0;  // bytes a background flush has been asked for
  // With sync: fdatasync of what is written so far on a thread of its own, asked for each
  // time another kFlushBytes are written, so the device's flush runs while the writer
  // formats the rest and commit()'s fdatasync has only the last bytes left (file.cpp).
  class Flusher;
  std::unique_ptr<Flusher> flusher_;
  void flush_in_background();
};

}  // namespace meshioplusplus::io
