"""Exodus II: round trips, and the oracles.

- meshio 5.0 (python3-meshio with python3-netcdf4) reads every file we write with equal
  arrays, and we read every file it writes with equal arrays;
- VTK 9.1's vtkExodusIIReader reads what we write with the same points, blocks (names,
  connectivity in VTK order for the quadratic hexahedra and wedge), node sets, side sets
  (the same face nodes) and nodal/element/global variables; vtkIOSSReader reads it too;
- we read what vtkExodusIIWriter writes with VTK's own arrays;
- ncdump -h (netcdf-bin) shows the dimension and variable names the Exodus II spec names;
- corrupted files (an index past num_nodes, a missing variable, an unknown element type,
  a side number past the element's sides, a lying dimension) are ReadErrors naming the
  variable.

netCDF4-python and VTK share the process with meshio++: Debian builds python3-netcdf4
against the same libnetcdf and serial HDF5 that meshio++ links, so one HDF5 is loaded.
"""
from __future__ import annotations

import copy
import shutil
import subprocess
import warnings
from pathlib import Path

import numpy as np
import pytest

import helpers
import meshioplusplus as mio

netCDF4 = pytest.importorskip("netCDF4", reason="python3-netcdf4 is the file inspector of these tests")
meshio = pytest.importorskip("meshio", reason="python3-meshio is the peer oracle")

if not mio.formats()["exodus"]["read"]:
    pytest.skip("exodus is not registered", allow_module_level=True)

DATA = Path(__file__).resolve().parents[1] / "data" / "exodus"


def _available():
    try:
        mio.read(DATA / "coord_2d_old_layout.e")
        return True
    except mio.ReadError as e:
        assert "libnetcdf-dev" in str(e)
        return False


pytestmark = pytest.mark.skipif(not _available(), reason="meshio++ built without netCDF-C (libnetcdf-dev)")

FLAVOURS = ["NETCDF4", "NETCDF4_CLASSIC", "NETCDF3_64BIT_OFFSET", "NETCDF3_CLASSIC"]


def _meshes():
    out = {
        "tri": helpers.tri_mesh,
        "tri_2d": helpers.tri_mesh_2d,
        "quad": helpers.quad_mesh,
        "tri_quad": helpers.tri_quad_mesh,
        "tet": helpers.tet_mesh,
        "hex": helpers.hex_mesh,
        "line": helpers.line_mesh,
        "tet_pd1": helpers.add_point_data(helpers.tet_mesh, 1),
        "tet_pd3": helpers.add_point_data(helpers.tet_mesh, 3),
        "tri_quad_cd": helpers.add_cell_data(helpers.tri_quad_mesh, [("a", (), np.float64), ("b", (3,), np.float64)]),
        "f32": helpers.add_point_data(helpers.hex_mesh, 1, dtype=np.float32),
    }
    return out


MESHES = _meshes()


@pytest.mark.parametrize("flavour", FLAVOURS)
@pytest.mark.parametrize("name", list(MESHES))
def test_round_trip(name, flavour, tmp_path):
    back = helpers.write_read(tmp_path, MESHES[name], "exodus", suffix=".e", netcdf_format=flavour)
    for k, v in MESHES[name].point_data.items():
        assert back.point_data[k].dtype == v.dtype  # float32 stays float32


def _meshio_equal(ours, theirs):
    np.testing.assert_array_equal(np.asarray(theirs.points)[:, : ours.points.shape[1]], ours.points)
    assert [c.type for c in ours.cells] == [c.type for c in theirs.cells]
    for a, b in zip(ours.cells, theirs.cells):
        np.testing.assert_array_equal(a.data, b.data)


