"""VTU against the real VTK and meshio 5.0: VTK reads every file we write (every mode),
we read every file VTK writes (every data mode x compressor x header type), meshio reads
what we write and we read what meshio writes, and meshio's own vtu round-trip cases."""
from __future__ import annotations

import copy

import numpy as np
import pytest

import helpers
import meshio
import meshioplusplus as mio
import test_vtk_oracle as oracle

meshio = pytest.importorskip("meshio", reason="meshio is the peer for cross-checks")

_pts = np.array([[x * 0.5, y * 1.25 - 0.1 * x, z * 2.0 + 1e-3 * (x + y)] for z in range(3) for y in range(3) for x in range(3)])


def _rows(k, m, seed):
    return np.array([[(i * k + j) * 7 % 27 if j == 0 else (i * 5 + j * (seed + 1)) % 27 for j in range(k)] for i in range(m)])


wedge_pyramid_mesh = mio.Mesh(_pts, [("wedge", [[0, 1, 3, 9, 10, 12], [1, 2, 4, 10, 11, 13]]), ("pyramid", [[0, 1, 4, 3, 13]])])
quadratic_mesh = mio.Mesh(_pts, [(t, _rows(k, 2, k)) for t, k in [("line3", 3), ("triangle6", 6), ("quad8", 8), ("quad9", 9),
                                                                  ("tetra10", 10), ("hexahedron20", 20), ("hexahedron27", 27),
                                                                  ("wedge15", 15), ("pyramid13", 13), ("triangle10", 10)]])
polygon_mesh = mio.Mesh(_pts, [("polygon", [[0, 1, 2, 5, 4], [3, 4, 5, 8, 7]]), ("triangle", [[0, 1, 4]]),
                               ("polygon", [np.array([0, 1, 4]), np.array([1, 2, 5, 4]), np.array([3, 4, 7, 6, 9, 10])])])
_cube = [np.array(f) for f in ([0, 1, 4, 3], [9, 12, 13, 10], [0, 9, 10, 1], [1, 10, 13, 4], [4, 13, 12, 3], [3, 12, 9, 0])]
_pyr = [np.array(f) for f in ([9, 10, 13, 12], [9, 10, 22], [10, 13, 22], [13, 12, 22], [12, 9, 22])]
polyhedron_mesh = mio.Mesh(_pts, [("polyhedron8", [_cube]), ("polyhedron5", [_pyr, _pyr])])

# meshio 5.0 cannot build wedge15 or pyramid13 blocks (missing from its topological_dimension) and
# names Lagrange cells VTK_LAGRANGE_*: the meshio cross-checks use the other types.
quadratic_meshio_mesh = mio.Mesh(_pts, [c for c in quadratic_mesh.cells if c.type not in ("wedge15", "pyramid13", "triangle10")])

MESHES = {
    "tri_2d": helpers.tri_mesh_2d,
    "tri": helpers.tri_mesh,
    "line": helpers.line_mesh,
    "tri_quad": helpers.tri_quad_mesh,
    "tet": helpers.tet_mesh,
    "hex": helpers.hex_mesh,
    "wedge_pyramid": wedge_pyramid_mesh,
    "quadratic": quadratic_mesh,
    "polygons": polygon_mesh,
    "polyhedra": polyhedron_mesh,
    "quadratic_meshio": quadratic_meshio_mesh,
}


def with_data(mesh):
    mesh = helpers.add_point_data(mesh, 1)
    mesh.point_data["vec"] = np.arange(3 * len(mesh.points), dtype=np.float32).reshape(-1, 3) / 7
    mesh.point_data["i32"] = np.arange(len(mesh.points), dtype=np.int32) - 5
    mesh = helpers.add_cell_data(mesh, [("cd", (), np.float64), ("cd3", (3,), np.int64)])
    mesh.field_data = {"fd": np.array([1, 2, 3], dtype=np.int32), "pi": np.array([np.pi])}
    return mesh


