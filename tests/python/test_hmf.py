"""HMF (meshio's HDF5 layout, docs/formats/hmf.md) against meshio 5.0.0, the format's only
other implementation: meshio reads every file we write and we read every file meshio
writes, to the same arrays (mixed cell types, point and cell data of several dtypes and
shapes, gzip or not); the fixtures (tests/data/hmf/, meshio-written) read as meshio reads
them; where meshio loses blocks (two of one type, or more than ten blocks, which it takes in
name order) meshio++ keeps them. meshio runs in a subprocess (test_h5m.meshio_read /
meshio_write: one HDF5 library per process)."""
from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

import meshioplusplus as mio
from test_h5m import assert_same, meshio_read, meshio_write

pytest.importorskip("meshio", reason="meshio 5.0.0 (python3-meshio) is the oracle")

DATA = Path(__file__).resolve().parent.parent / "data" / "hmf"


def _mesh(cells, dim=3, seed=0):
    rng = np.random.default_rng(seed)
    n = 1 + max(int(np.max(c)) for _, c in cells)
    pts = rng.random((n, dim))
    pd = {"T": pts[:, 0] * 2.0, "i32": np.arange(n, dtype=np.int32) - 5,
          "vec": (np.arange(3 * n, dtype=np.float32) / 7).reshape(n, 3),
          "tensor": np.arange(9 * n, dtype=np.float64).reshape(n, 3, 3)}
    cd = {"c": [np.arange(len(c), dtype=np.float64) + k for k, (_, c) in enumerate(cells)],
          "id": [np.full((len(c), 2), k, dtype=np.int64) for k, (_, c) in enumerate(cells)],
          "u16": [np.arange(len(c), dtype=np.uint16) for _, c in cells]}
    return mio.Mesh(pts, cells, point_data=pd, cell_data=cd)


MESHES = {
    "mixed": _mesh([("triangle", np.array([[0, 1, 2], [2, 3, 4]])), ("tetra", np.array([[0, 1, 2, 5], [1, 2, 5, 6]])),
                    ("line", np.array([[7, 8]])), ("quad", np.array([[0, 1, 2, 3]])), ("hexahedron", np.arange(8)[None]),
                    ("wedge", np.arange(6)[None]), ("pyramid", np.arange(5)[None]), ("vertex", np.array([[3], [4]]))]),
    "quadratic": _mesh([("triangle6", np.arange(6)[None]), ("tetra10", np.arange(10)[None]), ("quad8", np.arange(8)[None]),
                        ("hexahedron20", np.arange(20)[None]), ("line3", np.array([[0, 1, 2]]))]),
    "flat": _mesh([("triangle", np.array([[0, 1, 2]])), ("quad", np.array([[0, 1, 2, 3]]))], dim=2),
}


@pytest.mark.parametrize("name", list(MESHES))
@pytest.mark.parametrize("compression", ["gzip", None])
def test_meshio_reads_what_we_write(tmp_path, name, compression):
    path = tmp_path / "ours.hmf"
    mio.write(path, MESHES[name], compression=compression)
    assert_same(MESHES[name], mio.read(path))
    # meshio 5.0.0's reader cannot read cell data at all (it splits them by the lengths of
    # its dict's keys, the type names): it reads our file without them.
    bare = mio.Mesh(MESHES[name].points, MESHES[name].cells, point_data=MESHES[name].point_data)
    mio.write(path, bare, compression=compression)
    assert_same(bare, meshio_read(path, "hmf"))


@pytest.mark.parametrize("name", list(MESHES))
@pytest.mark.parametrize("compression", ["gzip", None])
def test_we_read_what_meshio_writes(tmp_path, name, compression):
    path = meshio_write(tmp_path / "theirs.hmf", MESHES[name], "hmf", compression=compression,
                        compression_opts=4 if compression else None)
    assert_same(MESHES[name], mio.read(path))
    bare = mio.Mesh(MESHES[name].points, MESHES[name].cells, point_data=MESHES[name].point_data)
    path = meshio_write(tmp_path / "bare.hmf", bare, "hmf", compression=compression, compression_opts=4 if compression else None)
    assert_same(meshio_read(path, "hmf"), mio.read(path))


