"""XDMF (docs/formats/xdmf.md). Oracles:
- meshio 5.0 (python3-meshio with python3-h5py) reads every file we write, mesh and time
  series, in XML, Binary and HDF; we read every file meshio writes (its write and its
  TimeSeriesWriter, XML and HDF) to the same arrays;
- h5dump (hdf5-tools) shows the layout of the HDF5 file we write;
- h5py reads our datasets; only one libhdf5 is mapped once h5py and meshio++ are imported.
VTK 9.1 as Debian builds it (python3-vtk9) has no vtkXdmfReader (nor vtkXdmf3Reader), so
VTK is no oracle here: test_vtk_has_no_xdmf_reader pins that fact.
"""
import os  # noqa: F401
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import meshioplusplus as mio
from helpers import tet_mesh, tri_quad_mesh

meshio = pytest.importorskip("meshio")
h5py = pytest.importorskip("h5py", reason="python3-h5py is meshio's XDMF HDF5 backend and our inspector")

DATA = Path(__file__).resolve().parents[1] / "data" / "xdmf"
FORMATS = ["HDF", "XML", "Binary"]


def mixed_mesh():
    rng = np.random.default_rng(3)
    points = rng.random((9, 3))
    cells = [
        ("triangle", np.array([[0, 1, 2], [2, 3, 4]])),
        ("tetra", np.array([[0, 1, 2, 5], [1, 2, 5, 6]])),
        ("line", np.array([[7, 8]])),
        ("quad", np.array([[0, 1, 2, 3]])),
    ]
    return mio.Mesh(points, cells, point_data={"u": rng.random(9), "v": rng.random((9, 3))},
                    cell_data={"c": [rng.random(2), rng.random(2), rng.random(1), rng.random(1)],
                               "id": [np.arange(2, dtype=np.int32), np.arange(2, dtype=np.int32),
                                      np.arange(1, dtype=np.int32), np.arange(1, dtype=np.int32)]})


def same_arrays(ours, theirs):
    np.testing.assert_allclose(np.asarray(theirs.points), np.asarray(ours.points), rtol=0, atol=0)
    assert [(b.type, np.asarray(b.data).tolist()) for b in theirs.cells] == \
        [(b.type, np.asarray(b.data).tolist()) for b in ours.cells]
    assert sorted(theirs.point_data) == sorted(ours.point_data)
    for k in ours.point_data:
        np.testing.assert_array_equal(np.asarray(theirs.point_data[k]), np.asarray(ours.point_data[k]))
    assert sorted(theirs.cell_data) == sorted(ours.cell_data)
    for k in ours.cell_data:
        for a, b in zip(theirs.cell_data[k], ours.cell_data[k]):
            np.testing.assert_array_equal(np.asarray(a), np.asarray(b))


@pytest.mark.parametrize("data_format", FORMATS)
@pytest.mark.parametrize("mesh", [tet_mesh, tri_quad_mesh, mixed_mesh()], ids=["tet", "tri_quad", "mixed"])
def test_meshio_reads_what_we_write(tmp_path, monkeypatch, data_format, mesh):
    monkeypatch.chdir(tmp_path)  # meshio opens Binary files from the working directory
    mio.write(tmp_path / "out.xdmf", mesh, data_format=data_format)
    same_arrays(mesh, meshio.read(tmp_path / "out.xdmf"))
    same_arrays(mesh, mio.read(tmp_path / "out.xdmf"))


@pytest.mark.parametrize("data_format", ["HDF", "XML"])
def test_we_read_what_meshio_writes(tmp_path, data_format):
    m = mixed_mesh()
    theirs = meshio.Mesh(m.points, [(b.type, b.data) for b in m.cells if b.type != "line"],
                         point_data=m.point_data, cell_data={"c": [m.cell_data["c"][i] for i in (0, 1, 3)]})
    meshio.write(tmp_path / "m.xdmf", theirs, data_format=data_format)
    same_arrays(theirs, mio.read(tmp_path / "m.xdmf"))


