"""The GPU hand-off under CuPy 14.2's real semantics: asynchronous copies, a pinned pool
that hands freed blocks out again, foreign DLPack / CAI producers, streams from other
libraries.

Always-on half: runs on tests/python/fake_cupy.py, a host-memory stand-in whose copies
run only when their stream is synchronised and whose pinned pool reuses blocks as CuPy's
does (see its docstring). It checks host-side correctness, never page-locking or speed.

Gated half (bottom): the same properties on a CUDA device with CuPy (and torch where a test
says so); each skips with its reason without one. tools/gpu_check.sh runs them.
"""
from __future__ import annotations

import contextlib
import ctypes
import gc
import json
import sys
import types
import warnings
from pathlib import Path

import numpy as np
import pytest

import meshioplusplus as mio
from meshioplusplus import _testing
from meshioplusplus import _gpu

import fake_cupy
from helpers import DLPackOnly

MiB = 1 << 20
ROOT = Path(__file__).resolve().parents[2]


def addr(a) -> int:
    return a.__array_interface__["data"][0]


@contextlib.contextmanager
def no_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


def mesh_of(n_points: int, seed: int = 0, n_cells: int | None = None):
    rng = np.random.default_rng(seed)
    n_cells = n_points if n_cells is None else n_cells
    return mio.Mesh(
        rng.random((n_points, 3)),
        [("tetra", rng.integers(0, n_points, (n_cells, 4)))],
        point_data={"T": rng.random(n_points)},
        cell_data={"rho": [rng.random(n_cells)]},
        regions=[mio.Region("inlet", "point", np.arange(0, n_points, 3))],
    )


@pytest.fixture
def fake(monkeypatch):
    cp = fake_cupy.install(monkeypatch)
    yield cp
    gc.collect()


def device_equals_host(gpu, mesh):
    np.testing.assert_array_equal(gpu.points.get(), mesh.points)
    np.testing.assert_array_equal(gpu.cells[0][1].get(), mesh.cells[0].data)
    np.testing.assert_array_equal(gpu.point_data["T"].get(), mesh.point_data["T"])
    np.testing.assert_array_equal(gpu.cell_data["rho"][0].get(), mesh.cell_data["rho"][0])
    np.testing.assert_array_equal(gpu.regions[0].entries.get(), mesh.regions[0].entries)


# --- 1. staging outlives the payload until the copies that read it are done ---------------------

def test_dropping_the_payload_before_synchronising_keeps_the_staged_data(fake):
    stream = fake.cuda.Stream(non_blocking=True)
    first, second = mesh_of(5000, seed=1), mesh_of(5000, seed=2)  # same sizes, other values
    pts1 = mio.to_cupy(first, pinned=True, stream=stream).points  # the payload is dropped at once
    gc.collect()
    pts2 = mio.to_cupy(second, pinned=True, stream=stream).points
    stream.synchronize()
    np.testing.assert_array_equal(pts1.get(), first.points)
    np.testing.assert_array_equal(pts2.get(), second.points)


def test_a_time_step_loop_on_one_stream_delivers_every_step(fake):
    stream = fake.cuda.Stream(non_blocking=True)
    mesh = mesh_of(4000)
    steps = []
    for step in range(4):
        mesh.point_data["T"][:] = step  # the solver's new state
        steps.append(mio.to_cupy(mesh, pinned=True, stream=stream).point_data["T"])
    stream.synchronize()
    for step, t in enumerate(steps):
        assert np.all(t.get() == step), f"step {step}"


# --- 2. direct and staged paths agree: host arrays are read before to_cupy returns --------------

def test_changing_the_mesh_after_to_cupy_returns_changes_nothing_on_the_device(fake):
    with _gpu.pinned_reads():
        flat, _ = _testing.owned_array(3 * 3000)  # a reader's buffer, page-locked: the direct path
    mesh = mesh_of(3000)
    flat[...] = np.random.default_rng(5).random(flat.size)
    mesh.points = flat.reshape(3000, 3)
    expected_points, expected_t = mesh.points.copy(), mesh.point_data["T"].copy()
    stream = fake.cuda.Stream(non_blocking=True)
    gpu = mio.to_cupy(mesh, pinned=True, stream=stream)
    assert "host->device path of points: direct" in gpu.derived
    assert "host->device path of point_data['T']: staged" in gpu.derived
    mesh.points[...] = -1.0  # the caller reuses its buffers at once
    mesh.point_data["T"][...] = -1.0
    stream.synchronize()
    np.testing.assert_array_equal(gpu.points.get(), expected_points)
    np.testing.assert_array_equal(gpu.point_data["T"].get(), expected_t)


