"""VTP, VTS, VTR and VTI against the real VTK 9.1: files VTK's own XML writers make (every
data mode x compressor x header type) read as VTK's own conversion to an unstructured grid
(vtkAppendFilter; vtkTriangleFilter for strips, poly-vertices and polylines) gives them,
and files we write read back by VTK's own readers as the mesh we wrote.
meshio reads none of these four formats, so VTK is the only oracle."""
from __future__ import annotations

import numpy as np
import pytest

import helpers
import meshioplusplus as mio
import test_vtk_oracle as oracle

vtk = pytest.importorskip("vtk", reason="the VTK oracle needs python3-vtk9")
from vtk.util.numpy_support import numpy_to_vtk  # noqa: E402

MODES = [("ascii", None, "UInt64"), ("binary", None, "UInt32"), ("binary", "zlib", "UInt64"),
         ("appended", None, "UInt64"), ("appended", "zlib", "UInt32"), ("appended-base64", "zlib", "UInt64"),
         ("binary", "lz4", "UInt64"), ("appended", "lzma", "UInt32")]
WRITE_MODES = [dict(binary=False), dict(compression=None), dict(), dict(data_mode="appended"),
               dict(data_mode="appended", compression=None, header_type="UInt32"), dict(compression="lzma")]

# VTK's voxel / pixel are hexahedron / quad with nodes 2-3 (and 6-7) swapped.
_SWAP = {11: (12, [0, 1, 3, 2, 4, 5, 7, 6]), 8: (9, [0, 1, 3, 2])}


def vtk_write(writer, data, path, mode, compressor, header_type):
    w = writer()
    w.SetInputData(data)
    w.SetFileName(str(path))
    {"ascii": w.SetDataModeToAscii, "binary": w.SetDataModeToBinary, "appended": w.SetDataModeToAppended,
     "appended-base64": w.SetDataModeToAppended}[mode]()
    w.SetEncodeAppendedData(1 if mode == "appended-base64" else 0)
    {None: w.SetCompressorTypeToNone, "zlib": w.SetCompressorTypeToZLib, "lz4": w.SetCompressorTypeToLZ4,
     "lzma": w.SetCompressorTypeToLZMA}[compressor]()
    {"UInt32": w.SetHeaderTypeToUInt32, "UInt64": w.SetHeaderTypeToUInt64}[header_type]()
    assert w.Write() == 1
    return path


def vtk_unstructured(data, triangulate=False):
    """VTK's own conversion of a dataset to flat unstructured arrays (voxels, pixels as hex, quad)."""
    if triangulate:
        tf = vtk.vtkTriangleFilter()
        tf.PassVertsOn()
        tf.PassLinesOn()
        tf.SetInputData(data)
        tf.Update()
        data = tf.GetOutput()
    af = vtk.vtkAppendFilter()
    af.SetInputData(data)
    af.Update()
    flat = oracle.vtk_flat(af.GetOutput())
    flat["cells"] = [(_SWAP[t][0], [ids[k] for k in _SWAP[t][1]]) if t in _SWAP else (t, ids) for t, ids in flat["cells"]]
    flat["field_data"] = {}
    return flat


def vtk_read_xml(reader, path):
    r = reader()
    errors = oracle._Errors(r)
    r.SetFileName(str(path))
    r.Update()
    assert not errors.messages, f"VTK reported errors reading {path}"
    return r.GetOutput()


def ours(path, **kw):
    mesh = mio.read(path, **kw)
    flat = oracle.flat_from_mesh(mesh)
    flat["field_data"] = {}
    return flat


def _add_data(data, n_points, n_cells):
    pd = numpy_to_vtk(np.arange(n_points, dtype=np.float64) * 0.5 - 1, deep=1)
    pd.SetName("p")
    data.GetPointData().AddArray(pd)
    pv = numpy_to_vtk((np.arange(3 * n_points, dtype=np.float32) / 7).reshape(-1, 3), deep=1)
    pv.SetName("pvec")
    data.GetPointData().AddArray(pv)
    cd = numpy_to_vtk(np.arange(n_cells, dtype=np.int32) * 3 - 2, deep=1)
    cd.SetName("c")
    data.GetCellData().AddArray(cd)
    return data


