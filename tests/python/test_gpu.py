"""GPU hand-off (_gpu.py), as docs/gpu.md specifies it.

Always-on half (no GPU, no CuPy): the pure payload builder, the DLPack host round trip
(sharing proven by addresses and writes, not assumed), lifetimes of C++-owned buffers,
dtype opt-ins, zero_copy_only, from_cupy's host paths, and the error recipes. Fakes are used
only for routing and bookkeeping (which branch runs, what is kept and released) - never to
stand in for a device.

Gated half (bottom of the file): needs CuPy and getDeviceCount() > 0; skips otherwise with
that reason. Run it on a GPU machine with tools/gpu_check.sh.
"""
from __future__ import annotations

import contextlib
import copy
import dataclasses
import gc
import sys
import types
import warnings
import weakref

import numpy as np
import pytest

import meshioplusplus as mio
from meshioplusplus import _testing
from meshioplusplus import _gpu, _gpu_payload, _regions
from helpers import DLPackOnly


# --- meshes -------------------------------------------------------------------------------

def mixed_mesh():
    """tri + quad + tetra blocks, float/int point data, per-block cell data, all three
    region kinds, field data."""
    pts = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0.5, 0.5, 1], [2, 0, 0]], dtype=np.float64)
    return mio.Mesh(
        pts,
        [("triangle", np.array([[0, 1, 2], [0, 2, 3]])), ("quad", np.array([[0, 1, 2, 3]])), ("tetra", np.array([[0, 1, 2, 4]]))],
        point_data={"T": np.arange(6.0), "id": np.arange(6, dtype=np.int64), "v": np.ones((6, 3))},
        cell_data={"rho": [np.array([1.0, 2.0]), np.array([3.0]), np.array([4.0])],
                   "mat": [np.array([7, 7]), np.array([8]), np.array([9])]},
        field_data={"steel": np.array([1, 3])},
        regions=[
            mio.Region("base", "point", [0, 1, 5], dim=0, tag=11),
            mio.Region("wall", "cell", [1, 2, 3], dim=2, tag=12),
            mio.Region("skin", "side", [[3, 0], [3, 2]], dim=2, tag=13),
        ],
    )


def ragged_mesh():
    """triangle | ragged polygon | quad | polyhedron | line: blocks 1 and 3 are ragged.
    Global cells: tri 0-1, polygon 2-3, quad 4-5, polyhedron 6, line 7-8."""
    pts = np.random.default_rng(1).random((8, 3))
    polyhedron = [[np.array([0, 1, 2]), np.array([0, 1, 3]), np.array([1, 2, 3]), np.array([0, 2, 3])]]
    cells = [
        ("triangle", np.array([[0, 1, 2], [1, 2, 3]])),
        ("polygon", [np.array([0, 1, 2, 3]), np.array([4, 5, 6])]),
        ("quad", np.array([[0, 1, 2, 3], [4, 5, 6, 7]])),
        ("polyhedron", polyhedron),
        ("line", np.array([[0, 1], [6, 7]])),
    ]
    rho = [np.array([0.0, 1.0]), np.array([2.0, 3.0]), np.array([4.0, 5.0]), np.array([6.0]), np.array([7.0, 8.0])]
    return mio.Mesh(
        pts,
        cells,
        cell_data={"rho": rho},
        regions=[
            mio.Region("first", "cell", [0, 1], dim=2, tag=1),  # before any dropped block: unchanged
            mio.Region("mixed", "cell", [1, 2, 3, 4, 6, 8], dim=2, tag=2),  # 2, 3, 6 lie in dropped blocks
            mio.Region("sides", "side", [[0, 1], [3, 0], [5, 2], [7, 1]], dim=1, tag=3),
            mio.Region("pts", "point", [2, 7], dim=0, tag=4),
        ],
    )


