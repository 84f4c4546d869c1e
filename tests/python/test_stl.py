"""STL against the real VTK 9.1, gmsh 4.8 and meshio 5.0: VTK reads what we write and we read
what VTK writes (points and triangles equal to vtkSTLReader's), gmsh reads what we write
(same triangle count and bounding box), meshio reads what we write and we read what meshio
writes (equal arrays, corners merged in the same order), fixtures read as meshio reads them,
multi-solid files as named regions, the binary-by-size rule, writer keywords and errors."""
from __future__ import annotations

import struct
import subprocess
import shutil
from pathlib import Path

import numpy as np
import pytest

import helpers
import meshioplusplus as mio

meshio = pytest.importorskip("meshio", reason="meshio is the peer for cross-checks")
DATA = Path(__file__).resolve().parents[1] / "data" / "stl"
FIXTURES = sorted(DATA.glob("*.stl"))


def sphere(res=10):
    """A closed triangulated sphere (VTK's vtkSphereSource), as a meshio++ mesh."""
    from vtkmodules.util.numpy_support import vtk_to_numpy
    from vtkmodules.vtkFiltersSources import vtkSphereSource

    s = vtkSphereSource()
    s.SetThetaResolution(res)
    s.SetPhiResolution(res)
    s.SetCenter(0.5, -2.0, 1.25)
    s.Update()
    out = s.GetOutput()
    pts = vtk_to_numpy(out.GetPoints().GetData()).astype(np.float64)
    tri = vtk_to_numpy(out.GetPolys().GetConnectivityArray()).reshape(-1, 3).astype(np.int64)
    return mio.Mesh(pts, [("triangle", tri)])


def first_occurrence(mesh):
    """The mesh as an STL reader must return it: only used points, in first-use order."""
    tri = mesh.cells[0].data
    _, first = np.unique(tri.ravel(), return_index=True)
    order = tri.ravel()[np.sort(first)]
    new = np.empty(len(mesh.points), dtype=np.int64)
    new[order] = np.arange(len(order))
    return mesh.points[order], new[tri]


def vtk_read(path, merging=True):
    from vtkmodules.util.numpy_support import vtk_to_numpy
    from vtkmodules.vtkIOGeometry import vtkSTLReader

    r = vtkSTLReader()
    r.SetFileName(str(path))
    r.SetMerging(merging)
    r.Update()
    out = r.GetOutput()
    pts = vtk_to_numpy(out.GetPoints().GetData()) if out.GetNumberOfPoints() else np.zeros((0, 3))
    return pts, vtk_to_numpy(out.GetPolys().GetConnectivityArray()).reshape(-1, 3)


def vtk_write(mesh, path, binary):
    from vtkmodules.util.numpy_support import numpy_to_vtk, numpy_to_vtkIdTypeArray
    from vtkmodules.vtkCommonCore import vtkPoints
    from vtkmodules.vtkCommonDataModel import vtkCellArray, vtkPolyData
    from vtkmodules.vtkIOGeometry import vtkSTLWriter

    pd = vtkPolyData()
    p = vtkPoints()
    p.SetData(numpy_to_vtk(np.ascontiguousarray(mesh.points), deep=True))
    pd.SetPoints(p)
    tri = np.ascontiguousarray(mesh.cells[0].data, dtype=np.int64)
    ca = vtkCellArray()
    ca.SetData(numpy_to_vtkIdTypeArray(np.arange(0, 3 * len(tri) + 1, 3, dtype=np.int64), deep=True),
               numpy_to_vtkIdTypeArray(tri.ravel(), deep=True))
    pd.SetPolys(ca)
    w = vtkSTLWriter()
    w.SetInputData(pd)
    w.SetFileName(str(path))
    w.SetFileTypeToBinary() if binary else w.SetFileTypeToASCII()
    assert w.Write() == 1
    return path


