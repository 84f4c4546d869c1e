"""GPU hand-off: DLPack export, CuPy transfer and return, regions on device.

Specification: shared/seeds/gpu-handoff.txt ("GPU handoff (DLPack / CuPy)").

Split the way _interop.py is split. The bulk is the pure builder ``_to_device_payload``:
it imports no third-party library, mutates nothing and returns plain numpy in a frozen
``DevicePayload``, so everything subtle here is tested on machines with no GPU.
``to_dlpack`` is that payload on the host; ``to_cupy`` / ``from_cupy`` are thin gated
wrappers. CuPy is imported lazily, by name, only inside the functions that need it.

Words, as the spec fixes them: a host->device move is always a transfer across the bus.
"Zero-copy" is used here only where it is literally true: host buffers shared into a
``to_dlpack`` payload (the interop layer's ``zero_copy_only`` contract), host DLPack
exporters adopted by ``np.from_dlpack``, consumers (RAPIDS, Numba, torch) adopting the
returned CuPy arrays on device, and CuPy adopting a foreign device array in place before
its one copy back.

Beyond the spec, after HOOMD-blue (whose GPU buffers are valid only inside a context
manager): nothing handed out here ever dangles. Every device array owns its memory; a
payload is also a context manager whose exit synchronises its stream and releases the
pinned staging buffers kept on ``refs`` (``payload.synchronize()`` does the same).

Phase 2 (the spec's last section, issue 7): ``pinned_reads()`` installs a CuPy pinned-pool
allocator through ``mio.use_allocator`` so readers fill page-locked buffers;
``to_cupy(pinned=True)`` sends arrays lying in such buffers directly and stages the rest
through one pooled pinned buffer; ``from_cupy(pinned=True)`` returns into pinned buffers
owned by the returned Mesh. Pinned-ness never propagates through copies.
"""
from __future__ import annotations

import bisect
import dataclasses
from contextlib import nullcontext as _nullcontext
from typing import Any, NamedTuple

import numpy as np

from ._exceptions import InteropError
from ._policy import Ledger, cast, checked_int32, renumber_cells, share
from ._mesh import CellBlock, Mesh, _is_polyhedron
from ._regions import Region, block_bases

# DLPack device types (dlpack.h, DLDeviceType).
KDL_CPU = 1
KDL_CUDA = 2
KDL_CUDA_HOST = 3
KDL_ROCM = 10
HOST_DEVICE = (KDL_CPU, 0)

INSTALL_RECIPE = """\
CuPy is not importable ({reason}). meshio++ does not install it for you: CuPy wheels are
built per CUDA toolkit, so install the one that matches yours:

  Your toolkit   Install
  CUDA 13.x      pip install cupy-cuda13x
  CUDA 12.x      pip install cupy-cuda12x
  CUDA 11.x      pip install cupy-cuda11x
  ROCm           the matching cupy-rocm-* wheel (untested by meshio++)

(nvidia-smi shows the CUDA version your driver supports.) mio.to_dlpack and the host
paths of mio.from_cupy need no CuPy."""


