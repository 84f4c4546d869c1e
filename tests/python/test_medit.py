"""Medit (.mesh ASCII, .meshb binary) against its oracles: meshio (Debian python3-meshio)
reads every file we write and we read every file it writes, with equal arrays; gmsh writes
.mesh from its own meshes (our reading equals our reading of the .msh it came from) and reads
the .mesh we write; the fixtures of tests/data/medit read as meshio reads them, where meshio
can. Round trips through the canonical meshes of helpers.py.
"""
from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

import helpers
import meshioplusplus as mio

meshio = pytest.importorskip("meshio", reason="meshio (python3-meshio) is the peer oracle")

DATA = Path(__file__).resolve().parents[2] / "tests" / "data"
MEDIT = DATA / "medit"
GMSH_GEO = DATA / "gmsh"
needs_gmsh = helpers.needs_gmsh_program

CANONICAL = {
    "tri_2d": helpers.tri_mesh_2d, "tri": helpers.tri_mesh, "line": helpers.line_mesh, "quad": helpers.quad_mesh,
    "tri_quad": helpers.tri_quad_mesh, "tet": helpers.tet_mesh, "hex": helpers.hex_mesh,
}
SUFFIXES = [".mesh", ".meshb"]
DIM = {"line": 1, "triangle": 2, "quad": 2, "tetra": 3, "hexahedron": 3, "wedge": 3, "pyramid": 3}


