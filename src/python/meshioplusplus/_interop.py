"""Host interop layer: the zero-copy contract shared by every hand-off.

The contract is about *host buffer sharing*: an array that exists in the Mesh is either
handed over as the very same buffer, or the hand-off records a note saying why it was
copied (or dropped). With ``zero_copy_only=True`` any such copy raises InteropError naming
the array and the reason instead. Arrays the hand-off builds itself (offsets, type arrays,
masks) are *derived*: outside the contract, recorded in ``derived``, never warned.

Data policy, shared by every target and by the GPU module (_gpu.py):
  * native numeric dtypes (int8..uint64, float32/64), C-contiguous: passed as-is (shared);
  * bool: widened to uint8 (a noted copy);
  * object, complex, string (and other non-numeric) arrays: dropped with a note;
  * non-contiguous arrays: copied with a note; any other dtype (float16, longdouble,
    foreign byte order): converted with a note.
Notes surface as InteropWarning, one per note, prefixed with the operation.

Host targets (below the policy): VTK (to_vtk / from_vtk), PyVista (the same VTK grid) and
trimesh (triangles), each a pure payload builder plus a thin wrapper that imports its
library lazily. User page: docs/interop.md.
"""
from __future__ import annotations

import warnings

import numpy as np

from ._exceptions import InteropError, InteropWarning

