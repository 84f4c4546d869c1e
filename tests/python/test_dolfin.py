"""DOLFIN XML against meshio 5.0 (DOLFIN itself, python3-dolfin, pulls ~170 Debian packages
of MPI, PETSc and Trilinos: not an oracle here, docs/formats/dolfin.md): meshio reads what
we write and we read what meshio writes, cell data through the companion files included;
a fixture written by hand with the standard library's XML writer, rows shuffled; meshio's
submodule name (mio.dolfin)."""
from __future__ import annotations

import random
import warnings
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import meshioplusplus as mio

meshio = pytest.importorskip("meshio", reason="meshio is the peer for cross-checks")


def random_tets(seed=0, n=300, m=900):
    rng = np.random.default_rng(seed)
    return rng.random((n, 3)) * 4 - 2, rng.integers(0, n, (m, 4)), rng.integers(-5, 50, m), rng.random(m)


def quiet_meshio(fn, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kw)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_meshio_reads_what_we_write(tmp_path, dtype):
    pts, tets, mat, q = random_tets()
    path = tmp_path / "ours.xml"
    mio.write(path, mio.Mesh(pts.astype(dtype), [("tetra", tets)], cell_data={"mat": [mat], "q": [q]}))
    theirs = quiet_meshio(meshio.read, path, "dolfin-xml")
    np.testing.assert_array_equal(theirs.points.astype(dtype), pts.astype(dtype))
    assert theirs.cells[0].type == "tetra"
    np.testing.assert_array_equal(theirs.cells[0].data, tets)
    np.testing.assert_array_equal(theirs.cell_data["mat"][0], mat)
    np.testing.assert_array_equal(theirs.cell_data["q"][0], q)


def test_we_read_what_meshio_writes(tmp_path):
    pts, tets, mat, q = random_tets(1)
    path = tmp_path / "theirs.xml"
    quiet_meshio(meshio.write, path, meshio.Mesh(pts, [("tetra", tets)], cell_data={"mat": [mat], "q": [q]}), "dolfin-xml")
    theirs, ours = quiet_meshio(meshio.read, path, "dolfin-xml"), mio.read(path)
    np.testing.assert_array_equal(ours.points, theirs.points)
    np.testing.assert_array_equal(ours.cells[0].data, theirs.cells[0].data)
    for name in ("mat", "q"):
        assert ours.cell_data[name][0].dtype == theirs.cell_data[name][0].dtype
        np.testing.assert_array_equal(ours.cell_data[name][0], theirs.cell_data[name][0])


def test_a_2d_triangle_mesh_both_ways(tmp_path):
    rng = np.random.default_rng(2)
    pts, tris = rng.random((50, 2)), rng.integers(0, 50, (80, 3))
    mio.write(tmp_path / "ours.xml", mio.Mesh(pts, [("triangle", tris)]))
    theirs = quiet_meshio(meshio.read, tmp_path / "ours.xml", "dolfin-xml")
    assert theirs.points.shape == (50, 2)
    np.testing.assert_array_equal(theirs.points, pts)
    np.testing.assert_array_equal(theirs.cells[0].data, tris)
    back = mio.read(tmp_path / "ours.xml")
    assert back.points.shape == (50, 2) and back.cells[0].type == "triangle"


def test_a_fixture_written_with_elementtree_rows_shuffled(tmp_path):
    # The layout of the spec, built by Python's own XML writer; rows in random order.
    pts, tets, mat, _ = random_tets(3, 40, 60)
    root = ET.Element("dolfin")
    mesh = ET.SubElement(root, "mesh", celltype="tetrahedron", dim="3")
    verts = ET.SubElement(mesh, "vertices", size=str(len(pts)))
    order = list(range(len(pts)))
    random.Random(0).shuffle(order)
    for i in order:
        ET.SubElement(verts, "vertex", index=str(i), x=repr(pts[i, 0]), y=repr(pts[i, 1]), z=repr(pts[i, 2]))
    cells = ET.SubElement(mesh, "cells", size=str(len(tets)))
    for i in reversed(range(len(tets))):
        ET.SubElement(cells, "tetrahedron", index=str(i), **{f"v{k}": str(tets[i, k]) for k in range(4)})
    ET.ElementTree(root).write(tmp_path / "hand.xml", xml_declaration=True)
    fn = ET.Element("dolfin")
    mf = ET.SubElement(fn, "mesh_function", type="int", dim="3", size=str(len(tets)))
    for i in range(len(tets)):
        ET.SubElement(mf, "entity", index=str(i), value=str(mat[i]))
    ET.ElementTree(fn).write(tmp_path / "hand_material.xml")
    ours = mio.dolfin.read(tmp_path / "hand.xml")
    np.testing.assert_array_equal(ours.points, pts)
    np.testing.assert_array_equal(ours.cells[0].data, tets)
    np.testing.assert_array_equal(ours.cell_data["material"][0], mat)


def test_meshios_submodule_name_and_the_formats_own():
    assert mio.dolfin is mio.dolfin_xml and mio.dolfin.FORMAT == "dolfin-xml"
    assert "dolfin-xml" in mio.extension_to_filetypes[".xml"]


def test_errors_name_the_file_and_line(tmp_path):
    path = tmp_path / "bad.xml"
    path.write_text('<dolfin><mesh celltype="triangle" dim="2">\n<vertices size="2">\n'
                    '<vertex index="0" x="0" y="0"/>\n<vertex index="0" x="1" y="0"/>\n</vertices></mesh></dolfin>')
    with pytest.raises(mio.ReadError, match=r"bad\.xml.*line 4.*index 0 appears twice"):
        mio.read(path)


def test_unheld_blocks_and_data_warn(tmp_path):
    pts, tets, _, _ = random_tets(4, 20, 10)
    m = mio.Mesh(pts, [("tetra", tets), ("triangle", tets[:, :3])], cell_data={"v": [np.ones((10, 3)), np.ones((10, 3))]})
    with pytest.warns(UserWarning, match="skipped 'triangle'"):
        mio.write(tmp_path / "w.xml", m)
    assert not (tmp_path / "w_v.xml").exists()  # three values per cell: no mesh function
    with pytest.raises(mio.WriteError, match="tetra, triangle or line"):
        mio.write(tmp_path / "q.xml", mio.Mesh(pts, [("quad", tets)]))