def meshio_read(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return meshio.read(path, "medit")


def meshio_write(path, mesh, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        meshio.write(path, mesh, "medit", **kw)


def with_refs(mesh):
    """The mesh with integer references on points and cells (as medit:ref)."""
    m = mio.Mesh(mesh.points, [(b.type, b.data) for b in mesh.cells])
    m.point_data = {"medit:ref": np.arange(len(m.points), dtype=np.int64) % 3 + 1}
    m.cell_data = {"medit:ref": [np.arange(len(b), dtype=np.int64) * 2 + 5 for b in m.cells]}
    return m


def assert_same_as_meshio(ours, peer):
    """Points, cells and medit:ref of our reading equal meshio's (values; byte order aside)."""
    np.testing.assert_array_equal(ours.points, peer.points)
    assert str(ours.points.dtype) == str(peer.points.dtype.newbyteorder("="))
    assert [b.type for b in ours.cells] == [b.type for b in peer.cells]
    for a, b in zip(ours.cells, peer.cells):
        np.testing.assert_array_equal(np.asarray(a.data), np.asarray(b.data))
    np.testing.assert_array_equal(ours.point_data["medit:ref"], peer.point_data["medit:ref"])
    assert len(ours.cell_data.get("medit:ref", [])) == len(peer.cell_data["medit:ref"])
    for a, b in zip(ours.cell_data.get("medit:ref", []), peer.cell_data["medit:ref"]):
        np.testing.assert_array_equal(a, b)
        assert a.dtype.itemsize == b.dtype.itemsize


# --- round trips ----------------------------------------------------------------------
@pytest.mark.parametrize("suffix", SUFFIXES)
@pytest.mark.parametrize("name", list(CANONICAL))
def test_round_trip(name, suffix, tmp_path):
    helpers.write_read(tmp_path, CANONICAL[name], "medit", suffix=suffix)
    back = helpers.write_read(tmp_path, with_refs(CANONICAL[name]), "medit", suffix=suffix)
    # The references also come back as one cell region per (dimension, reference).
    pairs = {(DIM[b.type], int(v)) for b, refs in zip(back.cells, back.cell_data["medit:ref"]) for v in refs}
    assert {r.name for r in back.regions} == {f"medit_ref_{d}_{v}" for d, v in pairs}


def test_float_fmt_is_meshio_keyword(tmp_path):
    m = with_refs(helpers.tet_mesh)
    m.points = m.points + 1 / 3
    mio.write(tmp_path / "a.mesh", m, float_fmt=".3f")
    text = (tmp_path / "a.mesh").read_text()
    assert "\n1.333 1.333 0.333 3\n" in text  # point 2 (1, 1, 0), reference 2 % 3 + 1
    peer = meshio_read(tmp_path / "a.mesh")
    np.testing.assert_allclose(peer.points, m.points, atol=1e-3)
    with pytest.raises(ValueError):
        mio.write(tmp_path / "b.mesh", m, float_fmt="%z")


# --- meshio, both ways ---------------------------------------------------------------
@pytest.mark.parametrize("suffix", SUFFIXES)
@pytest.mark.parametrize("name", list(CANONICAL))
def test_meshio_reads_what_we_write(name, suffix, tmp_path):
    m = with_refs(CANONICAL[name])
    mio.write(tmp_path / f"ours{suffix}", m)
    assert_same_as_meshio(mio.read(tmp_path / f"ours{suffix}"), meshio_read(tmp_path / f"ours{suffix}"))
    peer = meshio_read(tmp_path / f"ours{suffix}")
    np.testing.assert_array_equal(peer.points, m.points)
    for a, b in zip(peer.cells, m.cells):
        np.testing.assert_array_equal(a.data, b.data)
    np.testing.assert_array_equal(peer.cell_data["medit:ref"][0], m.cell_data["medit:ref"][0])


@pytest.mark.parametrize("suffix", SUFFIXES)
@pytest.mark.parametrize("name", list(CANONICAL))
def test_we_read_what_meshio_writes(name, suffix, tmp_path):
    src = CANONICAL[name]
    peer_mesh = meshio.Mesh(src.points, [(b.type, np.asarray(b.data)) for b in src.cells],
                            point_data={"medit:ref": np.arange(len(src.points)) % 4},
                            cell_data={"medit:ref": [np.arange(len(b)) + 3 for b in src.cells]})
    meshio_write(tmp_path / f"peer{suffix}", peer_mesh)
    assert_same_as_meshio(mio.read(tmp_path / f"peer{suffix}"), meshio_read(tmp_path / f"peer{suffix}"))


def test_we_read_what_meshio_writes_in_single_precision(tmp_path):
    peer_mesh = meshio.Mesh(helpers.tet_mesh.points.astype(np.float32) / 3, [("tetra", np.asarray(helpers.tet_mesh.cells[0].data))])
    meshio_write(tmp_path / "single.mesh", peer_mesh)
    ours = mio.read(tmp_path / "single.mesh")
    assert ours.points.dtype == np.float32
    assert_same_as_meshio(ours, meshio_read(tmp_path / "single.mesh"))


# Fixtures meshio reads too (it has no P2 keywords and stops at keywords it does not know).
MESHIO_READS = ["reference.mesh", "version1_float32.mesh", "dimension2.mesh", "prisms_pyramids_hexaedra.mesh",
                "square2d_gmsh.mesh", "extruded_gmsh.mesh", "v1_float32.meshb", "v2.meshb", "v3.meshb",
                "v4_int64.meshb", "v2_big_endian.meshb", "v4_int64_big_endian.meshb", "no_end.meshb", "dimension2.meshb"]


@pytest.mark.parametrize("name", MESHIO_READS)
def test_fixtures_read_as_meshio_reads_them(name):
    assert_same_as_meshio(mio.read(MEDIT / name), meshio_read(MEDIT / name))


def test_every_binary_fixture_of_the_reference_mesh_is_the_reference():
    ref = mio.read(MEDIT / "reference.mesh")
    for name in ["v1_float32", "v2", "v3", "v4_int64", "v2_big_endian", "v4_int64_big_endian", "unknown_keyword", "no_end"]:
        m = mio.read(MEDIT / f"{name}.meshb")
        helpers.assert_mesh_equal(ref, m)
        assert [r.name for r in m.regions] == [r.name for r in ref.regions]


def test_p2_elements_in_both_encodings():
    for name in ["p2_elements.mesh", "p2_elements.meshb"]:
        m = mio.read(MEDIT / name)
        assert [b.type for b in m.cells] == ["triangle6", "tetra10"]
        np.testing.assert_array_equal(m.cells[1].data, [np.arange(10)])
        # Edge nodes sit at the middle of their edge, in VTK's order (01 12 20 03 13 23).
        p = m.points
        for k, (i, j) in enumerate([(0, 1), (1, 2), (2, 0), (0, 3), (1, 3), (2, 3)]):
            np.testing.assert_allclose(p[m.cells[1].data[0, 4 + k]], (p[i] + p[j]) / 2)


# --- gmsh, both ways -----------------------------------------------------------------
GEOS = [("square2d", ["-2"]), ("box3d", ["-3", "-order", "2"]), ("extruded", ["-3"])]


gmsh = helpers.run_gmsh


by_type = helpers.blocks_by_type


def cell_coordinates(mesh):
    """Per type, the sorted list of each cell's node coordinates (rounded): a description of
    the cells that does not depend on how the nodes are numbered."""
    pts = np.asarray(mesh.points)[:, :2] if mesh.points.shape[1] == 3 and not np.any(mesh.points[:, 2]) else np.asarray(mesh.points)
    pts = np.round(pts, 9)
    return {t: sorted(tuple(map(tuple, pts[c])) for c in conn) for t, conn in by_type(mesh).items()}


@needs_gmsh
@pytest.mark.parametrize("geo,args", GEOS, ids=[g for g, _ in GEOS])
def test_gmsh_export_reads_as_the_msh_it_came_from(geo, args, tmp_path):
    ours, msh = helpers.gmsh_export(GMSH_GEO / f"{geo}.geo", args, tmp_path, ".mesh")
    # Gmsh prints .mesh coordinates with fewer digits than .msh ones.
    np.testing.assert_allclose(ours.points, msh.points[:, : ours.points.shape[1]], atol=1e-12, rtol=0)
    exported, source = by_type(ours), by_type(msh)
    assert set(exported) <= set(source)
    for t, conn in exported.items():
        np.testing.assert_array_equal(conn, source[t], err_msg=t)
    # Gmsh leaves out prisms and point elements only.
    assert set(source) - set(exported) <= {"vertex", "wedge"}


@needs_gmsh
@pytest.mark.parametrize("geo,args", GEOS, ids=[g for g, _ in GEOS])
@pytest.mark.parametrize("suffix", [".mesh"])
def test_gmsh_reads_what_we_write(geo, args, suffix, tmp_path):
    gmsh(*args, GMSH_GEO / f"{geo}.geo", "-o", tmp_path / "a.msh")
    src = mio.read(tmp_path / "a.msh")
    mio.write(tmp_path / f"ours{suffix}", src)
    gmsh(tmp_path / f"ours{suffix}", "-save", "-o", tmp_path / "back.msh", "-format", "msh41")
    back = mio.read(tmp_path / "back.msh")
    # Gmsh renumbers the nodes: compare each cell by its node coordinates. Gmsh's Medit
    # reader has no Prisms (our file has them; gmsh drops them).
    expected = {t: v for t, v in cell_coordinates(src).items() if t not in ("vertex", "wedge")}
    assert cell_coordinates(back) == expected


# --- regions -------------------------------------------------------------------------
def test_references_are_regions_per_dimension():
    m = mio.read(MEDIT / "square2d_gmsh.mesh")
    regions = {r.name: r for r in m.regions}
    bases = np.cumsum([0] + [len(b) for b in m.cells])
    for name, r in regions.items():
        assert r.kind == "cell" and name == f"medit_ref_{r.dim}_{r.tag}"
        # Every cell of the region has the region's dimension and reference, and no other does.
        expected = [bases[k] + i for k, b in enumerate(m.cells) for i in range(len(b))
                    if m.cell_data["medit:ref"][k][i] == r.tag and DIM[b.type] == r.dim]
        np.testing.assert_array_equal(r.entries, expected)
    assert m.cell_sets.keys() == regions.keys()


# --- failed writes -------------------------------------------------------------------
@pytest.mark.parametrize("suffix", SUFFIXES)
def test_a_write_failing_late_leaves_the_existing_file_intact(suffix, tmp_path):
    target = tmp_path / f"precious{suffix}"
    mio.write(target, with_refs(helpers.tet_mesh))
    before = target.read_bytes()
    rng = np.random.default_rng(0)
    bad = mio.Mesh(rng.random((20000, 3)), [("triangle", rng.integers(0, 20000, (20000, 3)))],
                   cell_data={"medit:ref": [np.zeros((20000, 2), dtype=np.int64)]})  # two references per cell
    with pytest.raises(mio.WriteError, match="one value per cell"):
        mio.write(target, bad)
    assert target.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [target.name]


@needs_gmsh
def test_gmsh_second_order_quadrilaterals_are_refused_not_misread(tmp_path):
    # Gmsh 4.8 writes second-order quads under "Quadrilaterals" with 9 nodes per row, which
    # no Medit reader can tell from 4-node rows: the row count runs out of step and the
    # reader says where.
    gmsh("-2", "-order", "2", GMSH_GEO / "square2d.geo", "-o", tmp_path / "a.mesh")
    with pytest.raises(mio.ReadError, match=r"line \d+ \(byte \d+\): expected a keyword, found"):
        mio.read(tmp_path / "a.mesh")


@needs_gmsh
@pytest.mark.parametrize("suffix", SUFFIXES)
def test_a_gmsh_mesh_is_written_with_the_references_meshio_writes(suffix, tmp_path):
    gmsh("-2", GMSH_GEO / "square2d.geo", "-o", tmp_path / "a.msh", "-format", "msh22")
    peer = meshio.read(tmp_path / "a.msh")
    peer.point_data = {}  # meshio's Medit writer crashes on gmsh:dim_tags
    meshio_write(tmp_path / f"peer{suffix}", peer)
    mio.write(tmp_path / f"ours{suffix}", mio.read(tmp_path / "a.msh"))
    a, b = mio.read(tmp_path / f"ours{suffix}"), mio.read(tmp_path / f"peer{suffix}")
    assert [c.type for c in a.cells] == [c.type for c in b.cells]
    for x, y in zip(a.cell_data["medit:ref"], b.cell_data["medit:ref"]):
        np.testing.assert_array_equal(x, y)  # gmsh:physical, not gmsh:geometrical


@pytest.mark.parametrize("ext", [".mesh", ".meshb"])
def test_blocks_without_a_keyword_are_skipped_with_a_warning_as_meshio(tmp_path, ext):
    """A quad8 block has no Medit keyword: left out, as meshio leaves it out, and named in a
    UserWarning (never a silent loss); the other blocks are written."""
    pts = np.random.default_rng(0).random((8, 3))
    cells = [("triangle", np.array([[0, 1, 2]])), ("quad8", np.array([list(range(8))]))]
    with pytest.warns(UserWarning, match=r"^medit: .*: cell type 'quad8' has no Medit keyword; skipping 1 cells$"):
        mio.write(tmp_path / f"o{ext}", mio.Mesh(pts, cells))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        meshio.write(tmp_path / f"t{ext}", meshio.Mesh(pts, cells))
        theirs = meshio.read(tmp_path / f"t{ext}")
    ours = mio.read(tmp_path / f"o{ext}")
    assert [(c.type, c.data.tolist()) for c in ours.cells] == [(c.type, c.data.tolist()) for c in theirs.cells] == [("triangle", [[0, 1, 2]])]
