"""Host interop with VTK and PyVista: to_vtk / from_vtk / to_pyvista / from_pyvista.

Cell types, node orders and the flat cell arrays come from the C++ VTK tables the VTU and
legacy VTK writers and readers use (src/formats/vtk_common/, through
_core.vtk_cells_from_blocks / vtk_blocks_from_cells), so a grid handed to VTK in memory
and the grid VTK reads from ``mio.write("x.vtu", mesh)`` hold the same cell types and the
same point ids per cell. VTK's model: https://vtk.org/doc/nightly/html/classvtkUnstructuredGrid.html
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Mapping, Optional

import numpy as np

from . import _core
from ._exceptions import InteropError
from ._host_payload import (REGIONS_KEY, cell_arrays, field_arrays, freeze_fields, ledger_fields, missing,
                            point_arrays, points3, region_masks, regions_from_masks, require, shared_arrays,
                            split_masks)
from ._mesh import CellBlock, Mesh, _block_part, _is_polyhedron, _offsets_to_polyhedra, _offsets_to_rows
from ._policy import Ledger, share, warn_notes


@dataclass(frozen=True)
class UnstructuredPayload:
    """VTK's unstructured-grid model in plain numpy: (n, 3) points, one flat connectivity
    with offsets (equal dtype, int32 or int64), uint8 cell types, and for polyhedra VTK's
    face stream (`faces`) with per-cell `face_locations` (-1 for other cells). point_data /
    cell_data hold 1-D or (rows, components) arrays, cell_data flat over all cells in
    block-major order; region masks are among them. `regions_json` is the sidecar."""

    points: np.ndarray
    cell_types: np.ndarray
    offsets: np.ndarray
    connectivity: np.ndarray
    face_locations: Optional[np.ndarray] = None
    faces: Optional[np.ndarray] = None
    point_data: Mapping = field(default_factory=dict)
    cell_data: Mapping = field(default_factory=dict)
    field_data: Mapping = field(default_factory=dict)
    regions_json: Optional[str] = None
    notes: tuple = ()
    derived: tuple = ()
    shared: Mapping = field(default_factory=dict)

    def __post_init__(self):
        freeze_fields(self, ("point_data", "cell_data", "field_data", "shared"))


def vtk_cell_type(cell_type: str) -> int:
    """The VTK cell type id of a meshio++ cell type (-1 when VTK has none), from the C++ table."""
    return _core.vtk_cell_type(cell_type)[0]


def _vtk_cells(ledger: Ledger, cells, kept: list):
    """Kept blocks -> (cell_types, offsets, connectivity, face_locations, faces), laid out
    by the C++ VTK writer code; a single rectangular block VTK stores as is stays shared."""
    if not kept:
        return np.zeros(0, np.uint8), np.zeros(1, np.int64), np.zeros(0, np.int64), None, None
    parts, rectangular, gathered = [], [], []
    for i in kept:
        b = cells[i]
        label = f"cells[{i}] ({b.type})"
        if _is_polyhedron(b.type) or isinstance(b.data, list):
            parts.append(_block_part(i, b))
            ledger.shared[label] = False
            if _is_polyhedron(b.type):
                ledger.derive(f"{label}: VTK faces / face_locations and per-cell point ids built from the polyhedra")
            else:
                gathered.append(label)
            continue
        data = share(ledger, label, b.data)
        if data is None or data.ndim != 2 or data.dtype.kind not in "iu":
            raise InteropError(f"{ledger.operation}: {label} must be a 2-D integer array, found {np.shape(b.data)} {getattr(b.data, 'dtype', '')}")
        parts.append((b.type, data))
        rectangular.append((label, b.type, data))
    flat = _core.vtk_cells_from_blocks(parts)
    connectivity = flat["connectivity"]
    ledger.derive("cell_types, offsets: built by the C++ VTK tables from the blocks")
    if len(rectangular) == 1 and len(kept) == 1 and np.shares_memory(connectivity, rectangular[0][2]):
        return flat["types"], flat["offsets"], connectivity, None, None
    if gathered:
        ledger.copy_note(", ".join(gathered), "ragged rows gathered into VTK's single connectivity array")
    if rectangular:
        labels = ", ".join(label for label, _, _ in rectangular)
        if len(kept) > 1:
            reason = f"{len(kept)} blocks concatenated into VTK's single connectivity array"
        elif _core.vtk_cell_type(rectangular[0][1])[1]:
            reason = "nodes reordered into VTK's node order for this cell type"
        else:
            reason = f"dtype {rectangular[0][2].dtype} converted to int64 (VTK connectivity is int32 or int64)"
        ledger.copy_note(labels, reason)
        ledger.shared.update({label: False for label, _, _ in rectangular})
    return flat["types"], flat["offsets"], connectivity, flat["face_locations"], flat["faces"]


def unstructured_payload(mesh, zero_copy_only: bool = False, operation: str = "to_vtk") -> UnstructuredPayload:
    """Mesh -> VTK's unstructured-grid model, sharing every buffer VTK's layout allows:
    points (float, 3-D, C-contiguous), a single rectangular int32/int64 block's
    connectivity (when VTK's node order is the mesh's), and every native C-contiguous
    point / cell (single block) / field array."""
    ledger = Ledger(operation, zero_copy_only)
    points = points3(ledger, mesh.points, "VTK")
    kept = []
    for i, b in enumerate(mesh.cells):
        if vtk_cell_type(b.type) < 0:
            ledger.loss_note(f"cells[{i}] ({b.type})", "no VTK cell type")
        else:
            kept.append(i)
    types, offsets, connectivity, face_locations, faces = _vtk_cells(ledger, mesh.cells, kept)
    point_data = point_arrays(ledger, mesh, flatten=True)
    cell_data = cell_arrays(ledger, mesh, kept, "VTK", flatten=True)
    field = field_arrays(ledger, mesh, "VTK")
    sidecar = region_masks(ledger, mesh, len(points), kept, point_data, cell_data, "VTK")
    return UnstructuredPayload(
        points, types, offsets, connectivity, face_locations, faces, point_data, cell_data, field, sidecar, **ledger_fields(ledger)
    )


def mesh_from_unstructured(payload: UnstructuredPayload, ledger: Ledger) -> Mesh:
    """VTK's model -> Mesh, read by the C++ VTK reader code: runs of one cell type become
    blocks; blocks VTK stores in the mesh's node order are views of the payload's
    connectivity, like every point / cell / field array; cell types with no meshio++ name
    are dropped with a note."""
    points = share(ledger, "points", payload.points)
    conn = share(ledger, "connectivity", payload.connectivity)
    try:
        got = _core.vtk_blocks_from_cells(payload.cell_types, payload.offsets, conn, payload.face_locations,
                                          payload.faces, len(points))
    except ValueError as e:
        raise InteropError(f"{ledger.operation}: {e}") from None
    for s, e, vtk_type, k in got["dropped"]:
        ledger.loss_note(f"cells {s}..{e - 1}", f"{vtk_type} with {k} points has no meshio++ cell type")
    blocks, kept_runs = [], []
    for name, data, s, e in got["blocks"]:
        if isinstance(data, tuple):
            data = _offsets_to_polyhedra(*data) if len(data) == 3 else _offsets_to_rows(*data)
            ledger.derive(f"cells {s}..{e - 1} ({name}): ragged block built from VTK's arrays")
        elif not np.shares_memory(data, conn):
            ledger.derive(f"cells {s}..{e - 1} ({name}): nodes reordered from VTK's order")
        blocks.append(CellBlock(name, data))
        kept_runs.append((s, e))
    ledger.derive(f"cells: {len(blocks)} blocks from runs of one VTK cell type")
    all_kept = not got["dropped"]

    def per_block(flat):
        # the whole array when one block spans it (the very object), else views
        return [flat if (s, e) == (0, len(flat)) else flat[s:e] for s, e in kept_runs]

    point_data, point_masks = split_masks(shared_arrays(ledger, "point_data", payload.point_data))
    cell_flat, cell_masks = split_masks(shared_arrays(ledger, "cell_data", payload.cell_data))
    cell_data = {name: per_block(a) for name, a in cell_flat.items()} if blocks else {}
    if not all_kept:
        cell_masks = {name: np.concatenate(per_block(m)) for name, m in cell_masks.items()}
    regions = regions_from_masks(ledger, point_masks, cell_masks, payload.regions_json)
    field_data = shared_arrays(ledger, "field_data", payload.field_data)
    return Mesh(points, blocks, point_data=point_data, cell_data=cell_data, field_data=field_data, regions=regions)


# --- thin wrappers: the only code that imports VTK / PyVista -----------------------
def _import_vtk(operation: str) -> SimpleNamespace:
    try:
        from vtkmodules.util import numpy_support
        from vtkmodules.vtkCommonCore import VTK_BIT, VTK_ID_TYPE, VTK_SIGNED_CHAR, vtkDataArray, vtkPoints, vtkStringArray
        from vtkmodules.vtkCommonDataModel import vtkCellArray, vtkDataSet, vtkUnstructuredGrid
    except ImportError as e:
        raise missing(operation, "vtk", e) from e
    return SimpleNamespace(
        numpy_to_vtk=numpy_support.numpy_to_vtk, vtk_to_numpy=numpy_support.vtk_to_numpy, VTK_BIT=VTK_BIT,
        VTK_ID_TYPE=VTK_ID_TYPE, VTK_SIGNED_CHAR=VTK_SIGNED_CHAR, vtkDataArray=vtkDataArray, vtkPoints=vtkPoints,
        vtkStringArray=vtkStringArray, vtkCellArray=vtkCellArray, vtkDataSet=vtkDataSet, vtkUnstructuredGrid=vtkUnstructuredGrid,
    )


def vtk_pointer(array) -> int:
    """The address of a VTK data array's first value (0 when it has none)."""
    text = array.GetVoidPointer(0) if array.GetNumberOfValues() else None
    return int(text[1 : text.index("_p_")], 16) if text else 0


