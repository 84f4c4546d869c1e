// meshio++ core: array_part, a run of an array's elements handed out as an array of its own
// that shares the bytes (no copy) and keeps their owner alive.
//
// Readers that decode one flat buffer (a VTK connectivity array, an XDMF Mixed topology, a
// VTKHDF offsets array) hand out its parts as cell blocks: each part holds the whole buffer
// alive (an NDArray buffer, or the keep-alive owner of a view), so nothing dangles while any
// part lives, and the buffer goes with the last of them.
#pragma once

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <utility>

#include "meshioplusplus/ndarray.hpp"

namespace meshioplusplus {

// Elements [first, first + product(shape)) of `a` as an array of `shape` sharing its bytes.
inline NDArray array_part(const NDArray& a, std::size_t first, NDArray::Shape shape) {
  std::size_t n = 1;
  for (std::size_t d : shape) n = checked_mul(n, d, "array_part");
  if (first > a.size() || n > a.size() - first) throw std::out_of_range("array_part: the part runs past the array's end");
  std::shared_ptr<const void> owner = a.buffer() ? std::shared_ptr<const void>(a.buffer()) : a.keep_alive();
  return NDArray::view(static_cast<char*>(a.raw()) + first * dtype_size(a.dtype()), a.dtype(), std::move(shape),
                       std::move(owner));
}

}  // namespace meshioplusplus