@pytest.mark.parametrize("name", list(MESHES))
def test_meshio_reads_what_we_write(name, tmp_path):
    mesh = MESHES[name]
    path = tmp_path / "ours.e"
    mio.write(path, mesh)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = meshio.read(path)
    _meshio_equal(mesh, theirs)
    assert set(theirs.point_data) == set(mesh.point_data)
    for k, v in mesh.point_data.items():
        np.testing.assert_array_equal(theirs.point_data[k], v)
    # meshio does not join element variables: a (m, 3) array comes back as <name>X/Y/Z.
    for k, blocks in mesh.cell_data.items():
        for b, v in enumerate(blocks):
            if v.ndim == 1:
                np.testing.assert_array_equal(theirs.cell_data[k][b], v)
            else:
                for c, s in enumerate("XYZ"):
                    np.testing.assert_array_equal(theirs.cell_data[k + s][b], v[:, c])


@pytest.mark.parametrize("name", [n for n in MESHES if not MESHES[n].cell_data and n != "line"])
def test_we_read_what_meshio_writes(name, tmp_path):
    # meshio's writer has no cell data; it maps "line" to BAR2 but reads BAR2 back (fine),
    # kept out only because its point_sets path needs at least one set.
    mesh = MESHES[name]
    theirs = meshio.Mesh(mesh.points, [(c.type, c.data) for c in mesh.cells], point_data=dict(mesh.point_data),
                         point_sets={"first": np.array([0, 2])})
    path = tmp_path / "theirs.e"
    meshio.write(path, theirs)
    ours = mio.read(path)
    _meshio_equal(ours, theirs)
    assert set(ours.point_data) == set(theirs.point_data)
    for k, v in theirs.point_data.items():
        np.testing.assert_array_equal(ours.point_data[k], v)
    np.testing.assert_array_equal(ours.point_sets["first"], [0, 2])


def test_meshio_and_we_agree_on_every_fixture():
    for path in sorted(DATA.glob("*.e*")):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                theirs = meshio.read(path)
            except (KeyError, ValueError):
                # meshio cannot read element variables missing from a block (truth table):
                # its cell data comes out short and its Mesh refuses it.
                continue
        ours = mio.read(path)
        np.testing.assert_array_equal(np.asarray(theirs.points)[:, : ours.points.shape[1]], ours.points)
        for a, b in zip(ours.cells, theirs.cells):
            np.testing.assert_array_equal(a.data, b.data)
        for k, v in theirs.point_data.items():  # meshio reads the first time step, as we do
            np.testing.assert_array_equal(ours.point_data[k], v)
        for k, v in theirs.point_sets.items():
            np.testing.assert_array_equal(ours.point_sets[k], np.sort(v))


# --- VTK ------------------------------------------------------------------------------
vtk = pytest.importorskip("vtk", reason="python3-vtk9 is the ParaView/VTK oracle")
from vtk.util.numpy_support import vtk_to_numpy  # noqa: E402


def _vtk_read(path, reader_class="vtkExodusIIReader"):
    r = vtk.vtkExodusIIReader()
    r.SetFileName(str(path))
    r.UpdateInformation()
    for t in (r.ELEM_BLOCK, r.NODE_SET, r.SIDE_SET):
        for i in range(r.GetNumberOfObjects(t)):
            r.SetObjectStatus(t, i, 1)
    for t in (r.NODAL, r.ELEM_BLOCK, r.GLOBAL):
        r.SetAllArrayStatus(t, 1)
    r.GenerateGlobalNodeIdArrayOn()
    r.Update()
    return r


def _blocks(r, group):
    """{name: unstructured grid} of one group of vtkExodusIIReader's output."""
    out = {}
    mb = r.GetOutput().GetBlock(group)
    for j in range(mb.GetNumberOfBlocks()):
        out[mb.GetMetaData(j).Get(vtk.vtkCompositeDataSet.NAME())] = mb.GetBlock(j)
    return out


def _cells(ug):
    """Connectivity of an unstructured grid, as global node ids (0-based) per cell."""
    ids = vtk_to_numpy(ug.GetPointData().GetArray("PedigreeNodeId")) - 1
    return [[int(ids[ug.GetCell(i).GetPointId(k)]) for k in range(ug.GetCell(i).GetNumberOfPoints())]
            for i in range(ug.GetNumberOfCells())]


