"""Exceptions of meshio++. ReadError and WriteError are raised by the C++ core and mapped
once, in the binding; InteropError/InteropWarning belong to the hand-off layers."""
from ._core import ReadError, WriteError


class InteropError(ValueError):
    """A hand-off would have to copy an array under ``zero_copy_only=True``, or cannot be
    made at all; the message names the array and the reason."""


class InteropWarning(UserWarning):
    """A lossy or copying step of a hand-off (one warning per note)."""


__all__ = ["ReadError", "WriteError", "InteropError", "InteropWarning"]
