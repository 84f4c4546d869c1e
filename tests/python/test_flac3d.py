"""FLAC3D grid: checked against meshio both ways, ASCII and binary (meshio reads our files as
it reads its own, we read its files as it does; its binary file and ours are byte-identical),
on meshes gmsh makes at test time from the .geo files in tests/data/gmsh/ (tetrahedra;
wedges and hexahedra), plus faces and face groups (meshio reads them; its writer cannot
write them) and the hand-made fixtures of tests/data/flac3d/.

meshio 5.0 keeps a group's members as global cell indices inside each block's array; we
hold them block-local, as every other format does (docs/formats/flac3d.md): the comparisons
below turn meshio's into global indices.
"""
from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

import helpers
import meshioplusplus as mio

meshio = pytest.importorskip("meshio", reason="python3-meshio (Debian) is the peer of these tests")

GEO = Path(__file__).resolve().parents[1] / "data" / "gmsh"
DATA = Path(__file__).resolve().parents[1] / "data" / "flac3d"
SOURCES = {"box3d": ("box3d.geo", ["-3"]), "extruded": ("extruded.geo", ["-3"])}
ZONES = {"tetra", "pyramid", "wedge", "hexahedron"}


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """{name: msh path}, made by the gmsh program."""
    return helpers.gmsh_msh_files(tmp_path_factory.mktemp("flac3d_gmsh"), SOURCES, GEO)


quiet = helpers.quiet


def zones_with_sets(lib, msh):
    """The gmsh mesh's volume cells, with two cell sets (meshio's writer takes zones only)."""
    m = quiet(meshio.read, msh)
    cells = [(c.type, c.data) for c in m.cells if c.type in ZONES]
    sets = {"even": [np.arange(0, len(d), 2) for _, d in cells], "first": [np.arange(min(3, len(d))) for _, d in cells]}
    return lib.Mesh(m.points, cells, cell_sets=sets)


@helpers.needs_gmsh_program
@pytest.mark.parametrize("binary", [False, True])
@pytest.mark.parametrize("name", sorted(SOURCES))
def test_meshio_reads_ours_and_we_read_meshios(made, tmp_path, name, binary):
    quiet(meshio.write, tmp_path / "theirs.f3grid", zones_with_sets(meshio, made[name]), binary=binary)
    mio.write(tmp_path / "ours.f3grid", zones_with_sets(mio, made[name]), binary=binary)
    if binary:
        assert (tmp_path / "ours.f3grid").read_bytes() == (tmp_path / "theirs.f3grid").read_bytes()
    reference = quiet(meshio.read, tmp_path / "theirs.f3grid")
    for back, ours in ((quiet(meshio.read, tmp_path / "ours.f3grid"), False), (mio.read(tmp_path / "theirs.f3grid"), True)):
        np.testing.assert_array_equal(back.points, reference.points)
        assert [c.type for c in back.cells] == [c.type for c in reference.cells]
        for a, b in zip(back.cells, reference.cells):
            np.testing.assert_array_equal(a.data, b.data)
        for a, b in zip(back.cell_data["cell_ids"], reference.cell_data["cell_ids"]):
            np.testing.assert_array_equal(a, b)
        assert list(back.cell_sets) == list(reference.cell_sets) == (["zone:even:Default", "zone:first:Default"] if binary
                                                                      else ["zone:even:1", "zone:first:1"])
        bases = np.cumsum([0] + [len(c.data) for c in back.cells])
        for key in reference.cell_sets:
            got = [np.asarray(v) + (bases[i] if ours else 0) for i, v in enumerate(back.cell_sets[key])]
            for x, y in zip(got, reference.cell_sets[key]):
                np.testing.assert_array_equal(x, y)


def test_faces_and_face_groups_meshio_reads(tmp_path):
    points = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0]], dtype=float)
    mesh = mio.Mesh(points, [("tetra", [[0, 1, 2, 3]]), ("triangle", [[0, 1, 2], [0, 1, 3]]), ("quad", [[0, 1, 4, 2]])],
                    cell_sets={"bc": [np.array([], int), np.array([1]), np.array([0])], "vol": [np.array([0]), np.array([], int), np.array([], int)]})
    for binary in (False, True):
        mio.write(tmp_path / "f.f3grid", mesh, binary=binary)
        theirs = quiet(meshio.read, tmp_path / "f.f3grid")
        ours = mio.read(tmp_path / "f.f3grid")
        slot = "Default" if binary else "1"
        for m in (theirs, ours):
            assert [c.type for c in m.cells] == ["triangle", "quad", "tetra"]  # faces first
            assert [c.data.tolist() for c in m.cells] == [[[0, 1, 2], [0, 1, 3]], [[0, 1, 4, 2]], [[0, 1, 2, 3]]]
            assert sorted(m.cell_sets) == [f"face:bc:{slot}", f"zone:vol:{slot}"]
        assert [v.tolist() for v in ours.cell_sets[f"face:bc:{slot}"]] == [[1], [0], []]
        assert [v.tolist() for v in theirs.cell_sets[f"face:bc:{slot}"]] == [[1], [2], []]  # meshio: global indices
        assert [v.tolist() for v in ours.cell_sets[f"zone:vol:{slot}"]] == [[], [], [0]]


