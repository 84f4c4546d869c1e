"""H5M (MOAB's HDF5 format, docs/formats/h5m.md) against meshio 5.0.0: meshio reads every
file we write (mixed cell types, point data of several dtypes and shapes) to our arrays, we
read every file meshio writes to meshio's arrays, and both read the MOAB-layout fixture
(tests/data/h5m/) alike where meshio can. meshio and h5py run in a subprocess (one HDF5
library per process): `meshio_read` / `meshio_write` here are shared with test_hmf.py. No
MOAB tool is packaged in Debian 12 (`apt-cache policy libmoab-dev moab` finds none), so MOAB
itself is no oracle; the layout MOAB's reader requires is checked with h5py."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

import meshioplusplus as mio

pytest.importorskip("meshio", reason="meshio 5.0.0 (python3-meshio) is the oracle")

DATA = Path(__file__).resolve().parent.parent / "data" / "h5m"

# The meshio side, run by Debian's python3 in a subprocess: a mesh travels as an .npz of
# "points", "cells|<k>|<type>", "pd|<name>", "cd|<name>|<k>" arrays.
_MESHIO = r"""
import sys, json, warnings, numpy as np, meshio
mode, fmt, path, npz = sys.argv[1:5]
if mode == "read":
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = meshio.read(path, fmt)
    out = {"points": np.asarray(m.points)}
    for k, b in enumerate(m.cells):
        out[f"cells|{k}|{b.type}"] = np.asarray(b.data)
    for n, a in m.point_data.items():
        out[f"pd|{n}"] = np.asarray(a)
    for n, lst in m.cell_data.items():
        for k, a in enumerate(lst):
            out[f"cd|{n}|{k}"] = np.asarray(a)
    np.savez(npz, **out)
else:
    spec = np.load(npz)
    cells = sorted((int(k.split("|")[1]), k.split("|")[2], spec[k]) for k in spec.files if k.startswith("cells|"))
    pd = {k[3:]: spec[k] for k in spec.files if k.startswith("pd|")}
    cd = {}
    for k in sorted(spec.files):
        if k.startswith("cd|"):
            _, n, i = k.split("|")
            cd.setdefault(n, {})[int(i)] = spec[k]
    m = meshio.Mesh(spec["points"], [(t, d) for _, t, d in cells], point_data=pd,
                    cell_data={n: [v[i] for i in sorted(v)] for n, v in cd.items()})
    kwargs = json.loads(sys.argv[5])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        getattr(meshio, fmt).write(path, m, **kwargs)
"""


def _run(*args):
    proc = subprocess.run(["/usr/bin/python3", "-c", _MESHIO, *map(str, args)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]


def meshio_read(path, fmt) -> mio.Mesh:
    """What meshio 5.0.0 reads of `path`, as an mio.Mesh."""
    npz = str(path) + ".meshio.npz"
    _run("read", fmt, path, npz)
    spec = np.load(npz)
    cells = sorted((int(k.split("|")[1]), k.split("|")[2], spec[k]) for k in spec.files if k.startswith("cells|"))
    cd = {}
    for k in sorted(spec.files):
        if k.startswith("cd|"):
            _, n, i = k.split("|")
            cd.setdefault(n, {})[int(i)] = spec[k]
    return mio.Mesh(spec["points"], [(t, d) for _, t, d in cells],
                    point_data={k[3:]: spec[k] for k in spec.files if k.startswith("pd|")},
                    cell_data={n: [v[i] for i in sorted(v)] for n, v in cd.items()})


def meshio_write(path, mesh: mio.Mesh, fmt, **kwargs):
    """`mesh` written by meshio 5.0.0's writer of `fmt`."""
    spec = {"points": np.asarray(mesh.points)}
    for k, b in enumerate(mesh.cells):
        spec[f"cells|{k}|{b.type}"] = np.asarray(b.data)
    for n, a in mesh.point_data.items():
        spec[f"pd|{n}"] = np.asarray(a)
    for n, lst in mesh.cell_data.items():
        for k, a in enumerate(lst):
            spec[f"cd|{n}|{k}"] = np.asarray(a)
    npz = str(path) + ".spec.npz"
    np.savez(npz, **spec)
    _run("write", fmt, path, npz, json.dumps(kwargs))
    return path


