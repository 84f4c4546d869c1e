"""The real VTK as the oracle for VTU and legacy VTK (Debian python3-vtk9).

Helpers used by test_vtu.py and test_vtk.py: read a file with VTK's own reader into flat
arrays (points, cell types, per-cell connectivity, polyhedron face streams, every data
array), derive the same flat form from a meshio++ mesh with meshio's own VTK cell table
(an implementation independent of ours), and compare. Also: write a mesh with VTK's own
XML / legacy writers in any mode.
"""
from __future__ import annotations

import numpy as np
import pytest

vtk = pytest.importorskip("vtk", reason="the VTK oracle needs python3-vtk9")
from vtk.util.numpy_support import numpy_to_vtk, vtk_to_numpy  # noqa: E402

from meshio._vtk_common import meshio_to_vtk_order, meshio_to_vtk_type  # noqa: E402

import meshioplusplus as mio  # noqa: E402

LAGRANGE = {"line": 68, "triangle": 69, "quad": 70, "tetra": 71, "hexahedron": 72, "wedge": 73, "pyramid": 74}
_LINEAR = {name: info[2] for name, info in mio._core.cell_types().items()}


class _Errors:
    """Collects VTK error events (VTK readers report errors without raising)."""

    def __init__(self, obj):
        self.messages = []
        obj.AddObserver("ErrorEvent", self)
        obj.GetExecutive().AddObserver("ErrorEvent", self)

    def __call__(self, caller, event):
        self.messages.append(event)


def _arrays(attrs):
    out = {}
    for i in range(attrs.GetNumberOfArrays()):
        arr = attrs.GetAbstractArray(i)
        out[arr.GetName()] = vtk_to_numpy(arr)
    return out


def vtk_read(path, legacy: bool | None = None):
    """VTK's reading of `path` as flat arrays."""
    path = str(path)
    if legacy is None:
        legacy = path.endswith(".vtk")
    if legacy:
        reader = vtk.vtkUnstructuredGridReader()
        reader.ReadAllScalarsOn()
        reader.ReadAllVectorsOn()
        reader.ReadAllNormalsOn()
        reader.ReadAllTensorsOn()
        reader.ReadAllFieldsOn()
        reader.ReadAllColorScalarsOn()
    elif path.endswith(".pvtu"):
        reader = vtk.vtkXMLPUnstructuredGridReader()
    else:
        reader = vtk.vtkXMLUnstructuredGridReader()
    errors = _Errors(reader)
    reader.SetFileName(path)
    reader.Update()
    assert not errors.messages, f"VTK reported errors reading {path}"
    return vtk_flat(reader.GetOutput())


def vtk_flat(grid):
    """A vtkUnstructuredGrid (or any dataset with cells and points) as flat arrays."""
    n = grid.GetNumberOfCells()
    cells = []
    for i in range(n):
        t = grid.GetCellType(i)
        ids = vtk.vtkIdList()
        if t == 42:
            grid.GetFaceStream(i, ids)
            stream = [ids.GetId(j) for j in range(ids.GetNumberOfIds())]
            cells.append((t, _faces_from_stream(stream)))
        else:
            grid.GetCellPoints(i, ids)
            cells.append((t, [ids.GetId(j) for j in range(ids.GetNumberOfIds())]))
    points = vtk_to_numpy(grid.GetPoints().GetData()) if grid.GetPoints() else np.zeros((0, 3))
    return {
        "points": points,
        "cells": cells,
        "point_data": _arrays(grid.GetPointData()),
        "cell_data": _arrays(grid.GetCellData()),
        "field_data": _arrays(grid.GetFieldData()),
    }


def _faces_from_stream(stream):
    nf, k, faces = stream[0], 1, []
    for _ in range(nf):
        npts = stream[k]
        faces.append(tuple(stream[k + 1 : k + 1 + npts]))
        k += 1 + npts
    return faces


def vtk_type_of(cell_type: str) -> int:
    if cell_type.startswith("polyhedron"):
        return 42
    if cell_type.startswith("polygon"):
        return 7
    if cell_type in meshio_to_vtk_type:
        return meshio_to_vtk_type[cell_type]
    return LAGRANGE[_LINEAR[cell_type]]


