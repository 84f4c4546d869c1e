// meshio++ PERMAS: element classes and node orders.
// Spec: the PERMAS element library (see permas.hpp); the class table and the node orders are
// meshio's (meshio/permas/_permas.py), with TRIA6 and QUAD8 added.
#include <cctype>

#include "formats/permas/permas_internal.hpp"

namespace meshioplusplus::permas {

namespace {

struct Class {
  std::string_view name, type;
};

// meshio's table, in its order (the writer takes the last class of each type).
constexpr Class kClasses[] = {
    {"PLOT1", "vertex"},     {"PLOTL2", "line"},      {"FLA2", "line"},        {"FLA3", "line3"},       {"PLOTL3", "line3"},
    {"BECOS", "line"},       {"BECOC", "line"},       {"BETAC", "line"},       {"BECOP", "line"},       {"BETOP", "line"},
    {"BEAM2", "line"},       {"FSCPIPE2", "line"},    {"LOADA4", "quad"},      {"PLOTA4", "quad"},      {"QUAD4", "quad"},
    {"QUAD4S", "quad"},      {"QUAMS4", "quad"},      {"SHELL4", "quad"},      {"PLOTA8", "quad8"},     {"LOADA8", "quad8"},
    {"QUAMS8", "quad8"},     {"PLOTA9", "quad9"},     {"LOADA9", "quad9"},     {"QUAMS9", "quad9"},     {"PLOTA3", "triangle"},
    {"SHELL3", "triangle"},  {"TRIA3", "triangle"},   {"TRIA3K", "triangle"},  {"TRIA3S", "triangle"},  {"TRIMS3", "triangle"},
    {"LOADA6", "triangle6"}, {"TRIMS6", "triangle6"}, {"HEXE8", "hexahedron"}, {"HEXFO8", "hexahedron"}, {"HEXE20", "hexahedron20"},
    {"HEXE27", "hexahedron27"}, {"TET4", "tetra"},    {"TET10", "tetra10"},    {"PYRA5", "pyramid"},    {"PENTA6", "wedge"},
    {"PENTA15", "wedge15"},
};
// Classes PERMAS decks use that meshio's table lacks; never written.
constexpr Class kMore[] = {{"TRIA6", "triangle6"}, {"QUAD8", "quad8"}};

constexpr int kTriangle6[] = {0, 3, 1, 4, 2, 5};
constexpr int kTetra10[] = {0, 4, 1, 5, 2, 6, 7, 8, 9, 3};
constexpr int kQuad9[] = {0, 4, 1, 7, 8, 5, 3, 6, 2};
constexpr int kWedge15[] = {0, 6, 1, 7, 2, 8, 9, 10, 11, 3, 12, 4, 13, 5, 14};

bool same_upper(std::string_view a, std::string_view upper) {
  if (a.size() != upper.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::toupper(static_cast<unsigned char>(a[i])) != upper[i]) return false;
  return true;
}

}  // namespace

std::string_view cell_type_of(std::string_view name) {
  for (const Class& c : kClasses)
    if (same_upper(name, c.name)) return c.type;
  for (const Class& c : kMore)
    if (same_upper(name, c.name)) return c.type;
  return {};
}

std::string_view class_for(std::string_view type) {
  std::string_view out;
  for (const Class& c : kClasses)
    if (c.type == type) out = c.name;
  return out;
}

const int* permas_order(std::string_view type) {
  if (type == "triangle6") return kTriangle6;
  if (type == "tetra10") return kTetra10;
  if (type == "quad9") return kQuad9;
  if (type == "wedge15") return kWedge15;
  return nullptr;
}

}  // namespace meshioplusplus::permas
