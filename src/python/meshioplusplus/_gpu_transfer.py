"""GPU hand-off: the CuPy transfer (to_cupy) and the way back (from_cupy).

Specification: docs/gpu.md ("CuPy: the device transfer", "Pinned
staging"); CuPy's ndarray.set / get and cupy.asarray (https://docs.cupy.dev/en/stable/
reference/generated/cupy.ndarray.html), DLPack's ``__dlpack__(stream=...)``
(https://dmlc.github.io/dlpack/latest/python_spec.html), the CUDA Array Interface v3
(https://numba.readthedocs.io/en/stable/cuda/cuda_array_interface.html).

The contract both directions keep, on every path and stream: when ``to_cupy`` returns it
has finished reading the mesh's host arrays (each was either copied to the device already
or copied into staging memory), so the caller may write to them or free them at once; the
device arrays are ready once the payload's stream is synchronised. ``from_cupy`` returns
only when its copies have landed. Every note is warned before anything is copied.
"""
from __future__ import annotations

from contextlib import nullcontext as _nullcontext

import numpy as np

from ._exceptions import InteropError
from ._gpu_payload import KDL_CPU, KDL_CUDA_HOST, KDL_ROCM_HOST, DevicePayload, _to_device_payload
from ._gpu_pinned import STAGING_ALIGN, _pinned_empty, _pinned_ranges, _PinnedAllocator, page_locked, staging_ring
from ._gpu_runtime import _device_id, _require_cupy, _require_device, as_cupy_stream, cuda_array_interface, dlpack_device, refused
from ._policy import Ledger, warn_notes
from ._mesh import Mesh
from ._regions import Region

HOST_DEVICE_TYPES = (KDL_CPU, KDL_CUDA_HOST, KDL_ROCM_HOST)  # host-readable memory: numpy adopts it in place


# --- host -> device ----------------------------------------------------------------------------------


