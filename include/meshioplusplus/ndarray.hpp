// meshio++ core: NDArray, the one array type of the C++ core, and the process-wide buffer
// allocator hook under it.
//
// An NDArray is a dtype, a shape and a data pointer. It either owns its bytes through a
// shared Buffer (several NDArray objects may share one Buffer; copying an NDArray object
// is shallow, like numpy) or is a view that owns nothing.
//
// Allocator hook (docs/allocator.md):
//   * BufferAllocator is plain C callbacks {alloc, free, user}; set_buffer_allocator()
//     installs it process-wide (nullptr restores the default heap). Installing is
//     thread-safe.
//   * It is consulted only when an owning buffer is allocated. Each Buffer keeps a shared
//     reference to the allocator it was born with and is freed through it whenever it
//     dies, so uninstalling never orphans a live buffer.
//   * A copy allocates through the allocator current at copy time (pinned-ness does not
//     propagate through copies); views own nothing and are unaffected.
//   * Without one, buffers of 1 MiB and more come from the default heap's cache of freed
//     buffers when one fits (set_buffer_cache_limit below).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace meshioplusplus {

enum class DType : std::uint8_t {
  int8, int16, int32, int64, uint8, uint16, uint32, uint64, float32, float64,
};

std::size_t dtype_size(DType dtype);
std::string_view dtype_name(DType dtype);  // numpy spelling: "int64", "float32", ...
bool dtype_is_float(DType dtype);
bool dtype_is_signed_int(DType dtype);

template <class T> constexpr DType dtype_of();
template <> constexpr DType dtype_of<std::int8_t>() { return DType::int8; }
template <> constexpr DType dtype_of<std::int16_t>() { return DType::int16; }
template <> constexpr DType dtype_of<std::int32_t>() { return DType::int32; }
template <> constexpr DType dtype_of<std::int64_t>() { return DType::int64; }
template <> constexpr DType dtype_of<std::uint8_t>() { return DType::uint8; }
template <> constexpr DType dtype_of<std::uint16_t>() { return DType::uint16; }
template <> constexpr DType dtype_of<std::uint32_t>() { return DType::uint32; }
template <> constexpr DType dtype_of<std::uint64_t>() { return DType::uint64; }
template <> constexpr DType dtype_of<float>() { return DType::float32; }
template <> constexpr DType dtype_of<double>() { return DType::float64; }

// Calls `f(T{})` with T the C++ type of `dtype`.
template <class F> decltype(auto) visit_dtype(DType dtype, F&& f) {
  switch (dtype) {
    case DType::int8: return f(std::int8_t{});
    case DType::int16: return f(std::int16_t{});
    case DType::int32: return f(std::int32_t{});
    case DType::int64: return f(std::int64_t{});
    case DType::uint8: return f(std::uint8_t{});
    case DType::uint16: return f(std::uint16_t{});
    case DType::uint32: return f(std::uint32_t{});
    case DType::uint64: return f(std::uint64_t{});
    case DType::float32: return f(float{});
    case DType::float64: break;
  }
  return f(double{});
}

extern "C" {
// Plain C callbacks. alloc returns nullptr on failure (the core then throws
// std::bad_alloc); free receives the pointer and byte count alloc was given.
struct BufferAllocator {
  void* (*alloc)(std::size_t nbytes, void* user);
  void (*free)(void* ptr, std::size_t nbytes, void* user);
  void* user;
};
}

// Installs `allocator` (copied) process-wide; nullptr restores the default heap.
void set_buffer_allocator(const BufferAllocator* allocator);
// The same for a caller that must learn when the last buffer born with it has died (the
// shared_ptr's deleter runs then): the Python shim uses it to release its callables.
void set_buffer_allocator(std::shared_ptr<const BufferAllocator> allocator);
// The allocator current now (nullptr = default heap).
std::shared_ptr<const BufferAllocator> current_buffer_allocator();

// The default heap keeps freed buffers of 1 MiB and more, up to a byte limit, for the next
// allocation they fit (docs/allocator.md): set the limit (0 turns the cache off and gives
// everything back; returns the previous limit), ask what it holds, or give it all back now.
std::size_t set_buffer_cache_limit(std::size_t bytes);
std::size_t cached_buffer_bytes();
void release_cached_buffers();

// `a * b` for sizes, throwing std::length_error (naming `what`) on overflow.
std::size_t checked_mul(std::size_t a, std::size_t b, const char* what);

