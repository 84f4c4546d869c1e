"""SU2 against its oracles: meshio (Debian python3-meshio) reads the fixtures and every file
we write as we do (its SU2 writer crashes on any boundary cell, so the files meshio writes are
volume-only ones); gmsh writes .su2 from its own meshes, and our reading equals our reading
of the .msh it came from, markers included. Round trips keep markers as side regions.
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
SU2 = DATA / "su2"
GMSH_GEO = DATA / "gmsh"
needs_gmsh = helpers.needs_gmsh_program
SINGLE_ZONE = ["square2d_gmsh.su2", "extruded_gmsh.su2", "no_index_column.su2", "index_columns_and_ghost_count.su2",
               "marker_bounding_no_volume_cell.su2"]


def meshio_read(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return meshio.read(path, "su2")


def assert_same_as_meshio(ours, peer):
    np.testing.assert_array_equal(ours.points, peer.points)
    assert [b.type for b in ours.cells] == [b.type for b in peer.cells]
    for a, b in zip(ours.cells, peer.cells):
        np.testing.assert_array_equal(np.asarray(a.data), np.asarray(b.data))
    for a, b in zip(ours.cell_data["su2:tag"], peer.cell_data["su2:tag"]):
        np.testing.assert_array_equal(a, b)
        assert a.dtype == b.dtype


@pytest.mark.parametrize("name", SINGLE_ZONE)
def test_fixtures_read_as_meshio_reads_them(name):
    assert_same_as_meshio(mio.read(SU2 / name), meshio_read(SU2 / name))


@pytest.mark.parametrize("name", SINGLE_ZONE + ["multizone.su2"])
def test_meshio_reads_what_we_write(name, tmp_path):
    ours = mio.read(SU2 / name)
    mio.write(tmp_path / "ours.su2", ours)
    back, peer = mio.read(tmp_path / "ours.su2"), meshio_read(tmp_path / "ours.su2")
    assert_same_as_meshio(back, peer)
    np.testing.assert_array_equal(peer.points, ours.points)
    if name in SINGLE_ZONE:  # (zones are written as one: their cells renumber)
        # Markers keep their names: the same regions, the same entries.
        assert {(r.name, r.kind): r.entries.tolist() for r in back.regions} == \
            {(r.name, r.kind): r.entries.tolist() for r in ours.regions}


@pytest.mark.parametrize("name", ["tri_2d", "tet", "hex", "quad"])
def test_we_read_what_meshio_writes(name, tmp_path):
    src = {"tri_2d": helpers.tri_mesh_2d, "tet": helpers.tet_mesh, "hex": helpers.hex_mesh, "quad": helpers.quad_mesh}[name]
    points = src.points[:, :2] if name == "quad" else src.points
    peer_mesh = meshio.Mesh(points, [(b.type, np.asarray(b.data)) for b in src.cells])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        meshio.write(tmp_path / "peer.su2", peer_mesh, "su2")
    assert_same_as_meshio(mio.read(tmp_path / "peer.su2"), meshio_read(tmp_path / "peer.su2"))


def test_round_trip_of_canonical_meshes(tmp_path):
    for mesh in [helpers.tri_mesh_2d, helpers.tet_mesh, helpers.hex_mesh]:
        helpers.write_read(tmp_path, mesh, "su2", suffix=".su2")


def test_zone_keyword():
    both = mio.read(SU2 / "multizone.su2")
    assert [b.type for b in both.cells] == ["tetra", "triangle", "pyramid", "quad"]
    assert {r.name for r in both.regions} == {"zone_1", "zone_2", "zone_1:wall", "zone_2:wall"}
    second = mio.read(SU2 / "multizone.su2", zone=2)
    np.testing.assert_array_equal(second.points, both.points[4:])
    assert [r.name for r in second.regions] == ["wall"]
    with pytest.raises(mio.ReadError, match="zone 5 is not in the file"):
        mio.read(SU2 / "multizone.su2", zone=5)


# --- gmsh ------------------------------------------------------------------------------
GEOS = [("square2d", ["-2"]), ("extruded", ["-3"]), ("box3d", ["-3"])]


def by_type(cells, types):
    return helpers.blocks_by_type(cells, types=types)


@needs_gmsh
@pytest.mark.parametrize("geo,args", GEOS, ids=[g for g, _ in GEOS])
def test_gmsh_export_reads_as_the_msh_it_came_from(geo, args, tmp_path):
    ours, msh = helpers.gmsh_export(GMSH_GEO / f"{geo}.geo", args, tmp_path, ".su2")
    dim = ours.points.shape[1]
    np.testing.assert_allclose(ours.points, msh.points[:, :dim], atol=1e-12, rtol=0)
    volume = {"triangle", "quad"} if dim == 2 else {"tetra", "hexahedron", "wedge", "pyramid"}
    got, want = by_type(ours.cells, volume), by_type(msh.cells, volume)
    assert got.keys() == want.keys()
    for t in got:  # the same cells; gmsh's SU2 export lists them in another order
        np.testing.assert_array_equal(np.unique(np.sort(got[t], axis=1), axis=0), np.unique(np.sort(want[t], axis=1), axis=0))
    # Each marker is the physical group of dimension dim-1 of the same name (gmsh names an
    # unnamed group "Physical<Line|Surface><tag>"): the same boundary node sets.
    bases = np.cumsum([0] + [len(b) for b in msh.cells])
    groups = {}
    for r in msh.regions:
        if r.kind == "cell" and r.dim == dim - 1:
            nodes = set()
            for c in r.entries:
                k = np.searchsorted(bases, c, side="right") - 1
                nodes.add(tuple(sorted(np.asarray(msh.cells[k].data)[c - bases[k]])))
            groups[r.name] = nodes
            groups[("PhysicalLine" if dim == 2 else "PhysicalSurface") + str(r.tag)] = nodes
    ours_bases = np.cumsum([0] + [len(b) for b in ours.cells])
    sides = [r for r in ours.regions if r.kind == "side"]
    assert sides
    for r in sides:
        nodes = set()
        for cell, facet in r.entries:
            k = np.searchsorted(ours_bases, cell, side="right") - 1
            conn = np.asarray(ours.cells[k].data)[cell - ours_bases[k]]
            nodes.add(tuple(sorted(conn[mio._core.cell_facets(ours.cells[k].type)[facet]])))
        assert nodes == groups[r.name], r.name


def test_a_write_failing_late_leaves_the_existing_file_intact(tmp_path):
    target = tmp_path / "precious.su2"
    mio.write(target, helpers.tet_mesh)
    before = target.read_bytes()
    m = mio.read(SU2 / "extruded_gmsh.su2")
    m.regions.append(mio.Region("bad\nname", "side", np.array([[0, 0]])))
    with pytest.raises(mio.WriteError, match="line break"):
        mio.write(target, m)
    assert target.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [target.name]


def test_blocks_it_cannot_hold_are_skipped_with_a_warning(tmp_path):
    """Lines in a 3-D mesh are neither volume nor boundary elements: left out, as meshio
    leaves them out ("does not support tags elements of type"), and named in a UserWarning,
    never a silent loss; the tetra is written and meshio reads it back."""
    pts = np.random.default_rng(0).random((4, 3))
    mesh = mio.Mesh(pts, [("tetra", [[0, 1, 2, 3]]), ("line", [[0, 1], [1, 2]])])
    with pytest.warns(UserWarning, match=r"^su2: .*: cell type 'line' is neither a volume nor a boundary element of a 3-D mesh; skipping 2 cells$"):
        mio.write(tmp_path / "o.su2", mesh)
    assert [(c.type, c.data.tolist()) for c in mio.read(tmp_path / "o.su2").cells] == [("tetra", [[0, 1, 2, 3]])]
    assert [(c.type, c.data.tolist()) for c in meshio_read(tmp_path / "o.su2").cells] == [("tetra", [[0, 1, 2, 3]])]
