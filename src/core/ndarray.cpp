// meshio++ core: NDArray and the buffer allocator hook (see ndarray.hpp for the contract and
// docs/allocator.md for how it is used).
#include "meshioplusplus/ndarray.hpp"

#include "core/uncached_scope.hpp"
#include "core/uninit_vector.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>
#include <new>
#include <sstream>
#include <stdexcept>
#include <type_traits>

namespace meshioplusplus {

namespace {

// The hook: a shared_ptr guarded by a mutex. Taking a mutex per owning allocation is
// negligible next to the allocation itself and keeps install/uninstall race-free.
std::mutex g_allocator_mutex;
std::shared_ptr<const BufferAllocator> g_allocator;  // nullptr = default heap

constexpr std::size_t kDefaultAlignment = 64;  // cache line; enough for any SIMD load

// Large buffers are aligned to 2 MiB and marked for transparent huge pages: a reader fills
// every byte of a fresh buffer, and one fault per 2 MiB instead of one per 4 KiB removes
// most of the kernel time of a read (page faults are costly in virtual machines). The size
// is not rounded up, so the tail stays on small pages and resident memory does not grow.
constexpr std::size_t kHugeThreshold = std::size_t{4} << 20;
constexpr std::size_t kHugeAlignment = std::size_t{2} << 20;
// Buffers from 1 MiB on are kept for reuse when they die (BufferCache below): glibc hands
// back heap memory of that size to the system as soon as another library's frees let it
// trim, so it too would come back as fresh pages.
constexpr std::size_t kCacheFrom = std::size_t{1} << 20;
// zeros() of this many bytes or more map fresh zero pages (one mmap call costs less than
// clearing 64 pages of fresh memory, each a page fault).
constexpr std::size_t kZerosMapFrom = std::size_t{256} << 10;

thread_local int t_uncached = 0;  // UncachedScope depth on this thread

// Freed buffers of kCacheFrom bytes or more are kept for the next allocation that fits
// (default heap only; see docs/allocator.md). A fresh large buffer is fresh pages: the
// kernel zeroes every one and, in a virtual machine, the first touch of each costs more
// again, which is most of the time of a binary read. A process that reads mesh after mesh
// (a time series, a batch conversion) gets its buffers back warm instead, as glibc gives
// back its heap's small ones. Bounded by a byte limit (default RAM/64, at most 512 MiB;
// the MESHIOPP_BUFFER_CACHE_MB environment variable or set_buffer_cache_limit() sets it, 0
// turns the cache off) and kMaxEntries buffers, the oldest given back to the system first;
// a buffer serves requests down to about 4/5 of its size (kReuseSlack). Off under
// AddressSanitizer, which must see every free to find a use after it. give() runs in
// Buffer's destructor: it never allocates (the entries are reserved up front).
class BufferCache {
 public:
  static BufferCache& instance() {
    static BufferCache* cache = new BufferCache();  // never destroyed: buffers die at exit too
    return *cache;
  }

  // A cached buffer of at least `nbytes` (its capacity in `capacity`), or nullptr.
  void* take(std::size_t nbytes, std::size_t& capacity) {
    std::lock_guard lock(mutex_);
    std::size_t best = entries_.size();
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      const std::size_t c = entries_[i].capacity;
      if (c >= nbytes && c - nbytes <= nbytes / kReuseSlack + kHugeAlignment && (best == entries_.size() || c < entries_[best].capacity))
        best = i;
    }
    if (best == entries_.size()) return nullptr;
    void* p = entries_[best].data;
    capacity = entries_[best].capacity;
    total_ -= capacity;
    entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(best));
    return p;
  }

  // Keeps `data` for reuse; false if it does not fit under the limit (the caller frees it).
  bool give(void* data, std::size_t capacity) noexcept {
    std::array<void*, kMaxEntries> evicted{};
    std::size_t n = 0;
    {
      std::lock_guard lock(mutex_);
      if (capacity > limit_) return false;
      while (!entries_.empty() && (total_ + capacity > limit_ || entries_.size() >= kMaxEntries)) {
        evicted[n++] = entries_.front().data;
        total_ -= entries_.front().capacity;
        entries_.erase(entries_.begin());
      }
      entries_.push_back({data, capacity});  // within the reserved capacity: no allocation
      total_ += capacity;
    }
    for (std::size_t i = 0; i < n; ++i) std::free(evicted[i]);
    return true;
  }

