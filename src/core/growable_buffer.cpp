// meshio++ core: GrowableBuffer (see growable_buffer.hpp).
#include "core/growable_buffer.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <stdexcept>
#include <utility>

namespace meshioplusplus {

namespace {

std::size_t page_size() {
  static const std::size_t size = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  return size;
}
std::size_t round_to_pages(std::size_t n) { return (n + page_size() - 1) / page_size() * page_size(); }


#if defined(__SANITIZE_THREAD__)
#define MESHIOPP_UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define MESHIOPP_UNDER_TSAN 1
#endif
#endif

#if defined(__linux__) && defined(MREMAP_MAYMOVE)
constexpr bool kCanMap = true;

// Moves a mapping of `old_len` bytes (the first `used` written) to one of `new_len`.
// ThreadSanitizer does not intercept mremap(2): the range a move leaves keeps its access
// history, and a later buffer that lands there (written by another thread) is reported as
// a race that is not there. Under it the move is a new mapping, one copy and an unmap, all
// of which it sees; everywhere else, mremap (no copy).
void* move_mapping(void* old, std::size_t old_len, std::size_t used, std::size_t new_len) {
#ifdef MESHIOPP_UNDER_TSAN
  void* p = ::mmap(nullptr, new_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return p;
  std::memcpy(p, old, used);
  ::munmap(old, old_len);
  return p;
#else
  (void)used;
  return ::mremap(old, old_len, new_len, MREMAP_MAYMOVE);
#endif
}
#else
constexpr bool kCanMap = false;
#endif

}  // namespace

GrowableBuffer::~GrowableBuffer() { clear(); }

GrowableBuffer::GrowableBuffer(GrowableBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      capacity_(std::exchange(other.capacity_, 0)),
      ready_(std::exchange(other.ready_, 0)),
      mapped_(std::exchange(other.mapped_, false)) {}

GrowableBuffer& GrowableBuffer::operator=(GrowableBuffer&& other) noexcept {
  if (this != &other) {
    clear();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    capacity_ = std::exchange(other.capacity_, 0);
    ready_ = std::exchange(other.ready_, 0);
    mapped_ = std::exchange(other.mapped_, false);
  }
  return *this;
}

void GrowableBuffer::clear() {
  if (data_) {
    if (mapped_) ::munmap(data_, capacity_);
    else std::free(data_);
  }
  data_ = nullptr;
  size_ = capacity_ = ready_ = 0;
  mapped_ = false;
}

GrowableBuffer::GrowableBuffer(const GrowableBuffer& other) {
  if (other.size_) std::memcpy(extend(other.size_), other.data_, other.size_);
}

GrowableBuffer& GrowableBuffer::operator=(const GrowableBuffer& other) {
  if (this != &other) *this = GrowableBuffer(other);
  return *this;
}

void GrowableBuffer::grow(std::size_t bytes) {
  std::size_t need = 0;
  if (__builtin_add_overflow(size_, bytes, &need)) throw std::bad_alloc();
  if (mapped_ && need <= capacity_) return populate_to(need);
  // Doubling from 64 bytes: a deck whose element types alternate row by row makes a run (two
  // buffers) per row, which must stay about as small as its rows.
  const std::size_t want = std::max({need, capacity_ > SIZE_MAX / 2 ? need : capacity_ * 2, std::size_t{64}});
  if (kCanMap && (mapped_ || (want >= kMapFrom && !current_buffer_allocator()))) {
#if defined(__linux__) && defined(MREMAP_MAYMOVE)
    const std::size_t len = round_to_pages(want);
    void* p = nullptr;
    if (mapped_) {
      p = move_mapping(data_, capacity_, size_, len);
      if (p == MAP_FAILED) throw std::bad_alloc();
    } else {
      p = ::mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (p == MAP_FAILED) throw std::bad_alloc();
      if (size_) std::memcpy(p, data_, size_);  // the one copy, of at most kMapFrom bytes
      std::free(data_);
      mapped_ = true;
      ready_ = size_ / page_size() * page_size();
    }
    // No MADV_HUGEPAGE here (NDArray's exact-size buffers take it): the capacity runs ahead of
    // the bytes written, and a huge page is resident whole as soon as one byte of it is
    // written, so a growing buffer held up to 2 MB it did not use (MDPA's read of the
    // bracket peaked at 1.24x the arrays with the advice, 1.06x without).
    data_ = static_cast<char*>(p);
    capacity_ = len;
    return populate_to(need);
#endif
  }
  void* p = std::realloc(data_, want);
  if (!p) throw std::bad_alloc();
  data_ = static_cast<char*>(p);
  capacity_ = ready_ = want;
}

// A mapping's pages are populated ahead of the writes a kPopulate step at a time, by one
// madvise(MADV_POPULATE_WRITE) (Linux 5.14) instead of a page fault per 4 KiB page: on this
// VM the faults cost the text readers a fifth of their time, and huge pages, which avoided
// them, left up to 2 MiB resident past the bytes written. At most a step is populated
// ahead of them. Where the call is refused the pages fault in as they are written.
void GrowableBuffer::populate_to(std::size_t need) {
  constexpr std::size_t kPopulate = std::size_t{128} << 10;  // a multiple of any page size
  const std::size_t to = std::min(capacity_, (need + kPopulate - 1) / kPopulate * kPopulate);
#ifdef MADV_POPULATE_WRITE
  if (to > ready_) ::madvise(data_ + ready_, to - ready_, MADV_POPULATE_WRITE);
#endif
  ready_ = std::max(ready_, to);
}

void GrowableBuffer::append_consuming(GrowableBuffer&& other) {
  if (this == &other || other.size_ == 0) return other.clear();
  if (size_ == 0) {
    *this = std::move(other);
    return;
  }
  if (!other.mapped_) {
    std::memcpy(extend(other.size_), other.data_, other.size_);
    return other.clear();
  }
  // A multiple of any page size, small beside the buffers joined: both hold at most this
  // much of the same bytes at once (4 MiB pieces let a 3.9 MB half of the bracket's FLAC3D
  // zones live twice, and its read peak at 1.27x the arrays). Extended a piece at a time,
  // so this buffer's pages are populated as the other's go back, not all before.
  constexpr std::size_t kPiece = std::size_t{256} << 10;
  for (std::size_t at = 0; at < other.size_; at += kPiece) {
    const std::size_t n = std::min(kPiece, other.size_ - at);
    std::memcpy(extend(n), other.data_ + at, n);
#ifdef MADV_DONTNEED
    if (n == kPiece) ::madvise(other.data_ + at, n, MADV_DONTNEED);  // the copied pages go back
#endif
  }
  other.clear();
}

NDArray GrowableBuffer::take(DType dtype, NDArray::Shape shape) {
  std::size_t nbytes = dtype_size(dtype);
  for (std::size_t d : shape) nbytes = checked_mul(nbytes, d, "GrowableBuffer::take");
  if (nbytes != size_) throw std::logic_error("GrowableBuffer::take: the shape does not cover the bytes");
  if (!mapped_ || current_buffer_allocator()) {
    NDArray out = NDArray::uninit(dtype, std::move(shape));
    if (size_) std::memcpy(out.raw(), data_, size_);
    clear();
    return out;
  }
  // Shrunk to its pages (in place: shrinking never moves), then owned by the array.
  const std::size_t len = round_to_pages(std::max<std::size_t>(size_, 1));
  if (len < capacity_) ::munmap(data_ + len, capacity_ - len);
  void* p = data_;
  data_ = nullptr;
  size_ = capacity_ = ready_ = 0;
  mapped_ = false;
  std::shared_ptr<void> owner(p, [len](void* q) { ::munmap(q, len); });  // unmaps p if this throws
  return NDArray::view(p, dtype, std::move(shape), std::move(owner));
}

}  // namespace meshioplusplus
