// meshio++ VTP: the format's registration value (reader in vtp_read.cpp, writer in
// vtp_write.cpp). User documentation: docs/formats/vtk-xml.md.
#include "formats/vtp/vtp.hpp"

#include "formats/vtp/vtp_internal.hpp"

namespace meshioplusplus {

Format vtp_format() { return Format{"vtp", {".vtp"}, &vtp::read_vtp, &vtp::write_vtp}; }

}  // namespace meshioplusplus
