"""A host-memory stand-in for the part of CuPy 14.2 that meshio++'s GPU hand-off uses.

NOT a GPU and never presented as one: "device memory" is ordinary host memory. What it
reproduces faithfully are the semantics that decide whether host-side code is correct
(CuPy 14.2: cupy/_core/core.pyx, cupy/cuda/pinned_memory.pyx, cupy/_core/dlpack.pyx):

- Streams are queues. ``ndarray.set(arr, stream)`` and ``ndarray.get(stream, out=)`` are
  enqueued and run only when their stream is synchronised, when an event recorded after
  them is waited on, or when later work depends on them. A copy from pinned memory reads
  the raw address when it runs (as a DMA does), so a block handed out again before then is
  read with its new contents. ``get(blocking=True)`` (the default) synchronises its stream.
  The legacy null stream orders against blocking streams; ``non_blocking=True`` streams
  are independent of it. Conservative on one point: a copy from pageable memory also reads
  its source when it runs (the driver would stage it at call time).
- The pinned pool rounds every request up to 512 bytes, hands a freed block out again
  for the next request of the same rounded size, and gives blocks back only on
  ``free_all_blocks()``. A PinnedMemoryPointer returns its block to the pool when the last
  Python reference dies (also a numpy array made over it with ``np.frombuffer``).
- ``cupy.asarray(numpy)`` stages pageable input through a pinned block from the pool
  (copied at call time) and copies pinned input directly, keeping the staging block (or the
  pinned input) alive on a watch list until an event recorded after the copy completes.
- ``cuda.pinned_memory.is_memory_pinned(ptr)`` is true for memory in the pool's blocks and
  for ranges registered with ``runtime.hostRegister``; ``cupyx.empty_pinned`` allocates from
  the pool. ``from_dlpack`` rejects host producers (device types 1 and 3) with TypeError,
  and passes its current stream to ``__dlpack__``. ``asarray`` of a CAI v3 object with a
  stream synchronises that stream. ``cuda.Event``, ``cuda.Stream``, ``cuda.ExternalStream``
  (sharing the queue of the stream whose handle it wraps).

Every call is logged (``mod.log``) so tests can check which path ran.
bench/*.py --dry-run use it to exercise their own control flow; they measure nothing.
"""
from __future__ import annotations

import collections
import ctypes
import itertools
import types
import weakref

import numpy as np

ALLOCATION_UNIT = 512  # bytes: CuPy's pinned pool rounds every request up to this
POISON = 0xCD  # fresh device memory
RELEASED = 0xDD  # pinned memory given back to the "driver" (kept mapped so a late read is visible, not a crash)


class Log:
    def __init__(self):
        self.events: list[tuple] = []

    def add(self, *event):
        self.events.append(event)

    def count(self, kind):
        return sum(1 for e in self.events if e[0] == kind)

    def of(self, kind):
        return [e for e in self.events if e[0] == kind]


def _addr(a: np.ndarray) -> int:
    return a.__array_interface__["data"][0]


def _raw(address: int, nbytes: int) -> np.ndarray:
    """A uint8 array over raw memory (what a DMA engine sees)."""
    if nbytes == 0:
        return np.empty(0, np.uint8)
    return np.ctypeslib.as_array((ctypes.c_ubyte * nbytes).from_address(address))


# --- streams and events ---------------------------------------------------------------------


class _Queue:
    """One CUDA stream: operations run in order, each first running what it depends on."""

    def __init__(self, fake, name: str, ptr: int, blocking: bool, legacy: bool = False):
        self.fake, self.name, self.ptr, self.blocking, self.legacy = fake, name, ptr, blocking, legacy
        self.ops: collections.deque = collections.deque()
        self.submitted = 0
        self.done = 0

    def enqueue(self, fn, deps=()) -> int:
        deps = list(deps)
        if self.legacy:  # the legacy default stream waits for every blocking stream
            deps += [(q, q.submitted) for q in self.fake.queues.values() if q.blocking and q is not self]
        elif self.blocking:  # ... and blocking streams wait for it
            null = self.fake.null_queue
            deps.append((null, null.submitted))
        self.ops.append((fn, deps))
        self.submitted += 1
        return self.submitted

    def run_until(self, mark: int) -> None:
        while self.done < mark:
            fn, deps = self.ops.popleft()
            for q, m in deps:
                q.run_until(m)
            fn()
            self.done += 1


