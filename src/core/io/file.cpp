// meshio++ core I/O: FileBytes (mmap) and AtomicFile (temporary file + rename); see file.hpp.
// Durability follows POSIX fsync(2) and rename(2): the data is flushed to the device before
// the rename, and the folder after it, so an acknowledged write survives a power cut (unless
// the `sync` write option turned the flushes off: SyncScope). Each 8 MiB written, a
// thread of the file's own runs fdatasync while the writer goes on, so the flush at
// commit() waits only for the last few megabytes. (Starting the writeback alone, with
// sync_file_range(2), is not enough: in a virtual machine fdatasync's cost is mostly the
// device's flush of its own cache, proportional to the bytes written since the last one:
// 99 MB fdatasync'ed 0.3 s after their writeback had been started still took 0.068 s here,
// and with a flush in the background a paced 99 MB write ended 0.004 s after its last
// write() instead of 0.078 s.) A large file the rename replaces is freed on a thread of its
// own after the rename instead of inside it (hold_replaced_file).
#include "core/io/file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <system_error>
#include <thread>

#include "meshioplusplus/errors.hpp"

namespace meshioplusplus::io {

namespace {

std::string reason() { return std::strerror(errno); }

// The process umask, read once. Linux reports it in /proc/self/status ("Umask:"), which
// reads it without changing it; elsewhere umask() must set it to read it, which is done
// once, before any writer thread can create a file under the wrong mask.
mode_t process_umask() {
  static const mode_t mask = [] {
    if (std::FILE* f = std::fopen("/proc/self/status", "re")) {
      char line[256];
      unsigned value = 0;
      bool found = false;
      while (!found && std::fgets(line, sizeof line, f)) found = std::sscanf(line, "Umask: %o", &value) == 1;
      std::fclose(f);
      if (found) return static_cast<mode_t>(value);
    }
    const mode_t m = ::umask(0);
    ::umask(m);
    return m;
  }();
  return mask;
}

// The folder holding `path` ("." for a bare name).
std::string parent_of(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

}  // namespace

FileBytes::FileBytes(const std::string& path, std::string_view format, bool populate) : format_(format), path_(path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw read_error(format, path, "cannot open: " + reason());
  struct stat st {};
  if (::fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
    ::close(fd);
    throw read_error(format, path, "cannot open: not a regular file");
  }
  size_ = static_cast<std::size_t>(st.st_size);
  if (size_ > kReadSmallFilesBelow && S_ISREG(st.st_mode)) {
    // MAP_POPULATE maps every page up front in one kernel call instead of one fault per
    // 4 KiB page while parsing; the whole file is read anyway.
    void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE | (populate ? MAP_POPULATE : 0), fd, 0);
    if (p != MAP_FAILED) {
      data_ = static_cast<const char*>(p);
      mapped_ = true;
      populated_ = populate;
      fd_ = fd;
      return;
    }
  }
  if (!mapped_) {  // small files, pipes, /proc files, failed maps: one read loop
    std::size_t have = 0;
    fallback_.resize(size_ > 0 ? size_ + 1 : 1 << 16);  // + 1: the end shows without a regrow
    for (;;) {
      if (have == fallback_.size()) fallback_.resize(fallback_.size() * 2);
      const ssize_t n = ::read(fd, fallback_.data() + have, fallback_.size() - have);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        const std::string why = reason();
        ::close(fd);
        throw read_error(format, path, "read failed: " + why);
      }
      if (n == 0) break;
      have += static_cast<std::size_t>(n);
    }
    fallback_.resize(have);
    data_ = fallback_.data();
    size_ = have;
  }
  ::close(fd);
}

FileBytes::~FileBytes() {
  if (mapped_) ::munmap(const_cast<char*>(data_), size_);
  if (fd_ >= 0) ::close(fd_);
}

