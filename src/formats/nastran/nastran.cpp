// meshio++ Nastran bulk data: the format's registration value (reader in nastran_read.cpp,
// writer in nastran_write.cpp, the element table in nastran_elements.cpp). meshio's name and
// extensions. User documentation: docs/formats/nastran.md.
#include "formats/nastran/nastran.hpp"

#include "formats/nastran/nastran_internal.hpp"

namespace meshioplusplus {

Format nastran_format() {
  return Format{"nastran", {".bdf", ".fem", ".nas"}, &nastran::read_nastran, &nastran::write_nastran};
}

}  // namespace meshioplusplus