class _StreamBase:
    fake = None  # set per stand-in

    def __init__(self, queue: _Queue):
        self._q = queue

    ptr = property(lambda self: self._q.ptr)
    name = property(lambda self: self._q.name)
    done = property(lambda self: self._q.done == self._q.submitted)

    def synchronize(self):
        self.fake.log.add("synchronize", self.name)
        self._q.run_until(self._q.submitted)

    def record(self, event=None):
        event = event if event is not None else self.fake.Event()
        event._q, event._mark = self._q, self._q.submitted
        self.fake.log.add("record", self.name)
        return event

    def wait_event(self, event):
        if event._q is not None:
            self._q.enqueue(lambda: None, [(event._q, event._mark)])

    def __enter__(self):
        self.fake.current.append(self)
        self.fake.log.add("enter", self.name)
        return self

    def __exit__(self, *exc):
        self.fake.current.pop()

    def __repr__(self):
        return f"<fake stream {self.name} ptr={self.ptr}>"


class _EventBase:
    fake = None

    def __init__(self, block=False, disable_timing=False, interprocess=False):
        self._q, self._mark = None, 0

    def record(self, stream=None):
        (stream if stream is not None else self.fake.get_current_stream()).record(self)

    def synchronize(self):
        self.fake.log.add("event_synchronize", None if self._q is None else self._q.name)
        if self._q is not None:
            self._q.run_until(self._mark)

    @property
    def done(self):
        return self._q is None or self._q.done >= self._mark

    def query(self):
        return self.done


# --- pinned memory ------------------------------------------------------------------------------


class _Block:
    def __init__(self, size: int):
        self.backing = np.zeros(size, np.uint8)
        self.ptr, self.size = _addr(self.backing), size


_POINTER_TYPES: dict = {}


def _pointer_type(n: int):
    if n not in _POINTER_TYPES:
        _POINTER_TYPES[n] = type("PinnedMemoryPointer", (ctypes.c_ubyte * n,), {"size": lambda self: self._size})
    return _POINTER_TYPES[n]