void FileBytes::copy_out(std::size_t offset, std::size_t n, void* dst) const {
  if (!mapped_) {
    std::memcpy(dst, data_ + offset, n);
    return;
  }
  auto* out = static_cast<char*>(dst);
  while (n > 0) {
    const ssize_t got = ::pread(fd_, out, n, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw read_error(format_, path_, "read failed at byte " + std::to_string(offset) + ": " + reason());
    if (got == 0) throw read_error(format_, path_, "the file shrank while it was read (byte " + std::to_string(offset) + " is gone)");
    out += got;
    offset += static_cast<std::size_t>(got);
    n -= static_cast<std::size_t>(got);
  }
}

const char* FileBytes::bytes_at(std::size_t offset, std::size_t n) const {
  if (!mapped_ || populated_) return data_ + offset;
  if (offset < window_at_ || offset + n > window_at_ + window_size_) {
    if (!window_) window_.reset(new char[kWindowBytes]);
    window_size_ = std::min(kWindowBytes, size_ - offset);
    copy_out(offset, window_size_, window_.get());
    window_at_ = offset;
  }
  return window_.get() + (offset - window_at_);
}

void FileBytes::populate() const {
  if (!mapped_) return;
  populated_ = true;
#ifdef MADV_POPULATE_READ
  if (::madvise(const_cast<char*>(data_), size_, MADV_POPULATE_READ) == 0) return;
#endif
  ::madvise(const_cast<char*>(data_), size_, MADV_WILLNEED);  // advice only; older kernels
}

AtomicFile::AtomicFile(const std::string& path, std::string_view format) : path_(path), format_(format) {
  const mode_t mode = 0666 & ~process_umask();
  tmp_path_ = path + ".meshioplusplus-XXXXXX";
  fd_ = ::mkostemp(tmp_path_.data(), O_CLOEXEC);
  if (fd_ < 0) throw write_error(format_, path_, "cannot create a temporary file beside it: " + reason());
  // mkstemp makes 0600; give the file the permissions a plain open() would.
  ::fchmod(fd_, mode);
}

// One fdatasync at a time, of everything written when it starts; asks that come while one
// runs are served by one more. The first failure is kept for commit() to report: after a
// failed fdatasync Linux may report success on the next one for pages it has dropped.
class AtomicFile::Flusher {
 public:
  explicit Flusher(int fd) : fd_(fd), thread_([this] { run(); }) {}
  ~Flusher() { stop(); }
  Flusher(const Flusher&) = delete;
  Flusher& operator=(const Flusher&) = delete;

  void ask() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      asked_ = true;
    }
    wake_.notify_one();
  }
  // Waits for the fdatasync running, if any, and ends the thread. Returns 0, or the errno of
  // the first fdatasync that failed.
  int stop() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_one();
    if (thread_.joinable()) thread_.join();
    return error_;
  }

 private:
  void run() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait(lock, [this] { return asked_ || stop_; });
      if (stop_) return;  // commit() flushes what is left itself
      asked_ = false;
      lock.unlock();
      const int rc = ::fdatasync(fd_);
      const int err = errno;
      lock.lock();
      if (rc != 0 && error_ == 0) error_ = err;
    }
  }

  int fd_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool asked_ = false, stop_ = false;
  int error_ = 0;
  std::thread thread_;  // last: started once the members above exist
};

AtomicFile::~AtomicFile() {
  flusher_.reset();  // no fdatasync of fd_ runs past this
  if (committed_) return;
  if (fd_ >= 0) ::close(fd_);
  ::unlink(tmp_path_.c_str());
}

void AtomicFile::write(const void* data, std::size_t nbytes) {
  const char* p = static_cast<const char*>(data);
  while (nbytes > 0) {
    const ssize_t n = ::write(fd_, p, nbytes);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw write_error(format_, path_, "write failed: " + reason());
    p += n;
    nbytes -= static_cast<std::size_t>(n);
    written_ += static_cast<std::size_t>(n);
  }
  flush_in_background();
}

void AtomicFile::write_from(const MemoryFile& source) {
  struct stat st {};
  if (::fstat(source.fd(), &st) != 0) throw write_error(format_, path_, "cannot read the file built in memory: " + reason());
  off_t offset = 0;
  auto left = static_cast<std::size_t>(st.st_size);
  while (left > 0) {
    // At most 8 MiB per call, so the background flush of what is written starts as it goes.
    const ssize_t n = ::sendfile(fd_, source.fd(), &offset, std::min<std::size_t>(left, std::size_t(8) << 20));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw write_error(format_, path_, "write failed: " + reason());
    if (n == 0) throw write_error(format_, path_, "write failed: the file built in memory shrank");
    left -= static_cast<std::size_t>(n);
    written_ += static_cast<std::size_t>(n);
    flush_in_background();
  }
}

void AtomicFile::flush_in_background() {
  constexpr std::size_t kFlushBytes = std::size_t(8) << 20;
  if (!sync_ || written_ - flushed_ < kFlushBytes) return;
  if (!flusher_) {
    try {
      flusher_ = std::make_unique<Flusher>(fd_);
    } catch (const std::system_error&) {  // no thread to be had: commit() flushes it all
      flushed_ = written_;
      return;
    }
  }
  flusher_->ask();
  flushed_ = written_;
}

namespace {
constexpr const char* kMemoryFolder = "/dev/shm";
}  // namespace

