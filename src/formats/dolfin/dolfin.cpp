// meshio++ DOLFIN XML: the format's registration value (reader in dolfin_read.cpp, writer
// in dolfin_write.cpp). User documentation: docs/formats/dolfin.md.
#include "formats/dolfin/dolfin.hpp"

#include "formats/dolfin/dolfin_internal.hpp"

namespace meshioplusplus {

Format dolfin_format() { return Format{"dolfin-xml", {".xml"}, &dolfin::read_dolfin, &dolfin::write_dolfin}; }

}  // namespace meshioplusplus
