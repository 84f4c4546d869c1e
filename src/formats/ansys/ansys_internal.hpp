// meshio++ ANSYS Fluent: what the section reader (ansys_read.cpp) hands to the cell builder
// (ansys_cells.cpp), and the element type codes both sides and the writer share.
// Spec: https://romeo.univ-reims.fr/documents/fluent/tgrid/ug/appb.pdf (sections 12, 13).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/uninit_vector.hpp"
#include "meshioplusplus/format.hpp"

namespace meshioplusplus::ansys {

// Fluent's cell element types (section 12): 0 mixed, 7 polyhedral.
struct CellCode {
  int code;
  std::string_view type;  // meshio's name
  int nodes;
};
inline constexpr CellCode kCellCodes[] = {
    {1, "triangle", 3}, {2, "tetra", 4}, {3, "quad", 4}, {4, "hexahedron", 8}, {5, "pyramid", 5}, {6, "wedge", 6},
};
inline const CellCode* cell_code(std::uint64_t code) {
  for (const auto& c : kCellCodes)
    if (static_cast<std::uint64_t>(c.code) == code) return &c;
  return nullptr;
}
inline const CellCode* cell_code(std::string_view type) {
  for (const auto& c : kCellCodes)
    if (c.type == type) return &c;
  return nullptr;
}

// A cell or face zone: its id (from the section headers), the bc type of a face zone
// (2 = interior), and the name and type word a zone section (39 or 45) gives it.
struct Zone {
  std::uint64_t id = 0;
  bool faces = false;
  std::uint64_t bc_type = 0;
  std::string name, type_word;
};

// Every face of the file in file order; node and cell indices already 0-based.
// Uninitialised growth: the reader writes every element it adds.
struct Faces {
  UninitVector<std::int64_t> offsets{0};  // face k: nodes[offsets[k], offsets[k+1])
  UninitVector<std::int64_t> nodes;
  UninitVector<std::int64_t> c0, c1;  // -1: no cell on that side
  UninitVector<std::int32_t> zone;    // index into the zone list
};

// What the cell builder needs: the faces, the cells' declared types and zones.
struct Topology {
  std::size_t dim = 3;
  std::size_t num_points = 0;
  std::size_t num_cells = 0;
  Faces faces;
  std::vector<std::uint8_t> cell_type;  // per cell: Fluent element type, 0 = from its faces
  std::vector<std::int32_t> cell_zone;  // per cell: zone index, -1 = none
  std::vector<Zone> zones;
  unsigned threads = 1;
};

// Rebuilds the volume cells of `topo` (VTK node order; polyhedra / polygons where a cell
// fits no fixed shape) into mesh.cells, with a cell region per cell zone and a side region
// per boundary face zone. Throws ReadError (through `fail`) on a cell whose faces do not
// close.
void build_cells(Topology& topo, Mesh& mesh, const std::string& path);

Mesh read_ansys(const std::string& path, const Options& options);
void write_ansys(const std::string& path, const Mesh& mesh, const Options& options);

}  // namespace meshioplusplus::ansys
