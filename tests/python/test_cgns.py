"""CGNS (HDF5 flavour) against the real CGNS library and its readers: every file we write
passes the CGNS 3.4 library's cgnscheck without errors and is listed by cgnslist
(subprocesses), VTK 9.1's vtkCGNSReader reads it with our points, cells and arrays, meshio
reads our tetrahedra and we read meshio's file; files written by the CGNS library
(aflr3_to_cgns, tetgen_to_cgns; tests/data/cgns/make_fixtures.sh) and h5py-made files of the
layouts no Debian tool writes (CGNS 4's ElementStartOffset, NGON_n/NFACE_n, MIXED, several
zones; make_fixtures.py) read as the SIDS says. h5py and meshio run in a subprocess: one
HDF5 library per process."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import helpers
import meshioplusplus as mio

DATA = Path(__file__).resolve().parents[1] / "data" / "cgns"
needs_cgns_tools = pytest.mark.skipif(shutil.which("cgnscheck") is None, reason="the CGNS library's tools (Debian cgns-convert)")


def cgnscheck(path):
    """cgnscheck's report; fails the test on an error (warnings are about optional nodes:
    DataClass, dimensional units)."""
    proc = subprocess.run(["cgnscheck", str(path)], capture_output=True, text=True, timeout=120)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert "ERROR" not in out.upper().replace("NO ERRORS", ""), out
    assert "checking complete" in out, out
    return out


def cgnslist(path):
    proc = subprocess.run(["cgnslist", str(path)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def oracles(path, polyhedra=False):
    """cgnslist always; cgnscheck unless the file holds polyhedra (cgnscheck 3.4.0 crashes
    in its NGON_n/NFACE_n check on every such file, the library's own ones included)."""
    listing = cgnslist(path)
    if not polyhedra:
        cgnscheck(path)
    return listing


tet_mesh = helpers.tet_mesh
mixed_mesh = mio.Mesh(
    np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1], [0.5, 0.5, 2]], dtype=float),
    [("hexahedron", [[0, 1, 2, 3, 4, 5, 6, 7]]), ("pyramid", [[4, 5, 6, 7, 8]]), ("quad", [[0, 3, 2, 1]]), ("triangle", [[4, 5, 8]])],
)


def with_data(mesh):
    m = mio.Mesh(mesh.points, [(c.type, c.data) for c in mesh.cells])
    n = len(m.points)
    m.point_data = {"Pressure": np.linspace(0, 1, n), "Velocity": np.arange(3 * n, dtype=float).reshape(n, 3),
                    "Id": np.arange(n, dtype=np.int32)}
    return m


@needs_cgns_tools
@pytest.mark.parametrize("mesh", [helpers.tet_mesh, helpers.hex_mesh, helpers.tri_mesh, helpers.quad_mesh, helpers.tri_quad_mesh,
                                  helpers.tri_mesh_2d, mixed_mesh], ids=["tet", "hex", "tri", "quad", "tri_quad", "tri2d", "mixed"])
def test_round_trip_and_cgnscheck(tmp_path, mesh):
    back = helpers.write_read(tmp_path, with_data(mesh), "cgns")
    oracles(tmp_path / "roundtrip")
    assert back.field_data["CGNSBase:Base"][1] == mesh.points.shape[1]  # PhysicalDimension


@needs_cgns_tools
@pytest.mark.parametrize("typ, nodes", [("line3", 3), ("triangle6", 6), ("quad8", 8), ("quad9", 9), ("tetra10", 10),
                                        ("pyramid13", 13), ("wedge", 6), ("wedge15", 15), ("wedge18", 18),
                                        ("hexahedron20", 20), ("hexahedron27", 27), ("pyramid14", 14)])
def test_higher_order_round_trip(tmp_path, typ, nodes):
    points = np.random.default_rng(1).random((nodes, 3))
    mesh = mio.Mesh(points, [(typ, [list(range(nodes))])])
    helpers.write_read(tmp_path, mesh, "cgns")
    oracles(tmp_path / "roundtrip")


