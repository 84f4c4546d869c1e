"""VTKHDF (Kitware's HDF5 layout, version 1.0 UnstructuredGrid) against VTK 9.1: VTK's
vtkHDFReader reads every file we write (one partition, pieces=[...]) and gives our arrays,
all partitions at once and each alone; we read files made with h5py (in a subprocess) the
way VTK lays them out, several partitions, chunked and unlimited like VTK's own test data,
and give what VTK's reader gives; a VTU converted to VTKHDF from VTK's own arrays reads as
the VTU does. VTK 9.1 has no VTKHDF writer, so the VTK-made fixtures are VTK's arrays
written with h5py. Bad files are ReadErrors naming the dataset and the partition."""
from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

import helpers
import meshioplusplus as mio
import test_vtk_oracle as oracle
from test_pvtu import flat_of_pieces, grid_mesh, split
from test_vtu import MESHES, with_data

vtk = pytest.importorskip("vtk", reason="VTK 9.1's vtkHDFReader is the oracle of VTKHDF")
from vtk.util.numpy_support import vtk_to_numpy  # noqa: E402

# Run in a subprocess: h5py and meshio++ each hold the HDF5 library's global state.
_H5PY_WRITER = r"""
import sys, numpy as np, h5py
spec = np.load(sys.argv[2], allow_pickle=False)
with h5py.File(sys.argv[1], "w") as f:
    for key in spec.files:
        kind, path = key.split(":", 1)
        path = path.replace("|", "/")
        a = spec[key]
        if kind == "attr":
            obj, name = path.rsplit("@", 1)
            f.require_group(obj).attrs[name] = a
        elif kind == "strattr":
            obj, name = path.rsplit("@", 1)
            f.require_group(obj).attrs[name] = np.bytes_(str(a))
        elif kind == "str":
            f.create_dataset(path, data=[str(s).encode() for s in a], dtype=h5py.string_dtype("ascii"))
        elif kind == "chunked":  # as VTK's test data: chunked, unlimited first axis
            f.create_dataset(path, data=a, maxshape=(None,) + a.shape[1:], chunks=True)
        else:
            f.create_dataset(path, data=a)
"""


def h5py_write(path, datasets, attrs=None, chunked=False, strings=None):
    """`datasets` ({"/VTKHDF/Points": array}) and `attrs` ({"/VTKHDF@Version": array or
    str}) written by h5py in a subprocess."""
    spec = {}
    for name, a in datasets.items():
        spec[("chunked:" if chunked and np.asarray(a).ndim >= 1 and "FieldData" not in name else "data:") + name.replace("/", "|")] = np.asarray(a)
    for name, a in (attrs or {}).items():
        spec[("strattr:" if isinstance(a, str) else "attr:") + name.replace("/", "|")] = np.asarray(a)
    for name, a in (strings or {}).items():
        spec["str:" + name.replace("/", "|")] = np.asarray(a)
    npz = str(path) + ".npz"
    np.savez(npz, **spec)
    subprocess.run(["/usr/bin/python3", "-c", _H5PY_WRITER, str(path), npz], check=True)
    return path


def vtk_hdf_read(path, piece=None, partitions=None):
    """VTK's vtkHDFReader of `path` as flat arrays: every partition, or partition `piece`
    of `partitions` (UpdatePiece, as a parallel pipeline asks for it)."""
    reader = vtk.vtkHDFReader()
    reader.SetFileName(str(path))
    if piece is None:
        reader.Update()
    else:
        reader.UpdatePiece(piece, partitions, 0)
    grid = reader.GetOutput()
    fd = grid.GetFieldData()
    for name in [fd.GetAbstractArray(i).GetName() for i in range(fd.GetNumberOfArrays())]:
        if isinstance(fd.GetAbstractArray(name), vtk.vtkStringArray):
            fd.RemoveArray(name)  # strings: meshio++ skips them (with a warning)
    return oracle.vtk_flat(grid)


def flat(mesh):
    """What VTK shows of a mesh written to VTKHDF: data arrays of more than one component
    axis are flattened to (rows, components)."""
    out = oracle.flat_from_mesh(mesh)
    for kind in ("point_data", "cell_data"):
        out[kind] = {k: np.asarray(v).reshape(len(v), -1) if np.asarray(v).ndim > 2 else v for k, v in out[kind].items()}
    return out


VOLUME = [name for name in MESHES if name != "polyhedra"]