  std::size_t set_limit(std::size_t bytes) {
    std::size_t previous;
    {
      std::lock_guard lock(mutex_);
      previous = limit_;
      limit_ = bytes;
    }
    trim();
    return previous;
  }

  std::size_t bytes() {
    std::lock_guard lock(mutex_);
    return total_;
  }

  // Gives back what is over the limit (everything when the limit is 0).
  void trim() {
    std::vector<void*> evicted;
    {
      std::lock_guard lock(mutex_);
      while (!entries_.empty() && total_ > limit_) {
        evicted.push_back(entries_.front().data);
        total_ -= entries_.front().capacity;
        entries_.erase(entries_.begin());
      }
    }
    for (void* p : evicted) std::free(p);
  }

  void release() {
    const std::size_t limit = set_limit(0);
    set_limit(limit);
  }

 private:
  static constexpr std::size_t kMaxEntries = 32;
  static constexpr std::size_t kReuseSlack = 4;  // a buffer serves requests down to 4/5 of it

  BufferCache() : limit_(default_limit()) { entries_.reserve(kMaxEntries); }

  static std::size_t default_limit() {
#if defined(__SANITIZE_ADDRESS__)
    return 0;
#else
    if (const char* env = std::getenv("MESHIOPP_BUFFER_CACHE_MB")) {
      char* end = nullptr;
      const unsigned long long mb = std::strtoull(env, &end, 10);
      if (end != env && *end == '\0') return static_cast<std::size_t>(std::min<unsigned long long>(mb, 1ull << 40)) << 20;
    }
    const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
    const std::size_t ram = pages > 0 && page > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) : 0;
    return std::min<std::size_t>(ram / 64, std::size_t{512} << 20);
#endif
  }

  struct Entry {
    void* data;
    std::size_t capacity;
  };
  std::mutex mutex_;
  std::vector<Entry> entries_;  // oldest first
  std::size_t total_ = 0;
  std::size_t limit_;
};

// `cached`: the buffer is kCacheFrom bytes or more, from posix_memalign, and goes back to the
// cache (or std::free) when it dies.
void* allocate_default(std::size_t nbytes, bool& cached, std::size_t& capacity) {
  cached = nbytes >= kCacheFrom;
  capacity = nbytes;
  if (!cached) return ::operator new(nbytes, std::align_val_t{kDefaultAlignment});
  if (void* p = BufferCache::instance().take(nbytes, capacity)) return p;
  // posix_memalign, not aligned_alloc: aligned_alloc wants the size to be a multiple of the
  // alignment (C11 7.22.3.1; ASan aborts on it, `make test-sanitize`), and we do not round up.
  const bool huge = nbytes >= kHugeThreshold;
  void* p = nullptr;
  if (::posix_memalign(&p, huge ? kHugeAlignment : kDefaultAlignment, nbytes) != 0) throw std::bad_alloc();
  if (huge) ::madvise(p, nbytes / kHugeAlignment * kHugeAlignment, MADV_HUGEPAGE);  // advice only; failure is harmless
  return p;
}

}  // namespace

std::size_t dtype_size(DType dtype) {
  return visit_dtype(dtype, [](auto v) { return sizeof(v); });
}

std::string_view dtype_name(DType dtype) {
  switch (dtype) {
    case DType::int8: return "int8";
    case DType::int16: return "int16";
    case DType::int32: return "int32";
    case DType::int64: return "int64";
    case DType::uint8: return "uint8";
    case DType::uint16: return "uint16";
    case DType::uint32: return "uint32";
    case DType::uint64: return "uint64";
    case DType::float32: return "float32";
    case DType::float64: break;
  }
  return "float64";
}

bool dtype_is_float(DType dtype) { return dtype == DType::float32 || dtype == DType::float64; }

bool dtype_is_signed_int(DType dtype) {
  return dtype == DType::int8 || dtype == DType::int16 || dtype == DType::int32 || dtype == DType::int64;
}

