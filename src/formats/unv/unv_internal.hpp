// meshio++ I-DEAS Universal: what the reader, the writer and the element table share.
// Spec: the I-DEAS Universal File Datasets Summary, dataset 2412 (see unv.hpp).
#pragma once

#include <string>
#include <string_view>

#include "meshioplusplus/format.hpp"

namespace meshioplusplus::unv {

Mesh read_unv(const std::string& path, const Options& options);
void write_unv(const std::string& path, const Mesh& mesh, const Options& options);

// A meshio type as dataset 2412 stores it: its FE descriptor id and node count, and where
// each VTK node sits among the record's node labels (perm[i]: position of VTK node i;
// nullptr = the same order).
struct UnvElement {
  std::string_view type;
  int fe_id;   // the id the writer uses
  int nodes;
  const int* perm;
};

// The element for FE descriptor `fe_id` with `nodes` node labels, or nullptr (an FE id or a
// node count this reader does not read).
const UnvElement* find_element(int fe_id, int nodes);
// The element the writer uses for a meshio type, or nullptr.
const UnvElement* element_for_type(std::string_view type);
// Beam FE descriptors (11, 21, 22, 23, 24, 31, 32) carry an extra record in 2412.
bool is_beam(int fe_id);

}  // namespace meshioplusplus::unv
