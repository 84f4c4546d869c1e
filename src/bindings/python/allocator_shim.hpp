// meshio++ binding: the Python front end of the C++ buffer allocator hook.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

namespace meshioplusplus::python {

// Registers _core.set_allocator(alloc, free) -> token, _core.restore_allocator(token),
// _core.allocator_installed().
void register_allocator_shim(pybind11::module_& m);

// Why the last Python alloc() on this thread failed ("" if it did not), and clears it.
std::string take_allocator_error();

}  // namespace meshioplusplus::python
