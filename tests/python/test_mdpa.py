"""Kratos MDPA: checked against meshio both ways (meshio reads the points and cells of our
files as of its own, we read its files), on meshes gmsh makes at test time from the .geo
files in tests/data/gmsh/, plus round trips of data and sub-model parts and the hand-written
fixtures of tests/data/mdpa/.

meshio 5.0's MDPA reader reads points and cells only (no data blocks, no sub-model parts),
and keeps hexahedron20 / hexahedron27 rows in the file's order (its permutation code never
runs); we hold VTK's order in memory and Kratos' in the file (docs/formats/mdpa.md).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import helpers
import meshioplusplus as mio

meshio = pytest.importorskip("meshio", reason="python3-meshio (Debian) is the peer of these tests")

GEO = Path(__file__).resolve().parents[1] / "data" / "gmsh"
DATA = Path(__file__).resolve().parents[1] / "data" / "mdpa"
SOURCES = {
    "box3d": ("box3d.geo", ["-3"]),
    "box3d_o2": ("box3d.geo", ["-3", "-order", "2"]),
    "square2d": ("square2d.geo", ["-2"]),
    "square2d_o2": ("square2d.geo", ["-2", "-order", "2"]),
}


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """{name: msh path}, made by the gmsh program."""
    return helpers.gmsh_msh_files(tmp_path_factory.mktemp("mdpa_gmsh"), SOURCES, GEO)


quiet = helpers.quiet


@helpers.needs_gmsh_program
@pytest.mark.parametrize("name", sorted(SOURCES))
def test_meshio_reads_ours_and_we_read_meshios(made, tmp_path, name):
    ours_in = mio.read(made[name])
    theirs_in = quiet(meshio.read, made[name])
    mio.write(tmp_path / "ours.mdpa", ours_in)
    quiet(meshio.write, tmp_path / "theirs.mdpa", theirs_in)
    expected = helpers.blocks_by_type(ours_in)
    for back in (quiet(meshio.read, tmp_path / "ours.mdpa"), mio.read(tmp_path / "theirs.mdpa"), mio.read(tmp_path / "ours.mdpa")):
        np.testing.assert_array_equal(np.asarray(back.points)[:, :2], np.asarray(ours_in.points)[:, :2])
        got = helpers.blocks_by_type(back)
        assert got.keys() == expected.keys()
        for t in expected:
            np.testing.assert_array_equal(got[t], expected[t])


KRATOS_ORDER = {  # row position j of a Kratos element holds VTK node ORDER[j] (Kratos' node ordering page)
    "hexahedron20": [0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 10, 9, 16, 17, 18, 19, 12, 15, 14, 13],
    "hexahedron27": [0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 10, 9, 16, 17, 18, 19, 12, 15, 14, 13, 22, 24, 21, 23, 20, 25, 26],
}


@pytest.mark.parametrize("cell_type", sorted(KRATOS_ORDER))
def test_kratos_node_order(tmp_path, cell_type):
    """Our file holds Kratos' order, which meshio 5.0 keeps in memory as it is in the file (its
    writer and reader mean to permute but never do); we read it back in VTK's order."""
    order = KRATOS_ORDER[cell_type]
    k = len(order)
    points = np.random.default_rng(0).random((k, 3))
    mio.write(tmp_path / "o.mdpa", mio.Mesh(points, [(cell_type, [list(range(k))])]))
    assert quiet(meshio.read, tmp_path / "o.mdpa").cells[0].data.tolist() == [order]
    back = mio.read(tmp_path / "o.mdpa")
    assert back.cells[0].type == cell_type and back.cells[0].data.tolist() == [list(range(k))]


def test_data_and_sub_model_parts_round_trip(tmp_path):
    rng = np.random.default_rng(3)
    points = rng.random((6, 3))
    mesh = mio.Mesh(points, [("triangle", [[0, 1, 2], [1, 2, 3]]), ("quad", [[2, 3, 4, 5]])],
                    point_data={"TEMPERATURE": rng.random(6), "VELOCITY": rng.random((6, 3))},
                    cell_data={"DAMAGE": [rng.random(2), rng.random(1)]},
                    point_sets={"Supports": np.array([0, 5])},
                    cell_sets={"Body": [np.array([1]), np.array([0])], "Body.Skin": [np.array([1]), np.array([], int)]})
    back = helpers.write_read(tmp_path, mesh, "mdpa")
    assert {k: v.tolist() for k, v in back.point_sets.items()} == {"Supports": [0, 5]}
    assert {k: [a.tolist() for a in v] for k, v in back.cell_sets.items()} == {"Body": [[1], [0]], "Body.Skin": [[1], []]}
    # meshio reads the same points and cells (it reads no data blocks or sub-model parts).
    theirs = quiet(meshio.read, _renamed(tmp_path))
    np.testing.assert_array_equal(theirs.points, points)
    assert [(c.type, c.data.tolist()) for c in theirs.cells] == [(c.type, c.data.tolist()) for c in mesh.cells]


def _renamed(tmp_path):
    src = tmp_path / "roundtrip"
    dst = tmp_path / "roundtrip.mdpa"
    dst.write_bytes(src.read_bytes())
    return dst


def test_meshio_data_rows_read(tmp_path):
    """meshio writes NodalData / ElementalData without the is_fixed flag; we read them."""
    rng = np.random.default_rng(4)
    m = meshio.Mesh(rng.random((4, 3)), [("tetra", [[0, 1, 2, 3]])],
                    point_data={"pd": rng.random(4), "pv": rng.random((4, 3))}, cell_data={"cd": [rng.random(1)]})
    quiet(meshio.write, tmp_path / "m.mdpa", m)
    ours = mio.read(tmp_path / "m.mdpa")
    np.testing.assert_array_equal(ours.point_data["pd"], m.point_data["pd"])
    np.testing.assert_array_equal(ours.point_data["pv"], m.point_data["pv"])
    np.testing.assert_array_equal(ours.cell_data["cd"][0], m.cell_data["cd"][0])


def test_fixture_warnings_name_the_skipped_blocks():
    with pytest.warns(UserWarning) as record:
        m = mio.read(DATA / "nested_sub_model_parts.mdpa")
    text = [str(w.message) for w in record]
    assert any("'Begin Properties 1' at line 5" in t for t in text), text
    assert any("'Begin Table 1 TIME TEMPERATURE' at line 10" in t for t in text), text
    assert sorted(m.cell_sets) == ["Body", "Body.Left", "Body.Left.Edge", "Supports"]
    assert {t: v.tolist() for t, v in m.cell_sets_dict["Body.Left.Edge"].items()} == {"line": [1]}


def test_errors_name_file_and_line(tmp_path):
    bad = tmp_path / "bad.mdpa"
    bad.write_text("Begin Nodes\n1 0 0 0\n2 0 zero 0\nEnd Nodes\n")
    with pytest.raises(mio.ReadError, match=r"bad\.mdpa: line 3 .*expected a coordinate, found 'zero'"):
        mio.read(bad)


def test_writer_options(tmp_path):
    mesh = helpers.tet_mesh
    mio.write(tmp_path / "a.mdpa", mesh, float_fmt=".3f")
    assert " 1 0.000 0.000 0.000\n" in (tmp_path / "a.mdpa").read_text()
    with pytest.raises(mio.WriteError, match="text only"):
        mio.write(tmp_path / "b.mdpa", mesh, binary=True)
    with pytest.raises(mio.WriteError, match="'pyramid'"):
        mio.write(tmp_path / "c.mdpa", mio.Mesh(np.zeros((5, 3)), [("pyramid", [[0, 1, 2, 3, 4]])]))