# --- VTP --------------------------------------------------------------------------------
def polydata(kinds):
    """Points on a 4 x 3 grid; `kinds` maps Verts/Lines/Polys/Strips to lists of cells."""
    pts = vtk.vtkPoints()
    for j in range(3):
        for i in range(4):
            pts.InsertNextPoint(i * 0.5, j * 1.25 - 0.1 * i, 1e-3 * (i + j))
    pd = vtk.vtkPolyData()
    pd.SetPoints(pts)
    n = 0
    for kind, cells in kinds.items():
        ca = vtk.vtkCellArray()
        for c in cells:
            ca.InsertNextCell(len(c), c)
        n += len(cells)
        getattr(pd, "Set" + kind)(ca)
    return _add_data(pd, 12, n)


POLYGONS = {"Verts": [[3], [7]], "Lines": [[0, 5], [1, 2]], "Polys": [[0, 1, 5], [1, 2, 6, 5], [2, 3, 7, 11, 10, 6]]}
# Strips (with an odd and an even length), a poly-vertex and polylines: cut as vtkTriangleFilter cuts them.
STRIPS = {"Verts": [[0, 4, 8]], "Lines": [[0, 1, 2, 3], [4, 5]], "Polys": [[8, 9, 5]],
          "Strips": [[0, 4, 1, 5, 2, 6, 3], [4, 8, 5, 9, 6, 10]]}


# Polygons alone: the reader shares their connectivity and the cell data as they are.
POLYS_ONLY = {"Polys": POLYGONS["Polys"] + [[4, 8, 9], [9, 10, 6, 5]]}


@pytest.mark.parametrize("mode,compressor,header_type", MODES)
@pytest.mark.parametrize("case", ["polygons", "strips", "polys only"])
def test_vtp_read_what_vtk_writes(tmp_path, case, mode, compressor, header_type):
    data = polydata({"polygons": POLYGONS, "strips": STRIPS, "polys only": POLYS_ONLY}[case])
    path = vtk_write(vtk.vtkXMLPolyDataWriter, data, tmp_path / "a.vtp", mode, compressor, header_type)
    oracle.assert_flat_equal(vtk_unstructured(data, triangulate=case == "strips"), ours(path))


def test_vtp_strip_orientation_alternates(tmp_path):
    """A strip's second triangle is (p2, p1, p3): every triangle keeps the strip's normal."""
    path = vtk_write(vtk.vtkXMLPolyDataWriter, polydata({"Strips": [[0, 4, 1, 5]]}), tmp_path / "s.vtp", "ascii", None, "UInt64")
    np.testing.assert_array_equal(mio.read(path).cells[0].data, [[0, 4, 1], [1, 4, 5]])


def _surface_mesh():
    pts = np.array([[i * 0.5, j * 1.0, 0.1 * i * j] for j in range(3) for i in range(4)])
    m = mio.Mesh(pts, [("triangle", [[0, 1, 5], [1, 2, 6]]), ("line", [[0, 4], [4, 8]]), ("quad", [[4, 5, 9, 8]]),
                       ("vertex", [[11]]), ("polygon", [[5, 6, 7, 11, 10]])])
    m.point_data["p"] = np.arange(12, dtype=np.float64) - 3
    m.point_data["vec"] = np.arange(36, dtype=np.float32).reshape(-1, 3)
    m.cell_data["c"] = [np.array([1, 2]), np.array([3, 4]), np.array([5]), np.array([6]), np.array([7])]
    return m


def _in_vtk_order(mesh):
    """The mesh with its blocks in VTK's cell order (verts, lines, polys), as a VTP holds them."""
    rank = {"vertex": 0, "line": 1}
    order = sorted(range(len(mesh.cells)), key=lambda b: rank.get(mesh.cells[b].type, 2))
    out = mio.Mesh(mesh.points, [(mesh.cells[b].type, mesh.cells[b].data) for b in order])
    out.point_data = dict(mesh.point_data)
    out.cell_data = {k: [v[b] for b in order] for k, v in mesh.cell_data.items()}
    return out


@pytest.mark.parametrize("options", WRITE_MODES)
def test_vtp_vtk_reads_what_we_write(tmp_path, options):
    mesh = _surface_mesh()
    path = tmp_path / "a.vtp"
    mio.write(path, mesh, **options)
    got = vtk_unstructured(vtk_read_xml(vtk.vtkXMLPolyDataReader, path))
    expected = oracle.flat_from_mesh(_in_vtk_order(mesh))
    expected["field_data"] = {}
    oracle.assert_flat_equal(expected, got)
    back = mio.read(path)
    assert [c.type for c in back.cells] == ["vertex", "line", "triangle", "quad", "polygon"]


