"""The data policy of every hand-off (host interop and GPU): one module.

An array that exists in the Mesh is either handed over as the very same buffer, or the
hand-off records a note saying why it was copied (or dropped). With ``zero_copy_only=True``
any such copy raises InteropError naming the array and the reason instead. Arrays a
hand-off builds itself (offsets, type arrays, masks) are *derived*: recorded in
``derived``, never warned.

Which dtype an array is stored as is the C++ core's rule (``_core.storage_dtype``, the
same function the binding's write path applies), so a hand-off and ``mio.write`` treat
every array alike:
  * integers and float32/float64 in native byte order, C-contiguous: shared as-is;
  * foreign byte order: converted to native (a noted copy);
  * other floats (float16, longdouble): converted to float64 (a noted copy);
  * bool: widened to uint8 (a noted copy);
  * object, complex, string (and other non-numeric) arrays: dropped with a note (the
    write path raises ValueError for them instead, naming the array);
  * non-contiguous arrays: copied with a note.
Notes surface as InteropWarning, one per note, prefixed with the operation.

Also here: renumbering global cell entries after blocks were dropped (every hand-off that
drops blocks renumbers its regions with ``renumber_cells``).
"""
from __future__ import annotations

import warnings

import numpy as np

from . import _core
from ._exceptions import InteropError, InteropWarning
from ._regions import block_bases_of_sizes


class Ledger:
    """Collects what a hand-off did: notes (lossy or copying), derived facts, and which
    mesh arrays were shared (label -> bool)."""

    def __init__(self, operation: str, zero_copy_only: bool = False):
        self.operation = operation
        self.zero_copy_only = zero_copy_only
        self.notes: list[str] = []
        self.derived: list[str] = []
        self.shared: dict[str, bool] = {}

    def copy_note(self, label: str, reason: str) -> None:
        """Record that a mesh array is copied; raises under zero_copy_only."""
        if self.zero_copy_only:
            raise InteropError(f"{self.operation}: {label} would be copied ({reason}); zero_copy_only=True forbids it")
        self.notes.append(f"{label} copied: {reason}")

    def loss_note(self, label: str, reason: str) -> None:
        """Record that something is not carried over (dropped); not a copy."""
        self.notes.append(f"{label} dropped: {reason}")

    def note(self, label: str, text: str) -> None:
        """Record a lossy step that is neither a copy nor a drop (e.g. an unknown tag)."""
        self.notes.append(f"{label}: {text}")

    def derive(self, fact: str) -> None:
        self.derived.append(fact)

    def warn(self, stacklevel: int = 3) -> None:
        warn_notes(self.operation, self.notes, stacklevel=stacklevel + 1)


def warn_notes(operation: str, notes, stacklevel: int = 3) -> None:
    """Surface notes as InteropWarning, one per note, prefixed with the operation."""
    for note in notes:
        warnings.warn(f"{operation}: {note}", InteropWarning, stacklevel=stacklevel)


def storage_dtype(dtype) -> np.dtype | None:
    """The native dtype the core stores an array of ``dtype`` as; None when it has no
    numeric representation (asked of the C++ core, the rule's one owner)."""
    return _core.storage_dtype(np.dtype(dtype))


def share(ledger: Ledger, label: str, array):
    """Apply the data policy to one mesh array. Returns the array to hand over (the same
    object when shared) or None when it is dropped; records everything in ``ledger``."""
    original = array
    if not isinstance(array, np.ndarray):
        a = np.asarray(array)
        if storage_dtype(a.dtype) is not None:
            ledger.copy_note(label, f"a {type(array).__name__} is not an array; converted")
        array = a
    target = storage_dtype(array.dtype)
    if target is None:
        ledger.loss_note(label, f"dtype {array.dtype} has no numeric representation")
        ledger.shared[label] = False
        return None
    out = array
    if array.dtype.kind == "b":
        ledger.copy_note(label, "bool widened to uint8")
        out = np.ascontiguousarray(array, dtype=target)
    elif array.dtype != target:
        ledger.copy_note(label, f"dtype {array.dtype} converted to {target}")
        out = np.ascontiguousarray(array, dtype=target)
    elif not array.flags.c_contiguous:
        ledger.copy_note(label, "not C-contiguous")
        out = np.ascontiguousarray(array)
    ledger.shared[label] = out is original
    return out


def cast(ledger: Ledger, label: str, array: np.ndarray, dtype) -> np.ndarray:
    """An explicit, opt-in dtype cast (e.g. float32=True): always a noted copy; under
    zero_copy_only it raises, since a downcast is a copy by definition."""
    dtype = np.dtype(dtype)
    if array.dtype == dtype:
        return array
    ledger.copy_note(label, f"cast from {array.dtype} to {dtype} on request")
    ledger.shared[label] = False
    return array.astype(dtype)


def checked_int32(ledger: Ledger, label: str, array: np.ndarray) -> np.ndarray:
    """Cast an index array to int32 after a range check; out-of-range raises, naming it."""
    info = np.iinfo(np.int32)
    if array.size and (array.min() < info.min or array.max() > info.max):
        raise InteropError(
            f"{ledger.operation}: {label} holds values outside the int32 range "
            f"[{info.min}, {info.max}] (min {array.min()}, max {array.max()}); int32=True cannot represent it"
        )
    return cast(ledger, label, array, np.int32)


def renumber_cells(label: str, entries: np.ndarray, kind: str, old_bases: np.ndarray, kept) -> tuple:
    """Global (block-major) cell entries of a mesh -> the numbering over its kept blocks.

    ``entries``: (n,) cell numbers (kind "cell") or (n, 2) (cell, facet) pairs (kind
    "side"); ``old_bases``: ``block_bases`` of the mesh's blocks; ``kept``: one bool per
    block. Entries in dropped blocks are removed. Returns ``(entries, number removed,
    changed)``; the entries are the very array given when nothing changes. A cell number
    outside the mesh raises InteropError naming ``label``.
    """
    kept = np.asarray(kept, dtype=bool)
    cells = entries[:, 0] if kind == "side" else entries
    if cells.size and (cells.min() < 0 or cells.max() >= old_bases[-1]):
        bad = int(cells.min()) if cells.min() < 0 else int(cells.max())
        raise InteropError(f"{label} references cell {bad}, outside the mesh's {int(old_bases[-1])} cells")
    new_bases = block_bases_of_sizes(np.diff(old_bases)[kept])
    block = np.searchsorted(old_bases, cells, side="right") - 1
    keep = kept[block]
    # shift[i]: new base - old base of mesh block i (meaningful only for kept blocks).
    shift = np.zeros(len(kept), dtype=np.int64)
    shift[kept] = new_bases[:-1] - old_bases[:-1][kept]
    delta = shift[block]
    if keep.all() and not delta.any():
        return entries, 0, False
    out = entries[keep].copy()
    if kind == "side":
        out[:, 0] += delta[keep]
    else:
        out += delta[keep]
    return out, int((~keep).sum()), True
