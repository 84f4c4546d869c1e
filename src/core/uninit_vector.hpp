// meshio++ core: UninitVector, a std::vector whose resize() leaves new elements of trivial
// types uninitialised (default-initialised) instead of zeroing them.
//
// Readers size a vector to what a file declares and then overwrite every element: zeroing it
// first is a wasted pass over memory (a memset of tens of MB per large read, and the page
// faults moved ahead of the parse). Use it only where every element is written before it is
// read.
//
// Its memory is scratch memory (ScratchAllocator): from 1 MiB on it comes from the core's
// buffer cache, huge-page advised from 4 MiB, and goes back there when freed (ndarray.cpp),
// so a reader's large intermediates (a Fluent file's faces, the cells they bound) cost one
// fault per 2 MiB, not per 4 KiB, and come back warm in the next read. The cache counts a
// buffer as the bytes asked for (a reused one may be up to a fifth larger). Scratch memory
// never comes from an installed buffer allocator: it never leaves the reader.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace meshioplusplus {

namespace detail {
void* scratch_allocate(std::size_t nbytes);                 // ndarray.cpp
void scratch_release(void* p, std::size_t nbytes) noexcept;  // with the size it was asked for
}  // namespace detail

template <class T> class ScratchAllocator {
 public:
  using value_type = T;
  ScratchAllocator() noexcept = default;
  template <class U> ScratchAllocator(const ScratchAllocator<U>&) noexcept {}
  T* allocate(std::size_t n) {
    if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_array_new_length();
    return static_cast<T*>(detail::scratch_allocate(n * sizeof(T)));
  }
  void deallocate(T* p, std::size_t n) noexcept { detail::scratch_release(p, n * sizeof(T)); }
  template <class U> bool operator==(const ScratchAllocator<U>&) const noexcept { return true; }
};

template <class T, class Base = std::allocator<T>> class DefaultInitAllocator : public Base {
  using Traits = std::allocator_traits<Base>;

 public:
  template <class U> struct rebind {
    using other = DefaultInitAllocator<U, typename Traits::template rebind_alloc<U>>;
  };
  using Base::Base;

  template <class U> void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) { ::new (static_cast<void*>(p)) U; }
  template <class U, class... Args> void construct(U* p, Args&&... args) {
    Traits::construct(static_cast<Base&>(*this), p, std::forward<Args>(args)...);
  }
};

template <class T> using UninitVector = std::vector<T, DefaultInitAllocator<T, ScratchAllocator<T>>>;
// Scratch memory whose elements are value-initialised as std::vector's are.
template <class T> using ScratchVector = std::vector<T, ScratchAllocator<T>>;

}  // namespace meshioplusplus
