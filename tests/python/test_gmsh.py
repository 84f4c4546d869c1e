"""Gmsh MSH: checked against the real gmsh (program makes the meshes, its Python API reads
them and everything we write) and against meshio (same files, same arrays).

The meshes come from the .geo files in tests/data/gmsh/ (2-D and 3-D, first and second
order, several physical groups, mixed element types), made at test time by the gmsh
program in every MSH version it writes.
"""
from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

import meshioplusplus as mio

from helpers import add_cell_data, add_point_data, write_read

gmsh = pytest.importorskip("gmsh", reason="python3-gmsh (Debian) is the oracle of these tests")
meshio = pytest.importorskip("meshio", reason="python3-meshio (Debian) is the peer of these tests")
from meshio.gmsh.common import _meshio_to_gmsh_order, _meshio_to_gmsh_type  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / "data" / "gmsh"

# (geo, extra gmsh arguments, spatial dimension)
SOURCES = {
    "square2d": ("square2d.geo", ["-2"]),
    "box3d_o2": ("box3d.geo", ["-3", "-order", "2"]),
    "ext_o1": ("extruded.geo", ["-3"]),
    "ext_o2": ("extruded.geo", ["-3", "-order", "2"]),
    "ext_o2i": ("extruded.geo", ["-3", "-order", "2", "-setnumber", "Mesh.SecondOrderIncomplete", "1"]),
    "periodic": ("periodic.geo", ["-2"]),
}
# meshio 5.0 keeps Gmsh's node order for wedge18; ours is VTK's (vtkBiQuadraticQuadraticWedge):
# ours[:, j] = gmsh[:, WEDGE18[j]].
WEDGE18 = [0, 1, 2, 3, 4, 5, 6, 9, 7, 12, 14, 13, 8, 10, 11, 15, 17, 16]


def to_gmsh_order(cell_type, data):
    data = np.asarray(data)
    if cell_type == "wedge18":
        return data[:, np.argsort(WEDGE18)]
    return _meshio_to_gmsh_order(cell_type, data)


# (gmsh -format, binary)
VERSIONS = [("msh41", False), ("msh41", True), ("msh40", False), ("msh22", False), ("msh22", True)]


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """Every source meshed by the gmsh program in every version: {(name, fmt, binary): path}."""
    out = tmp_path_factory.mktemp("gmsh_made")
    files = {}
    for name, (geo, args) in SOURCES.items():
        for fmt, binary in VERSIONS:
            path = out / f"{name}_{fmt}{'_bin' if binary else ''}.msh"
            cmd = ["gmsh", *args, str(DATA / geo), "-o", str(path), "-format", fmt] + (["-bin"] if binary else [])
            subprocess.run(cmd, check=True, capture_output=True)
            files[(name, fmt, binary)] = path
    return files


def gmsh_view(path):
    """What gmsh's own API reports for a file: node coordinates by tag, element blocks
    (dim, entity, type, node tags) and physical groups {(dim, tag): (name, entities)}."""
    gmsh.initialize(["-noenv"], readConfigFiles=False)
    try:
        gmsh.option.setNumber("General.Terminal", 0)
        gmsh.open(str(path))
        tags, coords, _ = gmsh.model.mesh.getNodes()
        xyz = np.full((int(tags.max()) + 1, 3), np.nan)
        xyz[tags.astype(int)] = coords.reshape(-1, 3)
        blocks = []
        for dim, tag in gmsh.model.getEntities():
            types, etags, ntags = gmsh.model.mesh.getElements(dim, tag)
            for t, et, nt in zip(types, etags, ntags):
                blocks.append((dim, tag, int(t), np.asarray(nt, dtype=np.int64).reshape(len(et), -1)))
        groups = {
            (d, t): (gmsh.model.getPhysicalName(d, t), sorted(gmsh.model.getEntitiesForPhysicalGroup(d, t)))
            for d, t in gmsh.model.getPhysicalGroups()
        }
        return {"ntags": len(tags), "xyz": xyz, "blocks": blocks, "groups": groups}
    finally:
        gmsh.finalize()


