"""Exceptions of meshio++. ReadError and WriteError are raised by the C++ core and mapped
once, in the binding; InteropError/InteropWarning belong to the hand-off layers."""
from ._core import ReadError, WriteError

# meshio code catches ValueError around reads and writes as well as ReadError/WriteError;
# the binding registers the two types with Exception as their base, so they are rebased
# here, once, onto ValueError (the same layout, so CPython allows it).
for _cls in (ReadError, WriteError):
    if not issubclass(_cls, ValueError):
        _cls.__bases__ = (ValueError,)


class InteropError(ValueError):
    """A hand-off would have to copy an array under ``zero_copy_only=True``, or cannot be
    made at all; the message names the array and the reason."""


class InteropWarning(UserWarning):
    """A lossy or copying step of a hand-off (one warning per note)."""


__all__ = ["ReadError", "WriteError", "InteropError", "InteropWarning"]
