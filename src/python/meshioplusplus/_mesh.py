"""Mesh and CellBlock with meshio 5.x's API, plus regions.

``mesh.regions`` (a plain list of Region) is the storage of every named set;
``point_sets`` and ``cell_sets`` are live views over it, so meshio code that reads or
assigns them keeps working. Arrays handed in are kept as given (``np.asarray``), so arrays
read by the C++ core stay the very buffers the core filled.
"""
from __future__ import annotations

import copy
from collections.abc import MutableMapping

import numpy as np

from . import _core
from ._regions import Region, block_bases, cell_set_to_entries, entries_to_cell_set
from ._schema import CoreBlock, CoreParts

_CELL_TYPES = _core.cell_types()  # name -> (num_nodes, dim, linear parent)


def _is_polyhedron(cell_type: str) -> bool:
    return cell_type.startswith("polyhedron")


def topological_dimension(cell_type: str) -> int:
    if _is_polyhedron(cell_type):
        return 3
    if cell_type.startswith("polygon"):
        return 2
    try:
        return _CELL_TYPES[cell_type][1]
    except KeyError:
        raise ValueError(f"unknown cell type '{cell_type}'") from None


class CellBlock:
    """One block of cells of one type. ``data`` is an (m, k) integer array, or for ragged
    polygon blocks a list of 1-D arrays, and for polyhedra a list of cells, each a list of
    face arrays (meshio's convention)."""

    def __init__(self, cell_type: str, data, tags=None):
        self.type = cell_type
        self.dim = topological_dimension(cell_type)
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


class _RegionSets(MutableMapping):
    """A meshio-style set dict as a live view over the mesh's regions of one kind.
    Subclasses say how a region's entries look as a set value and back."""

    kind = ""

    def __init__(self, mesh):
        self._mesh = mesh

    def _to_value(self, entries):
        return entries

    def _to_entries(self, members):
        return members

    def _index(self, name):
        for i, r in enumerate(self._mesh.regions):
            if r.kind == self.kind and r.name == name:
                return i
        return -1

    def __getitem__(self, name):
        i = self._index(name)
        if i < 0:
            raise KeyError(name)
        return self._to_value(self._mesh.regions[i].entries)

    def __setitem__(self, name, members):
        region = Region(name, self.kind, self._to_entries(members))
        i = self._index(name)
        if i < 0:
            self._mesh.regions.append(region)
            return
        old = self._mesh.regions[i]  # replacing a set keeps its region's dim and tag
        region.dim, region.tag = old.dim, old.tag
        self._mesh.regions[i] = region

    def __delitem__(self, name):
        i = self._index(name)
        if i < 0:
            raise KeyError(name)
        del self._mesh.regions[i]

    def __iter__(self):
        return iter([r.name for r in self._mesh.regions if r.kind == self.kind])

    def __len__(self):
        return sum(r.kind == self.kind for r in self._mesh.regions)

    def __repr__(self):
        return repr(dict(self))


class _PointSets(_RegionSets):
    """``mesh.point_sets``: point indices per name."""

    kind = "point"


class _CellSets(_RegionSets):
    """``mesh.cell_sets``: one local index array per cell block, as meshio has it."""

    kind = "cell"

    def _to_value(self, entries):
        return entries_to_cell_set(entries, self._mesh.cells)

    def _to_entries(self, members):
        return cell_set_to_entries(members, self._mesh.cells)


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
    @property
    def point_sets(self):
        return _PointSets(self)

    @point_sets.setter
    def point_sets(self, value):
        self.regions = [r for r in self.regions if r.kind != "point"]
        self.point_sets.update(value or {})

    @property
    def cell_sets(self):
        return _CellSets(self)

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

        return read(path_or_buf, file_format)

    def get_cells_type(self, cell_type: str):
        blocks = [c.data for c in self.cells if c.type == cell_type]
        if not blocks:
            n = _CELL_TYPES.get(cell_type, (0,))[0]
            return np.empty((0, max(n, 0)), dtype=int)
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
        if not len(self.cell_sets):
            return
        names = list(self.cell_sets)
        data = [np.full(len(block), -1, dtype=int) for block in self.cells]
        for i, name in enumerate(names):
            for k, local in enumerate(self.cell_sets[name]):
                data[k][local] = i
        self.cell_data[data_name or "-".join(names)] = data
        self.cell_sets = {}

    def point_sets_to_data(self, join_char: str = "-"):
        if not len(self.point_sets):
            return
        names = list(self.point_sets)
        data = np.full(len(self.points), -1, dtype=int)
        for i, name in enumerate(names):
            data[self.point_sets[name]] = i
        self.point_data[join_char.join(names)] = data
        self.point_sets = {}

    def cell_data_to_sets(self, key: str):
        data = self.cell_data[key]
        if not all(v.dtype.kind in "iu" for v in data):
            raise RuntimeError(f"cell_data['{key}'] is not int data.")
        tags = np.unique(np.concatenate(data))
        names = list(dict.fromkeys(key.split("-")))
        if len(names) != len(tags):
            names = [f"set-{key}-{tag}" for tag in tags]
        for name, tag in zip(names, tags):
            self.cell_sets[name] = [np.where(d == tag)[0] for d in data]
        del self.cell_data[key]

    def point_data_to_sets(self, key: str):
        data = self.point_data[key]
        if data.dtype.kind not in "iu":
            raise RuntimeError(f"point_data['{key}'] is not int data.")
        tags = np.unique(data)
        names = list(dict.fromkeys(key.split("-")))
        if len(names) != len(tags):
            names = [f"set-{key}-{tag}" for tag in tags]
        for name, tag in zip(names, tags):
            self.point_sets[name] = np.where(data == tag)[0]
        del self.point_data[key]

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
    def _from_core(cls, parts: CoreParts) -> "Mesh":
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
            regions=[Region(name, kind, entries, dim, tag) for name, kind, entries, dim, tag in parts["regions"]],
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


def _offsets_to_rows(offsets, indices):
    # np.split returns views into `indices`: the ragged block stays one C++ buffer.
    return np.split(indices, offsets[1:-1]) if len(offsets) > 1 else []


def _offsets_to_polyhedra(offsets, face_offsets, indices):
    faces = _offsets_to_rows(face_offsets, indices)
    return [faces[offsets[i] : offsets[i + 1]] for i in range(len(offsets) - 1)]


__all__ = ["Mesh", "CellBlock", "Region", "block_bases", "topological_dimension"]
