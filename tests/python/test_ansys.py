"""ANSYS Fluent (docs/formats/ansys.md): volume cells rebuilt from the faces, checked
against VTK's vtkFLUENTReader and the geometry; meshio's layout read and written both ways
with Debian's meshio; the faces=true layout read by VTK; ".msh" deduced by content."""
import shutil
import warnings
from pathlib import Path

import meshio
import numpy as np
import pytest

import meshioplusplus as mio

DATA = Path(__file__).resolve().parents[1] / "data" / "ansys"
FIXTURES = ["hex_2cells.msh", "wedge_pyramid.msh", "polyhedron.msh", "tri_quad_2d.msh", "binary_tets.msh",
            "binary_tets_float32.msh"]
VTK_TYPES = {5: "triangle", 9: "quad", 10: "tetra", 12: "hexahedron", 13: "wedge", 14: "pyramid", 41: "polyhedron"}


def read_quiet(path, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return mio.read(path, *args, **kw)


def vtk_cells(path, tmp_path):
    """(type, sorted node ids) of every cell vtkFLUENTReader rebuilds, and its points."""
    vtk = pytest.importorskip("vtk")
    from vtk.util.numpy_support import vtk_to_numpy

    cas = tmp_path / "v.cas"  # the reader wants a case file name
    shutil.copy(path, cas)
    r = vtk.vtkFLUENTReader()
    r.SetFileName(str(cas))
    r.Update()
    out, pts = [], None
    it = r.GetOutput().NewIterator()
    it.InitTraversal()
    while not it.IsDoneWithTraversal():
        g = it.GetCurrentDataObject()
        for i in range(g.GetNumberOfCells()):
            c = g.GetCell(i)
            ids = [c.GetPointId(j) for j in range(c.GetNumberOfPoints())]
            out.append((VTK_TYPES.get(c.GetCellType(), c.GetCellType()), ids))
        pts = vtk_to_numpy(g.GetPoints().GetData())
        it.GoToNextItem()
    return out, pts


def ours(mesh):
    out = []
    for b in mesh.cells:
        for row in b.data:
            out.append((b.type, list(row)))
    return out


def signed_measures(mesh):
    """Volume (area in 2-D) of every fixed-shape cell from its outward facets."""
    p = np.asarray(mesh.points, float)
    out = []
    for b in mesh.cells:
        if b.type.startswith("poly"):
            continue
        for row in b.data:
            v = 0.0
            for f in mio._core.cell_facets(b.type):
                q = p[[row[i] for i in f]]
                if p.shape[1] == 2:
                    v += (q[0, 0] * q[1, 1] - q[1, 0] * q[0, 1]) / 2
                else:
                    for t in range(1, len(f) - 1):
                        v += np.dot(q[0], np.cross(q[t], q[t + 1])) / 6
            out.append(v)
    return out


@pytest.mark.parametrize("name", ["hex_2cells.msh", "wedge_pyramid.msh", "tri_quad_2d.msh"])
def test_cells_match_vtk_fluent_reader(tmp_path, name):
    # VTK rebuilds the same cells in the same node order (its rule: base face from c0).
    theirs, pts = vtk_cells(DATA / name, tmp_path)
    mesh = read_quiet(DATA / name)
    assert sorted(ours(mesh)) == sorted((t, ids) for t, ids in theirs)
    assert np.allclose(np.asarray(mesh.points)[:, : pts.shape[1]], pts[:, : mesh.points.shape[1]])


@pytest.mark.parametrize("name", FIXTURES)
def test_every_cell_has_positive_volume(name):
    mesh = read_quiet(DATA / name)
    assert mesh.cells and all(v > 0 for v in signed_measures(mesh))


def test_meshio_reads_faces_only_we_read_volumes():
    # The difference docs/python.md lists: meshio returns the face zones as cells.
    theirs = meshio.read(DATA / "hex_2cells.msh", "ansys")
    assert {c.type for c in theirs.cells} == {"quad"} and sum(len(c) for c in theirs.cells) == 11
    mesh = mio.read(DATA / "hex_2cells.msh")
    assert [(c.type, len(c)) for c in mesh.cells] == [("hexahedron", 2)]
    assert {(r.name, r.kind) for r in mesh.regions} == {("fluid", "cell"), ("walls", "side")}
    assert len(mesh.cell_sets["fluid"][0]) == 2


@pytest.mark.parametrize("binary", [True, False])
def test_meshio_layout_both_ways(tmp_path, binary):
    rng = np.random.default_rng(1)
    pts = rng.random((20, 3))
    cells = [("tetra", np.array([[0, 1, 2, 3], [4, 5, 6, 7]])), ("hexahedron", np.arange(8, 16).reshape(1, 8)),
             ("wedge", np.array([[0, 2, 4, 6, 8, 10]])), ("pyramid", np.array([[15, 16, 17, 18, 19]]))]
    # meshio writes, we read
    meshio.write(tmp_path / "a.msh", meshio.Mesh(pts, cells), "ansys", binary=binary)
    back = mio.read(tmp_path / "a.msh")
    assert np.array_equal(back.points, pts)
    assert [(c.type, c.data.tolist()) for c in back.cells] == [(t, d.tolist()) for t, d in cells]
    # we write, meshio reads
    mio.write(tmp_path / "b.msh", mio.Mesh(pts, cells), "ansys", binary=binary)
    theirs = meshio.read(tmp_path / "b.msh", "ansys")
    assert np.array_equal(theirs.points, pts)
    assert [(c.type, c.data.tolist()) for c in theirs.cells] == [(t, d.tolist()) for t, d in cells]
    assert [(c.type, c.data.tolist()) for c in mio.read(tmp_path / "b.msh").cells] == [(t, d.tolist()) for t, d in cells]


def test_meshio_2d_layout(tmp_path):
    pts = np.array([[0.0, 0], [1, 0], [1, 1], [0, 1]])
    cells = [("triangle", np.array([[0, 1, 2]])), ("quad", np.array([[0, 1, 2, 3]]))]
    meshio.write(tmp_path / "a.msh", meshio.Mesh(pts, cells), "ansys")
    back = mio.read(tmp_path / "a.msh")
    assert back.points.shape == (4, 2)
    assert [(c.type, c.data.tolist()) for c in back.cells] == [(t, d.tolist()) for t, d in cells]


@pytest.mark.parametrize("binary", [False, True])
def test_faces_layout_is_read_by_vtk_and_by_us(tmp_path, binary):
    src = read_quiet(DATA / "wedge_pyramid.msh")
    mio.write(tmp_path / "f.msh", src, "ansys", faces=True, binary=binary)
    theirs, _ = vtk_cells(tmp_path / "f.msh", tmp_path)
    back = read_quiet(tmp_path / "f.msh")
    assert sorted(ours(back)) == sorted(theirs)
    assert np.allclose(signed_measures(back), signed_measures(src))
    assert {(r.name, r.kind) for r in back.regions} == {("fluid", "cell"), ("outer", "side")}
    for binary in (True, False):  # our own binary / text faces read back to the same cells
        mio.write(tmp_path / "g.msh", src, "ansys", faces=True, binary=binary)
        assert sorted(ours(read_quiet(tmp_path / "g.msh"))) == sorted(ours(back))


def test_msh_is_deduced_from_the_content(tmp_path):
    pts = np.array([[0.0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]])
    cells = [("tetra", np.array([[0, 1, 2, 3]]))]
    mio.write(tmp_path / "g.msh", mio.Mesh(pts, cells))  # a .msh write stays Gmsh
    assert (tmp_path / "g.msh").read_bytes().startswith(b"$MeshFormat")
    meshio.write(tmp_path / "f.msh", meshio.Mesh(pts, cells), "ansys")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # silently
        g = mio.read(tmp_path / "g.msh")
        f = mio.read(tmp_path / "f.msh")
    assert [c.type for c in g.cells] == [c.type for c in f.cells] == ["tetra"]
    assert mio._core.deduce_format(str(tmp_path / "f.msh"), False) == "ansys"
    assert mio._core.deduce_format(str(tmp_path / "g.msh"), False) == "gmsh"


def test_unknown_sections_warn_with_index_and_line(tmp_path):
    text = (DATA / "hex_2cells.msh").read_text() + '(37 ((a "b)") (c 1)))\n'
    (tmp_path / "x.msh").write_text(text)
    with pytest.warns(UserWarning, match=r"skipped section 37 at line 39"):
        mesh = mio.read(tmp_path / "x.msh")
    assert len(mesh.cells[0]) == 2


def test_errors_name_file_and_line(tmp_path):
    (tmp_path / "bad.msh").write_text("(2 3)\n(10 (1 1 2 1 3)(\n0 0 0\n1 zz 0\n))\n")
    with pytest.raises(mio.ReadError, match=r"ansys: .*bad.msh: line 4 .*a node coordinate"):
        mio.read(tmp_path / "bad.msh")
    with pytest.raises(mio.WriteError, match="'line'"):
        mio.write(tmp_path / "l.msh", mio.Mesh(np.zeros((2, 3)), [("line", np.array([[0, 1]]))]), "ansys")
