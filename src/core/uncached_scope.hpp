// meshioplusplus core: buffers that must not outlive their use in the default heap's cache
// of freed buffers (core/ndarray.cpp, docs/allocator.md).
//
// While an UncachedScope lives on a thread, a large buffer that dies on that thread goes
// back to the system instead of into the cache. For a reader's temporary that nothing
// after it can reuse (an array decoded only to be checked): kept, it would sit beside the
// arrays the read allocates next and raise the read's peak memory by its size.
#pragma once

namespace meshioplusplus {

class UncachedScope {
 public:
  UncachedScope();
  ~UncachedScope();
  UncachedScope(const UncachedScope&) = delete;
  UncachedScope& operator=(const UncachedScope&) = delete;
};

}  // namespace meshioplusplus
