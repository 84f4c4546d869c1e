// meshio++ core: GrowableBuffer, bytes appended at the end of an array whose final size is
// not known until the input ends, handed over as an NDArray without a copy where it can.
//
// A reader that gathers rows it cannot count ahead (text decks list elements one by one)
// would otherwise fill a temporary and copy it into the array it returns: twice the
// array's memory at the peak, plus one pass. Here a buffer starts on the heap; once it
// passes kMapFrom it moves (once) into an anonymous mapping that grows with mremap(2),
// which moves page tables, not bytes, so growth never copies and never holds two copies;
// take() then shrinks the mapping to its pages and hands it over as the NDArray's memory
// (unmapped when the last view of it goes). Where that is not possible the bytes are copied
// once, at take(): on systems without mremap, for buffers that stayed small, and whenever a
// buffer allocator is installed (set_buffer_allocator: a reader's arrays must then come from
// it).
//
// Safe for untrusted input in the sense readers need: growth is bounded by what the caller
// appends (one row per row of input), and a failed allocation is std::bad_alloc.
#pragma once

#include <cstddef>
#include <cstring>

#include "meshioplusplus/ndarray.hpp"

namespace meshioplusplus {

class GrowableBuffer {
 public:
  // Buffers that grow past this many bytes move into a mapping of their own (smaller ones
  // stay on the heap: a mapping per small run would spend the process's map count).
  static constexpr std::size_t kMapFrom = std::size_t{1} << 20;

  GrowableBuffer() = default;
  ~GrowableBuffer();
  GrowableBuffer(GrowableBuffer&& other) noexcept;
  GrowableBuffer& operator=(GrowableBuffer&& other) noexcept;
  // A copy holds the same bytes in storage of its own.
  GrowableBuffer(const GrowableBuffer& other);
  GrowableBuffer& operator=(const GrowableBuffer& other);

  // Room for `bytes` more at the end; returns where they go, valid until the next extend().
  char* extend(std::size_t bytes) {
    if (!data_ || bytes > ready_ - size_) grow(bytes);
    char* at = data_ + size_;
    size_ += bytes;
    return at;
  }
  // Appends one value of a trivially copyable type.
  template <class T> void push(const T& value) { std::memcpy(extend(sizeof(T)), &value, sizeof(T)); }
  // The bytes as `n` values of T (the caller knows what it appended).
  template <class T> T* as() const { return reinterpret_cast<T*>(data_); }
  // Drops the bytes past the first `bytes` (their room stays for the next extend()).
  void truncate(std::size_t bytes) {
    if (bytes < size_) size_ = bytes;
  }
  char* data() const { return data_; }
  std::size_t size() const { return size_; }
  // Whether the bytes live in a mapping of their own (what take() hands over uncopied).
  bool mapped() const { return mapped_; }

  // Appends the bytes of `other`, which is left empty. When `other` is mapped, its pages are
  // given back as they are copied (a piece at a time), so the two never both hold the
  // whole of other's bytes: joining the buffers of pieces parsed on several threads costs
  // no more memory than the joined buffer.
  void append_consuming(GrowableBuffer&& other);
  // The bytes as an array of `dtype` and `shape` (whose byte count must be size()); the
  // buffer is empty afterwards.
  NDArray take(DType dtype, NDArray::Shape shape);
  // Frees the bytes.
  void clear();

 private:
  void grow(std::size_t need);
  void populate_to(std::size_t need);

  char* data_ = nullptr;
  // ready_: the bytes from data_ that extend() hands out without grow(): capacity_ on the
  // heap; in a mapping, the pages populated so far (a page-aligned watermark, see grow()).
  std::size_t size_ = 0, capacity_ = 0, ready_ = 0;
  bool mapped_ = false;
};

}  // namespace meshioplusplus
