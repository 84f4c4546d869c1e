// meshio++ ANSYS Fluent mesh format (.msh, the mesh sections of .cas): reader (volume cells
// rebuilt from the face sections, boundary zones as side regions) and meshio's writer.
// Spec: ANSYS Fluent / TGrid user's guide, appendix "Mesh File Format"
// (https://romeo.univ-reims.fr/documents/fluent/tgrid/ug/appb.pdf).
// User documentation: docs/formats/ansys.md.
#pragma once

#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

Format ansys_format();

}  // namespace meshioplusplus
