"""PVD (ParaView's collection): meshioplusplus.pvd.TimeSeriesWriter / TimeSeriesReader with
meshio's XDMF time-series API, checked with a plain XML parse of the .pvd and VTK's own
reader of every file it lists (vtkPVDReader is ParaView-only); mio.read of a .pvd (one
time step, `step=<k>`, parts joined)."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest

import meshio
import meshioplusplus as mio
import test_vtk_oracle as oracle
from helpers import assert_mesh_equal, tet_mesh, tri_mesh

vtk = pytest.importorskip("vtk", reason="VTK reads the files a .pvd lists")

TIMES = [0.0, 0.125, 1.0 / 3.0]


def write_series(path, **options):
    points, cells = tet_mesh.points, tet_mesh.cells
    with mio.pvd.TimeSeriesWriter(path, **options) as w:
        w.write_points_cells(points, cells)
        for k, t in enumerate(TIMES):
            w.write_data(t, point_data={"T": np.arange(len(points)) * (k + 1.0)},
                         cell_data={"c": [np.full(len(b), 10 * k, dtype=np.int32) for b in cells]})


def test_the_series_is_a_pvd_vtk_reads_file_by_file(tmp_path):
    write_series(tmp_path / "run.pvd")
    root = ET.parse(tmp_path / "run.pvd").getroot()
    assert root.tag == "VTKFile" and root.get("type") == "Collection"
    datasets = list(root.find("Collection"))
    assert [float(d.get("timestep")) for d in datasets] == TIMES  # the shortest round-trip spelling
    assert [d.get("file") for d in datasets] == ["run_0.vtu", "run_1.vtu", "run_2.vtu"]
    for k, d in enumerate(datasets):
        got = oracle.vtk_read(tmp_path / d.get("file"))
        np.testing.assert_array_equal(got["points"], tet_mesh.points)
        np.testing.assert_array_equal(got["point_data"]["T"], np.arange(len(tet_mesh.points)) * (k + 1.0))
        np.testing.assert_array_equal(got["cell_data"]["c"], np.full(len(got["cells"]), 10 * k))


def test_reader_has_meshios_time_series_api(tmp_path):
    write_series(tmp_path / "run.pvd", binary=False)
    with mio.pvd.TimeSeriesReader(tmp_path / "run.pvd") as r:
        assert r.num_steps == 3
        points, cells = r.read_points_cells()
        np.testing.assert_array_equal(points, tet_mesh.points)
        assert [(c.type, np.asarray(c.data).tolist()) for c in cells] == [(c.type, np.asarray(c.data).tolist()) for c in tet_mesh.cells]
        for k, t in enumerate(TIMES):
            tk, pd, cd = r.read_data(k)
            assert tk == t
            np.testing.assert_array_equal(pd["T"], np.arange(len(points)) * (k + 1.0))
            assert cd["c"][0].dtype == np.int32 and (cd["c"][0] == 10 * k).all()
        with pytest.raises(IndexError):
            r.read_data(3)
    # The same method names as meshio's XDMF time series.
    for cls, theirs in ((mio.pvd.TimeSeriesWriter, meshio.xdmf.TimeSeriesWriter), (mio.pvd.TimeSeriesReader, meshio.xdmf.TimeSeriesReader)):
        ours = {n for n in dir(cls) if not n.startswith("_")}
        assert {"write_points_cells", "write_data"} <= ours if cls is mio.pvd.TimeSeriesWriter else {"read_points_cells", "read_data"} <= ours
        assert ours <= {n for n in dir(theirs) if not n.startswith("_")}


def test_write_data_needs_the_mesh_first(tmp_path):
    with pytest.raises(mio.WriteError, match="write_points_cells"):
        with mio.pvd.TimeSeriesWriter(tmp_path / "x.pvd") as w:
            w.write_data(0.0, point_data={})


def test_read_gives_one_time_step_with_its_parts(tmp_path):
    mio.write(tmp_path / "a.vtu", tet_mesh)
    mio.write(tmp_path / "b.vtu", tri_mesh)
    (tmp_path / "c.pvd").write_text(
        '<?xml version="1.0"?>\n<VTKFile type="Collection" version="0.1"><Collection>'
        '<DataSet timestep="2" part="0" file="a.vtu"/>'
        '<DataSet timestep="5" part="0" file="a.vtu"/><DataSet timestep="5" part="1" file="b.vtu"/>'
        "</Collection></VTKFile>"
    )
    with pytest.warns(UserWarning, match="2 time steps"):
        first = mio.read(tmp_path / "c.pvd")
    assert_mesh_equal(tet_mesh, first)
    second = mio.read(tmp_path / "c.pvd", step=1)
    assert len(second.points) == len(tet_mesh.points) + len(tri_mesh.points)
    assert [c.type for c in second.cells] == ["tetra", "triangle"]
    np.testing.assert_array_equal(second.cells[1].data, np.asarray(tri_mesh.cells[0].data) + len(tet_mesh.points))
    with mio.pvd.TimeSeriesReader(tmp_path / "c.pvd") as r:
        assert r.num_steps == 2
        assert r.read_data(1)[0] == 5.0


def test_write_one_mesh_and_errors(tmp_path):
    mio.write(tmp_path / "one.pvd", tri_mesh)
    assert (tmp_path / "one_0.vtu").is_file()
    assert_mesh_equal(tri_mesh, mio.read(tmp_path / "one.pvd"))
    (tmp_path / "bad.pvd").write_text('<VTKFile type="Collection"><Collection><DataSet timestep="0" file="gone.vtu"/></Collection></VTKFile>')
    with pytest.raises(mio.ReadError, match=r'pvd: .*bad.pvd.*"gone.vtu" is not a file'):
        mio.read(tmp_path / "bad.pvd")
    with pytest.raises(mio.ReadError, match="not found"):
        mio.pvd.TimeSeriesReader(tmp_path / "nothing.pvd")