def rows_sorted(a):
    a = np.round(np.asarray(a, dtype=float).reshape(len(a), -1), 9)
    return a[np.lexsort(a.T[::-1])] if len(a) else a


def check_against_gmsh(mesh, view, per_entity=True, used_nodes_only=False):
    """Our mesh says what gmsh's API says: same nodes, the same elements of each type (node
    coordinates in gmsh's order after meshio's permutation), the same physical groups.
    `used_nodes_only`: gmsh drops nodes no element uses when it reads MSH 2."""
    pts = np.asarray(mesh.points, dtype=float)
    if pts.shape[1] == 2:
        pts = np.column_stack([pts, np.zeros(len(pts))])
    nodes = pts
    if used_nodes_only:
        nodes = pts[np.unique(np.concatenate([np.ravel(b.data) for b in mesh.cells]))]
    assert len(nodes) == view["ntags"]
    np.testing.assert_allclose(rows_sorted(nodes), rows_sorted(view["xyz"][~np.isnan(view["xyz"][:, 0])]), atol=1e-12)
    ours, theirs = {}, {}
    for block in mesh.cells:
        gid = _meshio_to_gmsh_type[block.type]
        conn = to_gmsh_order(block.type, block.data)
        ours.setdefault(gid, []).append(pts[conn].reshape(len(conn), -1))
    for dim, tag, t, nt in view["blocks"]:
        theirs.setdefault(t, []).append(view["xyz"][nt].reshape(len(nt), -1))
    assert sorted(ours) == sorted(theirs)
    for t in ours:
        np.testing.assert_allclose(rows_sorted(np.concatenate(ours[t])), rows_sorted(np.concatenate(theirs[t])), atol=1e-9)
    # Physical groups: one region each, named by gmsh's name (or physical_<dim>_<tag>).
    regions = {(r.dim, r.tag): r for r in mesh.regions}
    for (dim, tag), (name, entities) in view["groups"].items():
        r = regions[(dim, tag)]
        assert r.name == (name or f"physical_{dim}_{tag}")
        assert r.kind == "cell"
        expected = sum(len(nt) for d, e, t, nt in view["blocks"] if d == dim and e in entities)
        assert len(r.entries) == expected, r.name
        if per_entity:
            geom = np.concatenate([np.asarray(g) for g in mesh.cell_data["gmsh:geometrical"]])
            dims = np.concatenate([np.full(len(b), cell_dim(b.type)) for b in mesh.cells])
            want = np.flatnonzero(np.isin(geom, entities) & (dims == dim))
            np.testing.assert_array_equal(r.entries, want)


def cell_dim(cell_type):
    for prefix, dim in (("vertex", 0), ("line", 1), ("triangle", 2), ("quad", 2)):
        if cell_type.startswith(prefix):
            return dim
    return 3


def check_against_meshio(ours, theirs):
    """Our arrays equal meshio's for the same file."""
    np.testing.assert_array_equal(ours.points, theirs.points)
    assert [c.type for c in ours.cells] == [c.type for c in theirs.cells]
    for a, b in zip(ours.cells, theirs.cells):
        np.testing.assert_array_equal(a.data, b.data[:, WEDGE18] if a.type == "wedge18" else b.data)
    for key in theirs.point_data:
        np.testing.assert_array_equal(ours.point_data[key], theirs.point_data[key])
    assert set(theirs.cell_data) <= set(ours.cell_data)
    for key in theirs.cell_data:
        for a, b in zip(ours.cell_data[key], theirs.cell_data[key]):
            np.testing.assert_array_equal(a, b)
    assert set(ours.field_data) == set(theirs.field_data)
    for key in theirs.field_data:
        np.testing.assert_array_equal(ours.field_data[key], theirs.field_data[key])
    for key, per_block in (theirs.cell_sets or {}).items():
        if key == "gmsh:bounding_entities":  # entity tags, not cells: not a region
            continue
        mine = ours.cell_sets[key]
        for a, b in zip(mine, per_block):
            np.testing.assert_array_equal(np.asarray(a).reshape(-1), np.asarray(b if b is not None else []).reshape(-1))
    assert len(ours.gmsh_periodic or []) == len(theirs.gmsh_periodic or [])
    for a, b in zip(ours.gmsh_periodic or [], theirs.gmsh_periodic or []):
        assert a[0] == b[0] and tuple(a[1]) == tuple(b[1])
        np.testing.assert_array_equal(np.ravel(a[2]), np.ravel(b[2]))
        np.testing.assert_array_equal(a[3], b[3])


