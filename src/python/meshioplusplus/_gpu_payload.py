"""GPU hand-off, the pure half: the DevicePayload type, its builder and the DLPack export.

Specification: docs/gpu.md ("GPU handoff (DLPack / CuPy)"); DLPack device
types from dlpack.h (https://dmlc.github.io/dlpack/latest/c_api.html).

``_to_device_payload`` imports no third-party library, mutates nothing and returns plain
numpy in a frozen ``DevicePayload``, so everything subtle about the payload is tested on
machines with no GPU. ``to_dlpack`` is that payload on the host. The CuPy transfer lives in
_gpu_transfer.py, pinned memory in _gpu_pinned.py; _gpu.py gathers the public names.
"""
from __future__ import annotations

import dataclasses
from typing import Any, NamedTuple

import numpy as np

from ._exceptions import InteropError
from ._policy import Ledger, cast, checked_int32, renumber_cells, share, warn_notes
from ._mesh import CellBlock, _is_polyhedron
from ._regions import block_bases

# DLPack device types (dlpack.h, DLDeviceType).
KDL_CPU = 1
KDL_CUDA = 2
KDL_CUDA_HOST = 3
KDL_ROCM = 10
KDL_ROCM_HOST = 11
HOST_DEVICE = (KDL_CPU, 0)


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
    that are not losses (never warned); ``refs`` - the pinned staging chunks that copies
    still in flight on ``stream`` read from (for inspection: each chunk is also guarded by
    a CUDA event, so dropping the payload early is safe); ``stream`` - the CuPy stream the
    copies were enqueued on when the caller passed one, else None; ``ready`` - a CUDA event
    recorded on that stream after the last copy (None when ``to_cupy`` synchronised).

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
    ready: Any = None

    def synchronize(self) -> "DevicePayload":
        """Wait until this payload's copies are done (its ``ready`` event, else its stream)
        and clear ``refs``. Safe to call any number of times; a host payload has nothing to
        wait for."""
        if self.ready is not None:
            self.ready.synchronize()
        elif self.stream is not None:
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


# --- DLPack: the primary export ------------------------------------------------------------


def to_dlpack(mesh, *, float32: bool = False, int32: bool = False, zero_copy_only: bool = False) -> DevicePayload:
    """A host ``DevicePayload`` of ``mesh``: every array a numpy ndarray, which speaks
    ``__dlpack__`` / ``__dlpack_device__`` itself (reporting (kDLCPU, 0)), so hand any of
    them to ``np.from_dlpack``, ``torch.from_dlpack`` or ``jax.dlpack.from_dlpack``.
    ``cupy.from_dlpack`` refuses host arrays (TypeError): a host->device move is always an
    explicit copy, ``cupy.asarray(np.from_dlpack(a))`` or ``mio.to_cupy``.

    Nothing is transferred. This is a host buffer-sharing export: canonical float64/int64
    arrays are shared as-is (zero-copy), anything that would copy is noted and warned, and
    ``zero_copy_only=True`` raises ``InteropError`` instead of copying. ``float32=True`` /
    ``int32=True`` are explicit, noted downcasts (int32 range-checked; out of range raises,
    naming the array); combining either with ``zero_copy_only`` raises at once.
    """
    payload = _to_device_payload(mesh, float32=float32, int32=int32, zero_copy_only=zero_copy_only, operation="to_dlpack")
    warn_notes("to_dlpack", payload.notes)
    return payload
