// meshio++ WKT (.wkt, OGC Well-Known Text surfaces: TIN, TRIANGLE, POLYGON, MULTIPOLYGON):
// reader and writer.
// Spec: https://www.ogc.org/standard/sfa/ (OGC 06-103r4, Simple Feature Access part 1, section 7 "Well-known Text Representation for Geometry")
#pragma once

#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

Format wkt_format();

}  // namespace meshioplusplus