def assert_same(a: mio.Mesh, b: mio.Mesh, point_data=True, cell_data=True):
    """Same points, blocks, and data arrays (values, dtypes and shapes)."""
    np.testing.assert_array_equal(np.asarray(a.points), np.asarray(b.points))
    assert [(c.type, np.asarray(c.data).tolist()) for c in a.cells] == [(c.type, np.asarray(c.data).tolist()) for c in b.cells]
    if point_data:
        assert sorted(a.point_data) == sorted(b.point_data)
        for k in a.point_data:
            x, y = np.asarray(a.point_data[k]), np.asarray(b.point_data[k])
            assert (x.dtype, x.shape) == (y.dtype, y.shape), k
            np.testing.assert_array_equal(x, y)
    if cell_data:
        assert sorted(a.cell_data) == sorted(b.cell_data)
        for k in a.cell_data:
            for x, y in zip(a.cell_data[k], b.cell_data[k]):
                assert (np.asarray(x).dtype, np.asarray(x).shape) == (np.asarray(y).dtype, np.asarray(y).shape), k
                np.testing.assert_array_equal(x, y)


def _points(n=12, dim=3):
    rng = np.random.default_rng(n + dim)
    return rng.random((n, dim))


def mixed_mesh(dim=3):
    """Blocks of every linear type H5M holds, each type once (H5M keeps one table per type),
    in an order that is not name order; point data of four dtypes and shapes."""
    pts = _points(12, dim)
    cells = [
        ("tetra", np.array([[0, 1, 2, 3], [4, 5, 6, 7]])),
        ("triangle", np.array([[0, 1, 2], [2, 3, 4], [5, 6, 7]])),
        ("hexahedron", np.array([[0, 1, 2, 3, 4, 5, 6, 7]])),
        ("line", np.array([[8, 9], [10, 11]])),
        ("quad", np.array([[0, 1, 2, 3]])),
        ("wedge", np.array([[0, 1, 2, 3, 4, 5]])),
        ("pyramid", np.array([[0, 1, 2, 3, 11]])),
    ]
    pd = {"T": pts[:, 0] * 2.0, "i32": np.arange(12, dtype=np.int32) - 5,
          "vec": (np.arange(36, dtype=np.float32) / 7).reshape(12, 3), "u8": np.arange(12, dtype=np.uint8)}
    return mio.Mesh(pts, cells, point_data=pd)


MESHES = {
    "mixed": mixed_mesh(),
    "mixed_2d_points": mio.Mesh(_points(5, 2), [("triangle", np.array([[0, 1, 2], [2, 3, 4]]))],
                                point_data={"pair": np.arange(10, dtype=np.int64).reshape(5, 2)}),
    "tet": mio.Mesh(_points(5), [("tetra", np.array([[0, 1, 2, 3], [1, 2, 3, 4]]))]),
}


def _with_global_ids(mesh, dtype=np.int32):
    out = mio.Mesh(mesh.points, mesh.cells, point_data=dict(mesh.point_data), cell_data=dict(mesh.cell_data))
    out.point_data["GLOBAL_ID"] = np.arange(1, len(mesh.points) + 1, dtype=dtype)
    return out


@pytest.mark.parametrize("name", list(MESHES))
@pytest.mark.parametrize("compression", ["gzip", None])
def test_meshio_reads_what_we_write(tmp_path, name, compression):
    mesh = MESHES[name]
    path = tmp_path / "ours.h5m"
    mio.write(path, mesh, compression=compression)
    theirs = meshio_read(path, "h5m")
    # meshio takes the groups in name order; ours are in id (written) order.
    expected = _with_global_ids(mesh)
    order = sorted(range(len(mesh.cells)), key=lambda k: {"line": "Edge2", "triangle": "Tri3", "quad": "Quad4",
                   "tetra": "Tet4", "pyramid": "Pyramid5", "wedge": "Prism6", "hexahedron": "Hex8"}[mesh.cells[k].type])
    expected.cells = [expected.cells[k] for k in order]
    assert_same(expected, theirs, cell_data=False)
    assert_same(_with_global_ids(mesh), mio.read(path), cell_data=False)


@pytest.mark.parametrize("name", list(MESHES))
def test_we_read_what_meshio_writes(tmp_path, name):
    mesh = MESHES[name]
    # meshio's writer writes lines, triangles and tetrahedra only (and no cell data).
    kept = mio.Mesh(mesh.points, [b for b in mesh.cells if b.type in ("line", "triangle", "tetra")],
                    point_data=mesh.point_data)
    path = meshio_write(tmp_path / "theirs.h5m", kept, "h5m")
    ours = mio.read(path)
    assert_same(_with_global_ids(kept, np.int64), ours)  # meshio's GLOBAL_ID is int64
    theirs = meshio_read(path, "h5m")
    assert sorted((b.type, np.asarray(b.data).tolist()) for b in ours.cells) == \
        sorted((b.type, np.asarray(b.data).tolist()) for b in theirs.cells)


def test_cell_data_round_trips_where_meshio_has_none(tmp_path):
    mesh = mixed_mesh()
    mesh.cell_data = {"c": [np.arange(len(b.data), dtype=np.float64) + k for k, b in enumerate(mesh.cells)],
                      "ids": [np.full((len(b.data), 2), k, dtype=np.int16) for k, b in enumerate(mesh.cells)]}
    path = tmp_path / "cd.h5m"
    mio.write(path, mesh, add_global_ids=False)
    assert_same(mesh, mio.read(path))
    # meshio reads the file (and no cell data).
    theirs = meshio_read(path, "h5m")
    assert theirs.cell_data == {}
    assert len(theirs.cells) == len(mesh.cells)


