"""Canonical test meshes (after meshio's test helpers), the one write/read round trip, and
the scaffolding the format tests share.

Each mesh is small and hand-checkable; add_* decorate a mesh with data. write_read writes
with our writer, reads back with our reader, and checks the input was not mutated. The
rest, written once for every format's tests: blocks gathered by type, the gmsh program and
gmsh's Python API as oracles, VTK's polydata readers as oracles, and the check that 2-D
points are written with z = 0.
"""
from __future__ import annotations

import contextlib
import copy
import shutil
import subprocess
import warnings
from pathlib import Path

import numpy as np
import pytest

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
SURFACE_FORMATS = {"ply", "obj", "stl", "off", "neuroglancer", "vtp", "pvtp", "wkt"}
# VTK's structured XML formats write a logical grid only: one hexahedron with its points i fastest.
GRID_FORMATS = {"vts", "vtr", "vti"}
grid_hex_mesh = mio.Mesh(np.array([[i, j, k] for k in range(2) for j in range(2) for i in range(2)], dtype=float),
                         [("hexahedron", [[0, 1, 3, 2, 4, 5, 7, 6]])])


def simple_mesh_for(file_format: str):
    """The smallest mesh every writer of ``file_format`` accepts, and its `info` cell line."""
    if file_format in GRID_FORMATS:
        return grid_hex_mesh, "hexahedron: 1"
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


def blocks_by_type(mesh, key=None, types=None):
    """{cell type: its blocks' rows (or, with `key`, its blocks' cell_data[key]) concatenated
    in block order}, over the types in `types` (all when None). Takes a Mesh (ours or
    meshio's) or a list of cell blocks."""
    cells = mesh if isinstance(mesh, list) else mesh.cells
    out = {}
    for i, c in enumerate(cells):
        if types is None or c.type in types:
            out.setdefault(c.type, []).append(np.asarray(c.data) if key is None else np.asarray(mesh.cell_data[key][i]))
    return {t: np.concatenate(v) for t, v in out.items()}


# --- gmsh -------------------------------------------------------------------------------
needs_gmsh_program = pytest.mark.skipif(shutil.which("gmsh") is None, reason="the gmsh oracle needs the gmsh program (Debian gmsh)")


def run_gmsh(*args):
    """The gmsh program with these arguments (paths as str); fails the test if it fails."""
    subprocess.run(["gmsh", *map(str, args)], check=True, capture_output=True, timeout=120)


def gmsh_export(geo, args, tmp_path, suffix):
    """The gmsh program meshes `geo` with `args` and saves the mesh as .msh and as `suffix`:
    (our reading of the `suffix` file, our reading of the .msh file)."""
    run_gmsh(*args, geo, "-o", tmp_path / "a.msh")
    run_gmsh(*args, geo, "-o", tmp_path / f"a{suffix}")
    return mio.read(tmp_path / f"a{suffix}"), mio.read(tmp_path / "a.msh")


@contextlib.contextmanager
def gmsh_opened(path):
    """gmsh's Python API (python3-gmsh) with `path` opened: quiet, no user configuration."""
    import gmsh

    gmsh.initialize(["-noenv"], readConfigFiles=False)
    try:
        gmsh.option.setNumber("General.Terminal", 0)
        gmsh.open(str(path))
        yield gmsh
    finally:
        gmsh.finalize()


def gmsh_nodes_and_elements(gmsh):
    """gmsh's own reading of the opened model: {node tag: xyz}, {gmsh type name: (element
    tags, node tags as rows)}."""
    tags, coords, _ = gmsh.model.mesh.getNodes()
    xyz = dict(zip(tags.tolist(), coords.reshape(-1, 3)))
    elements = {}
    for t, etags, ntags in zip(*gmsh.model.mesh.getElements()):
        name, _, _, nn, _, _ = gmsh.model.mesh.getElementProperties(t)
        elements[name] = (etags, ntags.reshape(-1, nn))
    return xyz, elements


# --- VTK --------------------------------------------------------------------------------
def vtk_polydata(reader, path):
    """A VTK polydata reader's (vtk.vtkOBJReader(), vtk.vtkPLYReader(), ...) view of `path`:
    points, the polys' flat connectivity (count, ids, count, ids...) and the point arrays."""
    from vtk.util.numpy_support import vtk_to_numpy

    reader.SetFileName(str(path))
    reader.Update()
    out = reader.GetOutput()
    pd = out.GetPointData()
    arrays = {pd.GetArray(i).GetName(): vtk_to_numpy(pd.GetArray(i)) for i in range(pd.GetNumberOfArrays())}
    return vtk_to_numpy(out.GetPoints().GetData()), vtk_to_numpy(out.GetPolys().GetData()), arrays


def flat_polys(mesh):
    """The mesh's faces as VTK's flat polys connectivity (count, ids, count, ids...)."""
    out = []
    for c in mesh.cells:
        for row in np.asarray(c.data):
            out += [len(row), *row]
    return np.array(out)


def assert_2d_points_written_with_zero_z(path):
    """Writes tri_mesh_2d to `path` and reads it back: x, y kept, z = 0. Returns the mesh read."""
    mio.write(path, tri_mesh_2d)
    back = mio.read(path)
    np.testing.assert_array_equal(back.points[:, :2], tri_mesh_2d.points)
    np.testing.assert_array_equal(back.points[:, 2], 0)
    return back


# --- DLPack ---------------------------------------------------------------------------
class DLPackOnly:
    """A foreign host exporter speaking nothing but DLPack (no __array__, no buffer)."""

    def __init__(self, a):
        self._a = a

    def __dlpack_device__(self):
        return self._a.__dlpack_device__()

    def __dlpack__(self, stream=None, **kwargs):
        try:
            return self._a.__dlpack__(stream=stream, **kwargs)
        except TypeError:  # numpy 1.x knows only `stream`
            return self._a.__dlpack__(stream=stream)


def quiet(fn, *args, **kw):
    """fn(*args, **kw) with its warnings silenced (meshio's, ours where a test expects them)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kw)


def gmsh_msh_files(out_dir, sources, geo_dir):
    """{name: .msh path} made by the gmsh program from sources {name: (geo file, gmsh args)}."""
    out = {}
    for name, (geo, args) in sources.items():
        msh = Path(out_dir) / f"{name}.msh"
        subprocess.run(["gmsh", *args, str(Path(geo_dir) / geo), "-o", str(msh), "-format", "msh41"], check=True,
                       capture_output=True)
        out[name] = msh
    return out