# VTK edge-midpoint nodes of the quadratic types (nodes k..: midpoints of these edges).
MIDPOINTS = {
    "tetra10": (4, [(0, 1), (1, 2), (0, 2), (0, 3), (1, 3), (2, 3)]),
    "wedge15": (6, [(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3), (0, 3), (1, 4), (2, 5)]),
    "hexahedron20": (8, [(0, 1), (1, 2), (2, 3), (3, 0), (4, 5), (5, 6), (6, 7), (7, 4), (0, 4), (1, 5), (2, 6), (3, 7)]),
    "triangle6": (3, [(0, 1), (1, 2), (2, 0)]),
    "quad8": (4, [(0, 1), (1, 2), (2, 3), (3, 0)]),
}


def check_vtk_order(mesh):
    """Independent of any permutation table: edge nodes sit at the midpoints of VTK's edges
    (gmsh's meshes of these straight-sided shapes are exact)."""
    pts = np.asarray(mesh.points)
    for block in mesh.cells:
        for name in (block.type, block.type.replace("hexahedron27", "hexahedron20").replace("wedge18", "wedge15")):
            if name in MIDPOINTS:
                first, edges = MIDPOINTS[name]
                c = np.asarray(block.data)
                for i, (a, b) in enumerate(edges):
                    np.testing.assert_allclose(pts[c[:, first + i]], 0.5 * (pts[c[:, a]] + pts[c[:, b]]), atol=1e-9)
                break
        if block.type == "wedge18":
            c = np.asarray(block.data)
            for i, face in enumerate([(0, 1, 4, 3), (1, 2, 5, 4), (2, 0, 3, 5)]):
                np.testing.assert_allclose(pts[c[:, 15 + i]], pts[c[:, face]].mean(axis=1), atol=1e-9)


@pytest.mark.parametrize("name", list(SOURCES))
def test_read_matches_gmsh_and_meshio(made, name):
    for fmt, binary in VERSIONS:
        path = made[(name, fmt, binary)]
        mesh = mio.read(path)
        check_vtk_order(mesh)
        view = gmsh_view(path)
        # MSH 2 repeats an element once per physical group: compare gmsh's count of
        # elements with ours only where it keeps them (4.x).
        if fmt != "msh22":
            check_against_gmsh(mesh, view)
        # meshio 5.0 reads gmsh's "4" header with its 4.1 reader and fails, and its Mesh
        # cannot read wedge15 files at all (KeyError in its Mesh): no peer for those files.
        if fmt != "msh40" and name != "ext_o2i":
            check_against_meshio(mesh, meshio.read(path))
    # Every version and encoding gives the same mesh where the layouts agree.
    a, b, c = (mio.read(made[(name, f, bb)]) for f, bb in [("msh41", False), ("msh41", True), ("msh40", False)])
    np.testing.assert_allclose(a.points, b.points, atol=1e-14)
    for x, y, z in zip(a.cells, b.cells, c.cells):
        np.testing.assert_array_equal(x.data, y.data)
        np.testing.assert_array_equal(x.data, z.data)


# Gmsh 4.8 reads MSH 4.0 in ASCII only ("Can only read MSH 4.0 format in ASCII mode"); our
# binary 4.0 files are checked against meshio and our reader in test_meshio_round_trip_cases.
GMSH_READABLE = [(v, b) for v in ("2.2", "4.0", "4.1") for b in (False, True) if not (v == "4.0" and b)]


