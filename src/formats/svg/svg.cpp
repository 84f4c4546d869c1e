// meshio++ SVG: the format's registration value (write only: the writer is in
// svg_write.cpp; there is no reader). User documentation: docs/formats/svg.md.
#include "formats/svg/svg.hpp"

#include "formats/svg/svg_internal.hpp"

namespace meshioplusplus {

Format svg_format() { return Format{"svg", {".svg"}, nullptr, &svg::write_svg}; }

}  // namespace meshioplusplus
