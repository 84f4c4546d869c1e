// meshio++ DOLFIN XML (.xml, FEniCS's legacy mesh format, format name "dolfin-xml"):
// reader and writer.
// Spec: https://people.sc.fsu.edu/~jburkardt/data/dolfin_xml/dolfin_xml.html
#pragma once

#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

Format dolfin_format();

}  // namespace meshioplusplus