def vtk_read(path):
    vtk = pytest.importorskip("vtk", reason="VTK 9.1's vtkCGNSReader is the oracle")
    from vtk.util.numpy_support import vtk_to_numpy
    r = vtk.vtkCGNSReader()
    r.SetFileName(str(path))
    r.UpdateInformation()
    r.EnableAllPointArrays()
    r.EnableAllCellArrays()
    r.Update()
    it = r.GetOutput().NewIterator()
    it.InitTraversal()
    grids = []
    while not it.IsDoneWithTraversal():
        grids.append(it.GetCurrentDataObject())
        it.GoToNextItem()
    g = grids[0]
    pd = {g.GetPointData().GetArrayName(i): vtk_to_numpy(g.GetPointData().GetArray(i)) for i in range(g.GetPointData().GetNumberOfArrays())}
    cd = {g.GetCellData().GetArrayName(i): vtk_to_numpy(g.GetCellData().GetArray(i)) for i in range(g.GetCellData().GetNumberOfArrays())}
    types = [g.GetCellType(i) for i in range(g.GetNumberOfCells())]
    return vtk_to_numpy(g.GetPoints().GetData()), types, pd, cd, len(grids)


def test_vtk_reads_ours(tmp_path):
    mesh = with_data(helpers.tet_mesh)
    mesh.cell_data = {"Rho": [np.array([1.5, 2.5])]}
    path = tmp_path / "ours.cgns"
    mio.write(path, mesh)
    pts, types, pd, cd, _ = vtk_read(path)
    np.testing.assert_allclose(pts, mesh.points)
    assert types == [10, 10]  # VTK_TETRA
    np.testing.assert_allclose(pd["Pressure"], mesh.point_data["Pressure"])
    np.testing.assert_allclose(pd["Velocity"], mesh.point_data["Velocity"])  # VelocityX/Y/Z combined by VTK too
    np.testing.assert_allclose(cd["Rho"], [1.5, 2.5])
    back = mio.read(path)
    np.testing.assert_allclose(back.cell_data["Rho"][0], [1.5, 2.5])


def test_vtk_reads_our_mixed_types(tmp_path):
    path = tmp_path / "mixed.cgns"
    mio.write(path, mixed_mesh)
    pts, types, _, _, _ = vtk_read(path)
    np.testing.assert_allclose(pts, mixed_mesh.points)
    assert sorted(set(types)) in ([12, 14], [5, 9, 12, 14])  # hexahedron, pyramid (+ faces as patches)


def test_vtk_reads_our_polyhedra(tmp_path):
    src = mio.read(DATA / "poly3.cgns")
    path = tmp_path / "poly.cgns"
    mio.write(path, src)
    oracles(path, polyhedra=True)
    pts, types, _, _, _ = vtk_read(path)
    assert types == [42, 42]  # VTK_POLYHEDRON
    np.testing.assert_allclose(pts, src.points)
    back = mio.read(path)
    assert [c.type for c in back.cells] == [c.type for c in src.cells]


_MESHIO = r"""
import sys, json, numpy as np, meshio
if sys.argv[1] == "read":
    m = meshio.read(sys.argv[2])
    print(json.dumps({"points": m.points.tolist(), "cells": [[c.type, c.data.tolist()] for c in m.cells]}))
else:
    m = meshio.Mesh(np.array(json.loads(sys.argv[3])), [("tetra", np.array(json.loads(sys.argv[4])))])
    meshio.write(sys.argv[2], m, file_format="cgns")
"""


def test_meshio_reads_ours_and_we_read_meshio(tmp_path):
    ours = tmp_path / "ours.cgns"
    mio.write(ours, tet_mesh)
    out = subprocess.run(["/usr/bin/python3", "-c", _MESHIO, "read", str(ours)], check=True, capture_output=True, text=True).stdout
    got = json.loads(out)
    np.testing.assert_allclose(got["points"], tet_mesh.points)
    assert got["cells"] == [["tetra", np.asarray(tet_mesh.cells[0].data).tolist()]]

    theirs = tmp_path / "meshio.cgns"
    subprocess.run(["/usr/bin/python3", "-c", _MESHIO, "write", str(theirs), json.dumps(tet_mesh.points.tolist()),
                    json.dumps(np.asarray(tet_mesh.cells[0].data).tolist())], check=True)
    back = mio.read(theirs)
    np.testing.assert_allclose(back.points, tet_mesh.points)
    assert back.cells[0].type == "tetra"
    np.testing.assert_array_equal(back.cells[0].data, tet_mesh.cells[0].data)