@pytest.mark.parametrize("name", VOLUME)
def test_vtk_reads_what_we_write(tmp_path, name):
    mesh = with_data(MESHES[name])
    mio.write(tmp_path / "x.vtkhdf", mesh)
    oracle.assert_flat_equal(flat(mesh), vtk_hdf_read(tmp_path / "x.vtkhdf"))
    oracle.assert_flat_equal(flat(mesh), oracle.flat_from_mesh(mio.read(tmp_path / "x.vtkhdf")))


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_vtk_reads_our_partitions_together_and_alone(tmp_path, n):
    pieces = split(grid_mesh(), n)
    mio.write(tmp_path / "p.vtkhdf", None, pieces=pieces)
    expected = flat_of_pieces(pieces)
    oracle.assert_flat_equal(expected, vtk_hdf_read(tmp_path / "p.vtkhdf"), field_data=False)
    ours = mio.read(tmp_path / "p.vtkhdf")
    oracle.assert_flat_equal(expected, oracle.flat_from_mesh(ours), field_data=False)
    assert [(b.type, len(b)) for b in ours.cells] == [("triangle", 36), ("quad", 18)]
    for k, piece in enumerate(pieces):
        oracle.assert_flat_equal(oracle.flat_from_mesh(piece), vtk_hdf_read(tmp_path / "p.vtkhdf", k, n), field_data=False)
        helpers.assert_mesh_equal(piece, mio.read(tmp_path / "p.vtkhdf", piece=k))


def vtk_layout(pieces_flat, field=None, version=(1, 0), type_attr=None):
    """The datasets VTK's writers lay out for partitions given as VTK flat arrays."""
    d = {"/VTKHDF/NumberOfPoints": [], "/VTKHDF/NumberOfCells": [], "/VTKHDF/NumberOfConnectivityIds": []}
    pts, off, conn, types, pdata, cdata = [], [], [], [], {}, {}
    for p in pieces_flat:
        d["/VTKHDF/NumberOfPoints"].append(len(p["points"]))
        d["/VTKHDF/NumberOfCells"].append(len(p["cells"]))
        ids = [i for _, c in p["cells"] for i in c]
        d["/VTKHDF/NumberOfConnectivityIds"].append(len(ids))
        pts.append(p["points"])
        off.append(np.concatenate([[0], np.cumsum([len(c) for _, c in p["cells"]])]))
        conn.append(np.asarray(ids, dtype=np.int64))
        types.append(np.asarray([t for t, _ in p["cells"]], dtype=np.uint8))
        for name, a in p["point_data"].items():
            pdata.setdefault(name, []).append(a)
        for name, a in p["cell_data"].items():
            cdata.setdefault(name, []).append(a)
    d = {k: np.asarray(v, dtype=np.int64) for k, v in d.items()}
    d["/VTKHDF/Points"] = np.concatenate(pts)
    d["/VTKHDF/Offsets"] = np.concatenate(off).astype(np.int64)
    d["/VTKHDF/Connectivity"] = np.concatenate(conn)
    d["/VTKHDF/Types"] = np.concatenate(types)
    for name, parts in pdata.items():
        d["/VTKHDF/PointData/" + name] = np.concatenate(parts)
    for name, parts in cdata.items():
        d["/VTKHDF/CellData/" + name] = np.concatenate(parts)
    for name, a in (field or {}).items():
        d["/VTKHDF/FieldData/" + name] = a
    attrs = {"/VTKHDF@Version": np.asarray(version, dtype=np.int64)}
    if type_attr:
        attrs["/VTKHDF@Type"] = type_attr
    return d, attrs


@pytest.mark.parametrize("n", [1, 3])
@pytest.mark.parametrize("chunked", [False, True])
@pytest.mark.filterwarnings("ignore:.*field data 'Title' skipped")  # checked once below
def test_we_read_vtk_laid_out_files_as_vtk_does(tmp_path, n, chunked):
    pieces = [oracle.flat_from_mesh(p) for p in split(grid_mesh(), n)]
    d, attrs = vtk_layout(pieces, field={"KE": np.array([1.0, 2.5]), "ids": np.array([[1, 2], [3, 4]], dtype=np.int32)})
    path = h5py_write(tmp_path / "v.hdf", d, attrs, chunked=chunked, strings={"/VTKHDF/FieldData/Title": ["a title"]})
    vtk_view = vtk_hdf_read(path)
    with pytest.warns(UserWarning, match="field data 'Title' skipped"):
        ours = mio.read(path)  # .hdf: VTK's own extension for these files
    got = oracle.flat_from_mesh(ours)
    oracle.assert_flat_equal(vtk_view, got, field_data=False)
    np.testing.assert_array_equal(ours.field_data["KE"], [1.0, 2.5])
    np.testing.assert_array_equal(ours.field_data["ids"], [[1, 2], [3, 4]])
    for k in range(n):
        oracle.assert_flat_equal(vtk_hdf_read(path, k, n), oracle.flat_from_mesh(mio.read(path, piece=k)), field_data=False)


def test_a_vtu_converted_by_vtk_reads_as_the_vtu(tmp_path):
    mesh = with_data(MESHES["quadratic_meshio"])
    mio.write(tmp_path / "m.vtu", mesh)
    grid = oracle.vtk_flat(oracle.vtk_grid_from_file(tmp_path / "m.vtu"))  # VTK's arrays of the file
    field = grid.pop("field_data")
    d, attrs = vtk_layout([grid], field=field, type_attr="UnstructuredGrid")
    path = h5py_write(tmp_path / "m.vtkhdf", d, attrs)
    oracle.assert_flat_equal(oracle.flat_from_mesh(mio.read(tmp_path / "m.vtu")), oracle.flat_from_mesh(mio.read(path)))
    oracle.assert_flat_equal(vtk_hdf_read(path), grid, field_data=False)