class DeviceRegion(NamedTuple):
    """One region on the payload: index arrays (point / cell entries, or (cell, facet)
    pairs for sides) in the payload's own block-major numbering."""

    name: str
    kind: str
    dim: int
    tag: int
    entries: Any


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class DevicePayload:
    """A mesh's arrays, on the host (``to_dlpack``) or on a device (``to_cupy``).

    Fields (the spec's table): ``points``; ``cells`` - one (type, connectivity) pair per
    rectangular block; ``block_bases`` - prefix sums over the payload's own blocks, from
    ``_regions.block_bases``; ``point_data`` (name -> array); ``cell_data`` (name -> one
    array per payload block, a tuple); ``field_data`` - host passthrough, never transferred;
    ``regions`` - ``DeviceRegion(name, kind, dim, tag, entries)``; ``device`` - the DLPack
    (device_type, device_id): (1, 0) host, (2, i) CUDA; ``dropped`` - what could not be
    carried; ``shared`` - mesh array label -> whether the payload holds that very buffer;
    ``notes`` - every lossy or copying step (also warned); ``derived`` - data-model facts
    that are not losses (never warned); ``refs`` - pinned staging buffers an asynchronous
    transfer still reads from. ``stream`` is the caller's CUDA stream, or None.

    The dataclass is frozen (fields cannot be rebound); the point_data / cell_data dicts
    stay ordinary dicts so ``payload.point_data["T"] *= 2`` works on device arrays.
    """

    points: Any
    cells: tuple
    block_bases: Any
    point_data: dict
    cell_data: dict
    field_data: dict
    regions: tuple
    device: tuple
    dropped: tuple = ()
    shared: dict = dataclasses.field(default_factory=dict)
    notes: tuple = ()
    derived: tuple = ()
    refs: list = dataclasses.field(default_factory=list)
    stream: Any = None

    def synchronize(self) -> "DevicePayload":
        """Wait for this payload's stream (if any) and release the staging buffers on
        ``refs``. Safe to call any number of times; a host payload has nothing to wait for."""
        if self.stream is not None:
            self.stream.synchronize()
        self.refs.clear()
        return self

    def __enter__(self) -> "DevicePayload":
        return self

    def __exit__(self, *exc) -> None:
        # The arrays stay valid after the block (they own their memory); only the wait for
        # in-flight copies and the release of their staging buffers happen here.
        self.synchronize()

    def arrays(self):
        """(label, array) for every array the payload carries (field_data excluded)."""
        yield "points", self.points
        for i, (_, conn) in enumerate(self.cells):
            yield f"cells[{i}]", conn
        yield "block_bases", self.block_bases
        for name, a in self.point_data.items():
            yield f"point_data[{name!r}]", a
        for name, parts in self.cell_data.items():
            for i, a in enumerate(parts):
                yield f"cell_data[{name!r}][{i}]", a
        for r in self.regions:
            yield f"regions[{r.name!r}]", r.entries

    def __repr__(self):
        where = "host" if tuple(self.device) == HOST_DEVICE else f"device {tuple(self.device)}"
        blocks = ", ".join(f"{t}: {len(c)}" for t, c in self.cells) or "none"
        return (
            f"<meshio++ DevicePayload on {where}: {len(self.points)} points, cells ({blocks}), "
            f"{len(self.point_data)} point_data, {len(self.cell_data)} cell_data, {len(self.regions)} regions, "
            f"{len(self.dropped)} dropped, {len(self.notes)} notes, {len(self.refs)} staging refs>"
        )


# --- the pure builder -------------------------------------------------------------------


def _is_ragged(block: CellBlock) -> bool:
    return _is_polyhedron(block.type) or not isinstance(block.data, np.ndarray)


def _float32(ledger: Ledger, label: str, a):
    return cast(ledger, label, a, np.float32) if a is not None and a.dtype.kind == "f" else a


