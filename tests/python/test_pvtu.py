"""PVTU / PVTP (VTK parallel XML collections) against VTK 9.1: VTK's
vtkXMLPUnstructuredGridReader reads every .pvtu we write (one piece or pieces=[...]) and
gives our arrays; we read the .pvtu files vtkXMLPUnstructuredGridWriter writes (1, 2, 3
pieces). The pieces=[...] keyword, the piece=<k> option and bad collections."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest

import helpers
import meshioplusplus as mio
import test_vtk_oracle as oracle
from test_vtk_xml import _in_vtk_order, _surface_mesh, ours, vtk_read_xml, vtk_unstructured
from test_vtu import MESHES, MODES, with_data

vtk = pytest.importorskip("vtk", reason="VTK is the oracle of the parallel XML formats")


def grid_mesh(n=6):
    """A 2-D grid of n x n cells in 3-D: triangles on the left half, quads on the right,
    with point and cell data (big enough to cut into pieces)."""
    xs, ys = np.meshgrid(np.arange(n + 1, dtype=float), np.arange(n + 1, dtype=float))
    points = np.column_stack([xs.ravel(), ys.ravel(), 0.1 * xs.ravel() * ys.ravel()])
    tri, quad = [], []
    for j in range(n):
        for i in range(n):
            a, b, c, d = j * (n + 1) + i, j * (n + 1) + i + 1, (j + 1) * (n + 1) + i + 1, (j + 1) * (n + 1) + i
            if i < n // 2:
                tri += [[a, b, c], [a, c, d]]
            else:
                quad.append([a, b, c, d])
    mesh = mio.Mesh(points, [("triangle", tri), ("quad", quad)])
    mesh.point_data = {"T": np.sin(points[:, 0]) + points[:, 1], "V": points[:, [1, 0, 2]].astype(np.float32)}
    mesh.cell_data = {"id": [np.arange(len(tri), dtype=np.int32), np.arange(len(quad), dtype=np.int32) + 1000]}
    return mesh


def split(mesh, n):
    """`mesh` cut into n pieces by global cell ranges, each with only the points it uses
    (renumbered), as a partitioner gives them."""
    flat = [(b.type, row, {k: v[i][r] for k, v in mesh.cell_data.items()}) for i, b in enumerate(mesh.cells) for r, row in enumerate(b.data)]
    bounds = np.linspace(0, len(flat), n + 1).astype(int)
    pieces = []
    for k in range(n):
        part = flat[bounds[k] : bounds[k + 1]]
        used = np.unique(np.concatenate([row for _, row, _ in part]))
        new_id = {int(old): new for new, old in enumerate(used)}
        blocks, data = [], {name: [] for name in mesh.cell_data}
        for t, row, values in part:
            if not blocks or blocks[-1][0] != t:
                blocks.append((t, []))
                for name in data:
                    data[name].append([])
            blocks[-1][1].append([new_id[int(v)] for v in row])
            for name in data:
                data[name][-1].append(values[name])
        piece = mio.Mesh(mesh.points[used], [(t, np.array(rows)) for t, rows in blocks])
        piece.point_data = {name: a[used] for name, a in mesh.point_data.items()}
        piece.cell_data = {name: [np.array(v, dtype=mesh.cell_data[name][0].dtype) for v in lists] for name, lists in data.items()}
        pieces.append(piece)
    return pieces


def flat_of_pieces(pieces):
    """VTK's expected view of a collection: the pieces' flat forms, point ids shifted."""
    out = {"points": [], "cells": [], "point_data": {}, "cell_data": {}, "field_data": {}}
    base = 0
    for p in pieces:
        f = oracle.flat_from_mesh(p)
        out["points"].append(f["points"])
        out["cells"] += [(t, [v + base for v in ids]) for t, ids in f["cells"]]
        for kind in ("point_data", "cell_data"):
            for name, a in f[kind].items():
                out[kind].setdefault(name, []).append(np.asarray(a))
        base += len(p.points)
    out["points"] = np.concatenate(out["points"])
    for kind in ("point_data", "cell_data"):
        out[kind] = {name: np.concatenate(parts) for name, parts in out[kind].items()}
    return out


@pytest.mark.parametrize("mode", ["ascii", "binary", "appended_zlib_uint32"])
@pytest.mark.parametrize("name", ["tri", "tri_quad", "tet", "polygons", "polyhedra", "quadratic_meshio"])
def test_vtk_reads_the_pvtu_we_write(tmp_path, name, mode):
    mesh = with_data(MESHES[name])
    mio.write(tmp_path / "x.pvtu", mesh, **MODES[mode])
    assert (tmp_path / "x" / "x_0.vtu").is_file()
    expected = oracle.flat_from_mesh(mesh)
    # VTK's parallel reader keeps no field data: the pieces' FieldData is compared below.
    oracle.assert_flat_equal(expected, oracle.vtk_read(tmp_path / "x.pvtu"), field_data=False)
    oracle.assert_flat_equal(expected, oracle.vtk_read(tmp_path / "x" / "x_0.vtu"))
    oracle.assert_flat_equal(expected, oracle.flat_from_mesh(mio.read(tmp_path / "x.pvtu")))


@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("mode", ["ascii", "binary_zlib"])
def test_pieces_are_what_vtk_reads(tmp_path, n, mode):
    pieces = split(grid_mesh(), n)
    mio.write(tmp_path / "p.pvtu", None, pieces=pieces, **MODES[mode])
    expected = flat_of_pieces(pieces)
    oracle.assert_flat_equal(expected, oracle.vtk_read(tmp_path / "p.pvtu"), field_data=False)
    ours = mio.read(tmp_path / "p.pvtu")
    oracle.assert_flat_equal(expected, oracle.flat_from_mesh(ours), field_data=False)
    # Blocks: the runs of one type in piece order (a run continues across pieces).
    # The pieces cut the triangles and the quads anywhere: always one block of each.
    assert [(b.type, len(b)) for b in ours.cells] == [("triangle", 36), ("quad", 18)]
    for k, piece in enumerate(pieces):
        helpers.assert_mesh_equal(piece, mio.read(tmp_path / "p.pvtu", piece=k))
    summary = ET.parse(tmp_path / "p.pvtu").getroot()
    assert [p.get("Source") for p in summary.iter("Piece")] == [f"p/p_{k}.vtu" for k in range(n)]


def vtk_write_pvtu(grid, path, n):
    """`grid` written by vtkXMLPUnstructuredGridWriter in n pieces (StartPiece 0, EndPiece
    n - 1, UseSubdirectory on, as ParaView writes), each piece cut by
    vtkExtractUnstructuredGridPiece, which answers the writer's piece requests."""
    producer = vtk.vtkTrivialProducer()
    producer.SetOutput(grid)
    extract = vtk.vtkExtractUnstructuredGridPiece()
    extract.SetInputConnection(producer.GetOutputPort())
    w = vtk.vtkXMLPUnstructuredGridWriter()
    w.SetInputConnection(extract.GetOutputPort())
    w.SetFileName(str(path))
    w.SetNumberOfPieces(n)
    w.SetStartPiece(0)
    w.SetEndPiece(n - 1)
    w.SetUseSubdirectory(1)
    assert w.Write() == 1
    return path


