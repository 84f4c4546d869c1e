// meshio++ core I/O: FileBytes (mmap) and AtomicFile (temporary file + rename); see file.hpp.
#include "core/io/file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "meshioplusplus/errors.hpp"

namespace meshioplusplus::io {

namespace {

std::string reason() { return std::strerror(errno); }

}  // namespace

FileBytes::FileBytes(const std::string& path, std::string_view format) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw ReadError(std::string(format) + ": " + path + ": cannot open: " + reason());
  struct stat st {};
  if (::fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
    ::close(fd);
    throw ReadError(std::string(format) + ": " + path + ": cannot open: not a regular file");
  }
  size_ = static_cast<std::size_t>(st.st_size);
  if (size_ > 0 && S_ISREG(st.st_mode)) {
    // MAP_POPULATE maps every page up front in one kernel call instead of one fault per
    // 4 KiB page while parsing; the whole file is read anyway.
    void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    if (p != MAP_FAILED) {
      data_ = static_cast<const char*>(p);
      mapped_ = true;
    }
  }
  if (!mapped_) {  // pipes, /proc files, failed maps: one read loop
    std::size_t have = 0;
    fallback_.resize(size_ > 0 ? size_ : 1 << 16);
    for (;;) {
      if (have == fallback_.size()) fallback_.resize(fallback_.size() * 2);
      const ssize_t n = ::read(fd, fallback_.data() + have, fallback_.size() - have);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        ::close(fd);
        throw ReadError(std::string(format) + ": " + path + ": read failed: " + reason());
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
}

AtomicFile::AtomicFile(const std::string& path, std::string_view format) : path_(path), format_(format) {
  tmp_path_ = path + ".meshioplusplus-XXXXXX";
  fd_ = ::mkstemp(tmp_path_.data());
  if (fd_ < 0) throw WriteError(format_ + ": " + path + ": cannot create a temporary file beside it: " + reason());
  // mkstemp makes 0600; give the file the permissions a plain open() would.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd_, 0666 & ~mask);
}

AtomicFile::~AtomicFile() {
  if (committed_) return;
  if (fd_ >= 0) ::close(fd_);
  ::unlink(tmp_path_.c_str());
}

void AtomicFile::write(const void* data, std::size_t nbytes) {
  const char* p = static_cast<const char*>(data);
  while (nbytes > 0) {
    const ssize_t n = ::write(fd_, p, nbytes);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw WriteError(format_ + ": " + path_ + ": write failed: " + reason());
    p += n;
    nbytes -= static_cast<std::size_t>(n);
  }
}

void AtomicFile::commit() {
  if (::close(fd_) != 0) {
    fd_ = -1;
    throw WriteError(format_ + ": " + path_ + ": close failed: " + reason());
  }
  fd_ = -1;
  if (::rename(tmp_path_.c_str(), path_.c_str()) != 0)
    throw WriteError(format_ + ": " + path_ + ": cannot replace the target: " + reason());
  committed_ = true;
}

}  // namespace meshioplusplus::io
