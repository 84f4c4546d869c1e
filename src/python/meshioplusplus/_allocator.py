"""mio.use_allocator: read straight into memory of the caller's choosing.

Inside ``with mio.use_allocator(alloc, free):`` every buffer the C++ core allocates
(every array a reader returns) comes from ``alloc(nbytes) -> int address`` and is returned
through ``free(address, nbytes)`` exactly once, whenever the array dies - also long after
the block has exited. Copies made later are ordinary memory. The previous allocator is
restored on exit, so blocks nest.

Without an allocator installed, the core keeps freed buffers of 1 MiB and more (up to a
limit) for the next read: ``set_buffer_cache_limit``, ``cached_buffer_bytes`` and
``release_cached_buffers`` control it (docs/allocator.md).
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


def set_buffer_cache_limit(nbytes: int) -> int:
    """Bytes of freed large buffers the core may keep for reuse (0 turns the cache off and
    gives them all back). Returns the previous limit."""
    if nbytes < 0:
        raise ValueError(f"set_buffer_cache_limit: nbytes must be >= 0, got {nbytes}")
    return _core.set_buffer_cache_limit(int(nbytes))


def cached_buffer_bytes() -> int:
    """Bytes of freed large buffers the core keeps now."""
    return _core.cached_buffer_bytes()


def release_cached_buffers() -> None:
    """Give every freed large buffer the core keeps back to the system now."""
    _core.release_cached_buffers()
