"""Host interop layer: the zero-copy contract shared by every hand-off.

The contract is about *host buffer sharing*: an array that exists in the Mesh is either
handed over as the very same buffer, or the hand-off records a note saying why it was
copied (or dropped). With ``zero_copy_only=True`` any such copy raises InteropError naming
the array and the reason instead. Arrays the hand-off builds itself (offsets, type arrays,
masks) are *derived*: outside the contract, recorded in ``derived``, never warned.

Data policy, shared by every target and by the GPU module (_gpu.py):
  * native numeric dtypes (int8..uint64, float32/64), C-contiguous: passed as-is (shared);
  * bool: widened to uint8 (a noted copy);
  * object, complex, string (and other non-numeric) arrays: dropped with a note;
  * non-contiguous arrays: copied with a note; any other dtype (float16, longdouble,
    foreign byte order): converted with a note.
Notes surface as InteropWarning, one per note, prefixed with the operation.
"""
from __future__ import annotations

import warnings

import numpy as np

from ._exceptions import InteropError, InteropWarning

_NATIVE_NUMERIC = {np.dtype(t) for t in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64")}


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

    def derive(self, fact: str) -> None:
        self.derived.append(fact)

    def warn(self, stacklevel: int = 3) -> None:
        for note in self.notes:
            warnings.warn(f"{self.operation}: {note}", InteropWarning, stacklevel=stacklevel)


def share(ledger: Ledger, label: str, array):
    """Apply the data policy to one mesh array. Returns the array to hand over (the same
    object when shared) or None when it is dropped; records everything in `ledger`."""
    if not isinstance(array, np.ndarray):
        a = np.asarray(array)
        if a.dtype.kind in "biuf":
            ledger.copy_note(label, f"a {type(array).__name__} is not an array; converted")
        array = a
    kind = array.dtype.kind
    if kind not in "biuf":
        ledger.loss_note(label, f"dtype {array.dtype} has no numeric representation")
        ledger.shared[label] = False
        return None
    out = array
    if kind == "b":
        ledger.copy_note(label, "bool widened to uint8")
        out = array.astype(np.uint8)
    elif array.dtype not in _NATIVE_NUMERIC:
        target = np.dtype(array.dtype.kind + str(min(array.dtype.itemsize, 8))) if kind in "iu" else np.dtype(np.float64)
        ledger.copy_note(label, f"dtype {array.dtype} converted to {target}")
        out = array.astype(target.newbyteorder("="))
    elif not array.flags.c_contiguous:
        ledger.copy_note(label, "not C-contiguous")
        out = np.ascontiguousarray(array)
    ledger.shared[label] = out is array
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