@contextlib.contextmanager
def no_warnings():
    """Any warning inside the block fails the test."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


def addr(a) -> int:
    return a.__array_interface__["data"][0]


# --- the pure builder --------------------------------------------------------------------------

def test_builder_shares_every_canonical_array_of_a_mixed_mesh():
    mesh = mixed_mesh()
    p = _gpu._to_device_payload(mesh)
    assert isinstance(p, mio.DevicePayload) and p.device == (1, 0)
    assert p.points is mesh.points
    assert [t for t, _ in p.cells] == ["triangle", "quad", "tetra"]
    assert all(c is b.data for (_, c), b in zip(p.cells, mesh.cells))
    assert p.point_data["T"] is mesh.point_data["T"] and p.point_data["v"] is mesh.point_data["v"]
    assert isinstance(p.cell_data["rho"], tuple) and all(x is y for x, y in zip(p.cell_data["rho"], mesh.cell_data["rho"]))
    np.testing.assert_array_equal(p.block_bases, [0, 2, 3, 4])
    assert p.field_data == mesh.field_data and p.field_data["steel"] is mesh.field_data["steel"]
    assert [(r.name, r.kind, r.dim, r.tag) for r in p.regions] == [("base", "point", 0, 11), ("wall", "cell", 2, 12), ("skin", "side", 2, 13)]
    assert all(pr.entries is mr.entries for pr, mr in zip(p.regions, mesh.regions))
    name, kind, dim, tag, entries = p.regions[2]  # a plain (name, kind, dim, tag, entries) tuple
    assert (name, kind, dim, tag) == ("skin", "side", 2, 13) and entries.shape == (2, 2)
    assert p.notes == () and p.dropped == () and p.refs == [] and p.stream is None
    assert p.shared and all(p.shared.values())
    assert set(p.shared) >= {"points", "cells[0]", "cells[2]", "point_data['T']", "cell_data['rho'][1]", "regions['skin']"}


def test_block_bases_come_from_regions_block_bases(monkeypatch):
    calls = []

    def spy(cells):
        calls.append([len(c) for c in cells])
        return _regions.block_bases(cells)

    monkeypatch.setattr(_gpu_payload, "block_bases", spy)
    p = _gpu._to_device_payload(ragged_mesh())
    assert [2, 2, 2] in calls  # the payload's own (kept) blocks
    np.testing.assert_array_equal(p.block_bases, [0, 2, 4, 6])


def test_builder_imports_nothing_and_mutates_nothing(monkeypatch):
    for name in ("cupy", "torch", "jax", "numba"):
        monkeypatch.setitem(sys.modules, name, None)  # any import of them would now fail
    mesh = ragged_mesh()
    before = copy.deepcopy(mesh)
    ids = (id(mesh.points), [id(b.data) for b in mesh.cells], [id(r.entries) for r in mesh.regions])
    loaded = set(sys.modules)
    _gpu._to_device_payload(mesh, float32=True, int32=True)
    assert set(sys.modules) == loaded
    assert ids == (id(mesh.points), [id(b.data) for b in mesh.cells], [id(r.entries) for r in mesh.regions])
    np.testing.assert_array_equal(mesh.points, before.points)
    assert mesh.points.dtype == np.float64 and mesh.cells[0].data.dtype == np.int64
    assert mesh.regions == before.regions
    assert all(np.array_equal(x, y) for x, y in zip(mesh.cell_data["rho"], before.cell_data["rho"]))


def test_payload_is_frozen():
    p = mio.to_dlpack(mixed_mesh())
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.points = np.zeros((1, 3))
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.notes = ("edited",)


def test_ragged_blocks_are_dropped_with_a_note_and_regions_renumbered():
    mesh = ragged_mesh()
    p = _gpu._to_device_payload(mesh)
    assert [t for t, _ in p.cells] == ["triangle", "quad", "line"]
    assert p.dropped == ("cells[1] (polygon)", "cells[3] (polyhedron)")
    np.testing.assert_array_equal(p.block_bases, [0, 2, 4, 6])
    assert len(p.cell_data["rho"]) == 3
    notes = "\n".join(p.notes)
    assert "cells[1] (polygon, 2 cells) dropped" in notes and "cells[3] (polyhedron, 1 cells) dropped" in notes
    assert "cell_data['rho'][1] dropped" in notes and "cell_data['rho'][3] dropped" in notes
    regions = {r.name: r for r in p.regions}
    # "first" lies before every dropped block: numbering unchanged, shared as-is.
    assert regions["first"].entries is mesh.regions[0].entries and p.shared["regions['first']"]
    # "mixed": 1 -> 1, 4 -> 2, 8 -> 5; 2, 3 (polygon) and 6 (polyhedron) removed.
    np.testing.assert_array_equal(regions["mixed"].entries, [1, 2, 5])
    np.testing.assert_array_equal(regions["sides"].entries, [[0, 1], [3, 2], [4, 1]])  # 3 removed; 5 -> 3, 7 -> 4
    assert regions["pts"].entries is mesh.regions[3].entries
    # Renumbering is derived (never warned); removing entries is a note.
    assert any("regions['mixed'] (cell) renumbered" in d for d in p.derived)
    assert any("regions['sides'] (side) renumbered" in d for d in p.derived)
    assert not any("renumbered" in n for n in p.notes)
    assert "regions['mixed']: 3 entries dropped" in notes and "regions['sides']: 1 entries dropped" in notes
    assert not p.shared["regions['mixed']"]
    # The renumbered entries gather the same cells from the flat block-major cell data.
    flat = np.concatenate(p.cell_data["rho"])
    np.testing.assert_array_equal(flat[regions["mixed"].entries], [1.0, 4.0, 8.0])
    np.testing.assert_array_equal(flat[regions["sides"].entries[:, 0]], [0.0, 5.0, 7.0])


def test_region_entry_outside_the_mesh_raises_naming_it():
    mesh = ragged_mesh()
    mesh.regions.append(mio.Region("bad", "cell", [99]))
    with pytest.raises(mio.InteropError, match=r"regions\['bad'\] references cell 99"):
        _gpu._to_device_payload(mesh)


def test_notes_are_warned_and_derived_facts_are_not():
    with pytest.warns(mio.InteropWarning) as record:
        p = mio.to_dlpack(ragged_mesh())
    messages = [str(w.message) for w in record]
    assert messages == [f"to_dlpack: {n}" for n in p.notes]
    assert p.derived and not any("renumbered" in m or "block_bases" in m for m in messages)
    assert all(w.filename == __file__ for w in record)  # points at the caller


def test_non_numeric_data_is_dropped_and_listed():
    mesh = mixed_mesh()
    mesh.point_data["name"] = np.array(["a"] * 6)
    mesh.cell_data["obj"] = [np.array([None, None], dtype=object), np.array([1.0]), np.array([2.0])]
    with pytest.warns(mio.InteropWarning):
        p = mio.to_dlpack(mesh)
    assert "name" not in p.point_data and "obj" not in p.cell_data
    assert "point_data['name']" in p.dropped and "cell_data['obj']" in p.dropped


# --- DLPack host round trip -----------------------------------------------------------------------

def test_dlpack_host_round_trip_numpy_shares_the_buffers():
    mesh = mixed_mesh()
    with no_warnings():
        p = mio.to_dlpack(mesh, zero_copy_only=True)
    for label, a in p.arrays():
        assert a.__dlpack_device__() == (1, 0), label
        back = np.from_dlpack(a)
        assert addr(back) == addr(a) and np.array_equal(back, a), label
    back = np.from_dlpack(p.point_data["T"])  # read-only on numpy 1.x, writeable on 2.x
    mesh.point_data["T"][0] = 42.0  # a write to the mesh shows through the re-adopted array
    assert back[0] == 42.0 and np.shares_memory(back, mesh.point_data["T"])
    assert addr(np.from_dlpack(p.points)) == addr(mesh.points)


def test_dlpack_host_round_trip_torch_shares_the_buffers():
    torch = pytest.importorskip("torch")
    mesh = mixed_mesh()
    p = mio.to_dlpack(mesh)
    t = torch.from_dlpack(p.points)
    assert t.device.type == "cpu" and t.data_ptr() == addr(mesh.points)
    np.testing.assert_array_equal(t.numpy(), mesh.points)
    c = torch.from_dlpack(p.cells[0][1])
    assert c.dtype == torch.int64 and c.data_ptr() == addr(mesh.cells[0].data)
    t[1, 2] = -5.0
    assert mesh.points[1, 2] == -5.0
    side = torch.from_dlpack(p.regions[2].entries)
    assert side.shape == (2, 2) and side.data_ptr() == addr(mesh.regions[2].entries)


class NumpyArena:
    """alloc/free callbacks for mio.use_allocator handing out numpy-backed memory, counting frees."""

    def __init__(self):
        self.live, self.frees = {}, 0

    def alloc(self, nbytes):
        backing = np.empty(nbytes + 64, dtype=np.uint8)
        address = backing.ctypes.data + (-backing.ctypes.data) % 64
        self.live[address] = backing
        return address

    def free(self, address, nbytes):
        del self.live[address]
        self.frees += 1


def churn():
    gc.collect()
    junk = [np.random.default_rng(i).random(20_000) for i in range(50)]
    del junk
    gc.collect()


def test_payload_and_its_dlpack_consumers_outlive_the_source_mesh():
    torch = pytest.importorskip("torch")
    arena = NumpyArena()
    n = 10_000
    with mio.use_allocator(arena.alloc, arena.free):
        flat, points_addr = _testing.owned_array(3 * n)  # C++-owned, exactly as a reader returns
        temp, temp_addr = _testing.owned_array(n)
    mesh = mio.Mesh(flat.reshape(n, 3), [("vertex", np.arange(n).reshape(n, 1))], point_data={"T": temp})
    del flat, temp
    payload = mio.to_dlpack(mesh, zero_copy_only=True)
    assert addr(payload.points) == points_addr and addr(payload.point_data["T"]) == temp_addr
    del mesh
    churn()
    assert arena.frees == 0  # the payload keeps the C++ buffers alive
    np.testing.assert_array_equal(payload.point_data["T"][:5], [0, 1, 2, 3, 4])
    t = torch.from_dlpack(payload.points)
    a = np.from_dlpack(payload.point_data["T"])
    del payload
    churn()
    assert arena.frees == 0  # the capsules keep the exporting arrays, hence the buffers, alive
    assert t.data_ptr() == points_addr and addr(a) == temp_addr
    assert float(t.reshape(-1)[3 * n - 1]) == 3 * n - 1 and a[n - 1] == n - 1
    del t
    churn()
    assert arena.frees == 1
    del a
    churn()
    assert arena.frees == 2 and not arena.live


# --- dtype opt-ins and zero_copy_only ------------------------------------------------------------------

def test_float32_and_int32_opt_ins_cast_with_a_note_each():
    mesh = mixed_mesh()
    with pytest.warns(mio.InteropWarning) as record:
        p = mio.to_dlpack(mesh, float32=True, int32=True)
    assert p.points.dtype == np.float32 and p.points is not mesh.points
    assert p.point_data["T"].dtype == np.float32 and p.point_data["v"].dtype == np.float32
    assert p.point_data["id"].dtype == np.int64 and p.point_data["id"] is mesh.point_data["id"]  # integers untouched
    assert p.cell_data["rho"][0].dtype == np.float32 and p.cell_data["mat"][0].dtype == mesh.cell_data["mat"][0].dtype
    assert all(c.dtype == np.int32 for _, c in p.cells)
    assert p.block_bases.dtype == np.int32
    assert all(r.entries.dtype == np.int32 for r in p.regions)
    np.testing.assert_array_equal(p.regions[2].entries, mesh.regions[2].entries)
    np.testing.assert_allclose(p.points, mesh.points)
    assert not p.shared["points"] and not p.shared["cells[0]"] and p.shared["point_data['id']"]
    messages = [str(w.message) for w in record]
    assert "to_dlpack: points copied: cast from float64 to float32 on request" in messages
    assert "to_dlpack: cells[1] copied: cast from int64 to int32 on request" in messages
    assert "to_dlpack: block_bases copied: cast from int64 to int32 on request" in messages
    assert "to_dlpack: regions['skin'] copied: cast from int64 to int32 on request" in messages
    assert len(messages) == len(p.notes)
    assert "block_bases" not in p.shared  # built here, not a mesh array


def test_float32_leaves_float32_arrays_shared():
    mesh = mixed_mesh()
    mesh.points = mesh.points.astype(np.float32)
    p = _gpu._to_device_payload(mesh, float32=True)
    assert p.points is mesh.points and p.shared["points"]


@pytest.mark.parametrize(
    "edit, label",
    [
        (lambda m: m.cells.__setitem__(0, mio.CellBlock("triangle", np.array([[0, 1, 2**31], [0, 1, 2]]))), r"cells\[0\]"),
        (lambda m: m.regions.__setitem__(0, mio.Region("base", "point", [0, 2**31])), r"regions\['base'\]"),
        (lambda m: m.regions.__setitem__(2, mio.Region("skin", "side", [[1, 0], [3, -(2**31) - 1]])), r"regions\['skin'\]"),
    ],
)
def test_int32_range_check_raises_naming_the_array(edit, label):
    mesh = mixed_mesh()
    edit(mesh)
    with pytest.raises(mio.InteropError, match=label + " holds values outside the int32 range"):
        mio.to_dlpack(mesh, int32=True)
    p = _gpu._to_device_payload(mesh)  # without int32 nothing is checked or cast
    assert p.notes == ()


@pytest.mark.parametrize(
    "edit, label",
    [
        (lambda m: setattr(m, "points", np.asfortranarray(m.points)), r"points would be copied \(not C-contiguous\)"),
        (lambda m: m.point_data.__setitem__("flag", np.ones(6, dtype=bool)), r"point_data\['flag'\] would be copied \(bool widened"),
        (lambda m: m.cell_data.__setitem__("h", [np.ones(2, np.float16), np.ones(1), np.ones(1)]), r"cell_data\['h'\]\[0\] would be copied"),
        (lambda m: setattr(m.cells[1], "data", np.asfortranarray(np.array([[0, 1, 2, 3], [1, 2, 3, 4]]))[:1]), r"cells\[1\] would be copied"),
    ],
)
def test_zero_copy_only_raises_rather_than_copying(edit, label):
    mesh = mixed_mesh()
    edit(mesh)
    with pytest.raises(mio.InteropError, match="to_dlpack: " + label):
        mio.to_dlpack(mesh, zero_copy_only=True)
    with pytest.warns(mio.InteropWarning, match=label.split(" would be")[0] + " copied"):
        mio.to_dlpack(mesh)  # without it: a noted copy


@pytest.mark.parametrize("opts", [{"float32": True}, {"int32": True}, {"float32": True, "int32": True}])
def test_downcast_with_zero_copy_only_raises_immediately(opts):
    class Exploding:  # proves nothing of the mesh is looked at first
        def __getattr__(self, name):
            raise AssertionError(f"looked at mesh.{name}")

    with pytest.raises(mio.InteropError, match="an explicit downcast is a copy by definition"):
        mio.to_dlpack(Exploding(), zero_copy_only=True, **opts)


def test_zero_copy_only_allows_ragged_drops_and_renumbering():
    # Dropping is a loss, not a copy; renumbering is derived: neither breaks the contract.
    with pytest.warns(mio.InteropWarning, match="dropped"):
        p = mio.to_dlpack(ragged_mesh(), zero_copy_only=True)
    assert p.points is not None and len(p.dropped) == 2


# --- from_cupy: host paths -------------------------------------------------------------------------

def assert_same_mesh(a, b):
    np.testing.assert_array_equal(a.points, b.points)
    assert [c.type for c in a.cells] == [c.type for c in b.cells]
    for x, y in zip(a.cells, b.cells):
        np.testing.assert_array_equal(x.data, y.data)
    assert sorted(a.point_data) == sorted(b.point_data)
    for k in a.point_data:
        np.testing.assert_array_equal(a.point_data[k], b.point_data[k])
    assert sorted(a.cell_data) == sorted(b.cell_data)
    for k in a.cell_data:
        for x, y in zip(a.cell_data[k], b.cell_data[k]):
            np.testing.assert_array_equal(x, y)
    assert a.regions == b.regions


def test_from_cupy_on_a_host_payload_passes_numpy_through(monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", None)  # no CuPy needed on the host path
    mesh = mixed_mesh()
    with no_warnings():
        back = mio.from_cupy(mio.to_dlpack(mesh))
    assert isinstance(back, mio.Mesh)
    assert_same_mesh(back, mesh)
    assert back.points is mesh.points and back.cells[1].data is mesh.cells[1].data
    assert back.point_data["T"] is mesh.point_data["T"]
    assert [(r.dim, r.tag) for r in back.regions] == [(0, 11), (2, 12), (2, 13)]
    assert back.field_data["steel"] is mesh.field_data["steel"]
    mio._core.validate(back._core_parts())  # what every writer checks first


def test_from_cupy_after_ragged_drop_and_int32_is_a_valid_mesh():
    with pytest.warns(mio.InteropWarning):
        p = mio.to_dlpack(ragged_mesh(), float32=True, int32=True)
    back = mio.from_cupy(p)
    assert [c.type for c in back.cells] == ["triangle", "quad", "line"]
    np.testing.assert_array_equal(back.cell_sets["mixed"][1], [0])  # global 2 -> quad block, local 0
    mio._core.validate(back._core_parts())


def test_from_cupy_adopts_torch_cpu_tensors_zero_copy(monkeypatch):
    torch = pytest.importorskip("torch")
    monkeypatch.setitem(sys.modules, "cupy", None)
    pts = torch.rand(4, 3, dtype=torch.float64)
    conn = torch.tensor([[0, 1, 2], [0, 2, 3]])
    temp = torch.arange(4, dtype=torch.float32)
    side = torch.tensor([[0, 1], [1, 2]])
    duck = types.SimpleNamespace(
        points=pts, cells=[("triangle", conn)], point_data={"T": temp}, cell_data={"q": (torch.ones(2),)},
        field_data={}, regions=[("edge", "side", 1, 5, side)],
    )
    with no_warnings():
        mesh = mio.from_cupy(duck)
    assert addr(mesh.points) == pts.data_ptr() and addr(mesh.cells[0].data) == conn.data_ptr()
    assert addr(mesh.point_data["T"]) == temp.data_ptr()
    pts[0, 0] = 9.0
    assert mesh.points[0, 0] == 9.0
    assert mesh.regions[0] == mio.Region("edge", "side", [[0, 1], [1, 2]], dim=1, tag=5)


def test_from_cupy_adopts_foreign_dlpack_only_host_objects(monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", None)
    pts = np.random.default_rng(3).random((4, 2))
    conn = np.array([[0, 1, 2, 3]])
    assert not hasattr(DLPackOnly(pts), "__array__")
    with no_warnings():
        mesh = mio.from_cupy(types.SimpleNamespace(points=DLPackOnly(pts), cells=[("quad", DLPackOnly(conn))]))
    assert addr(mesh.points) == addr(pts) and addr(mesh.cells[0].data) == addr(conn)
    np.testing.assert_array_equal(mesh.points, pts)
    assert mesh.point_data == {} and mesh.regions == []


def test_from_cupy_converts_plain_lists_with_a_note():
    with pytest.warns(mio.InteropWarning, match=r"from_cupy: points copied: a list converted"):
        mesh = mio.from_cupy(types.SimpleNamespace(points=[[0.0, 0.0], [1.0, 0.0]], cells=[("line", np.array([[0, 1]]))]))
    assert mesh.points.shape == (2, 2)


# --- from_cupy: routing of device arrays (fakes: which branch runs, never a device) ----------------------

class FakeDeviceWithGet:
    """Routing fake: claims (kDLCUDA, 0) and has its own .get(); its host copy is a numpy array."""

    def __init__(self, a):
        self._a, self.gets = a, 0

    def __dlpack_device__(self):
        return (2, 0)

    def __dlpack__(self, stream=None, **kw):
        raise AssertionError("must not be adopted on the host")

    def get(self):
        self.gets += 1
        return self._a.copy()


class FakeCAIOnly:
    """Routing fake: speaks only __cuda_array_interface__ (as HOOMDGPUArray does without CuPy).
    Its pointer is never dereferenced: these tests stop before any device work."""

    __cuda_array_interface__ = {"shape": (3,), "typestr": "<f8", "data": (0xDEAD0000, False), "version": 3, "strides": None}


def test_from_cupy_uses_a_device_arrays_own_get_with_a_note(monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", None)  # .get() needs no CuPy import from us
    src = np.arange(12.0).reshape(4, 3)
    fake = FakeDeviceWithGet(src)
    with pytest.warns(mio.InteropWarning, match=r"from_cupy: points copied: device->host copy \(the array's own .get\(\)\)"):
        mesh = mio.from_cupy(types.SimpleNamespace(points=fake, cells=[("triangle", np.array([[0, 1, 2]]))]))
    assert fake.gets == 1
    np.testing.assert_array_equal(mesh.points, src)


@pytest.mark.parametrize("obj", [FakeCAIOnly(), types.SimpleNamespace(__dlpack_device__=lambda: (2, 0), __dlpack__=None)])
def test_from_cupy_device_array_without_get_needs_cupy_and_says_how_to_install(monkeypatch, obj):
    monkeypatch.setitem(sys.modules, "cupy", None)
    if isinstance(obj, types.SimpleNamespace):  # instance attributes are not looked up for dunders; use a class
        obj = type("DLPackDevice", (), {"__dlpack_device__": lambda self: (2, 0), "__dlpack__": lambda self, **k: None})()
    with pytest.raises(ImportError, match="pip install cupy-cuda13x"):
        mio.from_cupy(types.SimpleNamespace(points=obj, cells=[]))


def test_from_cupy_synchronises_a_pending_payload_first():
    order = []

    class Stream:
        def synchronize(self):
            order.append("sync")

    p = dataclasses.replace(mio.to_dlpack(mixed_mesh()), stream=Stream(), refs=["staging"])
    mio.from_cupy(p)
    assert order == ["sync"] and p.refs == []


# --- availability and the error recipes -----------------------------------------------------------------

def test_missing_cupy_gives_the_per_toolkit_recipe(monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", None)
    assert mio.has_cupy() is False and mio.has_cuda_device() is False
    with pytest.raises(ImportError) as info:
        mio.to_cupy(mixed_mesh())
    message = str(info.value)
    for line in ("pip install cupy-cuda13x", "pip install cupy-cuda12x", "pip install cupy-cuda11x", "cupy-rocm-"):
        assert line in message
    assert "CUDA 13.x" in message and "ROCm" in message
    assert "meshioplusplus[" not in message  # no extra of ours; CuPy's own [ctk] extra is named
    assert 'pip install "cupy-cuda13x[ctk]"' in message and "only the NVIDIA driver" in message
    assert "zero-copy" not in message


def predicate_cupy(get_count):
    """Bookkeeping fake of the one CuPy call the predicates make."""
    mod = types.ModuleType("cupy")
    mod.__version__ = "0.0-fake"
    mod.cuda = types.SimpleNamespace(runtime=types.SimpleNamespace(getDeviceCount=get_count))
    return mod


@pytest.mark.parametrize("count", [lambda: 0, lambda: (_ for _ in ()).throw(RuntimeError("cudaErrorNoDevice: no CUDA-capable device"))])
def test_cupy_without_a_device_is_a_clear_runtime_error(monkeypatch, count):
    monkeypatch.setitem(sys.modules, "cupy", predicate_cupy(count))
    assert mio.has_cupy() is True  # importable ...
    assert mio.has_cuda_device() is False  # ... is a different question
    with pytest.raises(RuntimeError, match=r"to_cupy: CuPy 0.0-fake is installed but no CUDA device answers"):
        mio.to_cupy(mixed_mesh())


def test_predicates_never_raise_even_on_a_broken_install(monkeypatch):
    class Broken(types.ModuleType):
        def __getattr__(self, name):
            raise OSError("libcudart.so.13: cannot open shared object file")

    monkeypatch.setitem(sys.modules, "cupy", Broken("cupy"))
    assert mio.has_cupy() is True and mio.has_cuda_device() is False


# --- to_cupy bookkeeping, routed through a host-memory fake (tests/python/fake_cupy.py) -------------------
# These check which calls run and what is kept or released - not the device. The gated tests
# below run the same paths on a real GPU.

import fake_cupy  # noqa: E402


def _array_count(payload):
    return sum(1 for _ in payload.arrays())


def test_to_cupy_default_is_one_asarray_per_array_then_one_synchronize(monkeypatch):
    cp = fake_cupy.install(monkeypatch)
    mesh = mixed_mesh()
    with no_warnings():
        gpu = mio.to_cupy(mesh)
    n = _array_count(gpu)
    assert n == 1 + 3 + 1 + 3 + 6 + 3  # points, cells, block_bases, point_data, cell_data, regions
    assert cp.log.count("asarray") == n and cp.log.count("set") == 0
    # CuPy itself stages each pageable array through a block of its pinned pool: no staging of ours.
    assert cp.log.count("alloc_pinned") + cp.log.count("pinned_reuse") == n
    assert cp.log.events[-1] == ("synchronize", "null") and cp.log.count("synchronize") == 1
    assert cp.log.count("enter") == 0  # the current stream needs no context per array
    sources = {e[2] for e in cp.log.events if e[0] == "asarray"}
    assert id(mesh.points) in sources and id(mesh.regions[2].entries) in sources  # the mesh's own buffers, no extra host copy
    assert gpu.device == (2, 0) and gpu.refs == [] and gpu.ready is None and gpu.field_data["steel"] is mesh.field_data["steel"]
    np.testing.assert_array_equal(gpu.points.get(), mesh.points)


def test_to_cupy_pinned_without_stream_stages_through_one_ring_chunk_then_synchronises(monkeypatch):
    cp = fake_cupy.install(monkeypatch)
    _gpu.release_staging()
    mesh = mixed_mesh()
    gpu = mio.to_cupy(mesh, pinned=True)
    n = _array_count(gpu)
    # A small payload fits one chunk of the staging ring: one pinned allocation of a fixed size.
    (_, size, base), = cp.log.of("alloc_pinned")
    assert size == _gpu.STAGING_CHUNK_BYTES
    sets = cp.log.of("set")
    assert len(sets) == n and cp.log.count("asarray") == 0
    starts = [e[3] for e in sets]
    assert all(base <= s < base + size and (s - base) % _gpu.STAGING_ALIGN == 0 for s in starts)
    assert len(set(starts)) == n  # disjoint pieces of the chunk
    assert all(e[1] == "null" for e in sets)  # enqueued on the current stream ...
    assert cp.log.events[-1] == ("synchronize", "null")  # ... and waited for before returning
    assert gpu.refs == [] and gpu.stream is None and gpu.ready is None
    assert any("0 direct from page-locked memory" in d and "17 staged through the pinned staging ring" in d for d in gpu.derived)
    assert "host->device path of points: staged" in gpu.derived
    np.testing.assert_array_equal(gpu.points.get(), mesh.points)
    np.testing.assert_array_equal(gpu.regions[2].entries.get(), mesh.regions[2].entries)
    np.testing.assert_array_equal(gpu.cell_data["mat"][1].get(), mesh.cell_data["mat"][1])
    # The ring keeps its chunk for the next transfer: nothing new is pinned.
    mio.to_cupy(mixed_mesh(), pinned=True)
    assert cp.log.count("alloc_pinned") == 1 and cp.pool.total_bytes() == _gpu.STAGING_CHUNK_BYTES


def test_to_cupy_with_a_stream_only_enqueues_and_ready_waits(monkeypatch):
    cp = fake_cupy.install(monkeypatch)
    stream = cp.cuda.Stream(non_blocking=True)
    mesh = mixed_mesh()
    gpu = mio.to_cupy(mesh, pinned=True, stream=stream)
    assert cp.log.count("synchronize") == 0  # only enqueued
    assert all(e[1] == "user" for e in cp.log.events if e[0] in ("set", "empty"))
    assert gpu.stream is stream and gpu.ready is not None and not gpu.ready.done
    (_, size, base), = cp.log.of("alloc_pinned")
    assert len(gpu.refs) == 1 and _gpu._data_range(gpu.refs[0]) == (base, base + size)  # the chunk in flight
    with gpu:
        pass
    assert gpu.ready.done and gpu.refs == []
    np.testing.assert_array_equal(gpu.points.get(), mesh.points)


def test_to_cupy_pageable_with_a_stream_enqueues_on_it_without_refs(monkeypatch):
    cp = fake_cupy.install(monkeypatch)
    stream = cp.cuda.Stream()
    gpu = mio.to_cupy(mixed_mesh(), stream=stream)
    assert all(e[1] == "user" for e in cp.log.events if e[0] == "asarray")
    assert cp.log.count("synchronize") == 0 and gpu.refs == [] and gpu.stream is stream
    gpu.synchronize()
    np.testing.assert_array_equal(gpu.points.get(), mixed_mesh().points)


def test_to_cupy_failure_mid_transfer_waits_before_letting_staging_go(monkeypatch):
    cp = fake_cupy.install(monkeypatch, fail_after=4)
    stream = cp.cuda.Stream()
    with pytest.raises(MemoryError, match="fake out of device memory"):
        mio.to_cupy(mixed_mesh(), pinned=True, stream=stream)
    assert cp.log.events[-1] == ("synchronize", "user")


def test_to_cupy_then_from_cupy_routes_each_array_through_get_once(monkeypatch):
    cp = fake_cupy.install(monkeypatch)
    mesh = mixed_mesh()
    with pytest.warns(mio.InteropWarning, match="on request"):
        gpu = mio.to_cupy(mesh, float32=True, int32=True)
    with pytest.warns(mio.InteropWarning, match=r"device->host copy \(the array's own .get\(\)\)") as record:
        back = mio.from_cupy(gpu)
    assert cp.log.count("get") == len(record) == _array_count(gpu) - 1  # block_bases stays: a Mesh re-derives it
    np.testing.assert_allclose(back.points, mesh.points.astype(np.float32))
    assert back.cells[0].data.dtype == np.int32 and back.regions == mesh.regions


# --- safe scoping (bookkeeping) ---------------------------------------------------------------------------

def test_payload_context_manager_synchronises_and_releases_refs():
    calls = []

    class Stream:
        def synchronize(self):
            calls.append("sync")

    staging = np.zeros(16)
    ref = weakref.ref(staging)
    p = dataclasses.replace(mio.to_dlpack(mixed_mesh()), stream=Stream(), refs=[staging])
    del staging
    with p as inside:
        assert inside is p and p.refs and calls == []
    assert calls == ["sync"] and p.refs == [] and ref() is None
    np.testing.assert_array_equal(p.points[:, 0], mixed_mesh().points[:, 0])  # still valid after the block
    assert p.synchronize() is p and calls == ["sync", "sync"]
    host = mio.to_dlpack(mixed_mesh())
    with host:
        pass
    assert host.refs == []  # a host payload has nothing to wait for


def test_package_exports_and_wording():
    for name in ("to_dlpack", "to_cupy", "from_cupy", "has_cupy", "has_cuda_device", "DevicePayload"):
        assert getattr(mio, name) is getattr(_gpu, name) and name in mio.__all__
    # "zero-copy" only where literally true: never for the transfer.
    assert "zero-copy" not in mio.to_cupy.__doc__
    assert "zero-copy" in mio.to_dlpack.__doc__


# =================================== gated: a CUDA device =========================================

# The `cp` fixture (CuPy with a CUDA device, else a skip naming why) is in conftest.py.


def big_mesh(n_points=200_000, seed=0):
    rng = np.random.default_rng(seed)
    n_tets = 2 * n_points
    return mio.Mesh(
        rng.random((n_points, 3)),
        [("tetra", rng.integers(0, n_points, (n_tets, 4))), ("triangle", rng.integers(0, n_points, (n_points // 4, 3)))],
        point_data={"T": rng.random(n_points), "u": rng.random((n_points, 3))},
        cell_data={"rho": [rng.random(n_tets), rng.random(n_points // 4)]},
        regions=[mio.Region("inlet", "point", np.arange(0, n_points, 7)), mio.Region("core", "cell", np.arange(0, n_tets, 3)),
                 mio.Region("wall", "side", np.stack([np.arange(n_tets, n_tets + 100), np.zeros(100, np.int64)], axis=1))],
    )


def test_device_transfer_moves_every_array_once(cp):
    mesh = mixed_mesh()
    with no_warnings():
        gpu = mio.to_cupy(mesh)
    assert gpu.device == (2, cp.cuda.runtime.getDevice())
    assert tuple(gpu.points.__dlpack_device__()) == gpu.device
    for label, a in gpu.arrays():
        assert isinstance(a, cp.ndarray), label
        assert "__cuda_array_interface__" in dir(a)
    np.testing.assert_array_equal(gpu.points.get(), mesh.points)
    np.testing.assert_array_equal(gpu.cells[1][1].get(), mesh.cells[1].data)
    np.testing.assert_array_equal(gpu.block_bases.get(), [0, 2, 3, 4])
    np.testing.assert_array_equal(gpu.regions[2].entries.get(), mesh.regions[2].entries)
    assert gpu.field_data["steel"] is mesh.field_data["steel"]  # host passthrough
    assert gpu.notes == () and gpu.refs == [] and gpu.stream is None
    assert not any(gpu.shared.values())  # nothing on the device is a mesh buffer
    assert any("host->device" in d for d in gpu.derived)
    assert not any("zero-copy" in s for s in gpu.derived + gpu.notes)
    gpu.point_data["T"] *= 2.0  # the spec's example: in place, on device
    np.testing.assert_array_equal(gpu.point_data["T"].get(), 2 * mesh.point_data["T"])


def test_device_dtype_opt_ins(cp):
    with pytest.warns(mio.InteropWarning, match="on request"):
        gpu = mio.to_cupy(mixed_mesh(), float32=True, int32=True)
    assert gpu.points.dtype == cp.float32 and gpu.point_data["T"].dtype == cp.float32
    assert gpu.point_data["id"].dtype == cp.int64
    assert all(c.dtype == cp.int32 for _, c in gpu.cells) and gpu.block_bases.dtype == cp.int32
    assert all(r.entries.dtype == cp.int32 for r in gpu.regions)


def test_device_regions_gather_after_a_ragged_drop(cp):
    with pytest.warns(mio.InteropWarning):
        gpu = mio.to_cupy(ragged_mesh())
    flat = cp.concatenate(gpu.cell_data["rho"])  # block-major once, no offsets re-derived
    mixed = {r.name: r for r in gpu.regions}["mixed"].entries
    np.testing.assert_array_equal(flat[mixed].get(), [1.0, 4.0, 8.0])


def test_device_torch_adopts_the_arrays_in_place(cp):
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch has no CUDA support here")
    gpu = mio.to_cupy(mixed_mesh())
    t = torch.from_dlpack(gpu.points)
    assert t.is_cuda and t.data_ptr() == gpu.points.data.ptr


def test_pinned_sync_and_async_give_the_same_arrays(cp):
    mesh = big_mesh()
    plain = mio.to_cupy(mesh)
    pinned = mio.to_cupy(mesh, pinned=True)
    assert pinned.refs == [] and pinned.ready is None and any("staging ring" in d for d in pinned.derived)
    stream = cp.cuda.Stream(non_blocking=True)
    async_ = mio.to_cupy(mesh, pinned=True, stream=stream)
    assert async_.stream is stream and async_.ready is not None
    assert 1 <= len(async_.refs) <= _gpu.STAGING_CHUNKS  # the staging chunks the last copies read
    async_.synchronize()
    assert async_.refs == [] and async_.ready.done
    for (label, a), (_, b), (_, c) in zip(plain.arrays(), pinned.arrays(), async_.arrays()):
        assert bool(cp.array_equal(a, b)) and bool(cp.array_equal(a, c)), label


def test_context_manager_waits_for_the_copies(cp):
    mesh = big_mesh(50_000)
    stream = cp.cuda.Stream(non_blocking=True)
    with mio.to_cupy(mesh, pinned=True, stream=stream) as gpu:
        assert gpu.refs and gpu.ready is not None
    assert gpu.refs == [] and gpu.ready.done
    np.testing.assert_array_equal(gpu.points.get(), mesh.points)  # arrays still valid: nothing dangles


def test_from_cupy_device_round_trip(cp):
    mesh = mixed_mesh()
    gpu = mio.to_cupy(mesh)
    with pytest.warns(mio.InteropWarning, match="device->host copy") as record:
        back = mio.from_cupy(gpu)
    assert len(record) == _array_count(gpu) - 1  # one noted copy per array the Mesh needs (not block_bases)
    assert_same_mesh(back, mesh)
    assert all(isinstance(c.data, np.ndarray) for c in back.cells)


class CAIOnly:
    """A HOOMDGPUArray-like producer: exposes a device buffer through
    __cuda_array_interface__ only (no DLPack, no .get())."""

    def __init__(self, d):
        self._d = d

    @property
    def __cuda_array_interface__(self):
        return self._d.__cuda_array_interface__


def test_from_cupy_accepts_cai_only_producers(cp):
    mesh = mixed_mesh()
    gpu = mio.to_cupy(mesh)
    duck = types.SimpleNamespace(points=CAIOnly(gpu.points), cells=[(t, CAIOnly(c)) for t, c in gpu.cells],
                                 point_data={"T": CAIOnly(gpu.point_data["T"])})
    with pytest.warns(mio.InteropWarning, match="via __cuda_array_interface__"):
        back = mio.from_cupy(duck)
    np.testing.assert_array_equal(back.points, mesh.points)
    np.testing.assert_array_equal(back.cells[2].data, mesh.cells[2].data)
    np.testing.assert_array_equal(back.point_data["T"], mesh.point_data["T"])


def test_from_cupy_accepts_numba_device_arrays(cp):
    numba_cuda = pytest.importorskip("numba.cuda", reason="numba (with CUDA support) is not installed")
    if not numba_cuda.is_available():
        pytest.skip("numba.cuda reports no usable CUDA device")
    mesh = mixed_mesh()
    duck = types.SimpleNamespace(points=numba_cuda.to_device(mesh.points),
                                 cells=[(b.type, numba_cuda.to_device(b.data)) for b in mesh.cells],
                                 point_data={k: numba_cuda.to_device(v) for k, v in mesh.point_data.items()})
    with pytest.warns(mio.InteropWarning, match="device->host copy"):
        back = mio.from_cupy(duck)
    np.testing.assert_array_equal(back.points, mesh.points)
    np.testing.assert_array_equal(back.point_data["v"], mesh.point_data["v"])


def test_from_cupy_accepts_torch_cuda_tensors(cp):
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch has no CUDA support here")
    mesh = mixed_mesh()
    duck = types.SimpleNamespace(points=torch.from_numpy(mesh.points).cuda(),
                                 cells=[(b.type, torch.from_numpy(b.data).cuda()) for b in mesh.cells])
    with pytest.warns(mio.InteropWarning, match="device->host copy"):
        back = mio.from_cupy(duck)
    np.testing.assert_array_equal(back.points, mesh.points)


def _file_format():
    table = mio.formats()
    for name, suffix in (("vtu", ".vtu"), ("gmsh", ".msh")):
        if table.get(name, {}).get("read") and table.get(name, {}).get("write"):
            return suffix
    raise AssertionError("neither a vtu nor a gmsh reader+writer is registered on this build")


def test_read_to_cupy_kernel_from_cupy_write_read(cp, tmp_path):
    suffix = _file_format()
    source = tmp_path / f"source{suffix}"
    mesh = big_mesh(20_000)
    mesh.regions = []  # the formats' region support is tested with the formats
    mio.write(source, mesh)
    read = mio.read(source)
    gpu = mio.to_cupy(read)
    scale = cp.ElementwiseKernel("float64 x", "float64 y", "y = 2.0 * x + 1.0", "meshio_scale")
    gpu.point_data["T"] = scale(gpu.point_data["T"])
    gpu.points[:, 2] += 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mio.InteropWarning)
        back = mio.from_cupy(gpu)
    target = tmp_path / f"scaled{suffix}"
    mio.write(target, back)
    again = mio.read(target)
    np.testing.assert_allclose(again.point_data["T"], 2.0 * read.point_data["T"] + 1.0)
    np.testing.assert_allclose(again.points[:, 2], read.points[:, 2] + 1.0)
    np.testing.assert_array_equal(again.cells[0].data, read.cells[0].data)
