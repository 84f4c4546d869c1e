// meshio++ FLAC3D grid (.f3grid): reader (ASCII and binary: gridpoints, zones B8 / W6 / P5 /
// T4 / B7, faces T3 / Q4, zone and face groups as regions) and writer (ASCII or binary, as
// meshio writes them).
// Spec: Itasca, "Itasca Grid Format"
// (http://docs.itascacg.com/3dec700/common/docproject/source/manual/program_guide/mechanics/otherinputs/gridformat.html)
// for the ASCII file; the binary layout is the one meshio reads and writes.
// User documentation: docs/formats/flac3d.md.
#pragma once

#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

Format flac3d_format();

}  // namespace meshioplusplus