def test_fixtures_read_as_meshio_reads_them():
    path = DATA / "meshio_tri_tet.h5m"
    ours = mio.read(path)
    theirs = meshio_read(path, "h5m")  # meshio: name order Edge2, Tet4, Tri3
    assert [b.type for b in ours.cells] == ["triangle", "tetra", "line"]
    assert sorted((b.type, np.asarray(b.data).tolist()) for b in ours.cells) == \
        sorted((b.type, np.asarray(b.data).tolist()) for b in theirs.cells)
    for k in theirs.point_data:
        np.testing.assert_array_equal(ours.point_data[k], theirs.point_data[k])
        assert ours.point_data[k].dtype == theirs.point_data[k].dtype


def test_moab_layout_fixture(recwarn):
    mesh = mio.read(DATA / "moab_layout.h5m")
    assert [b.type for b in mesh.cells] == ["quad", "hexahedron"]
    assert mesh.point_data["VEL"].shape == (12, 3)
    np.testing.assert_array_equal(mesh.point_data["VEL"], mesh.points * 10)
    assert [a.tolist() for a in mesh.cell_data["GLOBAL_ID"]] == [[1, 2], [3, 4]]
    assert any("poly_indices" in str(w.message) for w in recwarn)


def test_the_layout_moab_requires(tmp_path):
    """Checked with h5dump (hdf5-tools): the groups MOAB's mhdf_openFile requires, start_id
    on every table, max_id, the element_type enum, each tag declared with a committed type."""
    path = tmp_path / "l.h5m"
    mio.write(path, mixed_mesh())
    dump = subprocess.run(["h5dump", "-A", str(path)], capture_output=True, text=True, check=True).stdout
    for needle in ['GROUP "sets"', 'DATATYPE "elemtypes"', 'ATTRIBUTE "max_id"', 'ATTRIBUTE "element_type"',
                   'DATATYPE "type"', 'ATTRIBUTE "class"', 'DATASET "history"', '"Hex"              9']:
        assert needle in dump, needle
    assert dump.count('ATTRIBUTE "start_id"') == 1 + len(mixed_mesh().cells)
    header = subprocess.run(["h5dump", "-a", "/tstt/max_id", str(path)], capture_output=True, text=True, check=True).stdout
    assert "H5T_STD_U64LE" in header and f"{12 + 2 + 3 + 1 + 2 + 1 + 1 + 1 + 1}" in header


def test_options_and_losses(tmp_path):
    mesh = mixed_mesh()
    mesh.cells.append(mio.CellBlock("vertex", np.array([[0], [1]])))
    mesh.field_data = {"f": np.array([1.0])}
    with pytest.warns(UserWarning, match="'vertex' skipped"):
        mio.write(tmp_path / "v.h5m", mesh, add_global_ids=False)
    assert "GLOBAL_ID" not in mio.read(tmp_path / "v.h5m").point_data
    with pytest.raises(ValueError, match="compression 'lzf' is not supported"):
        mio.write(tmp_path / "x.h5m", mixed_mesh(), compression="lzf")
    assert not (tmp_path / "x.h5m").exists()


@pytest.mark.parametrize("edit, message", [
    ("del f['tstt/nodes/coordinates']", r"dataset /tstt/nodes/coordinates: no such dataset"),
    ("c = f['tstt/elements/Tet4/connectivity']; c[0, 0] = 99", r"dataset /tstt/elements/Tet4/connectivity, element 0: node id 99 is no node"),
    ("del f['tstt']", r"no group /tstt"),
    ("f['tstt/nodes/tags/short'] = [1.0, 2.0]", r"dataset /tstt/nodes/tags/short: expected 5 rows"),
])
def test_bad_files_name_the_dataset(tmp_path, edit, message):
    path = tmp_path / "bad.h5m"
    mio.write(path, MESHES["tet"])
    subprocess.run(["/usr/bin/python3", "-c", f"import h5py\nwith h5py.File({str(path)!r}, 'r+') as f:\n    {edit}"], check=True)
    with pytest.raises(mio.ReadError, match=message) as e:
        mio.read(path)
    assert "bad.h5m" in str(e.value)


def test_the_same_mesh_gives_the_same_bytes(tmp_path):
    mio.write(tmp_path / "a.h5m", mixed_mesh())
    mio.write(tmp_path / "b.h5m", mixed_mesh())
    assert (tmp_path / "a.h5m").read_bytes() == (tmp_path / "b.h5m").read_bytes()