class _KeepAlive:
    """A VTK observer whose only job is to own numpy arrays. VTK keeps the observer (and so
    the arrays) for exactly as long as the C++ object it observes lives, however many Python
    wrappers of that object come and go; numpy_to_vtk's own `_numpy_reference` lives on a
    wrapper, which can die first."""

    __slots__ = ("arrays",)

    def __init__(self, arrays):
        self.arrays = tuple(arrays)

    def __call__(self, obj, event):
        pass


def _attach(vtk_object, arrays) -> None:
    vtk_object.AddObserver("DeleteEvent", _KeepAlive(arrays))


def _vtk_grid(payload: UnstructuredPayload, operation: str):
    """UnstructuredPayload -> vtkUnstructuredGrid over the payload's buffers (deep=0)."""
    m = _import_vtk(operation)
    made = []  # (vtk array, numpy array) pairs

    def wrap(a, name=None, array_type=None):
        if a.dtype == np.int8:  # numpy_to_vtk maps int8 to vtkCharArray, which VTK treats as text
            array_type = m.VTK_SIGNED_CHAR
        v = m.numpy_to_vtk(a, deep=0, array_type=array_type)
        # Our observer owns `a` (below); numpy_to_vtk's own reference lives in the wrapper's
        # __dict__, which VTK may park in its ghost map past the array's death: drop it.
        del v._numpy_reference
        made.append((v, a))
        if name is not None:
            v.SetName(name)
        return v

    grid = m.vtkUnstructuredGrid()
    points = m.vtkPoints()
    points.SetData(wrap(payload.points))
    grid.SetPoints(points)
    cells = m.vtkCellArray()
    cells.SetData(wrap(payload.offsets), wrap(payload.connectivity))
    types = wrap(payload.cell_types)
    if payload.faces is not None:
        grid.SetCells(types, cells, wrap(payload.face_locations, array_type=m.VTK_ID_TYPE), wrap(payload.faces, array_type=m.VTK_ID_TYPE))
    else:
        grid.SetCells(types, cells)
    for attrs, arrays in ((grid.GetPointData(), payload.point_data), (grid.GetCellData(), payload.cell_data), (grid.GetFieldData(), payload.field_data)):
        for name, a in arrays.items():
            attrs.AddArray(wrap(a, name))
    if payload.regions_json is not None:
        sidecar = m.vtkStringArray()
        sidecar.SetName(REGIONS_KEY)
        sidecar.InsertNextValue(payload.regions_json)
        grid.GetFieldData().AddArray(sidecar)
    # Keep every numpy buffer alive for as long as any VTK object that points into it: the
    # arrays we made, the arrays VTK made internally over the same buffer (vtkCellArray.SetData
    # shallow-copies into its own arrays), and the grid itself.
    by_address = {a.ctypes.data: a for _, a in made if a.size}
    for v, a in made:
        _attach(v, (a,))
    internal = [points.GetData(), cells.GetOffsetsArray(), cells.GetConnectivityArray(), grid.GetCellTypesArray(), grid.GetFaces(), grid.GetFaceLocations()]
    for v in internal:
        if v is not None and vtk_pointer(v) in by_address:
            _attach(v, (by_address[vtk_pointer(v)],))
    _attach(grid, [a for _, a in made])
    return grid


