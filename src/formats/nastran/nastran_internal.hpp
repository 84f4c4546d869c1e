// meshio++ Nastran bulk data: what the reader, the writer and the element table share.
// Spec: MSC Nastran Quick Reference Guide, "Bulk Data Entries" (see nastran.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "meshioplusplus/format.hpp"

namespace meshioplusplus::nastran {

Mesh read_nastran(const std::string& path, const Options& options);
void write_nastran(const std::string& path, const Mesh& mesh, const Options& options);

// One element card: where its grid ids and property id sit among the card's data fields
// (field 2 of the card, the element id, is data field 0), and the meshio types it makes.
// A card whose trailing grid fields are all blank is the lower-order shape (`linear`, with
// `linear_nodes` grids); all `nodes` grids present make `type`. `perm[i]` is the card's grid
// position of the i-th node in meshio's (VTK's) order, for `type`; empty = identity.
struct ElementCard {
  std::string_view card;
  std::string_view type;         // all grids present
  int nodes;
  std::string_view linear;       // with only the first `linear_nodes` grids ("" = none)
  int linear_nodes;
  int first_grid;                // data-field index of the first grid id
  int grid_stride;               // 1, or 2 for scalar elements (G1 C1 G2 C2)
  int pid;                       // data-field index of the property id, -1 = none
  const int* perm;               // nullptr = identity
  bool grids_only;               // no data fields follow the grids (the solids)
};

// The card for `name` (upper case, no trailing '*'), or nullptr.
const ElementCard* find_element_card(std::string_view name);
// The card the writer uses for a meshio type, or nullptr when Nastran has none.
const ElementCard* element_card_for_type(std::string_view type);

}  // namespace meshioplusplus::nastran
