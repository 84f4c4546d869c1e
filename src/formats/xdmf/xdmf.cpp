// meshio++ XDMF: the format's registration value (reader in xdmf_read.cpp, writer in
// xdmf_write.cpp, shared tables in xdmf_types.cpp). User documentation: docs/formats/xdmf.md.
// Spec: https://www.xdmf.org/index.php/XDMF_Model_and_Format
#include "formats/xdmf/xdmf.hpp"

#include "formats/xdmf/xdmf_internal.hpp"

namespace meshioplusplus {

bool xdmf_hdf5_available() {
#ifdef MESHIOPP_HAVE_HDF5
  return true;
#else
  return false;
#endif
}

Format xdmf_format() { return Format{"xdmf", {".xdmf", ".xmf"}, &xdmf::read_xdmf, &xdmf::write_xdmf}; }

}  // namespace meshioplusplus
