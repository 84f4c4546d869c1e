"""PLY through the Python API, against the real oracles.

meshio (Debian python3-meshio 5.0) reads every file we write and we read every file it
writes, with equal arrays; VTK 9.1's vtkPLYReader reads ours and we read what vtkPLYWriter
writes (ASCII, binary little- and big-endian) with VTK's arrays; gmsh 4.8 reads the PLY we
write (ASCII; binary with float32 points). Round trips go through the canonical meshes of helpers.py.
"""
from __future__ import annotations

import copy
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import numpy as np
import pytest

import helpers
import meshioplusplus as mio

DATA = Path(__file__).resolve().parents[1] / "data" / "ply"
meshio = pytest.importorskip("meshio", reason="meshio (python3-meshio) is the peer")

SURFACES = [helpers.tri_mesh, helpers.tri_mesh_2d, helpers.quad_mesh, helpers.tri_quad_mesh, helpers.line_mesh]


def _no_field(mesh):
    mesh = copy.deepcopy(mesh)
    mesh.field_data = {}
    return mesh


@pytest.mark.parametrize("binary", [True, False])
@pytest.mark.parametrize("mesh", SURFACES)
def test_round_trip(mesh, binary, tmp_path):
    helpers.write_read(tmp_path, mesh, "ply", suffix=".ply", binary=binary)
    helpers.write_read(tmp_path, helpers.add_point_data(mesh, 1), "ply", suffix=".ply", binary=binary)
    m = helpers.add_point_data(mesh, 1, dtype=np.int32)
    m = helpers.add_cell_data(m, [("q", (), np.float32), ("id", (), np.int16)])
    back = helpers.write_read(tmp_path, m, "ply", suffix=".ply", binary=binary)
    assert back.point_data["a0"].dtype == np.int32
    assert back.cell_data["id"][0].dtype == np.int16


def test_multidimensional_point_data_and_volume_cells_are_skipped_with_warnings(tmp_path):
    m = helpers.add_point_data(helpers.tri_mesh, 3)
    m.cells.append(mio.CellBlock("tetra", np.array([[0, 1, 2, 3]])))
    with pytest.warns(UserWarning) as record:
        mio.write(tmp_path / "x.ply", m)
    text = " ".join(str(r.message) for r in record)
    assert "'a0'" in text and "'tetra'" in text
    back = mio.read(tmp_path / "x.ply")
    assert [c.type for c in back.cells] == ["triangle"]
    assert back.point_data == {}


# meshio 5.0's binary reader requires x, y and z, so the 2-D mesh goes through ASCII only.
@pytest.mark.parametrize("mesh,binary", [(helpers.tri_mesh, True), (helpers.tri_mesh, False), (helpers.tri_quad_mesh, True),
                                         (helpers.tri_quad_mesh, False), (helpers.tri_mesh_2d, False)])
def test_meshio_reads_what_we_write(mesh, binary, tmp_path):
    mesh = helpers.add_point_data(mesh, 1)
    path = tmp_path / "ours.ply"
    mio.write(path, mesh, binary=binary)
    theirs = meshio.read(path)
    np.testing.assert_array_equal(theirs.points, mesh.points)
    assert [c.type for c in theirs.cells] == [c.type for c in mesh.cells]
    for a, b in zip(theirs.cells, mesh.cells):
        np.testing.assert_array_equal(a.data, b.data)
    for k, v in mesh.point_data.items():
        np.testing.assert_array_equal(theirs.point_data[k], v)


def _assert_same_as_meshio(ours, theirs):
    np.testing.assert_array_equal(ours.points, theirs.points)
    assert ours.points.dtype == theirs.points.dtype
    assert [c.type for c in ours.cells] == [c.type for c in theirs.cells]
    for a, b in zip(ours.cells, theirs.cells):
        np.testing.assert_array_equal(a.data, b.data)
    assert set(ours.point_data) == set(theirs.point_data)
    for k, v in theirs.point_data.items():
        mine = ours.point_data[k]
        if mine.dtype == np.uint8 and v.dtype == np.int8:
            # meshio 5.0's binary reader maps 'uchar' to int8 (its ASCII reader to uint8): the
            # same bytes, a different dtype.
            mine = mine.view(np.int8)
        np.testing.assert_array_equal(mine, v)
        assert mine.dtype == v.dtype


@pytest.mark.parametrize("name", ["meshio_binary.ply", "meshio_ascii.ply", "vtk_ascii.ply", "vtk_binary_le.ply"])
def test_we_read_what_meshio_reads(name):
    _assert_same_as_meshio(mio.read(DATA / name), meshio.read(DATA / name))


@pytest.mark.parametrize("binary", [True, False])
def test_we_read_a_file_meshio_writes_now(binary, tmp_path):
    m = meshio.Mesh(
        np.random.default_rng(3).random((40, 3)).astype(np.float32),
        [("triangle", np.arange(30).reshape(10, 3)), ("quad", np.arange(8).reshape(2, 4)),
         ("polygon", np.arange(12).reshape(2, 6)), ("triangle", np.arange(3).reshape(1, 3))],
        point_data={"u": np.arange(40, dtype=np.uint16), "v": np.linspace(0, 1, 40)},
    )
    meshio.write(tmp_path / "m.ply", m, binary=binary)
    _assert_same_as_meshio(mio.read(tmp_path / "m.ply"), meshio.read(tmp_path / "m.ply"))


def test_big_endian_reads_as_little_endian():
    le, be = mio.read(DATA / "vtk_binary_le.ply"), mio.read(DATA / "vtk_binary_be.ply")
    helpers.assert_mesh_equal(_no_field(le), be)