def _to_device_payload(mesh, *, float32: bool = False, int32: bool = False, zero_copy_only: bool = False,
                       operation: str = "to_dlpack") -> DevicePayload:
    """Build the host payload of ``mesh``: plain numpy, nothing imported, nothing mutated.

    Canonical float64/int64 C-contiguous arrays are shared as-is (``shared[label]`` True);
    everything the data policy of _policy.share copies or drops is noted; the float32 /
    int32 opt-ins are noted casts (int32 range-checked); ragged polygon/polyhedron blocks
    are dropped with a note and listed in ``dropped``; cell/side region entries are
    renumbered into the payload's block-major order when a dropped block shifts them (a
    derived fact), entries inside dropped blocks removed with a note. Warns nothing: the
    public wrappers surface the notes.
    """
    if zero_copy_only and (float32 or int32):
        opts = " and ".join(n for n, on in (("float32=True", float32), ("int32=True", int32)) if on)
        raise InteropError(f"{operation}: {opts} with zero_copy_only=True: an explicit downcast is a copy by definition")
    ledger = Ledger(operation, zero_copy_only)
    dropped: list[str] = []

    points = share(ledger, "points", mesh.points)
    if points is None:
        raise InteropError(f"{operation}: points of dtype {np.asarray(mesh.points).dtype} cannot be handed over")
    if float32:
        points = _float32(ledger, "points", points)

    # Cell blocks: rectangular ones kept, ragged ones dropped.
    kept = np.zeros(len(mesh.cells), dtype=bool)
    cells = []
    for i, block in enumerate(mesh.cells):
        label = f"cells[{i}]"
        if _is_ragged(block):
            ledger.loss_note(f"{label} ({block.type}, {len(block)} cells)", "a ragged polygon/polyhedron block cannot be a DLPack tensor")
            dropped.append(f"{label} ({block.type})")
            continue
        conn = share(ledger, label, block.data)
        if conn is None or conn.dtype.kind not in "iu":
            raise InteropError(f"{operation}: {label} ({block.type}) connectivity must be integer, found dtype {block.data.dtype}")
        if int32:
            conn = checked_int32(ledger, label, conn)
        kept[i] = True
        cells.append((block.type, conn))

    bases64 = block_bases([c for _, c in cells])
    ledger.derive(f"block_bases: prefix sums over the payload's {len(cells)} blocks ({int(bases64[-1])} cells)")
    bases = bases64
    if int32:
        bases = checked_int32(ledger, "block_bases", bases64)
        ledger.shared.pop("block_bases", None)  # built here, not a mesh array

    point_data = {}
    for name, a in mesh.point_data.items():
        label = f"point_data[{name!r}]"
        out = share(ledger, label, a)
        if out is None:
            dropped.append(label)
            continue
        point_data[name] = _float32(ledger, label, out) if float32 else out

    cell_data = {}
    for name, parts in mesh.cell_data.items():
        outs = []
        for i, a in enumerate(parts):
            label = f"cell_data[{name!r}][{i}]"
            if not kept[i]:
                ledger.loss_note(label, f"its block cells[{i}] is ragged and was dropped")
                continue
            out = share(ledger, label, a)
            if out is None:
                break
            outs.append(_float32(ledger, label, out) if float32 else out)
        else:
            cell_data[name] = tuple(outs)
            continue
        # One block's array has no numeric form: the field cannot keep one array per block.
        ledger.loss_note(f"cell_data[{name!r}]", "a block's array has no numeric representation, so the whole field is left out")
        dropped.append(f"cell_data[{name!r}]")

    regions = []
    any_dropped = not kept.all()
    old_bases = block_bases(mesh.cells) if any_dropped else None
    for r in mesh.regions:
        label = f"regions[{r.name!r}]"
        entries = share(ledger, label, r.entries)
        if any_dropped and r.kind in ("cell", "side"):
            entries, removed, changed = renumber_cells(f"{operation}: {label}", entries, r.kind, old_bases, kept)
            if changed:
                ledger.shared[label] = False
                ledger.derive(f"{label} ({r.kind}) renumbered into the payload's block-major order after a ragged block was dropped")
            if removed:
                ledger.loss_note(f"{label}: {removed} entries", "they lie in dropped ragged blocks")
        if int32:
            entries = checked_int32(ledger, label, entries)
        regions.append(DeviceRegion(r.name, r.kind, r.dim, r.tag, entries))

    return DevicePayload(
        points=points,
        cells=tuple(cells),
        block_bases=bases,
        point_data=point_data,
        cell_data=cell_data,
        field_data=dict(mesh.field_data),
        regions=tuple(regions),
        device=HOST_DEVICE,
        dropped=tuple(dropped),
        shared=dict(ledger.shared),
        notes=tuple(ledger.notes),
        derived=tuple(ledger.derived),
    )


def _warn(operation: str, notes, stacklevel: int = 3) -> None:
    ledger = Ledger(operation)
    ledger.notes = list(notes)
    ledger.warn(stacklevel=stacklevel + 1)


# --- DLPack: the primary export ------------------------------------------------------------


def to_dlpack(mesh, *, float32: bool = False, int32: bool = False, zero_copy_only: bool = False) -> DevicePayload:
    """A host ``DevicePayload`` of ``mesh``: every array a numpy ndarray, which speaks
    ``__dlpack__`` / ``__dlpack_device__`` itself (reporting (kDLCPU, 0)), so hand any of
    them to ``np.from_dlpack``, ``torch.from_dlpack``, ``jax.dlpack``, ...

    Nothing is transferred. This is a host buffer-sharing export: canonical float64/int64
    arrays are shared as-is (zero-copy), anything that would copy is noted and warned, and
    ``zero_copy_only=True`` raises ``InteropError`` instead of copying. ``float32=True`` /
    ``int32=True`` are explicit, noted downcasts (int32 range-checked; out of range raises,
    naming the array); combining either with ``zero_copy_only`` raises at once.
    """
    payload = _to_device_payload(mesh, float32=float32, int32=int32, zero_copy_only=zero_copy_only, operation="to_dlpack")
    _warn("to_dlpack", payload.notes)
    return payload


# --- CuPy: availability -------------------------------------------------------------------


def has_cupy() -> bool:
    """True when CuPy can be imported. Says nothing about a GPU: CuPy imports fine on a
    machine with none and fails only at first use. Never raises."""
    try:
        import cupy  # noqa: F401
    except Exception:
        return False
    return True