class _Mover:
    """One host->device transfer per array, on one stream. Each array takes one path:

    direct   its memory is page-locked already (read under ``pinned_reads()``, returned by
             ``from_cupy(pinned=True)``, ``cupyx.empty_pinned``, a registered range): one
             copy straight from it; ``to_cupy`` waits for these copies before returning
    staged   ``pinned=True``, pageable memory: copied piecewise through the bounded staging
             ring (two fixed pinned chunks, double-buffered)
    asarray  ``pinned=False``: ``cupy.asarray``, what a user writes (CuPy itself stages
             pageable input through its pinned pool and copies page-locked input directly;
             ``to_cupy`` waits for the latter before returning)
    """

    def __init__(self, cupy, pinned: bool, stream, current: bool):
        self.cp = cupy
        self.pinned = pinned
        self.stream = stream
        # Entering a stream's context costs a little per array; the current stream needs none.
        self.scope = _nullcontext() if current else stream
        self.paths: dict = {}
        self.refs: list = []
        self.count = 0
        self.nbytes = 0
        self.chunks = 0

    def move_all(self, items: list) -> list:
        """[(label, host array)] -> [device array], in order."""
        ranges = _pinned_ranges()
        locked = [a.size > 0 and page_locked(self.cp, a, ranges) for _, a in items]
        out: list = [None] * len(items)
        self.count, self.nbytes = len(items), sum(a.nbytes for _, a in items)
        if not self.pinned:
            for i, (label, a) in enumerate(items):
                with self.scope:
                    out[i] = self.cp.asarray(a)
                self.paths[label] = "asarray, page-locked source" if locked[i] else "asarray"
            if any(locked):  # CuPy copies page-locked input in place: read before we return
                self.stream.record().synchronize()
            return out
        # Direct copies first: the DMA engine drains them while the host fills the staging ring.
        for i, (label, a) in enumerate(items):
            if a.size == 0 or locked[i]:
                with self.scope:
                    out[i] = self.cp.empty(a.shape, dtype=a.dtype)
                if a.size:
                    out[i].set(a, stream=self.stream)
                self.paths[label] = "direct" if a.size else "empty"
        direct_read = self.stream.record() if any(locked) else None
        staged = [i for i, (_, a) in enumerate(items) if a.size and not locked[i]]
        if staged:
            self._staged(items, staged, out)
        if direct_read is not None:
            direct_read.synchronize()  # the caller may touch the direct sources once we return
        return out

    def _staged(self, items: list, indices: list, out: list) -> None:
        ring = staging_ring(self.cp, int(self.cp.cuda.runtime.getDevice()))
        with ring.lock:
            used: dict = {}
            pending: list = []
            index, chunk = ring.acquire()
            pos = 0

            def flush():
                for dst, src in pending:
                    dst.set(src, stream=self.stream)
                ring.release(index, self.stream)
                used[index] = chunk
                pending.clear()
                self.chunks += 1

            for i in indices:
                label, a = items[i]
                with self.scope:
                    buf = self.cp.empty(a.nbytes, dtype=np.uint8)
                out[i] = buf.view(a.dtype).reshape(a.shape)
                src = a.reshape(-1).view(np.uint8)
                off = 0
                while off < a.nbytes:
                    if pos >= len(chunk):
                        flush()
                        index, chunk = ring.acquire()
                        pos = 0
                    take = min(len(chunk) - pos, a.nbytes - off)
                    chunk[pos:pos + take] = src[off:off + take]  # the one host copy, into page-locked memory
                    pending.append((buf[off:off + take], chunk[pos:pos + take]))
                    off += take
                    pos = min(len(chunk), pos + take + (-(pos + take)) % STAGING_ALIGN)
                self.paths[label] = "staged"
            flush()
            self.refs = list(used.values())

    def derived(self, async_: bool) -> tuple:
        line = f"host->device: {self.count} arrays, {self.nbytes} bytes, one transfer each"
        paths = list(self.paths.values())
        if self.pinned:
            line += (f"; {paths.count('direct')} direct from page-locked memory (no staging copy), {paths.count('staged')} "
                     f"staged through the pinned staging ring in {self.chunks} chunk fills")
        elif "asarray, page-locked source" in paths:
            line += f"; {paths.count('asarray, page-locked source')} from page-locked memory, copied in place by cupy.asarray"
        if async_:
            line += " (enqueued on the caller's stream)"
        facts = (line,)
        if self.pinned:
            facts += tuple(f"host->device path of {label}: {path}" for label, path in self.paths.items())
        return facts


def to_cupy(mesh, *, float32: bool = False, int32: bool = False, pinned: bool = False, stream=None, device=None,
            comm=None) -> DevicePayload:
    """Move ``mesh`` to the current CUDA device: the payload of ``to_dlpack`` with every
    array (``field_data`` excepted) crossing the bus in one host->device transfer.

    The transfer is a copy by definition, so there is no ``zero_copy_only`` here; the
    returned CuPy arrays speak DLPack and ``__cuda_array_interface__``, so RAPIDS, Numba
    and torch adopt them on-device without further copies. ``float32`` / ``int32`` as in
    ``to_dlpack`` (noted casts on the host, warned before anything moves).

    ``pinned=False``: ``cupy.asarray`` per array (CuPy 14 stages pageable input through a
    pinned buffer from its pool, one per array size, and copies page-locked input
    directly). ``pinned=True``: arrays already in page-locked memory (``pinned_reads()``,
    ``from_cupy(pinned=True)``, ``cupyx.empty_pinned``, registered memory - CuPy is asked,
    not only meshio++'s registry) are copied straight from it ("direct"); all others go
    through a staging ring of two fixed pinned chunks ("staged"), so the pinned memory used
    stays bounded whatever the mesh sizes. ``derived`` records every array's path.

    ``stream``: a cupy.cuda.Stream, a stream of another library (torch.cuda.Stream, anything
    with ``__cuda_stream__``) or a raw cudaStream_t handle (wrapped in
    ``cupy.cuda.ExternalStream``); validated before anything is built. None: the current
    stream, synchronised before returning. With a stream the copies are enqueued on it;
    ``payload.ready`` is an event recorded after them and ``payload.synchronize()`` (or
    ``with payload:``) waits for it. Synchronise before using the arrays from another
    stream or the host. Either way, when ``to_cupy`` returns it has finished reading the
    mesh's arrays: they may be changed or freed at once, and dropping the payload early is
    safe (staging chunks are guarded by events, not by the payload).

    ``device``: the CUDA device to move to (the current one is restored afterwards). None:
    in an MPI job, the rank's device, node-local rank modulo the node's devices (the rank
    from ``comm``'s ``MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)`` when an mpi4py ``comm`` is
    given, else from the launcher's OMPI_COMM_WORLD_LOCAL_RANK / MPI_LOCALRANKID / ...;
    docs/parallel.md); outside one, or with a ``stream`` (whose device counts), the current
    device.
    """
    cp = _require_device("to_cupy")
    chosen = rank_device(cp, device, comm, stream)
    if chosen is None:
        return _to_cupy(cp, mesh, float32, int32, pinned, stream)
    with cp.cuda.Device(chosen):
        return _to_cupy(cp, mesh, float32, int32, pinned, stream)