class PinnedMemoryPool:
    """CuPy's pinned pool: round up to 512 B, reuse a free block of exactly that size,
    give blocks back only on free_all_blocks()."""

    def __init__(self, fake):
        self.fake = fake
        self._free: dict = {}  # rounded size -> [block]
        self.blocks: dict = {}  # ptr -> block held by the pool (in use or free)
        self.in_use: dict = {}  # ptr -> requested bytes
        self.graveyard: list = []  # released blocks: kept mapped, filled with RELEASED

    def malloc(self, size: int):
        size = int(size)
        rounded = -(-max(size, 1) // ALLOCATION_UNIT) * ALLOCATION_UNIT
        free = self._free.get(rounded)
        if free:
            block = free.pop()
            self.fake.log.add("pinned_reuse", size, block.ptr)
        else:
            block = _Block(rounded)
            self.blocks[block.ptr] = block
            self.fake.log.add("alloc_pinned", size, block.ptr)
        self.in_use[block.ptr] = size
        mem = _pointer_type(max(size, 1)).from_address(block.ptr)
        mem.ptr, mem._size = block.ptr, size
        weakref.finalize(mem, self._back_to_pool, block)
        return mem

    def _back_to_pool(self, block: _Block) -> None:
        self.in_use.pop(block.ptr, None)
        self._free.setdefault(block.size, []).append(block)
        self.fake.log.add("pinned_free", block.ptr)

    def free_all_blocks(self) -> None:
        self.fake.prune_watch_list()
        for blocks in self._free.values():
            for block in blocks:
                del self.blocks[block.ptr]
                block.backing[...] = RELEASED
                self.graveyard.append(block)
                self.fake.log.add("pinned_release", block.ptr)
        self._free.clear()

    def n_free_blocks(self) -> int:
        return sum(len(v) for v in self._free.values())

    def total_bytes(self) -> int:
        """What the pool holds pinned: blocks in use plus free blocks kept for reuse."""
        return sum(b.size for b in self.blocks.values())

    def used_bytes(self) -> int:
        return sum(self.blocks[p].size for p in self.in_use)

    def contains(self, ptr: int) -> bool:
        return any(b.ptr <= ptr < b.ptr + b.size for b in self.blocks.values())


# --- device arrays --------------------------------------------------------------------------


class FakeDeviceArray:
    """``_h`` is the "device memory" (a host numpy array); reports (kDLCUDA, 0)."""

    fake = None

    def __init__(self, host: np.ndarray):
        self._h = host

    shape = property(lambda self: self._h.shape)
    dtype = property(lambda self: self._h.dtype)
    size = property(lambda self: self._h.size)
    nbytes = property(lambda self: self._h.nbytes)
    ndim = property(lambda self: self._h.ndim)
    strides = property(lambda self: self._h.strides)
    flags = property(lambda self: self._h.flags)
    data = property(lambda self: types.SimpleNamespace(ptr=_addr(self._h)))

    def __len__(self):
        return len(self._h)

    def __getitem__(self, index):
        return type(self)(self._h[index])  # a view, as on a device

    def view(self, dtype):
        return type(self)(self._h.view(dtype))

    def reshape(self, *shape):
        return type(self)(self._h.reshape(*shape))

    def __dlpack_device__(self):
        return (2, 0)

    @property
    def __cuda_array_interface__(self):
        return {"shape": self.shape, "typestr": self.dtype.str, "data": (_addr(self._h), False), "version": 3,
                "strides": None if self._h.flags.c_contiguous else self.strides, "stream": 1}

    def set(self, arr, stream=None):
        fake = self.fake
        if not isinstance(arr, np.ndarray):
            raise TypeError("Only numpy.ndarray can be set to cupy.ndarray")
        if self.dtype != arr.dtype:
            raise TypeError(f"{arr.dtype} array cannot be set to {self.dtype} array")
        if self.shape != arr.shape:
            raise ValueError(f"Shape mismatch. Old shape: {self.shape}, new shape: {arr.shape}")
        if not self._h.flags.c_contiguous:
            raise RuntimeError("Cannot set to non-contiguous array")
        fake.transfer_check()
        stream = stream if stream is not None else fake.get_current_stream()
        arr = np.ascontiguousarray(arr)
        fake.log.add("set", stream.name, id(arr), _addr(arr))
        src = fake.dma_source(arr)
        dst = self._h.reshape(-1).view(np.uint8)
        stream._q.enqueue(lambda: np.copyto(dst, src()))

    def get(self, stream=None, order="C", out=None, blocking=True):
        fake = self.fake
        stream = stream if stream is not None else fake.get_current_stream()
        if out is None:
            out = np.empty(self.shape, self.dtype)
        elif out.shape != self.shape or out.dtype != self.dtype or not out.flags.c_contiguous:
            raise ValueError("out must be a C-contiguous array of the same shape and dtype")
        fake.log.add("get", _addr(out), stream.name)
        src = np.ascontiguousarray(self._h).reshape(-1).view(np.uint8)
        dst = fake.dma_target(out)
        stream._q.enqueue(lambda: np.copyto(dst(), src))
        if blocking:
            fake.log.add("get_synchronize", stream.name)
            stream._q.run_until(stream._q.submitted)
        return out

    # the one kernel the availability check launches
    def __mul__(self, k):
        q = self.fake.get_current_stream()._q
        out = type(self)(np.empty_like(self._h))
        q.enqueue(lambda: np.multiply(self._h, k, out=out._h))
        return out

    def sum(self):
        q = self.fake.get_current_stream()._q
        out = type(self)(np.zeros((), self.dtype))
        q.enqueue(lambda: out._h.__setitem__((), self._h.sum()))
        return out

    def __int__(self):
        return int(self.get())


# --- the module ----------------------------------------------------------------------------------


def make(fail_after: int | None = None, device_count: int = 1, kernel_error: str | None = None):
    """A fresh stand-in `cupy` module (with ``mod.cupyx``) and its log.
    fail_after=k: the (k+1)-th host->device transfer raises MemoryError.
    kernel_error: a device is counted, but launching a kernel raises RuntimeError(kernel_error)."""
    mod = types.ModuleType("cupy")
    mod.__version__ = "14.2.0-fake"
    mod.log = log = Log()
    handles = itertools.count(0x1000, 0x10)
    mod.queues = {}
    mod.null_queue = _Queue(mod, "null", 0, blocking=True, legacy=True)
    mod.queues[0] = mod.null_queue
    mod.current = []
    mod.watch_list = []
    mod.pool = pool = PinnedMemoryPool(mod)
    mod.host_registered = {}  # ptr -> nbytes

    class Stream(_StreamBase):
        fake = mod

        def __init__(self, null=False, non_blocking=False, ptds=False):
            if null:
                super().__init__(mod.null_queue)
                return
            ptr = next(handles)
            q = _Queue(mod, "user", ptr, blocking=not non_blocking)
            mod.queues[ptr] = q
            super().__init__(q)

    class ExternalStream(_StreamBase):
        fake = mod

        def __init__(self, ptr, device_id=-1):
            ptr = int(ptr)
            if ptr not in mod.queues:
                mod.queues[ptr] = _Queue(mod, f"external:{ptr:#x}", ptr, blocking=True)
            super().__init__(mod.queues[ptr])
            mod.log.add("external_stream", ptr)

    class Event(_EventBase):
        fake = mod

    class DeviceArray(FakeDeviceArray):
        fake = mod

    null = Stream(null=True)
    Stream.null = null
    mod.Event = Event

    def get_current_stream():
        return mod.current[-1] if mod.current else null

    mod.get_current_stream = get_current_stream

    def transfer_check():
        if fail_after is not None and log.count("asarray") + log.count("set") >= fail_after:
            raise MemoryError("fake out of device memory")

    mod.transfer_check = transfer_check

    def is_memory_pinned(ptr):
        ptr = int(ptr)
        return pool.contains(ptr) or any(p <= ptr < p + n for p, n in mod.host_registered.items())

    def dma_source(arr: np.ndarray):
        """What a copy from ``arr`` reads when it runs: pinned memory by raw address (a DMA),
        pageable memory through a reference (conservative: read at run time too)."""
        flat = arr.reshape(-1).view(np.uint8)
        if arr.nbytes and is_memory_pinned(_addr(arr)):
            address, n = _addr(arr), arr.nbytes
            return lambda: _raw(address, n)
        return lambda: flat

    def dma_target(out: np.ndarray):
        if out.nbytes and is_memory_pinned(_addr(out)):
            address, n = _addr(out), out.nbytes
            return lambda: _raw(address, n)
        flat = out.reshape(-1).view(np.uint8)
        return lambda: flat

    mod.dma_source, mod.dma_target = dma_source, dma_target

    def prune_watch_list():
        mod.watch_list[:] = [(e, o) for e, o in mod.watch_list if not e.done]

    def add_to_watch_list(event, obj):
        prune_watch_list()
        mod.watch_list.append((event, obj))

    mod.prune_watch_list = prune_watch_list

    def empty(shape, dtype=np.float64):
        log.add("empty", get_current_stream().name)
        dtype = np.dtype(dtype)
        shape = (int(shape),) if np.isscalar(shape) else tuple(int(n) for n in shape)
        memory = np.full(int(np.prod(shape, dtype=np.int64)) * dtype.itemsize, POISON, np.uint8)
        return DeviceArray(memory.view(dtype).reshape(shape))

    def _from_cai(obj):
        desc = obj.__cuda_array_interface__
        dtype = np.dtype(desc["typestr"])
        host = np.asarray(types.SimpleNamespace(__array_interface__={
            "shape": tuple(desc["shape"]), "typestr": dtype.str, "data": desc["data"], "version": 3,
            "strides": desc.get("strides")}))
        stream_ptr = desc.get("stream")
        if stream_ptr is not None and int(stream_ptr) in mod.queues:
            q = mod.queues[int(stream_ptr)]
            q.run_until(q.submitted)  # CAI v3 with a stream: CuPy synchronises it
        log.add("asarray_cai", stream_ptr)
        return DeviceArray(host)

    def asarray(a, dtype=None):
        if isinstance(a, FakeDeviceArray):
            return a
        try:
            has_cai = hasattr(a, "__cuda_array_interface__")
        except Exception:
            has_cai = False
        if has_cai:
            return _from_cai(a)
        transfer_check()
        stream = get_current_stream()
        a_cpu = np.ascontiguousarray(np.asarray(a, dtype=dtype))
        log.add("asarray", stream.name, id(a))
        out = DeviceArray(np.empty(a_cpu.shape, a_cpu.dtype))
        if a_cpu.size == 0:
            return out
        dst = out._h.reshape(-1).view(np.uint8)
        if is_memory_pinned(_addr(a_cpu)):  # copied directly, source kept alive until done
            src = dma_source(a_cpu)
            stream._q.enqueue(lambda: np.copyto(dst, src()))
            add_to_watch_list(stream.record(), a_cpu)
        else:  # staged through a pooled pinned buffer, filled now
            mem = pool.malloc(a_cpu.nbytes)
            staged = np.frombuffer(mem, np.uint8, a_cpu.nbytes)
            staged[...] = a_cpu.reshape(-1).view(np.uint8)
            src = dma_source(staged)
            del staged
            stream._q.enqueue(lambda: np.copyto(dst, src()))
            add_to_watch_list(stream.record(), mem)
        return out

    def from_dlpack(x):
        device = tuple(int(v) for v in x.__dlpack_device__())
        if device[0] != 2:
            raise TypeError(f"CuPy adopts device arrays only; this DLPack producer is on device type {device[0]}")
        stream = get_current_stream()
        x.__dlpack__(stream=stream.ptr or 1)  # the consumer's stream, as CuPy passes it
        log.add("from_dlpack", stream.ptr or 1)
        if isinstance(x, FakeDeviceArray):
            return x
        return DeviceArray(x._fake_device_data)

    def ascontiguousarray(d):
        log.add("ascontiguousarray")
        return DeviceArray(np.ascontiguousarray(d._h))

    def asnumpy(d, stream=None, out=None, blocking=True):
        return d.get(stream=stream, out=out, blocking=blocking) if isinstance(d, FakeDeviceArray) else np.asarray(d)

    def arange(n, dtype=np.int64):
        if kernel_error is not None:
            raise RuntimeError(kernel_error)
        out = DeviceArray(np.empty(n, dtype))
        get_current_stream()._q.enqueue(lambda: out._h.__setitem__(slice(None), np.arange(n, dtype=dtype)))
        return out

    def host_register(ptr, size, flags=0):
        mod.host_registered[int(ptr)] = int(size)

    def host_unregister(ptr):
        mod.host_registered.pop(int(ptr), None)

    device_pool = types.SimpleNamespace(free_all_blocks=lambda: None)
    mod.ndarray = DeviceArray
    mod.asarray = mod.array = asarray
    mod.empty = empty
    mod.arange = arange
    mod.asnumpy = asnumpy
    mod.from_dlpack = from_dlpack
    mod.ascontiguousarray = ascontiguousarray
    mod.uint8, mod.int32, mod.int64, mod.float32, mod.float64 = np.uint8, np.int32, np.int64, np.float32, np.float64
    mod.get_default_pinned_memory_pool = lambda: pool
    mod.get_default_memory_pool = lambda: device_pool
    mod.device = [0]  # the current device (cupy.cuda.Device switches it)

    class Device:
        def __init__(self, device=None):
            self.id = mod.device[0] if device is None else int(device)
            if not 0 <= self.id < device_count:
                raise ValueError(f"fake cupy: no device {self.id}")

        def __enter__(self):
            self._previous = mod.device[0]
            mod.device[0] = self.id
            return self

        def __exit__(self, *exc):
            mod.device[0] = self._previous

        def use(self):
            mod.device[0] = self.id

    mod.cuda = types.SimpleNamespace(
        Device=Device,
        Stream=Stream,
        ExternalStream=ExternalStream,
        Event=Event,
        get_current_stream=get_current_stream,
        alloc_pinned_memory=pool.malloc,
        pinned_memory=types.SimpleNamespace(is_memory_pinned=is_memory_pinned, _add_to_watch_list=add_to_watch_list),
        runtime=types.SimpleNamespace(getDeviceCount=lambda: device_count, getDevice=lambda: mod.device[0], is_hip=False,
                                      hostRegister=host_register, hostUnregister=host_unregister),
    )

    cupyx = types.ModuleType("cupyx")

    def empty_pinned(shape, dtype=np.float64):
        dtype = np.dtype(dtype)
        shape = (shape,) if np.isscalar(shape) else tuple(shape)
        n = int(np.prod(shape, dtype=np.int64))
        mem = pool.malloc(n * dtype.itemsize)
        return np.frombuffer(mem, dtype, n).reshape(shape)

    cupyx.empty_pinned = empty_pinned
    mod.cupyx = cupyx
    return mod


def install(monkeypatch, **kwargs):
    """make(**kwargs), installed as `cupy` and `cupyx` for the duration of a test."""
    import sys

    mod = make(**kwargs)
    monkeypatch.setitem(sys.modules, "cupy", mod)
    monkeypatch.setitem(sys.modules, "cupyx", mod.cupyx)
    return mod
