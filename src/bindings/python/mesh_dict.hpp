// meshio++ binding: the core Mesh <-> the dict that crosses into Python.
//
// The dict's layout is described once, in src/python/meshioplusplus/_schema.py (CoreParts
// and the block/region/periodic tuple types); this file builds and reads exactly that, and
// tests/python/test_one_owner.py checks both directions carry its keys.
#pragma once

#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "meshioplusplus/format.hpp"
#include "meshioplusplus/mesh.hpp"

namespace meshioplusplus::python {

// Every array handed over without a copy (see numpy_bridge.hpp).
pybind11::dict mesh_to_dict(const Mesh& mesh);
// Views over the dict's arrays; arrays converted on the way are kept alive in `keep`.
Mesh dict_to_mesh(const pybind11::dict& parts, std::vector<pybind11::object>& keep);

// One cell block of the dict (the `cells` list's item) and back.
pybind11::tuple block_to_tuple(const CellBlock& block);
CellBlock tuple_to_block(const pybind11::handle& item, const std::string& what, std::vector<pybind11::object>& keep);

// Names come from files and need not be UTF-8: "surrogateescape" both ways, so reading
// never fails on them and writing the name back restores the original bytes.
pybind11::str name_str(const std::string& name);
std::string name_bytes(pybind11::handle name);

// Re-raises the C++ warnings of a read (Mesh::warnings) or write (take_warnings) as
// UserWarning, for the caller of mio.read / mio.write (shared by _core and _mpi).
void raise_core_warnings(std::vector<std::string> notes);
// The keyword options of a call as the core's Options (values already strings).
Options to_options(const pybind11::dict& options);

}  // namespace meshioplusplus::python