def _oracle_mesh():
    pts = np.array([[x, y, z] for z in range(3) for y in range(3) for x in range(3)], dtype=float) * [1.0, 2.0, 0.5]
    # one hexahedron (27-node), one hexahedron20, a wedge15, two linear tetra, a triangle
    hex27 = [0, 2, 8, 6, 18, 20, 26, 24, 1, 5, 7, 3, 19, 23, 25, 21, 9, 11, 17, 15, 12, 14, 10, 16, 4, 22, 13]
    hex20 = hex27[:20]
    wedge15 = [0, 2, 6, 18, 20, 24, 1, 4, 3, 19, 22, 21, 9, 11, 15]
    cells = [("hexahedron27", [hex27]), ("hexahedron20", [hex20]), ("wedge15", [wedge15]),
             ("tetra", [[0, 1, 3, 9], [1, 4, 3, 13]]), ("triangle", [[0, 1, 3]])]
    rng = np.random.default_rng(5)
    m = mio.Mesh(pts, cells, point_data={"T": rng.random(27), "vel": rng.random((27, 3))},
                 cell_data={"p": [rng.random(len(c[1])) for c in cells]})
    m.field_data["energy"] = np.array([4.25])
    m.regions = [mio.Region("tets", "cell", np.array([3, 4])), mio.Region("pins", "point", np.array([0, 13, 26])),
                 mio.Region("skin", "side", np.array([[3, 0], [3, 3], [4, 1], [5, 2]]))]
    return m


def test_vtk_reads_blocks_sets_and_variables(tmp_path):
    m = _oracle_mesh()
    path = tmp_path / "oracle.e"
    mio.write(path, m)
    r = _vtk_read(path)
    blocks = _blocks(r, 0)
    names = list(blocks)
    assert names[3] == "tets"
    ugs = list(blocks.values())
    vtk_types = [vtk.VTK_TRIQUADRATIC_HEXAHEDRON, vtk.VTK_QUADRATIC_HEXAHEDRON, vtk.VTK_QUADRATIC_WEDGE,
                 vtk.VTK_TETRA, vtk.VTK_TRIANGLE]
    for ug, block, t in zip(ugs, m.cells, vtk_types):
        assert ug.GetCell(0).GetCellType() == t
        # VTK's node order is ours: the Exodus permutations undo each other.
        assert _cells(ug) == block.data.tolist()
        pid = vtk_to_numpy(ug.GetPointData().GetArray("PedigreeNodeId")) - 1
        np.testing.assert_array_equal(vtk_to_numpy(ug.GetPoints().GetData()), m.points[pid])
        np.testing.assert_array_equal(vtk_to_numpy(ug.GetPointData().GetArray("T")), m.point_data["T"][pid])
        np.testing.assert_array_equal(vtk_to_numpy(ug.GetPointData().GetArray("vel")), m.point_data["vel"][pid])
        assert vtk_to_numpy(ug.GetFieldData().GetArray("energy"))[0] == 4.25
    for ug, p in zip(ugs, m.cell_data["p"]):
        np.testing.assert_array_equal(vtk_to_numpy(ug.GetCellData().GetArray("p")), p)
    # node set
    ns = _blocks(r, 7)["pins"]
    pid = vtk_to_numpy(ns.GetPointData().GetArray("PedigreeNodeId")) - 1
    assert sorted(pid.tolist()) == [0, 13, 26]
    # side set: VTK gives each side as a cell of its own; its nodes must be the nodes of
    # the face VTK itself numbers `facet` (vtkCell::GetFace) on the element block.
    ss = _blocks(r, 4)["skin"]
    got = sorted(sorted(face) for face in _cells(ss))
    bases = np.cumsum([0] + [len(c.data) for c in m.cells])
    want = []
    for cell, facet in m.regions[2].entries:
        b = int(np.searchsorted(bases, cell, side="right") - 1)
        ug = ugs[b]
        pid = vtk_to_numpy(ug.GetPointData().GetArray("PedigreeNodeId")) - 1
        vcell = ug.GetCell(int(cell - bases[b]))
        face = vcell.GetFace(int(facet)) if vcell.GetCellDimension() == 3 else vcell.GetEdge(int(facet))
        want.append(sorted(int(pid[face.GetPointId(k)]) for k in range(face.GetNumberOfPoints())))
    assert got == sorted(want)


