// meshio++ formats: the registry. One line per format; each format folder exposes
// `Format <name>_format()` from its own header.
#include "meshioplusplus/format.hpp"

#include "formats/abaqus/abaqus.hpp"
#include "formats/avsucd/avsucd.hpp"
#include "formats/exodus/exodus.hpp"
#include "formats/gmsh/gmsh.hpp"
#include "formats/medit/medit.hpp"
#include "formats/nastran/nastran.hpp"
#include "formats/obj/obj.hpp"
#include "formats/off/off.hpp"
#include "formats/ply/ply.hpp"
#include "formats/stl/stl.hpp"
#include "formats/su2/su2.hpp"
#include "formats/tecplot/tecplot.hpp"
#include "formats/unv/unv.hpp"
#include "formats/vtk/vtk.hpp"
#include "formats/vtu/vtu.hpp"
#include "formats/wkt/wkt.hpp"

namespace meshioplusplus {

const std::vector<Format>& formats() {
  static const std::vector<Format> all = {
      gmsh_format(),
      exodus_format(),
      vtu_format(),
      vtk_format(),
      ply_format(),
      obj_format(),
      stl_format(),
      off_format(),
      medit_format(),
      su2_format(),
      abaqus_format(),
      nastran_format(),
      unv_format(),
      avsucd_format(),
      tecplot_format(),
      wkt_format(),
  };
  return all;
}

}  // namespace meshioplusplus
