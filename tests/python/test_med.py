"""MED (Salome / code_aster's HDF5 format) against meshio 5.0.0 and MED-fichier 4.1's own
tools: meshio reads every file we write and gives our arrays (points, cells, data,
point_tags / cell_tags and the groups of each family); we read meshio-written files and
give what meshio's reader gives; libmed's mdump and medconforme accept our files; a file
written by libmed itself (tests/data/med/make_libmed_fixture.c) reads with its two meshes,
families, groups and fields at two steps. meshio runs in a subprocess: it reads MED with
h5py, and h5py and meshio++ each hold the HDF5 library's global state."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import meshioplusplus as mio

DATA = Path(__file__).resolve().parents[1] / "data" / "med"

# meshio's reading of a MED file, as an npz of arrays and a JSON of the rest.
_MESHIO_READ = r"""
import json, sys, numpy as np, meshio
m = meshio.read(sys.argv[1], file_format="med")
arrays = {"points": m.points}
for i, b in enumerate(m.cells):
    arrays[f"cells:{i}"] = b.data
for k, v in m.point_data.items():
    arrays[f"pd:{k}"] = v
for k, vs in m.cell_data.items():
    for i, v in enumerate(vs):
        arrays[f"cd:{k}:{i}"] = v
np.savez(sys.argv[2], **arrays)
meta = {"types": [b.type for b in m.cells], "point_tags": {str(k): v for k, v in m.point_tags.items()},
        "cell_tags": {str(k): v for k, v in m.cell_tags.items()}}
sys.stdout.write(json.dumps(meta))
"""

# meshio writes a mesh given as an npz (points, cells:<i>:<type>, pd:<name>, cd:<name>:<i>)
# and a JSON of point_tags / cell_tags.
_MESHIO_WRITE = r"""
import json, sys, numpy as np, meshio
z = np.load(sys.argv[2])
meta = json.loads(sys.argv[3])
cells = sorted((k for k in z.files if k.startswith("cells:")), key=lambda k: int(k.split(":")[1]))
pd = {k[3:]: z[k] for k in z.files if k.startswith("pd:")}
cd = {}
for k in sorted((k for k in z.files if k.startswith("cd:")), key=lambda k: int(k.rsplit(":", 1)[1])):
    cd.setdefault(k[3:].rsplit(":", 1)[0], []).append(z[k])