def test_vtk_iossreader_reads_what_we_write(tmp_path):
    if not hasattr(vtk, "vtkIOSSReader"):
        pytest.skip("this VTK has no vtkIOSSReader")
    m = _oracle_mesh()
    path = tmp_path / "oracle.e"
    mio.write(path, m)
    r = vtk.vtkIOSSReader()
    r.SetFileName(str(path))
    r.UpdateInformation()
    r.Update()
    blocks = r.GetElementBlockSelection()
    names = [blocks.GetArrayName(i) for i in range(blocks.GetNumberOfArrays())]
    assert "tets" in names and len(names) == len(m.cells)
    node_sets = r.GetNodeSetSelection()
    assert [node_sets.GetArrayName(i) for i in range(node_sets.GetNumberOfArrays())] == ["pins"]
    side_sets = r.GetSideSetSelection()
    assert [side_sets.GetArrayName(i) for i in range(side_sets.GetNumberOfArrays())] == ["skin"]
    out = r.GetOutputDataObject(0)
    it = out.NewIterator()
    it.InitTraversal()
    cells = 0
    while not it.IsDoneWithTraversal():
        cells += it.GetCurrentDataObject().GetNumberOfCells()
        it.GoToNextItem()
    assert cells == sum(len(c.data) for c in m.cells)


def test_we_read_what_vtk_writes():
    ours = mio.read(DATA / "vtk_hexahedra.e")
    r = _vtk_read(DATA / "vtk_hexahedra.e")
    ug = list(_blocks(r, 0).values())[0]
    pid = vtk_to_numpy(ug.GetPointData().GetArray("PedigreeNodeId")) - 1
    np.testing.assert_array_equal(ours.points[pid], vtk_to_numpy(ug.GetPoints().GetData()))
    assert _cells(ug) == ours.cells[0].data.tolist()
    np.testing.assert_array_equal(ours.point_data["heat"][pid], vtk_to_numpy(ug.GetPointData().GetArray("heat")))
    np.testing.assert_array_equal(ours.cell_data["flux"][0], vtk_to_numpy(ug.GetCellData().GetArray("flux")))


# --- layout (ncdump) ------------------------------------------------------------------
@pytest.mark.skipif(shutil.which("ncdump") is None, reason="netcdf-bin provides ncdump")
@pytest.mark.parametrize("flavour", ["NETCDF4", "NETCDF3_CLASSIC"])
def test_ncdump_shows_the_exodus_layout(flavour, tmp_path):
    path = tmp_path / "layout.e"
    mio.write(path, _oracle_mesh(), netcdf_format=flavour)
    header = subprocess.run(["ncdump", "-h", str(path)], capture_output=True, text=True, check=True).stdout
    kind = subprocess.run(["ncdump", "-k", str(path)], capture_output=True, text=True, check=True).stdout.strip()
    assert kind == {"NETCDF4": "netCDF-4", "NETCDF3_CLASSIC": "classic"}[flavour]
    for dim in ["len_string = 33", "len_name = 33", "four = 4", "time_step = UNLIMITED", "num_dim = 3",
                "num_nodes = 27", "num_elem = 6", "num_el_blk = 5", "num_el_in_blk4 = 2", "num_nod_per_el1 = 27",
                "num_node_sets = 1", "num_nod_ns1 = 3", "num_side_sets = 1", "num_side_ss1 = 4",
                "num_nod_var = 4", "num_elem_var = 1", "num_glo_var = 1", "num_qa_rec = 1"]:
        assert f"\t{dim} ;" in header, dim
    for var in ["double time_whole(time_step)", "char qa_records(num_qa_rec, four, len_string)",
                "char coor_names(num_dim, len_name)", "double coordx(num_nodes)", "double coordz(num_nodes)",
                "int eb_prop1(num_el_blk)", "char eb_names(num_el_blk, len_name)",
                "int connect1(num_el_in_blk1, num_nod_per_el1)", "int node_ns1(num_nod_ns1)",
                "int elem_ss1(num_side_ss1)", "int side_ss1(num_side_ss1)", "char name_nod_var(num_nod_var, len_name)",
                "double vals_nod_var1(time_step, num_nodes)", "double vals_elem_var1eb5(time_step, num_el_in_blk5)",
                "int elem_var_tab(num_el_blk, num_elem_var)", "double vals_glo_var(time_step, num_glo_var)"]:
        assert f"\t{var} ;" in header, var
    for att in ['connect1:elem_type = "HEX27"', 'connect2:elem_type = "HEX20"', 'connect3:elem_type = "WEDGE15"',
                'connect4:elem_type = "TETRA"', 'eb_prop1:name = "ID"', ":floating_point_word_size = 8"]:
        assert att in header, att