// One owning allocation, freed through the allocator it was born with.
class Buffer {
 public:
  // Allocates `nbytes` (uninitialised) through the allocator current now.
  explicit Buffer(std::size_t nbytes);
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  void* data() const { return data_; }
  std::size_t nbytes() const { return nbytes_; }
  // The allocator this buffer was born with (nullptr = default heap).
  const std::shared_ptr<const BufferAllocator>& allocator() const { return allocator_; }
  // Gives the whole memory pages past the first `keep` bytes back to the system, for a
  // reader that compacted its data in place into the front of the buffer: no array may view
  // those bytes (they read as zeros afterwards). Default-heap buffers of 1 MiB and more only
  // (a buffer from an installed allocator, pinned memory say, is left as it is).
  void discard_tail(std::size_t keep);

 private:
  void* data_ = nullptr;
  std::size_t nbytes_ = 0;
  std::size_t capacity_ = 0;  // default heap: the bytes behind data_ (>= nbytes_ when reused)
  bool cached_ = false;       // default heap, 1 MiB or more: reused after death (see ndarray.cpp)
  std::shared_ptr<const BufferAllocator> allocator_;
};

class NDArray {
 public:
  using Shape = std::vector<std::size_t>;

  NDArray() = default;  // empty float64 array of shape (0,)

  // Owning, uninitialised: for readers that overwrite every byte.
  static NDArray uninit(DType dtype, Shape shape);
  // Zero-filled. From 256 KiB on, with no buffer allocator installed, the memory is a fresh
  // anonymous mapping (zero pages, faulted in only when touched, as calloc gives them),
  // owned through keep_alive() rather than a Buffer; otherwise an owning buffer cleared.
  static NDArray zeros(DType dtype, Shape shape);
  // Non-owning view over caller memory; `keep_alive` (optional) is held as long as any
  // NDArray shares this view, for callers whose memory has an owner of its own.
  static NDArray view(void* data, DType dtype, Shape shape,
                      std::shared_ptr<const void> keep_alive = nullptr);
  // Owning copy of a typed vector (tests, small derived arrays).
  template <class T> static NDArray from_vector(const std::vector<T>& values, Shape shape = {});

  // Deep copy through the allocator current now.
  NDArray copy() const;
  // Same bytes, new shape (element count must match).
  NDArray reshaped(Shape shape) const;

  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  std::size_t ndim() const { return shape_.size(); }
  std::size_t dim(std::size_t axis) const { return axis < shape_.size() ? shape_[axis] : 1; }
  std::size_t size() const;    // number of elements
  std::size_t nbytes() const;  // size() * dtype_size()
  // Elements per row: product of shape[1:] (1 for a 1-D array).
  std::size_t row_size() const;
  bool owns_data() const { return buffer_ != nullptr; }
  const std::shared_ptr<Buffer>& buffer() const { return buffer_; }
  const std::shared_ptr<const void>& keep_alive() const { return keep_alive_; }

  void* raw() const { return data_; }
  template <class T> T* data() const {
    if (dtype_of<std::remove_const_t<T>>() != dtype_)
      throw std::logic_error("NDArray::data<T>: dtype is " + std::string(dtype_name(dtype_)));
    return static_cast<T*>(data_);
  }

  // Element i (flat), converted to double / int64 whatever the dtype (slow path).
  double value_as_double(std::size_t i) const;
  std::int64_t value_as_int64(std::size_t i) const;
  // A copy converted to `dtype` (same shape); returns *this when the dtype already matches.
  NDArray as_dtype(DType dtype) const;

 private:
  NDArray(DType dtype, Shape shape, void* data, std::shared_ptr<Buffer> buffer,
          std::shared_ptr<const void> keep_alive);

  DType dtype_ = DType::float64;
  Shape shape_ = {0};
  void* data_ = nullptr;
  std::shared_ptr<Buffer> buffer_;
  std::shared_ptr<const void> keep_alive_;
};

template <class T> NDArray NDArray::from_vector(const std::vector<T>& values, Shape shape) {
  if (shape.empty()) shape = {values.size()};
  NDArray out = uninit(dtype_of<T>(), std::move(shape));
  if (out.size() != values.size()) throw std::invalid_argument("NDArray::from_vector: shape does not match values");
  if (!values.empty()) std::copy(values.begin(), values.end(), out.data<T>());
  return out;
}

}  // namespace meshioplusplus
