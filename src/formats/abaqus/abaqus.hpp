// meshio++ Abaqus input decks (.inp): reader and writer of the mesh part of a deck (nodes,
// elements, node and element sets, element-face surfaces, parts, instances, includes).
// Spec: the Abaqus Keywords Reference Guide, and its public restatement for the same input
// language in the CalculiX User's Manual (http://www.dhondt.de/ccx_2.20.pdf: section 6 for
// element types, node order and face numbering; section 7 for the keywords).
// User documentation: docs/formats/abaqus.md.
#pragma once

#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

Format abaqus_format();

}  // namespace meshioplusplus