def test_exodus_node_order_on_disk(tmp_path):
    # Exodus lists a quadratic hexahedron's vertical mid-edge nodes (13-16) before its top
    # ones (17-20); VTK (and meshio++) the other way round.
    m = _oracle_mesh()
    path = tmp_path / "order.e"
    mio.write(path, m)
    with netCDF4.Dataset(path) as nc:
        on_disk = nc.variables["connect2"][0] - 1
    ours = m.cells[1].data[0]
    np.testing.assert_array_equal(on_disk[:12], ours[:12])
    np.testing.assert_array_equal(on_disk[12:16], ours[16:20])
    np.testing.assert_array_equal(on_disk[16:20], ours[12:16])


# --- time steps -------------------------------------------------------------------------
def test_step_keyword_and_time_values():
    path = DATA / "classic_steps_sets.e"
    first = mio.read(path)
    np.testing.assert_array_equal(first.field_data["exodus:time_whole"], [0.0, 0.5, 1.0])
    with netCDF4.Dataset(path) as nc:
        for k in range(3):
            m = mio.read(path, step=k)
            np.testing.assert_array_equal(m.point_data["temp"], nc.variables["vals_nod_var4"][k])
            np.testing.assert_array_equal(m.point_data["vel"][:, 1], nc.variables["vals_nod_var2"][k])
            np.testing.assert_array_equal(m.cell_data["pressure"][1], nc.variables["vals_elem_var1eb2"][k])
            assert m.field_data["energy"][0] == nc.variables["vals_glo_var"][k, 0]
    np.testing.assert_array_equal(mio.read(path, step=-1).point_data["temp"], mio.read(path, step=2).point_data["temp"])
    with pytest.raises(mio.ReadError, match="step"):
        mio.read(path, step=7)


# --- corrupted files --------------------------------------------------------------------
def _copy_with(tmp_path, change, name="bad.e"):
    """A copy of the classic fixture with `change(nc)` applied by netCDF4-python."""
    src = DATA / "classic_steps_sets.e"
    out = tmp_path / name
    with netCDF4.Dataset(src) as a, netCDF4.Dataset(out, "w", format="NETCDF3_CLASSIC") as b:
        b.setncatts(a.__dict__)
        for d in a.dimensions.values():
            b.createDimension(d.name, None if d.isunlimited() else len(d))
        for v in a.variables.values():
            if change(None, v.name) is False:
                continue
            w = b.createVariable(v.name, v.datatype, v.dimensions)
            w.setncatts(v.__dict__)
            v.set_auto_mask(False)
            w[:] = v[:]
        change(b, None)
    return out


def test_connectivity_past_num_nodes(tmp_path):
    def change(nc, name):
        if nc is not None:
            nc.variables["connect2"][0, 2] = 11
    with pytest.raises(mio.ReadError, match=r"connect2.*1\.\.10.*'11'"):
        mio.read(_copy_with(tmp_path, change))


def test_missing_variable(tmp_path):
    with pytest.raises(mio.ReadError, match="missing variable coordy"):
        mio.read(_copy_with(tmp_path, lambda nc, name: name != "coordy"))
    with pytest.raises(mio.ReadError, match="missing variable vals_nod_var3"):
        mio.read(_copy_with(tmp_path, lambda nc, name: name != "vals_nod_var3", "b2.e"))


