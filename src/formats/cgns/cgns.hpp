// meshio++ CGNS: the CFD General Notation System, HDF5 flavour (.cgns), unstructured zones.
// User documentation: docs/formats/cgns.md.
// Spec: the SIDS, https://cgns.github.io/CGNS_docs_current/sids/index.html, and its HDF5
// mapping, https://cgns.github.io/CGNS_docs_current/filemap/
#pragma once

#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

Format cgns_format();

}  // namespace meshioplusplus
