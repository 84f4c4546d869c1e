// meshio++ formats: the registry. One line per format; each format folder exposes
// `Format <name>_format()` from its own header.
#include "meshioplusplus/format.hpp"

#include "formats/abaqus/abaqus.hpp"
#include "formats/dolfin/dolfin.hpp"
#include "formats/ansys/ansys.hpp"
#include "formats/avsucd/avsucd.hpp"
#include "formats/cgns/cgns.hpp"
#include "formats/exodus/exodus.hpp"
#include "formats/flac3d/flac3d.hpp"
#include "formats/gmsh/gmsh.hpp"
#include "formats/h5m/h5m.hpp"
#include "formats/hmf/hmf.hpp"
#include "formats/mdpa/mdpa.hpp"
#include "formats/med/med.hpp"
#include "formats/medit/medit.hpp"
#include "formats/nastran/nastran.hpp"
#include "formats/netgen/netgen.hpp"
#include "formats/neuroglancer/neuroglancer.hpp"
#include "formats/obj/obj.hpp"
#include "formats/off/off.hpp"
#include "formats/permas/permas.hpp"
#include "formats/ply/ply.hpp"
#include "formats/pvd/pvd.hpp"
#include "formats/pvtp/pvtp.hpp"
#include "formats/pvtu/pvtu.hpp"
#include "formats/stl/stl.hpp"
#include "formats/su2/su2.hpp"
#include "formats/svg/svg.hpp"
#include "formats/tetgen/tetgen.hpp"
#include "formats/ugrid/ugrid.hpp"
#include "formats/tecplot/tecplot.hpp"
#include "formats/unv/unv.hpp"
#include "formats/vtk/vtk.hpp"
#include "formats/vtkhdf/vtkhdf.hpp"
#include "formats/vti/vti.hpp"
#include "formats/vtp/vtp.hpp"
#include "formats/vtr/vtr.hpp"
#include "formats/vts/vts.hpp"
#include "formats/vtu/vtu.hpp"
#include "formats/xdmf/xdmf.hpp"
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
      vtp_format(),
      vts_format(),
      vtr_format(),
      vti_format(),
      dolfin_format(),
      netgen_format(),
      neuroglancer_format(),
      mdpa_format(),
      permas_format(),
      flac3d_format(),
      tetgen_format(),
      ugrid_format(),
      ansys_format(),  // after gmsh: ".msh" writes stay Gmsh's; reads go by content
      xdmf_format(),
      pvtu_format(),
      pvtp_format(),
      pvd_format(),
      avsucd_format(),
      tecplot_format(),
      wkt_format(),
      svg_format(),
      vtkhdf_format(),
      med_format(),
      h5m_format(),
      hmf_format(),
      cgns_format(),
  };
  return all;
}

}  // namespace meshioplusplus
