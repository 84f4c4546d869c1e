// meshio++ core: NDArray and the buffer allocator hook (see ndarray.hpp for the contract and
// docs/allocator.md for how it is used).
#include "meshioplusplus/ndarray.hpp"

#include <sys/mman.h>

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

void* allocate_default(std::size_t nbytes, bool& huge) {
  huge = nbytes >= kHugeThreshold;
  if (!huge) return ::operator new(nbytes, std::align_val_t{kDefaultAlignment});
  // posix_memalign, not aligned_alloc: aligned_alloc wants the size to be a multiple of the
  // alignment (C11 7.22.3.1; ASan aborts on it, `make test-sanitize`), and we do not round up.
  void* p = nullptr;
  if (::posix_memalign(&p, kHugeAlignment, nbytes) != 0) throw std::bad_alloc();
  ::madvise(p, nbytes / kHugeAlignment * kHugeAlignment, MADV_HUGEPAGE);  // advice only; failure is harmless
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
    data_ = allocate_default(request, huge_);
  }
}

Buffer::~Buffer() {
  const std::size_t request = nbytes_ == 0 ? 1 : nbytes_;
  if (allocator_)
    allocator_->free(data_, request, allocator_->user);
  else if (huge_)
    std::free(data_);
  else
    ::operator delete(data_, std::align_val_t{kDefaultAlignment});
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