def rank_device(cp, device, comm, stream):
    """The device to_cupy moves to: ``device`` (checked), else the rank's by its node-local
    rank in an MPI job, else None (the current device)."""
    count = int(cp.cuda.runtime.getDeviceCount())
    if device is not None:
        if isinstance(device, bool) or not isinstance(device, int) or not 0 <= device < count:
            raise ValueError(f"to_cupy: device={device!r} is not a device of this node (0 to {count - 1})")
        return device
    if stream is not None:
        return None
    from ._parallel import local_rank

    local = local_rank(comm)
    return None if local is None else local % count


def _to_cupy(cp, mesh, float32, int32, pinned, stream) -> DevicePayload:
    user_stream = as_cupy_stream(cp, stream, "to_cupy")
    host = _to_device_payload(mesh, float32=float32, int32=int32, operation="to_cupy")
    warn_notes("to_cupy", host.notes)  # before anything moves: under -W error nothing is wasted
    target = user_stream if user_stream is not None else cp.cuda.get_current_stream()
    move = _Mover(cp, pinned, target, current=user_stream is None)
    try:
        moved = iter(move.move_all(list(host.arrays())))
    except BaseException:
        target.synchronize()  # nothing is left reading a buffer the caller gets back
        raise
    points = next(moved)
    cells = tuple((t, next(moved)) for t, _ in host.cells)
    bases = next(moved)
    point_data = {k: next(moved) for k in host.point_data}
    cell_data = {k: tuple(next(moved) for _ in parts) for k, parts in host.cell_data.items()}
    regions = tuple(r._replace(entries=next(moved)) for r in host.regions)
    if user_stream is None:
        target.synchronize()
        refs, ready = [], None
    else:
        refs, ready = move.refs, target.record()
    return DevicePayload(
        points=points,
        cells=cells,
        block_bases=bases,
        point_data=point_data,
        cell_data=cell_data,
        field_data=host.field_data,
        regions=regions,
        device=_device_id(cp),
        dropped=host.dropped,
        shared={label: False for label in host.shared},  # no device array is a mesh buffer
        notes=host.notes,
        derived=host.derived + move.derived(user_stream is not None),
        refs=refs,
        stream=user_stream,
        ready=ready,
    )


# --- device -> host ---------------------------------------------------------------------------------


