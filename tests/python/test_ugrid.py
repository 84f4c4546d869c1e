"""UGRID against meshio 5.0 and the CGNS tools (Debian `cgns-convert`: aflr3_to_cgns,
cgns_to_aflr3): meshio reads what we write and we read what meshio writes, in every
variant, with equal arrays; a file we write goes to CGNS and back through the tools and
reads back with the same points, volume cells and surface IDs; the hand-made fixtures."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import meshioplusplus as mio

meshio = pytest.importorskip("meshio", reason="meshio is the peer for cross-checks")
DATA = Path(__file__).resolve().parents[1] / "data" / "ugrid"
VARIANTS = ["", "b8.", "b4.", "lb8.", "lb4.", "r8.", "r4.", "lr8.", "lr4.", "b8l.", "lb8l."]
needs_cgns = pytest.mark.skipif(shutil.which("aflr3_to_cgns") is None, reason="Debian package cgns-convert (tools/debian-packages.txt)")


def mixed(seed=0):
    rng = np.random.default_rng(seed)
    n = 60
    cells = [(t, rng.integers(0, n, (m, k))) for t, k, m in
             [("triangle", 3, 20), ("quad", 4, 7), ("tetra", 4, 9), ("pyramid", 5, 4), ("wedge", 6, 3), ("hexahedron", 8, 5)]]
    return rng.random((n, 3)), cells, [rng.integers(1, 9, 20), rng.integers(1, 9, 7)]


@pytest.mark.parametrize("variant", VARIANTS)
def test_meshio_reads_what_we_write(tmp_path, variant):
    pts, cells, ids = mixed()
    path = tmp_path / f"ours.{variant}ugrid"
    refs = ids + [np.zeros(len(c), dtype=np.int32) for _, c in cells[2:]]
    mio.write(path, mio.Mesh(pts, cells, cell_data={"ugrid:ref": refs}))
    theirs = meshio.read(path)
    single = "4" in variant or variant == ""  # meshio reads ASCII coordinates as float32
    np.testing.assert_array_equal(theirs.points, pts.astype(np.float32) if single else pts)
    assert [c.type for c in theirs.cells] == [t for t, _ in cells]
    for c, (_, data) in zip(theirs.cells, cells):
        np.testing.assert_array_equal(c.data, data)  # pyramids included: the same node order
    for a, b in zip(theirs.cell_data["ugrid:ref"], refs):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("variant", VARIANTS)
def test_we_read_what_meshio_writes(tmp_path, variant):
    pts, cells, _ = mixed(1)
    path = tmp_path / f"theirs.{variant}ugrid"
    meshio.write(path, meshio.Mesh(pts, cells))  # meshio cannot write surface IDs (its list bug)
    with pytest.warns(UserWarning, match="record marker") if variant.lstrip("l").startswith("r") else _nothing():
        ours = mio.read(path)
    theirs = meshio.read(path)
    if variant == "":  # meshio reads ASCII coordinates as float32; we keep float64, the values it wrote
        assert ours.points.dtype == np.float64 and theirs.points.dtype == np.float32
        np.testing.assert_array_equal(ours.points, pts)
        np.testing.assert_array_equal(ours.points.astype(np.float32), theirs.points)
    else:
        np.testing.assert_array_equal(ours.points, theirs.points)
        assert ours.points.dtype == theirs.points.dtype.newbyteorder("=")
    for a, b in zip(ours.cells, theirs.cells):
        assert a.type == b.type
        np.testing.assert_array_equal(a.data, b.data)
    for a, b in zip(ours.cell_data["ugrid:ref"], theirs.cell_data["ugrid:ref"]):
        np.testing.assert_array_equal(a, b)


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def tetrahedralized_cube():
    """A valid mesh the CGNS tools accept: a unit cube cut into 6 tetrahedra, its 12
    boundary triangles with one surface ID per cube face."""
    pts = np.array([[x, y, z] for z in (0, 1) for y in (0, 1) for x in (0, 1)], float)
    tets = np.array([[0, 1, 3, 7], [0, 1, 7, 5], [0, 5, 7, 4], [0, 3, 2, 7], [0, 2, 6, 7], [0, 6, 4, 7]])
    faces = {}
    for t in tets:
        for f in ([t[0], t[1], t[2]], [t[0], t[1], t[3]], [t[0], t[2], t[3]], [t[1], t[2], t[3]]):
            faces.setdefault(tuple(sorted(f)), []).append(f)
    tris = np.array([v[0] for v in faces.values() if len(v) == 1])
    axis = [next(a for a in range(3) if np.ptp(pts[t][:, a]) == 0) for t in tris]  # the face's normal axis
    ids = np.array([1 + 2 * a + int(pts[t[0], a]) for t, a in zip(tris, axis)])
    return pts, tris, ids, tets


@needs_cgns
@pytest.mark.parametrize("variant,flags", [("r8.", ["-u"]), ("b8.", []), ("lb8.", ["-l"]), ("r4.", ["-u", "-4"]), ("", ["-f"])])
def test_the_cgns_tools_read_what_we_write(tmp_path, variant, flags):
    pts, tris, ids, tets = tetrahedralized_cube()
    path = tmp_path / f"ours.{variant}ugrid"
    mio.write(path, mio.Mesh(pts, [("triangle", tris), ("tetra", tets)], cell_data={"ugrid:ref": [ids, np.zeros(len(tets), int)]}))
    subprocess.run(["aflr3_to_cgns", *flags, str(path), str(tmp_path / "x.cgns")], check=True, capture_output=True)
    subprocess.run(["cgns_to_aflr3", str(tmp_path / "x.cgns"), str(tmp_path / "back.b8.ugrid")], check=True, capture_output=True)
    back = mio.read(tmp_path / "back.b8.ugrid")
    np.testing.assert_array_equal(back.points, pts)
    types = [c.type for c in back.cells]
    np.testing.assert_array_equal(back.cells[types.index("tetra")].data, tets)
    # The tools regroup the triangles by surface ID (and number the groups): compare the
    # partition of the boundary into surfaces.
    tri_back = back.cells[types.index("triangle")].data
    ids_back = back.cell_data["ugrid:ref"][types.index("triangle")]
    ours = {tuple(sorted(t)): i for t, i in zip(tris, ids)}
    theirs = {tuple(sorted(t)): i for t, i in zip(tri_back, ids_back)}
    assert set(ours) == set(theirs)
    groups = lambda d: sorted(sorted(k for k in d if d[k] == v) for v in set(d.values()))  # noqa: E731
    assert groups(ours) == groups(theirs)
    assert len(set(ids)) == 6


def test_the_fixtures():
    for name in ("ascii_cube_pyramid.ugrid", "big-endian-with-record-markers.r8.ugrid", "little-endian-single.lb4.ugrid"):
        ours, theirs = mio.read(DATA / name), meshio.read(DATA / name)
        np.testing.assert_array_equal(ours.points, theirs.points)
        for a, b in zip(ours.cells, theirs.cells):
            assert a.type == b.type
            np.testing.assert_array_equal(a.data, b.data)
        assert ours.cell_sets["ugrid_ref_2_7"]
    assert mio.ugrid.read(DATA / "ascii_cube_pyramid.ugrid").cells[2].type == "pyramid"
