// meshio++ MED: the HDF5-based mesh and field format of Salome and code_aster (MED-fichier
// 3.x / 4.x), as meshio reads and writes it, with families and groups as regions, fields at
// every time step and several meshes per file. User documentation: docs/formats/med.md.
// Spec: https://docs.salome-platform.org/latest/dev/MEDCoupling/developer/med-file.html
#pragma once

#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

Format med_format();

}  // namespace meshioplusplus
