// meshio++ H5M: MOAB's native HDF5 mesh format, read and written as meshio does (nodes,
// element groups by MOAB type, dense tags as point and cell data). User documentation:
// docs/formats/h5m.md. Spec: https://sigma.mcs.anl.gov/moab/ (MOAB's "h5m" file format,
// mhdf/include/mhdf.h in the MOAB sources)
#pragma once

#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

Format h5m_format();

}  // namespace meshioplusplus
