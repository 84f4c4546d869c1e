"""Neuroglancer precomputed mesh (legacy single-resolution fragment) against meshio 5.0 and
against the published byte layout written with numpy: meshio reads what we write (byte for
byte what meshio writes) and we read what meshio writes; a hand-made fragment; triangles
only (other blocks skipped with a warning, as meshio); no extension, so the format is
named."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import meshioplusplus as mio

meshio = pytest.importorskip("meshio", reason="meshio is the peer for cross-checks")


def surface(seed=0, n=500, m=900):
    rng = np.random.default_rng(seed)
    return rng.random((n, 3)) * 100 - 50, rng.integers(0, n, (m, 3))


def test_our_file_is_meshios_byte_for_byte_and_meshio_reads_it(tmp_path):
    pts, tri = surface()
    mio.neuroglancer.write(tmp_path / "ours", mio.Mesh(pts, [("triangle", tri)]))
    meshio.neuroglancer.write(tmp_path / "theirs", meshio.Mesh(pts, [("triangle", tri)]))
    assert (tmp_path / "ours").read_bytes() == (tmp_path / "theirs").read_bytes()
    back = meshio.read(tmp_path / "ours", "neuroglancer")
    np.testing.assert_array_equal(back.points, pts.astype(np.float32))
    np.testing.assert_array_equal(back.cells[0].data, tri)


def test_we_read_what_meshio_writes(tmp_path):
    pts, tri = surface(1)
    meshio.write(tmp_path / "theirs", meshio.Mesh(pts, [("triangle", tri)]), "neuroglancer")
    theirs, ours = meshio.read(tmp_path / "theirs", "neuroglancer"), mio.read(tmp_path / "theirs", "neuroglancer")
    assert ours.points.dtype == theirs.points.dtype == np.float32
    np.testing.assert_array_equal(ours.points, theirs.points)
    np.testing.assert_array_equal(ours.cells[0].data, theirs.cells[0].data)


def test_a_fragment_made_with_numpy_after_the_published_layout(tmp_path):
    # https://github.com/google/neuroglancer/blob/master/src/datasource/precomputed/meshes.md,
    # "Legacy single-resolution mesh format": uint32le count, float32le xyz, uint32le indices.
    pts = np.array([[0, 0, 0], [4, 0, 0], [0, 4, 0], [0, 0, 4]], "<f4")
    tri = np.array([[0, 2, 1], [0, 1, 3], [1, 2, 3], [0, 3, 2]], "<u4")
    (tmp_path / "1:0").write_bytes(np.array([4], "<u4").tobytes() + pts.tobytes() + tri.tobytes())
    ours = mio.read(tmp_path / "1:0", "neuroglancer")
    np.testing.assert_array_equal(ours.points, pts)
    np.testing.assert_array_equal(ours.cells[0].data, tri)


def test_other_blocks_are_skipped_with_a_warning_and_bad_files_raise(tmp_path):
    pts, tri = surface(2, 10, 5)
    m = mio.Mesh(pts, [("triangle", tri), ("line", [[0, 1]]), ("triangle", tri[:2])])
    with pytest.warns(UserWarning, match="skipped 'line'"):
        mio.write(tmp_path / "w", m, "neuroglancer")
    assert len(mio.read(tmp_path / "w", "neuroglancer").cells[0]) == 7
    (tmp_path / "bad").write_bytes(np.array([2], "<u4").tobytes() + np.zeros(6, "<f4").tobytes() + np.array([0, 1, 2], "<u4").tobytes())
    with pytest.raises(mio.ReadError, match=r"bad.*vertex index 2 is outside \[0, 2\)"):
        mio.read(tmp_path / "bad", "neuroglancer")
    with pytest.raises(ValueError):  # no extension: the format must be named, as in meshio
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            mio.read(tmp_path / "w")