@pytest.mark.parametrize("name", ["meshio_mixed.hmf", "meshio_plain.hmf"])
def test_fixtures_read_as_meshio_wrote_them(name):
    # meshio 5.0.0 cannot read its own files with cell data (see above); ours are its input.
    mesh = mio.read(DATA / name)
    assert [b.type for b in mesh.cells] == ["triangle", "quad", "tetra", "line"]
    assert [a.tolist() for a in mesh.cell_data["id"]] == [[1, 2], [3], [4], [5]]
    assert mesh.point_data["tensor"].shape == (5, 3, 3) and mesh.point_data["pair"].dtype == np.int32
    with pytest.raises(AssertionError, match="Incompatible cell data"):
        meshio_read(DATA / name, "hmf")


def test_blocks_meshio_loses_are_kept(tmp_path):
    # Two triangle blocks (meshio keeps the last) and eleven blocks (meshio takes Topology10
    # before Topology2): meshio++ reads every block in order, with its cell data.
    cells = [("triangle" if k % 2 else "line", np.array([[k % 5, (k + 1) % 5, (k + 2) % 5]] if k % 2 else [[k % 5, (k + 1) % 5]]))
             for k in range(11)]
    mesh = _mesh(cells)
    path = meshio_write(tmp_path / "many.hmf", mesh, "hmf")
    assert_same(mesh, mio.read(path))
    bare = meshio_write(tmp_path / "bare.hmf", mio.Mesh(mesh.points, mesh.cells), "hmf")
    assert len(meshio_read(bare, "hmf").cells) == 2  # meshio: one block per type (its cell data would not split)
    assert len(mio.read(bare).cells) == 11


def test_losses_are_warnings_and_impossible_blocks_write_errors(tmp_path):
    mesh = MESHES["mixed"]
    mesh = mio.Mesh(mesh.points, mesh.cells, point_data=mesh.point_data, cell_data=mesh.cell_data,
                    field_data={"f": np.array([1.0])})
    with pytest.warns(UserWarning, match="field data is not written"):
        mio.write(tmp_path / "f.hmf", mesh)
    (tmp_path / "keep.hmf").write_bytes(b"old")
    poly = mio.Mesh(np.random.default_rng(0).random((6, 3)), [("polygon", [np.array([0, 1, 2]), np.array([1, 2, 3, 4])])])
    with pytest.raises(mio.WriteError, match="rows of different lengths"):
        mio.write(tmp_path / "keep.hmf", poly)
    assert (tmp_path / "keep.hmf").read_bytes() == b"old"
    with pytest.raises(ValueError, match="compression_opts must be 0..9"):
        mio.write(tmp_path / "x.hmf", MESHES["flat"], compression_opts=11)


@pytest.mark.parametrize("edit, message", [
    ("f.attrs['version'] = '0.2'", r"attribute version of /: expected 0.1-alpha, found '0.2'"),
    ("del f.attrs['type']", r"no attribute type on /"),
    ("del f['domain/grid/Geometry']", r"dataset /domain/grid/Geometry: no such dataset"),
    ("t = f['domain/grid/Topology0']; t[0, 0] = 99", r"dataset /domain/grid/Topology0, cell 0: point index 99 out of range"),
    ("f['domain/grid/NodeAttributes/short'] = [1.0]", r"dataset /domain/grid/NodeAttributes/short: expected \d+ rows"),
])
def test_bad_files_name_the_dataset(tmp_path, edit, message):
    path = tmp_path / "bad.hmf"
    mio.write(path, MESHES["flat"], compression=None)
    subprocess.run(["/usr/bin/python3", "-c", f"import h5py\nwith h5py.File({str(path)!r}, 'r+') as f:\n    {edit}"], check=True)
    with pytest.raises(mio.ReadError, match=message) as e:
        mio.read(path)
    assert "bad.hmf" in str(e.value)


def test_the_same_mesh_gives_the_same_bytes(tmp_path):
    mio.write(tmp_path / "a.hmf", MESHES["mixed"])
    mio.write(tmp_path / "b.hmf", MESHES["mixed"])
    assert (tmp_path / "a.hmf").read_bytes() == (tmp_path / "b.hmf").read_bytes()
