"""WKT against meshio 5.0 (both ways: the same bytes, the same arrays) and shapely when
Debian has it (it parses what we write)."""
from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

import meshioplusplus as mio

meshio = pytest.importorskip("meshio", reason="meshio is the peer for cross-checks")
DATA = Path(__file__).resolve().parents[1] / "data" / "wkt"


def sample(M):
    rng = np.random.default_rng(1)
    return M.Mesh(rng.random((30, 3)), [("triangle", rng.integers(0, 30, (50, 3)))])


def test_same_file_as_meshio_and_both_read_it_alike(tmp_path):
    meshio.write(tmp_path / "theirs.wkt", sample(meshio))
    mio.write(tmp_path / "ours.wkt", sample(mio))
    assert (tmp_path / "ours.wkt").read_text() == (tmp_path / "theirs.wkt").read_text()
    theirs, ours = meshio.read(tmp_path / "theirs.wkt"), mio.read(tmp_path / "theirs.wkt")
    np.testing.assert_array_equal(theirs.points, ours.points)
    np.testing.assert_array_equal(theirs.cells[0].data.astype(np.int64), ours.cells[0].data)


def test_tin_z_fixture_as_meshio_reads_it():
    with pytest.raises((Exception, SystemExit)):
        meshio.read(DATA / "tin_z.wkt")  # meshio 5.0 does not accept the Z tag
    m = mio.read(DATA / "tin_z.wkt")
    assert m.points.shape == (4, 3) and m.cells[0].data.tolist() == [[0, 1, 2], [1, 3, 2]]


def test_non_triangles_are_a_write_error(tmp_path):
    m = mio.Mesh(np.eye(4)[:, :3], [("quad", np.array([[0, 1, 2, 3]])), ("triangle", np.array([[0, 1, 2]]))])
    with pytest.raises(mio.WriteError, match="cell block 0 is 'quad'"):
        mio.write(tmp_path / "q.wkt", m)


def test_empty_tin_reads_as_meshio_reads_it(tmp_path):
    mio.write(tmp_path / "e.wkt", mio.Mesh(np.zeros((0, 3)), []))
    assert (tmp_path / "e.wkt").read_text() == "TIN ()"
    assert mio.read(tmp_path / "e.wkt").points.shape[0] == meshio.read(tmp_path / "e.wkt").points.shape[0] == 0


def test_shapely_parses_what_we_write(tmp_path):
    shapely_wkt = pytest.importorskip("shapely.wkt")
    mio.write(tmp_path / "ours.wkt", sample(mio))
    geom = shapely_wkt.loads((tmp_path / "ours.wkt").read_text())
    assert len(geom.geoms) == 50
