// meshio++ PLY: the format's registration value (reader in ply_read.cpp, writer in
// ply_write.cpp). User documentation: docs/formats/ply.md.
#include "formats/ply/ply.hpp"

#include "formats/ply/ply_internal.hpp"

namespace meshioplusplus {

Format ply_format() { return Format{"ply", {".ply"}, &ply::read_ply, &ply::write_ply}; }

}  // namespace meshioplusplus
