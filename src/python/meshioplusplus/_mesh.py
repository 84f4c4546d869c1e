"""Mesh and CellBlock with meshio 5.x's API, plus regions.

``mesh.regions`` (a plain list of Region) is the storage of every named set;
``point_sets`` and ``cell_sets`` are live views over it, so meshio code that reads or
assigns them keeps working. Arrays handed in are kept as given (``np.asarray``), so arrays
read by the C++ core stay the very buffers the core filled.
"""
from __future__ import annotations

import copy
import warnings

import numpy as np

from . import _core
from ._cells import CellBlock, _is_polyhedron, num_nodes_per_cell, topological_dimension  # noqa: F401 (re-exported)
from ._regions import Region, block_bases
from ._schema import CoreBlock, CoreParts
from ._set_views import _CellSets, _PointSets, _same_key, _view_key

def _set_names(key: str, tags, fallback) -> list:
    """Names of the sets of int data `key`, one per tag: the key's '-'-separated parts (how
    sets_to_int_data joins set names), else fallback(tag) for each."""
    names = list(dict.fromkeys(key.split("-")))
    return names if len(names) == len(tags) else [fallback(tag) for tag in tags]


class Mesh:
    def __init__(
        self,
        points,
        cells,
        point_data=None,
        cell_data=None,
        field_data=None,
        point_sets=None,
        cell_sets=None,
        gmsh_periodic=None,
        info=None,
        regions=None,
    ):
        self.points = np.asarray(points)
        if isinstance(cells, dict):
            cells = list(cells.items())
        self.cells = [b if isinstance(b, CellBlock) else CellBlock(b[0], b[1]) for b in cells]
        self.point_data = {} if point_data is None else point_data
        self.cell_data = {} if cell_data is None else cell_data
        self.field_data = {} if field_data is None else field_data
        self.gmsh_periodic = gmsh_periodic
        self.info = info
        self.regions = list(regions) if regions is not None else []
        for r in self.regions:
            if not isinstance(r, Region):
                raise TypeError(f"regions must hold Region objects, found {type(r).__name__}")
        if point_sets:
            self.point_sets.update(point_sets)
        if cell_sets:
            self.cell_sets.update(cell_sets)

        for key, item in self.point_data.items():
            self.point_data[key] = np.asarray(item)
            if len(self.point_data[key]) != len(self.points):
                raise ValueError(
                    f"len(points) = {len(self.points)}, but len(point_data['{key}']) = {len(self.point_data[key])}"
                )
        for key, data in self.cell_data.items():
            if len(data) != len(self.cells):
                raise ValueError(
                    f"Incompatible cell data '{key}'. {len(self.cells)} cell blocks, but '{key}' has {len(data)} blocks."
                )
            for k in range(len(data)):
                data[k] = np.asarray(data[k])
                if len(data[k]) != len(self.cells[k]):
                    raise ValueError(
                        f"Incompatible cell data. Cell block {k} ('{self.cells[k].type}') has length "
                        f"{len(self.cells[k])}, but corresponding cell data item has length {len(data[k])}."
                    )

    # --- sets as views over regions ---------------------------------------------------
    def _set_view(self, cls):
        """The live set view of one kind, cached while the regions (and, for cell sets, the
        block lengths) are the same objects: building a view computes every set's value."""
        cache = self.__dict__.setdefault("_set_views", {})
        hit = cache.get(cls.kind)
        if hit is not None and isinstance(hit[1], cls) and hit[1]._mesh is self and _same_key(hit[0], _view_key(self, cls.kind)):
            return hit[1]
        view = cls(self)
        cache[cls.kind] = (_view_key(self, cls.kind), view)
        return view

    @property
    def point_sets(self):
        return self._set_view(_PointSets)

    @point_sets.setter
    def point_sets(self, value):
        self.regions = [r for r in self.regions if r.kind != "point"]
        self.point_sets.update(value or {})

    @property
    def cell_sets(self):
        return self._set_view(_CellSets)

    @cell_sets.setter
    def cell_sets(self, value):
        self.regions = [r for r in self.regions if r.kind != "cell"]
        self.cell_sets.update(value or {})

    # --- meshio API ------------------------------------------------------------------
    def __repr__(self):
        # The summary is the C++ core's (summary() in src/core/mesh.cpp, also the CLI's info).
        try:
            return _core.summary(self._core_parts()).rstrip("\n")
        except (ValueError, TypeError, RuntimeError) as e:
            return f"<meshio++ mesh object, not summarised: {e}>"

    def copy(self):
        return copy.deepcopy(self)

    def write(self, path_or_buf, file_format: str | None = None, **kwargs):
        from ._helpers import write

        write(path_or_buf, self, file_format, **kwargs)

    @classmethod
    def read(cls, path_or_buf, file_format=None):
        from ._helpers import read

        warnings.warn("meshio.Mesh.read is deprecated, use meshio.read instead", DeprecationWarning, stacklevel=2)
        return read(path_or_buf, file_format)

    def get_cells_type(self, cell_type: str):
        blocks = [c.data for c in self.cells if c.type == cell_type]
        if not blocks:
            return np.empty((0, num_nodes_per_cell.get(cell_type, 0)), dtype=int)
        return np.concatenate(blocks)

    def get_cell_data(self, name: str, cell_type: str):
        return np.concatenate([d for c, d in zip(self.cells, self.cell_data[name]) if c.type == cell_type])

    @property
    def cells_dict(self):
        out = {}
        for block in self.cells:
            out.setdefault(block.type, []).append(block.data)
        return {k: np.concatenate(v) if len(v) > 1 else v[0] for k, v in out.items()}

    @property
    def cell_data_dict(self):
        out = {}
        for key, arrays in self.cell_data.items():
            per_type = {}
            for value, block in zip(arrays, self.cells):
                per_type.setdefault(block.type, []).append(value)
            out[key] = {t: np.concatenate(v) for t, v in per_type.items()}
        return out

    @property
    def cell_sets_dict(self):
        out = {}
        for name, members in self.cell_sets.items():
            per_type, offsets = {}, {}
            for local, block in zip(members, self.cells):
                offset = offsets.get(block.type, 0)
                offsets[block.type] = offset + len(block)
                per_type.setdefault(block.type, []).append(local + offset)
            out[name] = {t: np.concatenate(v) for t, v in per_type.items() if sum(map(np.size, v))}
        return out

    def cell_sets_to_data(self, data_name: str | None = None):
        """Cell sets -> one int cell_data array (set index, -1 outside every set), as meshio."""
        if not len(self.cell_sets):
            return
        names = list(self.cell_sets)
        data = [np.full(len(block), -1, dtype=int) for block in self.cells]
        for i, name in enumerate(names):
            for k, local in enumerate(self.cell_sets[name]):
                if local is not None:
                    data[k][local] = i
        missing = int(sum(np.sum(d == -1) for d in data))
        if missing:
            warnings.warn(f"{missing} cells are not part of any cell set. Using default value -1.", stacklevel=2)
        self.cell_data[data_name or "-".join(names)] = data
        self.cell_sets = {}

    def point_sets_to_data(self, join_char: str = "-"):
        """Point sets -> one int point_data array (set index, -1 outside every set), as meshio."""
        if not len(self.point_sets):
            return
        names = list(self.point_sets)
        data = np.full(len(self.points), -1, dtype=int)
        for i, name in enumerate(names):
            data[self.point_sets[name]] = i
        if np.any(data == -1):
            warnings.warn("Not all points are part of a point set. Using default value -1.", stacklevel=2)
        self.point_data[join_char.join(names)] = data
        self.point_sets = {}

    def sets_to_int_data(self):
        """meshio 5.3's name for cell_sets_to_data() followed by point_sets_to_data()."""
        self.cell_sets_to_data()
        self.point_sets_to_data()

    def int_data_to_sets(self):
        """Every int point/cell data array -> sets (meshio 5.3): names come from splitting
        the key along '-' (how sets_to_int_data forms it), else ``set<tag>``."""
        for key in [k for k, d in self.cell_data.items() if all(np.asarray(v).dtype.kind in "iu" for v in d)]:
            self._cell_int_data_to_sets(key, lambda tag: f"set{tag}")
        for key in [k for k, d in self.point_data.items() if np.asarray(d).dtype.kind in "iu"]:
            self._point_int_data_to_sets(key, lambda tag: f"set{tag}")

    def prune_z_0(self, tol: float = 1.0e-13):
        """Drop the z column of the points when every |z| < tol (meshio 5.3)."""
        if self.points.shape[0] == 0:
            return
        if self.points.shape[1] == 3 and np.all(np.abs(self.points[:, 2]) < tol):
            self.points = self.points[:, :2]

    def remove_lower_dimensional_cells(self):
        """Keep only the blocks of the highest topological dimension (meshio 5.3); cell
        data and cell/side sets follow the kept blocks."""
        if not self.cells:
            return
        max_dim = max(block.dim for block in self.cells)
        self._keep_blocks([block.dim == max_dim for block in self.cells])

    def remove_orphaned_nodes(self):
        """Remove points no cell uses (meshio 5.3); cells, point data and point sets are
        renumbered, ``GLOBAL_ID`` point data restarts at 1."""
        used = np.zeros(len(self.points), dtype=bool)
        for block in self.cells:
            for part in _block_node_arrays(block):
                used[np.asarray(part, dtype=np.int64).reshape(-1)] = True
        if used.all():
            return
        new_index = np.cumsum(used) - 1
        self.points = self.points[used]
        for key in list(self.point_data):
            self.point_data[key] = np.asarray(self.point_data[key])[used]
        if "GLOBAL_ID" in self.point_data:
            self.point_data["GLOBAL_ID"] = np.arange(1, len(self.points) + 1)
        self.cells = [_renumber_block(block, new_index) for block in self.cells]
        kept = []
        for r in self.regions:
            if r.kind == "point":
                e = r.entries[used[r.entries]]
                kept.append(Region(r.name, r.kind, new_index[e], r.dim, r.tag))
            else:
                kept.append(r)
        self.regions = kept

    def _keep_blocks(self, keep):
        """Keep the blocks where ``keep`` is true; cell data, cell and side regions follow."""
        old_bases = block_bases(self.cells)
        new_global = np.full(int(old_bases[-1]), -1, dtype=np.int64)
        at = 0
        for i, k in enumerate(keep):
            if k:
                n = int(old_bases[i + 1] - old_bases[i])
                new_global[old_bases[i] : old_bases[i + 1]] = np.arange(at, at + n)
                at += n
        self.cells = [b for b, k in zip(self.cells, keep) if k]
        for key in list(self.cell_data):
            self.cell_data[key] = [d for d, k in zip(self.cell_data[key], keep) if k]
        regions = []
        for r in self.regions:
            if r.kind == "cell":
                mapped = new_global[r.entries]
                regions.append(Region(r.name, r.kind, mapped[mapped >= 0], r.dim, r.tag))
            elif r.kind == "side":
                mapped = new_global[r.entries[:, 0]] if len(r.entries) else np.zeros(0, np.int64)
                pairs = np.stack([mapped, r.entries[:, 1]], axis=1) if len(r.entries) else r.entries
                regions.append(Region(r.name, r.kind, pairs[mapped >= 0], r.dim, r.tag))
            else:
                regions.append(r)
        self.regions = regions

    def cell_data_to_sets(self, key: str):
        if not all(v.dtype.kind in "iu" for v in self.cell_data[key]):
            raise RuntimeError(f"cell_data['{key}'] is not int data.")
        self._cell_int_data_to_sets(key, lambda tag: f"set-{key}-{tag}")

    def point_data_to_sets(self, key: str):
        if self.point_data[key].dtype.kind not in "iu":
            raise RuntimeError(f"point_data['{key}'] is not int data.")
        self._point_int_data_to_sets(key, lambda tag: f"set-{key}-{tag}")

    # One set per distinct value of int data `key`, named by _set_names; the data goes.
    def _cell_int_data_to_sets(self, key, fallback):
        data = self.cell_data.pop(key)
        tags = np.unique(np.concatenate(data))
        for name, tag in zip(_set_names(key, tags, fallback), tags):
            self.cell_sets[name] = [np.where(d == tag)[0] for d in data]

    def _point_int_data_to_sets(self, key, fallback):
        data = self.point_data.pop(key)
        tags = np.unique(data)
        for name, tag in zip(_set_names(key, tags, fallback), tags):
            self.point_sets[name] = np.where(data == tag)[0]

    # --- the C++ boundary (the dict is described in _schema.CoreParts) ------------------
    def _core_parts(self) -> CoreParts:
        """Plain containers for _core.write: arrays stay the mesh's own objects (the binding
        wraps C-contiguous arrays of a core dtype as views; ragged blocks go as their lists
        and are gathered in C++)."""
        periodic = []
        for entry in self.gmsh_periodic or []:
            dim, (tag, master), affine, pairs = entry
            periodic.append((int(dim), (int(tag), int(master)), None if affine is None else [float(x) for x in np.ravel(affine)], pairs))
        return {
            "points": self.points,
            "cells": [_block_part(i, block) for i, block in enumerate(self.cells)],
            "point_data": dict(self.point_data),
            "cell_data": {k: list(v) for k, v in self.cell_data.items()},
            "field_data": {k: np.atleast_1d(np.asarray(v)) for k, v in self.field_data.items()},
            "regions": [(r.name, r.kind, r.entries, r.dim, r.tag) for r in self.regions],
            "gmsh_periodic": periodic,
        }

    @classmethod
    def _from_core(cls, parts: CoreParts, regions_canonical: bool = False) -> "Mesh":
        """A Mesh of ``parts``; ``regions_canonical`` where they come from ``_core.read``, whose
        regions are canonical already (``Region._canonical``)."""
        cells = []
        for cell_type, data in parts["cells"]:
            if isinstance(data, tuple) and len(data) == 3:
                cells.append(CellBlock(cell_type, _offsets_to_polyhedra(*data)))
            elif isinstance(data, tuple):
                cells.append(CellBlock(cell_type, _offsets_to_rows(*data)))
            else:
                cells.append(CellBlock(cell_type, data))
        mesh = cls(
            parts["points"],
            cells,
            point_data=parts["point_data"],
            cell_data=parts["cell_data"],
            field_data=parts["field_data"],
            gmsh_periodic=[list(p) for p in parts["gmsh_periodic"]] or None,
            regions=[
                (Region._canonical if regions_canonical else Region)(name, kind, entries, dim, tag)
                for name, kind, entries, dim, tag in parts["regions"]
            ],
        )
        return mesh