@pytest.mark.parametrize("name", ["square2d", "box3d_o2", "ext_o2i", "periodic"])
@pytest.mark.parametrize("version, binary", GMSH_READABLE)
def test_written_files_open_in_gmsh(made, tmp_path, name, version, binary):
    src = mio.read(made[(name, "msh41", True)])
    path = tmp_path / "out.msh"
    mio.write(path, src, fmt_version=version, binary=binary)
    view = gmsh_view(path)
    check_against_gmsh(src, view, per_entity=version != "2.2")
    back = mio.read(path)
    np.testing.assert_array_equal(back.points, src.points)
    # MSH 2.2 has no element blocks: reading joins consecutive blocks of one type.
    assert by_type(back) == by_type(src)
    expected = [(r.name, r.dim, r.tag, len(r)) for r in src.regions]
    if version == "2.2":  # one physical tag per element: a cell keeps its lowest group only
        expected = [
            (r.name, r.dim, r.tag, len(np.setdiff1d(r.entries, np.concatenate(
                [q.entries for q in src.regions if q.dim == r.dim and q.tag < r.tag] + [np.zeros(0, int)]))))
            for r in src.regions
        ]
    assert [(r.name, r.dim, r.tag, len(r)) for r in back.regions] == expected
    if name != "ext_o2i":  # meshio 5.0 cannot read wedge15
        theirs = meshio.read(path)
        np.testing.assert_array_equal(theirs.points, back.points)
        assert by_type(theirs) == by_type(back)
    if name == "periodic":
        assert len(back.gmsh_periodic) == len(src.gmsh_periodic)


def by_type(mesh):
    """{cell type: all its cells, in block order} as nested lists."""
    out = {}
    for block in mesh.cells:
        out.setdefault(block.type, []).extend(np.asarray(block.data).tolist())
    return out


# meshio's round-trip meshes (its test helpers are not installed; the same shapes here).
def _meshes():
    p2 = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0.5, 0, 0], [1, 0.5, 0], [0.5, 1, 0], [0, 0.5, 0], [0.5, 0.5, 0]], float)
    cube = np.array([[x, y, z] for z in (0, 0.5, 1) for y in (0, 0.5, 1) for x in (0, 0.5, 1)], float)
    ix = {tuple(p): i for i, p in enumerate(cube.tolist())}
    c = [ix[p] for p in [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0), (0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1)]]
    mid = lambda a, b: ix[tuple(((cube[a] + cube[b]) / 2).tolist())]  # noqa: E731
    hex_edges = MIDPOINTS["hexahedron20"][1]
    tet = [c[0], c[1], c[3], c[4]]
    return {
        "lines": mio.Mesh(p2[:4], [("line", [[0, 1], [1, 2], [2, 3]])]),
        "triangles": mio.Mesh(p2[:4], [("triangle", [[0, 1, 2], [0, 2, 3]])]),
        "triangle6": mio.Mesh(p2, [("triangle6", [[0, 1, 2, 4, 5, 8], [0, 2, 3, 8, 6, 7]])]),
        "quads": mio.Mesh(p2[:4], [("quad", [[0, 1, 2, 3]])]),
        "quad8": mio.Mesh(p2[:8], [("quad8", [[0, 1, 2, 3, 4, 5, 6, 7]])]),
        "tetra": mio.Mesh(cube, [("tetra", [tet])]),
        "tetra10": mio.Mesh(cube, [("tetra10", [tet + [mid(tet[a], tet[b]) for a, b in MIDPOINTS["tetra10"][1]]])]),
        "hexahedron": mio.Mesh(cube, [("hexahedron", [c])]),
        "hexahedron20": mio.Mesh(cube, [("hexahedron20", [c + [mid(c[a], c[b]) for a, b in hex_edges]])]),
    }


MESHES = _meshes()