def test_vtp_skin_of_a_gmsh_mesh_round_trips(tmp_path):
    mesh = helpers.tri_quad_mesh
    path = tmp_path / "a.vtp"
    mio.write(path, mesh)
    got = vtk_unstructured(vtk_read_xml(vtk.vtkXMLPolyDataReader, path))
    expected = oracle.flat_from_mesh(mesh)
    expected["field_data"] = {}
    oracle.assert_flat_equal(expected, got, check_dtype=False)


def test_vtp_field_data_round_trips(tmp_path):
    mesh = _surface_mesh()
    mesh.field_data = {"fd": np.array([1, 2, 3], dtype=np.int32)}
    path = tmp_path / "a.vtp"
    mio.write(path, mesh)
    fd = vtk_read_xml(vtk.vtkXMLPolyDataReader, path).GetFieldData()
    np.testing.assert_array_equal(oracle._arrays(fd)["fd"], [1, 2, 3])
    np.testing.assert_array_equal(mio.read(path).field_data["fd"], [1, 2, 3])


def test_vtp_volume_cells_are_a_write_error(tmp_path):
    path = tmp_path / "a.vtp"
    path.write_text("keep")
    with pytest.raises(mio.WriteError, match=r"vtp.*a\.vtp.*'tetra'"):
        mio.write(path, helpers.tet_mesh)
    assert path.read_text() == "keep"


def test_vtp_bad_offsets_name_the_file_and_place(tmp_path):
    path = tmp_path / "bad.vtp"
    path.write_text('<?xml version="1.0"?>\n<VTKFile type="PolyData" version="1.0">\n<PolyData>\n'
                    '<Piece NumberOfPoints="2" NumberOfPolys="1">\n<Points>\n'
                    '<DataArray type="Float32" NumberOfComponents="3" format="ascii">0 0 0 1 1 1</DataArray>\n</Points>\n'
                    '<Polys>\n<DataArray type="Int64" Name="connectivity" format="ascii">0 1 5</DataArray>\n'
                    '<DataArray type="Int64" Name="offsets" format="ascii">3</DataArray>\n</Polys>\n'
                    '</Piece>\n</PolyData>\n</VTKFile>\n')
    with pytest.raises(mio.ReadError, match=r"vtp.*bad\.vtp.*line 9.*Polys: point id 5 is outside \[0, 2\)"):
        mio.read(path)


# --- VTS, VTR, VTI ----------------------------------------------------------------------
EXTENTS = {"3d": (-2, 1, 0, 2, 1, 3), "2d_xy": (0, 3, 0, 2, 0, 0), "2d_yz": (5, 5, 0, 2, -1, 2), "2d_xz": (0, 2, 1, 1, 0, 3),
           "1d": (0, 0, 0, 4, 0, 0), "point": (1, 1, 2, 2, 3, 3)}


def image(extent, direction=False):
    img = vtk.vtkImageData()
    img.SetExtent(*extent)
    img.SetOrigin(0.5, -1.0, 2.0)
    img.SetSpacing(0.25, 2.0, 1.5)
    if direction:
        img.SetDirectionMatrix(0, -1, 0, 1, 0, 0, 0, 0, 1)
    return _add_data(img, img.GetNumberOfPoints(), img.GetNumberOfCells())


def rectilinear(extent):
    g = vtk.vtkRectilinearGrid()
    g.SetExtent(*extent)
    for axis, n in enumerate(extent[1::2] - np.array(extent[0::2]) + 1):
        c = numpy_to_vtk(np.cumsum(np.arange(1, n + 1) * (axis + 1) * 0.5) - 3.0, deep=1)
        (g.SetXCoordinates, g.SetYCoordinates, g.SetZCoordinates)[axis](c)
    return _add_data(g, g.GetNumberOfPoints(), g.GetNumberOfCells())


def structured(extent):
    ps = vtk.vtkImageDataToPointSet()
    ps.SetInputData(image(extent))
    ps.Update()
    g = ps.GetOutput()
    pts = oracle.vtk_to_numpy(g.GetPoints().GetData()).copy()
    pts[:, 2] += 0.1 * np.sin(pts[:, 0])  # curvilinear
    g.GetPoints().SetData(numpy_to_vtk(pts, deep=1))
    return g


