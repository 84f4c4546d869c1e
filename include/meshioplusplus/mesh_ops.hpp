// meshio++ core: meshio's whole-mesh operations on the C++ Mesh, for the C++ command line
// and C++ users (the Python Mesh has the same methods, with the same meaning):
//   sets_to_int_data    point/cell regions -> one int64 data array each ("-"-joined names,
//                       the set's index per entry, -1 outside every set); meshio's
//                       point_sets_to_data + cell_sets_to_data
//   int_data_to_sets    every 1-D integer point/cell data array -> one region per value,
//                       named from the "-"-split key when the counts match, else
//                       "set-<key>-<value>"; meshio's point_data_to_sets / cell_data_to_sets
//   prune_z_0           drop z when |z| < tol for every point
//   remove_lower_dimensional_cells   keep the blocks of the highest dimension (cell data
//                       and cell/side regions follow)
//   remove_orphaned_nodes   drop points no cell uses (connectivity, point data and point
//                       regions renumbered)
// Reference: https://github.com/nschloe/meshio (Mesh methods of meshio 5).
#pragma once

#include "meshioplusplus/mesh.hpp"

namespace meshioplusplus {

void sets_to_int_data(Mesh& mesh);
// What meshio's VTU and VTK writers store for sets, which those formats cannot hold: a
// copy of `mesh` (arrays shared, nothing copied) whose point and cell regions are one int
// data array each, named as meshio names them (the set names joined by the first of
// "-", "_", "#", "+", "/" that none contains, spaces replaced likewise); side regions stay.
Mesh sets_as_data(const Mesh& mesh);
void int_data_to_sets(Mesh& mesh);
void prune_z_0(Mesh& mesh, double tol = 1.0e-13);
void remove_lower_dimensional_cells(Mesh& mesh);
void remove_orphaned_nodes(Mesh& mesh);
// One mesh made of `parts` (src/core/mesh_concat.cpp): points stacked (float64 unless all
// parts share a dtype), connectivity shifted by the points before each part, cells in part
// order with a block continuing the previous one when the cell type (and node count) is the
// same, so blocks are the runs of one type, as one file holding every part's cells gives;
// point / cell data stacked (every part must hold part 0's names with the same dtype and
// row shape, else std::invalid_argument naming the array and the part); field data of part
// 0; regions of one name and kind joined, entries shifted to the merged numbering.
Mesh concatenate(const std::vector<Mesh>& parts);
}  // namespace meshioplusplus
