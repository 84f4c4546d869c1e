"""to_vtk and the VTU writer are one owner: for every cell type both support, the grid
to_vtk hands VTK in memory and the grid VTK's own reader (vtkXMLUnstructuredGridReader)
makes of ``mio.write("x.vtu", mesh)`` hold the same cell types and the same point ids per
cell. from_vtk of either grid gives the mesh back. VTK is the oracle (python3-vtk9)."""
import numpy as np
import pytest

vtk_util = pytest.importorskip("vtkmodules.util.numpy_support", reason="VTK is a Debian test oracle (python3-vtk9)")
from vtkmodules.vtkCommonCore import vtkIdList  # noqa: E402
from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridReader  # noqa: E402

import meshioplusplus as mio  # noqa: E402
from meshioplusplus import _interop  # noqa: E402

CELL_TYPES = mio._core.cell_types()  # name -> (nodes, dim, linear parent)
FIXED = sorted(name for name, (k, _, _) in CELL_TYPES.items() if k > 0 and _interop.vtk_cell_type(name) >= 0)


def test_the_parametrisation_covers_the_vocabulary():
    # every fixed-size type VTK can hold, linear and high order, the wedge among them
    assert {"vertex", "line", "triangle", "quad", "tetra", "hexahedron", "wedge", "pyramid", "pyramid14",
            "triangle10", "hexahedron27"} <= set(FIXED)


def fixed_mesh(name: str) -> mio.Mesh:
    """Two cells of `name` over 2k points, nodes in a scrambled order (so an order
    difference between two paths cannot hide)."""
    k = CELL_TYPES[name][0]
    rng = np.random.default_rng(k)
    points = rng.random((2 * k, 3))
    cells = np.stack([rng.permutation(2 * k)[:k], rng.permutation(2 * k)[:k]]).astype(np.int64)
    return mio.Mesh(points, [(name, cells)])


def polygon_mesh() -> mio.Mesh:
    return mio.Mesh(np.random.default_rng(1).random((7, 3)), [("polygon", [np.array([0, 1, 2, 3]), np.array([4, 5, 6, 1, 0])])])


def polyhedron_mesh() -> mio.Mesh:
    points = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]], dtype=float)
    cube = [np.array(f) for f in ([0, 3, 2, 1], [4, 5, 6, 7], [0, 1, 5, 4], [1, 2, 6, 5], [2, 3, 7, 6], [3, 0, 4, 7])]
    tet = [np.array(f) for f in ([0, 1, 2], [0, 1, 5], [1, 2, 5], [0, 2, 5])]
    return mio.Mesh(points, [("polyhedron", [cube, tet])])


def cells_of(grid) -> list:
    """(VTK cell type, point ids) of every cell, as VTK itself reports them (GetCellPoints:
    VTK 9.1 cannot instantiate every cell type it stores, e.g. a 14-node Lagrange pyramid)."""
    out = []
    for c in range(grid.GetNumberOfCells()):
        ids = vtkIdList()
        grid.GetCellPoints(c, ids)
        out.append((grid.GetCellType(c), [ids.GetId(j) for j in range(ids.GetNumberOfIds())]))
    return out


def vtk_read(path):
    reader = vtkXMLUnstructuredGridReader()
    reader.SetFileName(str(path))
    reader.Update()
    return reader.GetOutput()


def _case(name, make):
    return pytest.param(name, make, id=name)


MESHES = [_case(name, lambda name=name: fixed_mesh(name)) for name in FIXED] + [
    _case("polygon", polygon_mesh), _case("polyhedron", polyhedron_mesh)]


@pytest.mark.parametrize("name,make", MESHES)
def test_to_vtk_and_the_vtu_file_give_vtk_the_same_cells(name, make, tmp_path):
    mesh = make()
    path = tmp_path / "x.vtu"
    mio.write(path, mesh)
    from_file = vtk_read(path)
    assert from_file.GetNumberOfCells() == len(mesh.cells[0]), "VTK read the file"
    in_memory = mio.to_vtk(mesh)
    assert cells_of(in_memory) == cells_of(from_file)
    np.testing.assert_array_equal(vtk_util.vtk_to_numpy(in_memory.GetPoints().GetData()), mesh.points)


@pytest.mark.parametrize("name,make", MESHES)
def test_from_vtk_reads_both_grids_back_as_the_mesh(name, make, tmp_path):
    mesh = make()
    path = tmp_path / "x.vtu"
    mio.write(path, mesh)
    for grid in (mio.to_vtk(mesh), vtk_read(path)):
        back = mio.from_vtk(grid)
        assert [b.type for b in back.cells] == [name]
        if name == "polyhedron":
            for a, b in zip(mesh.cells[0].data, back.cells[0].data):
                assert [list(f) for f in a] == [list(f) for f in b]
        elif name == "polygon":
            assert [list(r) for r in back.cells[0].data] == [list(r) for r in mesh.cells[0].data]
        else:
            np.testing.assert_array_equal(back.cells[0].data, mesh.cells[0].data)


def test_the_wedge_is_reordered_for_vtk_in_memory_as_in_files():
    # meshio++ holds the linear wedge in Gmsh's order; VTK's differs by (0, 2, 1, 3, 5, 4).
    mesh = mio.Mesh(np.random.default_rng(0).random((6, 3)), [("wedge", np.arange(6).reshape(1, 6))])
    with pytest.warns(mio.InteropWarning, match="reordered"):
        grid = mio.to_vtk(mesh)
    assert cells_of(grid) == [(13, [0, 2, 1, 3, 5, 4])]
    with pytest.raises(mio.InteropError, match="would be copied"):
        mio.to_vtk(mesh, zero_copy_only=True)
