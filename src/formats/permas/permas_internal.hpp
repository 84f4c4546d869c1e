// meshio++ PERMAS: what the reader, the writer and the element table share.
// Spec: the PERMAS user reference, element library (see permas.hpp).
#pragma once

#include <string>
#include <string_view>

#include "meshioplusplus/format.hpp"

namespace meshioplusplus::permas {

Mesh read_permas(const std::string& path, const Options& options);
void write_permas(const std::string& path, const Mesh& mesh, const Options& options);

// The meshio type of a PERMAS element class (meshio's table, plus TRIA6 and QUAD8), or empty.
// `name` is compared without regard to case.
std::string_view cell_type_of(std::string_view name);
// The class the writer uses for a meshio type (meshio's: the last class of its table that
// maps to the type), or empty.
std::string_view class_for(std::string_view type);
// PERMAS' node order for triangle6, tetra10, quad9 and wedge15 (the orders meshio's writer
// uses; corner and mid-side nodes alternate round the edges): a row's node j is VTK node
// order[j] (nullptr: the same order).
const int* permas_order(std::string_view type);

}  // namespace meshioplusplus::permas