def test_the_heavy_data_file_is_beside_the_xdmf_file_in_meshio_layout(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sub = tmp_path / "sub"
    sub.mkdir()
    mio.write(sub / "a.xdmf", mixed_mesh(), compression_opts=6)
    assert sorted(p.name for p in sub.iterdir()) == ["a.h5", "a.xdmf"]
    dump = subprocess.run(["h5dump", "-H", "-p", str(sub / "a.h5")], capture_output=True, text=True, check=True).stdout
    for k in range(5):
        assert f'DATASET "data{k}"' in dump
    assert "H5T_IEEE_F64LE" in dump and "H5T_STD_I64LE" in dump
    assert "DEFLATE { LEVEL 6 }" in dump
    with h5py.File(sub / "a.h5") as f:
        np.testing.assert_array_equal(f["data0"][()], mixed_mesh().points)
    mio.write(sub / "b.xdmf", tet_mesh, compression=None)
    assert "DEFLATE" not in subprocess.run(["h5dump", "-H", "-p", str(sub / "b.h5")], capture_output=True,
                                           text=True, check=True).stdout


def test_bad_options_are_value_errors(tmp_path):
    with pytest.raises(ValueError, match="data_format"):
        mio.write(tmp_path / "a.xdmf", tet_mesh, data_format="NetCDF")
    with pytest.raises(ValueError, match="compression"):
        mio.write(tmp_path / "a.xdmf", tet_mesh, compression="lzf")
    assert not list(tmp_path.iterdir())


def steps():
    rng = np.random.default_rng(5)
    return [(0.1 * k, {"u": rng.random(4), "w": rng.random((4, 3))}, {"c": [rng.random(2)]}) for k in range(4)]


POINTS = np.array([[0.0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]])
CELLS = [("triangle", np.array([[0, 1, 2], [0, 2, 3]]))]


def check_series(reader_cls, path):
    reader = reader_cls(path)
    assert reader.num_steps == 4
    points, cells = reader.read_points_cells()
    np.testing.assert_array_equal(points, POINTS)
    assert [(c.type, c.data.tolist()) for c in cells] == [(t, d.tolist()) for t, d in CELLS]
    for k, (t, pd, cd) in enumerate(steps()):
        t2, pd2, cd2 = reader.read_data(k)
        assert t2 == pytest.approx(t, abs=0)
        assert sorted(pd2) == sorted(pd) and sorted(cd2) == sorted(cd)
        for name in pd:
            np.testing.assert_array_equal(pd2[name], pd[name])
        np.testing.assert_array_equal(cd2["c"][0], cd["c"][0])


@pytest.mark.parametrize("data_format", FORMATS)
def test_time_series_we_write_meshio_reads(tmp_path, monkeypatch, data_format):
    sub = tmp_path / "out"
    sub.mkdir()
    monkeypatch.chdir(sub)  # meshio's reader opens Binary files from the working directory
    with mio.xdmf.TimeSeriesWriter(sub / "ts.xdmf", data_format=data_format) as w:
        w.write_points_cells(POINTS, CELLS)
        for t, pd, cd in steps():
            w.write_data(t, point_data=pd, cell_data=cd)
    if data_format == "HDF":
        assert sorted(p.name for p in sub.iterdir()) == ["ts.h5", "ts.xdmf"]
    check_series(meshio.xdmf.TimeSeriesReader, sub / "ts.xdmf")
    check_series(mio.xdmf.TimeSeriesReader, sub / "ts.xdmf")


@pytest.mark.parametrize("data_format", ["HDF", "XML"])
def test_time_series_meshio_writes_we_read(tmp_path, monkeypatch, data_format):
    monkeypatch.chdir(tmp_path)  # meshio writes its .h5 in the working directory
    with meshio.xdmf.TimeSeriesWriter("ts.xdmf", data_format=data_format) as w:
        w.write_points_cells(POINTS, CELLS)
        for t, pd, cd in steps():
            w.write_data(t, point_data=pd, cell_data=cd)
    check_series(mio.xdmf.TimeSeriesReader, tmp_path / "ts.xdmf")
    with pytest.warns(UserWarning, match="TimeSeriesReader"):
        m = mio.read(tmp_path / "ts.xdmf")
    assert len(m.points) == 4 and m.cells[0].type == "triangle"


@pytest.mark.parametrize("data_format", FORMATS)
def test_time_series_sync_false_writes_the_same_files(tmp_path, data_format):
    """sync=False (as every write) skips the flush to the device and changes no byte."""
    for folder, kw in (("synced", {}), ("unsynced", {"sync": False})):
        (tmp_path / folder).mkdir()
        with mio.xdmf.TimeSeriesWriter(tmp_path / folder / "ts.xdmf", data_format=data_format, **kw) as w:
            w.write_points_cells(POINTS, CELLS)
            for t, pd, cd in steps():
                w.write_data(t, point_data=pd, cell_data=cd)

    def files(folder):
        return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}

    synced, unsynced = files(tmp_path / "synced"), files(tmp_path / "unsynced")
    assert "ts.xdmf" in unsynced and not [n for n in unsynced if ".meshioplusplus-" in n]
    if data_format != "HDF":  # an HDF5 file holds its creation time: compare what it holds
        assert unsynced == synced
    else:
        assert sorted(unsynced) == sorted(synced) == ["ts.h5", "ts.xdmf"]
        assert unsynced["ts.xdmf"] == synced["ts.xdmf"]
    check_series(mio.xdmf.TimeSeriesReader, tmp_path / "unsynced" / "ts.xdmf")
    with pytest.raises(mio.WriteError, match="option 'sync'"):
        with mio.xdmf.TimeSeriesWriter(tmp_path / "bad.xdmf", data_format=data_format, sync="sometimes"):
            pass
    assert not (tmp_path / "bad.xdmf").exists()