_NATIVE_NUMERIC = {np.dtype(t) for t in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64")}


class Ledger:
    """Collects what a hand-off did: notes (lossy or copying), derived facts, and which
    mesh arrays were shared (label -> bool)."""

    def __init__(self, operation: str, zero_copy_only: bool = False):
        self.operation = operation
        self.zero_copy_only = zero_copy_only
        self.notes: list[str] = []
        self.derived: list[str] = []
        self.shared: dict[str, bool] = {}

    def copy_note(self, label: str, reason: str) -> None:
        """Record that a mesh array is copied; raises under zero_copy_only."""
        if self.zero_copy_only:
            raise InteropError(f"{self.operation}: {label} would be copied ({reason}); zero_copy_only=True forbids it")
        self.notes.append(f"{label} copied: {reason}")

    def loss_note(self, label: str, reason: str) -> None:
        """Record that something is not carried over (dropped); not a copy."""
        self.notes.append(f"{label} dropped: {reason}")

    def note(self, label: str, text: str) -> None:
        """Record a lossy step that is neither a copy nor a drop (e.g. an unknown tag)."""
        self.notes.append(f"{label}: {text}")

    def derive(self, fact: str) -> None:
        self.derived.append(fact)

    def warn(self, stacklevel: int = 3) -> None:
        for note in self.notes:
            warnings.warn(f"{self.operation}: {note}", InteropWarning, stacklevel=stacklevel)


def share(ledger: Ledger, label: str, array):
    """Apply the data policy to one mesh array. Returns the array to hand over (the same
    object when shared) or None when it is dropped; records everything in `ledger`."""
    original = array
    if not isinstance(array, np.ndarray):
        a = np.asarray(array)
        if a.dtype.kind in "biuf":
            ledger.copy_note(label, f"a {type(array).__name__} is not an array; converted")
        array = a
    kind = array.dtype.kind
    if kind not in "biuf":
        ledger.loss_note(label, f"dtype {array.dtype} has no numeric representation")
        ledger.shared[label] = False
        return None
    out = array
    if kind == "b":
        ledger.copy_note(label, "bool widened to uint8")
        out = array.astype(np.uint8)
    elif array.dtype not in _NATIVE_NUMERIC:
        target = np.dtype(array.dtype.kind + str(min(array.dtype.itemsize, 8))) if kind in "iu" else np.dtype(np.float64)
        ledger.copy_note(label, f"dtype {array.dtype} converted to {target}")
        out = array.astype(target.newbyteorder("="))
    elif not array.flags.c_contiguous:
        ledger.copy_note(label, "not C-contiguous")
        out = np.ascontiguousarray(array)
    ledger.shared[label] = out is original
    return out


def cast(ledger: Ledger, label: str, array: np.ndarray, dtype) -> np.ndarray:
    """An explicit, opt-in dtype cast (e.g. float32=True): always a noted copy; under
    zero_copy_only it raises, since a downcast is a copy by definition."""
    dtype = np.dtype(dtype)
    if array.dtype == dtype:
        return array
    ledger.copy_note(label, f"cast from {array.dtype} to {dtype} on request")
    ledger.shared[label] = False
    return array.astype(dtype)


def checked_int32(ledger: Ledger, label: str, array: np.ndarray) -> np.ndarray:
    """Cast an index array to int32 after a range check; out-of-range raises, naming it."""
    info = np.iinfo(np.int32)
    if array.size and (array.min() < info.min or array.max() > info.max):
        raise InteropError(
            f"{ledger.operation}: {label} holds values outside the int32 range "
            f"[{info.min}, {info.max}] (min {array.min()}, max {array.max()}); int32=True cannot represent it"
        )
    return cast(ledger, label, array, np.int32)


def warn_notes(operation: str, notes, stacklevel: int = 3) -> None:
    """Surface notes as InteropWarning, one per note, prefixed with the operation."""
    for note in notes:
        warnings.warn(f"{operation}: {note}", InteropWarning, stacklevel=stacklevel)



# =====================================================================================
# Host targets: VTK, PyVista (wraps the same VTK grid), trimesh (triangles).
#
# Each target is a pure payload builder (numpy only, never mutates the mesh, returns a
# frozen dataclass with notes/derived/shared) plus thin public to_* / from_* wrappers that
# import their library lazily. Regions travel as int8 masks named `region:<name>` plus a
# JSON sidecar (REGIONS_KEY) carrying name/kind/dim/tag: these targets have no structured
# slot for a named set, and none at all for (cell, facet) side regions, which are dropped
# with a note. from_* rebuilds regions from the masks and the sidecar.
# =====================================================================================
import json  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from types import MappingProxyType, SimpleNamespace  # noqa: E402
from typing import Mapping, Optional  # noqa: E402

from ._mesh import _CELL_TYPES, CellBlock, Mesh, _is_polyhedron  # noqa: E402
from ._regions import Region, block_bases  # noqa: E402

REGIONS_KEY = "meshioplusplus:regions"
MASK_PREFIX = "region:"

# VTK cell type ids (https://vtk.org/doc/nightly/html/vtkCellType_8h.html). Node order is
# the data model's, which is VTK's, so no permutation. Orders above those VTK has a fixed id
# for become VTK's Lagrange cells of the same family. The inverse map is computed, keyed on
# (id, number of nodes) since one Lagrange id covers every order; -1 = any (polygon, polyhedron).
_VTK_FIXED = {
    "vertex": 1, "line": 3, "triangle": 5, "polygon": 7, "quad": 9, "tetra": 10, "hexahedron": 12,
    "wedge": 13, "pyramid": 14, "line3": 21, "triangle6": 22, "quad8": 23, "tetra10": 24,
    "hexahedron20": 25, "wedge15": 26, "pyramid13": 27, "quad9": 28, "hexahedron27": 29,
    "wedge12": 31, "wedge18": 32, "hexahedron24": 33, "triangle7": 34, "line4": 35,
    "pyramid14": 37, "polyhedron": 42,
}
_VTK_LAGRANGE = {"line": 68, "triangle": 69, "quad": 70, "tetra": 71, "hexahedron": 72, "wedge": 73, "pyramid": 74}
VTK_POLYGON, VTK_POLYHEDRON = 7, 42


def _vtk_type_maps():
    to_id, from_id = {}, {}
    for name, (num_nodes, _dim, parent) in _CELL_TYPES.items():
        vid = _VTK_FIXED.get(name, _VTK_LAGRANGE.get(parent))
        if vid is not None:
            to_id[name] = vid
            from_id[(vid, num_nodes)] = name
    return to_id, from_id


_TO_VTK_ID, _FROM_VTK_ID = _vtk_type_maps()


def _vtk_id(cell_type: str):
    return VTK_POLYHEDRON if _is_polyhedron(cell_type) else _TO_VTK_ID.get(cell_type)


def _frozen(mapping) -> Mapping:
    return MappingProxyType(dict(mapping))


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
        for name in ("point_data", "cell_data", "field_data", "shared"):
            object.__setattr__(self, name, _frozen(getattr(self, name)))
        object.__setattr__(self, "notes", tuple(self.notes))
        object.__setattr__(self, "derived", tuple(self.derived))


@dataclass(frozen=True)
class TrianglePayload:
    """A triangle surface in plain numpy: (n, 3) vertices, (m, 3) faces, vertex / face
    attributes (region masks among them) and metadata (the regions sidecar)."""

    vertices: np.ndarray
    faces: np.ndarray
    vertex_attributes: Mapping = field(default_factory=dict)
    face_attributes: Mapping = field(default_factory=dict)
    metadata: Mapping = field(default_factory=dict)
    notes: tuple = ()
    derived: tuple = ()
    shared: Mapping = field(default_factory=dict)

    def __post_init__(self):
        for name in ("vertex_attributes", "face_attributes", "metadata", "shared"):
            object.__setattr__(self, name, _frozen(getattr(self, name)))
        object.__setattr__(self, "notes", tuple(self.notes))
        object.__setattr__(self, "derived", tuple(self.derived))


def _ledger_fields(ledger: Ledger) -> dict:
    return {"notes": tuple(ledger.notes), "derived": tuple(ledger.derived), "shared": dict(ledger.shared)}


# --- mesh -> payload pieces ----------------------------------------------------------
def _points3(ledger: Ledger, points, target: str) -> np.ndarray:
    """The mesh's points as (n, 3) floating point: shared when they already are."""
    p = share(ledger, "points", points)
    if p is None or (p.size and (p.ndim != 2 or p.shape[1] not in (1, 2, 3))):
        raise InteropError(f"{ledger.operation}: points must be a numeric (n, 2) or (n, 3) array, found {np.shape(points)}")
    if p.size == 0:
        ledger.derive("points: empty, given shape (0, 3)")
        return np.zeros((0, 3), dtype=p.dtype if p.dtype.kind == "f" else np.float64)
    if p.dtype.kind != "f":
        ledger.copy_note("points", f"dtype {p.dtype} converted to float64 ({target} points are floating point)")
        p = p.astype(np.float64)
        ledger.shared["points"] = False
    if p.shape[1] < 3:
        ledger.copy_note("points", f"{p.shape[1]}-D points padded with zeros to 3-D ({target} points are 3-D)")
        p = np.concatenate([p, np.zeros((len(p), 3 - p.shape[1]), dtype=p.dtype)], axis=1)
        ledger.shared["points"] = False
    return p


def _rows2(ledger: Ledger, label: str, a: np.ndarray) -> np.ndarray:
    """(rows, ...) -> 1-D or (rows, components); a view for C-contiguous input."""
    if a.ndim == 0:
        return a.reshape(1)
    if a.ndim > 2:
        ledger.derive(f"{label}: shape {a.shape} flattened to {a.shape[0]} rows of {int(np.prod(a.shape[1:]))} components (a view)")
        return a.reshape(a.shape[0], -1)
    return a


def _point_arrays(ledger: Ledger, mesh, flatten: bool) -> dict:
    out = {}
    for name, a in mesh.point_data.items():
        label = f"point_data['{name}']"
        s = share(ledger, label, a)
        if s is not None:
            out[name] = _rows2(ledger, label, s) if flatten else s
    return out


def _cell_arrays(ledger: Ledger, mesh, kept: list, target: str, flatten: bool) -> dict:
    """Per-block cell data -> one array over the kept blocks' cells (block-major)."""
    out = {}
    for name, per_block in mesh.cell_data.items():
        label = f"cell_data['{name}']"
        parts = []
        for i in kept:
            s = share(ledger, f"{label}[{i}]", per_block[i])
            if s is None:
                break
            parts.append(_rows2(ledger, f"{label}[{i}]", s) if flatten else s)
        else:
            if not parts:
                continue
            if len({p.shape[1:] for p in parts}) > 1:
                ledger.loss_note(label, f"blocks disagree on components ({sorted({p.shape[1:] for p in parts})}); {target} needs one array")
                continue
            if len(parts) == 1:
                out[name] = parts[0]
            else:
                ledger.copy_note(label, f"{len(parts)} blocks concatenated into one {target} cell array")
                ledger.shared.update({f"{label}[{i}]": False for i in kept})
                out[name] = np.concatenate(parts)
            continue
        ledger.loss_note(label, "a block has no numeric representation, so the whole array is not carried")
    return out


def _field_arrays(ledger: Ledger, mesh, target: str) -> dict:
    out = {}
    for name, a in mesh.field_data.items():
        label = f"field_data['{name}']"
        if name == REGIONS_KEY:
            ledger.loss_note(label, f"the name is reserved for the regions sidecar of {target}")
            continue
        s = share(ledger, label, a)
        if s is not None:
            out[name] = _rows2(ledger, label, s)
    return out


def _renumber_cells(entries: np.ndarray, cells, kept: list):
    """Global (block-major) cell entries -> numbering over the kept blocks only. Returns
    (entries, number dropped)."""
    if len(kept) == len(cells):
        return entries, 0
    bases = block_bases(cells)
    new_bases = np.full(len(cells), -1, dtype=np.int64)
    new_bases[kept] = block_bases([cells[i] for i in kept])[:-1]
    block = np.searchsorted(bases, entries, side="right") - 1
    base = new_bases[block]
    keep = base >= 0
    return entries[keep] - bases[block[keep]] + base[keep], int(np.count_nonzero(~keep))


def _region_masks(ledger: Ledger, mesh, num_points: int, kept: list, point_arrays: dict, cell_arrays: dict, target: str):
    """Point and cell regions -> int8 masks (derived) added to the arrays; returns the JSON
    sidecar (or None when no region was carried)."""
    sidecar = []
    num_cells = int(block_bases(mesh.cells)[-1])
    num_kept = int(sum(len(mesh.cells[i]) for i in kept))
    for r in mesh.regions:
        label = f"regions['{r.name}']"
        if r.kind == "side":
            ledger.loss_note(label, f"side regions have no (cell, facet) slot in {target}")
            continue
        key = MASK_PREFIX + r.name
        arrays, limit = (point_arrays, num_points) if r.kind == "point" else (cell_arrays, num_cells)
        if key in arrays:
            ledger.loss_note(label, f"{r.kind}_data already holds an array named '{key}'")
            continue
        entries = r.entries
        if entries.size and (entries[0] < 0 or entries[-1] >= limit):
            raise InteropError(f"{ledger.operation}: {label} holds {r.kind} entries outside [0, {limit})")
        size = num_points
        if r.kind == "cell":
            entries, lost = _renumber_cells(entries, mesh.cells, kept)
            if lost:
                ledger.note(label, f"{lost} entries in blocks not carried to {target} removed")
            size = num_kept
        mask = np.zeros(size, dtype=np.int8)
        mask[entries] = 1
        arrays[key] = mask
        ledger.derive(f"{label}: {r.kind} region as int8 mask '{key}'")
        sidecar.append({"name": r.name, "kind": r.kind, "dim": r.dim, "tag": r.tag})
    if not sidecar:
        return None
    ledger.derive(f"regions: JSON sidecar '{REGIONS_KEY}'")
    return json.dumps(sidecar)


def _vtk_cells(ledger: Ledger, cells, kept: list):
    """Kept blocks -> (cell_types, offsets, connectivity, face_locations, faces)."""
    blocks = [cells[i] for i in kept]
    if not blocks:
        return np.zeros(0, np.uint8), np.zeros(1, np.int64), np.zeros(0, np.int64), None, None
    rect = [isinstance(b.data, np.ndarray) and not _is_polyhedron(b.type) for b in blocks]
    idx = np.int32 if all(r and b.data.dtype == np.int32 for r, b in zip(rect, blocks)) else np.int64
    types = np.concatenate([np.full(len(b), _vtk_id(b.type), dtype=np.uint8) for b in blocks])
    ledger.derive("cell_types: VTK cell type ids built from the blocks' types")
    if len(blocks) == 1 and rect[0]:  # one rectangular block: VTK's connectivity is a view of it
        i, b = kept[0], blocks[0]
        label = f"cells[{i}] ({b.type})"
        data = share(ledger, label, b.data)
        if data is None or data.ndim != 2:
            raise InteropError(f"{ledger.operation}: {label} must be a 2-D integer array, found {np.shape(b.data)} {getattr(b.data, 'dtype', '')}")
        if data.dtype not in (np.dtype(np.int32), np.dtype(np.int64)):
            ledger.copy_note(label, f"dtype {data.dtype} converted to int64 (VTK connectivity is int32 or int64)")
            data = data.astype(np.int64)
            ledger.shared[label] = False
        m, k = data.shape
        ledger.derive("offsets: built from the block's node count")
        return types, np.arange(0, m * k + 1, k, dtype=data.dtype), data.reshape(-1), None, None

    sizes, parts, copied = [], [], []
    has_poly = any(_is_polyhedron(b.type) for b in blocks)
    face_locations = np.full(len(types), -1, dtype=np.int64) if has_poly else None
    face_stream, face_pos, cell = [], 0, 0
    for i, b in zip(kept, blocks):
        label = f"cells[{i}] ({b.type})"
        ledger.shared[label] = False
        if _is_polyhedron(b.type):
            for faces in b.data:
                faces = [np.asarray(f, dtype=np.int64).reshape(-1) for f in faces]
                ids = np.unique(np.concatenate(faces)) if faces else np.zeros(0, np.int64)
                parts.append(ids)
                sizes.append(len(ids))
                stream = [np.array([len(faces)], np.int64)]
                for f in faces:
                    stream += [np.array([len(f)], np.int64), f]
                stream = np.concatenate(stream)
                face_locations[cell] = face_pos
                face_stream.append(stream)
                face_pos += len(stream)
                cell += 1
            ledger.derive(f"{label}: VTK faces / face_locations and per-cell point ids built from the polyhedra")
            continue
        copied.append(label)
        if isinstance(b.data, np.ndarray):
            data = np.asarray(b.data, dtype=idx)
            parts.append(data.reshape(-1))
            sizes.append(np.full(len(data), data.shape[1] if data.ndim == 2 else 0, dtype=np.int64))
        else:
            rows = [np.asarray(r, dtype=idx).reshape(-1) for r in b.data]
            parts += rows
            sizes.append(np.fromiter((len(r) for r in rows), dtype=np.int64, count=len(rows)))
        cell += len(b)
    if copied:
        reason = "ragged rows gathered" if len(blocks) == 1 else f"{len(blocks)} blocks concatenated"
        ledger.copy_note(", ".join(copied), f"{reason} into VTK's single connectivity array")
    sizes = np.concatenate([np.atleast_1d(np.asarray(s, dtype=np.int64)) for s in sizes])
    offsets = np.zeros(len(sizes) + 1, dtype=idx)
    np.cumsum(sizes, out=offsets[1:])
    ledger.derive("offsets: built from the blocks' node counts")
    connectivity = np.concatenate(parts).astype(idx, copy=False) if parts else np.zeros(0, idx)
    faces = np.concatenate(face_stream) if has_poly else None
    return types, offsets, connectivity, face_locations, faces


def unstructured_payload(mesh, zero_copy_only: bool = False, operation: str = "to_vtk") -> UnstructuredPayload:
    """Mesh -> VTK's unstructured-grid model, sharing every buffer VTK's layout allows:
    points (float, 3-D, C-contiguous), a single rectangular int32/int64 block's
    connectivity, and every native C-contiguous point / cell (single block) / field array."""
    ledger = Ledger(operation, zero_copy_only)
    points = _points3(ledger, mesh.points, "VTK")
    kept = []
    for i, b in enumerate(mesh.cells):
        if _vtk_id(b.type) is None:
            ledger.loss_note(f"cells[{i}] ({b.type})", "no VTK cell type")
        else:
            kept.append(i)
    types, offsets, connectivity, face_locations, faces = _vtk_cells(ledger, mesh.cells, kept)
    point_data = _point_arrays(ledger, mesh, flatten=True)
    cell_data = _cell_arrays(ledger, mesh, kept, "VTK", flatten=True)
    field_data = _field_arrays(ledger, mesh, "VTK")
    sidecar = _region_masks(ledger, mesh, len(points), kept, point_data, cell_data, "VTK")
    return UnstructuredPayload(
        points, types, offsets, connectivity, face_locations, faces, point_data, cell_data, field_data, sidecar, **_ledger_fields(ledger)
    )


def triangle_payload(mesh, zero_copy_only: bool = False, operation: str = "to_trimesh") -> TrianglePayload:
    """Mesh -> triangle surface: the triangle blocks (others dropped with a note); a single
    int64 triangle block and the points (float, 3-D) are shared."""
    ledger = Ledger(operation, zero_copy_only)
    vertices = _points3(ledger, mesh.points, "trimesh")
    kept = []
    for i, b in enumerate(mesh.cells):
        if b.type == "triangle":
            kept.append(i)
        else:
            ledger.loss_note(f"cells[{i}] ({b.type})", "only triangles are carried to trimesh")
    faces = np.zeros((0, 3), dtype=np.int64)
    if len(kept) == 1:
        label = f"cells[{kept[0]}] (triangle)"
        faces = share(ledger, label, mesh.cells[kept[0]].data)
        if faces.dtype != np.int64:
            ledger.copy_note(label, f"dtype {faces.dtype} converted to int64 (trimesh faces are int64)")
            faces = faces.astype(np.int64)
            ledger.shared[label] = False
    elif kept:
        labels = [f"cells[{i}] (triangle)" for i in kept]
        ledger.copy_note(", ".join(labels), f"{len(kept)} triangle blocks concatenated into one faces array")
        ledger.shared.update(dict.fromkeys(labels, False))
        faces = np.concatenate([np.asarray(mesh.cells[i].data, dtype=np.int64) for i in kept])
    else:
        ledger.derive("faces: no triangle block, empty (0, 3)")
    vertex_attributes = _point_arrays(ledger, mesh, flatten=False)
    face_attributes = _cell_arrays(ledger, mesh, kept, "trimesh", flatten=False)
    if mesh.field_data:
        ledger.loss_note("field_data", "trimesh has no field data slot")
    sidecar = _region_masks(ledger, mesh, len(vertices), kept, vertex_attributes, face_attributes, "trimesh")
    metadata = {REGIONS_KEY: sidecar} if sidecar else {}
    return TrianglePayload(vertices, faces, vertex_attributes, face_attributes, metadata, **_ledger_fields(ledger))


# --- payload -> mesh -----------------------------------------------------------------
def _split_masks(arrays: Mapping) -> tuple:
    data, masks = {}, {}
    for name, a in arrays.items():
        if name.startswith(MASK_PREFIX):
            masks[name[len(MASK_PREFIX):]] = a
        else:
            data[name] = a
    return data, masks


def _regions_from_masks(ledger: Ledger, point_masks: dict, cell_masks: dict, sidecar_json) -> list:
    """Masks + sidecar -> Regions, in sidecar order, then masks the sidecar does not name."""
    sidecar = {}
    if sidecar_json is not None:
        try:
            for entry in json.loads(sidecar_json):
                sidecar[(str(entry["name"]), entry["kind"])] = entry
        except (ValueError, TypeError, KeyError) as e:
            ledger.note(REGIONS_KEY, f"sidecar unreadable ({e}); ignored")
            sidecar = {}
    found = {}
    for kind, masks in (("point", point_masks), ("cell", cell_masks)):
        for name, mask in masks.items():
            entries = np.flatnonzero(np.asarray(mask).reshape(len(mask), -1).any(axis=1))
            entry = sidecar.get((name, kind))
            if entry is None:
                ledger.note(f"regions['{name}']", f"no {REGIONS_KEY} sidecar entry; dim and tag set to -1")
                found[(name, kind)] = Region(name, kind, entries)
            else:
                found[(name, kind)] = Region(name, kind, entries, int(entry.get("dim", -1)), int(entry.get("tag", -1)))
    for key in sidecar:
        if key not in found:
            ledger.loss_note(f"regions['{key[0]}']", f"in the {REGIONS_KEY} sidecar but its mask '{MASK_PREFIX}{key[0]}' is missing")
    ordered = [found.pop(k) for k in list(sidecar) if k in found]
    return ordered + list(found.values())


def _shared_arrays(ledger: Ledger, kind: str, arrays: Mapping) -> dict:
    out = {}
    for name, a in arrays.items():
        s = share(ledger, f"{kind}['{name}']", a)
        if s is not None:
            out[name] = s
    return out


def mesh_from_unstructured(payload: UnstructuredPayload, ledger: Ledger) -> Mesh:
    """VTK's model -> Mesh. Runs of consecutive cells of one VTK type (and node count) become
    blocks whose connectivity, like every point / cell / field array, is a view of the
    payload's buffer; cell types with no meshio++ name are dropped with a note."""
    points = share(ledger, "points", payload.points)
    types = np.asarray(payload.cell_types)
    offsets = np.asarray(payload.offsets)
    conn = share(ledger, "connectivity", payload.connectivity)
    n = len(types)
    sizes = np.diff(offsets)
    if n:
        free = np.isin(types[1:], (VTK_POLYGON, VTK_POLYHEDRON))
        change = np.flatnonzero((types[1:] != types[:-1]) | ((sizes[1:] != sizes[:-1]) & ~free)) + 1
        runs = list(zip([0, *change.tolist()], [*change.tolist(), n]))
    else:
        runs = []
    blocks, kept_runs = [], []
    for s, e in runs:
        vid, k = int(types[s]), int(sizes[s])
        name = _FROM_VTK_ID.get((vid, k), _FROM_VTK_ID.get((vid, -1)))
        if name is None:
            ledger.loss_note(f"cells {s}..{e - 1}", f"VTK cell type {vid} with {k} points has no meshio++ cell type")
            continue
        o0, o1 = int(offsets[s]), int(offsets[e])
        if vid == VTK_POLYHEDRON:
            if payload.faces is None or payload.face_locations is None:
                raise InteropError(f"{ledger.operation}: polyhedron cells {s}..{e - 1} come without VTK faces")
            data = [_polyhedron_faces(payload.faces, int(payload.face_locations[c])) for c in range(s, e)]
        elif np.all(sizes[s:e] == k):
            data = conn[o0:o1].reshape(e - s, k)
        else:
            data = np.split(conn[o0:o1], (offsets[s + 1 : e] - o0).tolist())
        blocks.append(CellBlock(name, data))
        kept_runs.append((s, e))
    ledger.derive(f"cells: {len(blocks)} blocks from runs of one VTK cell type (views of the connectivity)")
    all_kept = len(kept_runs) == len(runs)

    def per_block(flat):
        # the whole array when one block spans it (the very object), else views
        return [flat if (s, e) == (0, len(flat)) else flat[s:e] for s, e in kept_runs]

    point_data, point_masks = _split_masks(_shared_arrays(ledger, "point_data", payload.point_data))
    cell_flat, cell_masks = _split_masks(_shared_arrays(ledger, "cell_data", payload.cell_data))
    cell_data = {name: per_block(a) for name, a in cell_flat.items()} if blocks else {}
    if not all_kept:
        cell_masks = {name: np.concatenate(per_block(m)) for name, m in cell_masks.items()}
    regions = _regions_from_masks(ledger, point_masks, cell_masks, payload.regions_json)
    field_data = _shared_arrays(ledger, "field_data", payload.field_data)
    return Mesh(points, blocks, point_data=point_data, cell_data=cell_data, field_data=field_data, regions=regions)


def _polyhedron_faces(stream: np.ndarray, at: int) -> list:
    """VTK's face stream at one cell: [nfaces, n0, ids..., n1, ids...] -> face views."""
    faces, pos = [], at + 1
    for _ in range(int(stream[at])):
        k = int(stream[pos])
        faces.append(stream[pos + 1 : pos + 1 + k])
        pos += 1 + k
    return faces


def mesh_from_triangles(payload: TrianglePayload, ledger: Ledger) -> Mesh:
    """Triangle surface -> Mesh; vertices, faces and attributes are shared when native."""
    points = share(ledger, "vertices", payload.vertices)
    faces = share(ledger, "faces", payload.faces)
    cells = [CellBlock("triangle", faces)] if len(faces) else []
    point_data, point_masks = _split_masks(_shared_arrays(ledger, "vertex_attributes", payload.vertex_attributes))
    face_data, cell_masks = _split_masks(_shared_arrays(ledger, "face_attributes", payload.face_attributes))
    cell_data = {name: [a] for name, a in face_data.items()} if cells else {}
    regions = _regions_from_masks(ledger, point_masks, cell_masks, payload.metadata.get(REGIONS_KEY))
    return Mesh(points, cells, point_data=point_data, cell_data=cell_data, regions=regions)


# --- thin wrappers: the only code that imports a target library ---------------------
_INSTALL = {
    "vtk": "VTK's Python bindings: `apt install python3-vtk9` (Debian/Ubuntu) or `pip install vtk`",
    "pyvista": "PyVista: `pip install pyvista`",
    "trimesh": "trimesh: `pip install trimesh`",
}


def _missing(operation: str, library: str, error: ImportError) -> ImportError:
    return ImportError(f"{operation} needs {_INSTALL[library]} ({error})")


def _import_vtk(operation: str) -> SimpleNamespace:
    try:
        from vtkmodules.util import numpy_support
        from vtkmodules.vtkCommonCore import VTK_BIT, VTK_ID_TYPE, VTK_SIGNED_CHAR, vtkDataArray, vtkPoints, vtkStringArray
        from vtkmodules.vtkCommonDataModel import vtkCellArray, vtkDataSet, vtkUnstructuredGrid
    except ImportError as e:
        raise _missing(operation, "vtk", e) from e
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
    try:
        import pyvista
    except ImportError as e:
        raise _missing("to_pyvista", "pyvista", e) from e
    payload = unstructured_payload(mesh, zero_copy_only, "to_pyvista")
    grid = pyvista.wrap(_vtk_grid(payload, "to_pyvista"))
    warn_notes("to_pyvista", payload.notes)
    return grid


def from_pyvista(grid, zero_copy_only: bool = False) -> Mesh:
    """pyvista dataset -> Mesh (PyVista datasets are VTK datasets: from_vtk's path)."""
    try:
        import pyvista  # noqa: F401  (only to name what is missing)
    except ImportError as e:
        raise _missing("from_pyvista", "pyvista", e) from e
    return _from_vtk(grid, "from_pyvista", zero_copy_only)


def to_trimesh(mesh, zero_copy_only: bool = False):
    """Mesh -> trimesh.Trimesh of its triangles (other cells dropped with a note)."""
    try:
        import trimesh
    except ImportError as e:
        raise _missing("to_trimesh", "trimesh", e) from e
    p = triangle_payload(mesh, zero_copy_only, "to_trimesh")
    out = trimesh.Trimesh(
        vertices=p.vertices, faces=p.faces, vertex_attributes=dict(p.vertex_attributes),
        face_attributes=dict(p.face_attributes), metadata=dict(p.metadata), process=False, validate=False,
    )
    warn_notes("to_trimesh", p.notes)
    return out


def from_trimesh(surface, zero_copy_only: bool = False) -> Mesh:
    """trimesh.Trimesh -> Mesh with one triangle block."""
    try:
        import trimesh  # noqa: F401
    except ImportError as e:
        raise _missing("from_trimesh", "trimesh", e) from e
    ledger = Ledger("from_trimesh", zero_copy_only)
    payload = TrianglePayload(
        np.asarray(surface.vertices), np.asarray(surface.faces), dict(surface.vertex_attributes),
        dict(surface.face_attributes), dict(getattr(surface, "metadata", {}) or {}),
    )
    mesh = mesh_from_triangles(payload, ledger)
    warn_notes("from_trimesh", ledger.notes)
    return mesh
