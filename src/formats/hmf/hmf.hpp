// meshio++ HMF: meshio's own experimental HDF5 mesh layout ("hmf", version "0.1-alpha"),
// read and written as meshio 5.0.0 does. User documentation: docs/formats/hmf.md.
// Spec: meshio's implementation, https://github.com/nschloe/meshio/blob/v5.0.0/src/meshio/hmf/_hmf.py
// (the layout is described in hmf_internal.hpp).
#pragma once

#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

Format hmf_format();

}  // namespace meshioplusplus
