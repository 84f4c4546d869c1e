"""Tecplot ASCII against meshio 5.0 (both ways, and its node tables for degenerate
elements) and VTK 9.1's vtkTecplotReader (it reads what we write); the hand-written
fixtures (FEBLOCK with cell-centred variables, two zones, degenerate bricks)."""
from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

import meshioplusplus as mio

meshio = pytest.importorskip("meshio", reason="meshio is the peer for cross-checks")
DATA = Path(__file__).resolve().parents[1] / "data" / "tecplot"
SINGLE = {"line": [[0, 1], [1, 2]], "triangle": [[0, 1, 2], [0, 2, 3]], "quad": [[0, 1, 2, 3]],
          "tetra": [[0, 1, 2, 3], [1, 2, 3, 4]], "hexahedron": [list(range(8))]}


def quiet(f, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f(*args, **kw)


def assert_same(a, b):
    np.testing.assert_array_equal(a.points, b.points)
    assert [c.type for c in a.cells] == [c.type for c in b.cells]
    for x, y in zip(a.cells, b.cells):
        np.testing.assert_array_equal(x.data, y.data)
    assert set(a.point_data) == set(b.point_data) and set(a.cell_data) == set(b.cell_data)
    for k in a.point_data:
        np.testing.assert_array_equal(a.point_data[k], b.point_data[k])
    for k in a.cell_data:
        for x, y in zip(a.cell_data[k], b.cell_data[k]):
            np.testing.assert_array_equal(x, y)


def sample(M, cell_type, dim=3):
    rng = np.random.default_rng(len(cell_type))
    cells = np.array(SINGLE[cell_type])
    return M.Mesh(rng.random((10, dim)), [(cell_type, cells)], point_data={"u": rng.random(10), "v": rng.random((10, 2))},
                  cell_data={"c": [rng.random(len(cells))]})


@pytest.mark.parametrize("cell_type", list(SINGLE))
@pytest.mark.parametrize("dim", [2, 3])
def test_both_ways_against_meshio(tmp_path, cell_type, dim):
    quiet(meshio.write, tmp_path / "theirs.dat", sample(meshio, cell_type, dim))
    mio.write(tmp_path / "ours.dat", sample(mio, cell_type, dim))
    for name in ("theirs.dat", "ours.dat"):
        ours, theirs = mio.read(tmp_path / name), quiet(meshio.read, tmp_path / name)
        assert_same(theirs, ours)
        assert sorted(ours.point_data) == ["u", "v_0", "v_1"] and ours.points.shape[1] == dim


def test_mixed_types_are_written_as_meshio_writes_them(tmp_path):
    rng = np.random.default_rng(4)
    pts = rng.random((16, 3))
    cells = [("tetra", [[0, 1, 2, 3]]), ("pyramid", [[0, 1, 2, 3, 4]]), ("wedge", [[0, 1, 2, 3, 4, 5]]),
             ("hexahedron", [list(range(8, 16))])]
    mio.write(tmp_path / "ours.dat", mio.Mesh(pts, cells))
    quiet(meshio.write, tmp_path / "theirs.dat", meshio.Mesh(pts, cells))
    ours_text = (tmp_path / "ours.dat").read_text().splitlines()
    theirs_text = (tmp_path / "theirs.dat").read_text().splitlines()
    assert ours_text[1:] == theirs_text[1:]  # all but the TITLE line (the writer's name)
    back = mio.read(tmp_path / "theirs.dat")
    assert [(c.type, c.data.tolist()) for c in back.cells] == cells


def test_degenerate_bricks_collapse_by_meshios_own_table():
    from meshio.tecplot._tecplot import meshio_to_tecplot_order_2

    ours, theirs = mio.read(DATA / "degenerate-brick.dat"), quiet(meshio.read, DATA / "degenerate-brick.dat")
    assert [c.type for c in ours.cells] == ["tetra", "pyramid", "wedge", "hexahedron"]
    # meshio keeps the bricks; each of ours, spread by meshio's writer table, is its row
    # (the second wedge is Tecplot's own prism pattern, 0 1 2 2 3 4 5 5)
    spread = [ours.cells[0].data[:, meshio_to_tecplot_order_2["tetra"]], ours.cells[1].data[:, meshio_to_tecplot_order_2["pyramid"]],
              ours.cells[2].data[:1, meshio_to_tecplot_order_2["wedge"]], ours.cells[2].data[1:, [0, 1, 2, 2, 3, 4, 5, 5]],
              ours.cells[3].data]
    np.testing.assert_array_equal(np.concatenate(spread), theirs.cells[0].data)
    np.testing.assert_array_equal(np.concatenate(ours.cell_data["c"]), theirs.cell_data["c"][0])
    np.testing.assert_array_equal(ours.points, theirs.points)


def test_two_zones_first_is_what_meshio_reads():
    with pytest.warns(UserWarning, match="skipped the DATASETAUXDATA record at line 9"):
        ours = mio.read(DATA / "two-zones.dat")
    theirs = quiet(meshio.read, DATA / "two-zones.dat")  # meshio reads the first zone only
    np.testing.assert_array_equal(ours.points[:4], theirs.points)
    np.testing.assert_array_equal(ours.cells[0].data, theirs.cells[0].data)
    np.testing.assert_array_equal(ours.point_data["T"][:4], theirs.point_data["T"])
    assert ours.points.shape == (7, 2) and ours.cells[1].data.tolist() == [[4, 5, 6]]
    assert sorted(ours.cell_sets) == ["left", "right"]


def test_feblock_cell_centred_fixture():
    m = mio.read(DATA / "feblock-cell-centered.dat")
    assert sorted(m.cell_data) == ["Pressure_Field", "rho"] and not m.point_data
    np.testing.assert_array_equal(m.cell_data["rho"][0], [10, 20])


def test_vtk_reads_what_we_write(tmp_path):
    vtk = pytest.importorskip("vtk")
    from vtk.util.numpy_support import vtk_to_numpy

    m = mio.Mesh(np.random.default_rng(0).random((16, 3)), [("hexahedron", np.arange(16).reshape(2, 8))],
                 point_data={"u": np.arange(16.0)}, cell_data={"c": [np.array([1.5, 2.5])]})
    mio.write(tmp_path / "ours.dat", m)
    r = vtk.vtkTecplotReader()
    r.SetFileName(str(tmp_path / "ours.dat"))
    r.Update()
    grid = r.GetOutput().GetBlock(0)
    np.testing.assert_allclose(vtk_to_numpy(grid.GetPoints().GetData()), m.points)
    assert grid.GetNumberOfCells() == 2 and grid.GetCellType(0) == 12
    assert [grid.GetCell(1).GetPointId(j) for j in range(8)] == list(range(8, 16))
    np.testing.assert_allclose(vtk_to_numpy(grid.GetPointData().GetArray("u")), m.point_data["u"])
    np.testing.assert_allclose(vtk_to_numpy(grid.GetCellData().GetArray("c")), [1.5, 2.5])


def test_no_tecplot_cell_is_a_write_error(tmp_path):
    with pytest.raises(mio.WriteError, match="no cell type supported by Tecplot"):
        mio.write(tmp_path / "v.dat", mio.Mesh(np.zeros((2, 3)), [("vertex", np.array([[0], [1]]))]))