m = meshio.Mesh(z["points"], [(k.split(":")[2], z[k]) for k in cells], point_data=pd, cell_data=cd)
m.point_tags = {int(k): v for k, v in meta["point_tags"].items()}
m.cell_tags = {int(k): v for k, v in meta["cell_tags"].items()}
meshio.write(sys.argv[1], m, file_format="med")
"""


def meshio_read(path, tmp_path):
    npz = tmp_path / "meshio_read.npz"
    out = subprocess.run(["/usr/bin/python3", "-c", _MESHIO_READ, str(path), str(npz)], check=True,
                         capture_output=True, text=True, timeout=120).stdout
    meta = json.loads(out)
    z = np.load(npz)
    return meta, {k: z[k] for k in z.files}


def meshio_write(path, tmp_path, points, cells, point_data=None, cell_data=None, point_tags=None, cell_tags=None):
    arrays = {"points": np.asarray(points)}
    for i, (t, c) in enumerate(cells):
        arrays[f"cells:{i}:{t}"] = np.asarray(c)
    for k, v in (point_data or {}).items():
        arrays[f"pd:{k}"] = np.asarray(v)
    for k, vs in (cell_data or {}).items():
        for i, v in enumerate(vs):
            arrays[f"cd:{k}:{i}"] = np.asarray(v)
    npz = tmp_path / "meshio_write.npz"
    np.savez(npz, **arrays)
    meta = json.dumps({"point_tags": {str(k): v for k, v in (point_tags or {}).items()},
                       "cell_tags": {str(k): v for k, v in (cell_tags or {}).items()}})
    subprocess.run(["/usr/bin/python3", "-c", _MESHIO_WRITE, str(path), str(npz), meta], check=True,
                   capture_output=True, timeout=120)
    return path


def tagged_mesh():
    """Every type meshio maps but pyramid13 and wedge15 (meshio 5.0.0's Mesh has no topological
    dimension for them: meshio cannot read a file holding one, its own neither), point data (scalar, vector, ints), cell data (scalar, 2
    components, per cell node) and point / cell regions."""
    rng = np.random.default_rng(5)
    points = rng.random((30, 3))
    sizes = {"vertex": 1, "line": 2, "line3": 3, "triangle": 3, "triangle6": 6, "quad": 4, "quad8": 8, "tetra": 4,
             "tetra10": 10, "hexahedron": 8, "hexahedron20": 20, "pyramid": 5, "wedge": 6}
    cells = [(t, rng.integers(0, 30, size=(2 + i % 3, k))) for i, (t, k) in enumerate(sizes.items())]
    mesh = mio.Mesh(points, cells,
                    point_data={"t": np.linspace(0, 1, 30), "u": rng.random((30, 3)), "ids": np.arange(30, dtype=np.int32)},
                    cell_data={"rho": [rng.random(len(c)) for _, c in cells],
                               "v": [rng.random((len(c), 2)) for _, c in cells]})
    mesh.point_sets = {"inlet": np.array([0, 1, 2, 7]), "wall": np.array([2, 3, 29])}
    mesh.cell_sets = {"fluid": [np.array([0, 1]) if i % 2 else np.array([], dtype=int) for i in range(len(cells))],
                      "hot side": [np.array([1]) if i == 3 else np.array([], dtype=int) for i in range(len(cells))]}
    return mesh


def by_type(mesh):
    return {b.type: i for i, b in enumerate(mesh.cells)}


def test_meshio_reads_what_we_write(tmp_path):
    mesh = tagged_mesh()
    path = tmp_path / "ours.med"
    mio.write(path, mesh)
    meta, arrays = meshio_read(path, tmp_path)
    np.testing.assert_array_equal(arrays["points"], mesh.points)
    ours = by_type(mesh)
    assert sorted(meta["types"]) == sorted(ours)
    for i, t in enumerate(meta["types"]):
        np.testing.assert_array_equal(arrays[f"cells:{i}"], mesh.cells[ours[t]].data)
        np.testing.assert_array_equal(arrays[f"cd:rho:{i}"], mesh.cell_data["rho"][ours[t]])
        np.testing.assert_array_equal(arrays[f"cd:v:{i}"], mesh.cell_data["v"][ours[t]])
    for name in ("t", "u", "ids"):
        np.testing.assert_array_equal(arrays[f"pd:{name}"], mesh.point_data[name])
    # meshio's point_tags / cell_tags: each family's groups; the per-entity numbers select them.
    tags = arrays["pd:point_tags"]
    groups_of_point = lambda i: set(meta["point_tags"].get(str(tags[i]), []))  # noqa: E731
    assert groups_of_point(2) == {"inlet", "wall"}
    assert groups_of_point(0) == groups_of_point(7) == {"inlet"}
    assert groups_of_point(29) == {"wall"}
    assert groups_of_point(5) == set() and tags[5] == 0
    for i, t in enumerate(meta["types"]):
        block = ours[t]
        got = [set(meta["cell_tags"].get(str(v), [])) for v in arrays[f"cd:cell_tags:{i}"]]
        want = [{name for name, sets in mesh.cell_sets.items() if c in sets[block]} for c in range(len(mesh.cells[block]))]
        assert got == want, t


def test_per_cell_node_values_round_trip_and_meshio_reads_them(tmp_path):
    mesh = mio.Mesh(np.eye(3), [("triangle", [[0, 1, 2]]), ("line", [[0, 1], [1, 2]])],
                    cell_data={"elno": [np.arange(6.0).reshape(1, 3, 2), np.arange(8.0).reshape(2, 2, 2)]})
    path = tmp_path / "elno.med"
    mio.write(path, mesh)
    got = mio.read(path)
    meta, arrays = meshio_read(path, tmp_path)
    for i, t in enumerate(meta["types"]):
        want = mesh.cell_data["elno"][by_type(mesh)[t]]
        np.testing.assert_array_equal(got.cell_data["elno"][by_type(got)[t]], want)
        np.testing.assert_array_equal(arrays[f"cd:elno:{i}"], want)


def assert_same_as_meshio(path, tmp_path, **options):
    meta, arrays = meshio_read(path, tmp_path)
    ours = mio.read(path, **options)
    np.testing.assert_array_equal(ours.points, arrays["points"])
    assert [b.type for b in ours.cells] == meta["types"]
    for i, b in enumerate(ours.cells):
        np.testing.assert_array_equal(b.data, arrays[f"cells:{i}"])
    pd = {k[3:] for k in arrays if k.startswith("pd:")}
    assert set(ours.point_data) == pd
    for k in pd:
        np.testing.assert_array_equal(ours.point_data[k], arrays[f"pd:{k}"])
    cd = {k[3:].rsplit(":", 1)[0] for k in arrays if k.startswith("cd:")}
    assert set(ours.cell_data) == cd
    for k in cd:
        for i, v in enumerate(ours.cell_data[k]):
            np.testing.assert_array_equal(v, arrays[f"cd:{k}:{i}"])
    # meshio's family -> groups tables are our regions: each group holds the entities of
    # the families that list it.
    for kind, tags_name, table in (("point", "point_tags", meta["point_tags"]), ("cell", "cell_tags", meta["cell_tags"])):
        if tags_name == "point_tags":
            numbers = ours.point_data.get("point_tags", np.zeros(0, dtype=int))
        else:
            numbers = np.concatenate(ours.cell_data["cell_tags"]) if "cell_tags" in ours.cell_data else np.zeros(0, dtype=int)
        groups = {g for names in table.values() for g in names}
        regions = {r.name: r for r in ours.regions if r.kind == kind}
        assert set(regions) == groups
        for g in groups:
            fams = [int(f) for f, names in table.items() if g in names]
            np.testing.assert_array_equal(regions[g].entries, np.flatnonzero(np.isin(numbers, fams)))
    return ours


def test_we_read_the_meshio_written_fixture_as_meshio_does(tmp_path):
    ours = assert_same_as_meshio(DATA / "meshio_mixed.med", tmp_path)
    assert {r.name for r in ours.regions} == {"bottom", "top", "skin", "volume", "solid part"}


def test_we_read_files_meshio_writes_now_as_meshio_does(tmp_path):
    mesh = tagged_mesh()
    point_tags = np.where(np.arange(30) % 3 == 0, 1, 0) + np.where(np.arange(30) % 5 == 0, 2, 0)
    cell_tags = [np.full(len(b.data), -1 - (i % 2)) for i, b in enumerate(mesh.cells)]
    path = meshio_write(tmp_path / "meshio.med", tmp_path, mesh.points, [(b.type, b.data) for b in mesh.cells],
                        point_data={"point_tags": point_tags, "u": mesh.point_data["u"]},
                        cell_data={"cell_tags": cell_tags, "rho": mesh.cell_data["rho"]},
                        point_tags={1: ["a"], 2: ["b"], 3: ["a", "b"]}, cell_tags={-1: ["odd"], -2: ["even", "all"]})
    ours = assert_same_as_meshio(path, tmp_path)
    assert len(ours.cells) == 13


def test_our_files_survive_a_med_to_med_round_trip_through_meshio_reading(tmp_path):
    path = tmp_path / "a.med"
    mio.write(path, mio.read(DATA / "libmed_two_meshes.med", mesh="plate", step=-1))
    assert_same_as_meshio(path, tmp_path)


needs_med_tools = pytest.mark.skipif(shutil.which("mdump") is None or shutil.which("medconforme") is None,
                                     reason="MED-fichier's mdump and medconforme (Debian libmed-tools) are the oracles")


@needs_med_tools
def test_mdump_and_medconforme_accept_our_files(tmp_path):
    path = tmp_path / "ours.med"
    mio.write(path, tagged_mesh())
    conform = subprocess.run(["medconforme", str(path)], capture_output=True, text=True, timeout=60)
    assert conform.returncode == 0, conform.stdout + conform.stderr
    assert "conforme" in conform.stdout and "non conforme" not in conform.stdout.lower()
    # mdump asks (nodal connectivity, summary off, mesh 1) on stdin.
    dump = subprocess.run(["mdump", str(path)], input="1\n1\n1\n", capture_output=True, text=True, timeout=60)
    assert dump.returncode == 0, dump.stdout[-2000:] + dump.stderr[-2000:]
    assert "ERREUR" not in dump.stdout + dump.stderr
    assert "FIN DU DUMP" in dump.stdout
    for group in ("inlet", "wall", "fluid", "hot side"):
        assert group in dump.stdout
    for field in ("|t|", "|u|", "|rho|", "|v|"):
        assert field in dump.stdout


def test_the_libmed_written_fixture(tmp_path):
    m = mio.med.read(DATA / "libmed_two_meshes.med")
    assert [b.type for b in m.cells] == ["quad", "triangle"]
    np.testing.assert_array_equal(m.point_data["point_tags"], [1, 0, 2, 1, 0, 2])
    assert sorted(m.point_sets) == ["corner", "left", "right"]
    assert sorted(m.cell_sets) == ["quads", "right", "tris"]
    assert sorted(m.point_data) == ["disp[0] - 0", "disp[1] - 0.5", "point_tags"]
    np.testing.assert_array_equal(m.cell_data["pressure[1] - 0.5"][1], [2.0, 3.0])
    np.testing.assert_array_equal(m.field_data["med:time:pressure"], [0.0, 0.5])
    last = mio.read(DATA / "libmed_two_meshes.med", step=-1)
    np.testing.assert_array_equal(last.point_data["disp"][:, 0], [10, 11, 12, 13, 14, 15])
    solid = mio.med.read(DATA / "libmed_two_meshes.med", mesh="solid")
    np.testing.assert_array_equal(solid.point_data["temperature"], [100, 200, 300, 400])
    with pytest.raises(mio.ReadError, match=r"no such mesh; the file holds 'plate', 'solid'"):
        mio.read(DATA / "libmed_two_meshes.med", mesh="fluid")


@pytest.mark.skipif(not Path("/usr/include/med.h").exists() or shutil.which("cc") is None,
                    reason="rebuilding the libmed fixture needs libmedc-dev and a C compiler")
def test_the_libmed_fixture_program_makes_the_committed_fixture(tmp_path):
    exe = tmp_path / "make_libmed_fixture"
    subprocess.run(["cc", "-I/usr/lib/x86_64-linux-gnu/openmpi/include", "-I/usr/include/hdf5/openmpi",
                    str(DATA / "make_libmed_fixture.c"), "-lmedC", "-o", str(exe)], check=True, timeout=120)
    subprocess.run([str(exe), str(tmp_path / "fresh.med")], check=True, timeout=60)
    for mesh in ("plate", "solid"):
        a, b = mio.read(tmp_path / "fresh.med", mesh=mesh), mio.read(DATA / "libmed_two_meshes.med", mesh=mesh)
        np.testing.assert_array_equal(a.points, b.points)
        assert sorted(a.point_data) == sorted(b.point_data)
        for k in a.point_data:
            np.testing.assert_array_equal(a.point_data[k], b.point_data[k])


def test_bad_options_and_bad_files(tmp_path):
    with pytest.raises(ValueError, match="stepp"):
        mio.read(DATA / "libmed_two_meshes.med", stepp=1)
    bad = tmp_path / "bad.med"
    bad.write_bytes((DATA / "meshio_mixed.med").read_bytes()[:3000])
    with pytest.raises(mio.ReadError, match="bad.med"):
        mio.read(bad)
    mesh = mio.Mesh(np.zeros((3, 3)), [("triangle", [[0, 1, 2]]), ("triangle", [[0, 1, 2]])])
    with pytest.raises(mio.WriteError, match="one block per cell type"):
        mio.write(tmp_path / "two.med", mesh)
    assert not (tmp_path / "two.med").exists()