@pytest.mark.parametrize("key", list(MESHES))
@pytest.mark.parametrize("version", ["2.2", "4.0", "4.1"])
@pytest.mark.parametrize("binary", [False, True])
def test_meshio_round_trip_cases(tmp_path, key, version, binary):
    mesh = add_cell_data(add_point_data(MESHES[key], 3), [("c", (), float), ("v", (3,), float)])
    mesh.point_data["s"] = np.arange(len(mesh.points), dtype=float) / 3
    mesh.field_data = {"grp": np.array([7, 1])}
    back = write_read(tmp_path, mesh, "gmsh", suffix=".msh", fmt_version=version, binary=binary)
    np.testing.assert_array_equal(back.field_data["grp"], [7, 1])
    # gmsh reads it and sees the same elements; meshio reads the same arrays.
    if (version, binary) in GMSH_READABLE:
        check_against_gmsh(back, gmsh_view(tmp_path / "roundtrip.msh"), per_entity=False, used_nodes_only=version == "2.2")
    theirs = meshio.read(tmp_path / "roundtrip.msh")
    np.testing.assert_array_equal(theirs.points[:, : mesh.points.shape[1]], mesh.points)
    np.testing.assert_array_equal(theirs.cells[0].data, np.asarray(mesh.cells[0].data))
    for k in ("a0", "a1", "s"):
        np.testing.assert_array_equal(theirs.point_data[k], mesh.point_data[k])
    np.testing.assert_array_equal(theirs.cell_data["v"][0], mesh.cell_data["v"][0])


def test_regions_become_physical_groups(tmp_path):
    mesh = mio.Mesh(
        np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], float),
        [("triangle", [[0, 1, 2], [0, 2, 3]]), ("line", [[0, 1], [1, 2]])],
        regions=[mio.Region("first", "cell", [0]), mio.Region("bottom", "cell", [2], dim=1, tag=9)],
    )
    for version in ("2.2", "4.1"):
        path = tmp_path / f"r{version}.msh"
        mio.write(path, mesh, fmt_version=version)
        view = gmsh_view(path)
        names = {name for name, _ in view["groups"].values()}
        assert names == {"first", "bottom"}
        assert (1, 9) in view["groups"]
        back = mio.read(path)
        assert {r.name: len(r) for r in back.regions} == {"first": 1, "bottom": 1}
        assert "first" in back.cell_sets


def test_keywords_and_errors(tmp_path):
    mesh = MESHES["triangles"]
    mio.gmsh.write(tmp_path / "a.msh", mesh, binary=False, float_fmt=".3e")
    assert "1.000e+00" in (tmp_path / "a.msh").read_text()
    assert mio.gmsh.read(tmp_path / "a.msh").cells[0].type == "triangle"
    with pytest.raises(Exception, match="fmt_versoin"):
        mio.write(tmp_path / "b.msh", mesh, fmt_versoin="2.2")
    bad = tmp_path / "bad.msh"
    bad.write_bytes((tmp_path / "a.msh").read_bytes().replace(b"$EndNodes", b"$EndNodez"))
    with pytest.raises(mio.ReadError, match=r"bad\.msh: line \d+ .*expected \$EndNodes"):
        mio.read(bad)


def _large_triangle_mesh(n=40_000):
    rng = np.random.default_rng(3)
    points = rng.random((n + 2, 3))
    tris = np.stack([np.arange(n), np.arange(n) + 1, np.arange(n) + 2], axis=1)
    return mio.Mesh(points, [("triangle", tris)])


def test_large_ascii_blocks_parsed_in_parallel_equal_the_binary_read(tmp_path):
    # Blocks of 32768+ rows are cut at line starts and parsed on several threads.
    mesh = _large_triangle_mesh()
    ascii_path, binary_path = tmp_path / "a.msh", tmp_path / "b.msh"
    mio.write(ascii_path, mesh, "gmsh", binary=False)
    mio.write(binary_path, mesh, "gmsh", binary=True)
    a, b = mio.read(ascii_path), mio.read(binary_path)
    np.testing.assert_array_equal(a.cells[0].data, mesh.cells[0].data)
    np.testing.assert_array_equal(a.cells[0].data, b.cells[0].data)


