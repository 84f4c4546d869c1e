"""The shared data policy of the hand-off layers (_interop.share / cast / checked_int32)."""
import warnings

import numpy as np
import pytest

import meshioplusplus as mio
from meshioplusplus import _interop


def test_native_contiguous_arrays_are_shared_as_is():
    ledger = _interop.Ledger("to_x")
    for dtype in ("int8", "uint16", "int32", "uint64", "float32", "float64"):
        a = np.arange(6, dtype=dtype).reshape(3, 2)
        assert _interop.share(ledger, f"a_{dtype}", a) is a
        assert ledger.shared[f"a_{dtype}"] is True
    assert ledger.notes == []


@pytest.mark.parametrize(
    "array, reason",
    [
        (np.array([True, False]), "bool widened to uint8"),
        (np.arange(10.0)[::2], "not C-contiguous"),
        (np.arange(3, dtype=">f8"), "converted"),
        (np.arange(3, dtype=np.float16), "float16 converted to float64"),
    ],
)
def test_copies_are_noted_and_forbidden_under_zero_copy_only(array, reason):
    ledger = _interop.Ledger("to_x")
    out = _interop.share(ledger, "point_data['T']", array)
    assert out is not array and not np.shares_memory(out, array)
    np.testing.assert_array_equal(out, array.astype(out.dtype))
    assert out.dtype in {np.dtype(t) for t in ("uint8", "float64")} and out.flags.c_contiguous
    assert ledger.shared["point_data['T']"] is False
    assert len(ledger.notes) == 1 and reason in ledger.notes[0]
    strict = _interop.Ledger("to_x", zero_copy_only=True)
    with pytest.raises(mio.InteropError, match=r"to_x: point_data\['T'\] would be copied"):
        _interop.share(strict, "point_data['T']", array)


def test_non_numeric_arrays_are_dropped_with_a_note_even_under_zero_copy_only():
    ledger = _interop.Ledger("to_x", zero_copy_only=True)
    for a in (np.array(["a", "b"]), np.array([1 + 2j]), np.array([object()], dtype=object)):
        assert _interop.share(ledger, "f", a) is None
    assert len(ledger.notes) == 3 and all("dropped" in n for n in ledger.notes)


def test_notes_are_warnings_one_each_prefixed_and_filterable():
    ledger = _interop.Ledger("to_x")
    ledger.copy_note("a", "why")
    ledger.loss_note("b", "why not")
    ledger.derive("offsets built from blocks")
    with pytest.warns(mio.InteropWarning) as record:
        ledger.warn()
    assert [str(w.message) for w in record] == ["to_x: a copied: why", "to_x: b dropped: why not"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", category=mio.InteropWarning)
        ledger.warn()


def test_int32_cast_is_range_checked_and_names_the_array():
    ledger = _interop.Ledger("to_dlpack")
    ok = _interop.checked_int32(ledger, "cells[0]", np.array([0, 2**31 - 1], dtype=np.int64))
    assert ok.dtype == np.int32 and ok[1] == 2**31 - 1
    with pytest.raises(mio.InteropError, match=r"cells\[1\] holds values outside the int32 range"):
        _interop.checked_int32(ledger, "cells[1]", np.array([0, 2**31], dtype=np.int64))
    with pytest.raises(mio.InteropError, match="zero_copy_only"):
        _interop.cast(_interop.Ledger("to_dlpack", zero_copy_only=True), "points", np.zeros(3), np.float32)
