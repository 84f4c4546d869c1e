// meshio++ AVS-UCD: the format's registration value (reader in avsucd_read.cpp, writer in
// avsucd_write.cpp). User documentation: docs/formats/avsucd.md.
#include "formats/avsucd/avsucd.hpp"

#include "formats/avsucd/avsucd_internal.hpp"

namespace meshioplusplus {

Format avsucd_format() { return Format{"avsucd", {".avs"}, &avsucd::read_avsucd, &avsucd::write_avsucd}; }

}  // namespace meshioplusplus
