"""to_vtk / from_vtk against real VTK (Debian python3-vtk9): sharing proven by VTK array
pointers, lifetime after the mesh (and the grid) are gone, round trips, polyhedra,
regions through a .vtu file, warnings and the zero_copy_only contract."""
import gc
import json
import sys
import warnings
import weakref

import numpy as np
import pytest

vtk = pytest.importorskip("vtkmodules.vtkCommonDataModel", reason="VTK is a Debian test oracle (python3-vtk9)")
from vtkmodules.util.numpy_support import numpy_to_vtk, vtk_to_numpy  # noqa: E402
from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridReader, vtkXMLUnstructuredGridWriter  # noqa: E402

import meshioplusplus as mio  # noqa: E402
from meshioplusplus import _testing  # noqa: E402
from meshioplusplus._interop import vtk_pointer  # noqa: E402
from helpers import assert_mesh_equal, hex_mesh, line_mesh, quad_mesh, tet_mesh, tri_mesh, tri_quad_mesh  # noqa: E402
from test_interop_payload import polyhedron_mesh  # noqa: E402


def churn():
    gc.collect()
    junk = [np.random.default_rng(i).random(20_000) for i in range(40)]
    del junk
    gc.collect()


def address(a):
    return a.__array_interface__["data"][0]


def owned_mesh():
    """A tet mesh whose points are a C++-owned buffer, as a reader returns them."""
    flat, _ = _testing.owned_array(15)
    flat[:] = tet_mesh.points.ravel()
    return mio.Mesh(
        flat.reshape(5, 3),
        [("tetra", np.array([[0, 1, 2, 4], [0, 2, 3, 4]]))],
        point_data={"T": np.arange(5.0) + 0.5},
        cell_data={"id": [np.array([7, 8], dtype=np.int32)]},
        field_data={"f": np.array([1, 3])},
        regions=[mio.Region("apex", "point", [4], dim=0, tag=11), mio.Region("second", "cell", [1], dim=3, tag=12)],
    )


def test_to_vtk_shares_points_connectivity_and_data_by_pointer():
    mesh = owned_mesh()
    grid = mio.to_vtk(mesh, zero_copy_only=True)
    assert vtk_pointer(grid.GetPoints().GetData()) == address(mesh.points)
    assert vtk_pointer(grid.GetCells().GetConnectivityArray()) == address(mesh.cells[0].data)
    assert vtk_pointer(grid.GetPointData().GetArray("T")) == address(mesh.point_data["T"])
    assert vtk_pointer(grid.GetCellData().GetArray("id")) == address(mesh.cell_data["id"][0])
    assert vtk_pointer(grid.GetFieldData().GetArray("f")) == address(mesh.field_data["f"])
    assert grid.GetNumberOfCells() == 2 and grid.GetCellType(0) == 10
    assert grid.GetCell(1).GetPointIds().GetId(1) == 2
    # a write through VTK is seen by the mesh: the same memory
    grid.GetPoints().SetPoint(4, 9.0, 8.0, 7.0)
    np.testing.assert_array_equal(mesh.points[4], [9.0, 8.0, 7.0])


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float32", "float64"])
def test_every_native_dtype_is_shared_with_vtk(dtype):
    mesh = mio.Mesh(tri_mesh.points, tri_mesh.cells, point_data={"a": np.arange(8, dtype=dtype).reshape(4, 2)})
    grid = mio.to_vtk(mesh, zero_copy_only=True)
    arr = grid.GetPointData().GetArray("a")
    assert vtk_pointer(arr) == address(mesh.point_data["a"]) and arr.GetNumberOfComponents() == 2
    np.testing.assert_array_equal(vtk_to_numpy(arr), mesh.point_data["a"])


def test_vtk_grid_outlives_the_mesh_and_each_array_outlives_the_grid():
    mesh = owned_mesh()
    expected = mesh.points.copy()
    grid = mio.to_vtk(mesh)
    del mesh
    churn()
    np.testing.assert_array_equal([grid.GetPoint(i) for i in range(5)], expected)
    np.testing.assert_array_equal(vtk_to_numpy(grid.GetPointData().GetArray("T")), np.arange(5.0) + 0.5)
    # arrays VTK made internally over our buffers (vtkCellArray.SetData) keep them alive too
    conn, points = grid.GetCells().GetConnectivityArray(), grid.GetPoints().GetData()
    del grid
    churn()
    np.testing.assert_array_equal(vtk_to_numpy(conn), [0, 1, 2, 4, 0, 2, 3, 4])
    np.testing.assert_array_equal(vtk_to_numpy(points), expected)


