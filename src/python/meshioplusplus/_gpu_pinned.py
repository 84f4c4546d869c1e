"""GPU hand-off: pinned (page-locked) host memory - reading into it, recognising it, and
the bounded staging ring the pinned transfer copies through.

Specification: docs/gpu.md ("Reading straight into pinned
memory"); CuPy's pinned memory pool (https://docs.cupy.dev/en/stable/user_guide/memory.html)
rounds requests to 512 bytes, hands a freed block out again only for a request of that same
size and gives blocks back only on ``free_all_blocks()``; CUDA events
(https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__EVENT.html) tell when a copy
that reads a buffer has finished.
"""
from __future__ import annotations

import bisect
import threading

import numpy as np

from ._gpu_runtime import _require_device

# --- the registry of pinned buffers meshio++ handed out -----------------------------------------
#
# The pointer -> PinnedMemoryPointer map lives here, in Python: _PINNED maps the address of
# every live pinned buffer handed out by a _PinnedAllocator (a read under pinned_reads(), or a
# from_cupy(pinned=True) result) to (PinnedMemoryPointer, nbytes). The C++ shim behind
# mio.use_allocator holds the alloc/free callables, takes the GIL in both callbacks and skips
# the free path at interpreter shutdown; it is not duplicated here. An entry is added when
# alloc returns and removed exactly when free runs, so "is this array in pinned memory we
# handed out" is a range lookup in _PINNED (an array may be a view into a hooked buffer).

_PINNED: dict = {}  # address -> (PinnedMemoryPointer, nbytes); dict operations are atomic under the GIL


class _PinnedAllocator:
    """alloc/free over ``cupy.cuda.alloc_pinned_memory`` (CuPy's pinned memory pool).

    ``alloc(nbytes) -> address`` keeps the PinnedMemoryPointer in ``_PINNED``; ``free(address,
    nbytes)`` removes it, which hands the block back to CuPy's pinned pool. Counts are kept for
    the caller (``pinned_reads()`` yields its allocator); a free of an address this allocator
    does not hold is counted in ``bad_frees`` and otherwise ignored.
    """

    def __init__(self, cupy):
        self.cp = cupy
        self.allocs = 0
        self.frees = 0
        self.nbytes = 0  # bytes handed out, in total
        self.bad_frees = 0
        self._mine: set = set()

    def alloc(self, nbytes: int) -> int:
        nbytes = int(nbytes)
        mem = self.cp.cuda.alloc_pinned_memory(max(nbytes, 1))  # never a null pointer, also for 0 bytes
        address = int(mem.ptr)
        _PINNED[address] = (mem, nbytes)
        self._mine.add(address)
        self.allocs += 1
        self.nbytes += nbytes
        return address

    def free(self, address: int, nbytes: int) -> None:
        address = int(address)
        if address not in self._mine:
            self.bad_frees += 1
            return
        self._mine.discard(address)
        entry = _PINNED.pop(address, None)
        self.frees += 1
        del entry  # the last reference to the PinnedMemoryPointer: the block goes back to CuPy's pool

    @property
    def live(self) -> int:
        """Buffers from this allocator that are still alive."""
        return len(self._mine)


class _PinnedOwner:
    """Owns one pinned buffer for a numpy array made over it (``np.asarray(owner)`` keeps the
    owner as the array's base): when numpy drops the array, the buffer is freed through the
    allocator it was born with, exactly as a C++ buffer's capsule does."""

    def __init__(self, allocator: _PinnedAllocator, shape, dtype):
        dtype = np.dtype(dtype)
        nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        self._allocator = allocator
        self._nbytes = nbytes
        self._address = allocator.alloc(nbytes)
        self.__array_interface__ = {"shape": tuple(int(n) for n in shape), "typestr": dtype.str,
                                    "data": (self._address, False), "version": 3, "strides": None}

    def __del__(self):
        try:
            self._allocator.free(self._address, self._nbytes)
        except Exception:  # interpreter shutdown: the process is ending
            pass