void set_buffer_allocator(const BufferAllocator* allocator) {
  set_buffer_allocator(allocator ? std::make_shared<const BufferAllocator>(*allocator) : nullptr);
}

void set_buffer_allocator(std::shared_ptr<const BufferAllocator> allocator) {
  std::shared_ptr<const BufferAllocator> previous;
  {
    std::lock_guard lock(g_allocator_mutex);
    previous.swap(g_allocator);
    g_allocator = std::move(allocator);
  }
  // `previous` dies here, outside the lock: its deleter may run user code.
}

std::size_t set_buffer_cache_limit(std::size_t bytes) { return BufferCache::instance().set_limit(bytes); }
std::size_t cached_buffer_bytes() { return BufferCache::instance().bytes(); }
void release_cached_buffers() { BufferCache::instance().release(); }

namespace detail {

void* scratch_allocate(std::size_t nbytes) {
  bool cached = false;
  std::size_t capacity = 0;
  return allocate_default(std::max<std::size_t>(nbytes, 1), cached, capacity);
}

void scratch_release(void* p, std::size_t nbytes) noexcept {
  if (!p) return;
  if (std::max<std::size_t>(nbytes, 1) < kCacheFrom) return ::operator delete(p, std::align_val_t{kDefaultAlignment});
  if (t_uncached > 0 || !BufferCache::instance().give(p, nbytes)) std::free(p);
}

}  // namespace detail

std::shared_ptr<const BufferAllocator> current_buffer_allocator() {
  std::lock_guard lock(g_allocator_mutex);
  return g_allocator;
}

std::size_t checked_mul(std::size_t a, std::size_t b, const char* what) {
  std::size_t out = 0;
  if (__builtin_mul_overflow(a, b, &out))
    throw std::length_error(std::string(what) + ": size overflows (" + std::to_string(a) + " x " +
                            std::to_string(b) + ")");
  return out;
}

Buffer::Buffer(std::size_t nbytes) : nbytes_(nbytes), allocator_(current_buffer_allocator()) {
  // A zero-byte request still gets a unique, freeable pointer.
  const std::size_t request = nbytes == 0 ? 1 : nbytes;
  if (allocator_) {
    data_ = allocator_->alloc(request, allocator_->user);
    if (!data_) throw std::bad_alloc();
  } else {
    data_ = allocate_default(request, cached_, capacity_);
  }
}

UncachedScope::UncachedScope() { ++t_uncached; }
UncachedScope::~UncachedScope() { --t_uncached; }

Buffer::~Buffer() {
  const std::size_t request = nbytes_ == 0 ? 1 : nbytes_;
  if (allocator_)
    allocator_->free(data_, request, allocator_->user);
  else if (cached_) {
    if (t_uncached > 0 || !BufferCache::instance().give(data_, capacity_)) std::free(data_);
  } else
    ::operator delete(data_, std::align_val_t{kDefaultAlignment});
}

void Buffer::discard_tail(std::size_t keep) {
#ifdef MADV_DONTNEED
  if (allocator_ || !cached_ || keep >= nbytes_) return;
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto begin = reinterpret_cast<std::uintptr_t>(data_);
  const std::uintptr_t from = (begin + keep + page - 1) / page * page, to = (begin + nbytes_) / page * page;
  if (to > from) ::madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);  // advice: failure keeps the pages
#else
  (void)keep;
#endif
}

NDArray::NDArray(DType dtype, Shape shape, void* data, std::shared_ptr<Buffer> buffer,
                 std::shared_ptr<const void> keep_alive)
    : dtype_(dtype), shape_(std::move(shape)), data_(data), buffer_(std::move(buffer)),
      keep_alive_(std::move(keep_alive)) {}

static std::size_t shape_nbytes(DType dtype, const NDArray::Shape& shape) {
  std::size_t n = dtype_size(dtype);
  for (std::size_t d : shape) n = checked_mul(n, d, "NDArray");
  return n;
}

NDArray NDArray::uninit(DType dtype, Shape shape) {
  auto buffer = std::make_shared<Buffer>(shape_nbytes(dtype, shape));
  void* data = buffer->data();
  return NDArray(dtype, std::move(shape), data, std::move(buffer), nullptr);
}