def has_cuda_device() -> bool:
    """True when CuPy is importable and at least one device actually answers. Never raises."""
    try:
        import cupy

        return int(cupy.cuda.runtime.getDeviceCount()) > 0
    except Exception:
        return False


def _require_cupy():
    try:
        import cupy
    except Exception as exc:  # ImportError, or a broken install failing at import
        raise ImportError(INSTALL_RECIPE.format(reason=f"{type(exc).__name__}: {exc}")) from exc
    return cupy


def _require_device(operation: str):
    cupy = _require_cupy()
    try:
        count = int(cupy.cuda.runtime.getDeviceCount())
        reason = "getDeviceCount() returned 0"
    except Exception as exc:  # CUDARuntimeError: no driver, no device, insufficient driver
        count, reason = 0, f"{type(exc).__name__}: {exc}"
    if count < 1:
        raise RuntimeError(
            f"{operation}: CuPy {getattr(cupy, '__version__', '?')} is installed but no CUDA device answers ({reason}). "
            "Run on a machine with a GPU and a driver that supports this CuPy wheel's toolkit, "
            "or use mio.to_dlpack for a host payload."
        )
    return cupy


# --- Phase 2: pinned host memory -----------------------------------------------------------------
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


# --- CuPy: the transfer ----------------------------------------------------------------------

_STAGING_ALIGN = 256  # bytes: every array's slice of the one staging buffer starts aligned


class _Mover:
    """One host->device transfer per array, on one stream.

    pinned=False: ``cupy.asarray`` per array (what users write today). pinned=True: arrays
    that already lie in live pinned memory (``_PINNED``) are copied straight from it
    ("direct"); all others are first copied into ONE pinned staging buffer for the whole
    payload, taken from CuPy's pinned pool (reused from call to call), and copied from their
    aligned slice of it ("staged"). ``paths`` records label -> path.
    """

    def __init__(self, cupy, pinned: bool, stream, current: bool):
        self.cp = cupy
        self.pinned = pinned
        self.stream = stream
        # Entering a stream's context costs a little per array; the current stream needs none.
        self.scope = _nullcontext() if current else stream
        self.staging: list = []  # what in-flight copies read from: kept until synchronised
        self.paths: dict = {}
        self.staging_bytes = 0
        self.count = 0
        self.nbytes = 0

    def move_all(self, items: list) -> list:
        """[(label, host array)] -> [device array], in order."""
        if not self.pinned:
            return [self._pageable(a) for _, a in items]
        ranges = _pinned_ranges()
        direct = [a.size > 0 and _in_ranges(ranges, a) for _, a in items]
        # One staging buffer for every array that is not pinned already: aligned slices.
        offsets, total = [], 0
        for (_, a), d in zip(items, direct):
            if d or a.size == 0:
                offsets.append(None)
                continue
            total += (-total) % _STAGING_ALIGN
            offsets.append(total)
            total += a.nbytes
        stage = None
        if total:
            mem = self.cp.cuda.alloc_pinned_memory(total)
            stage = np.frombuffer(mem, np.uint8, total)
            self.staging.append(stage)  # holds mem: released (back to the pool) after synchronising
            self.staging_bytes = total
        out = []
        for (label, a), d, off in zip(items, direct, offsets):
            self.count += 1
            self.nbytes += a.nbytes
            with self.scope:
                dev = self.cp.empty(a.shape, dtype=a.dtype)
            if a.size == 0:
                self.paths[label] = "empty"
            elif d:
                dev.set(a, stream=self.stream)  # straight from the reader's pinned buffer: async DMA
                self.staging.append(a)  # the source must outlive an asynchronous copy
                self.paths[label] = "direct"
            else:
                staged = stage[off:off + a.nbytes].view(a.dtype).reshape(a.shape)
                staged[...] = a  # the one host copy, into page-locked memory
                dev.set(staged, stream=self.stream)
                self.paths[label] = "staged"
            out.append(dev)
        return out

    def _pageable(self, a: np.ndarray):
        self.count += 1
        self.nbytes += a.nbytes
        # Exactly what a user writes today (cupy.asarray), enqueued on self.stream.
        with self.scope:
            return self.cp.asarray(a)

    def derived(self, async_: bool) -> tuple:
        line = f"host->device: {self.count} arrays, {self.nbytes} bytes, one transfer each"
        if self.pinned:
            n_direct = sum(1 for p in self.paths.values() if p == "direct")
            n_staged = sum(1 for p in self.paths.values() if p == "staged")
            line += (f"; {n_direct} direct from pinned memory (no staging copy), {n_staged} staged through "
                     f"one pinned staging buffer of {self.staging_bytes} bytes from CuPy's pinned pool")
        if async_:
            line += " (enqueued on the caller's stream)"
        facts = (line,)
        if self.pinned:
            facts += tuple(f"host->device path of {label}: {path}" for label, path in self.paths.items())
        return facts


