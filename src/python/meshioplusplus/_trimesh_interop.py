"""Host interop with trimesh: to_trimesh / from_trimesh (a triangle surface).
trimesh's model: https://trimesh.org/trimesh.base.html
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

import numpy as np

from ._host_payload import (REGIONS_KEY, cell_arrays, freeze_fields, ledger_fields, point_arrays, points3, require,
                            region_masks, regions_from_masks, shared_arrays, split_masks)
from ._mesh import CellBlock, Mesh
from ._policy import Ledger, share, warn_notes


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
        freeze_fields(self, ("vertex_attributes", "face_attributes", "metadata", "shared"))


def triangle_payload(mesh, zero_copy_only: bool = False, operation: str = "to_trimesh") -> TrianglePayload:
    """Mesh -> triangle surface: the triangle blocks (others dropped with a note); a single
    int64 triangle block and the points (float, 3-D) are shared."""
    ledger = Ledger(operation, zero_copy_only)
    vertices = points3(ledger, mesh.points, "trimesh")
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
    vertex_attributes = point_arrays(ledger, mesh, flatten=False)
    face_attributes = cell_arrays(ledger, mesh, kept, "trimesh", flatten=False)
    if mesh.field_data:
        ledger.loss_note("field_data", "trimesh has no field data slot")
    sidecar = region_masks(ledger, mesh, len(vertices), kept, vertex_attributes, face_attributes, "trimesh")
    metadata = {REGIONS_KEY: sidecar} if sidecar else {}
    return TrianglePayload(vertices, faces, vertex_attributes, face_attributes, metadata, **ledger_fields(ledger))


def mesh_from_triangles(payload: TrianglePayload, ledger: Ledger) -> Mesh:
    """Triangle surface -> Mesh; vertices, faces and attributes are shared when native."""
    points = share(ledger, "vertices", payload.vertices)
    faces = share(ledger, "faces", payload.faces)
    cells = [CellBlock("triangle", faces)] if len(faces) else []
    point_data, point_masks = split_masks(shared_arrays(ledger, "vertex_attributes", payload.vertex_attributes))
    face_data, cell_masks = split_masks(shared_arrays(ledger, "face_attributes", payload.face_attributes))
    cell_data = {name: [a] for name, a in face_data.items()} if cells else {}
    regions = regions_from_masks(ledger, point_masks, cell_masks, payload.metadata.get(REGIONS_KEY))
    return Mesh(points, cells, point_data=point_data, cell_data=cell_data, regions=regions)


# --- thin wrappers: the only code that imports trimesh ----------------------------
def to_trimesh(mesh, zero_copy_only: bool = False):
    """Mesh -> trimesh.Trimesh of its triangles (other cells dropped with a note)."""
    trimesh = require("to_trimesh", "trimesh")
    p = triangle_payload(mesh, zero_copy_only, "to_trimesh")
    out = trimesh.Trimesh(
        vertices=p.vertices, faces=p.faces, vertex_attributes=dict(p.vertex_attributes),
        face_attributes=dict(p.face_attributes), metadata=dict(p.metadata), process=False, validate=False,
    )
    warn_notes("to_trimesh", p.notes)
    return out


def from_trimesh(surface, zero_copy_only: bool = False) -> Mesh:
    """trimesh.Trimesh -> Mesh with one triangle block."""
    require("from_trimesh", "trimesh")
    ledger = Ledger("from_trimesh", zero_copy_only)
    payload = TrianglePayload(
        np.asarray(surface.vertices), np.asarray(surface.faces), dict(surface.vertex_attributes),
        dict(surface.face_attributes), dict(getattr(surface, "metadata", {}) or {}),
    )
    mesh = mesh_from_triangles(payload, ledger)
    warn_notes("from_trimesh", ledger.notes)
    return mesh