NDArray NDArray::zeros(DType dtype, Shape shape) {
  // A large array of zeros is a fresh anonymous mapping, as calloc (numpy.zeros) gives it:
  // its pages are zero already and cost nothing until touched, where clearing a buffer
  // faults every page in (a reader's placeholder zeros, never read, paid for them all).
  // Not when an allocator is installed: the array's memory must then come from it.
  const std::size_t nbytes = shape_nbytes(dtype, shape);
  if (nbytes >= kZerosMapFrom && !current_buffer_allocator()) {
    void* p = ::mmap(nullptr, nbytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED) {
      std::shared_ptr<void> owner(p, [nbytes](void* q) { ::munmap(q, nbytes); });
      return view(p, dtype, std::move(shape), std::move(owner));
    }
  }
  NDArray out = uninit(dtype, std::move(shape));
  std::memset(out.data_, 0, out.nbytes());
  return out;
}

NDArray NDArray::view(void* data, DType dtype, Shape shape, std::shared_ptr<const void> keep_alive) {
  shape_nbytes(dtype, shape);  // overflow check only
  return NDArray(dtype, std::move(shape), data, nullptr, std::move(keep_alive));
}

NDArray NDArray::copy() const {
  NDArray out = uninit(dtype_, shape_);
  if (nbytes()) std::memcpy(out.data_, data_, nbytes());
  return out;
}

NDArray NDArray::reshaped(Shape shape) const {
  if (shape_nbytes(dtype_, shape) != nbytes())
    throw std::invalid_argument("NDArray::reshaped: element count changes");
  return NDArray(dtype_, std::move(shape), data_, buffer_, keep_alive_);
}

std::size_t NDArray::size() const {
  std::size_t n = 1;
  for (std::size_t d : shape_) n *= d;  // validated at construction
  return n;
}

std::size_t NDArray::nbytes() const { return size() * dtype_size(dtype_); }

std::size_t NDArray::row_size() const {
  std::size_t n = 1;
  for (std::size_t i = 1; i < shape_.size(); ++i) n *= shape_[i];
  return n;
}

double NDArray::value_as_double(std::size_t i) const {
  return visit_dtype(dtype_, [&](auto v) { return static_cast<double>(static_cast<const decltype(v)*>(data_)[i]); });
}

namespace {

// A float converted to an integer type it does not fit (NaN, infinity, out of range) is
// undefined behaviour in C++; every float-to-integer conversion goes through this check and
// names the value and its flat index instead.
template <class Dst, class Src> Dst checked_cast(Src v, std::size_t i) {
  if constexpr (std::is_floating_point_v<Src> && std::is_integral_v<Dst>) {
    // [lo, hi) in the float domain: lo = min exactly, hi = max + 1 = a power of two, exact.
    constexpr double lo = static_cast<double>(std::numeric_limits<Dst>::min());
    constexpr double hi = static_cast<double>(std::numeric_limits<Dst>::max() / 2 + 1) * 2.0;
    const double d = std::trunc(static_cast<double>(v));  // the conversion truncates first
    if (!(d >= lo && d < hi)) {
      std::ostringstream what;
      what << "value " << static_cast<double>(v) << " at index " << i << " does not fit the integer dtype it is converted to";
      throw std::range_error(what.str());
    }
  }
  return static_cast<Dst>(v);
}

}  // namespace

std::int64_t NDArray::value_as_int64(std::size_t i) const {
  return visit_dtype(dtype_, [&](auto v) { return checked_cast<std::int64_t>(static_cast<const decltype(v)*>(data_)[i], i); });
}

NDArray NDArray::as_dtype(DType dtype) const {
  if (dtype == dtype_) return *this;
  NDArray out = uninit(dtype, shape_);
  const std::size_t n = size();
  visit_dtype(dtype_, [&](auto src_tag) {
    using Src = decltype(src_tag);
    const Src* src = static_cast<const Src*>(data_);
    visit_dtype(dtype, [&](auto dst_tag) {
      using Dst = decltype(dst_tag);
      Dst* dst = static_cast<Dst*>(out.data_);
      for (std::size_t i = 0; i < n; ++i) dst[i] = checked_cast<Dst>(src[i], i);
    });
  });
  return out;
}

}  // namespace meshioplusplus