def _pinned_empty(allocator: _PinnedAllocator, shape, dtype) -> np.ndarray:
    """An uninitialised C-contiguous numpy array in pinned memory from ``allocator``."""
    return np.asarray(_PinnedOwner(allocator, shape, dtype))


def _data_range(a) -> tuple | None:
    """(first byte, one past the last) of a C-contiguous numpy array, else None."""
    if not isinstance(a, np.ndarray) or not a.flags.c_contiguous:
        return None
    start = a.__array_interface__["data"][0]
    return start, start + a.nbytes


def _pinned_ranges() -> list:
    """Sorted (start, end) of the live pinned buffers: one snapshot per call of to_cupy."""
    return sorted((address, address + nbytes) for address, (_, nbytes) in list(_PINNED.items()))


def _in_ranges(ranges: list, a) -> bool:
    span = _data_range(a)
    if span is None or not ranges:
        return False
    i = bisect.bisect_right(ranges, (span[0], float("inf"))) - 1
    return i >= 0 and ranges[i][0] <= span[0] and span[1] <= ranges[i][1]


def is_pinned(a) -> bool:
    """True when numpy array ``a`` lies entirely inside a live pinned buffer meshio++ handed
    out (read under ``pinned_reads()``, or returned by ``from_cupy(pinned=True)``) - views
    into such a buffer included. A host-side registry lookup: no CuPy call, no device."""
    return _in_ranges(_pinned_ranges(), a)


class pinned_reads:
    """``with mio._gpu.pinned_reads() as alloc:`` - every buffer the C++ core allocates inside
    the block (every array a reader returns) is page-locked host memory from CuPy's pinned
    pool (``cupy.cuda.alloc_pinned_memory``), installed through ``mio.use_allocator``.

    Each buffer is freed through the pinned pool whenever its array dies, also after the
    block has exited. Copies made later (``a.copy()``, ``astype``, arithmetic results) are
    ordinary pageable memory: pinned-ness does not propagate. Blocks nest with
    ``use_allocator`` like any allocator. ``to_cupy(mesh, pinned=True)`` moves such arrays
    straight from where they are, with no staging copy.

    Raises ImportError (with the per-toolkit install recipe) without CuPy, and RuntimeError
    when CuPy finds no CUDA device - both when called, before anything is installed. The
    value of the ``with`` is the allocator: ``allocs``, ``frees``, ``live``, ``nbytes``.
    """

    def __init__(self):
        cp = _require_device("pinned_reads")
        self.allocator = _PinnedAllocator(cp)
        self._scope = None

    def __enter__(self) -> _PinnedAllocator:
        from ._allocator import use_allocator

        self._scope = use_allocator(self.allocator.alloc, self.allocator.free)
        self._scope.__enter__()
        return self.allocator

    def __exit__(self, *exc):
        scope, self._scope = self._scope, None
        return scope.__exit__(*exc)


def page_locked(cupy, a, ranges: list | None = None) -> bool:
    """True when numpy array ``a`` (C-contiguous, not empty) lies in page-locked memory:
    a buffer meshio++ handed out (the registry: no CuPy call), or any other pinned memory as
    CuPy reports it (``cupy.cuda.pinned_memory.is_memory_pinned``, which asks the driver):
    ``cupyx.empty_pinned``, ``cupy.cuda.alloc_pinned_memory``, ``cudaHostRegister``-ed
    ranges, torch's ``pin_memory()``. Both the first and the last byte are asked about."""
    span = _data_range(a)
    if span is None or span[0] == span[1]:
        return False
    if _in_ranges(ranges if ranges is not None else _pinned_ranges(), a):
        return True
    ask = getattr(getattr(getattr(cupy, "cuda", None), "pinned_memory", None), "is_memory_pinned", None)
    if ask is None:
        return False
    try:
        return bool(ask(span[0])) and bool(ask(span[1] - 1))
    except Exception:  # an old driver raising for unregistered host memory: not pinned
        return False


