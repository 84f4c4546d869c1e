// meshio++ STL: the format's registration value (reader in stl_read.cpp, writer in
// stl_write.cpp). User documentation: docs/formats/stl.md.
#include "formats/stl/stl.hpp"

#include "formats/stl/stl_internal.hpp"

namespace meshioplusplus {

Format stl_format() { return Format{"stl", {".stl"}, &stl::read_stl, &stl::write_stl}; }

}  // namespace meshioplusplus
