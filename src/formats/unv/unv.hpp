// meshio++ I-DEAS Universal (.unv): reader (datasets 2411 nodes, 2412 elements, 2467 / 2477
// groups as named point and cell regions; other datasets skipped with a warning) and writer
// (2411, 2412, 2467). Not a meshio format; gmsh reads and writes it.
// Spec: the I-DEAS Universal File Datasets Summary (Siemens PLM), datasets 2411, 2412, 2467,
// 2477 (https://docs.sw.siemens.com/en-US/doc/209349590/PL20200601120302950.xid1404570/xid1404576).
// User documentation: docs/formats/unv.md.
#pragma once

#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

Format unv_format();

}  // namespace meshioplusplus