def test_time_series_api_errors(tmp_path):
    with pytest.raises(mio.WriteError, match="Unknown XDMF data format"):
        mio.xdmf.TimeSeriesWriter(tmp_path / "a.xdmf", data_format="CSV")
    with mio.xdmf.TimeSeriesWriter(tmp_path / "a.xdmf") as w:
        with pytest.raises(mio.WriteError, match="write_points_cells"):
            w.write_data(0.0, point_data={"u": np.zeros(4)})
        w.write_points_cells(POINTS, CELLS)
        with pytest.raises(ValueError, match="len"):
            w.write_data(0.0, point_data={"u": np.zeros(5)})
    assert mio.xdmf.TimeSeriesReader(tmp_path / "a.xdmf").num_steps == 0
    with pytest.raises(mio.ReadError, match="not a time series"):
        mio.xdmf.TimeSeriesReader(DATA / "xdmf2_mixed.xdmf")


def test_xdmf2_and_dolfin_mixed_layout_fixture():
    # Hand-written XDMF 2 file (tests/data/xdmf/README): NumberType, a Mixed topology with a
    # Polyline (node count 2), a Polygon of 5 nodes and a Polyvertex, X_Y_Z geometry.
    m = mio.read(DATA / "xdmf2_mixed.xdmf")
    assert [(b.type, b.data.tolist()) for b in m.cells] == [
        ("triangle", [[0, 1, 2]]), ("line", [[2, 3]]), ("polygon", [[0, 1, 2, 3, 4]]), ("vertex", [[4]])]
    np.testing.assert_array_equal(m.points[:, 0], [0, 1, 1, 0, 0.5])
    np.testing.assert_array_equal(m.cell_data["k"][2], [3])
    # The blocks were compacted in place in the Mixed stream: back to back in one buffer.
    starts = [b.data.ctypes.data for b in m.cells]
    assert starts == [starts[0] + sum(b.data.nbytes for b in m.cells[:i]) for i in range(len(m.cells))]


def test_binary_heavy_data_big_endian_with_seek():
    # Hand-written: points as big-endian float64 after an 8-byte header (Seek="8").
    m = mio.read(DATA / "binary_big_endian.xdmf")
    np.testing.assert_array_equal(m.points, [[0, 0, 0], [1, 0, 0], [0, 1, 0]])
    assert m.cells[0].data.tolist() == [[0, 1, 2]]


def test_errors_name_the_file_the_line_and_the_dataset(tmp_path):
    bad = tmp_path / "bad.xdmf"
    bad.write_text('<Xdmf Version="3.0"><Domain><Grid>\n<Geometry><DataItem Dimensions="2 3" Format="HDF">'
                   'missing.h5:/data0</DataItem></Geometry></Grid></Domain></Xdmf>')
    with pytest.raises(mio.ReadError, match=r"xdmf: .*missing\.h5: cannot open"):
        mio.read(bad)
    mio.write(tmp_path / "ok.xdmf", tet_mesh)
    text = (tmp_path / "ok.xdmf").read_text().replace("ok.h5:/data1", "ok.h5:/nothere")
    (tmp_path / "lie.xdmf").write_text(text)
    with pytest.raises(mio.ReadError, match=r"xdmf: .*ok\.h5: dataset /nothere: no such dataset"):
        mio.read(tmp_path / "lie.xdmf")
    (tmp_path / "v.xdmf").write_text('<Xdmf Version="4.0"><Domain/></Xdmf>')
    with pytest.raises(mio.ReadError, match=r"xdmf: .*v\.xdmf: line 1 .*Version 2.x or 3.x"):
        mio.read(tmp_path / "v.xdmf")


def test_no_hdf5_error_stack_is_printed(tmp_path):
    (tmp_path / "x.h5").write_bytes(b"not hdf5 at all")
    (tmp_path / "x.xdmf").write_text('<Xdmf Version="3.0"><Domain><Grid><Geometry><DataItem Dimensions="1 3" '
                                     'Format="HDF">x.h5:/a</DataItem></Geometry></Grid></Domain></Xdmf>')
    code = f"import meshioplusplus as m\ntry:\n    m.read({str(tmp_path / 'x.xdmf')!r})\nexcept m.ReadError as e:\n    print(e)"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "cannot open as an HDF5 file" in proc.stdout
    assert "HDF5-DIAG" not in proc.stderr and proc.stderr == ""


def test_one_libhdf5_is_mapped_with_h5py_and_meshioplusplus():
    # h5py and meshio++ must share Debian's serial libhdf5 (docs/formats/xdmf.md).
    code = ("import h5py, meshioplusplus\n"
            "libs = {l.split()[-1] for l in open('/proc/self/maps') if 'libhdf5' in l and 'hl' not in l.split('/')[-1]}\n"
            "print(sorted(libs))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    libs = eval(proc.stdout)
    assert len(libs) == 1, libs
    assert "libhdf5_serial" in libs[0]


def test_vtk_has_no_xdmf_reader():
    vtk = pytest.importorskip("vtk")
    # If a future VTK has one, it becomes an oracle here (docs/formats/xdmf.md says which).
    assert not hasattr(vtk, "vtkXdmfReader") and not hasattr(vtk, "vtkXdmf3Reader")


def test_h5py_reads_the_same_values_we_read(tmp_path):
    m = mixed_mesh()
    mio.write(tmp_path / "a.xdmf", m)
    ours = mio.read(tmp_path / "a.xdmf")
    with h5py.File(tmp_path / "a.h5") as f:
        np.testing.assert_array_equal(f["data2"][()], ours.point_data["u"])