def to_vtk(mesh, zero_copy_only: bool = False):
    """Mesh -> vtk.vtkUnstructuredGrid sharing the mesh's buffers wherever VTK's layout
    allows (see docs/interop.md). Lossy or copying steps are warned (InteropWarning);
    with zero_copy_only=True any copy of a mesh array raises InteropError instead."""
    payload = unstructured_payload(mesh, zero_copy_only, "to_vtk")
    grid = _vtk_grid(payload, "to_vtk")
    warn_notes("to_vtk", payload.notes)
    return grid


def _vtk_payload(grid, operation: str, ledger: Ledger) -> UnstructuredPayload:
    """vtkDataSet -> UnstructuredPayload of numpy views over VTK's buffers."""
    m = _import_vtk(operation)
    if not isinstance(grid, m.vtkUnstructuredGrid):
        if not isinstance(grid, m.vtkDataSet):
            raise TypeError(f"{operation}: expected a vtkUnstructuredGrid (or another vtkDataSet), found {type(grid).__name__}")
        from vtkmodules.vtkFiltersCore import vtkAppendFilter

        ledger.copy_note("grid", f"a {grid.GetClassName()} is converted to a vtkUnstructuredGrid")
        append = vtkAppendFilter()
        append.AddInputData(grid)
        append.Update()
        field_data = grid.GetFieldData()
        grid = append.GetOutput()
        grid.GetFieldData().ShallowCopy(field_data)

    def arrays(attrs, kind):
        out, sidecar = {}, None
        for i in range(attrs.GetNumberOfArrays()):
            a = attrs.GetAbstractArray(i)
            name = a.GetName() if a.GetName() is not None else f"unnamed{i}"
            if kind == "field_data" and name == REGIONS_KEY and isinstance(a, m.vtkStringArray) and a.GetNumberOfValues():
                sidecar = a.GetValue(0)
            elif not isinstance(a, m.vtkDataArray) or a.GetDataType() == m.VTK_BIT:
                ledger.loss_note(f"{kind}['{name}']", f"a {a.GetClassName()} has no numeric representation")
            else:
                out[name] = m.vtk_to_numpy(a)
        return out, sidecar

    pts = grid.GetPoints()
    points = m.vtk_to_numpy(pts.GetData()) if pts is not None and pts.GetNumberOfPoints() else np.zeros((0, 3))
    ncells = grid.GetNumberOfCells()
    cells = grid.GetCells()
    if ncells:
        types = m.vtk_to_numpy(grid.GetCellTypesArray())
        offsets = m.vtk_to_numpy(cells.GetOffsetsArray())
        connectivity = m.vtk_to_numpy(cells.GetConnectivityArray())
    else:
        types, offsets, connectivity = np.zeros(0, np.uint8), np.zeros(1, np.int64), np.zeros(0, np.int64)
    faces, locations = grid.GetFaces(), grid.GetFaceLocations()
    point_data, _ = arrays(grid.GetPointData(), "point_data")
    cell_data, _ = arrays(grid.GetCellData(), "cell_data")
    field_data, sidecar = arrays(grid.GetFieldData(), "field_data")
    return UnstructuredPayload(
        points, types, offsets, connectivity,
        None if locations is None else m.vtk_to_numpy(locations), None if faces is None else m.vtk_to_numpy(faces),
        point_data, cell_data, field_data, sidecar,
    )