def test_shared_buffers_are_released_when_vtk_lets_go():
    data = np.arange(4.0)
    mesh = mio.Mesh(tri_mesh.points.copy(), tri_mesh.cells, point_data={"T": data})
    alive = weakref.ref(data)
    grid = mio.to_vtk(mesh)
    del data, mesh
    gc.collect()
    assert alive() is not None
    del grid
    gc.collect()
    assert alive() is None


@pytest.mark.parametrize("mesh", [tri_mesh, line_mesh, quad_mesh, tri_quad_mesh, tet_mesh, hex_mesh], ids=lambda m: "-".join(b.type for b in m.cells))
def test_round_trip_through_vtk(mesh):
    mesh = mio.Mesh(mesh.points, mesh.cells, point_data={"p": np.arange(len(mesh.points), dtype=np.float32)},
                    cell_data={"c": [np.arange(len(b)) for b in mesh.cells]},
                    regions=[mio.Region("r", "point", [1, 2], 0, 1), mio.Region("k", "cell", [0], 2, 2)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mio.InteropWarning)  # two-block meshes copy, on purpose
        grid = mio.to_vtk(mesh)
    back = mio.from_vtk(grid)
    assert_mesh_equal(mesh, back)
    assert back.regions == mesh.regions


def test_from_vtk_views_vtk_buffers_and_keeps_them_alive():
    grid = mio.to_vtk(mio.Mesh(tri_mesh.points.copy(), tri_mesh.cells, point_data={"T": np.arange(4.0)}))
    # a grid VTK owns outright: deep-copied, so no numpy array of ours is involved
    own = vtk.vtkUnstructuredGrid()
    own.DeepCopy(grid)
    del grid
    mesh = mio.from_vtk(own)
    assert address(mesh.points) == vtk_pointer(own.GetPoints().GetData())
    assert address(mesh.cells[0].data) == vtk_pointer(own.GetCells().GetConnectivityArray())
    assert address(mesh.point_data["T"]) == vtk_pointer(own.GetPointData().GetArray("T"))
    del own
    churn()
    np.testing.assert_array_equal(mesh.points, tri_mesh.points)
    np.testing.assert_array_equal(mesh.cells[0].data, [[0, 1, 2], [0, 2, 3]])
    np.testing.assert_array_equal(mesh.point_data["T"], np.arange(4.0))


def test_polyhedra_reach_vtk_as_vtkPolyhedron_and_come_back():
    mesh = polyhedron_mesh()
    with pytest.warns(mio.InteropWarning, match=r"cells\[1\] \(triangle\) copied: 2 blocks concatenated"):
        grid = mio.to_vtk(mesh)
    assert grid.GetCell(0).GetClassName() == "vtkPolyhedron" and grid.GetCell(0).GetNumberOfFaces() == 6
    assert grid.GetCell(1).GetNumberOfFaces() == 4 and grid.GetCellType(2) == 5
    back = mio.from_vtk(grid)
    assert [b.type for b in back.cells] == ["polyhedron", "triangle"]
    for a, b in zip(mesh.cells[0].data, back.cells[0].data):
        assert [list(f) for f in a] == [list(f) for f in b]
    assert [list(x) for x in back.cell_data["c"]] == [[1.0, 2.0], [3.0]]


def test_regions_survive_a_vtu_file_written_and_read_by_vtk(tmp_path):
    mesh = mio.Mesh(tet_mesh.points, tet_mesh.cells, regions=[mio.Region("apex", "point", [4], 0, 11), mio.Region("second", "cell", [1], 3, 12)])
    writer = vtkXMLUnstructuredGridWriter()
    writer.SetFileName(str(tmp_path / "r.vtu"))
    writer.SetInputData(mio.to_vtk(mesh))
    assert writer.Write() == 1
    reader = vtkXMLUnstructuredGridReader()
    reader.SetFileName(str(tmp_path / "r.vtu"))
    reader.Update()
    back = mio.from_vtk(reader.GetOutput())
    assert back.regions == mesh.regions
    assert_mesh_equal(mesh, back)


def test_from_vtk_without_sidecar_warns_and_sets_dim_and_tag_to_minus_one():
    grid = mio.to_vtk(mio.Mesh(tri_mesh.points, tri_mesh.cells, regions=[mio.Region("a", "point", [0, 3], 2, 5)]))
    grid.GetFieldData().RemoveArray("meshioplusplus:regions")
    with pytest.warns(mio.InteropWarning, match=r"^from_vtk: regions\['a'\]: no meshioplusplus:regions sidecar entry; dim and tag set to -1$"):
        back = mio.from_vtk(grid)
    assert back.regions == [mio.Region("a", "point", [0, 3])]


def test_sidecar_is_a_json_string_in_field_data():
    grid = mio.to_vtk(mio.Mesh(tri_mesh.points, tri_mesh.cells, regions=[mio.Region("a", "cell", [1], 2, 5)]))
    sidecar = grid.GetFieldData().GetAbstractArray("meshioplusplus:regions")
    assert json.loads(sidecar.GetValue(0)) == [{"name": "a", "kind": "cell", "dim": 2, "tag": 5}]
    mask = grid.GetCellData().GetArray("region:a")
    assert mask.GetClassName() == "vtkSignedCharArray"
    np.testing.assert_array_equal(vtk_to_numpy(mask), [0, 1])


def test_notes_are_warned_one_each_prefixed_and_filterable():
    mesh = mio.Mesh(tri_quad_mesh.points, tri_quad_mesh.cells, point_data={"b": np.ones(6, dtype=bool)},
                    regions=[mio.Region("s", "side", [[0, 1]]), mio.Region("p", "point", [0])])
    with pytest.warns(mio.InteropWarning) as record:
        mio.to_vtk(mesh)
    messages = [str(w.message) for w in record]
    assert messages == [
        "to_vtk: cells[0] (triangle), cells[1] (quad) copied: 2 blocks concatenated into VTK's single connectivity array",
        "to_vtk: point_data['b'] copied: bool widened to uint8",
        "to_vtk: regions['s'] dropped: side regions have no (cell, facet) slot in VTK",
    ]
    assert all(w.filename == __file__ for w in record)  # attributed to the caller
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", category=mio.InteropWarning)
        mio.to_vtk(mesh)


def test_derived_arrays_are_never_warned():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        grid = mio.to_vtk(owned_mesh(), zero_copy_only=True)  # offsets, types, masks, sidecar: derived
    assert grid.GetPointData().GetArray("region:apex") is not None


@pytest.mark.parametrize(
    "mesh, label",
    [
        (tri_quad_mesh, r"cells\[0\] \(triangle\), cells\[1\] \(quad\)"),
        (mio.Mesh(tri_mesh.points[:, :2], tri_mesh.cells), "points"),
        (mio.Mesh(tri_mesh.points, tri_mesh.cells, point_data={"s": np.arange(8.0)[::2]}), r"point_data\['s'\]"),
        (mio.Mesh(tri_mesh.points, tri_mesh.cells, cell_data={"b": [np.array([True, False])]}), r"cell_data\['b'\]\[0\]"),
    ],
)
def test_zero_copy_only_raises_naming_the_array(mesh, label):
    with pytest.raises(mio.InteropError, match=rf"^to_vtk: {label} would be copied"):
        mio.to_vtk(mesh, zero_copy_only=True)


def test_from_vtk_converts_other_datasets_with_a_note():
    sphere = numpy_to_vtk(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], float), deep=1)
    poly = vtk.vtkPolyData()
    points = __import__("vtkmodules.vtkCommonCore", fromlist=["vtkPoints"]).vtkPoints()
    points.SetData(sphere)
    poly.SetPoints(points)
    tris = vtk.vtkCellArray()
    tris.InsertNextCell(3, [0, 1, 2])
    poly.SetPolys(tris)
    with pytest.warns(mio.InteropWarning, match="a vtkPolyData is converted to a vtkUnstructuredGrid"):
        mesh = mio.from_vtk(poly)
    assert mesh.cells[0].type == "triangle" and mesh.cells[0].data.tolist() == [[0, 1, 2]]
    with pytest.raises(mio.InteropError, match="grid would be copied"):
        mio.from_vtk(poly, zero_copy_only=True)


