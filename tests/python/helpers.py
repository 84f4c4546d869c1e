"""Canonical test meshes (after meshio's test helpers) and the one write/read round trip.

Each mesh is small and hand-checkable; add_* decorate a mesh with data. write_read writes
with our writer, reads back with our reader, and checks the input was not mutated.
"""
from __future__ import annotations

import copy

import numpy as np

import meshioplusplus as mio

tri_mesh_2d = mio.Mesh(np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]), [("triangle", [[0, 1, 2], [0, 2, 3]])])
tri_mesh = mio.Mesh(np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]]), [("triangle", [[0, 1, 2], [0, 2, 3]])])
line_mesh = mio.Mesh(tri_mesh.points, [("line", [[0, 1], [1, 2], [2, 3], [3, 0]])])
quad_mesh = mio.Mesh(
    np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [2.0, 0.0, 0.0], [2.0, 1.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]]),
    [("quad", [[0, 1, 4, 5], [1, 2, 3, 4]])],
)
tri_quad_mesh = mio.Mesh(quad_mesh.points, [("triangle", [[0, 1, 4], [0, 4, 5]]), ("quad", [[1, 2, 3, 4]])])
tet_mesh = mio.Mesh(
    np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0], [0.5, 0.5, 0.5]]),
    [("tetra", [[0, 1, 2, 4], [0, 2, 3, 4]])],
)
hex_mesh = mio.Mesh(
    np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]], dtype=float),
    [("hexahedron", [[0, 1, 2, 3, 4, 5, 6, 7]])],
)


# Surface formats hold no volume cells: tests that need any readable-and-writable mesh use
# a triangle mesh for them and the tetrahedra elsewhere.
SURFACE_FORMATS = {"ply", "obj", "stl", "off"}


def simple_mesh_for(file_format: str):
    """The smallest mesh every writer of ``file_format`` accepts, and its `info` cell line."""
    return (tri_mesh, "triangle: 2") if file_format in SURFACE_FORMATS else (tet_mesh, "tetra: 2")


def add_point_data(mesh, dim, num_tags=2, dtype=float, seed=0):
    mesh = copy.deepcopy(mesh)
    rng = np.random.default_rng(seed)
    shape = (len(mesh.points),) if dim == 1 else (len(mesh.points), dim)
    mesh.point_data = {f"a{k}": rng.random(shape).astype(dtype) for k in range(num_tags)}
    return mesh


def add_cell_data(mesh, specs, seed=0):
    mesh = copy.deepcopy(mesh)
    rng = np.random.default_rng(seed)
    mesh.cell_data = {
        name: [(100 * rng.random((len(block),) + shape)).astype(dtype) for block in mesh.cells] for name, shape, dtype in specs
    }
    return mesh


def add_field_data(mesh, value, dtype):
    mesh = copy.deepcopy(mesh)
    mesh.field_data = {"a": np.array(value, dtype=dtype)}
    return mesh


def assert_mesh_equal(a, b, atol=0.0):
    np.testing.assert_allclose(a.points, b.points, atol=atol, rtol=0)
    assert [c.type for c in a.cells] == [c.type for c in b.cells]
    for ca, cb in zip(a.cells, b.cells):
        np.testing.assert_array_equal(np.asarray(ca.data), np.asarray(cb.data))
    # Formats may add their own data (gmsh:physical, ...): every array of `a` must be in `b`.
    assert set(a.point_data) <= set(b.point_data)
    assert set(a.cell_data) <= set(b.cell_data)
    for k in a.point_data:
        np.testing.assert_allclose(a.point_data[k], b.point_data[k], atol=atol, rtol=0)
    for k in a.cell_data:
        for x, y in zip(a.cell_data[k], b.cell_data[k]):
            np.testing.assert_allclose(x, y, atol=atol, rtol=0)


def write_read(tmp_path, mesh, file_format, atol=0.0, suffix="", **kwargs):
    """Write `mesh`, read it back, compare; also assert the input was not mutated."""
    before = copy.deepcopy(mesh)
    path = tmp_path / f"roundtrip{suffix}"
    mio.write(path, mesh, file_format, **kwargs)
    back = mio.read(path, file_format)
    assert_mesh_equal(mesh, before)
    assert_mesh_equal(mesh, back, atol=atol)
    return back
