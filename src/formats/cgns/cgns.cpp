// meshio++ CGNS: the format's registration value (reader in cgns_read.cpp, writer in
// cgns_write.cpp, the element-type table and the face matching of boundary conditions in
// cgns_elements.cpp). Spec: https://cgns.github.io/CGNS_docs_current/sids/index.html
#include "formats/cgns/cgns.hpp"

#include "formats/cgns/cgns_internal.hpp"

namespace meshioplusplus {

Format cgns_format() { return Format{"cgns", {".cgns"}, &cgns::read_cgns, &cgns::write_cgns}; }

}  // namespace meshioplusplus
