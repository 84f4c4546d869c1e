"""Regions: named point / cell / side sets with a dimension and a tag.

Global cell numbering is block-major: cell ``j`` of block ``i`` is ``block_bases(cells)[i] + j``.
``block_bases`` is defined here once for Python (mirroring the C++ core's definition);
nothing else re-derives it. Entries are stored canonical: sorted and unique (side entries
are ``(global cell, local facet)`` pairs, sorted lexicographically), int64.
"""
from __future__ import annotations

import numpy as np

KINDS = ("point", "cell", "side")


def block_bases(cells) -> np.ndarray:
    """Prefix sums of block lengths, length ``len(cells) + 1`` (int64)."""
    out = np.zeros(len(cells) + 1, dtype=np.int64)
    if len(cells):
        np.cumsum([len(block) for block in cells], out=out[1:])
    return out


def _canonical(entries, kind: str) -> np.ndarray:
    a = np.asarray(entries)
    if a.size == 0:
        return np.zeros((0, 2) if kind == "side" else (0,), dtype=np.int64)
    if a.dtype.kind not in "iu":
        if a.dtype.kind == "f" and np.all(np.floor(a) == a):
            a = a.astype(np.int64)
        else:
            raise ValueError(f"region entries must be integers, found dtype {a.dtype}")
    if kind == "side":
        if a.ndim != 2 or a.shape[1] != 2:
            raise ValueError(f"side region entries must have shape (n, 2), found {a.shape}")
        a = np.ascontiguousarray(a, dtype=np.int64)
        c, f = a[:, 0], a[:, 1]
        increasing = (c[1:] > c[:-1]) | ((c[1:] == c[:-1]) & (f[1:] > f[:-1]))
        if not np.all(increasing):  # lexicographic sort + unique through a structured view
            pairs = np.unique(a.view([("cell", np.int64), ("facet", np.int64)]).ravel())
            a = pairs.view(np.int64).reshape(-1, 2)
        return a
    if a.ndim != 1:
        a = a.reshape(-1)
    if a.dtype != np.int64 or not a.flags.c_contiguous:
        a = np.ascontiguousarray(a, dtype=np.int64)
    if a.size > 1 and not np.all(a[1:] > a[:-1]):
        a = np.unique(a)
    return a


class Region:
    """``Region(name, kind, entries, dim=-1, tag=-1)``; kind is "point", "cell" or "side".

    Already-canonical int64 entries are kept as given (no copy), so regions read by the C++
    core stay zero-copy.
    """

    __slots__ = ("name", "kind", "entries", "dim", "tag")

    def __init__(self, name: str, kind: str, entries, dim: int = -1, tag: int = -1):
        if kind not in KINDS:
            raise ValueError(f"region '{name}': kind must be one of {KINDS}, found {kind!r}")
        self.name = str(name)
        self.kind = kind
        self.entries = _canonical(entries, kind)
        self.dim = int(dim)
        self.tag = int(tag)

    def __len__(self):
        return len(self.entries)

    def __eq__(self, other):
        if not isinstance(other, Region):
            return NotImplemented
        return (self.name, self.kind, self.dim, self.tag) == (other.name, other.kind, other.dim, other.tag) and np.array_equal(
            self.entries, other.entries
        )

    def __repr__(self):
        return f"Region(name={self.name!r}, kind={self.kind!r}, entries=<{len(self)}>, dim={self.dim}, tag={self.tag})"


def cell_set_to_entries(members, cells) -> np.ndarray:
    """meshio cell_sets value (one index array per block, or None) -> global cell entries."""
    if len(members) != len(cells):
        raise ValueError(f"a cell set needs one entry per cell block ({len(cells)}), found {len(members)}")
    bases = block_bases(cells)
    parts = [np.asarray(m, dtype=np.int64).reshape(-1) + bases[i] for i, m in enumerate(members) if m is not None]
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)


def entries_to_cell_set(entries: np.ndarray, cells) -> list:
    """Global cell entries (sorted) -> one local index array per block."""
    bases = block_bases(cells)
    cut = np.searchsorted(entries, bases)
    return [entries[cut[i] : cut[i + 1]] - bases[i] for i in range(len(cells))]