class _Back:
    """What from_cupy needs across arrays: options, CuPy (imported on first need), the
    pinned allocator."""

    def __init__(self, pinned: bool, copy: bool):
        self.pinned, self.copy = pinned, copy
        self._cupy = None
        self._allocator = None

    @property
    def cupy(self):
        if self._cupy is None:
            self._cupy = _require_cupy()
        return self._cupy

    @property
    def allocator(self):
        if self._allocator is None:
            self._allocator = _PinnedAllocator(self.cupy)
        return self._allocator


def _adopt_host(label: str, a):
    try:
        return np.from_dlpack(a)  # adopted in place (zero-copy)
    except (BufferError, RuntimeError, TypeError, ValueError) as exc:
        raise InteropError(refused(label, "from_cupy", "a host DLPack export", exc)) from exc


def _on_device(cp, label: str, a, device):
    """A foreign device array as a CuPy array, adopted on device (no copy). DLPack first:
    ``cupy.from_dlpack`` passes CuPy's current stream to ``__dlpack__``, so the producer
    orders its pending work before ours; ``__cuda_array_interface__`` (torch's carries no
    stream) only for producers without DLPack."""
    if isinstance(a, cp.ndarray):
        return a, ""
    if device is not None and callable(getattr(type(a), "__dlpack__", None)):
        try:
            return cp.from_dlpack(a), ", adopted by CuPy on device via DLPack"
        except (BufferError, RuntimeError, ValueError) as exc:
            raise InteropError(refused(label, "from_cupy", "a DLPack export", exc)) from exc
    try:
        return cp.asarray(a), ", adopted by CuPy on device via __cuda_array_interface__"
    except (RuntimeError, ValueError) as exc:
        raise InteropError(refused(label, "from_cupy", "__cuda_array_interface__", exc)) from exc


def _plan(ledger: Ledger, label: str, a, back: _Back):
    """Decide how one array comes back and note it; returns a thunk that does it. Nothing
    is copied here, so every note can be warned before any copy runs."""
    if a is None:
        return lambda: None
    if isinstance(a, np.ndarray):
        if back.copy:
            ledger.copy_note(label, "copied on request (copy=True)")
            return lambda: np.array(a, copy=True)
        return lambda: a
    device = dlpack_device(a)
    if device is not None and device[0] in HOST_DEVICE_TYPES:
        if back.copy:
            ledger.copy_note(label, "copied on request (copy=True)")
            return lambda: np.array(_adopt_host(label, a), copy=True)
        return lambda: _adopt_host(label, a)
    if device is None and cuda_array_interface(a, label, "from_cupy") is None:
        if isinstance(a, (list, tuple)) or np.isscalar(a):
            ledger.copy_note(label, f"a {type(a).__name__} converted to an array")
        return lambda: np.asarray(a)
    get = getattr(a, "get", None)
    if callable(get) and not back.pinned:  # CuPy's own device->host copy
        ledger.copy_note(label, "device->host copy (the array's own .get())")
        return lambda: np.asarray(get())
    # Adopt on device now (zero-copy, so nothing is wasted if a warning then raises); a
    # producer refusing its protocol fails here, before any note is warned.
    cp = back.cupy
    d, how = _on_device(cp, label, a, device)
    if back.pinned:
        ledger.copy_note(label, f"device->host copy into pinned host memory{how}")
        return lambda: _to_pinned_host(cp, d, back)
    ledger.copy_note(label, f"device->host copy ({how.lstrip(', ')}, copied back once)")
    return lambda: cp.asnumpy(d)


def _to_pinned_host(cp, d, back: _Back) -> np.ndarray:
    """One device array (a CuPy array) back into a pinned host buffer that becomes the
    Mesh's own array: allocated through a _PinnedAllocator (freed through CuPy's pinned
    pool when numpy drops it), filled by one device->host copy, waited for."""
    if not d.flags.c_contiguous:
        d = cp.ascontiguousarray(d)  # on the device; the host buffer is always C-contiguous
    out = _pinned_empty(back.allocator, d.shape, d.dtype)
    if d.size:
        d.get(out=out)  # one DMA into page-locked memory; blocking
    return out