KINDS = {"vts": (structured, vtk.vtkXMLStructuredGridWriter, vtk.vtkXMLStructuredGridReader),
         "vtr": (rectilinear, vtk.vtkXMLRectilinearGridWriter, vtk.vtkXMLRectilinearGridReader),
         "vti": (image, vtk.vtkXMLImageDataWriter, vtk.vtkXMLImageDataReader)}


@pytest.mark.parametrize("mode,compressor,header_type", MODES[:6])
@pytest.mark.parametrize("extent", list(EXTENTS))
@pytest.mark.parametrize("fmt", list(KINDS))
def test_structured_read_what_vtk_writes(tmp_path, fmt, extent, mode, compressor, header_type):
    make, writer, _ = KINDS[fmt]
    data = make(EXTENTS[extent])
    path = vtk_write(writer, data, tmp_path / f"a.{fmt}", mode, compressor, header_type)
    expected = vtk_unstructured(data)
    got = ours(path)
    oracle.assert_flat_equal(expected, got, check_dtype=fmt == "vts")
    np.testing.assert_allclose(got["points"], expected["points"], rtol=0, atol=1e-12)


def test_vti_direction_is_applied(tmp_path):
    data = image(EXTENTS["3d"], direction=True)
    path = vtk_write(vtk.vtkXMLImageDataWriter, data, tmp_path / "a.vti", "binary", None, "UInt64")
    np.testing.assert_allclose(mio.read(path).points, vtk_unstructured(data)["points"], rtol=0, atol=1e-12)


@pytest.mark.parametrize("options", WRITE_MODES)
@pytest.mark.parametrize("extent", ["3d", "2d_xy", "2d_yz", "1d"])
@pytest.mark.parametrize("fmt", list(KINDS))
def test_structured_vtk_reads_what_we_write(tmp_path, fmt, extent, options):
    """A mesh read from a VTK file, written by us (grid detected from the cells), read by VTK."""
    make, writer, reader = KINDS[fmt]
    src = vtk_write(writer, make(EXTENTS[extent]), tmp_path / f"src.{fmt}", "binary", None, "UInt64")
    mesh = mio.read(src)
    path = tmp_path / f"a.{fmt}"
    mio.write(path, mesh, **options)
    got = vtk_unstructured(vtk_read_xml(reader, path))
    expected = oracle.flat_from_mesh(mesh)
    expected["field_data"] = {}
    oracle.assert_flat_equal(expected, got, check_dtype=False)
    np.testing.assert_allclose(got["points"], expected["points"], rtol=1e-12)


@pytest.mark.parametrize("fmt", list(KINDS))
def test_structured_extent_keyword_is_written(tmp_path, fmt):
    make, writer, reader = KINDS[fmt]
    src = vtk_write(writer, make(EXTENTS["3d"]), tmp_path / f"src.{fmt}", "ascii", None, "UInt64")
    mesh = mio.read(src)
    path = tmp_path / f"a.{fmt}"
    mio.write(path, mesh, extent=EXTENTS["3d"])
    assert vtk_read_xml(reader, path).GetExtent() == EXTENTS["3d"]
    mio.write(path, mesh, dims=(4, 3, 3))
    assert vtk_read_xml(reader, path).GetExtent() == (0, 3, 0, 2, 0, 2)
    with pytest.raises(mio.WriteError, match=f"{fmt}.*extent 0 4 0 2 0 2 has 45 points, the mesh 36"):
        mio.write(path, mesh, dims=(5, 3, 3))


@pytest.mark.parametrize("fmt", list(KINDS))
def test_unstructured_mesh_is_a_write_error(tmp_path, fmt):
    path = tmp_path / f"a.{fmt}"
    path.write_text("keep")
    with pytest.raises(mio.WriteError, match=f"{fmt}.*a\\.{fmt}.*structured"):
        mio.write(path, helpers.tet_mesh)
    with pytest.raises(mio.WriteError, match=f"{fmt}.*not the quad cells"):
        mio.write(path, mio.Mesh(np.eye(4, 3), [("quad", [[0, 1, 2, 3]])]), dims=(2, 2, 1))
    assert path.read_text() == "keep"


