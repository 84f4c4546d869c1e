// meshio++ ANSYS Fluent: the format's registration value (reader in ansys_read.cpp and
// ansys_cells.cpp, writer in ansys_write.cpp). ".msh" is Gmsh's extension too: the content
// check below lets deduce_format pick this reader for a file that opens with an
// s-expression, while writes to ".msh" stay Gmsh's (registered first).
// Spec: https://romeo.univ-reims.fr/documents/fluent/tgrid/ug/appb.pdf
#include "formats/ansys/ansys.hpp"

#include "core/io/cursor.hpp"
#include "formats/ansys/ansys_internal.hpp"

namespace meshioplusplus {

namespace {

// Every Fluent mesh or case file is a list of sections "(<index> ...)"; a Gmsh file opens
// with "$MeshFormat" (or "$Comments", "$NOD").
bool claims_fluent(std::string_view head) {
  std::size_t i = 0;
  while (i < head.size() && io::is_space(head[i])) ++i;
  if (i + 1 >= head.size() || head[i] != '(') return false;
  ++i;
  while (i < head.size() && (head[i] == ' ' || head[i] == '\t')) ++i;
  return i < head.size() && head[i] >= '0' && head[i] <= '9';
}

}  // namespace

Format ansys_format() {
  Format f{"ansys", {".msh", ".cas"}, &ansys::read_ansys, &ansys::write_ansys};
  f.claims = &claims_fluent;
  return f;
}

}  // namespace meshioplusplus
