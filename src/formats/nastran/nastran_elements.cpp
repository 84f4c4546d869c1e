// meshio++ Nastran bulk data: the one element table (card -> meshio type, grid and property
// fields, node order), read by the reader and, inverted, by the writer.
// Spec: MSC Nastran Quick Reference Guide, "Bulk Data Entries", the C... element entries:
// https://nexus.hexagon.com/documentationcenter/en-US/bundle/MSC_Nastran_2022.4/page/Nastran_Combined_Book/qrg/bulkab/TOC.BULK.Data.xhtml
//
// Node order: Nastran's corner grids come first as in VTK; the mid-side grids of CHEXA (20)
// and CPENTA (15) list the bottom edges, then the edges joining bottom and top, then the
// top edges, where VTK lists bottom, top, then the joining edges. CTRIAX6 alternates corner
// and mid-side grids. The cards meshio reads and writes (including its own "CTETRA_",
// "CPYRA_", "CPENTA_", "CHEXA_" for the quadratic solids) are all here.
#include <array>

#include "formats/nastran/nastran_internal.hpp"

namespace meshioplusplus::nastran {

namespace {

// perm[i]: the card's grid position of VTK node i (each of these is its own inverse).
constexpr int kHex20[20] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 16, 17, 18, 19, 12, 13, 14, 15};
constexpr int kWedge15[15] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 13, 14, 9, 10, 11};
constexpr int kTriax6[6] = {0, 2, 4, 1, 3, 5};

// card, type, nodes, linear, linear_nodes, first_grid, grid_stride, pid, perm, grids_only
constexpr std::array<ElementCard, 40> kCards = {{
    // Solids: EID PID G1 ... (trailing mid-side grids blank = the linear shape).
    {"CTETRA", "tetra10", 10, "tetra", 4, 2, 1, 1, nullptr, true},
    {"CTETRA_", "tetra10", 10, "tetra", 4, 2, 1, 1, nullptr, true},
    {"CPYRAM", "pyramid13", 13, "pyramid", 5, 2, 1, 1, nullptr, true},
    {"CPYRA", "pyramid13", 13, "pyramid", 5, 2, 1, 1, nullptr, true},
    {"CPYRA_", "pyramid13", 13, "pyramid", 5, 2, 1, 1, nullptr, true},
    {"CPENTA", "wedge15", 15, "wedge", 6, 2, 1, 1, kWedge15, true},
    {"CPENTA_", "wedge15", 15, "wedge", 6, 2, 1, 1, kWedge15, true},
    {"CHEXA", "hexahedron20", 20, "hexahedron", 8, 2, 1, 1, kHex20, true},
    {"CHEXA_", "hexahedron20", 20, "hexahedron", 8, 2, 1, 1, kHex20, true},
    // Shells: EID PID G1 ... (then THETA/MCID, ZOFFS, ... which are not mesh).
    {"CTRIA3", "triangle", 3, "", 0, 2, 1, 1, nullptr, false},
    {"CTRIAR", "triangle", 3, "", 0, 2, 1, 1, nullptr, false},
    {"CTRIA6", "triangle6", 6, "triangle", 3, 2, 1, 1, nullptr, false},
    {"CTRIAX6", "triangle6", 6, "", 0, 2, 1, 1, kTriax6, false},  // field 3 is MID, read as meshio does
    {"CTRAX6", "triangle6", 6, "", 0, 2, 1, 1, kTriax6, false},
    {"CTRIAX", "triangle6", 6, "triangle", 3, 2, 1, 1, nullptr, false},
    {"CTRAX3", "triangle", 3, "", 0, 2, 1, 1, nullptr, false},
    {"CQUAD4", "quad", 4, "", 0, 2, 1, 1, nullptr, false},
    {"CQUADR", "quad", 4, "", 0, 2, 1, 1, nullptr, false},
    {"CSHEAR", "quad", 4, "", 0, 2, 1, 1, nullptr, false},
    {"CQUAD8", "quad8", 8, "quad", 4, 2, 1, 1, nullptr, false},
    {"CQUAD9", "quad9", 9, "quad", 4, 2, 1, 1, nullptr, false},
    {"CQUADX", "quad9", 9, "quad", 4, 2, 1, 1, nullptr, false},
    {"CQUAD", "quad9", 9, "quad", 4, 2, 1, 1, nullptr, false},
    // Lines: EID PID GA GB (then orientation, offsets). A blank GB (a grounded CBUSH or
    // CGAP) is a vertex.
    {"CBAR", "line", 2, "vertex", 1, 2, 1, 1, nullptr, false},
    {"CBEAM", "line", 2, "vertex", 1, 2, 1, 1, nullptr, false},
    {"CROD", "line", 2, "", 0, 2, 1, 1, nullptr, false},
    {"CTUBE", "line", 2, "", 0, 2, 1, 1, nullptr, false},
    {"CVISC", "line", 2, "", 0, 2, 1, 1, nullptr, false},
    {"CBUSH", "line", 2, "vertex", 1, 2, 1, 1, nullptr, false},
    {"CBUSH1D", "line", 2, "vertex", 1, 2, 1, 1, nullptr, false},
    {"CGAP", "line", 2, "vertex", 1, 2, 1, 1, nullptr, false},
    {"CONROD", "line", 2, "", 0, 1, 1, -1, nullptr, false},  // EID G1 G2 MID ...: no property
    // Scalar elements between grid components: EID PID|value G1 C1 G2 C2; without G2 the
    // element ties G1 to ground (a vertex).
    {"CELAS1", "line", 2, "vertex", 1, 2, 2, 1, nullptr, false},
    {"CELAS2", "line", 2, "vertex", 1, 2, 2, -1, nullptr, false},
    {"CDAMP1", "line", 2, "vertex", 1, 2, 2, 1, nullptr, false},
    {"CDAMP2", "line", 2, "vertex", 1, 2, 2, -1, nullptr, false},
    {"CMASS1", "line", 2, "vertex", 1, 2, 2, 1, nullptr, false},
    {"CMASS2", "line", 2, "vertex", 1, 2, 2, -1, nullptr, false},
    // Concentrated masses: EID G CID M ...
    {"CONM1", "vertex", 1, "", 0, 1, 1, -1, nullptr, false},
    {"CONM2", "vertex", 1, "", 0, 1, 1, -1, nullptr, false},
}};

}  // namespace

const ElementCard* find_element_card(std::string_view name) {
  if (name.size() < 4 || name[0] != 'C') return nullptr;
  for (const auto& c : kCards)
    if (c.card == name) return &c;
  return nullptr;
}

const ElementCard* element_card_for_type(std::string_view type) {
  // What the writer emits: the first card of the table with that full or linear type,
  // except vertex (CELAS1, as meshio) and line (CROD: needs no orientation vector).
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 15> kWrite = {{
      {"vertex", "CELAS1"}, {"line", "CROD"}, {"triangle", "CTRIA3"}, {"triangle6", "CTRIA6"},
      {"quad", "CQUAD4"}, {"quad8", "CQUAD8"}, {"quad9", "CQUAD9"}, {"tetra", "CTETRA"},
      {"tetra10", "CTETRA"}, {"pyramid", "CPYRAM"}, {"pyramid13", "CPYRAM"}, {"wedge", "CPENTA"},
      {"wedge15", "CPENTA"}, {"hexahedron", "CHEXA"}, {"hexahedron20", "CHEXA"},
  }};
  for (const auto& [t, card] : kWrite)
    if (t == type) return find_element_card(card);
  return nullptr;
}

}  // namespace meshioplusplus::nastran