def test_vtr_and_vti_need_their_geometry(tmp_path):
    src = vtk_write(vtk.vtkXMLStructuredGridWriter, structured(EXTENTS["3d"]), tmp_path / "s.vts", "ascii", None, "UInt64")
    curvilinear = mio.read(src)
    with pytest.raises(mio.WriteError, match="vtr.*not \\(x\\[i\\], y\\[j\\], z\\[k\\]\\)"):
        mio.write(tmp_path / "a.vtr", curvilinear)
    src = vtk_write(vtk.vtkXMLRectilinearGridWriter, rectilinear(EXTENTS["3d"]), tmp_path / "r.vtr", "ascii", None, "UInt64")
    with pytest.raises(mio.WriteError, match="vti.*not equally spaced"):
        mio.write(tmp_path / "a.vti", mio.read(src))


def test_structured_pieces_are_placed_at_their_extent(tmp_path):
    """Two pieces of one WholeExtent (as a parallel writer's pieces are): one grid."""
    path = tmp_path / "two.vti"
    path.write_text('<?xml version="1.0"?>\n<VTKFile type="ImageData" version="1.0">\n'
                    '<ImageData WholeExtent="0 2 0 1 0 0" Origin="0 0 0" Spacing="1 1 1">\n'
                    '<Piece Extent="0 1 0 1 0 0"><PointData><DataArray type="Int32" Name="p" format="ascii">0 1 3 4'
                    '</DataArray></PointData><CellData><DataArray type="Int32" Name="c" format="ascii">10</DataArray></CellData></Piece>\n'
                    '<Piece Extent="1 2 0 1 0 0"><PointData><DataArray type="Int32" Name="p" format="ascii">1 2 4 5'
                    '</DataArray></PointData><CellData><DataArray type="Int32" Name="c" format="ascii">11</DataArray></CellData></Piece>\n'
                    '</ImageData>\n</VTKFile>\n')
    mesh = mio.read(path)
    np.testing.assert_array_equal(mesh.point_data["p"], [0, 1, 2, 3, 4, 5])
    np.testing.assert_array_equal(mesh.cell_data["c"][0], [10, 11])
    np.testing.assert_array_equal(mesh.cells[0].data, [[0, 1, 4, 3], [1, 2, 5, 4]])


def test_implicit_grid_larger_than_the_file_is_refused(tmp_path):
    path = tmp_path / "huge.vti"
    path.write_text('<?xml version="1.0"?>\n<VTKFile type="ImageData" version="1.0">\n'
                    '<ImageData WholeExtent="0 100000 0 100000 0 100000" Origin="0 0 0" Spacing="1 1 1">\n'
                    '<Piece Extent="0 100000 0 100000 0 100000"></Piece>\n</ImageData>\n</VTKFile>\n')
    with pytest.raises(mio.ReadError, match=r"vti.*huge\.vti.*line 3.*WholeExtent.*more than this file can describe"):
        mio.read(path)


# --- one cell type: checked while the arrays are read ------------------------------------
# Grids of one cell type take a path of their own (vtk_common/cell_blocks.hpp's scans): the
# offsets, types and ids are checked piece by piece as they are read, on several threads
# for an appended raw array. Large enough for several pieces and ranges; VTK writes them.
def _one_type(kind, n_cells, id_type, rng):
    from vtk.util.numpy_support import numpy_to_vtkIdTypeArray

    k = {5: 3, 10: 4, 13: 6}[kind]
    n_points = n_cells // 2 + k
    points = rng.random((n_points, 3))
    conn = rng.integers(0, n_points, size=(n_cells, k), dtype=np.int64)
    cells = vtk.vtkCellArray()
    cells.SetData(numpy_to_vtkIdTypeArray(np.arange(0, n_cells * k + 1, k, dtype=np.int64), deep=1),
                  numpy_to_vtkIdTypeArray(conn.ravel(), deep=1))
    vpoints = vtk.vtkPoints()
    vpoints.SetData(numpy_to_vtk(points, deep=1))
    if kind == 5:
        data = vtk.vtkPolyData()
        data.SetPolys(cells)
    else:
        data = vtk.vtkUnstructuredGrid()
        data.SetCells(kind, cells)
    data.SetPoints(vpoints)
    data.GetCellData().AddArray(_named(numpy_to_vtk(np.arange(n_cells, dtype=np.float64), deep=1), "c"))
    return data, points, conn


