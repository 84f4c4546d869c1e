"""OFF against meshio 5.0 (VTK has no OFF reader or writer): meshio reads what we write and
we read what meshio writes, with equal arrays; the hand-written fixtures (comments, face
colours, COFF, quads and polygons); round trips through the canonical meshes; writer
errors."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import helpers
import meshioplusplus as mio

meshio = pytest.importorskip("meshio", reason="meshio is the peer for cross-checks")
DATA = Path(__file__).resolve().parents[1] / "data" / "off"


def random_surface(seed=0, n=200, m=500):
    rng = np.random.default_rng(seed)
    return rng.random((n, 3)) * 10 - 5, rng.integers(0, n, (m, 3))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_meshio_reads_what_we_write(tmp_path, dtype):
    pts, tri = random_surface()
    path = tmp_path / "ours.off"
    mio.write(path, mio.Mesh(pts.astype(dtype), [("triangle", tri)]))
    theirs = meshio.read(path)
    # The shortest text of each value reads back to it (meshio parses float64: round float32 data).
    np.testing.assert_array_equal(theirs.points.astype(dtype), pts.astype(dtype))
    np.testing.assert_array_equal(theirs.cells[0].data, tri)


def test_we_read_what_meshio_writes(tmp_path):
    pts, tri = random_surface(1)
    path = tmp_path / "theirs.off"
    meshio.write(path, meshio.Mesh(pts, [("triangle", tri)]))
    theirs, ours = meshio.read(path), mio.read(path)
    np.testing.assert_array_equal(theirs.points, ours.points)
    assert ours.points.dtype == np.float64 and ours.cells[0].data.dtype == np.int64
    np.testing.assert_array_equal(theirs.cells[0].data, ours.cells[0].data)
    assert [c.type for c in ours.cells] == ["triangle"]


def test_the_meshio_fixture_reads_as_meshio_reads_it():
    theirs, ours = meshio.read(DATA / "meshio_tetra_skin.off"), mio.read(DATA / "meshio_tetra_skin.off")
    np.testing.assert_array_equal(theirs.points, ours.points)
    np.testing.assert_array_equal(theirs.cells[0].data, ours.cells[0].data)


def test_comments_and_face_colours():
    m = mio.read(DATA / "comments_and_face_colors.off")
    assert len(m.points) == 5
    np.testing.assert_array_equal(m.cells[0].data, [[0, 1, 4], [1, 2, 4], [2, 3, 4], [3, 0, 4]])
    c = m.cell_data["face_colors"][0]
    np.testing.assert_array_equal(c[0], [255, 0, 0, np.nan])
    np.testing.assert_array_equal(c[1], [0, 1, 0, 0.5])
    np.testing.assert_array_equal(c[2], [7, np.nan, np.nan, np.nan])
    assert np.isnan(c[3]).all()


def test_faces_of_every_size_become_blocks_by_runs():
    m = mio.read(DATA / "quads_and_polygons.off")
    assert [(b.type, len(b.data)) for b in m.cells] == [("triangle", 1), ("quad", 2), ("polygon", 1), ("triangle", 1)]
    np.testing.assert_array_equal(m.cells[2].data, [[4, 5, 8, 7, 3]])


def test_coff_vertex_colours(tmp_path):
    m = mio.read(DATA / "coff_vertex_colors.off")
    np.testing.assert_array_equal(m.point_data["vertex_colors"], [[1, 0, 0, 1], [0, 1, 0, 1], [0, 0, 1, 0.5]])
    path = tmp_path / "c.off"
    mio.write(path, m)
    assert path.read_text().startswith("COFF\n")
    np.testing.assert_array_equal(mio.read(path).point_data["vertex_colors"], m.point_data["vertex_colors"])


@pytest.mark.parametrize("name", ["tri_mesh", "quad_mesh", "tri_quad_mesh"])
def test_round_trip(tmp_path, name):
    helpers.write_read(tmp_path, getattr(helpers, name), "off", suffix=".off")


def test_round_trip_polygons_and_face_colours(tmp_path):
    pts = np.array([[0, 0, 0], [1, 0, 0], [2, 0, 0], [2, 1, 0], [1, 1, 0], [0, 1, 0], [0, 2, 0.5]], dtype=float)
    mesh = mio.Mesh(pts, [("polygon", [[0, 1, 4, 6, 5], [1, 2, 3, 4, 6]]), ("quad", [[0, 1, 4, 5]])],
                    cell_data={"face_colors": [np.array([[1.0, 0, 0], [0, 1, 0]]), np.array([[0.25, 0.5, 0.75]])]})
    helpers.write_read(tmp_path, mesh, "off", suffix=".off")


def test_two_dimensional_points_get_zero_z(tmp_path):
    path = tmp_path / "2d.off"
    m = helpers.assert_2d_points_written_with_zero_z(path)
    np.testing.assert_array_equal(meshio.read(path).points, m.points)


def test_non_face_cells_are_a_write_error(tmp_path):
    with pytest.raises(mio.WriteError, match="cell block 0 is 'tetra'"):
        mio.write(tmp_path / "x.off", helpers.tet_mesh)
    assert not (tmp_path / "x.off").exists()


def test_errors_name_the_line(tmp_path):
    path = tmp_path / "bad.off"
    path.write_text("OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 5\n")
    with pytest.raises(mio.ReadError, match=r"line 6 .*vertex index 5 is outside \[0, 3\)"):
        mio.read(path)
