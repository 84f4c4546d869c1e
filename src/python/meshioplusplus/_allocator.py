"""mio.use_allocator: read straight into memory of the caller's choosing.

Inside ``with mio.use_allocator(alloc, free):`` every buffer the C++ core allocates
(every array a reader returns) comes from ``alloc(nbytes) -> int address`` and is returned
through ``free(address, nbytes)`` exactly once, whenever the array dies - also long after
the block has exited. Copies made later are ordinary memory. The previous allocator is
restored on exit, so blocks nest.
"""
from __future__ import annotations

import contextlib

from . import _core


@contextlib.contextmanager
def use_allocator(alloc, free):
    if not callable(alloc) or not callable(free):
        raise TypeError("use_allocator(alloc, free) needs two callables")
    token = _core.set_allocator(alloc, free)
    try:
        yield
    finally:
        _core.restore_allocator(token)
