// meshio++ OFF: the format's registration value (reader in off_read.cpp, writer in
// off_write.cpp). User documentation: docs/formats/off.md.
#include "formats/off/off.hpp"

#include "formats/off/off_internal.hpp"

namespace meshioplusplus {

Format off_format() { return Format{"off", {".off"}, &off::read_off, &off::write_off}; }

}  // namespace meshioplusplus
