// meshio++ core: UninitVector, a std::vector whose resize() leaves new elements of trivial
// types uninitialised (default-initialised) instead of zeroing them.
//
// Readers size a vector to what a file declares and then overwrite every element: zeroing it
// first is a wasted pass over memory (a memset of tens of MB per large read, and the page
// faults moved ahead of the parse). Use it only where every element is written before it is
// read.
#pragma once

#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace meshioplusplus {

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

template <class T> using UninitVector = std::vector<T, DefaultInitAllocator<T>>;

}  // namespace meshioplusplus