def test_zones_are_written_right_handed(tmp_path):
    """A mirrored tetrahedron is written in the mirrored FLAC3D order, as meshio writes it."""
    points = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=float)
    for row in ([0, 1, 2, 3], [0, 2, 1, 3]):
        mio.write(tmp_path / "o.f3grid", mio.Mesh(points, [("tetra", [row])]))
        quiet(meshio.write, tmp_path / "t.f3grid", meshio.Mesh(points, [("tetra", [row])]))
        z = lambda p: [line for line in p.read_text().splitlines() if line.startswith("Z ")]  # noqa: E731
        assert z(tmp_path / "o.f3grid") == z(tmp_path / "t.f3grid") == ["Z T4 1 1 2 3 4"]


def test_fixtures():
    with pytest.warns(UserWarning, match="record GPGROUP"):
        m = mio.read(DATA / "face_groups.f3grid")
    assert [c.type for c in m.cells] == ["triangle", "quad", "hexahedron", "wedge", "tetra", "pyramid", "hexahedron"]
    assert list(m.cell_sets) == ["face:top:bc", "zone:rock:1", "zone:soil layer:Default"]
    b = mio.read(DATA / "binary_with_faces.f3grid")
    theirs = meshio.read(DATA / "binary_with_faces.f3grid")
    assert [c.type for c in b.cells] == [c.type for c in theirs.cells]
    for x, y in zip(b.cells, theirs.cells):
        np.testing.assert_array_equal(x.data, y.data)


def test_writer_refuses_what_flac3d_cannot_hold(tmp_path):
    with pytest.raises(mio.WriteError, match="'tetra10'"):
        mio.write(tmp_path / "x.f3grid", mio.Mesh(np.random.rand(10, 3), [("tetra10", [list(range(10))])]))
    with pytest.raises(mio.WriteError, match="'line'"):
        mio.write(tmp_path / "x.f3grid", mio.Mesh(np.random.rand(2, 3), [("line", [[0, 1]])]))


def test_errors_name_file_and_line(tmp_path):
    bad = tmp_path / "bad.f3grid"
    bad.write_text("G 1 0 0 0\nG 2 0 zero 0\n")
    with pytest.raises(mio.ReadError, match=r"bad\.f3grid: line 2 .*expected a coordinate, found 'zero'"):
        mio.read(bad)