def test_higher_order_cells_reach_vtk_as_their_vtk_classes():
    points = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0.5, 0, 0], [0.5, 0.5, 0], [0, 0.5, 0]], float)
    grid = mio.to_vtk(mio.Mesh(points, [("triangle6", [[0, 1, 2, 3, 4, 5]])]))
    assert grid.GetCell(0).GetClassName() == "vtkQuadraticTriangle"
    assert mio.from_vtk(grid).cells[0].type == "triangle6"


def test_missing_vtk_raises_import_error_naming_the_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "vtkmodules.vtkCommonCore", None)
    with pytest.raises(ImportError, match=r"to_vtk needs VTK's Python bindings: `apt install python3-vtk9`.*`pip install vtk`"):
        mio.to_vtk(tri_mesh)
    with pytest.raises(ImportError, match="from_vtk needs VTK"):
        mio.from_vtk(None)


def test_a_mesh_read_from_disk_reaches_vtk_sharing_the_readers_buffers():
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "data" / "gmsh" / "box3d_o2_msh41.msh"
    mesh = mio.read(path)
    points = mesh.points
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mio.InteropWarning)  # several blocks: connectivity is concatenated
        grid = mio.to_vtk(mesh)
    assert vtk_pointer(grid.GetPoints().GetData()) == points.ctypes.data
    expected = points.copy()
    del mesh, points
    gc.collect()
    np.testing.assert_array_equal(vtk_to_numpy(grid.GetPoints().GetData()), expected)