@pytest.mark.parametrize("n", [1, 2, 3])
def test_we_read_the_pvtu_vtk_writes(tmp_path, n):
    mio.write(tmp_path / "src.vtu", grid_mesh())
    path = vtk_write_pvtu(oracle.vtk_grid_from_file(tmp_path / "src.vtu"), tmp_path / "v.pvtu", n)
    assert len(list((tmp_path / "v").glob("v_*.vtu"))) == n
    assert len(ET.parse(path).getroot().findall(".//Piece")) == n
    vtk_view = oracle.vtk_read(path)
    assert len(vtk_view["cells"]) == len(grid_mesh().cells[0]) + len(grid_mesh().cells[1])
    sizes = [len(mio.read(path, piece=k).points) for k in range(n)]
    assert len(vtk_view["points"]) == sum(sizes) and (n == 1 or max(sizes) < len(grid_mesh().points))  # real pieces
    oracle.assert_flat_equal(vtk_view, oracle.flat_from_mesh(mio.read(path)), field_data=False)


def test_vtk_default_naming_without_subdirectory_reads(tmp_path):
    # vtkXMLPUnstructuredGridWriter's own default puts x_0.vtu beside x.pvtu.
    mio.write(tmp_path / "src.vtu", grid_mesh())
    w = vtk.vtkXMLPUnstructuredGridWriter()
    w.SetInputData(oracle.vtk_grid_from_file(tmp_path / "src.vtu"))
    w.SetFileName(str(tmp_path / "flat.pvtu"))
    assert w.Write() == 1
    assert (tmp_path / "flat_0.vtu").is_file()
    oracle.assert_flat_equal(oracle.vtk_read(tmp_path / "flat.pvtu"), oracle.flat_from_mesh(mio.read(tmp_path / "flat.pvtu")),
                             field_data=False)


def test_pieces_keyword(tmp_path):
    mesh = grid_mesh()
    pieces = split(mesh, 2)
    mio.write(tmp_path / "w.pvtu", mesh, pieces=pieces)  # the whole mesh the pieces partition
    assert len(mio.read(tmp_path / "w.pvtu").points) == sum(len(p.points) for p in pieces)
    with pytest.raises(ValueError, match="pieces hold"):
        mio.write(tmp_path / "w.pvtu", pieces[0], pieces=pieces)
    with pytest.raises(ValueError, match="non-empty list"):
        mio.write(tmp_path / "w.pvtu", None, pieces=[])
    with pytest.raises(ValueError, match="does not write pieces"):
        mio.write(tmp_path / "w.vtu", None, pieces=pieces)
    # Options go to every piece's vtu writer.
    mio.pvtu.write(tmp_path / "a.pvtu", None, pieces=pieces, binary=False)
    assert b'format="ascii"' in (tmp_path / "a" / "a_1.vtu").read_bytes()
    other = split(mesh, 2)
    other[1].point_data.pop("T")
    with pytest.raises(ValueError, match="point data 'T' missing from piece 1"):
        mio.write(tmp_path / "bad.pvtu", None, pieces=other)
    assert not (tmp_path / "bad.pvtu").exists()


