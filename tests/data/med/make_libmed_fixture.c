/* Writes tests/data/med/libmed_two_meshes.med with MED-fichier's own C library (libmedc,
 * Debian libmedc-dev 4.1.0): two meshes ("plate": 2-D triangles + quads with node and cell
 * families/groups and fields at two time steps; "solid": one tetrahedron, one field).
 * Build: cc make_libmed_fixture.c -lmedC -lhdf5 -o make_libmed_fixture  (see README.md)
 * API: https://docs.salome-platform.org/latest/dev/MEDCoupling/developer/med-file.html */
#include <med.h>
#include <stdio.h>
#include <string.h>

#define CHECK(x) do { if ((x) < 0) { fprintf(stderr, "failed: %s\n", #x); return 1; } } while (0)

static void lname(char* out, const char* const* names, int n) {
  memset(out, 0, (size_t)n * MED_LNAME_SIZE + 1);
  for (int i = 0; i < n; ++i) strncpy(out + i * MED_LNAME_SIZE, names[i], MED_LNAME_SIZE);
}

int main(int argc, char** argv) {
  const char* path = argc > 1 ? argv[1] : "libmed_two_meshes.med";
  med_idt f = MEDfileOpen(path, MED_ACC_CREAT);
  CHECK(f);
  /* plate: 6 nodes, 2 triangles, 1 quad */
  char axes[2 * MED_SNAME_SIZE + 1] = "X               Y               ";
  char units[2 * MED_SNAME_SIZE + 1] = "m               m               ";
  CHECK(MEDmeshCr(f, "plate", 2, 2, MED_UNSTRUCTURED_MESH, "a plate", "s", MED_SORT_DTIT, MED_CARTESIAN, axes, units));
  const med_float xy[12] = {0, 0, 1, 0, 2, 0, 0, 1, 1, 1, 2, 1};
  CHECK(MEDmeshNodeCoordinateWr(f, "plate", MED_NO_DT, MED_NO_IT, 0.0, MED_FULL_INTERLACE, 6, xy));
  const med_int tria[6] = {1, 2, 5, 1, 5, 4};
  CHECK(MEDmeshElementConnectivityWr(f, "plate", MED_NO_DT, MED_NO_IT, 0.0, MED_CELL, MED_TRIA3, MED_NODAL,
                                     MED_FULL_INTERLACE, 2, tria));
  const med_int quad[4] = {2, 3, 6, 5};
  CHECK(MEDmeshElementConnectivityWr(f, "plate", MED_NO_DT, MED_NO_IT, 0.0, MED_CELL, MED_QUAD4, MED_NODAL,
                                     MED_FULL_INTERLACE, 1, quad));
  /* families: node family 1 = {left}, 2 = {right, corner}; cell -1 = {tris}, -2 = {quads, right} */
  char g[3 * MED_LNAME_SIZE + 1];
  CHECK(MEDfamilyCr(f, "plate", "FAMILLE_ZERO", 0, 0, ""));
  const char* n1[] = {"left"};
  lname(g, n1, 1);
  CHECK(MEDfamilyCr(f, "plate", "FAM_1_left", 1, 1, g));
  const char* n2[] = {"right", "corner"};
  lname(g, n2, 2);
  CHECK(MEDfamilyCr(f, "plate", "FAM_2_right_corner", 2, 2, g));
  const char* n3[] = {"tris"};
  lname(g, n3, 1);
  CHECK(MEDfamilyCr(f, "plate", "FAM_-1_tris", -1, 1, g));
  const char* n4[] = {"quads", "right"};
  lname(g, n4, 2);
  CHECK(MEDfamilyCr(f, "plate", "FAM_-2_quads_right", -2, 2, g));
  const med_int node_fam[6] = {1, 0, 2, 1, 0, 2};
  CHECK(MEDmeshEntityFamilyNumberWr(f, "plate", MED_NO_DT, MED_NO_IT, MED_NODE, MED_NONE, 6, node_fam));
  const med_int tria_fam[2] = {-1, -1};
  CHECK(MEDmeshEntityFamilyNumberWr(f, "plate", MED_NO_DT, MED_NO_IT, MED_CELL, MED_TRIA3, 2, tria_fam));
  const med_int quad_fam[1] = {-2};
  CHECK(MEDmeshEntityFamilyNumberWr(f, "plate", MED_NO_DT, MED_NO_IT, MED_CELL, MED_QUAD4, 1, quad_fam));
  /* fields on plate: "disp" (2 components on nodes), "pressure" (cells), steps t=0 and t=0.5 */
  char comp[2 * MED_SNAME_SIZE + 1] = "DX              DY              ";
  CHECK(MEDfieldCr(f, "disp", MED_FLOAT64, 2, comp, units, "s", "plate"));
  char pcomp[MED_SNAME_SIZE + 1] = "P               ";
  char punit[MED_SNAME_SIZE + 1] = "Pa              ";
  CHECK(MEDfieldCr(f, "pressure", MED_FLOAT64, 1, pcomp, punit, "s", "plate"));
  for (int step = 0; step < 2; ++step) {
    const med_float t = 0.5 * step;
    med_float d[12], p_tri[2], p_quad[1];
    for (int i = 0; i < 6; ++i) d[2 * i] = i + 10 * step, d[2 * i + 1] = -i - 10 * step;
    p_tri[0] = 1 + step, p_tri[1] = 2 + step, p_quad[0] = 3 + step;
    CHECK(MEDfieldValueWr(f, "disp", step + 1, MED_NO_IT, t, MED_NODE, MED_NONE, MED_FULL_INTERLACE,
                          MED_ALL_CONSTITUENT, 6, (unsigned char*)d));
    CHECK(MEDfieldValueWr(f, "pressure", step + 1, MED_NO_IT, t, MED_CELL, MED_TRIA3, MED_FULL_INTERLACE,
                          MED_ALL_CONSTITUENT, 2, (unsigned char*)p_tri));
    CHECK(MEDfieldValueWr(f, "pressure", step + 1, MED_NO_IT, t, MED_CELL, MED_QUAD4, MED_FULL_INTERLACE,
                          MED_ALL_CONSTITUENT, 1, (unsigned char*)p_quad));
  }
  /* solid: one tetrahedron and a one-step node field */
  char axes3[3 * MED_SNAME_SIZE + 1] = "X               Y               Z               ";
  char units3[3 * MED_SNAME_SIZE + 1] = "m               m               m               ";
  CHECK(MEDmeshCr(f, "solid", 3, 3, MED_UNSTRUCTURED_MESH, "a tet", "s", MED_SORT_DTIT, MED_CARTESIAN, axes3, units3));
  const med_float xyz[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
  CHECK(MEDmeshNodeCoordinateWr(f, "solid", MED_NO_DT, MED_NO_IT, 0.0, MED_FULL_INTERLACE, 4, xyz));
  const med_int tet[4] = {1, 2, 3, 4};
  CHECK(MEDmeshElementConnectivityWr(f, "solid", MED_NO_DT, MED_NO_IT, 0.0, MED_CELL, MED_TETRA4, MED_NODAL,
                                     MED_FULL_INTERLACE, 1, tet));
  CHECK(MEDfamilyCr(f, "solid", "FAMILLE_ZERO", 0, 0, ""));
  CHECK(MEDfieldCr(f, "temperature", MED_FLOAT64, 1, pcomp, punit, "s", "solid"));
  const med_float temp[4] = {100, 200, 300, 400};
  CHECK(MEDfieldValueWr(f, "temperature", MED_NO_DT, MED_NO_IT, 0.0, MED_NODE, MED_NONE, MED_FULL_INTERLACE,
                        MED_ALL_CONSTITUENT, 4, (unsigned char*)temp));
  CHECK(MEDfileClose(f));
  return 0;
}
