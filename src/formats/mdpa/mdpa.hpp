// meshio++ Kratos Multiphysics MDPA (.mdpa): reader (Nodes, Elements, Conditions, NodalData,
// ElementalData, ConditionalData, nested SubModelParts as regions; other blocks skipped with a
// warning) and writer (meshio's layout plus sub-model parts from the regions).
// Spec: Kratos "Input data" (https://github.com/KratosMultiphysics/Kratos/wiki/Input-data),
// node orders: https://github.com/KratosMultiphysics/Kratos/wiki/Mesh-node-ordering.
// User documentation: docs/formats/mdpa.md.
#pragma once

#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

Format mdpa_format();

}  // namespace meshioplusplus
