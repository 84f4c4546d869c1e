// meshio++ SU2: the format's registration value (reader in su2_read.cpp, writer in
// su2_write.cpp). Spec: https://su2code.github.io/docs_v7/Mesh-File/
// User documentation: docs/formats/su2.md.
#include "formats/su2/su2.hpp"

#include "formats/su2/su2_internal.hpp"

namespace meshioplusplus {

Format su2_format() { return Format{"su2", {".su2"}, &su2::read_su2, &su2::write_su2}; }

}  // namespace meshioplusplus
