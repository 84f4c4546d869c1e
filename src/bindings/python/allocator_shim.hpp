// meshio++ binding: the Python front end of the C++ buffer allocator hook.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

namespace meshioplusplus::python {

// Registers _core.set_allocator(alloc, free) -> token, _core.restore_allocator(token),
// _core.allocator_installed().
void register_allocator_shim(pybind11::module_& m);

// The name of the capsule _core._allocator_api: a pointer to a
// `std::shared_ptr<const BufferAllocator> (*)()` returning the allocator installed in _core.
inline constexpr const char* kAllocatorApiName = "meshioplusplus._core._allocator_api";

// Why the last Python alloc() on this thread failed ("" if it did not), and clears it.
std::string take_allocator_error();

}  // namespace meshioplusplus::python
