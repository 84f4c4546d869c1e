// meshio++ core: meshio's block shapes for variable-size cells, applied once after every
// read (src/core/format.cpp) unless the caller asks for the ragged form.
//
// meshio returns polygons as rectangular "polygon" blocks, one per run of consecutive
// polygons with the same node count, and polyhedra as "polyhedron<n>" blocks (n = the
// number of distinct nodes of each cell) holding face lists. Polyhedra are split here into
// runs of one n; the blocks keep the type "polyhedron" (the Python binding hands ragged
// face lists over for exactly that name) and Python's read names them. Runs keep file order, so
// global cell numbering (block_bases) and with it every region entry is unchanged; cell
// data is split into the same runs. (meshio groups polyhedra by node count across the
// whole file; runs differ from that only when the counts interleave.)
#pragma once

#include "meshioplusplus/mesh.hpp"

namespace meshioplusplus {

// Replaces every ragged polygon block by rectangular runs and every polyhedron block by
// runs of one distinct-node count; cell_data follows the blocks.
void split_variable_blocks(Mesh& mesh);

}  // namespace meshioplusplus
