"""The cell vocabulary on the Python side (meshio's ``topological_dimension`` and
``num_nodes_per_cell``, asked of the C++ core's table) and ``CellBlock``."""
from __future__ import annotations

import numpy as np

from . import _core

_CELL_TYPES = _core.cell_types()  # name -> (num_nodes, dim, linear parent)


def _is_polyhedron(cell_type: str) -> bool:
    return cell_type.startswith("polyhedron")


class _TopologicalDimension(dict):
    """meshio's ``topological_dimension`` table (cell type -> 0..3), built from the C++
    vocabulary; ``polygon<n>`` / ``polyhedron<n>`` style names resolve to 2 / 3."""

    def __missing__(self, cell_type):
        if isinstance(cell_type, str):
            if _is_polyhedron(cell_type):
                return 3
            if cell_type.startswith("polygon"):
                return 2
        raise KeyError(cell_type)


topological_dimension = _TopologicalDimension({name: info[1] for name, info in _CELL_TYPES.items()})

# meshio's num_nodes_per_cell: the fixed node count of every rectangular type.
num_nodes_per_cell = {name: info[0] for name, info in _CELL_TYPES.items() if info[0] > 0}


def _cell_dim(cell_type: str) -> int:
    try:
        return topological_dimension[cell_type]
    except KeyError:
        known = ", ".join(sorted(topological_dimension))
        raise ValueError(f"unknown cell type '{cell_type}' (known: {known}, polyhedron<n>)") from None


class CellBlock:
    """One block of cells of one type. ``data`` is an (m, k) integer array, or for ragged
    polygon blocks a list of 1-D arrays, and for polyhedra a list of cells, each a list of
    face arrays (meshio's convention)."""

    def __init__(self, cell_type: str, data, tags=None):
        self.type = cell_type
        self.dim = _cell_dim(cell_type)
        if _is_polyhedron(cell_type) or (isinstance(data, list) and _is_ragged(data)):
            self.data = data
        else:
            self.data = np.asarray(data)
        self.tags = [] if tags is None else tags

    def __len__(self):
        return len(self.data)

    def __iter__(self):  # `for cell_type, data in mesh.cells` (meshio 4 style)
        return iter((self.type, self.data))

    def __repr__(self):
        return f"<meshio++ CellBlock, type: {self.type}, num cells: {len(self)}, tags: {self.tags}>"


def _is_ragged(rows) -> bool:
    lengths = {np.size(r) for r in rows}
    return len(lengths) > 1