def _named(array, name):
    array.SetName(name)
    return array


def _write_one_type(data, path, mode, big_endian, id_type):
    w = (vtk.vtkXMLPolyDataWriter if data.IsA("vtkPolyData") else vtk.vtkXMLUnstructuredGridWriter)()
    w.SetInputData(data)
    w.SetFileName(str(path))
    {"appended": w.SetDataModeToAppended, "binary": w.SetDataModeToBinary}[mode]()
    w.SetEncodeAppendedData(0)
    w.SetCompressorTypeToNone()
    (w.SetByteOrderToBigEndian if big_endian else w.SetByteOrderToLittleEndian)()
    (w.SetIdTypeToInt32 if id_type == "Int32" else w.SetIdTypeToInt64)()
    assert w.Write() == 1
    return path


@pytest.mark.parametrize("mode,big_endian,id_type", [("appended", False, "Int64"), ("appended", True, "Int32"),
                                                     ("appended", False, "Int32"), ("binary", True, "Int64")])
@pytest.mark.parametrize("kind", [5, 10, 13])
def test_one_cell_type_reads_as_vtk_wrote_it_on_any_thread_count(tmp_path, kind, mode, big_endian, id_type):
    rng = np.random.default_rng(kind)
    data, points, conn = _one_type(kind, 150_000, id_type, rng)
    path = _write_one_type(data, tmp_path / ("a.vtp" if kind == 5 else "a.vtu"), mode, big_endian, id_type)
    name, order = {5: ("triangle", [0, 1, 2]), 10: ("tetra", [0, 1, 2, 3]), 13: ("wedge", [0, 2, 1, 3, 5, 4])}[kind]
    for threads in (1, 3):
        mesh = mio.read(path, threads=threads)
        assert [b.type for b in mesh.cells] == [name]
        np.testing.assert_array_equal(mesh.cells[0].data, conn[:, order])
        assert mesh.cells[0].data.dtype == np.int64
        np.testing.assert_array_equal(mesh.points, points)
        np.testing.assert_array_equal(mesh.cell_data["c"][0], np.arange(len(conn), dtype=np.float64))


@pytest.mark.parametrize("threads", [1, 3])
def test_one_cell_type_with_a_bad_id_far_in_is_named_as_before(tmp_path, threads):
    rng = np.random.default_rng(1)
    data, points, conn = _one_type(10, 150_000, "Int64", rng)
    data.GetCells().GetConnectivityArray().SetValue(4 * 123_456 + 2, len(points) + 7)
    path = _write_one_type(data, tmp_path / "bad.vtu", "appended", False, "Int64")
    with pytest.raises(mio.ReadError, match=rf"Cells: cell 123456: node {len(points) + 7} is outside \[0, {len(points)}\)"):
        mio.read(path, threads=threads)
    poly, points, conn = _one_type(5, 150_000, "Int64", rng)
    poly.GetPolys().GetConnectivityArray().SetValue(3 * 140_000, -3)
    path = _write_one_type(poly, tmp_path / "bad.vtp", "appended", False, "Int64")
    with pytest.raises(mio.ReadError, match=rf"Polys: point id -3 is outside \[0, {len(points)}\)"):
        mio.read(path, threads=threads)


def test_offsets_of_one_size_with_two_types_are_two_blocks(tmp_path):
    rng = np.random.default_rng(2)
    data, points, conn = _one_type(10, 150_000, "Int64", rng)
    types = np.full(len(conn), 10, dtype=np.uint8)
    types[-1000:] = 9  # quads: four nodes too
    from vtk.util.numpy_support import numpy_to_vtk as to_vtk

    grid = vtk.vtkUnstructuredGrid()
    grid.SetPoints(data.GetPoints())
    grid.SetCells(to_vtk(types, deep=1, array_type=vtk.VTK_UNSIGNED_CHAR), data.GetCells())
    path = _write_one_type(grid, tmp_path / "mixed.vtu", "appended", False, "Int64")
    mesh = mio.read(path)
    assert [(b.type, len(b.data)) for b in mesh.cells] == [("tetra", len(conn) - 1000), ("quad", 1000)]
    np.testing.assert_array_equal(np.concatenate([b.data for b in mesh.cells]), conn)