def test_absent_or_inconsistent_pieces_are_read_errors(tmp_path):
    mio.write(tmp_path / "x.pvtu", None, pieces=split(grid_mesh(), 2))
    (tmp_path / "x" / "x_1.vtu").unlink()
    with pytest.raises(mio.ReadError, match=r'piece 1: Source "x/x_1.vtu" is not a file'):
        mio.read(tmp_path / "x.pvtu")
    assert len(mio.read(tmp_path / "x.pvtu", piece=0).points) > 0
    with pytest.raises(ValueError, match="past the last piece"):
        mio.read(tmp_path / "x.pvtu", piece=2)


# --- PVTP: the same collection code over the vtp format ----------------------------------


def test_vtk_reads_the_pvtp_we_write(tmp_path):
    mesh = _surface_mesh()
    mio.write(tmp_path / "s.pvtp", mesh, binary=False)
    assert (tmp_path / "s" / "s_0.vtp").is_file()
    expected = oracle.flat_from_mesh(_in_vtk_order(mesh))
    expected["field_data"] = {}
    oracle.assert_flat_equal(expected, vtk_unstructured(vtk_read_xml(vtk.vtkXMLPPolyDataReader, tmp_path / "s.pvtp")))
    oracle.assert_flat_equal(expected, ours(tmp_path / "s.pvtp"))


@pytest.mark.parametrize("n", [2, 3])
def test_pvtp_pieces_are_what_vtk_reads(tmp_path, n):
    # Triangles and quads only: VTK's polydata order (verts, lines, polys) is then piece order.
    pieces = split(grid_mesh(), n)
    mio.write(tmp_path / "p.pvtp", None, pieces=pieces)
    expected = flat_of_pieces(pieces)
    oracle.assert_flat_equal(expected, vtk_unstructured(vtk_read_xml(vtk.vtkXMLPPolyDataReader, tmp_path / "p.pvtp")))
    oracle.assert_flat_equal(expected, ours(tmp_path / "p.pvtp"))
    helpers.assert_mesh_equal(pieces[1], mio.read(tmp_path / "p.pvtp", piece=1))


@pytest.mark.parametrize("n", [1, 2, 3])
def test_we_read_the_pvtp_vtk_writes(tmp_path, n):
    mio.write(tmp_path / "src.vtp", grid_mesh())
    producer = vtk.vtkTrivialProducer()
    producer.SetOutput(vtk_read_xml(vtk.vtkXMLPolyDataReader, tmp_path / "src.vtp"))
    extract = vtk.vtkExtractPolyDataPiece()
    extract.SetInputConnection(producer.GetOutputPort())
    w = vtk.vtkXMLPPolyDataWriter()
    w.SetInputConnection(extract.GetOutputPort())
    w.SetFileName(str(tmp_path / "v.pvtp"))
    w.SetNumberOfPieces(n)
    w.SetStartPiece(0)
    w.SetEndPiece(n - 1)
    w.SetUseSubdirectory(1)
    assert w.Write() == 1
    assert len(ET.parse(tmp_path / "v.pvtp").getroot().findall(".//Piece")) == n
    vtk_view = vtk_unstructured(vtk_read_xml(vtk.vtkXMLPPolyDataReader, tmp_path / "v.pvtp"))
    assert len(vtk_view["cells"]) == 54
    oracle.assert_flat_equal(vtk_view, ours(tmp_path / "v.pvtp"))


def test_pvtp_collection_parser_errors(tmp_path):
    assert mio.formats()["pvtp"]["extensions"] == [".pvtp"]
    (tmp_path / "s.pvtp").write_text(
        '<VTKFile type="PPolyData" version="1.0"><PPolyData GhostLevel="0">'
        '<PPoints><PDataArray type="Float32" Name="Points" NumberOfComponents="3"/></PPoints>'
        '<Piece Source="s/s_0.vtp"/></PPolyData></VTKFile>'
    )
    with pytest.raises(mio.ReadError, match=r'pvtp: .*s.pvtp.*piece 0: Source "s/s_0.vtp" is not a file'):
        mio.read(tmp_path / "s.pvtp")
    (tmp_path / "u.pvtp").write_text('<VTKFile type="PUnstructuredGrid"><PUnstructuredGrid/></VTKFile>')
    with pytest.raises(mio.ReadError, match='expected VTKFile type="PPolyData"'):
        mio.read(tmp_path / "u.pvtp")
