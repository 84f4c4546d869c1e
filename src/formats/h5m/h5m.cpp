// meshio++ H5M: the format's registration value (reader in h5m_read.cpp, writer in
// h5m_write.cpp, the element type table in h5m_types.cpp).
// Spec: https://sigma.mcs.anl.gov/moab/ (MOAB's "h5m" file format)
#include "formats/h5m/h5m.hpp"

#include "formats/h5m/h5m_internal.hpp"

namespace meshioplusplus {

Format h5m_format() { return Format{"h5m", {".h5m"}, &h5m::read_h5m, &h5m::write_h5m}; }

}  // namespace meshioplusplus
