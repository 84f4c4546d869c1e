"""The dict that crosses the C++/Python boundary, described once.

``_core.read`` returns a :class:`CoreParts`; ``_core.write``, ``_core.validate`` and
``_core.summary`` take one (the binding's ``mesh_dict.cpp`` builds and reads exactly these
keys). ``Mesh._from_core`` and ``Mesh._core_parts`` (``_mesh.py``) convert it to and from
a :class:`~meshioplusplus.Mesh`. Arrays are numpy arrays: from ``_core.read`` they are the
buffers the C++ core filled (no copy); towards ``_core.write`` C-contiguous arrays of the
dtype the core stores (``_core.storage_dtype``) are wrapped as views.
"""
from __future__ import annotations

from typing import List, Optional, Tuple, TypedDict, Union

import numpy as np

# A rectangular block: (type, (m, k) connectivity).
RectangularBlock = Tuple[str, np.ndarray]
# A ragged polygon block: (type, (offsets (m + 1,) int64, indices int64)).
PolygonBlock = Tuple[str, Tuple[np.ndarray, np.ndarray]]
# A polyhedron block: (type, (offsets over faces (m + 1,), face offsets over indices, indices)), int64.
PolyhedronBlock = Tuple[str, Tuple[np.ndarray, np.ndarray, np.ndarray]]
# Towards C++ a ragged block may also go as meshio holds it (the binding gathers it):
# (type, [row arrays]) for polygons, (type, [[face arrays] per cell]) for polyhedra.
RaggedRowsBlock = Tuple[str, List[np.ndarray]]
RaggedFacesBlock = Tuple[str, List[List[np.ndarray]]]
CoreBlock = Union[RectangularBlock, PolygonBlock, PolyhedronBlock, RaggedRowsBlock, RaggedFacesBlock]

# (name, kind "point" | "cell" | "side", entries int64 (n,) or (n, 2), dim, tag)
CoreRegion = Tuple[str, str, np.ndarray, int, int]
# (dim, (tag, master tag), 16 affine values or None, (n, 2) int64 (slave, master) point pairs)
CorePeriodic = Tuple[int, Tuple[int, int], Optional[List[float]], np.ndarray]


class CoreParts(TypedDict):
    """What ``_core.read`` returns and ``_core.write`` takes."""

    points: np.ndarray  # (n, dim), dim 2 or 3
    cells: List[CoreBlock]
    point_data: dict  # name -> array with n rows
    cell_data: dict  # name -> list, one array per block
    field_data: dict  # name -> small array
    regions: List[CoreRegion]
    gmsh_periodic: List[CorePeriodic]


KEYS = tuple(CoreParts.__annotations__)

__all__ = ["CoreParts", "CoreBlock", "CoreRegion", "CorePeriodic", "RectangularBlock", "PolygonBlock",
           "PolyhedronBlock", "RaggedRowsBlock", "RaggedFacesBlock", "KEYS"]
