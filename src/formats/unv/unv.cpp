// meshio++ I-DEAS Universal: the format's registration value (reader in unv_read.cpp, writer
// in unv_write.cpp, the element table in unv_elements.cpp). User documentation:
// docs/formats/unv.md.
#include "formats/unv/unv.hpp"

#include "formats/unv/unv_internal.hpp"

namespace meshioplusplus {

Format unv_format() { return Format{"unv", {".unv"}, &unv::read_unv, &unv::write_unv}; }

}  // namespace meshioplusplus