def test_library_file_with_boundary_conditions():
    # aflr3_to_cgns: one hexahedron, its 6 quads in 3 sections, 3 FaceCenter BCs.
    m = mio.read(DATA / "hex_bc.cgns")
    assert [c.type for c in m.cells] == ["hexahedron", "quad", "quad", "quad"]
    np.testing.assert_array_equal(m.cells[0].data, [[0, 1, 2, 3, 4, 5, 6, 7]])
    sides = {r.name: r for r in m.regions if r.kind == "side"}
    assert sorted(sides) == ["UserDefined 1", "UserDefined 2", "UserDefined 3"]
    facets = sorted(int(f) for r in sides.values() for _, f in np.asarray(r.entries))
    assert facets == [0, 1, 2, 3, 4, 5]  # every face of the hexahedron, once
    assert all(np.all(np.asarray(r.entries)[:, 0] == 0) for r in sides.values())
    zone = [r for r in m.regions if r.kind == "cell"]
    assert [r.name for r in zone] == ["Zone"] and len(zone[0].entries) == 7  # the hexahedron and its 6 quads


def test_library_tetgen_file():
    m = mio.read(DATA / "tetgen_cube.cgns")
    counts = {}
    for c in m.cells:
        counts[c.type] = counts.get(c.type, 0) + len(c.data)
    assert counts == {"tetra": 68, "triangle": 96}
    assert m.points.shape == (50, 3)


def test_library_mixed_sections_read():
    m = mio.read(DATA / "hexpyr.cgns")
    assert sorted({c.type for c in m.cells}) == ["hexahedron", "pyramid", "quad", "triangle"]
    assert {r.name for r in m.regions} >= {"UserDefined 1", "UserDefined 2", "UserDefined 3", "Zone"}


@pytest.mark.parametrize("name", ["mixed3", "mixed4"])
def test_mixed_sections_both_layouts(name):
    m = mio.read(DATA / f"{name}.cgns")
    assert [c.type for c in m.cells] == ["tetra", "pyramid", "triangle"]
    np.testing.assert_array_equal(m.cells[0].data, [[0, 1, 2, 3]])
    np.testing.assert_array_equal(m.cells[1].data, [[0, 1, 5, 2, 4]])
    wall = [r for r in m.regions if r.name == "wall"]
    assert len(wall) == 1 and wall[0].kind == "side"
    np.testing.assert_array_equal(wall[0].entries, [[0, 3]])  # the tetra's facet (0, 2, 1): VTK's face 3
    np.testing.assert_allclose(m.point_data["Pressure"], np.arange(6))
    vel = m.cell_data["Velocity"]
    np.testing.assert_allclose(vel[0], [[0, 1, 2]])
    np.testing.assert_allclose(vel[1], [[10, 11, 12]])
    assert np.isnan(vel[2]).all()  # the boundary triangle: no cell-centred value
    assert m.cell_data["Id"][0].tolist() == [7] and m.cell_data["Id"][2].tolist() == [0]


@pytest.mark.parametrize("name", ["poly3", "poly4"])
def test_polyhedra_both_layouts(name):
    m = mio.read(DATA / f"{name}.cgns")
    assert [c.type for c in m.cells] == ["polyhedron8", "polyhedron8"] or [c.type for c in m.cells] == ["polyhedron8"]
    assert sum(len(c.data) for c in m.cells) == 2
    first = m.cells[0].data[0]
    assert len(first) == 6 and {int(v) for face in first for v in face} == {0, 1, 3, 4, 6, 7, 9, 10}
    if name == "poly3":
        cgnslist(DATA / f"{name}.cgns")


def test_several_zones_one_region_each():
    m = mio.read(DATA / "two_zones.cgns")
    assert m.points.shape == (8, 3)
    np.testing.assert_array_equal(np.concatenate([c.data for c in m.cells]), [[0, 1, 2, 3], [4, 5, 6, 7]])
    zones = {r.name: np.asarray(r.entries).tolist() for r in m.regions if r.kind == "cell"}
    assert zones == {"Left": [0], "Right": [1]}
    apex = [r for r in m.regions if r.name == "apex"]
    assert len(apex) == 1 and apex[0].kind == "point" and np.asarray(apex[0].entries).tolist() == [3, 7]
    np.testing.assert_allclose(m.point_data["T"], [0, 0, 0, 0, 1, 1, 1, 1])


