// meshio++ CGNS: the ElementType_t table (values and node orders of the SIDS against our
// VTK-ordered cell types) and the matching of boundary-condition faces to cell facets.
// Spec: https://cgns.github.io/CGNS_docs_current/sids/gridflow.html#Elements (values) and
// https://cgns.github.io/CGNS_docs_current/sids/conv.html#unstructgrid (node numbering).
#include <algorithm>
#include <array>
#include <unordered_map>

#include "formats/cgns/cgns_internal.hpp"
#include "meshioplusplus/cell_types.hpp"

namespace meshioplusplus::cgns {

namespace {

// Node orders the SIDS and VTK share need no permutation. The others:
//   PENTA_15/18: CGNS numbers the bottom edges, the vertical edges, then the top edges;
//     VTK bottom, top, vertical.
//   HEXA_20/27: likewise for the edges; HEXA_27's face centres are bottom, y-, x+, y+,
//     x-, top in CGNS, and x-, x+, y-, y+, bottom, top in VTK.
const std::vector<ElementKind>& table() {
  static const std::vector<ElementKind> kinds = {
      {2, "NODE", "vertex", 1, {}},
      {3, "BAR_2", "line", 2, {}},
      {4, "BAR_3", "line3", 3, {}},
      {5, "TRI_3", "triangle", 3, {}},
      {6, "TRI_6", "triangle6", 6, {}},
      {7, "QUAD_4", "quad", 4, {}},
      {8, "QUAD_8", "quad8", 8, {}},
      {9, "QUAD_9", "quad9", 9, {}},
      {10, "TETRA_4", "tetra", 4, {}},
      {11, "TETRA_10", "tetra10", 10, {}},
      {12, "PYRA_5", "pyramid", 5, {}},
      {13, "PYRA_14", "pyramid14", 14, {}},
      {14, "PENTA_6", "wedge", 6, {}},
      {15, "PENTA_15", "wedge15", 15, {0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 13, 14, 9, 10, 11}},
      {16, "PENTA_18", "wedge18", 18, {0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 13, 14, 9, 10, 11, 15, 16, 17}},
      {17, "HEXA_8", "hexahedron", 8, {}},
      {18, "HEXA_20", "hexahedron20", 20, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 16, 17, 18, 19, 12, 13, 14, 15}},
      {19, "HEXA_27", "hexahedron27", 27, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 16, 17, 18, 19, 12, 13, 14, 15, 24, 22, 21, 23, 20, 25, 26}},
      {21, "PYRA_13", "pyramid13", 13, {}},
      {26, "TRI_10", "triangle10", 10, {}},
  };
  return kinds;
}

}  // namespace

const ElementKind* element_kind(std::int64_t cgns) {
  for (const ElementKind& k : table())
    if (k.cgns == cgns) return &k;
  return nullptr;
}

const ElementKind* element_kind_of(std::string_view meshio) {
  for (const ElementKind& k : table())
    if (k.meshio == meshio) return &k;
  return nullptr;
}

std::string element_type_name(std::int64_t cgns) {
  if (const ElementKind* k = element_kind(cgns)) return std::string(k->cgns_name);
  switch (cgns) {
    case 0: return "ElementTypeNull";
    case 1: return "ElementTypeUserDefined";
    case kMixed: return "MIXED";
    case kNgon: return "NGON_n";
    case kNface: return "NFACE_n";
    default: return std::to_string(cgns);
  }
}

namespace {
// A face by its corner nodes, sorted, padded with -1 (faces of linear parents have at most 4).
using FaceKey = std::array<std::int64_t, 4>;
struct FaceKeyHash {
  std::size_t operator()(const FaceKey& k) const {
    std::size_t h = 0;
    for (std::int64_t v : k) h = h * 1000003u ^ static_cast<std::size_t>(v);
    return h;
  }
};
template <class Get>
bool make_key(FaceKey& key, std::size_t n, Get get) {
  if (n == 0 || n > key.size()) return false;
  key.fill(-1);
  // Insertion sort of at most 4 values (std::sort on a part of the array trips GCC 12's
  // -Warray-bounds).
  for (std::size_t j = 0; j < n; ++j) {
    const std::int64_t v = get(j);
    std::size_t at = j;
    for (; at > 0 && key[at - 1] > v; --at) key[at] = key[at - 1];
    key[at] = v;
  }
  return true;
}
}  // namespace

FacetMatch match_facets(const std::vector<CellBlock>& cells, int cell_dim, const std::vector<std::int64_t>& face_offsets,
                        const std::vector<std::int64_t>& face_nodes) {
  FacetMatch out;
  const std::size_t nfaces = face_offsets.empty() ? 0 : face_offsets.size() - 1;
  std::unordered_multimap<FaceKey, std::size_t, FaceKeyHash> faces;
  faces.reserve(nfaces);
  std::vector<bool> owned(nfaces, false);
  for (std::size_t i = 0; i < nfaces; ++i) {
    FaceKey key;
    const auto from = static_cast<std::size_t>(face_offsets[i]);
    if (make_key(key, static_cast<std::size_t>(face_offsets[i + 1]) - from, [&](std::size_t j) { return face_nodes[from + j]; }))
      faces.emplace(key, i);
  }
  std::int64_t base = 0;
  for (const CellBlock& b : cells) {
    const std::size_t m = b.size();
    const auto info = find_cell_type(b.type);
    if (!b.ragged && info && info->dim == cell_dim && !faces.empty()) {
      const auto& facets = cell_facets(b.type);
      const std::size_t k = b.connectivity.dim(1);
      const NDArray conn = b.connectivity.dtype() == DType::int64 ? b.connectivity : b.connectivity.as_dtype(DType::int64);
      const std::int64_t* c = conn.data<std::int64_t>();
      for (std::size_t i = 0; i < m; ++i) {
        const std::int64_t* row = c + i * k;
        for (std::size_t f = 0; f < facets.size(); ++f) {
          const std::vector<int>& local = facets[f];
          FaceKey key;
          if (!make_key(key, local.size(), [&](std::size_t j) { return row[local[j]]; })) continue;
          const auto range = faces.equal_range(key);
          for (auto it = range.first; it != range.second; ++it) {
            out.sides.push_back(base + static_cast<std::int64_t>(i));
            out.sides.push_back(static_cast<std::int64_t>(f));
            out.face_of.push_back(it->second);
            owned[it->second] = true;
          }
        }
      }
    }
    base += static_cast<std::int64_t>(m);
  }
  for (std::size_t i = 0; i < nfaces; ++i)
    if (!owned[i]) out.unmatched.push_back(i);
  return out;
}

}  // namespace meshioplusplus::cgns
