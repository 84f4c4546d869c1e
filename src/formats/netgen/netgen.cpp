// meshio++ Netgen: the format's registration value (reader in netgen_read.cpp, writer in
// netgen_write.cpp). User documentation: docs/formats/netgen.md.
#include "formats/netgen/netgen.hpp"

#include "formats/netgen/netgen_internal.hpp"

namespace meshioplusplus {

Format netgen_format() { return Format{"netgen", {".vol", ".vol.gz"}, &netgen::read_netgen, &netgen::write_netgen}; }

}  // namespace meshioplusplus
