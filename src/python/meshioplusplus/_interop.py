"""Host interop, in one import: the public to_* / from_* hand-offs and their payload
builders. Each concern has one module: the data policy is _policy.py, the pieces every
host target shares are _host_payload.py, VTK and PyVista are _vtk_interop.py, trimesh is
_trimesh_interop.py (PyTorch takes the mesh's arrays, or a DevicePayload from _gpu.py,
through DLPack directly). User page: docs/interop.md.
"""
from ._host_payload import MASK_PREFIX, REGIONS_KEY
from ._policy import Ledger, cast, checked_int32, renumber_cells, share, warn_notes
from ._trimesh_interop import TrianglePayload, from_trimesh, mesh_from_triangles, to_trimesh, triangle_payload
from ._vtk_interop import (UnstructuredPayload, from_pyvista, from_vtk, mesh_from_unstructured, to_pyvista, to_vtk,
                           unstructured_payload, vtk_cell_type, vtk_pointer)

__all__ = [
    "MASK_PREFIX", "REGIONS_KEY", "Ledger", "cast", "checked_int32", "renumber_cells", "share", "warn_notes",
    "TrianglePayload", "from_trimesh", "mesh_from_triangles", "to_trimesh", "triangle_payload",
    "UnstructuredPayload", "from_pyvista", "from_vtk", "mesh_from_unstructured", "to_pyvista", "to_vtk",
    "unstructured_payload", "vtk_cell_type", "vtk_pointer",
]
