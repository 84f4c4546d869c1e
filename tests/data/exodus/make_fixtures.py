"""Makes the Exodus II fixtures of this folder (see README.md). Run with Debian's Python:
    /usr/bin/python3 tests/data/exodus/make_fixtures.py tests/data/exodus
Needs python3-netcdf4 1.6.2, python3-meshio 5.0 and python3-vtk9 9.1."""
import sys
import warnings

import netCDF4
import numpy as np

out = sys.argv[1]
warnings.simplefilter("ignore")


def chars(var, rows):
    for i, s in enumerate(rows):
        b = s.encode()
        var[i, : len(b)] = np.frombuffer(b, dtype="S1")


# 1. Hand-written, netCDF classic (CDF1): two element blocks (hex, wedge), names, a node
#    set, a side set on both blocks, three time steps, nodal variables (a vector as
#    velX/velY/velZ and a scalar), element variables (one missing on block 2 through the
#    truth table), a global variable, QA and info records.
def classic_steps_sets(path, fmt="NETCDF3_CLASSIC"):
    # A unit hexahedron (nodes 1-8) and a wedge on top of its +y face... kept simple:
    # the wedge shares nodes 4,3,7,8 (y = 1 face) and adds 9, 10 at y = 2.
    x = [0, 1, 1, 0, 0, 1, 1, 0, 0, 0]
    y = [0, 0, 1, 1, 0, 0, 1, 1, 2, 2]
    z = [0, 0, 0, 0, 1, 1, 1, 1, 0, 1]
    with netCDF4.Dataset(path, "w", format=fmt) as nc:
        nc.title = "classic_steps_sets"
        nc.version = np.float32(8.11)
        nc.api_version = np.float32(8.11)
        nc.floating_point_word_size = 8
        nc.file_size = 1
        for name, n in [("len_string", 33), ("len_line", 81), ("four", 4), ("len_name", 33), ("num_dim", 3),
                        ("num_nodes", 10), ("num_elem", 2), ("num_el_blk", 2), ("num_qa_rec", 1), ("num_info", 2),
                        ("num_el_in_blk1", 1), ("num_nod_per_el1", 8), ("num_el_in_blk2", 1), ("num_nod_per_el2", 6),
                        ("num_node_sets", 1), ("num_nod_ns1", 4), ("num_side_sets", 1), ("num_side_ss1", 2),
                        ("num_nod_var", 4), ("num_elem_var", 2), ("num_glo_var", 1)]:
            nc.createDimension(name, n)
        nc.createDimension("time_step", None)
        t = nc.createVariable("time_whole", "f8", ("time_step",))
        t[:] = [0.0, 0.5, 1.0]
        qa = nc.createVariable("qa_records", "S1", ("num_qa_rec", "four", "len_string"))
        chars(qa[0], [])
        for j, s in enumerate(["handmade", "1.0", "2026-01-01", "00:00:00"]):
            qa[0, j, : len(s)] = np.frombuffer(s.encode(), dtype="S1")
        info = nc.createVariable("info_records", "S1", ("num_info", "len_line"))
        chars(info, ["first info line", "second info line"])
        cn = nc.createVariable("coor_names", "S1", ("num_dim", "len_name"))
        chars(cn, ["R", "S", "T"])
        for name, v in [("coordx", x), ("coordy", y), ("coordz", z)]:
            nc.createVariable(name, "f8", ("num_nodes",))[:] = v
        nc.createVariable("eb_status", "i4", ("num_el_blk",))[:] = [1, 1]
        p = nc.createVariable("eb_prop1", "i4", ("num_el_blk",))
        p.setncattr("name", "ID")
        p[:] = [10, 20]
        chars(nc.createVariable("eb_names", "S1", ("num_el_blk", "len_name")), ["brick", "roof"])
        c1 = nc.createVariable("connect1", "i4", ("num_el_in_blk1", "num_nod_per_el1"))
        c1.elem_type = "HEX8"
        c1[:] = [[1, 2, 3, 4, 5, 6, 7, 8]]
        c2 = nc.createVariable("connect2", "i4", ("num_el_in_blk2", "num_nod_per_el2"))
        c2.elem_type = "WEDGE"
        c2[:] = [[4, 3, 9, 8, 7, 10]]
        p = nc.createVariable("ns_prop1", "i4", ("num_node_sets",))
        p.setncattr("name", "ID")
        p[:] = [7]
        chars(nc.createVariable("ns_names", "S1", ("num_node_sets", "len_name")), ["bottom"])
        nc.createVariable("node_ns1", "i4", ("num_nod_ns1",))[:] = [1, 2, 3, 4]
        p = nc.createVariable("ss_prop1", "i4", ("num_side_sets",))
        p.setncattr("name", "ID")
        p[:] = [3]
        chars(nc.createVariable("ss_names", "S1", ("num_side_sets", "len_name")), ["skin"])
        # hex side 5 = nodes 1,4,3,2 (z = 0); wedge side 5 = nodes 8,7,10 (its top triangle)
        nc.createVariable("elem_ss1", "i4", ("num_side_ss1",))[:] = [1, 2]
        nc.createVariable("side_ss1", "i4", ("num_side_ss1",))[:] = [5, 5]
        chars(nc.createVariable("name_glo_var", "S1", ("num_glo_var", "len_name")), ["energy"])
        g = nc.createVariable("vals_glo_var", "f8", ("time_step", "num_glo_var"))
        g[:] = [[1.0], [2.0], [3.0]]
        chars(nc.createVariable("name_nod_var", "S1", ("num_nod_var", "len_name")), ["velX", "velY", "velZ", "temp"])
        for k in range(4):
            v = nc.createVariable(f"vals_nod_var{k + 1}", "f8", ("time_step", "num_nodes"))
            v[:] = [[100 * s + 10 * k + i for i in range(10)] for s in range(3)]
        chars(nc.createVariable("name_elem_var", "S1", ("num_elem_var", "len_name")), ["pressure", "damage"])
        nc.createVariable("elem_var_tab", "i4", ("num_el_blk", "num_elem_var"))[:] = [[1, 1], [1, 0]]
        nc.createVariable("vals_elem_var1eb1", "f8", ("time_step", "num_el_in_blk1"))[:] = [[1.0], [1.5], [2.0]]
        nc.createVariable("vals_elem_var1eb2", "f8", ("time_step", "num_el_in_blk2"))[:] = [[5.0], [5.5], [6.0]]
        nc.createVariable("vals_elem_var2eb1", "f8", ("time_step", "num_el_in_blk1"))[:] = [[0.1], [0.2], [0.3]]