def _big_ascii(path, zones=30000):
    """An ASCII grid over 1 MB (read in pieces on several threads) whose awkward lines land
    everywhere: a group's member lines, a skipped record's number lines, G records after
    zones, comments and blank lines between records."""
    n = zones + 3
    points = np.round(np.random.default_rng(7).random((n, 3)), 6)
    lines = ["* big grid", ""]
    lines += [f"G {i + 1} {x:.6f} {y:.6f} {z:.6f}" for i, (x, y, z) in enumerate(points[: n // 2])]
    for z in range(zones):
        a = z % (n - 4) + 1
        kind = "T4" if z % 7 else "B8"
        ids = [a, a + 1, a + 2, a + 3] if kind == "T4" else [a, a + 1, a + 2, a + 3] * 2
        lines.append(f"Z {kind} {z + 1} " + " ".join(map(str, ids)))
        if z % 5000 == 17:
            lines += ["GPGROUP 'skipped' SLOT 1"] + [" ".join(map(str, range(1, 40)))] * 200
        if z % 9000 == 3:
            lines += [f"ZGROUP 'g{z}' SLOT 1"] + [" ".join(str(k) for k in range(1 + j, 9000, 97)[:20]) for j in range(300)]
    lines += [f"G {i + 1} {x:.6f} {y:.6f} {z:.6f}" for i, (x, y, z) in enumerate(points[n // 2:], start=n // 2)]
    lines += ["ZGROUP 'tail' SLOT 2"] + [" ".join(map(str, range(1, zones, 997)))] * 3
    path.write_text("\n".join(lines) + "\n")
    assert path.stat().st_size > 1 << 20
    return path, points


def test_ascii_read_in_pieces_equals_one_thread(tmp_path):
    path, points = _big_ascii(tmp_path / "big.f3grid")

    def read(threads):
        with pytest.warns(UserWarning) as seen:
            m = mio.read(path, threads=threads)
        return m, sorted(str(w.message) for w in seen)
    one, one_warnings = read(1)
    assert any("record GPGROUP (" in w and "the first at line" in w for w in one_warnings)
    np.testing.assert_array_equal(one.points, points)
    assert sum(len(c.data) for c in one.cells) == 30000
    assert {"zone:g3:1", "zone:g9003:1", "zone:tail:2"} <= set(one.cell_sets)
    for threads in (2, 3, 5, 16):
        m, w = read(threads)
        assert w == one_warnings
        np.testing.assert_array_equal(m.points, one.points)
        assert [c.type for c in m.cells] == [c.type for c in one.cells]
        for x, y in zip(m.cells, one.cells):
            np.testing.assert_array_equal(x.data, y.data)
        assert list(m.cell_sets) == list(one.cell_sets)
        for k in one.cell_sets:
            for x, y in zip(m.cell_sets[k], one.cell_sets[k]):
                np.testing.assert_array_equal(x, y)


def test_ascii_pieces_report_the_first_error(tmp_path):
    path, _ = _big_ascii(tmp_path / "big.f3grid")
    lines = path.read_text().splitlines()
    first, later = len(lines) // 3, 2 * len(lines) // 3
    lines[later] = "Z T4 1 2 3"
    lines[first] = "G 5 0 zero 0"
    path.write_text("\n".join(lines) + "\n")
    for threads in (1, 2, 4):
        with pytest.raises(mio.ReadError, match=rf"big\.f3grid: line {first + 1} "):
            mio.read(path, threads=threads)


def test_ascii_pieces_agree_with_one_thread_on_truncated_and_corrupted_files(tmp_path):
    """Cut or damaged anywhere (inside a group's member lines, a skipped record's numbers,
    a zone line), a large file reads to the same mesh and warnings, or the same error, on 1
    and on several threads."""
    path, _ = _big_ascii(tmp_path / "big.f3grid")
    data = path.read_bytes()
    rng = np.random.default_rng(11)
    damaged = tmp_path / "damaged.f3grid"

    def outcome(threads):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            try:
                m = mio.read(damaged, threads=threads)
            except mio.ReadError as e:
                return ("error", str(e))
        return ("mesh", len(m.points), [(c.type, c.data.tobytes()) for c in m.cells],
                {k: [a.tobytes() for a in v] for k, v in m.cell_sets.items()}, sorted(str(w.message) for w in seen))

    for k in range(12):
        at = int(rng.integers(1 << 20, len(data)))
        if k % 2:
            damaged.write_bytes(data[:at])
        else:
            damaged.write_bytes(data[:at] + b"#" + data[at + 1:])
        assert outcome(4) == outcome(1), at


def test_binary_zones_of_one_size_read_on_several_threads_as_on_one(tmp_path):
    """A binary section whose records are all of one size is decoded on several threads;
    a record of another size, an unknown gridpoint or an impossible count anywhere gives the
    mesh or the error one thread gives."""
    rng = np.random.default_rng(3)
    points = rng.random((20000, 3))
    tets = rng.integers(0, len(points), size=(70000, 4))
    path = tmp_path / "big.f3grid"
    mio.write(path, mio.Mesh(points, [("tetra", tets)], cell_sets={"some": [np.arange(0, 70000, 7)]}), binary=True)
    data = bytearray(path.read_bytes())

    def outcome(blob):
        path.write_bytes(bytes(blob))
        out = []
        for threads in (1, 4):
            try:
                m = quiet(mio.read, path, threads=threads)
                out.append(("mesh", m.points.tobytes(), [(c.type, c.data.tobytes()) for c in m.cells],
                            [c.tobytes() for c in m.cell_data["cell_ids"]]))
            except mio.ReadError as e:
                out.append(("error", str(e)))
        return out

    one, four = outcome(data)
    assert one == four and one[0] == "mesh"
    zones_at = 12 + 28 * len(points) + 4  # the first zone record: after the header, the gridpoints and the zone count
    record = 8 + 4 * 4
    far = zones_at + record * 50000
    unknown = bytearray(data)
    unknown[far + 8:far + 12] = (10**6).to_bytes(4, "little")  # a gridpoint no G record defines
    one, four = outcome(unknown)
    assert one == four and one[0] == "error" and "gridpoint 1000000" in one[1]
    for count in (5, 9):  # another valid count (the layout shifts from there), an impossible one
        other = bytearray(data)
        other[far + 4:far + 8] = count.to_bytes(4, "little")
        one, four = outcome(other)
        assert one == four, count