def _device_id(cupy) -> tuple:
    kind = KDL_ROCM if getattr(cupy.cuda.runtime, "is_hip", False) else KDL_CUDA
    return (kind, int(cupy.cuda.runtime.getDevice()))


def to_cupy(mesh, *, float32: bool = False, int32: bool = False, pinned: bool = False, stream=None) -> DevicePayload:
    """Move ``mesh`` to the current CUDA device: the payload of ``to_dlpack`` with every
    array (``field_data`` excepted) crossing the bus in one host->device transfer.

    The transfer is a copy by definition, so there is no ``zero_copy_only`` here; the
    returned CuPy arrays speak DLPack and ``__cuda_array_interface__``, so RAPIDS, Numba
    and torch adopt them on-device without further copies. ``float32`` / ``int32`` as in
    ``to_dlpack`` (noted casts on the host, before the transfer).

    ``pinned=True`` copies from page-locked host memory, which lets the DMA engine run at
    full bus speed and asynchronously. Arrays that already live in pinned memory - read
    under ``pinned_reads()``, or returned by ``from_cupy(pinned=True)``, views included -
    are copied straight from there ("direct": no staging copy). All others are first copied
    into one pinned staging buffer for the whole payload, reused from CuPy's pinned pool
    ("staged"). ``derived`` records the path of every array.

    ``stream=None``: the copies go on the current stream and the call synchronises it before
    returning (staging released). With a caller's ``stream`` the copies are only enqueued on
    it and what they read from (the staging buffer, the direct arrays) stays on
    ``payload.refs``: synchronise (``payload.synchronize()``, ``with payload:`` or
    ``stream.synchronize()``) before using the arrays or dropping the payload.
    """
    cp = _require_device("to_cupy")
    host = _to_device_payload(mesh, float32=float32, int32=int32, operation="to_cupy")
    target = stream if stream is not None else cp.cuda.get_current_stream()
    move = _Mover(cp, pinned, target, current=stream is None)
    items = list(host.arrays())
    try:
        moved = iter(move.move_all(items))
    except BaseException:
        target.synchronize()  # never free a staging buffer a copy may still be reading
        raise
    points = next(moved)
    cells = tuple((t, next(moved)) for t, _ in host.cells)
    bases = next(moved)
    point_data = {k: next(moved) for k in host.point_data}
    cell_data = {k: tuple(next(moved) for _ in parts) for k, parts in host.cell_data.items()}
    regions = tuple(r._replace(entries=next(moved)) for r in host.regions)
    payload = DevicePayload(
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
        derived=host.derived + move.derived(stream is not None),
        refs=move.staging,
        stream=stream,
    )
    if stream is None:
        target.synchronize()
        payload.refs.clear()
    _warn("to_cupy", payload.notes)
    return payload


# --- back to the host -------------------------------------------------------------------------


def _dlpack_device(a):
    try:
        return tuple(int(x) for x in a.__dlpack_device__())
    except Exception:
        return None


def _to_host(ledger: Ledger, label: str, a, state: dict):
    """One array back to numpy: numpy passes through; a host DLPack exporter is adopted
    zero-copy; a device array comes back with one noted device->host copy."""
    if a is None or isinstance(a, np.ndarray):
        return a
    device = _dlpack_device(a) if hasattr(a, "__dlpack_device__") else None
    if device is not None and device[0] == KDL_CPU:
        return np.from_dlpack(a)  # adopted in place (zero-copy)
    on_device = device is not None or hasattr(a, "__cuda_array_interface__")
    if on_device and state.get("pinned"):
        return _to_pinned_host(ledger, label, a, state)
    if on_device:
        get = getattr(a, "get", None)
        if callable(get):  # CuPy's own device->host copy
            ledger.copy_note(label, "device->host copy (the array's own .get())")
            return np.asarray(get())
        if "cupy" not in state:
            state["cupy"] = _require_cupy()
        cp = state["cupy"]
        # Adopt on device without a copy, then copy back once.
        if hasattr(a, "__cuda_array_interface__"):
            d = cp.asarray(a)
            how = "__cuda_array_interface__"
        else:
            d = cp.from_dlpack(a)
            how = "DLPack"
        ledger.copy_note(label, f"device->host copy (adopted by CuPy on device via {how}, copied back once)")
        return cp.asnumpy(d)
    if isinstance(a, (list, tuple)) or np.isscalar(a):
        ledger.copy_note(label, f"a {type(a).__name__} converted to an array")
    return np.asarray(a)