def _block_part(i: int, block: CellBlock) -> CoreBlock:
    """One cell block as the ``cells`` item of CoreParts."""
    if _is_polyhedron(block.type) or isinstance(block.data, list):
        return (block.type, [list(cell) for cell in block.data] if _is_polyhedron(block.type) else list(block.data))
    data = block.data
    if data.ndim != 2:
        raise ValueError(f"cells[{i}] ({block.type}): expected a 2-D (cells, nodes) array, found shape {data.shape}")
    return (block.type, data)


def _block_node_arrays(block):
    """The node-index arrays of a block: its data, or the rows / faces of ragged blocks."""
    if _is_polyhedron(block.type):
        return [face for cell in block.data for face in cell]
    if isinstance(block.data, list):
        return block.data
    return [block.data]


def _renumber_block(block, new_index):
    if _is_polyhedron(block.type):
        data = [[new_index[np.asarray(face, dtype=np.int64)] for face in cell] for cell in block.data]
    elif isinstance(block.data, list):
        data = [new_index[np.asarray(row, dtype=np.int64)] for row in block.data]
    else:
        data = new_index[block.data].astype(block.data.dtype, copy=False)
    return CellBlock(block.type, data, block.tags)


def _offsets_to_rows(offsets, indices):
    # np.split returns views into `indices`: the ragged block stays one C++ buffer.
    return np.split(indices, offsets[1:-1]) if len(offsets) > 1 else []


def _offsets_to_polyhedra(offsets, face_offsets, indices):
    faces = _offsets_to_rows(face_offsets, indices)
    return [faces[offsets[i] : offsets[i + 1]] for i in range(len(offsets) - 1)]


__all__ = ["Mesh", "CellBlock", "Region", "block_bases", "topological_dimension", "num_nodes_per_cell"]