# --- VTK -----------------------------------------------------------------------------
@pytest.mark.parametrize("binary", [False, True])
def test_vtk_reads_what_we_write(tmp_path, binary):
    mesh = sphere()
    path = tmp_path / "ours.stl"
    mio.write(path, mesh, binary=binary)
    pts, tri = vtk_read(path)
    ours = mio.read(path)
    # VTK keeps float32 points; ASCII text of a float64 rounds to the same float32.
    np.testing.assert_array_equal(pts, ours.points.astype(np.float32))
    np.testing.assert_array_equal(tri, ours.cells[0].data)
    expect_pts, expect_tri = first_occurrence(mesh)
    np.testing.assert_array_equal(ours.cells[0].data, expect_tri)
    np.testing.assert_array_equal(ours.points, expect_pts.astype(ours.points.dtype))


@pytest.mark.parametrize("binary", [False, True])
def test_we_read_what_vtk_writes(tmp_path, binary):
    path = vtk_write(sphere(), tmp_path / "vtk.stl", binary)
    pts, tri = vtk_read(path)
    ours = mio.read(path)
    np.testing.assert_array_equal(ours.cells[0].data, tri)
    # VTK's ASCII writer prints float32 values; read as float64 they round to VTK's.
    np.testing.assert_array_equal(ours.points.astype(np.float32), pts)
    assert ours.points.dtype == (np.float32 if binary else np.float64)


@pytest.mark.parametrize("fixture", ["vtk_ascii.stl", "vtk_binary.stl"])
def test_vtk_fixtures_read_as_vtk_reads_them(fixture):
    pts, tri = vtk_read(DATA / fixture)
    ours = mio.read(DATA / fixture)
    np.testing.assert_array_equal(ours.cells[0].data, tri)
    np.testing.assert_array_equal(ours.points.astype(np.float32), pts)


@pytest.mark.parametrize("fixture", ["vtk_ascii.stl", "vtk_binary.stl", "meshio_binary.stl"])
def test_merge_false_keeps_every_corner_as_vtk_without_merging(fixture):
    pts, tri = vtk_read(DATA / fixture, merging=False)
    ours = mio.read(DATA / fixture, merge=False)
    np.testing.assert_array_equal(ours.cells[0].data, tri)
    np.testing.assert_array_equal(ours.cells[0].data.ravel(), np.arange(len(ours.points)))
    np.testing.assert_array_equal(ours.points.astype(np.float32), pts)
    merged = mio.read(DATA / fixture)  # the same corners, merged
    np.testing.assert_array_equal(merged.points[merged.cells[0].data], ours.points[ours.cells[0].data])


# --- gmsh ----------------------------------------------------------------------------
@pytest.mark.skipif(shutil.which("gmsh") is None, reason="gmsh (Debian package gmsh) is the oracle")
@pytest.mark.parametrize("binary", [False, True])
def test_gmsh_reads_what_we_write(tmp_path, binary):
    mesh = sphere(14)
    path = tmp_path / "ours.stl"
    mio.write(path, mesh, binary=binary)
    out = tmp_path / "gmsh.msh"
    subprocess.run(["gmsh", "-0", str(path), "-o", str(out), "-format", "msh41"], check=True,
                   stdout=subprocess.DEVNULL, timeout=120)
    g = mio.read(out)
    tris = np.concatenate([b.data for b in g.cells if b.type == "triangle"])
    assert len(tris) == len(mesh.cells[0].data)
    used = g.points[np.unique(tris)]
    tol = 1e-6 if binary else 1e-12  # binary STL stores float32
    np.testing.assert_allclose(used.min(axis=0), mesh.points.min(axis=0), atol=tol, rtol=0)
    np.testing.assert_allclose(used.max(axis=0), mesh.points.max(axis=0), atol=tol, rtol=0)


