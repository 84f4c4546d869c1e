// meshio++ FLAC3D: the format's registration value (reader in flac3d_read.cpp, writer in
// flac3d_write.cpp, the shapes and node orders in flac3d_shapes.cpp). User documentation:
// docs/formats/flac3d.md.
#include "formats/flac3d/flac3d.hpp"

#include "formats/flac3d/flac3d_internal.hpp"

namespace meshioplusplus {

Format flac3d_format() { return Format{"flac3d", {".f3grid"}, &flac3d::read_flac3d, &flac3d::write_flac3d}; }

}  // namespace meshioplusplus