bool MemoryFile::available(std::size_t bytes) {
  struct rlimit limit {};
  if (::getrlimit(RLIMIT_FSIZE, &limit) != 0 || limit.rlim_cur != RLIM_INFINITY) return false;
  struct statvfs fs {};
  if (::statvfs(kMemoryFolder, &fs) != 0) return false;
  const unsigned long long free_bytes = static_cast<unsigned long long>(fs.f_bavail) * fs.f_frsize;
  return free_bytes / 2 > bytes + (std::size_t(32) << 20);
}

MemoryFile::MemoryFile(std::string_view format, const std::string& target) {
  path_ = std::string(kMemoryFolder) + "/meshioplusplus-XXXXXX";
  fd_ = ::mkostemp(path_.data(), O_CLOEXEC);
  if (fd_ < 0) throw write_error(format, target, "cannot create a file in memory: " + reason());
  named_ = true;
}

void MemoryFile::unlink_name() {
  if (named_) ::unlink(path_.c_str());
  named_ = false;
}

MemoryFile::~MemoryFile() {
  unlink_name();
  if (fd_ >= 0) ::close(fd_);
}

namespace {
thread_local bool t_sync_on_commit = true;

// The file a rename replaces is freed (its page cache and its blocks) when its last
// reference goes, which for a file of tens of megabytes takes tens of milliseconds, inside
// rename(2) when nothing else holds it (a 44 MB file: 20 ms of a 90 ms write here). A
// reference held across the rename moves that work to a thread that drops it afterwards:
// hold_replaced_file opens the target as it is (O_PATH: no read permission needed, never
// blocks on a FIFO, a symbolic link itself rather than what it names) when it is a regular
// file of at least kReleaseLaterBytes on a local file system (NFS and SMB clients keep an
// unlinked file that is still open under a temporary name in the folder: not there).
// -1 when there is nothing worth holding.
constexpr off_t kReleaseLaterBytes = off_t(4) << 20;

int hold_replaced_file(const std::string& path) {
#ifdef O_PATH
  const int fd = ::open(path.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return -1;
  struct stat st {};
  struct statfs fs {};
  constexpr long kNfs = 0x6969, kSmb = 0x517B, kCifs = static_cast<long>(0xFF534D42), kSmb2 = static_cast<long>(0xFE534D42);
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < kReleaseLaterBytes || ::fstatfs(fd, &fs) != 0 ||
      fs.f_type == kNfs || fs.f_type == kSmb || fs.f_type == kCifs || fs.f_type == kSmb2) {
    ::close(fd);
    return -1;
  }
  return fd;
#else
  (void)path;
  return -1;
#endif
}

// Drops the reference on a thread of its own; on this one when no thread can be had.
void release_in_background(int fd) {
  try {
    std::thread([fd] { ::close(fd); }).detach();
  } catch (const std::system_error&) {
    ::close(fd);
  }
}
}  // namespace

bool sync_on_commit() { return t_sync_on_commit; }
SyncScope::SyncScope(bool sync) : previous_(t_sync_on_commit) { t_sync_on_commit = sync; }
SyncScope::~SyncScope() { t_sync_on_commit = previous_; }

void AtomicFile::commit() {
  if (flusher_) {
    const int err = flusher_->stop();
    flusher_.reset();
    if (err != 0) {
      errno = err;
      throw write_error(format_, path_, "fsync failed: " + reason());
    }
  }
  // fdatasync: the data and the size, which is all a reader of the file needs.
  if (sync_ && ::fdatasync(fd_) != 0) throw write_error(format_, path_, "fsync failed: " + reason());
  if (::close(fd_) != 0) {
    fd_ = -1;
    throw write_error(format_, path_, "close failed: " + reason());
  }
  fd_ = -1;
  const int replaced = hold_replaced_file(path_);
  if (::rename(tmp_path_.c_str(), path_.c_str()) != 0) {
    if (replaced >= 0) ::close(replaced);
    throw write_error(format_, path_, "cannot replace the target: " + reason());
  }
  if (replaced >= 0) release_in_background(replaced);
  committed_ = true;
  if (!sync_) return;
  // The rename lives in the folder: flush it too. Some file systems cannot open or sync a
  // folder (EINVAL); the file itself is already on the device then.
  const int dir = ::open(parent_of(path_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    const int rc = ::fsync(dir);
    const int err = errno;
    ::close(dir);
    if (rc != 0 && err != EINVAL && err != EROFS) {
      errno = err;
      throw write_error(format_, path_, "fsync of the folder failed: " + reason());
    }
  }
}

}  // namespace meshioplusplus::io