def _to_pinned_host(ledger: Ledger, label: str, a, state: dict) -> np.ndarray:
    """One device array back into a pinned host buffer that becomes the Mesh's own array:
    allocated through a _PinnedAllocator (freed through CuPy's pinned pool when numpy drops
    it), filled by one device->host DMA on the current stream."""
    if "cupy" not in state:
        state["cupy"] = _require_cupy()
    cp = state["cupy"]
    if "allocator" not in state:
        state["allocator"] = _PinnedAllocator(cp)
    if isinstance(a, cp.ndarray):
        d, how = a, ""
    elif hasattr(a, "__cuda_array_interface__"):
        d, how = cp.asarray(a), ", adopted by CuPy on device via __cuda_array_interface__"
    else:
        d, how = cp.from_dlpack(a), ", adopted by CuPy on device via DLPack"
    if not d.flags.c_contiguous:
        d = cp.ascontiguousarray(d)  # on the device; the host buffer is always C-contiguous
    out = _pinned_empty(state["allocator"], d.shape, d.dtype)
    if d.size:
        d.get(out=out)  # one DMA into page-locked memory
    ledger.copy_note(label, f"device->host copy into pinned host memory{how}")
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


def from_cupy(payload, *, pinned: bool = False) -> Mesh:
    """An ordinary Mesh from a ``DevicePayload`` or any object with the same attributes
    (``points``, ``cells``; optionally ``point_data``, ``cell_data``, ``field_data``,
    ``regions``). Each array may be numpy (passes through), a host DLPack exporter such as
    a torch CPU tensor (adopted zero-copy via ``np.from_dlpack``; no CuPy needed), or a
    device array speaking DLPack or ``__cuda_array_interface__`` - CuPy, torch, Numba, a
    HOOMD-style CAI-only buffer - which comes back with one noted device->host copy.

    ``pinned=True``: each device array is copied into a page-locked host buffer from CuPy's
    pinned pool instead of pageable memory (``.get()``), so the copy runs at pinned bus
    speed. Those buffers are the returned Mesh's own arrays; each is freed through the
    pinned pool when numpy drops it, and ``to_cupy(..., pinned=True)`` sends them back
    without staging. Host inputs pass through as above. The Mesh is an ordinary Mesh:
    every writer accepts it.

    A payload with a pending stream is synchronised first.
    """
    sync = getattr(payload, "synchronize", None)
    if callable(sync):
        sync()
    ledger = Ledger("from_cupy")
    state: dict = {"pinned": bool(pinned)}
    points = _to_host(ledger, "points", payload.points, state)
    cells = [(t, _to_host(ledger, f"cells[{i}]", c, state)) for i, (t, c) in enumerate(_pairs(payload.cells))]
    point_data = {k: _to_host(ledger, f"point_data[{k!r}]", a, state) for k, a in (getattr(payload, "point_data", None) or {}).items()}
    cell_data = {
        k: [_to_host(ledger, f"cell_data[{k!r}][{i}]", a, state) for i, a in enumerate(parts)]
        for k, parts in (getattr(payload, "cell_data", None) or {}).items()
    }
    regions = []
    for r in getattr(payload, "regions", None) or ():
        name, kind, dim, tag, entries = _region_parts(r)
        regions.append(Region(name, kind, _to_host(ledger, f"regions[{name!r}]", entries, state), dim, tag))
    field_data = dict(getattr(payload, "field_data", None) or {})
    ledger.warn(stacklevel=3)
    return Mesh(points, cells, point_data=point_data, cell_data=cell_data, field_data=field_data, regions=regions)


__all__ = ["DevicePayload", "DeviceRegion", "to_dlpack", "to_cupy", "from_cupy", "has_cupy", "has_cuda_device",
           "pinned_reads", "is_pinned"]