def _pairs(cells):
    for item in cells:
        if hasattr(item, "type") and hasattr(item, "data"):
            yield item.type, item.data
        else:
            cell_type, data = item
            yield cell_type, data


def _region_parts(r):
    if hasattr(r, "entries") and hasattr(r, "kind"):  # DeviceRegion, Region, or alike
        return r.name, r.kind, r.dim, r.tag, r.entries
    name, kind, dim, tag, entries = r
    return name, kind, dim, tag, entries


def from_cupy(payload, *, pinned: bool = False, copy: bool = False) -> Mesh:
    """An ordinary Mesh from a ``DevicePayload`` or any object with the same attributes
    (``points``, ``cells``; optionally ``point_data``, ``cell_data``, ``field_data``,
    ``regions``). Each array may be

    - numpy: used as it is (read-only stays read-only);
    - a host DLPack producer - kDLCPU (a torch CPU tensor, a JAX host array) or pinned host
      memory, kDLCUDAHost (torch ``pin_memory()``, JAX pinned host arrays): adopted in place
      through ``np.from_dlpack`` (zero-copy, no CuPy needed; the array is read-only when the
      producer or numpy 1.x says so);
    - a device array: one noted device->host copy. Its own ``.get()`` when it has one (CuPy);
      otherwise CuPy adopts it on device without a copy - through DLPack when it speaks it
      (the producer orders its pending work on CuPy's stream), else through
      ``__cuda_array_interface__`` (Numba, a HOOMD-style CAI-only buffer) - and copies it
      back once. A torch tensor that requires grad, or an array sharded over several
      devices, raises InteropError saying what to do.

    ``copy=True``: host inputs are copied into arrays the Mesh owns (noted) instead of
    adopted. Use it for producers whose buffers are valid only for a while - HOOMD-blue's
    local snapshots are valid only inside their context manager - or to get writeable
    arrays from read-only producers. Device inputs are copies anyway.

    ``pinned=True``: each device array is copied into a page-locked host buffer from CuPy's
    pinned pool instead of pageable memory, so the copy runs at pinned bus speed. Those
    buffers are the returned Mesh's own arrays, freed through the pinned pool when numpy
    drops them; ``to_cupy(..., pinned=True)`` sends them back without staging.

    A payload with a pending stream is synchronised first. Every note is warned before any
    copy runs; the Mesh is returned once every copy has landed.
    """
    sync = getattr(payload, "synchronize", None)
    if callable(sync):
        sync()
    ledger = Ledger("from_cupy")
    back = _Back(bool(pinned), bool(copy))
    points = _plan(ledger, "points", payload.points, back)
    cells = [(t, _plan(ledger, f"cells[{i}]", c, back)) for i, (t, c) in enumerate(_pairs(payload.cells))]
    point_data = {k: _plan(ledger, f"point_data[{k!r}]", a, back) for k, a in (getattr(payload, "point_data", None) or {}).items()}
    cell_data = {
        k: [_plan(ledger, f"cell_data[{k!r}][{i}]", a, back) for i, a in enumerate(parts)]
        for k, parts in (getattr(payload, "cell_data", None) or {}).items()
    }
    regions = []
    for r in getattr(payload, "regions", None) or ():
        name, kind, dim, tag, entries = _region_parts(r)
        regions.append((name, kind, dim, tag, _plan(ledger, f"regions[{name!r}]", entries, back)))
    field_data = dict(getattr(payload, "field_data", None) or {})
    ledger.warn(stacklevel=3)  # before any copy: under -W error nothing is wasted
    return Mesh(
        points(),
        [(t, thunk()) for t, thunk in cells],
        point_data={k: thunk() for k, thunk in point_data.items()},
        cell_data={k: [thunk() for thunk in parts] for k, parts in cell_data.items()},
        field_data=field_data,
        regions=[Region(name, kind, thunk(), dim, tag) for name, kind, dim, tag, thunk in regions],
    )
