"""Regions: named point / cell / side sets with a dimension and a tag.

Global cell numbering is block-major: cell ``j`` of block ``i`` is ``block_bases(cells)[i] + j``.
``block_bases`` and the canonical form of entries (int64, sorted and unique; side entries
are ``(global cell, local facet)`` pairs, sorted lexicographically) are the C++ core's
(``block_bases``, ``Region::canonicalize`` in src/core/mesh.cpp): this module asks it.
"""
from __future__ import annotations

import numpy as np

from . import _core

KINDS = ("point", "cell", "side")


def block_bases(cells) -> np.ndarray:
    """Prefix sums of block lengths, length ``len(cells) + 1`` (int64)."""
    return _core.block_bases([len(block) for block in cells])


def block_bases_of_sizes(sizes) -> np.ndarray:
    """``block_bases`` over block lengths given as numbers."""
    return _core.block_bases([int(n) for n in sizes])


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
        self.entries = _core.canonical_region_entries(entries, kind, self.name)
        self.dim = int(dim)
        self.tag = int(tag)

    @classmethod
    def _canonical(cls, name: str, kind: str, entries: np.ndarray, dim: int, tag: int) -> "Region":
        """A region whose entries the C++ core has made canonical (``meshioplusplus::read``
        canonicalizes every region it returns), taken as they are without a second look."""
        region = cls.__new__(cls)
        region.name, region.kind, region.entries, region.dim, region.tag = name, kind, entries, int(dim), int(tag)
        return region

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