classic_steps_sets(f"{out}/classic_steps_sets.e")
classic_steps_sets(f"{out}/offset64_steps_sets.exo", "NETCDF3_64BIT_OFFSET")


# 2. Hand-written, the `coord` (num_dim, num_nodes) layout of older writers, 2-D quads
#    written as SHELL4, a BAR2 block and the old (time_step, num_nod_var, num_nodes) layout.
with netCDF4.Dataset(f"{out}/coord_2d_old_layout.e", "w", format="NETCDF3_CLASSIC") as nc:
    for name, n in [("len_string", 33), ("num_dim", 2), ("num_nodes", 6), ("num_el_blk", 2),
                    ("num_el_in_blk1", 2), ("num_nod_per_el1", 4), ("num_el_in_blk2", 1), ("num_nod_per_el2", 2),
                    ("num_nod_var", 2)]:
        nc.createDimension(name, n)
    nc.createDimension("time_step", None)
    nc.createVariable("time_whole", "f4", ("time_step",))[:] = [0.0, 1.0]
    nc.createVariable("coord", "f4", ("num_dim", "num_nodes"))[:] = [[0, 1, 2, 0, 1, 2], [0, 0, 0, 1, 1, 1]]
    c = nc.createVariable("connect1", "i4", ("num_el_in_blk1", "num_nod_per_el1"))
    c.elem_type = "SHELL4"
    c[:] = [[1, 2, 5, 4], [2, 3, 6, 5]]
    c = nc.createVariable("connect2", "i4", ("num_el_in_blk2", "num_nod_per_el2"))
    c.elem_type = "BAR2"
    c[:] = [[1, 3]]
    chars(nc.createVariable("name_nod_var", "S1", ("num_nod_var", "len_string")), ["a", "b"])
    v = nc.createVariable("vals_nod_var", "f4", ("time_step", "num_nod_var", "num_nodes"))
    v[:] = np.arange(24, dtype=np.float32).reshape(2, 2, 6)


# 3. meshio 5.0's writer (netCDF-4): tetra + triangle, point data (scalar and (n, 3)), a point set.
import meshio  # noqa: E402

pts = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]], float)
meshio.write(
    f"{out}/meshio_tetra.e",
    meshio.Mesh(pts, [("tetra", np.array([[0, 1, 2, 3], [1, 2, 3, 4]])), ("triangle", np.array([[0, 1, 2]]))],
                point_data={"t": np.arange(5.0), "u": np.arange(15.0).reshape(5, 3)},
                point_sets={"corner": np.array([0, 3])}),
)

# 4. VTK 9.1's vtkExodusIIWriter: two hexahedra with point and cell arrays.
import vtk  # noqa: E402
from vtk.util.numpy_support import numpy_to_vtk  # noqa: E402

ug = vtk.vtkUnstructuredGrid()
p = vtk.vtkPoints()
for k in range(3):
    for j in range(2):
        for i in range(2):
            p.InsertNextPoint(i, j, k)
ug.SetPoints(p)
for base in (0, 4):
    ids = vtk.vtkIdList()
    for n in (0, 1, 3, 2, 4, 5, 7, 6):
        ids.InsertNextId(base + n)
    ug.InsertNextCell(vtk.VTK_HEXAHEDRON, ids)
a = numpy_to_vtk(np.arange(12, dtype=np.float64), deep=1)
a.SetName("heat")
ug.GetPointData().AddArray(a)
a = numpy_to_vtk(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), deep=1)
a.SetName("flux")
ug.GetCellData().AddArray(a)
w = vtk.vtkExodusIIWriter()
w.SetFileName(f"{out}/vtk_hexahedra.e")
w.SetInputData(ug)
w.WriteAllTimeStepsOff()
w.Write()