def test_regions_round_trip_and_names(tmp_path):
    m = mio.Mesh(helpers.hex_mesh.points, [("hexahedron", [[0, 1, 2, 3, 4, 5, 6, 7]])])
    m.regions = [mio.Region("inlet", "side", [[0, 4], [0, 5]], dim=2), mio.Region("corner", "point", [0, 6]),
                 mio.Region("solid", "cell", [0], dim=3)]
    path = tmp_path / "regions.cgns"
    mio.write(path, m, base_name="MyBase", zone_name="Block7")
    listing = oracles(path)
    assert "MyBase" in listing and "Block7" in listing and "inlet" in listing and "corner" in listing
    back = mio.read(path)
    got = {(r.name, r.kind): np.asarray(r.entries).tolist() for r in back.regions}
    assert got[("inlet", "side")] == [[0, 4], [0, 5]]
    assert got[("corner", "point")] == [0, 6]
    assert got[("Block7", "cell")] == [0, 1, 2]  # the zone: the hexahedron and the 2 faces of "inlet"
    assert got[("solid", "cell")] == [0]  # a ZoneSubRegion_t
    assert "CGNSBase:MyBase" in back.field_data
    # the side region's faces became a quad section named after it
    assert [c.type for c in back.cells] == ["hexahedron", "quad"]
    # written again: the faces are found among the cells, no new section; names kept
    again = tmp_path / "again.cgns"
    mio.write(again, back)
    oracles(again)
    back2 = mio.read(again)
    assert [c.type for c in back2.cells] == ["hexahedron", "quad"]
    assert "CGNSBase:MyBase" in back2.field_data and any(r.name == "Block7" for r in back2.regions)


def test_polygons_round_trip(tmp_path):
    m = mio.Mesh(np.array([[0, 0], [1, 0], [2, 0.5], [1, 1], [0, 1]], dtype=float), [("polygon", [[0, 1, 2, 3, 4]]), ("triangle", [[0, 1, 4]])])
    back = helpers.write_read(tmp_path, m, "cgns")
    oracles(tmp_path / "roundtrip", polyhedra=True)
    assert back.cells[0].type == "polygon"


def test_field_data_and_compression(tmp_path):
    m = with_data(helpers.tet_mesh)
    m.field_data = {"answer": np.array([42], dtype=np.int32)}
    path = tmp_path / "f.cgns"
    for kw in ({}, {"compression": None}, {"compression": "gzip", "compression_opts": 9}):  # meshio's keywords
        mio.write(path, m, **kw)
        oracles(path)
        back = mio.read(path)
        assert back.field_data["answer"].tolist() == [42]
        np.testing.assert_array_equal(back.points, m.points)
        layout = subprocess.run(["h5dump", "-p", "-H", str(path)], capture_output=True, text=True, check=True).stdout
        assert ("DEFLATE" in layout) == (kw.get("compression", "gzip") is not None), kw


def test_bad_options(tmp_path):
    with pytest.raises(ValueError, match="base_name"):
        mio.write(tmp_path / "x.cgns", tet_mesh, base_name="a/b")
    with pytest.raises(ValueError, match="zone_name"):
        mio.write(tmp_path / "x.cgns", tet_mesh, zone_name="x" * 33)
    with pytest.raises(ValueError, match="compression_opts"):
        mio.write(tmp_path / "x.cgns", tet_mesh, compression_opts=11)
    with pytest.raises(ValueError, match="compression"):
        mio.write(tmp_path / "x.cgns", tet_mesh, compression="lzf")


def test_adf_file_is_a_clear_error():
    with pytest.raises(mio.ReadError, match=r"ADF-flavour.*cgnsconvert -h"):
        mio.read(DATA / "unread" / "hex_adf.cgns")


def test_structured_zone_is_a_clear_error():
    with pytest.raises(mio.ReadError, match=r"node /Base/Block: a Structured zone"):
        mio.read(DATA / "unread" / "structured.cgns")


def test_not_cgns_hdf5_names_the_node(tmp_path):
    path = tmp_path / "v.vtkhdf"
    mio.write(path, tet_mesh)
    cg = tmp_path / "v.cgns"
    cg.write_bytes(path.read_bytes())
    with pytest.raises(mio.ReadError, match=r"cgns: .*node /VTKHDF"):
        mio.read(cg)


def test_truncated_and_corrupted_files_never_crash(tmp_path):
    src = (DATA / "mixed3.cgns").read_bytes()
    path = tmp_path / "bad.cgns"
    outcomes = set()
    for cut in range(0, len(src), max(1, len(src) // 60)):
        path.write_bytes(src[:cut])
        try:
            mio.read(path)
            outcomes.add("mesh")
        except mio.ReadError:
            outcomes.add("error")
    for at in range(0, len(src), max(1, len(src) // 150)):
        for value in (0, 0xFF):
            data = bytearray(src)
            data[at] = value
            path.write_bytes(bytes(data))
            try:
                mio.read(path)
                outcomes.add("mesh")
            except mio.ReadError as e:
                assert "cgns" in str(e)
                outcomes.add("error")
    assert outcomes == {"mesh", "error"}
