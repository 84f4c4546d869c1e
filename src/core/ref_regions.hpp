// meshio++ core: cell regions made from per-cell integer references (Medit's element
// references, UGRID's surface IDs, TetGen's boundary markers and region attributes).
//
// One cell region per (topological dimension, reference value), named
// "<prefix>_<dim>_<ref>" with `dim` and `tag` set (the tag is the reference when it fits an
// int, else -1), so that the triangles and quadrilaterals of one boundary reference form one
// region and each volume reference one subdomain. Entries are global cell indices
// (block-major, block_bases()), in cell order: the regions are canonical as made. Regions
// come out in (dim, ref) order; the result does not depend on `threads` (counted and filled
// on that many threads, in slices of cells).
#pragma once

#include <string_view>
#include <vector>

#include "meshioplusplus/mesh.hpp"

namespace meshioplusplus {

// `refs[b]` holds one integer per cell of `mesh.cells[b]`, or is nullptr for a block whose
// cells belong to no region (a float array is treated as nullptr). Appends to mesh.regions.
void add_ref_regions(Mesh& mesh, std::string_view prefix, const std::vector<const NDArray*>& refs, unsigned threads);

}  // namespace meshioplusplus
