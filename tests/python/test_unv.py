"""I-DEAS Universal: checked against gmsh (it exports .unv from its own meshes, with physical
groups as 2477 groups, and reads .unv back), plus round trips through the canonical meshes.
meshio has no UNV format, so gmsh is the oracle.

The meshes come from the .geo files in tests/data/gmsh/, meshed at test time by the gmsh on
the machine into MSH 4.1 and exported by gmsh to .unv. Our reading of each export must equal
our reading of the .msh: the same points (exactly: 1P3D25.16 holds every double), the same
cells of every type, the physical groups as cell regions with the same name, dimension, tag
and cells.
"""
from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

import helpers
import meshioplusplus as mio

gmsh = pytest.importorskip("gmsh", reason="python3-gmsh (Debian) is the oracle of these tests")
pytest.importorskip("meshio", reason="python3-meshio (Debian) holds the gmsh node orders")
from meshio.gmsh.common import _meshio_to_gmsh_order  # noqa: E402

GEO = Path(__file__).resolve().parents[1] / "data" / "gmsh"
SOURCES = {
    "box3d": ("box3d.geo", ["-3"]),
    "box3d_o2": ("box3d.geo", ["-3", "-order", "2"]),
    "square2d": ("square2d.geo", ["-2"]),
    "square2d_o2": ("square2d.geo", ["-2", "-order", "2"]),
    "square2d_o2s": ("square2d.geo", ["-2", "-order", "2", "-setnumber", "Mesh.SecondOrderIncomplete", "1"]),
    "extruded": ("extruded.geo", ["-3"]),
    "extruded_o2s": ("extruded.geo", ["-3", "-order", "2", "-setnumber", "Mesh.SecondOrderIncomplete", "1"]),
}


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """{name: (msh path, unv path)}, both made by the gmsh program."""
    d = tmp_path_factory.mktemp("unv_gmsh")
    out = {}
    for name, (geo, args) in SOURCES.items():
        msh, unv = d / f"{name}.msh", d / f"{name}.unv"
        subprocess.run(["gmsh", *args, str(GEO / geo), "-o", str(msh), "-format", "msh41"], check=True, capture_output=True)
        subprocess.run(["gmsh", str(msh), "-0", "-o", str(unv)], check=True, capture_output=True)
        out[name] = (msh, unv)
    return out


per_type = helpers.blocks_by_type


def region_cells(mesh, region):
    """A region's cells as sorted rows of their sorted node ids (independent of block layout)."""
    flat = [row for c in mesh.cells for row in np.asarray(c.data)]
    return sorted(tuple(sorted(flat[i].tolist())) for i in np.asarray(region.entries))


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_gmsh_export_reads_as_its_msh(made, name):
    msh, unv = made[name]
    ref, ours = mio.read(msh), mio.read(unv)
    np.testing.assert_array_equal(ours.points, ref.points)
    expected = per_type(ref)
    expected.pop("vertex", None)  # gmsh's .unv export writes no point elements
    got = per_type(ours)
    assert sorted(got) == sorted(expected)
    for t in expected:
        np.testing.assert_array_equal(got[t], expected[t], err_msg=t)
    # gmsh's elementary entity tag is the 2412 physical property number
    geo = np.concatenate([np.asarray(g) for c, g in zip(ref.cells, ref.cell_data["gmsh:geometrical"]) if c.type != "vertex"])
    ours_prop = np.concatenate(ours.cell_data["unv:physical_property"])
    assert sorted(geo.tolist()) == sorted(ours_prop.tolist())
    # Physical groups: same tag, dimension and cells; the same name where the .msh names it
    # (gmsh's .unv names an unnamed group "PhysicalSurface4" where the .msh reader says
    # "physical_2_4"). Point groups are empty in the export (no point elements).
    theirs = {(r.tag, r.dim): r for r in ref.regions if r.dim > 0}
    mine = {(r.tag, r.dim): r for r in ours.regions if r.kind == "cell" and len(r)}
    assert sorted(mine) == sorted(theirs)
    for key, r in theirs.items():
        if not r.name.startswith("physical_"):
            assert mine[key].name == r.name
        assert region_cells(ours, mine[key]) == region_cells(ref, r), r.name


def test_gmsh_complete_quadratic_solids_are_skipped_not_guessed(tmp_path):
    """gmsh writes hexahedron27 / wedge18 as FE 115 / 112 with 27 / 18 nodes, which I-DEAS does
    not define: they are skipped (a warning in C++); the rest is read."""
    msh, unv = tmp_path / "e.msh", tmp_path / "e.unv"
    subprocess.run(["gmsh", "-3", "-order", "2", str(GEO / "extruded.geo"), "-o", str(msh), "-format", "msh41"],
                   check=True, capture_output=True)
    subprocess.run(["gmsh", str(msh), "-0", "-o", str(unv)], check=True, capture_output=True)
    ours = mio.read(unv)
    assert sorted(per_type(ours)) == ["quad9", "triangle6"]


