// meshio++ VTU: the format's registration value (reader in vtu_read.cpp, writer in
// vtu_write.cpp, XML reader in xml.cpp). User documentation: docs/formats/vtu.md.
#include "formats/vtu/vtu.hpp"

#include "formats/vtu/vtu_internal.hpp"

namespace meshioplusplus {

Format vtu_format() { return Format{"vtu", {".vtu"}, &vtu::read_vtu, &vtu::write_vtu}; }

}  // namespace meshioplusplus