def test_large_ascii_block_whose_rows_span_lines_still_reads_right(tmp_path):
    # The spec separates values by whitespace, not lines: rows wrapped over two lines make
    # the line cut wrong, which the reader must detect and fall back from.
    mesh = _large_triangle_mesh()
    path = tmp_path / "wrapped.msh"
    mio.write(path, mesh, "gmsh", binary=False)
    text = path.read_text()
    head, rest = text.split("$Elements\n", 1)
    body, tail = rest.split("$EndElements\n", 1)
    lines = body.splitlines()
    header, rows = lines[:2], lines[2:]
    wrapped = [r.replace(" ", "\n", 1) if i % 3 == 0 else r for i, r in enumerate(rows)]
    path.write_text(head + "$Elements\n" + "\n".join(header + wrapped) + "\n$EndElements\n" + tail)
    np.testing.assert_array_equal(mio.read(path).cells[0].data, mesh.cells[0].data)


def test_bad_token_in_a_late_parallel_chunk_names_its_line(tmp_path):
    mesh = _large_triangle_mesh()
    path = tmp_path / "bad.msh"
    mio.write(path, mesh, "gmsh", binary=False)
    lines = path.read_text().splitlines(keepends=True)
    target = len(lines) - 10  # an element row near the end: the last chunk
    lines[target] = lines[target].replace(" ", " x", 1)
    path.write_text("".join(lines))
    with pytest.raises(mio.ReadError, match=rf"line {target + 1}\b"):
        mio.read(path)


def test_bad_node_tags_in_two_parallel_binary_chunks_report_the_first_in_the_file(tmp_path):
    mesh = _large_triangle_mesh()
    path = tmp_path / "bad.msh"
    mio.write(path, mesh, "gmsh", binary=True)
    data = bytearray(path.read_bytes())
    rows = data.index(b"$Elements\n") + len(b"$Elements\n") + 4 * 8 + 3 * 4 + 8  # section + block headers
    assert int.from_bytes(data[rows - 8 : rows], "little") == 40_000  # the block's element count
    first, late = rows + 10 * 32 + 8, rows + 39_990 * 32 + 8  # node 0 of rows 10 and 39990
    data[first : first + 8] = (10**12).to_bytes(8, "little")
    data[late : late + 8] = (10**12 + 1).to_bytes(8, "little")
    path.write_bytes(bytes(data))
    for _ in range(5):  # whatever the thread timing
        with pytest.raises(mio.ReadError, match="node tag 1000000000000 does not exist"):
            mio.read(path)


def test_geometry_only_file_is_an_empty_mesh(tmp_path):
    """$Entities and no $Elements (a model saved before meshing): Gmsh opens it as an
    empty mesh, and so do we; without $Entities either it is still an error."""
    path = tmp_path / "geo_only.msh"
    path.write_text("$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Entities\n1 0 0 0\n1 0 0 0 0\n$EndEntities\n")
    out = tmp_path / "gmsh_out.msh"
    r = subprocess.run(["gmsh", "-v", "2", str(path), "-0", "-o", str(out)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "Error" not in r.stdout + r.stderr
    mesh = mio.read(path)
    assert mesh.points.shape == (0, 3) and mesh.cells == [] and not mesh.cell_sets
    assert len(mio.read(out).points) == 0  # what gmsh saves from it reads the same
    bare = tmp_path / "bare.msh"
    bare.write_text("$MeshFormat\n4.1 0 8\n$EndMeshFormat\n")
    with pytest.raises(mio.ReadError, match="no \\$Elements"):
        mio.read(bare)


@pytest.mark.parametrize("binary", [False, True])
def test_msh40_written_is_version_4_and_keeps_periodic_links(made, tmp_path, binary):
    src = mio.read(made[("periodic", "msh41", True)])
    path = tmp_path / "p40.msh"
    mio.gmsh.write(path, src, fmt_version="4.0", binary=binary)
    assert path.read_bytes().split(b"\n")[1].startswith(b"4.0 ")
    back = mio.read(path)
    np.testing.assert_array_equal(back.points, src.points)
    assert by_type(back) == by_type(src)
    assert [(p[0], p[1]) for p in back.gmsh_periodic] == [(p[0], p[1]) for p in src.gmsh_periodic]
    for a, b in zip(back.gmsh_periodic, src.gmsh_periodic):
        np.testing.assert_array_equal(a[3], b[3])
    assert [(r.name, r.dim, r.tag, len(r)) for r in back.regions] == [(r.name, r.dim, r.tag, len(r)) for r in src.regions]