def test_other_elements_and_list_properties_warn_and_comments_are_kept(tmp_path):
    with pytest.warns(UserWarning) as record:
        m = mio.read(DATA / "hand_edges_materials_comments.ply")
    text = " | ".join(str(r.message) for r in record)
    assert "element 'material'" in text and "element 'edge'" in text and "'texcoord'" in text
    assert bytes(m.field_data["ply:comment"]).decode().split("\n") == [
        "made by hand: every element a mesh reader meets besides vertex and face", "second comment line"]
    assert bytes(m.field_data["ply:obj_info"]).decode() == "hand-written fixture"
    assert [c.type for c in m.cells] == ["triangle", "quad"]
    np.testing.assert_array_equal(m.cell_data["material_index"][0], [0, 1])
    np.testing.assert_array_equal(m.cell_data["area"][1], np.array([0.75], dtype=np.float32))
    np.testing.assert_array_equal(m.point_data["red"], np.array([10, 20, 30, 40, 50], dtype=np.uint8))
    mio.write(tmp_path / "back.ply", m, binary=False)
    text = (tmp_path / "back.ply").read_text()
    assert "comment second comment line\nobj_info hand-written fixture\n" in text
    back = mio.read(tmp_path / "back.ply")
    helpers.assert_mesh_equal(m, back)
    assert bytes(back.field_data["ply:comment"]) == bytes(m.field_data["ply:comment"])


# --- VTK ------------------------------------------------------------------------------
vtk = pytest.importorskip("vtk", reason="the VTK oracle needs python3-vtk9")


def vtk_read(path):
    return helpers.vtk_polydata(vtk.vtkPLYReader(), path)


_flat_polys = helpers.flat_polys


@pytest.mark.parametrize("name", ["vtk_ascii.ply", "vtk_binary_le.ply", "vtk_binary_be.ply"])
def test_we_read_vtk_files_with_vtks_arrays(name):
    points, polys, arrays = vtk_read(DATA / name)
    m = mio.read(DATA / name)
    np.testing.assert_array_equal(m.points, points)
    np.testing.assert_array_equal(_flat_polys(m), polys)
    np.testing.assert_array_equal(np.column_stack([m.point_data[k] for k in ("red", "green", "blue")]), arrays["RGB"])
    np.testing.assert_array_equal(np.column_stack([m.point_data[k] for k in ("u", "v")]), arrays["TCoords"])
    assert bytes(m.field_data["ply:comment"]).decode() == "VTK generated PLY File"


@pytest.mark.parametrize("binary", [True, False])
def test_vtk_reads_what_we_write(binary, tmp_path):
    rng = np.random.default_rng(7)
    m = mio.Mesh(
        rng.random((9, 3)).astype(np.float32),
        [("triangle", [[0, 1, 2], [2, 3, 4]]), ("quad", [[4, 5, 6, 7]]), ("polygon", [[0, 2, 4, 6, 8]])],
        point_data={"red": rng.integers(0, 255, 9).astype(np.uint8), "green": rng.integers(0, 255, 9).astype(np.uint8),
                    "blue": rng.integers(0, 255, 9).astype(np.uint8), "u": rng.random(9).astype(np.float32),
                    "v": rng.random(9).astype(np.float32)},
    )
    mio.write(tmp_path / "ours.ply", m, binary=binary)
    points, polys, arrays = vtk_read(tmp_path / "ours.ply")
    np.testing.assert_array_equal(points, m.points)
    np.testing.assert_array_equal(polys, _flat_polys(m))
    np.testing.assert_array_equal(arrays["RGB"], np.column_stack([m.point_data[k] for k in ("red", "green", "blue")]))
    np.testing.assert_array_equal(arrays["TCoords"], np.column_stack([m.point_data[k] for k in ("u", "v")]))


# --- gmsh -----------------------------------------------------------------------------
GMSH_READ = textwrap.dedent("""
    import json, sys
    import gmsh
    gmsh.initialize(["-v", "0"])
    gmsh.open(sys.argv[1])
    tags, coords, _ = gmsh.model.mesh.getNodes()
    types, _, nodes = gmsh.model.mesh.getElements(2)
    print(json.dumps({"tags": [int(t) for t in tags], "coords": list(coords), "types": [int(t) for t in types],
                      "nodes": [[int(n) for n in ns] for ns in nodes]}))
    gmsh.finalize()
""")


# gmsh 4.8 reads ASCII PLY, and binary PLY only with float32 coordinates (docs/formats/ply.md).
@pytest.mark.parametrize("binary,dtype", [(False, np.float64), (True, np.float32)])
def test_gmsh_reads_our_ply(binary, dtype, tmp_path):
    pytest.importorskip("gmsh", reason="gmsh (python3-gmsh) is an oracle")
    import json
    m = mio.Mesh(np.random.default_rng(1).random((6, 3)).astype(dtype), [("triangle", [[0, 1, 2], [2, 3, 4], [3, 4, 5]])])
    mio.write(tmp_path / "ours.ply", m, binary=binary)
    proc = subprocess.run([sys.executable, "-c", GMSH_READ, str(tmp_path / "ours.ply")], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    g = json.loads(proc.stdout.strip().splitlines()[-1])
    xyz = dict(zip(g["tags"], np.array(g["coords"]).reshape(-1, 3)))
    assert g["types"] == [2]  # 3-node triangles
    tris = np.array(g["nodes"][0]).reshape(-1, 3)
    got = np.array([[xyz[t] for t in tri] for tri in tris])
    want = m.points[np.asarray(m.cells[0].data)]
    np.testing.assert_array_equal(got, want)
