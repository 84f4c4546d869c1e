"""PERMAS: checked against meshio both ways (meshio reads the points and cells of our decks
as of its own, and we read its decks), on meshes gmsh makes at test time
from the .geo files in tests/data/gmsh/, plus sets through our own round trip and the
hand-written fixtures of tests/data/permas/.

meshio 5.0 writes triangle6, tetra10, quad9 and wedge15 in PERMAS' node order but reads rows
back as they are in the file; we read VTK's order back (docs/formats/permas.md). It reads no
sets, and raises on the "$NSET NAME = ..." records the format spells them with. It opens
.gz names as plain text (and writes them so); we write gzip and read either by content.
"""
from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pytest

import helpers
import meshioplusplus as mio

meshio = pytest.importorskip("meshio", reason="python3-meshio (Debian) is the peer of these tests")

GEO = Path(__file__).resolve().parents[1] / "data" / "gmsh"
DATA = Path(__file__).resolve().parents[1] / "data" / "permas"
SOURCES = {
    "box3d": ("box3d.geo", ["-3"]),
    "box3d_o2": ("box3d.geo", ["-3", "-order", "2"]),
    "square2d_o2": ("square2d.geo", ["-2", "-order", "2"]),
    "extruded": ("extruded.geo", ["-3"]),
}
# PERMAS' node order (row position j holds VTK node ORDER[j]), as meshio writes it.
PERMAS_ORDER = {"triangle6": [0, 3, 1, 4, 2, 5], "tetra10": [0, 4, 1, 5, 2, 6, 7, 8, 9, 3], "quad9": [0, 4, 1, 7, 8, 5, 3, 6, 2],
                "wedge15": [0, 6, 1, 7, 2, 8, 9, 10, 11, 3, 12, 4, 13, 5, 14]}


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """{name: msh path}, made by the gmsh program."""
    return helpers.gmsh_msh_files(tmp_path_factory.mktemp("permas_gmsh"), SOURCES, GEO)


quiet = helpers.quiet


def permas_rows(blocks):
    """Rows as meshio keeps them: in PERMAS' order for the types it permutes."""
    return {t: (d[:, PERMAS_ORDER[t]] if t in PERMAS_ORDER else d) for t, d in blocks.items()}


@helpers.needs_gmsh_program
@pytest.mark.parametrize("ext", [".dato", ".post.gz"])
@pytest.mark.parametrize("name", sorted(SOURCES))
def test_meshio_reads_ours_and_we_read_meshios(made, tmp_path, name, ext):
    read = mio.read(made[name])
    ours_in = mio.Mesh(read.points, read.cells)  # without gmsh's physical groups: meshio raises on sets
    expected = helpers.blocks_by_type(ours_in)
    mio.write(tmp_path / f"ours{ext}", ours_in)
    quiet(meshio.write, tmp_path / f"theirs{ext}", quiet(meshio.read, made[name]), file_format="permas")
    for_meshio = tmp_path / f"ours{ext}"
    if ext.endswith(".gz"):
        # meshio 5.0 opens .gz names as plain text (it writes its .post.gz uncompressed, which
        # we read by content): it reads our deck once inflated.
        packed = for_meshio.read_bytes()
        assert packed[:2] == b"\x1f\x8b"
        for_meshio = tmp_path / "ours_inflated.post"
        for_meshio.write_bytes(gzip.decompress(packed))
        assert (tmp_path / f"theirs{ext}").read_bytes().startswith(b"!PERMAS DataFile")
    for back, rows in ((quiet(meshio.read, for_meshio), permas_rows(expected)),
                       (mio.read(tmp_path / f"theirs{ext}"), expected), (mio.read(tmp_path / f"ours{ext}"), expected)):
        np.testing.assert_array_equal(np.asarray(back.points), np.asarray(ours_in.points))
        got = helpers.blocks_by_type(back)
        assert got.keys() == rows.keys()
        for t in rows:
            np.testing.assert_array_equal(got[t], rows[t])


def test_sets_round_trip_and_meshio_raises_on_them(tmp_path):
    mesh = mio.Mesh(np.random.default_rng(0).random((5, 3)), [("triangle", [[0, 1, 2], [1, 2, 3]]), ("quad", [[0, 1, 3, 4]])],
                    point_sets={"TOP": np.array([3, 4])}, cell_sets={"SKIN": [np.array([1]), np.array([0])]})
    for ext in (".dato", ".dato.gz"):
        mio.write(tmp_path / f"s{ext}", mesh)
        back = mio.read(tmp_path / f"s{ext}")
        assert back.point_sets["TOP"].tolist() == [3, 4]
        assert [a.tolist() for a in back.cell_sets["SKIN"]] == [[1], [0]]
    with pytest.raises(RuntimeError, match="NSET not found"):
        quiet(meshio.read, tmp_path / "s.dato")


def test_fixture_warnings_name_the_skipped_records():
    with pytest.warns(UserWarning) as record:
        m = mio.read(DATA / "continuation_lines.dato")
    text = [str(w.message) for w in record]
    assert any("$ELEMENT TYPE = SPRING2" in t and "line 22" in t for t in text), text
    assert any("$MATERIAL record" in t and "line 32" in t for t in text), text
    assert [c.type for c in m.cells] == ["quad", "triangle", "tetra"]
    assert m.cell_sets_dict["SHELLS"]["quad"].tolist() == [0] and m.cell_sets_dict["SHELLS"]["triangle"].tolist() == [0]


def test_gzipped_fixture_reads_by_extension_and_by_content(tmp_path):
    m = mio.read(DATA / "gzipped.dato.gz")
    assert m.cells[0].type == "tetra10" and m.cells[0].data.tolist() == [list(range(10))]
    renamed = tmp_path / "no_gz_suffix.dato"
    renamed.write_bytes((DATA / "gzipped.dato.gz").read_bytes())
    assert mio.read(renamed).cells[0].data.tolist() == [list(range(10))]
    # meshio reads the deck once inflated (and its set record left out), keeping PERMAS' order
    inflated = tmp_path / "inflated.dato"
    inflated.write_bytes(gzip.decompress((DATA / "gzipped.dato.gz").read_bytes()).replace(b"$NSET NAME = apex\n4\n", b""))
    assert quiet(meshio.read, inflated).cells[0].data.tolist() == [PERMAS_ORDER["tetra10"]]


def test_errors_name_file_and_line(tmp_path):
    bad = tmp_path / "bad.dato"
    bad.write_text("$COOR\n1 0 0 0\n2 0 zero 0\n")
    with pytest.raises(mio.ReadError, match=r"bad\.dato: line 3 .*expected a coordinate, found 'zero'"):
        mio.read(bad)
    lie = tmp_path / "lie.dato.gz"
    packed = bytearray(gzip.compress(b"$COOR\n1 0 0 0\n"))
    packed[-4:] = (2**32 - 1).to_bytes(4, "little")
    lie.write_bytes(bytes(packed))
    with pytest.raises(mio.ReadError, match="gzip: .*incorrect length check"):
        mio.read(lie)