def flat_from_mesh(mesh):
    """The flat form VTK should see for a meshio++ mesh (meshio's table and node order)."""
    cells = []
    for block in mesh.cells:
        t = vtk_type_of(block.type)
        if t == 42:
            for cell in block.data:
                cells.append((42, [tuple(int(v) for v in face) for face in cell]))
            continue
        order = meshio_to_vtk_order(block.type)
        for row in block.data:
            row = np.asarray(row)
            if order is not None:
                row = row[order]
            cells.append((t, [int(v) for v in row]))
    points = np.asarray(mesh.points)
    if points.shape[1] == 2:
        points = np.column_stack([points, np.zeros(len(points))])
    cell_data = {k: np.concatenate([np.asarray(a) for a in v]) for k, v in mesh.cell_data.items()}
    return {"points": points, "cells": cells, "point_data": dict(mesh.point_data), "cell_data": cell_data,
            "field_data": dict(mesh.field_data)}


def _same_array(name, expected, got, check_dtype):
    expected = np.asarray(expected)
    got = np.asarray(got)
    assert expected.size == got.size, f"{name}: {expected.shape} vs {got.shape}"
    if check_dtype:
        assert expected.dtype == got.dtype, f"{name}: dtype {expected.dtype} vs {got.dtype}"
    np.testing.assert_array_equal(expected.reshape(-1), got.reshape(-1), err_msg=name)


def assert_flat_equal(expected, got, check_dtype=True, field_data=True, polyhedron_points_as_sets=True):
    _same_array("points", expected["points"], got["points"], check_dtype)
    assert len(expected["cells"]) == len(got["cells"]), "cell count"
    for i, ((te, ce), (tg, cg)) in enumerate(zip(expected["cells"], got["cells"])):
        assert te == tg, f"cell {i}: VTK type {te} vs {tg}"
        assert list(ce) == list(cg), f"cell {i}: {ce} vs {cg}"
    for kind in ("point_data", "cell_data") + (("field_data",) if field_data else ()):
        assert sorted(expected[kind]) == sorted(got[kind]), f"{kind} names {sorted(expected[kind])} vs {sorted(got[kind])}"
        for name in expected[kind]:
            _same_array(f"{kind}[{name!r}]", expected[kind][name], got[kind][name], check_dtype)


# --- VTK's own writers ------------------------------------------------------------------


def assert_vtk_reads_what_we_write(path, mesh, **write_options):
    """Writes `mesh` to `path` with our writer: VTK's own reader must see the mesh."""
    mio.write(path, mesh, **write_options)
    assert_flat_equal(flat_from_mesh(mesh), vtk_read(path))


def vtk_grid_from_file(path):
    reader = vtk.vtkXMLUnstructuredGridReader() if str(path).endswith(".vtu") else vtk.vtkUnstructuredGridReader()
    if not str(path).endswith(".vtu"):
        reader.ReadAllScalarsOn()
        reader.ReadAllVectorsOn()
        reader.ReadAllFieldsOn()
    reader.SetFileName(str(path))
    reader.Update()
    return reader.GetOutput()


def vtk_write_xml(grid, path, data_mode, compressor=None, header_type="UInt64", encode_appended=False):
    w = vtk.vtkXMLUnstructuredGridWriter()
    w.SetInputData(grid)
    w.SetFileName(str(path))
    {"ascii": w.SetDataModeToAscii, "binary": w.SetDataModeToBinary, "appended": w.SetDataModeToAppended}[data_mode]()
    w.SetEncodeAppendedData(1 if encode_appended else 0)
    {None: w.SetCompressorTypeToNone, "zlib": w.SetCompressorTypeToZLib, "lz4": w.SetCompressorTypeToLZ4,
     "lzma": w.SetCompressorTypeToLZMA}[compressor]()
    {"UInt32": w.SetHeaderTypeToUInt32, "UInt64": w.SetHeaderTypeToUInt64}[header_type]()
    assert w.Write() == 1
    return path


def vtk_write_legacy(grid, path, binary=True, version="5.1"):
    w = vtk.vtkUnstructuredGridWriter()
    w.SetInputData(grid)
    w.SetFileName(str(path))
    w.SetFileTypeToBinary() if binary else w.SetFileTypeToASCII()
    if version == "4.2":
        w.SetFileVersion(42)
    assert w.Write() == 1
    return path


def test_oracle_sees_a_wrong_connectivity(tmp_path):
    """The oracle itself can fail: a mesh and a different mesh do not compare equal."""
    m = mio.Mesh(np.eye(3), [("triangle", [[0, 1, 2]])])
    path = tmp_path / "a.vtu"
    mio.write(path, m)
    got = vtk_read(path)
    assert_flat_equal(flat_from_mesh(m), got)
    other = mio.Mesh(np.eye(3), [("triangle", [[0, 2, 1]])])
    with pytest.raises(AssertionError):
        assert_flat_equal(flat_from_mesh(other), got)