def _from_vtk(grid, operation: str, zero_copy_only: bool) -> Mesh:
    ledger = Ledger(operation, zero_copy_only)
    mesh = mesh_from_unstructured(_vtk_payload(grid, operation, ledger), ledger)
    warn_notes(operation, ledger.notes, stacklevel=4)
    return mesh


def from_vtk(grid, zero_copy_only: bool = False) -> Mesh:
    """vtkUnstructuredGrid (or any vtkDataSet, converted with a note) -> Mesh whose arrays
    are numpy views of VTK's buffers (each view keeps its VTK array alive). Regions are
    rebuilt from `region:<name>` masks and the sidecar."""
    return _from_vtk(grid, "from_vtk", zero_copy_only)


def to_pyvista(mesh, zero_copy_only: bool = False):
    """Mesh -> pyvista.UnstructuredGrid wrapping the grid to_vtk builds (same sharing)."""
    pyvista = require("to_pyvista", "pyvista")
    payload = unstructured_payload(mesh, zero_copy_only, "to_pyvista")
    grid = pyvista.wrap(_vtk_grid(payload, "to_pyvista"))
    warn_notes("to_pyvista", payload.notes)
    return grid


def from_pyvista(grid, zero_copy_only: bool = False) -> Mesh:
    """pyvista dataset -> Mesh (PyVista datasets are VTK datasets: from_vtk's path)."""
    require("from_pyvista", "pyvista")  # only to name what is missing
    return _from_vtk(grid, "from_pyvista", zero_copy_only)