# --- meshio --------------------------------------------------------------------------
@pytest.mark.parametrize("binary", [False, True])
@pytest.mark.parametrize("name", ["tri_mesh", "sphere", "float32"])
def test_meshio_reads_what_we_write(tmp_path, name, binary):
    mesh = helpers.tri_mesh if name == "tri_mesh" else sphere()
    if name == "float32":
        mesh = mio.Mesh(mesh.points.astype(np.float32), mesh.cells)
    path = tmp_path / "ours.stl"
    mio.write(path, mesh, binary=binary)
    theirs, ours = meshio.read(path), mio.read(path)
    np.testing.assert_array_equal(theirs.points, ours.points)
    assert theirs.points.dtype == ours.points.dtype
    np.testing.assert_array_equal(theirs.cells[0].data, ours.cells[0].data)
    if not binary:  # meshio keeps no normals of a binary file
        np.testing.assert_array_equal(theirs.cell_data["facet_normals"][0], ours.cell_data["facet_normals"][0])
    # The normals we computed are meshio's (unit, right-hand rule).
    theirs_written = tmp_path / "theirs.stl"
    meshio.write(theirs_written, meshio.Mesh(mesh.points, [("triangle", mesh.cells[0].data)]), binary=binary)
    np.testing.assert_allclose(mio.read(theirs_written).cell_data["facet_normals"][0], ours.cell_data["facet_normals"][0],
                               atol=1e-6 if binary or name == "float32" else 1e-15, rtol=0)


@pytest.mark.parametrize("binary", [False, True])
def test_we_read_what_meshio_writes(tmp_path, binary):
    rng = np.random.default_rng(3)
    pts = np.round(rng.random((40, 3)) * 4) / 4 - 0.5  # repeated values, some -0.0 after rounding
    pts[5] = [-0.0, 0.0, -0.0]
    pts[6] = [0.0, -0.0, 0.0]
    tri = rng.integers(0, 40, (120, 3))
    path = tmp_path / "theirs.stl"
    meshio.write(path, meshio.Mesh(pts, [("triangle", tri)]), binary=binary)
    theirs, ours = meshio.read(path), mio.read(path)
    np.testing.assert_array_equal(np.signbit(theirs.points), np.signbit(ours.points))
    np.testing.assert_array_equal(theirs.points, ours.points)
    np.testing.assert_array_equal(theirs.cells[0].data, ours.cells[0].data)
    for k, v in theirs.cell_data.items():
        np.testing.assert_array_equal(v[0], ours.cell_data[k][0])


@pytest.mark.parametrize("fixture", FIXTURES, ids=[f.name for f in FIXTURES])
def test_every_fixture_reads_as_meshio_reads_it(fixture):
    ours = mio.read(fixture)
    try:
        theirs = meshio.read(fixture)
    except Exception as e:  # meshio cannot read upper-case keywords
        assert fixture.name == "ascii_keywords_any_case.stl", e
        assert len(ours.cells[0].data) == 2
        return
    np.testing.assert_array_equal(theirs.points, ours.points)
    np.testing.assert_array_equal(theirs.cells[0].data, ours.cells[0].data)


def test_nan_corners_are_never_merged_as_in_meshio(tmp_path):
    nan = float("nan")
    corners = [(0, 0, 0), (1, 0, 0), (nan, 1, 0), (nan, 1, 0), (-0.0, 0, 0), (1, 0, 0)]
    path = tmp_path / "nan.stl"
    with open(path, "wb") as f:
        f.write(b"x" * 80 + struct.pack("<I", 2))
        for t in range(2):
            f.write(struct.pack("<3f", 0, 0, 1) + b"".join(struct.pack("<3f", *c) for c in corners[3 * t:3 * t + 3]) + b"\0\0")
    theirs, ours = meshio.read(path), mio.read(path)
    np.testing.assert_array_equal(theirs.points, ours.points)  # NaN == NaN here
    np.testing.assert_array_equal(theirs.cells[0].data, ours.cells[0].data)
    assert len(ours.points) == 4