# --- 6. pinned staging memory stays bounded whatever the sizes ----------------------------------------

def test_pinned_memory_stays_bounded_over_meshes_of_many_sizes(fake):
    # Payloads from about 1 MiB to 23 MiB, all different: the pool would keep one block of
    # every size (about 280 MiB in all) if each transfer took a staging buffer of its own.
    held = []
    for i, n in enumerate(range(15_000, 330_000, 15_000)):
        mesh = mesh_of(n, seed=i)
        gpu = mio.to_cupy(mesh, pinned=True)
        np.testing.assert_array_equal(gpu.points[-3:].get(), mesh.points[-3:])
        held.append(fake.pool.total_bytes())
        del gpu, mesh
        gc.collect()
    assert max(held) <= 16 * MiB, [h // MiB for h in held]
    assert len(set(held[len(held) // 2:])) == 1  # the sizes keep growing, the pinned memory does not


# --- 3. pinned host producers (kDLCUDAHost) are host memory ----------------------------------------

_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype, _capsule_pointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]


class PinnedHostTensor:
    """What torch's pin_memory() tensors and JAX pinned host arrays look like through
    DLPack: device type 3 (kDLCUDAHost), in __dlpack_device__ and in the capsule itself
    (numpy's own capsule with its DLDevice rewritten to kDLCUDAHost)."""

    def __init__(self, a):
        self._a = a
        self.dlpack_calls = 0

    def __dlpack_device__(self):
        return (3, 0)

    def __dlpack__(self, stream=None, **kwargs):
        self.dlpack_calls += 1
        capsule = self._a.__dlpack__()
        ctypes.c_int32.from_address(_capsule_pointer(capsule, b"dltensor") + 8).value = 3  # DLTensor.device.device_type
        return capsule


def test_kdlcudahost_producers_are_adopted_as_host_memory_without_cupy_copies(fake):
    pts = fake.cupyx.empty_pinned((4, 3))
    pts[...] = np.random.default_rng(3).random((4, 3))
    conn = np.array([[0, 1, 2], [0, 2, 3]])
    producer = PinnedHostTensor(pts)
    with no_warnings():
        mesh = mio.from_cupy(types.SimpleNamespace(points=producer, cells=[("triangle", PinnedHostTensor(conn))]))
    assert producer.dlpack_calls == 1
    assert addr(mesh.points) == addr(pts) and addr(mesh.cells[0].data) == addr(conn)  # adopted in place
    assert fake.log.count("from_dlpack") == fake.log.count("get") == 0
    # Adopted pinned memory is known pinned: back to the device without staging.
    gpu = mio.to_cupy(mesh, pinned=True)
    assert "host->device path of points: direct" in gpu.derived


# --- 4. foreign device producers: DLPack first (it carries the stream), refusals explained --------

class DeviceTensor:
    """A torch-CUDA-like producer on the stand-in: DLPack and CAI, records which was used."""

    def __init__(self, a, refuse=None):
        self._fake_device_data = a
        self.refuse = refuse
        self.dlpack_streams, self.cai_reads = [], 0

    def __dlpack_device__(self):
        return (2, 0)

    def __dlpack__(self, stream=None, **kwargs):
        if self.refuse:
            raise self.refuse
        self.dlpack_streams.append(stream)
        return object()

    @property
    def __cuda_array_interface__(self):
        self.cai_reads += 1
        if self.refuse:
            raise self.refuse
        return {"shape": self._fake_device_data.shape, "typestr": self._fake_device_data.dtype.str,
                "data": (addr(self._fake_device_data), False), "version": 3, "strides": None}  # torch: no stream


def test_device_producers_go_through_dlpack_with_the_consumers_stream(fake):
    pts = np.random.default_rng(4).random((5, 3))
    t = DeviceTensor(pts)
    with pytest.warns(mio.InteropWarning, match=r"points copied: device->host copy \(adopted by CuPy on device via DLPack"):
        mesh = mio.from_cupy(types.SimpleNamespace(points=t, cells=[]))
    assert t.cai_reads == 0 and len(t.dlpack_streams) == 1 and t.dlpack_streams[0] is not None
    np.testing.assert_array_equal(mesh.points, pts)


@pytest.mark.parametrize("refusal, hint", [
    (RuntimeError("Can't export tensors that require gradient, use tensor.detach()"), r"detach"),
    (ValueError("a sharded array spanning several devices has no single buffer"), r"sharded over several devices"),
])
@pytest.mark.parametrize("protocols", ["dlpack+cai", "cai only"])
def test_producers_refusing_their_protocol_give_a_clear_error(fake, refusal, hint, protocols):
    t = DeviceTensor(np.zeros(3), refuse=refusal)
    if protocols == "cai only":  # no DLPack at all: the CAI probe itself raises
        t = type("CAIOnly", (), {"__cuda_array_interface__": property(lambda self: (_ for _ in ()).throw(refusal))})()
    with pytest.raises(mio.InteropError, match=r"from_cupy: points: the producer refused .*" + hint):
        mio.from_cupy(types.SimpleNamespace(points=t, cells=[]))
    assert fake.log.count("get") == 0


def test_a_real_torch_tensor_that_requires_grad_is_refused_with_the_way_out(monkeypatch):
    torch = pytest.importorskip("torch", reason="torch (CPU) is a Debian test oracle (python3-torch)")
    monkeypatch.setitem(sys.modules, "cupy", None)  # a host producer: no CuPy involved
    t = torch.ones(4, 3, dtype=torch.float64, requires_grad=True)
    with pytest.raises(mio.InteropError, match=r"from_cupy: points: the producer refused .*detach"):
        mio.from_cupy(types.SimpleNamespace(points=t, cells=[]))
    mesh = mio.from_cupy(types.SimpleNamespace(points=t.detach(), cells=[]))
    assert addr(mesh.points) == t.data_ptr()


# --- 5. memory pinned by others is recognised; pageable input is CuPy-staged by default ------------

@pytest.mark.parametrize("pin", ["cupyx.empty_pinned", "hostRegister"])
def test_memory_pinned_by_others_goes_direct(fake, pin):
    mesh = mesh_of(2000)
    if pin == "cupyx.empty_pinned":
        points = fake.cupyx.empty_pinned(mesh.points.shape)
        points[...] = mesh.points
    else:
        points = mesh.points.copy()
        fake.cuda.runtime.hostRegister(addr(points), points.nbytes, 0)
    mesh.points = points
    gpu = mio.to_cupy(mesh, pinned=True)
    assert "host->device path of points: direct" in gpu.derived
    assert "host->device path of cells[0]: staged" in gpu.derived
    assert addr(points) in {e[3] for e in fake.log.of("set")}  # copied from where it lies: no staging copy
    np.testing.assert_array_equal(gpu.points.get(), points)


def test_benches_time_a_true_pageable_baseline(tmp_path):
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import pinned_crossover
    finally:
        sys.path.remove(str(ROOT / "bench"))
    cp_before = sys.modules.get("cupy")
    try:
        assert pinned_crossover.main([str(tmp_path / "x.md"), "--dry-run", "--sizes", "64K", "--repeats", "1"]) == 0
        log = sys.modules["cupy"].log
    finally:
        if cp_before is None:
            sys.modules.pop("cupy", None)
        else:
            sys.modules["cupy"] = cp_before
        sys.modules.pop("cupyx", None)
    result = json.loads((tmp_path / "x.json").read_text())["results"][0]
    assert {"raw pageable set()", "raw cupy.asarray", "raw pinned set()"} <= set(result["h2d"])
    assert log.count("set") > 0


# --- 7. context-scoped producers: from_cupy(copy=True); read-only stays read-only -----------------

class LocalSnapshot:
    """HOOMD-style: buffers valid only inside the context manager; the owner reuses them
    after the block (HOOMD: 'cannot be accessed outside of the context manager')."""

    def __init__(self, n):
        self._buf = np.random.default_rng(9).random((n, 3))

    def __enter__(self):
        return types.SimpleNamespace(position=DLPackOnly(self._buf))

    def __exit__(self, *exc):
        self._buf[...] = -1.0  # the next time step overwrites the buffer


def test_copy_true_outlives_a_context_scoped_producer(fake):
    snap = LocalSnapshot(6)
    with snap as data:
        expected = np.from_dlpack(data.position).copy()
        adopted = mio.from_cupy(types.SimpleNamespace(points=data.position, cells=[]))
        with pytest.warns(mio.InteropWarning, match=r"points copied: copied on request \(copy=True\)"):
            owned = mio.from_cupy(types.SimpleNamespace(points=data.position, cells=[]), copy=True)
    np.testing.assert_array_equal(owned.points, expected)  # its own memory: still valid
    assert np.all(adopted.points == -1.0)  # zero-copy adoption sees the producer reuse its buffer
    assert owned.points.flags.writeable and owned.points.flags.owndata


def test_read_only_host_arrays_stay_read_only_unless_copied(fake):
    frozen = np.arange(12.0).reshape(4, 3)
    frozen.flags.writeable = False
    conn = np.array([[0, 1, 2]])
    with no_warnings():
        mesh = mio.from_cupy(types.SimpleNamespace(points=frozen, cells=[("triangle", conn)]))
    assert mesh.points is frozen and not mesh.points.flags.writeable
    adopted = mio.from_cupy(types.SimpleNamespace(points=DLPackOnly(np.arange(6.0).reshape(2, 3)), cells=[]))
    assert adopted.points.flags.writeable == np.from_dlpack(DLPackOnly(np.zeros(1))).flags.writeable  # as numpy adopts it
    with pytest.warns(mio.InteropWarning):
        copied = mio.from_cupy(types.SimpleNamespace(points=frozen, cells=[("triangle", conn)]), copy=True)
    assert copied.points.flags.writeable and not np.shares_memory(copied.points, frozen)


# --- 8. stream= of other libraries, validated first ---------------------------------------------

def test_a_stream_that_is_not_one_is_rejected_before_anything_moves(fake):
    with pytest.raises(TypeError, match=r"to_cupy: stream must be a cupy.cuda.Stream, .* got str"):
        mio.to_cupy(mesh_of(100), pinned=True, stream="fast")
    assert not [e for e in fake.log.events if e[0] in ("empty", "set", "asarray", "alloc_pinned")]


@pytest.mark.parametrize("kind", ["torch-like", "__cuda_stream__", "raw handle"])
def test_streams_of_other_libraries_are_wrapped_as_external_streams(fake, kind):
    stream = fake.cuda.Stream(non_blocking=True)
    other = {
        "torch-like": types.SimpleNamespace(cuda_stream=stream.ptr),
        "__cuda_stream__": type("S", (), {"__cuda_stream__": lambda self: (0, stream.ptr)})(),
        "raw handle": stream.ptr,
    }[kind]
    mesh = mesh_of(500)
    gpu = mio.to_cupy(mesh, pinned=True, stream=other)
    assert fake.log.of("external_stream") == [("external_stream", stream.ptr)]
    assert gpu.stream.ptr == stream.ptr and not gpu.ready.done
    stream.synchronize()  # the library's own stream: the copies were enqueued there
    assert gpu.ready.done
    device_equals_host(gpu, mesh)


# --- 9. notes are warned before anything moves ---------------------------------------------------

def test_to_cupy_warns_before_any_copy(fake):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(mio.InteropWarning, match="cast from float64 to float32 on request"):
            mio.to_cupy(mesh_of(100), float32=True, pinned=True, stream=fake.cuda.Stream())
    assert not [e for e in fake.log.events if e[0] in ("empty", "set", "asarray", "alloc_pinned")]


def test_from_cupy_warns_before_any_copy(fake):
    gpu = mio.to_cupy(mesh_of(100))
    mark = len(fake.log.events)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(mio.InteropWarning, match="device->host copy"):
            mio.from_cupy(gpu)
    assert not [e for e in fake.log.events[mark:] if e[0] == "get"]


# --- 10. a counted device is not a working one -----------------------------------------------------

def test_a_device_whose_first_kernel_fails_is_not_a_working_device(monkeypatch):
    fake_cupy.install(monkeypatch, kernel_error="nvrtc: libnvrtc.so.13: cannot open shared object file")
    assert mio.has_cupy() and not mio.has_cuda_device()
    with pytest.raises(RuntimeError, match=r"counts a CUDA device but launching a kernel failed .*libnvrtc.*cupy-cuda13x\[ctk\]"):
        mio.check_cuda()


def test_check_cuda_runs_a_kernel_on_a_working_device(fake):
    assert "ran a kernel" in mio.check_cuda() and mio.has_cuda_device()
    assert fake.log.count("get_synchronize") >= 1  # the result was read back, not assumed


# --- 11. cupy.from_dlpack refuses host arrays: the docs show what works ------------------------------

def test_host_payload_reaches_cupy_through_asarray_not_from_dlpack(fake):
    p = mio.to_dlpack(mesh_of(10))
    with pytest.raises(TypeError):
        fake.from_dlpack(p.points)
    d = fake.asarray(np.from_dlpack(p.points))
    np.testing.assert_array_equal(d.get(), p.points)
    assert "cupy.asarray(np.from_dlpack(" in mio.to_dlpack.__doc__


# --- the page says only what is true ---------------------------------------------------------------

def test_docs_gpu_page_claims():
    doc = (ROOT / "docs" / "gpu.md").read_text()
    dlpack = doc[doc.index("## DLPack"):doc.index("## dtypes")]
    assert "cupy.from_dlpack" not in dlpack.replace("`cupy.from_dlpack` refuses", "")  # 11
    assert "cupy.asarray(np.from_dlpack(" in dlpack
    assert "When `to_cupy` returns" in doc  # 2: when the host arrays may be touched again
    assert "is_memory_pinned" in doc and "d.set(" in doc  # 5
    assert "the only kind the DMA engine can copy from" not in doc
    assert 'cupy-cuda13x[ctk]' in doc and "check_cuda()" in doc  # 10
    assert "copy=True" in doc and "read-only" in doc  # 7
    assert "No GPU was available" in doc


# =================================== gated: a CUDA device =========================================
# The `cp` fixture (CuPy with a CUDA device, else a skip naming why) is in conftest.py.


def torch_cuda():
    torch = pytest.importorskip("torch", reason="torch is not installed: the torch device cases need it")
    if not torch.cuda.is_available():
        pytest.skip("torch has no CUDA support here")
    return torch


def test_device_dropped_payloads_deliver_their_own_data(cp):  # 1
    stream = cp.cuda.Stream(non_blocking=True)
    meshes = [mesh_of(300_000, seed=s) for s in range(3)]  # about 22 MB each: several chunk fills
    points = [mio.to_cupy(m, pinned=True, stream=stream).points for m in meshes]  # payloads dropped at once
    gc.collect()
    stream.synchronize()
    for p, m in zip(points, meshes):
        np.testing.assert_array_equal(p.get(), m.points)


def test_device_host_arrays_may_change_once_to_cupy_returns(cp):  # 2
    cupyx = pytest.importorskip("cupyx")
    mesh = mesh_of(300_000)
    pinned_points = cupyx.empty_pinned(mesh.points.shape)
    pinned_points[...] = mesh.points
    mesh.points = pinned_points
    expected = mesh.points.copy(), mesh.cells[0].data.copy()
    stream = cp.cuda.Stream(non_blocking=True)
    gpu = mio.to_cupy(mesh, pinned=True, stream=stream)
    assert "host->device path of points: direct" in gpu.derived and "host->device path of cells[0]: staged" in gpu.derived
    mesh.points[...] = -1.0
    mesh.cells[0].data[...] = -1
    gpu.synchronize()
    np.testing.assert_array_equal(gpu.points.get(), expected[0])
    np.testing.assert_array_equal(gpu.cells[0][1].get(), expected[1])


def test_device_torch_pinned_tensors_are_host_memory(cp):  # 3
    torch = torch_cuda()
    t = torch.arange(12, dtype=torch.float64).reshape(4, 3).pin_memory()
    assert int(t.__dlpack_device__()[0]) == 3  # kDLCUDAHost
    with no_warnings():
        mesh = mio.from_cupy(types.SimpleNamespace(points=t, cells=[]))
    assert addr(mesh.points) == t.data_ptr()
    assert "host->device path of points: direct" in mio.to_cupy(mesh, pinned=True).derived


def test_device_torch_cuda_tensors_go_through_dlpack_and_grad_is_refused(cp):  # 4
    torch = torch_cuda()
    t = torch.rand(5, 3, device="cuda", dtype=torch.float64)
    with pytest.warns(mio.InteropWarning, match="via DLPack"):
        mesh = mio.from_cupy(types.SimpleNamespace(points=t, cells=[]))
    np.testing.assert_array_equal(mesh.points, t.cpu().numpy())
    with pytest.raises(mio.InteropError, match="detach"):
        mio.from_cupy(types.SimpleNamespace(points=t.clone().requires_grad_(True), cells=[]))


def test_device_memory_pinned_by_others_goes_direct(cp):  # 5
    cupyx = pytest.importorskip("cupyx")
    mesh = mesh_of(50_000)
    points = cupyx.empty_pinned(mesh.points.shape)
    points[...] = mesh.points
    temp = mesh.point_data["T"].copy()
    cp.cuda.runtime.hostRegister(addr(temp), temp.nbytes, 0)
    try:
        mesh.points, mesh.point_data["T"] = points, temp
        gpu = mio.to_cupy(mesh, pinned=True)
        assert "host->device path of points: direct" in gpu.derived
        assert "host->device path of point_data['T']: direct" in gpu.derived
        np.testing.assert_array_equal(gpu.points.get(), points)
        np.testing.assert_array_equal(gpu.point_data["T"].get(), temp)
    finally:
        cp.cuda.runtime.hostUnregister(addr(temp))


def test_device_pinned_staging_requests_only_fixed_chunks(cp, monkeypatch):  # 6
    from meshioplusplus import _gpu_pinned

    _gpu.release_staging()
    sizes = []
    real = cp.cuda.alloc_pinned_memory
    monkeypatch.setattr(cp.cuda, "alloc_pinned_memory", lambda n: sizes.append(n) or real(n))
    for i, n in enumerate(range(50_000, 400_000, 50_000)):
        mesh = mesh_of(n, seed=i)
        gpu = mio.to_cupy(mesh, pinned=True)
        np.testing.assert_array_equal(gpu.points[-3:].get(), mesh.points[-3:])
    assert sizes and set(sizes) == {_gpu.STAGING_CHUNK_BYTES} and len(sizes) <= _gpu.STAGING_CHUNKS
    assert sum(r.nbytes for r in _gpu_pinned._RINGS.values()) <= _gpu.STAGING_CHUNKS * _gpu.STAGING_CHUNK_BYTES


def test_device_jax_arrays_host_and_device(cp):  # 4 and 7 with JAX
    jax = pytest.importorskip("jax", reason="JAX is not installed: the JAX device cases need it")
    host = jax.device_put(np.arange(6.0).reshape(2, 3), jax.devices("cpu")[0])
    mesh = mio.from_cupy(types.SimpleNamespace(points=host, cells=[]))
    assert mesh.points.flags.writeable == np.from_dlpack(host).flags.writeable  # as the producer and numpy say
    with pytest.warns(mio.InteropWarning, match="copy=True"):
        owned = mio.from_cupy(types.SimpleNamespace(points=host, cells=[]), copy=True)
    assert owned.points.flags.writeable
    try:
        gpu_device = jax.devices("gpu")[0]
    except RuntimeError as exc:
        pytest.skip(f"JAX has no GPU backend here ({exc})")
    on_gpu = jax.device_put(np.arange(6.0).reshape(2, 3), gpu_device)
    with pytest.warns(mio.InteropWarning, match="via DLPack"):
        back = mio.from_cupy(types.SimpleNamespace(points=on_gpu, cells=[]))
    np.testing.assert_array_equal(back.points, np.arange(6.0).reshape(2, 3))


def test_device_streams_of_torch_are_wrapped(cp):  # 8
    torch = torch_cuda()
    s = torch.cuda.Stream()
    mesh = mesh_of(100_000)
    gpu = mio.to_cupy(mesh, pinned=True, stream=s)
    assert isinstance(gpu.stream, cp.cuda.ExternalStream) and gpu.stream.ptr == s.cuda_stream
    s.synchronize()
    device_equals_host(gpu, mesh)
    with pytest.raises(TypeError, match="stream must be"):
        mio.to_cupy(mesh, stream="fast")


def test_device_nothing_is_allocated_when_a_warning_raises(cp):  # 9
    pool = cp.get_default_memory_pool()
    before = pool.used_bytes()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(mio.InteropWarning):
            mio.to_cupy(mesh_of(200_000), float32=True)
    assert pool.used_bytes() == before


def test_device_check_cuda_runs_a_kernel(cp):  # 10
    assert "ran a kernel" in mio.check_cuda() and mio.has_cuda_device()


def test_device_cupy_from_dlpack_refuses_host_arrays(cp):  # 11
    p = mio.to_dlpack(mesh_of(10))
    with pytest.raises(TypeError):
        cp.from_dlpack(p.points)
    np.testing.assert_array_equal(cp.asarray(np.from_dlpack(p.points)).get(), p.points)
