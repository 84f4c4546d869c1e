// meshio++ Kratos MDPA: the format's registration value (reader in mdpa_read.cpp, writer in
// mdpa_write.cpp, the element names in mdpa_types.cpp). User documentation: docs/formats/mdpa.md.
#include "formats/mdpa/mdpa.hpp"

#include "formats/mdpa/mdpa_internal.hpp"

namespace meshioplusplus {

Format mdpa_format() { return Format{"mdpa", {".mdpa"}, &mdpa::read_mdpa, &mdpa::write_mdpa}; }

}  // namespace meshioplusplus
