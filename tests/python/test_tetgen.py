"""TetGen against its own program (Debian's `tetgen`) and meshio 5.0: the .node/.ele/.face
tetgen makes from a .poly read as the files say (parsed here with numpy, independently of
the reader); tetgen tetrahedralizes a .node we write and its output reads back with our
points; meshio reads what we write and we read what meshio writes, with equal arrays."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import meshioplusplus as mio

meshio = pytest.importorskip("meshio", reason="meshio is the peer for cross-checks")
DATA = Path(__file__).resolve().parents[1] / "data" / "tetgen"
needs_tetgen = pytest.mark.skipif(shutil.which("tetgen") is None, reason="Debian package tetgen (tools/debian-packages.txt)")


def table(path):
    """The records of a TetGen file as an int/float table: header line, then rows (comments and
    blank lines dropped)."""
    rows = [line.split("#")[0].split() for line in Path(path).read_text().splitlines()]
    rows = [r for r in rows if r]
    return [int(v) for v in rows[0]], np.array([[float(v) for v in r] for r in rows[1:]])


def cube_poly(tmp_path, flags):
    shutil.copy(DATA / "cube.poly", tmp_path / "cube.poly")
    subprocess.run(["tetgen", flags, str(tmp_path / "cube.poly")], check=True, capture_output=True)
    return tmp_path / "cube.1.node"


@needs_tetgen
@pytest.mark.parametrize("flags", ["-pqA", "-pqAa0.05", "-pqAo2", "-pqAnn"])
def test_we_read_what_tetgen_writes(tmp_path, flags):
    node = cube_poly(tmp_path, flags)
    (nn, _, _, nmark), nodes = table(node)
    (nt, k, nattr), ele = table(tmp_path / "cube.1.ele")
    _, face = table(tmp_path / "cube.1.face")
    base = int(nodes[0, 0])
    ours = mio.read(node)
    np.testing.assert_array_equal(ours.points, nodes[:, 1:4])
    np.testing.assert_array_equal(ours.point_data["tetgen:ref"], nodes[:, 4].astype(int))
    types = [c.type for c in ours.cells]
    # tetgen 1.5 writes the boundary edges (.edge) too
    assert types == (["tetra10", "triangle6", "line3"] if k == 10 else ["tetra", "triangle", "line"])
    tets = ele[:, 1:1 + k].astype(int) - base
    if k == 10:  # TetGen's edge order 23 03 01 12 13 02 -> VTK's 01 12 02 03 13 23
        tets = tets[:, [0, 1, 2, 3, 6, 7, 9, 5, 8, 4]]
    np.testing.assert_array_equal(ours.cells[0].data, tets)
    nf = 6 if k == 10 else 3
    np.testing.assert_array_equal(ours.cells[1].data, face[:, 1:1 + nf].astype(int) - base)
    np.testing.assert_array_equal(ours.cell_data["tetgen:ref"][0], ele[:, -1].astype(int))
    np.testing.assert_array_equal(ours.cell_data["tetgen:ref"][1], face[:, 1 + nf].astype(int))
    assert sorted(np.unique(ours.cell_data["tetgen:ref"][1])) == [1, 2, 3, 4, 5, 6]
    assert {s for s in ours.cell_sets} >= {f"tetgen_ref_2_{i}" for i in range(1, 7)} | {"tetgen_ref_3_7"}
    if k == 4:  # meshio reads linear tetrahedra only (and no .face)
        theirs = meshio.read(node)
        np.testing.assert_array_equal(theirs.points, ours.points)
        np.testing.assert_array_equal(theirs.cells[0].data, ours.cells[0].data)
        np.testing.assert_array_equal(theirs.point_data["tetgen:ref"], ours.point_data["tetgen:ref"])
        np.testing.assert_array_equal(theirs.cell_data["tetgen:ref"][0], ours.cell_data["tetgen:ref"][0])
    assert len(nodes) == nn and len(ele) == nt and nmark == 1 and nattr == 1


@needs_tetgen
def test_tetgen_reads_the_node_we_write(tmp_path):
    rng = np.random.default_rng(0)
    pts = np.vstack([np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], float), rng.random((30, 3))])
    mio.write(tmp_path / "ours.node", mio.Mesh(pts, []))
    subprocess.run(["tetgen", str(tmp_path / "ours.node")], check=True, capture_output=True)
    back = mio.read(tmp_path / "ours.1.ele")
    np.testing.assert_array_equal(back.points, pts)  # tetgen kept our points, in our order
    vol = 0.0
    for t in back.cells[0].data:
        a, b, c, d = back.points[t]
        vol += abs(np.dot(b - a, np.cross(c - a, d - a))) / 6
    assert vol == pytest.approx(1.0)  # the Delaunay tetrahedralization of the unit cube's points fills it
    assert [c.type for c in back.cells][:2] == ["tetra", "triangle"]


@needs_tetgen
def test_tetgen_refines_the_mesh_we_write(tmp_path):
    # tetgen -r reads our .node/.ele (0-based, as meshio writes them) as a mesh to refine.
    ours = mio.read(cube_poly(tmp_path, "-pqA"))
    mio.write(tmp_path / "ours.ele", ours)
    subprocess.run(["tetgen", "-rq", str(tmp_path / "ours.ele")], check=True, capture_output=True)
    back = mio.read(tmp_path / "ours.1.node")
    assert len(back.points) >= len(ours.points)
    np.testing.assert_array_equal(back.points[: len(ours.points)], ours.points)


def test_meshio_reads_what_we_write(tmp_path):
    rng = np.random.default_rng(1)
    pts = rng.random((40, 3))
    tets = rng.integers(0, 40, (60, 4))
    mesh = mio.Mesh(pts, [("tetra", tets)], point_data={"tetgen:ref": rng.integers(0, 5, 40), "u": rng.random(40)},
                    cell_data={"tetgen:ref": [rng.integers(1, 4, 60)]})
    mio.write(tmp_path / "ours.node", mesh)
    theirs = meshio.read(tmp_path / "ours.node")
    np.testing.assert_array_equal(theirs.points, pts)
    np.testing.assert_array_equal(theirs.cells[0].data, tets)
    np.testing.assert_array_equal(theirs.point_data["tetgen:ref"], mesh.point_data["tetgen:ref"])
    np.testing.assert_array_equal(theirs.point_data["tetgen:attr1"], mesh.point_data["u"])
    np.testing.assert_array_equal(theirs.cell_data["tetgen:ref"][0], mesh.cell_data["tetgen:ref"][0])


def test_we_read_what_meshio_writes(tmp_path):
    rng = np.random.default_rng(2)
    pts = rng.random((30, 3))
    tets = rng.integers(0, 30, (50, 4))
    m = meshio.Mesh(pts, [("tetra", tets)], point_data={"tetgen:ref": rng.integers(0, 5, 30).astype(float)},
                    cell_data={"tetgen:ref": [rng.integers(1, 4, 50)]})
    meshio.write(tmp_path / "theirs.ele", m, "tetgen")
    theirs, ours = meshio.read(tmp_path / "theirs.ele"), mio.read(tmp_path / "theirs.ele")
    np.testing.assert_array_equal(theirs.points, ours.points)
    np.testing.assert_array_equal(theirs.cells[0].data, ours.cells[0].data)
    # meshio writes the float markers as 1.0, 2.0: read as whole numbers
    np.testing.assert_array_equal(theirs.point_data["tetgen:ref"], ours.point_data["tetgen:ref"])
    np.testing.assert_array_equal(theirs.cell_data["tetgen:ref"][0], ours.cell_data["tetgen:ref"][0])


def test_the_hand_written_cloud():
    m = mio.read(DATA / "cloud.node")
    assert len(m.points) == 5 and not m.cells
    np.testing.assert_array_equal(m.point_data["tetgen:attr2"], [-2, -3, -4, -5, -6])
    np.testing.assert_array_equal(m.point_data["tetgen:ref"], [3, 3, 4, 4, 0])
    theirs = meshio.read(DATA / "cube.1.node")  # meshio cannot read a .node alone; its pair instead
    np.testing.assert_array_equal(theirs.points, mio.read(DATA / "cube.1.node").points)


def test_module_and_errors(tmp_path):
    assert mio.tetgen.read(DATA / "cube.1.ele").cells[0].type == "tetra"
    (tmp_path / "x.tet").write_text("1 3 0 0\n1 0 0 0\n")
    with pytest.raises(mio.ReadError, match="expected a file name ending in .node or .ele"):
        mio.read(tmp_path / "x.tet", "tetgen")
    with pytest.raises(mio.WriteError, match="3-D points"):
        mio.write(tmp_path / "flat.node", mio.Mesh(np.zeros((3, 2)), []))
