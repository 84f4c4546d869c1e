// meshio++ XDMF: the topology table (names meshio reads and writes, codes of mixed
// topologies), number types and attribute types. Spec:
// https://www.xdmf.org/index.php/XDMF_Model_and_Format#Topology (names) and the XDMF
// library's XdmfTopologyType.cpp (mixed codes).
#include <algorithm>
#include <cctype>

#include "formats/xdmf/xdmf_internal.hpp"

namespace meshioplusplus::xdmf {

namespace {

// The first name of each type is the one written; meshio's aliases follow.
struct Entry {
  Topology topology;
  std::string_view alias;
};

const std::vector<Entry>& table() {
  static const std::vector<Entry> t = {
      {{"vertex", "Polyvertex", 0x1}, ""},
      {{"line", "Polyline", 0x2}, ""},
      {{"triangle", "Triangle", 0x4}, ""},
      {{"quad", "Quadrilateral", 0x5}, ""},
      {{"tetra", "Tetrahedron", 0x6}, ""},
      {{"pyramid", "Pyramid", 0x7}, ""},
      {{"wedge", "Wedge", 0x8}, ""},
      {{"hexahedron", "Hexahedron", 0x9}, ""},
      {{"line3", "Edge_3", 0x22}, ""},
      {{"quad9", "Quadrilateral_9", 0x23}, "Quad_9"},
      {{"triangle6", "Triangle_6", 0x24}, "Tri_6"},
      {{"quad8", "Quadrilateral_8", 0x25}, "Quad_8"},
      {{"tetra10", "Tetrahedron_10", 0x26}, "Tet_10"},
      {{"pyramid13", "Pyramid_13", 0x27}, ""},
      {{"wedge15", "Wedge_15", 0x28}, ""},
      {{"wedge18", "Wedge_18", 0x29}, ""},
      {{"hexahedron20", "Hexahedron_20", 0x30}, "Hex_20"},
      {{"hexahedron24", "Hexahedron_24", 0x31}, "Hex_24"},
      {{"hexahedron27", "Hexahedron_27", 0x32}, "Hex_27"},
      {{"hexahedron64", "Hexahedron_64", 0x33}, "Hex_64"},
      {{"hexahedron125", "Hexahedron_125", 0x34}, "Hex_125"},
      {{"hexahedron216", "Hexahedron_216", 0x35}, "Hex_216"},
      {{"hexahedron343", "Hexahedron_343", 0x36}, "Hex_343"},
      {{"hexahedron512", "Hexahedron_512", 0x37}, "Hex_512"},
      {{"hexahedron729", "Hexahedron_729", 0x38}, "Hex_729"},
      {{"hexahedron1000", "Hexahedron_1000", 0x39}, "Hex_1000"},
      {{"hexahedron1331", "Hexahedron_1331", 0x40}, "Hex_1331"},
      {{"polygon", "Polygon", 0x3}, ""},
  };
  return t;
}

bool iequal(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

const Topology* topology_for(std::string_view meshio_type) {
  for (const auto& e : table())
    if (e.topology.meshio == meshio_type) return &e.topology;
  return nullptr;
}

const Topology* topology_named(std::string_view xdmf_name) {
  for (const auto& e : table())
    if (iequal(e.topology.xdmf, xdmf_name) || (!e.alias.empty() && iequal(e.alias, xdmf_name))) return &e.topology;
  return nullptr;
}

const Topology* topology_coded(std::int64_t code) {
  for (const auto& e : table())
    if (e.topology.code == code) return &e.topology;
  return nullptr;
}

std::string_view number_type(DType dtype) {
  switch (dtype) {
    case DType::int8: case DType::int16: case DType::int32: case DType::int64: return "Int";
    case DType::uint8: case DType::uint16: case DType::uint32: case DType::uint64: return "UInt";
    case DType::float32: case DType::float64: break;
  }
  return "Float";
}

std::string_view attribute_type(const NDArray& data) {
  const auto& s = data.shape();
  if (s.size() == 1 || (s.size() == 2 && s[1] == 1)) return "Scalar";
  if (s.size() == 2 && (s[1] == 2 || s[1] == 3)) return "Vector";
  if ((s.size() == 2 && s[1] == 9) || (s.size() == 3 && s[1] == 3 && s[2] == 3)) return "Tensor";
  if (s.size() == 2 && s[1] == 6) return "Tensor6";
  return "Matrix";
}

}  // namespace meshioplusplus::xdmf
