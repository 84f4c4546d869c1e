// meshio++ WKT: the format's registration value (reader in wkt_read.cpp, writer in
// wkt_write.cpp). User documentation: docs/formats/wkt.md.
#include "formats/wkt/wkt.hpp"

#include "formats/wkt/wkt_internal.hpp"

namespace meshioplusplus {

Format wkt_format() { return Format{"wkt", {".wkt"}, &wkt::read_wkt, &wkt::write_wkt}; }

}  // namespace meshioplusplus
