// meshio++ formats: the registry. One line per format; each format folder exposes
// `Format <name>_format()` from its own header.
#include "meshioplusplus/format.hpp"

#include "formats/exodus/exodus.hpp"
#include "formats/gmsh/gmsh.hpp"

#include "formats/vtk/vtk.hpp"
#include "formats/vtu/vtu.hpp"

namespace meshioplusplus {

const std::vector<Format>& formats() {
  static const std::vector<Format> all = {
      gmsh_format(),
      exodus_format(),
      vtu_format(),
      vtk_format(),
  };
  return all;
}

}  // namespace meshioplusplus
