"""A host-memory stand-in for the few CuPy calls _gpu.to_cupy / from_cupy make.

NOT a GPU test and never presented as one: it records which calls run, on which stream,
with which staging buffers, so the bookkeeping of to_cupy (one transfer per array, staging
kept on refs with a caller's stream, released after synchronising) is checked on machines
with no GPU. The device behaviour itself is covered only by the gated tests.
bench/gpu_bench.py --dry-run uses it to exercise its own control flow.
"""
from __future__ import annotations

import ctypes
import types
import weakref

import numpy as np


class Log:
    def __init__(self):
        self.events: list[tuple] = []

    def add(self, *event):
        self.events.append(event)

    def count(self, kind):
        return sum(1 for e in self.events if e[0] == kind)


class Stream:
    def __init__(self, log: Log, name: str, non_blocking: bool = False):
        self.log, self.name = log, name

    def synchronize(self):
        self.log.add("synchronize", self.name)

    def __enter__(self):
        self.log.add("enter", self.name)
        _module(self.log).current.append(self)
        return self

    def __exit__(self, *exc):
        _module(self.log).current.pop()


class FakePinnedMemory(bytearray):
    """Stands in for cupy.cuda.PinnedMemoryPointer: ordinary (pageable!) host bytes with a
    stable address in ``ptr`` and the buffer protocol, so np.frombuffer works on it as on the
    real one. Nothing here is page-locked; only the bookkeeping is real: the fake pool logs
    ("alloc_pinned", nbytes) and, when the object dies, ("pinned_release", ptr)."""

    def __init__(self, nbytes: int):
        super().__init__(nbytes)
        self._view = (ctypes.c_char * max(nbytes, 1)).from_buffer(self) if nbytes else None
        self.ptr = ctypes.addressof(self._view) if nbytes else 0

    def size(self):
        return len(self)


class FakeDeviceArray:
    """Holds a private host copy; reports itself as (kDLCUDA, 0) so from_cupy routes it to .get()."""

    def __init__(self, log: Log, host: np.ndarray):
        self.log, self._h = log, host

    shape = property(lambda self: self._h.shape)
    dtype = property(lambda self: self._h.dtype)
    size = property(lambda self: self._h.size)
    nbytes = property(lambda self: self._h.nbytes)

    flags = property(lambda self: self._h.flags)

    def __len__(self):
        return len(self._h)

    def __getitem__(self, index):
        return FakeDeviceArray(self.log, np.asarray(self._h[index]))

    def __dlpack_device__(self):
        return (2, 0)

    def set(self, arr, stream=None):
        self.log.add("set", stream.name if stream is not None else None, id(arr), arr.__array_interface__["data"][0])
        self._h[...] = arr

    def get(self, stream=None, out=None):
        self.log.add("get", None if out is None else out.__array_interface__["data"][0])
        if out is not None:
            out[...] = self._h
            return out
        return self._h.copy()


_MODULES: dict = {}


def _module(log):
    return _MODULES[id(log)]


def make(fail_after: int | None = None):
    """A fake `cupy` module and its event log. fail_after=k makes the (k+1)-th transfer raise."""
    log = Log()
    mod = types.ModuleType("cupy")
    mod.__version__ = "fake"
    mod.log = log
    null = Stream(log, "null")
    mod.current = []
    _MODULES[id(log)] = mod

    def current_stream():
        return mod.current[-1] if mod.current else null

    def transfer_check():
        if fail_after is not None and log.count("asarray") + log.count("set") >= fail_after:
            raise MemoryError("fake out of device memory")

    def asarray(a):
        transfer_check()
        log.add("asarray", current_stream().name, id(a))
        return FakeDeviceArray(log, np.array(a, copy=True))

    def empty(shape, dtype):
        transfer_check()
        log.add("empty", current_stream().name)
        return FakeDeviceArray(log, np.empty(shape, dtype))

    mod.pinned_live = {}  # ptr -> nbytes of fake pinned blocks not yet released

    def alloc_pinned_memory(nbytes):
        mem = FakePinnedMemory(nbytes)
        ptr = mem.ptr
        log.add("alloc_pinned", nbytes, ptr)
        mod.pinned_live[ptr] = nbytes

        def release():
            mod.pinned_live.pop(ptr, None)
            log.add("pinned_release", ptr)

        weakref.finalize(mem, release)
        return mem

    def ascontiguousarray(d):
        log.add("ascontiguousarray")
        return FakeDeviceArray(log, np.ascontiguousarray(d._h))

    mod.ndarray = FakeDeviceArray
    mod.asarray = asarray
    mod.empty = empty
    mod.asnumpy = lambda d: d.get()
    mod.ascontiguousarray = ascontiguousarray
    mod.cuda = types.SimpleNamespace(
        Stream=lambda non_blocking=False: Stream(log, "user", non_blocking),
        get_current_stream=current_stream,
        alloc_pinned_memory=alloc_pinned_memory,
        runtime=types.SimpleNamespace(getDeviceCount=lambda: 1, getDevice=lambda: 0, is_hip=False),
    )
    return mod
