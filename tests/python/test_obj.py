"""Wavefront OBJ through the Python API, against the real oracles.

meshio (Debian python3-meshio 5.0) reads every file we write and we read every file it
writes, with equal arrays; VTK 9.1's vtkOBJReader reads ours and we read what vtkOBJWriter
writes, with VTK's arrays. Round trips go through the canonical meshes of helpers.py.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import helpers
import meshioplusplus as mio

DATA = Path(__file__).resolve().parents[1] / "data" / "obj"
meshio = pytest.importorskip("meshio", reason="meshio (python3-meshio) is the peer")


def with_vt_vn(mesh):
    rng = np.random.default_rng(5)
    n = len(mesh.points)
    return mio.Mesh(mesh.points, mesh.cells, point_data={"obj:vt": rng.random((n, 2)), "obj:vn": rng.random((n, 3))})


@pytest.mark.parametrize("mesh", [helpers.tri_mesh, helpers.quad_mesh, helpers.tri_quad_mesh, helpers.line_mesh])
def test_round_trip(mesh, tmp_path):
    helpers.write_read(tmp_path, mesh, "obj", suffix=".obj")
    helpers.write_read(tmp_path, with_vt_vn(mesh), "obj", suffix=".obj")


def test_volume_cells_are_a_write_error(tmp_path):
    with pytest.raises(mio.WriteError, match="tetra"):
        mio.write(tmp_path / "x.obj", helpers.tet_mesh)


def _assert_same_as_meshio(ours, theirs):
    np.testing.assert_array_equal(ours.points, theirs.points)
    assert [c.type for c in ours.cells] == [c.type for c in theirs.cells]
    for a, b in zip(ours.cells, theirs.cells):
        np.testing.assert_array_equal(a.data, b.data)
    assert set(ours.point_data) == set(theirs.point_data)
    for k, v in theirs.point_data.items():
        np.testing.assert_array_equal(ours.point_data[k], v)
    # meshio keeps one group id per block; ours repeats it for every cell of the block
    for mine, gid in zip(ours.cell_data["obj:group_ids"], theirs.cell_data["obj:group_ids"]):
        np.testing.assert_array_equal(mine, np.full(len(mine), gid))


@pytest.mark.parametrize("mesh", [helpers.tri_mesh, helpers.tri_quad_mesh])
@pytest.mark.parametrize("data", [False, True])
def test_meshio_reads_what_we_write(mesh, data, tmp_path):
    if data:
        mesh = with_vt_vn(mesh)
    mio.write(tmp_path / "ours.obj", mesh)
    _assert_same_as_meshio(mio.read(tmp_path / "ours.obj"), meshio.read(tmp_path / "ours.obj"))
    theirs = meshio.read(tmp_path / "ours.obj")
    np.testing.assert_array_equal(theirs.points, mesh.points)
    for k, v in mesh.point_data.items():
        np.testing.assert_array_equal(theirs.point_data[k], v)


@pytest.mark.parametrize("name", ["meshio_mixed.obj", "vtk_sphere.obj"])
def test_we_read_what_meshio_reads(name):
    _assert_same_as_meshio(mio.read(DATA / name), meshio.read(DATA / name))


def test_we_read_a_file_meshio_writes_now(tmp_path):
    rng = np.random.default_rng(2)
    m = meshio.Mesh(rng.random((12, 3)), [("triangle", [[0, 1, 2]]), ("polygon", [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]]),
                                          ("quad", [[8, 9, 10, 11]])],
                    point_data={"obj:vt": rng.random((12, 3))})
    meshio.write(tmp_path / "m.obj", m)
    _assert_same_as_meshio(mio.read(tmp_path / "m.obj"), meshio.read(tmp_path / "m.obj"))


def test_groups_objects_materials_negative_indices_and_lines():
    # (meshio 5.0 cannot read this file: one normal for six points fails its Mesh check)
    ours = mio.read(DATA / "hand_groups_negative.obj")
    assert [c.type for c in ours.cells] == ["triangle", "quad", "polygon", "line"]
    np.testing.assert_array_equal(ours.cells[0].data, [[0, 1, 2], [0, 2, 3]])
    np.testing.assert_array_equal(ours.cells[1].data, [[1, 4, 5, 2]])
    np.testing.assert_array_equal(ours.cells[2].data, [[0, 1, 4, 5, 2]])
    np.testing.assert_array_equal(ours.cells[3].data, [[0, 1], [1, 2], [2, 3]])
    assert [list(g) for g in ours.cell_data["obj:group_ids"]] == [[0, 0], [1], [1], [1, 1, 1]]
    sets = ours.cell_sets
    assert set(sets) == {"g:rim", "g:spoke", "g:hub", "o:wheel", "usemtl:steel", "usemtl:rubber"}
    np.testing.assert_array_equal(sets["g:rim"][0], [0, 1])
    np.testing.assert_array_equal(sets["usemtl:rubber"][1], [0])
    # vt map one to one (faces pair point k with vt k; points 5, 6 by position): point data
    np.testing.assert_array_equal(ours.point_data["obj:vt"][:, 0], [0, 1, 1, 0, 0.5, 0.5])
    np.testing.assert_array_equal(ours.point_data["obj:vn"], np.tile([0.0, 0, 1], (6, 1)))


def test_texture_coordinates_that_do_not_map_to_points_warn(tmp_path):
    (tmp_path / "seam.obj").write_text("v 0 0 0\nv 1 0 0\nv 1 1 0\nvt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\n"
                                       "f 1/1 2/2 3/3\nf 1/4 3/3 2/2\n")
    with pytest.warns(UserWarning, match="texture coordinates do not map one to one"):
        m = mio.read(tmp_path / "seam.obj")
    assert "obj:vt" not in m.point_data
    assert len(m.cells[0]) == 2


# --- VTK ------------------------------------------------------------------------------
vtk = pytest.importorskip("vtk", reason="the VTK oracle needs python3-vtk9")


def vtk_read(path):
    return helpers.vtk_polydata(vtk.vtkOBJReader(), path)


_flat_polys = helpers.flat_polys


def test_we_read_vtk_files_with_vtks_arrays():
    points, polys, arrays = vtk_read(DATA / "vtk_sphere.obj")
    m = mio.read(DATA / "vtk_sphere.obj")
    # vtkOBJReader keeps float32 points; the file's decimal strings are float32 values
    np.testing.assert_array_equal(m.points.astype(np.float32), points)
    np.testing.assert_array_equal(_flat_polys(m), polys)
    np.testing.assert_array_equal(m.point_data["obj:vt"].astype(np.float32), arrays["TCoords"])
    np.testing.assert_array_equal(m.point_data["obj:vn"].astype(np.float32), arrays["Normals"])


def test_vtk_reads_what_we_write(tmp_path):
    m = with_vt_vn(helpers.tri_quad_mesh)
    mio.write(tmp_path / "ours.obj", m)
    points, polys, arrays = vtk_read(tmp_path / "ours.obj")
    np.testing.assert_array_equal(points, m.points.astype(np.float32))
    np.testing.assert_array_equal(polys, _flat_polys(m))
    np.testing.assert_array_equal(arrays["TCoords"], m.point_data["obj:vt"].astype(np.float32))
    np.testing.assert_array_equal(arrays["Normals"], m.point_data["obj:vn"].astype(np.float32))