MODES = {
    "ascii": dict(binary=False),
    "binary": dict(binary=True, compression=None),
    "binary_zlib": dict(binary=True, compression="zlib"),
    "appended": dict(data_mode="appended", compression=None),
    "appended_zlib_uint32": dict(data_mode="appended", compression="zlib", header_type="UInt32"),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", MESHES)
def test_vtk_reads_what_we_write(tmp_path, name, mode):
    oracle.assert_vtk_reads_what_we_write(tmp_path / "ours.vtu", with_data(MESHES[name]), **MODES[mode])


VTK_MODES = [(dm, comp, ht, enc) for dm in ("ascii", "binary", "appended") for comp in (None, "zlib")
             for ht in ("UInt32", "UInt64") for enc in ((False, True) if dm == "appended" else (False,))
             if not (dm == "ascii" and (comp or ht == "UInt32"))]


@pytest.mark.parametrize("dm,comp,ht,enc", VTK_MODES)
@pytest.mark.parametrize("name", ["tri_2d", "wedge_pyramid", "quadratic", "polygons", "polyhedra"])
def test_we_read_what_vtk_writes(tmp_path, name, dm, comp, ht, enc):
    src = tmp_path / "src.vtu"
    mio.write(src, with_data(MESHES[name]))
    grid = oracle.vtk_grid_from_file(src)
    path = oracle.vtk_write_xml(grid, tmp_path / "vtk.vtu", dm, comp, ht, enc)
    ours = mio.read(path)
    oracle.assert_flat_equal(oracle.vtk_read(path), oracle.flat_from_mesh(ours))


@pytest.mark.parametrize("dm", ["binary", "appended"])
@pytest.mark.parametrize("compressor,name", [("lz4", "vtkLZ4DataCompressor"), ("lzma", "vtkLZMADataCompressor")])
@pytest.mark.parametrize("mesh_name", ["quadratic", "polygons", "polyhedra"])
def test_lz4_and_lzma_both_ways_with_vtk(tmp_path, compressor, name, dm, mesh_name):
    mesh = with_data(MESHES[mesh_name])
    # We read what VTK writes (vtkLZ4DataCompressor / vtkLZMADataCompressor) ...
    src = tmp_path / "src.vtu"
    mio.write(src, mesh)
    path = oracle.vtk_write_xml(oracle.vtk_grid_from_file(src), tmp_path / "vtk.vtu", dm, compressor)
    assert f'compressor="{name}"' in path.read_text(errors="replace")
    oracle.assert_flat_equal(oracle.vtk_read(path), oracle.flat_from_mesh(mio.read(path)))
    # ... and VTK reads what we write.
    ours = tmp_path / "ours.vtu"
    mio.write(ours, mesh, compression=compressor, data_mode=dm)
    assert f'compressor="{name}"' in ours.read_text(errors="replace")
    oracle.assert_flat_equal(oracle.flat_from_mesh(mesh), oracle.vtk_read(ours))


def test_lzma_is_what_meshio_writes_and_reads(tmp_path):
    mesh = with_data(MESHES["quadratic_meshio"])
    ours, theirs = tmp_path / "ours.vtu", tmp_path / "theirs.vtu"
    mio.vtu.write(ours, mesh, compression="lzma")
    meshio.vtu.write(theirs, _meshio_mesh(mesh), compression="lzma")
    oracle.assert_flat_equal(oracle.flat_from_mesh(mesh), oracle.flat_from_mesh(meshio.read(ours)), check_dtype=False)
    oracle.assert_flat_equal(oracle.flat_from_mesh(meshio.read(theirs)), oracle.flat_from_mesh(mio.read(theirs)), check_dtype=False)


def test_corrupt_lz4_and_lzma_blocks_are_read_errors(tmp_path):
    for compressor in ("lz4", "lzma"):
        path = tmp_path / f"{compressor}.vtu"
        mio.write(path, with_data(MESHES["quadratic"]), compression=compressor, data_mode="appended")
        raw = bytearray(path.read_bytes())
        at = raw.index(b"<AppendedData")
        at = raw.index(b"_", at) + 1 + 40  # inside the first array's compressed bytes
        raw[at : at + 16] = b"\xff" * 16
        path.write_bytes(bytes(raw))
        with pytest.raises(mio.ReadError, match="block"):
            mio.read(path)


def _meshio_mesh(mesh):
    cells = [(c.type, c.data) for c in mesh.cells]
    return meshio.Mesh(np.asarray(mesh.points), cells, point_data=dict(mesh.point_data),
                       cell_data={k: list(v) for k, v in mesh.cell_data.items()}, field_data=dict(mesh.field_data))


MESHIO_COMPARABLE = ["tri", "line", "tri_quad", "tet", "hex", "wedge_pyramid", "quadratic_meshio"]


# Not "appended": meshio 5.0 re-locates appended arrays by searching for offset="N" after
# rewriting earlier offsets, and mixes arrays up when a rewritten offset equals a later one.
@pytest.mark.parametrize("mode", ["ascii", "binary", "binary_zlib"])
@pytest.mark.parametrize("name", MESHIO_COMPARABLE)
def test_meshio_reads_what_we_write(tmp_path, name, mode):
    mesh = with_data(MESHES[name])
    path = tmp_path / "ours.vtu"
    mio.write(path, mesh, **MODES[mode])
    theirs = meshio.read(path)
    helpers.assert_mesh_equal(mesh, theirs)
    assert set(theirs.point_data) == set(mesh.point_data)


@pytest.mark.parametrize("kw", [dict(binary=False), dict(binary=True, compression=None), dict(binary=True, compression="zlib"),
                                dict(binary=True, compression="zlib", header_type="UInt64")])
@pytest.mark.parametrize("name", MESHIO_COMPARABLE)
def test_we_read_what_meshio_writes(tmp_path, name, kw):
    mesh = with_data(MESHES[name])
    path = tmp_path / "meshio.vtu"
    meshio.write(path, _meshio_mesh(mesh), **kw)
    ours = mio.read(path)
    helpers.assert_mesh_equal(meshio.read(path), ours)
    # meshio writes ASCII floats as {:.11e}: equal to the source only to ~1e-11 relative.
    helpers.assert_mesh_equal(mesh, ours, atol=1e-9 if not kw["binary"] else 0.0)


def test_we_read_meshio_polyhedra(tmp_path):
    path = tmp_path / "meshio_poly.vtu"
    meshio.write(path, _meshio_mesh(polyhedron_mesh))
    ours = mio.read(path)
    oracle.assert_flat_equal(oracle.flat_from_mesh(polyhedron_mesh), oracle.flat_from_mesh(ours))


# meshio's test_vtu.py cases: its helper meshes x binary/ascii x compression, plus data.
@pytest.mark.parametrize("kw", [dict(binary=False), dict(binary=True, compression=None), dict(binary=True, compression="zlib")])
@pytest.mark.parametrize("name", list(MESHES))
def test_write_read(tmp_path, name, kw):
    mesh = with_data(MESHES[name])
    before = copy.deepcopy(mesh)
    path = tmp_path / "rt.vtu"
    mio.write(path, mesh, **kw)
    back = mio.read(path)
    oracle.assert_flat_equal(oracle.flat_from_mesh(before), oracle.flat_from_mesh(back))
    oracle.assert_flat_equal(oracle.flat_from_mesh(before), oracle.flat_from_mesh(mesh))
    # polyhedron<n> blocks come back as written (one run per n); meshio 5.0 itself cannot
    # read this file back (it splits the cell data of polyhedra wrongly).
    assert [c.type for c in back.cells] == [c.type for c in before.cells] or name == "polygons"
    if name == "polygons":
        # Block shapes as meshio reads the same file: rectangular polygon runs, file order.
        peer = meshio.read(path)
        assert [(c.type, len(c)) for c in back.cells] == [(c.type, len(c)) for c in peer.cells]
        for ours, theirs in zip(back.cells, peer.cells):
            if isinstance(theirs.data, np.ndarray):
                assert isinstance(ours.data, np.ndarray)
                np.testing.assert_array_equal(ours.data, theirs.data)
            else:
                assert [[list(f) for f in c] for c in ours.data] == [[list(f) for f in c] for c in theirs.data]


def test_byte_identical_across_threads(tmp_path):
    mesh = with_data(helpers.tet_mesh)
    outs = []
    for t in (1, 2, 4):
        mio.write(tmp_path / f"t{t}.vtu", mesh, threads=t)
        outs.append((tmp_path / f"t{t}.vtu").read_bytes())
    assert outs[0] == outs[1] == outs[2]


def test_version_attribute_is_2_2_only_for_current_order_lagrange_hexahedra(tmp_path):
    # VTK 9.1 converts VTK_LAGRANGE_HEXAHEDRON nodes from the pre-2.2 order; we write the
    # current order, so such files say 2.2 (as VTK's writer does); others say 1.0, which
    # meshio 5 reads too.
    import meshio

    hex64 = mio.Mesh(np.random.default_rng(0).random((64, 3)), [("hexahedron64", np.arange(64)[None, :])])
    mio.write(tmp_path / "h.vtu", hex64)
    assert b'version="2.2"' in (tmp_path / "h.vtu").read_bytes()[:200]
    mio.write(tmp_path / "t.vtu", helpers.tet_mesh)
    assert b'version="1.0"' in (tmp_path / "t.vtu").read_bytes()[:200]
    assert len(meshio.read(tmp_path / "t.vtu").cells[0]) == len(helpers.tet_mesh.cells[0])
