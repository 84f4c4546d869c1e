"""Pieces shared by the host interop targets (VTK/PyVista in _vtk_interop.py, trimesh in
_trimesh_interop.py): mesh arrays through the data policy (_policy.share), and regions as
int8 masks named ``region:<name>`` plus a JSON sidecar (REGIONS_KEY) carrying
name/kind/dim/tag. These targets have no structured slot for a named set, and none at all
for (cell, facet) side regions, which are dropped with a note; the from_* paths rebuild
regions from the masks and the sidecar.

Each target is a pure payload builder (numpy only, never mutates the mesh, returns a
frozen dataclass with notes/derived/shared) plus thin public to_* / from_* wrappers that
import their library lazily. User page: docs/interop.md.
"""
from __future__ import annotations

import importlib
import json
from types import MappingProxyType
from typing import Mapping

import numpy as np

from ._exceptions import InteropError
from ._policy import Ledger, renumber_cells, share
from ._regions import Region, block_bases

REGIONS_KEY = "meshioplusplus:regions"
MASK_PREFIX = "region:"

_INSTALL = {
    "vtk": "VTK's Python bindings: `apt install python3-vtk9` (Debian/Ubuntu) or `pip install vtk`",
    "pyvista": "PyVista: `pip install pyvista`",
    "trimesh": "trimesh: `pip install trimesh`",
}


def missing(operation: str, library: str, error: ImportError) -> ImportError:
    """The ImportError a wrapper raises when its library is absent, naming the install."""
    return ImportError(f"{operation} needs {_INSTALL[library]} ({error})")


def require(operation: str, library: str):
    """The module `library`, imported for `operation`, or the ImportError naming the install."""
    try:
        return importlib.import_module(library)
    except ImportError as e:
        raise missing(operation, library, e) from e


def frozen(mapping) -> Mapping:
    return MappingProxyType(dict(mapping))


def freeze_fields(payload, names) -> None:
    """__post_init__ of the frozen payload dataclasses: read-only mappings, tuples."""
    for name in names:
        object.__setattr__(payload, name, frozen(getattr(payload, name)))
    object.__setattr__(payload, "notes", tuple(payload.notes))
    object.__setattr__(payload, "derived", tuple(payload.derived))


def ledger_fields(ledger: Ledger) -> dict:
    return {"notes": tuple(ledger.notes), "derived": tuple(ledger.derived), "shared": dict(ledger.shared)}


# --- mesh -> payload pieces ----------------------------------------------------------
def points3(ledger: Ledger, points, target: str) -> np.ndarray:
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


def rows2(ledger: Ledger, label: str, a: np.ndarray) -> np.ndarray:
    """(rows, ...) -> 1-D or (rows, components); a view for C-contiguous input."""
    if a.ndim == 0:
        return a.reshape(1)
    if a.ndim > 2:
        ledger.derive(f"{label}: shape {a.shape} flattened to {a.shape[0]} rows of {int(np.prod(a.shape[1:]))} components (a view)")
        return a.reshape(a.shape[0], -1)
    return a


def point_arrays(ledger: Ledger, mesh, flatten: bool) -> dict:
    out = {}
    for name, a in mesh.point_data.items():
        label = f"point_data['{name}']"
        s = share(ledger, label, a)
        if s is not None:
            out[name] = rows2(ledger, label, s) if flatten else s
    return out


def cell_arrays(ledger: Ledger, mesh, kept: list, target: str, flatten: bool) -> dict:
    """Per-block cell data -> one array over the kept blocks' cells (block-major)."""
    out = {}
    for name, per_block in mesh.cell_data.items():
        label = f"cell_data['{name}']"
        parts = []
        for i in kept:
            s = share(ledger, f"{label}[{i}]", per_block[i])
            if s is None:
                break
            parts.append(rows2(ledger, f"{label}[{i}]", s) if flatten else s)
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


def field_arrays(ledger: Ledger, mesh, target: str) -> dict:
    out = {}
    for name, a in mesh.field_data.items():
        label = f"field_data['{name}']"
        if name == REGIONS_KEY:
            ledger.loss_note(label, f"the name is reserved for the regions sidecar of {target}")
            continue
        s = share(ledger, label, a)
        if s is not None:
            out[name] = rows2(ledger, label, s)
    return out


def region_masks(ledger: Ledger, mesh, num_points: int, kept: list, point_out: dict, cell_out: dict, target: str):
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
        arrays, limit = (point_out, num_points) if r.kind == "point" else (cell_out, num_cells)
        if key in arrays:
            ledger.loss_note(label, f"{r.kind}_data already holds an array named '{key}'")
            continue
        entries = r.entries
        if entries.size and (entries[0] < 0 or entries[-1] >= limit):
            raise InteropError(f"{ledger.operation}: {label} holds {r.kind} entries outside [0, {limit})")
        if r.kind == "cell" and len(kept) < len(mesh.cells):
            kept_mask = np.zeros(len(mesh.cells), dtype=bool)
            kept_mask[kept] = True
            entries, lost, _ = renumber_cells(f"{ledger.operation}: {label}", entries, "cell", block_bases(mesh.cells), kept_mask)
            if lost:
                ledger.note(label, f"{lost} entries in blocks not carried to {target} removed")
        mask = np.zeros(num_kept if r.kind == "cell" else num_points, dtype=np.int8)
        mask[entries] = 1
        arrays[key] = mask
        ledger.derive(f"{label}: {r.kind} region as int8 mask '{key}'")
        sidecar.append({"name": r.name, "kind": r.kind, "dim": r.dim, "tag": r.tag})
    if not sidecar:
        return None
    ledger.derive(f"regions: JSON sidecar '{REGIONS_KEY}'")
    return json.dumps(sidecar)


# --- payload -> mesh -----------------------------------------------------------------
def split_masks(arrays: Mapping) -> tuple:
    data, masks = {}, {}
    for name, a in arrays.items():
        if name.startswith(MASK_PREFIX):
            masks[name[len(MASK_PREFIX):]] = a
        else:
            data[name] = a
    return data, masks


def regions_from_masks(ledger: Ledger, point_masks: dict, cell_masks: dict, sidecar_json) -> list:
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


def shared_arrays(ledger: Ledger, kind: str, arrays: Mapping) -> dict:
    out = {}
    for name, a in arrays.items():
        s = share(ledger, f"{kind}['{name}']", a)
        if s is not None:
            out[name] = s
    return out