def test_unknown_element_type(tmp_path):
    def change(nc, name):
        if nc is not None:
            nc.variables["connect1"].elem_type = "HEXAGONAL_PRISM"
    with pytest.raises(mio.ReadError, match="connect1.*HEXAGONAL_PRISM"):
        mio.read(_copy_with(tmp_path, change))


def test_side_past_the_element_sides(tmp_path):
    def change(nc, name):
        if nc is not None:
            nc.variables["side_ss1"][1] = 6  # a wedge has 5 sides
    with pytest.raises(mio.ReadError, match=r"side_ss1.*1\.\.5.*'6'"):
        mio.read(_copy_with(tmp_path, change))


def test_lying_dimension(tmp_path):
    data = bytearray((DATA / "classic_steps_sets.e").read_bytes())
    # A fixed dimension that outgrows the file: netCDF-C refuses the header itself.
    key = b"\0\0\0\x0enum_el_in_blk1\0"
    at = data.find(key)
    assert at > 0
    lie = bytearray(data)
    lie[at + len(key): at + len(key) + 4] = (10**6).to_bytes(4, "big")
    path = tmp_path / "lie.e"
    path.write_bytes(bytes(lie))
    with pytest.raises(mio.ReadError, match="lie.e: not a readable netCDF file"):
        mio.read(path)
    # The record count (bytes 4-8 of a classic header) claims a million time steps:
    # netCDF-C accepts it, meshio++ refuses the first record variable it meets.
    data[4:8] = (10**6).to_bytes(4, "big")
    path.write_bytes(bytes(data))
    with pytest.raises(mio.ReadError, match=r"variable time_whole: expected at most \d+ bytes"):
        mio.read(path)


def test_truncated_file(tmp_path):
    data = (DATA / "classic_steps_sets.e").read_bytes()
    path = tmp_path / "short.e"
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(mio.ReadError, match="short.e"):
        mio.read(path)


# --- writes -------------------------------------------------------------------------------
def test_a_failed_write_leaves_the_old_file(tmp_path):
    target = tmp_path / "keep.e"
    mio.write(target, helpers.tri_mesh)
    before = target.read_bytes()
    bad = copy.deepcopy(helpers.tri_mesh)
    bad.regions = [mio.Region("ends", "side", np.array([[0, 7]]))]  # a triangle has 3 edges
    with pytest.raises((mio.WriteError, ValueError)):
        mio.write(target, bad)
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["keep.e"]


def test_gzip_keywords(tmp_path):
    mesh = helpers.add_point_data(helpers.tet_mesh, 1)
    back = helpers.write_read(tmp_path, mesh, "exodus", suffix=".e", compression="gzip", compression_opts=9)
    assert back.points.shape == mesh.points.shape
    with netCDF4.Dataset(tmp_path / "roundtrip.e") as nc:
        assert nc.variables["coordx"].filters()["zlib"] is True
        assert nc.variables["coordx"].filters()["complevel"] == 9
    with pytest.raises(ValueError, match="compression"):
        mio.write(tmp_path / "x.e", mesh, compression="gzip", netcdf_format="NETCDF3_CLASSIC")


def test_meshio_reads_our_node_sets_and_ignores_the_rest(tmp_path):
    mesh = copy.deepcopy(helpers.tri_quad_mesh)
    mesh.regions = [mio.Region("left", "point", np.array([0, 5])), mio.Region("tris", "cell", np.array([0, 1])),
                    mio.Region("edge", "side", np.array([[2, 1]]))]
    path = tmp_path / "sets.e"
    mio.write(path, mesh)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = meshio.read(path)
    assert list(theirs.point_sets) == ["left"]
    np.testing.assert_array_equal(theirs.point_sets["left"], [0, 5])
    ours = mio.read(path)
    assert [(r.name, r.kind) for r in ours.regions] == [("tris", "cell"), ("left", "point"), ("edge", "side")]
    np.testing.assert_array_equal(ours.regions[2].entries, [[2, 1]])