# --- solids, detection, keywords -----------------------------------------------------
def test_gmsh_solids_are_named_regions_and_written_back(tmp_path):
    m = mio.read(DATA / "gmsh_two_solids.stl")
    text = (DATA / "gmsh_two_solids.stl").read_text()
    n_bottom = text.split("endsolid bottom")[0].count("endfacet")
    assert [r.name for r in m.regions] == ["bottom", "sides"]
    np.testing.assert_array_equal(m.cell_sets["bottom"][0], np.arange(n_bottom))
    np.testing.assert_array_equal(m.cell_sets["sides"][0], np.arange(n_bottom, len(m.cells[0].data)))
    path = tmp_path / "solids.stl"
    mio.write(path, m)
    written = path.read_text()
    assert written.startswith("solid bottom\n") and "endsolid bottom\nsolid sides\n" in written
    back = mio.read(path)
    assert [r.name for r in back.regions] == ["bottom", "sides"]
    np.testing.assert_array_equal(back.cells[0].data, m.cells[0].data)


def test_a_binary_file_whose_header_says_solid_is_binary():
    m = mio.read(DATA / "binary_header_says_solid.stl")
    assert m.points.dtype == np.float32 and len(m.cells[0].data) == 2 and len(m.points) == 4


def test_binary_keyword_and_default_are_meshios(tmp_path):
    mio.write(tmp_path / "d.stl", helpers.tri_mesh)
    assert (tmp_path / "d.stl").read_bytes().startswith(b"solid\n")
    mio.write(tmp_path / "b.stl", helpers.tri_mesh, binary=True)
    assert (tmp_path / "b.stl").stat().st_size == 84 + 50 * 2
    with pytest.raises(ValueError):
        mio.write(tmp_path / "x.stl", helpers.tri_mesh, binaryy=True)


@pytest.mark.parametrize("binary", [False, True])
def test_round_trip(tmp_path, binary):
    back = helpers.write_read(tmp_path, helpers.tri_mesh, "stl", suffix=".stl", binary=binary)
    assert back.points.dtype == (np.float32 if binary else np.float64)
    # 2-D points come back with z = 0 (STL is 3-D), as with meshio.
    path = tmp_path / "2d.stl"
    mio.write(path, helpers.tri_mesh_2d, binary=binary)
    m2 = mio.read(path)
    np.testing.assert_array_equal(m2.points[:, :2], helpers.tri_mesh_2d.points)
    np.testing.assert_array_equal(m2.points[:, 2], 0)


def test_other_cell_types_are_a_write_error(tmp_path):
    with pytest.raises(mio.WriteError, match="cell block 1 is 'quad'"):
        mio.write(tmp_path / "x.stl", helpers.tri_quad_mesh)
    assert not (tmp_path / "x.stl").exists()


def test_counts_that_disagree_with_the_size_name_both(tmp_path):
    path = tmp_path / "lie.stl"
    mio.write(path, helpers.tri_mesh, binary=True)
    b = bytearray(path.read_bytes())
    b[80:84] = struct.pack("<I", 7)
    path.write_bytes(bytes(b))
    with pytest.raises(mio.ReadError, match=r"declares 7 triangles \(434 bytes\) but the file has 184 bytes"):
        mio.read(path)


def test_a_sparse_file_over_4_gib_is_judged_by_its_size(tmp_path):
    """84 + 50 * 2 bytes + 2^32: a reader computing 84 + 50 * count in 32 bits accepts it
    (it wraps to the size) and then reads garbage; the size fits no count, so ReadError,
    at once and without reading the file's 4 GiB."""
    path = tmp_path / "huge.stl"
    with open(path, "wb") as f:
        f.write(b"x" * 80 + struct.pack("<I", 2))
        try:
            f.truncate(184 + (1 << 32))
        except OSError as e:
            pytest.skip(f"the filesystem cannot hold a sparse 4 GiB file: {e}")
    if path.stat().st_blocks * 512 > 1 << 20:
        pytest.skip("the filesystem does not keep the file sparse")
    with pytest.raises(mio.ReadError, match="declares 2 triangles .* the file has 4294967480 bytes"):
        mio.read(path)