def gmsh_view(path):
    with helpers.gmsh_opened(path) as g:
        xyz, elements = helpers.gmsh_nodes_and_elements(g)
        groups = {}
        for d, t in g.model.getPhysicalGroups():
            etags = []
            for ent in g.model.getEntitiesForPhysicalGroup(d, t):
                for _, et, _ in zip(*g.model.mesh.getElements(d, ent)):
                    etags += et.tolist()
            groups[(d, t)] = (g.model.getPhysicalName(d, t), sorted(etags))
        return xyz, elements, groups


GMSH_NAME = {"line": "Line 2", "line3": "Line 3", "triangle": "Triangle 3", "triangle6": "Triangle 6",
             "quad": "Quadrilateral 4", "quad8": "Quadrilateral 8", "tetra": "Tetrahedron 4", "tetra10": "Tetrahedron 10",
             "wedge": "Prism 6", "wedge15": "Prism 15", "hexahedron": "Hexahedron 8", "hexahedron20": "Hexahedron 20"}


@pytest.mark.parametrize("name", sorted(n for n in SOURCES if n != "square2d_o2"))
def test_gmsh_reads_what_we_write(made, tmp_path, name):
    """gmsh reads our elements node for node in its own order (converted back by the .msh
    reader), and, from 2477 (the group dataset it reads), our regions as its physical groups."""
    ref = mio.read(made[name][0])
    mesh = mio.Mesh(ref.points, [(c.type, np.asarray(c.data)) for c in ref.cells if c.type != "vertex"])
    kept = [r for r in ref.regions if r.dim > 0]
    bases = np.cumsum([0] + [len(c) for c in ref.cells])
    vertex_blocks = [i for i, c in enumerate(ref.cells) if c.type == "vertex"]

    def shift(entries):  # global indices once the vertex blocks are gone
        e = np.asarray(entries)
        drop = sum((e >= bases[i + 1]) * len(ref.cells[i]) for i in vertex_blocks)
        return e - drop

    mesh.regions = [mio.Region(r.name, r.kind, shift(r.entries), dim=r.dim, tag=r.tag) for r in kept]
    path = tmp_path / "ours.unv"
    mio.write(path, mesh, group_dataset=2477)
    xyz, elements, groups = gmsh_view(path)
    # gmsh keeps our labels: node n is our point n - 1, element e our cell e - 1 (global, in
    # block order).
    for n, p in xyz.items():
        np.testing.assert_array_equal(p, mesh.points[n - 1])
    flat = [(c.type, row) for c in mesh.cells for row in np.asarray(c.data)]
    assert sorted(elements) == sorted({GMSH_NAME[t] for t, _ in flat})
    assert sum(len(e) for e, _ in elements.values()) == len(flat)
    for gname, (etags, ntags) in elements.items():
        for e, nodes in zip(etags.tolist(), ntags):
            t, row = flat[e - 1]
            assert GMSH_NAME[t] == gname
            # meshio's VTK -> gmsh node permutation: gmsh's element is our row in its order.
            np.testing.assert_array_equal(nodes - 1, _meshio_to_gmsh_order(t, row[None, :])[0], err_msg=f"{gname} {e}")
    for r in mesh.regions:
        name, etags = groups[(r.dim, r.tag)]
        assert name == r.name
        assert etags == sorted((np.asarray(r.entries) + 1).tolist())


def test_default_group_dataset_is_2467(tmp_path):
    path = tmp_path / "t.unv"
    m = mio.Mesh(helpers.tri_mesh.points, [("triangle", helpers.tri_mesh.cells[0].data)])
    m.regions = [mio.Region("one", "cell", np.array([1]), dim=2, tag=3)]
    mio.write(path, m)
    assert "\n  2467\n" in path.read_text()
    back = mio.read(path)
    assert [(r.name, r.tag, np.asarray(r.entries).tolist()) for r in back.regions] == [("one", 3, [1])]
    with pytest.raises(ValueError, match="group_dataset"):
        mio.write(path, m, group_dataset=2435)


@pytest.mark.parametrize("mesh", [helpers.tri_mesh, helpers.quad_mesh, helpers.tri_quad_mesh, helpers.tet_mesh,
                                  helpers.hex_mesh, helpers.line_mesh])
def test_round_trip_canonical_meshes(tmp_path, mesh):
    helpers.write_read(tmp_path, mesh, "unv", suffix=".unv")


def test_two_d_points_get_z_zero(tmp_path):
    helpers.assert_2d_points_written_with_zero_z(tmp_path / "t.unv")


def test_errors_name_file_and_line(tmp_path):
    p = tmp_path / "bad.unv"
    p.write_text("    -1\n  2411\n         1         1         1        11\n   1.0D+00   2.0Q+00   3.0D+00\n    -1\n")
    with pytest.raises(mio.ReadError, match=r"bad\.unv: line 4 .*expected a coordinate, found '2\.0Q\+00'"):
        mio.read(p)


def test_group_names_that_are_not_utf8_round_trip(tmp_path):
    m = mio.Mesh(helpers.tri_mesh.points, [("triangle", helpers.tri_mesh.cells[0].data)])
    m.regions = [mio.Region("t\udce9mp", "cell", np.array([0]), dim=2, tag=4)]
    mio.write(tmp_path / "n.unv", m)
    assert (tmp_path / "n.unv").read_bytes().count(b"t\xe9mp\n") == 1
    assert [r.name for r in mio.read(tmp_path / "n.unv").regions] == ["t\udce9mp"]
