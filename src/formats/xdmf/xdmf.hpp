// meshio++ XDMF 3 (.xdmf, .xmf): light data in XML, heavy data inline (XML), in raw binary
// files (Binary) or in an HDF5 file beside it (HDF); XDMF 2 files are read too, and a
// temporal collection is a time series (xdmf_time_series.hpp). Spec:
// https://www.xdmf.org/index.php/XDMF_Model_and_Format. Built without HDF5 the format is
// still registered; XML and Binary heavy data still work and HDF names the Debian package.
#pragma once

#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

Format xdmf_format();

// Whether this build has HDF5 (so XDMF heavy data in HDF5 files can be read and written).
bool xdmf_hdf5_available();

}  // namespace meshioplusplus