def test_pieces_keyword_and_options(tmp_path):
    pieces = split(grid_mesh(), 2)
    mio.write(tmp_path / "w.vtkhdf", grid_mesh(), pieces=pieces)
    assert len(mio.read(tmp_path / "w.vtkhdf").points) == sum(len(p.points) for p in pieces)
    with pytest.raises(ValueError, match="piece': 2 asked, the file has 2"):
        mio.read(tmp_path / "w.vtkhdf", piece=2)
    other = split(grid_mesh(), 2)
    other[1].point_data.pop("T")
    with pytest.raises(ValueError, match="other point data names"):
        mio.write(tmp_path / "bad.vtkhdf", None, pieces=other)
    assert not (tmp_path / "bad.vtkhdf").exists()
    with pytest.raises(ValueError, match="unknown|not accepted|compression"):
        mio.write(tmp_path / "x.vtkhdf", grid_mesh(), compression="gzip")


def test_polyhedra_are_refused(tmp_path):
    with pytest.raises(mio.WriteError, match="no face stream"):
        mio.write(tmp_path / "p.vtkhdf", MESHES["polyhedra"])


def _bad(tmp_path, name, edit=None, attrs_edit=None):
    pieces = [oracle.flat_from_mesh(p) for p in split(grid_mesh(), 2)]
    d, attrs = vtk_layout(pieces)
    if edit:
        edit(d)
    if attrs_edit:
        attrs_edit(attrs)
    return h5py_write(tmp_path / name, d, attrs)


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda d: d.pop("/VTKHDF/Types"), r"dataset Types: no such dataset"),
        (lambda d: d.update({"/VTKHDF/Points": d["/VTKHDF/Points"][:-1]}), r"dataset Points: expected shape \(\d+, 3\)"),
        (lambda d: d["/VTKHDF/Connectivity"].__setitem__(-1, 10**6), r"dataset Connectivity, partition 1, entry \d+: point id 1000000"),
        (lambda d: d["/VTKHDF/Offsets"].__setitem__(-2, 10**6), r"dataset Offsets, partition 1, cell \d+: offset 1000000 out of range"),
        (lambda d: d.update({"/VTKHDF/NumberOfCells": d["/VTKHDF/NumberOfCells"][:1]}), r"NumberOfCells: 1 partitions, but NumberOfPoints has 2"),
        (lambda d: d["/VTKHDF/Types"].__setitem__(0, 42), r"dataset Types, partition 0, cell 0: VTK_POLYHEDRON"),
    ],
)
def test_bad_files_name_the_dataset_and_partition(tmp_path, edit, message):
    path = _bad(tmp_path, "bad.vtkhdf", edit)
    with pytest.raises(mio.ReadError, match=message):
        mio.read(path)


def test_wrong_version_type_and_image_data(tmp_path):
    path = _bad(tmp_path, "v.vtkhdf", attrs_edit=lambda a: a.update({"/VTKHDF@Version": np.array([9, 0])}))
    with pytest.raises(mio.ReadError, match=r"attribute Version of /VTKHDF: expected \[1, x\] or \[2, x\], found '\[9, 0\]'"):
        mio.read(path)
    path = _bad(tmp_path, "t.vtkhdf", attrs_edit=lambda a: a.update({"/VTKHDF@Type": "PolyData"}))
    with pytest.raises(mio.ReadError, match="expected UnstructuredGrid, found 'PolyData'"):
        mio.read(path)
    path = _bad(tmp_path, "i.vtkhdf", attrs_edit=lambda a: a.update({"/VTKHDF@Type": "ImageData"}))
    with pytest.raises(mio.ReadError, match="ImageData is not supported"):
        mio.read(path)


DATA = Path(__file__).resolve().parent.parent / "data" / "vtkhdf"


@pytest.mark.parametrize("name", ["two_partitions_chunked.hdf", "one_partition.vtkhdf"])
def test_fixtures_read_as_vtk_reads_them(name):
    path = DATA / name
    oracle.assert_flat_equal(vtk_hdf_read(path), oracle.flat_from_mesh(mio.read(path)))


def test_the_same_mesh_gives_the_same_bytes_at_another_time(tmp_path):
    # HDF5 stamps each object with its creation time unless told not to; ours are not
    # stamped, so a rewrite a second later (a clock tick apart) is byte-identical.
    import time

    mesh = with_data(grid_mesh())
    mio.write(tmp_path / "a.vtkhdf", mesh)
    time.sleep(1.1)
    mio.write(tmp_path / "b.vtkhdf", mesh)
    assert (tmp_path / "a.vtkhdf").read_bytes() == (tmp_path / "b.vtkhdf").read_bytes()