# --- the bounded staging ring ----------------------------------------------------------------------
#
# CuPy's pinned pool keeps a freed block for the next request of the same rounded size only,
# and never shrinks on its own: one staging buffer per transfer would pin the sum of every
# distinct payload size ever moved. The ring pins a fixed STAGING_CHUNKS x STAGING_CHUNK_BYTES
# instead, whatever the sizes: the host fills one chunk while the DMA engine drains the
# other. A chunk is refilled only once the event recorded behind the copies reading it has
# completed, so no copy ever reads a buffer that was refilled or handed back; the ring holds
# its chunks itself, so dropping a payload early can never return one to the pool mid-copy.

STAGING_CHUNK_BYTES = 8 << 20
STAGING_CHUNKS = 2
STAGING_ALIGN = 256  # bytes: every piece starts aligned inside its chunk


class _StagingRing:
    def __init__(self, cupy, chunk_bytes: int, count: int):
        self.cp = cupy
        self.chunk_bytes = int(chunk_bytes)
        self.count = int(count)
        self._mems: list = [None] * self.count
        self.views: list = [None] * self.count
        self._events: list = [None] * self.count
        self._order: list = list(range(self.count))  # least recently used first
        self.lock = threading.Lock()  # one transfer at a time fills the ring

    def acquire(self) -> tuple:
        """(index, uint8 view) of a chunk no copy is reading any more: an allocated chunk
        whose copies are done, else a new chunk while fewer than ``count`` exist, else the
        least recently used one once its copies are done."""
        allocated = [i for i in self._order if self.views[i] is not None]
        ready = [i for i in allocated if self._events[i] is None or self._events[i].done]
        if ready:
            i = ready[0]
        elif len(allocated) < self.count:
            i = next(j for j in range(self.count) if self.views[j] is None)
            self._mems[i] = self.cp.cuda.alloc_pinned_memory(self.chunk_bytes)
            self.views[i] = np.frombuffer(self._mems[i], np.uint8, self.chunk_bytes)
        else:
            i = allocated[0]
            self._events[i].synchronize()
        self._events[i] = None
        self._order.remove(i)
        self._order.append(i)  # most recently used last
        return i, self.views[i]

    def release(self, i: int, stream) -> None:
        """The copies reading chunk ``i`` are enqueued on ``stream``: guard it with an event."""
        self._events[i] = stream.record()

    def drain(self) -> None:
        for i, event in enumerate(self._events):
            if event is not None:
                event.synchronize()
                self._events[i] = None

    @property
    def nbytes(self) -> int:
        return sum(self.chunk_bytes for v in self.views if v is not None)


_RINGS: dict = {}  # device id -> _StagingRing, all for the CuPy module in _RINGS_OF
_RINGS_OF: list = [None]
_RINGS_LOCK = threading.Lock()


def staging_ring(cupy, device) -> _StagingRing:
    """The staging ring of ``device`` (created on first use, then kept for the process)."""
    with _RINGS_LOCK:
        if _RINGS_OF[0] is not cupy:  # another CuPy module (a test's stand-in): start afresh
            _drop_rings()
            _RINGS_OF[0] = cupy
        ring = _RINGS.get(device)
        if ring is None:
            ring = _RINGS[device] = _StagingRing(cupy, STAGING_CHUNK_BYTES, STAGING_CHUNKS)
        return ring


def _drop_rings() -> int:
    rings = list(_RINGS.values())
    _RINGS.clear()
    total = 0
    for ring in rings:
        with ring.lock:
            ring.drain()
            total += ring.nbytes
    return total


def release_staging() -> int:
    """Wait for copies still reading the staging chunks, then let the chunks go back to
    CuPy's pinned pool (``cupy.get_default_pinned_memory_pool().free_all_blocks()`` then
    returns them to the driver). Returns the bytes let go; the next pinned transfer pins
    a ring again."""
    with _RINGS_LOCK:
        return _drop_rings()
