"""``mesh.point_sets`` / ``mesh.cell_sets``: real ``dict`` objects that are live views over
the mesh's regions (reads come from the regions, writes go to them), with meshio's value
shapes (point indices; one local index array per cell block)."""
from __future__ import annotations

import numpy as np

from ._regions import Region, cell_set_to_entries, entries_to_cell_set

def _values_equal(a, b) -> bool:
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        if not isinstance(a, (list, tuple)) or not isinstance(b, (list, tuple)) or len(a) != len(b):
            return False
        return all(_values_equal(x, y) for x, y in zip(a, b))
    if a is None or b is None:
        return a is None and b is None
    return np.array_equal(np.asarray(a), np.asarray(b))


class _RegionSets(dict):
    """A meshio-style set dict (a real ``dict``) that is a live view over the mesh's
    regions of one kind: reads come from the regions, writes go to them, and the dict's
    own storage is refreshed after every write so C-level dict consumers see the same.
    Subclasses say how a region's entries look as a set value and back."""

    kind = ""

    def __init__(self, mesh):
        super().__init__()
        self._mesh = mesh
        self._refresh()

    # How a region's entries look as a set value, and back.
    def _to_value(self, entries):
        return entries

    def _to_entries(self, members):
        return members

    def _regions(self):
        return [r for r in self._mesh.regions if r.kind == self.kind]

    def _refresh(self):
        dict.clear(self)
        for r in self._regions():
            dict.__setitem__(self, r.name, self._to_value(r.entries))

    def _index(self, name):
        for i, r in enumerate(self._mesh.regions):
            if r.kind == self.kind and r.name == name:
                return i
        return -1

    # --- reads: always from the regions --------------------------------------------
    def __getitem__(self, name):
        i = self._index(name)
        if i < 0:
            raise KeyError(name)
        return self._to_value(self._mesh.regions[i].entries)

    def get(self, name, default=None):
        return self[name] if name in self else default

    def __contains__(self, name):
        return self._index(name) >= 0

    def __iter__(self):
        return iter([r.name for r in self._regions()])

    def __len__(self):
        return len(self._regions())

    def __bool__(self):
        return len(self) > 0

    def keys(self):
        return dict.fromkeys(r.name for r in self._regions()).keys()

    def values(self):
        return [self._to_value(r.entries) for r in self._regions()]

    def items(self):
        return [(r.name, self._to_value(r.entries)) for r in self._regions()]

    def copy(self):
        return dict(self.items())

    def __reduce__(self):  # copies and pickles are plain dicts
        return (dict, (self.items(),))

    def __eq__(self, other):
        if not isinstance(other, dict):
            return NotImplemented
        if list(self) != list(other) and set(self) != set(other):
            return False
        return all(_values_equal(self[k], other[k]) for k in self)

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = None

    def __repr__(self):
        return repr(dict(self.items()))

    # --- writes: to the regions ------------------------------------------------------
    def _remember(self):
        # This view stays the mesh's cached one after its own writes.
        self._mesh.__dict__.setdefault("_set_views", {})[self.kind] = (_view_key(self._mesh, self.kind), self)

    def __setitem__(self, name, members):
        region = Region(name, self.kind, self._to_entries(members))
        i = self._index(name)
        if i < 0:
            self._mesh.regions.append(region)
        else:
            old = self._mesh.regions[i]  # replacing a set keeps its region's dim and tag
            region.dim, region.tag = old.dim, old.tag
            self._mesh.regions[i] = region
        dict.__setitem__(self, name, self._to_value(region.entries))
        self._remember()

    def __delitem__(self, name):
        i = self._index(name)
        if i < 0:
            raise KeyError(name)
        del self._mesh.regions[i]
        dict.pop(self, name, None)
        self._remember()

    _missing = object()

    def pop(self, name, default=_missing):
        if name not in self:
            if default is self._missing:
                raise KeyError(name)
            return default
        value = self[name]
        del self[name]
        return value

    def popitem(self):
        names = list(self)
        if not names:
            raise KeyError("popitem(): set dictionary is empty")
        return names[-1], self.pop(names[-1])

    def setdefault(self, name, default=None):
        if name not in self:
            self[name] = default
        return self[name]

    def update(self, other=(), **kwargs):
        items = other.items() if hasattr(other, "items") else other
        for name, members in list(items) + list(kwargs.items()):
            self[name] = members

    def clear(self):
        self._mesh.regions = [r for r in self._mesh.regions if r.kind != self.kind]
        dict.clear(self)
        self._remember()

    def __ior__(self, other):
        self.update(other)
        return self


def _view_key(mesh, kind):
    regions = tuple((r, r.entries, r.name, r.kind) for r in mesh.regions)
    return regions, tuple(len(b) for b in mesh.cells) if kind == "cell" else ()


def _same_key(a, b) -> bool:
    (ra, la), (rb, lb) = a, b
    return la == lb and len(ra) == len(rb) and all(
        x[0] is y[0] and x[1] is y[1] and x[2] == y[2] and x[3] == y[3] for x, y in zip(ra, rb)
    )


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
