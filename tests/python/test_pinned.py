"""The GPU hand-off's pinned path: reading straight into pinned memory (docs/gpu.md).

Always-on half (no GPU): the C++ allocator shim driven through ``mio.use_allocator`` with
Python callables (GIL held in both callbacks, also from a reader thread that released it;
every buffer freed exactly once through the allocator it was born with, also after
uninstall; a process exiting with live buffers exits cleanly), ``pinned_reads()`` without
CuPy, and the bookkeeping of ``pinned_reads`` / the ``to_cupy(pinned=True)`` fast path /
``from_cupy(pinned=True)`` routed through tests/python/fake_cupy.py. That fake is ordinary
(pageable) host memory: those tests check which path each array takes and what is
registered, kept and released - never page-locking or a device.

Gated half (bottom): CuPy and a CUDA device; skips otherwise. Page-locking as the driver
reports it, identical device and host arrays, lifetimes, streams.
"""
from __future__ import annotations

import ctypes
import gc
import os
import subprocess
import sys
import textwrap
import threading
import warnings
from pathlib import Path

import numpy as np
import pytest

import meshioplusplus as mio
from meshioplusplus import _testing
from meshioplusplus import _gpu

import fake_cupy

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "data"
FIXTURE = DATA / "gmsh" / "box3d_o2_msh41.msh"


def addr(a) -> int:
    return a.__array_interface__["data"][0]


def churn():
    gc.collect()
    junk = [np.random.default_rng(i).random(10_000) for i in range(20)]
    del junk
    gc.collect()


def all_arrays(mesh, field_data=False):
    """Every array of a mesh; field_data (a host passthrough, never transferred) on request."""
    out = [mesh.points]
    for block in mesh.cells:
        out += block.data if isinstance(block.data, list) else [block.data]
    out += list(mesh.point_data.values()) + [a for v in mesh.cell_data.values() for a in v]
    out += [r.entries for r in mesh.regions]
    if field_data:
        out += list(mesh.field_data.values())
    return out


def owners(mesh):
    """The distinct capsules owning a read mesh's arrays."""
    out = set()
    for a in all_arrays(mesh, field_data=True):
        while isinstance(a, np.ndarray) and a.base is not None:
            a = a.base
        out.add(id(a))
    return out


def sample_mesh():
    rng = np.random.default_rng(7)
    return mio.Mesh(
        rng.random((50, 3)),
        [("triangle", rng.integers(0, 50, (40, 3))), ("tetra", rng.integers(0, 50, (30, 4)))],
        point_data={"T": rng.random(50), "u": rng.random((50, 3))},
        cell_data={"rho": [rng.random(40), rng.random(30)]},
        regions=[mio.Region("inlet", "point", np.arange(0, 50, 5)), mio.Region("wall", "side", [[1, 0], [41, 2]], dim=2)],
    )


@pytest.fixture
def fake(monkeypatch):
    cp = fake_cupy.install(monkeypatch)
    yield cp
    gc.collect()


# --- the shim, through mio.use_allocator with Python callables ---------------------------------------

class Recorder:
    """alloc/free that record, per call, whether the calling thread holds the GIL."""

    def __init__(self):
        self.live, self.allocs, self.frees, self.bad = {}, 0, 0, 0
        self.gil, self.threads = [], set()

    def alloc(self, nbytes):
        self.gil.append(ctypes.pythonapi.PyGILState_Check())
        self.threads.add(threading.get_ident())
        b = np.empty(nbytes + 64, np.uint8)
        a = addr(b) + (-addr(b)) % 64
        self.live[a] = (b, nbytes)
        self.allocs += 1
        return a

    def free(self, address, nbytes):
        self.gil.append(ctypes.pythonapi.PyGILState_Check())
        if address not in self.live or self.live[address][1] != nbytes:
            self.bad += 1
            return
        del self.live[address]
        self.frees += 1


def test_shim_takes_the_gil_in_both_callbacks_from_a_reader_thread():
    # mio.read releases the GIL while it parses; the allocations happen on that thread, in
    # C++, and the shim must take the GIL back before calling Python.
    rec = Recorder()
    box = {}
    with mio.use_allocator(rec.alloc, rec.free):
        worker = threading.Thread(target=lambda: box.setdefault("mesh", mio.read(FIXTURE)))
        worker.start()
        worker.join()
    assert worker.ident in rec.threads and threading.get_ident() not in rec.threads
    mesh = box.pop("mesh")
    assert rec.allocs > 5 and rec.allocs - rec.frees == len(owners(mesh))  # one live buffer per returned array
    del mesh, worker
    churn()
    assert rec.frees == rec.allocs and rec.bad == 0 and not rec.live
    assert rec.gil and all(g == 1 for g in rec.gil)  # every alloc and every free ran holding the GIL


def test_buffers_are_freed_once_through_the_allocator_they_were_born_with_after_uninstall():
    first, second = Recorder(), Recorder()
    with mio.use_allocator(first.alloc, first.free):
        a = mio.read(FIXTURE)
    with mio.use_allocator(second.alloc, second.free):
        b = mio.read(FIXTURE)
    assert not mio._core.allocator_installed()
    c = mio.read(FIXTURE)  # default heap: neither recorder sees it
    assert first.allocs == second.allocs > 5
    live_first = first.allocs - first.frees
    assert live_first == second.allocs - second.frees == len(owners(a)) == len(owners(b))
    del b
    churn()
    assert second.frees == second.allocs and first.allocs - first.frees == live_first  # b's went to `second` only
    del a
    churn()
    assert first.frees == first.allocs and first.bad == second.bad == 0
    del c
    churn()
    assert (first.frees, second.frees) == (first.allocs, second.allocs)  # nothing of c's reached either


def test_process_exiting_with_live_hooked_buffers_exits_cleanly():
    code = textwrap.dedent(
        f"""
        import numpy as np, meshioplusplus as mio
        keep = {{}}
        def alloc(n):
            b = np.empty(max(n, 1), np.uint8); keep[b.ctypes.data] = b; return b.ctypes.data
        def free(a, n):
            del keep[a]   # would raise KeyError if called twice, or after `keep` is torn down
        with mio.use_allocator(alloc, free):
            MESH = mio.read({str(FIXTURE)!r})
        VIEW = MESH.points[1:]
        print("ok", len(keep))
        """
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("ok ") and int(r.stdout.split()[1]) > 5
    assert "Error" not in r.stderr and "Exception ignored" not in r.stderr, r.stderr


# --- pinned_reads(): availability ----------------------------------------------------------------------

def test_pinned_reads_without_cupy_raises_the_install_recipe(monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", None)
    with pytest.raises(ImportError) as info:
        with _gpu.pinned_reads():
            pytest.fail("the block must not run")
    message = str(info.value)
    for line in ("pip install cupy-cuda13x", "pip install cupy-cuda12x", "pip install cupy-cuda11x", "cupy-rocm-"):
        assert line in message
    assert not mio._core.allocator_installed()  # nothing was installed


def test_pinned_reads_with_cupy_but_no_device_is_a_runtime_error(monkeypatch):
    fake_cupy.install(monkeypatch, device_count=0)
    with pytest.raises(RuntimeError, match="pinned_reads: CuPy 14.2.0-fake is installed but no CUDA device answers"):
        _gpu.pinned_reads()
    assert not mio._core.allocator_installed()


# --- pinned_reads(): bookkeeping through the fake pinned pool -------------------------------------------

def test_every_read_buffer_comes_from_the_pinned_pool_and_outlives_the_block(fake):
    with _gpu.pinned_reads() as pinned:
        assert mio._core.allocator_installed()
        mesh = mio.read(FIXTURE)
    assert not mio._core.allocator_installed()
    arrays = all_arrays(mesh)
    assert pinned.allocs == fake.log.count("alloc_pinned") > 5
    assert all(_gpu.is_pinned(a) for a in arrays)
    assert pinned.live == len(fake.pool.in_use) == pinned.allocs - pinned.frees
    # Views stay inside the pinned buffer; copies are ordinary memory (pinned-ness does not propagate).
    assert _gpu.is_pinned(mesh.points[2:5]) and _gpu.is_pinned(mesh.points[:, 0].base)
    assert not _gpu.is_pinned(mesh.points.copy()) and not _gpu.is_pinned(mesh.points * 2.0)
    assert not _gpu.is_pinned(mesh.points[:, 0])  # strided: not one contiguous range
    outside = mio.read(FIXTURE)
    assert not any(_gpu.is_pinned(a) for a in all_arrays(outside))
    expected = mesh.points.copy()
    churn()
    np.testing.assert_array_equal(mesh.points, expected)  # still valid after the block
    addresses = {addr(a) for a in arrays}
    del mesh, arrays
    churn()
    # Freed exactly once each, through the pinned allocator, back to the pool; registry emptied.
    assert pinned.frees == pinned.allocs and pinned.bad_frees == 0 and pinned.live == 0
    assert fake.pool.in_use == {} and fake.log.count("pinned_free") == pinned.allocs  # back to the pool
    assert not addresses & set(_gpu._PINNED)


def test_registry_entry_goes_exactly_when_the_free_callback_runs(fake):
    with _gpu.pinned_reads() as pinned:
        flat, address = _testing.owned_array(3000)
    assert address in _gpu._PINNED and _gpu._PINNED[address][1] == flat.nbytes
    rows = flat.reshape(-1, 3)[10:20]  # a view into the hooked buffer keeps it alive
    del flat
    churn()
    assert pinned.frees == 0 and address in _gpu._PINNED and _gpu.is_pinned(rows)
    del rows
    churn()
    assert pinned.frees == 1 and address not in _gpu._PINNED


def test_nested_allocators_inside_pinned_reads_win_and_restore(fake):
    rec = Recorder()
    with _gpu.pinned_reads() as pinned:
        a = _testing.owned_array(10)[0]
        with mio.use_allocator(rec.alloc, rec.free):
            b = _testing.owned_array(10)[0]
        c = _testing.owned_array(10)[0]
    assert (pinned.allocs, rec.allocs) == (2, 1)
    assert _gpu.is_pinned(a) and not _gpu.is_pinned(b) and _gpu.is_pinned(c)
    del a, b, c
    churn()
    assert pinned.frees == 2 and rec.frees == 1


def test_process_exiting_with_live_pinned_buffers_exits_cleanly():
    code = textwrap.dedent(
        f"""
        import sys
        sys.path.insert(0, {str(HERE)!r})
        import fake_cupy
        sys.modules["cupy"] = fake_cupy.make()
        import meshioplusplus as mio
        from meshioplusplus import _gpu
        with _gpu.pinned_reads() as pinned:
            MESH = mio.read({str(FIXTURE)!r})
        gpu = mio.to_cupy(MESH, pinned=True)
        import warnings; warnings.simplefilter("ignore")
        BACK = mio.from_cupy(gpu, pinned=True)   # pinned buffers owned from Python, alive at exit
        print("ok", pinned.live, sum(_gpu.is_pinned(a) for a in [BACK.points, BACK.cells[0].data]))
        """
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    word, live, back = r.stdout.split()
    assert word == "ok" and int(live) > 5 and int(back) == 2
    assert "Error" not in r.stderr and "Exception ignored" not in r.stderr, r.stderr


# --- to_cupy(pinned=True): the fast path (routing) --------------------------------------------------------

def sets_by_address(cp):
    return {e[3] for e in cp.log.events if e[0] == "set"}


def test_fast_path_sends_arrays_read_into_pinned_memory_directly(fake):
    with _gpu.pinned_reads():
        mesh = mio.read(FIXTURE)
    fake.log.events.clear()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gpu = mio.to_cupy(mesh, pinned=True)
    paths = {d.split(": ")[0][len("host->device path of "):]: d.split(": ")[1] for d in gpu.derived if d.startswith("host->device path of ")}
    labels = [label for label, _ in gpu.arrays()]
    assert set(paths) == set(labels)
    # Everything the reader allocated goes direct; only block_bases (built by the payload builder) is staged.
    assert {k for k, v in paths.items() if v == "staged"} == {"block_bases"}
    assert all(v == "direct" for k, v in paths.items() if k != "block_bases")
    sources = sets_by_address(fake)
    for a in all_arrays(mesh):
        if a.size:
            assert addr(a) in sources  # copied from the reader's own buffer: no staging copy
    (_, total, _), = fake.log.of("alloc_pinned")  # the one staging chunk, for block_bases only
    assert total == _gpu.STAGING_CHUNK_BYTES
    summary = [d for d in gpu.derived if d.startswith("host->device:")][0]
    assert f"{len(labels) - 1} direct from page-locked memory (no staging copy), 1 staged" in summary
    np.testing.assert_array_equal(gpu.points.get(), mesh.points)
    for (_, d), block in zip(gpu.cells, mesh.cells):
        np.testing.assert_array_equal(d.get(), block.data)


def test_fast_path_mixes_direct_views_and_staged_copies(fake):
    with _gpu.pinned_reads():
        flat, _ = _testing.owned_array(300)
        conn = _testing.owned_array(40)[0]
    points = flat.reshape(100, 3)  # a view into a hooked buffer: direct
    mesh = mio.Mesh(points, [("line", conn.astype(np.int64).reshape(20, 2) % 100)],  # astype: a pageable copy
                    point_data={"T": flat[100:200], "x": points[:, 0]})  # contiguous view: direct; strided: copied
    with pytest.warns(mio.InteropWarning, match=r"point_data\['x'\] copied"):
        gpu = mio.to_cupy(mesh, pinned=True, float32=False)
    assert "host->device path of points: direct" in gpu.derived
    assert "host->device path of point_data['T']: direct" in gpu.derived
    assert "host->device path of cells[0]: staged" in gpu.derived
    assert "host->device path of point_data['x']: staged" in gpu.derived
    np.testing.assert_array_equal(gpu.point_data["x"].get(), points[:, 0])
    np.testing.assert_array_equal(gpu.point_data["T"].get(), flat[100:200])
    # float32 on request: the cast copy is pageable, so it is staged; integers stay direct.
    with _gpu.pinned_reads():
        mesh2 = mio.read(FIXTURE)
    with pytest.warns(mio.InteropWarning, match="on request"):
        gpu32 = mio.to_cupy(mesh2, pinned=True, float32=True)
    assert "host->device path of points: staged" in gpu32.derived
    assert "host->device path of cells[0]: direct" in gpu32.derived


def test_fast_path_on_a_stream_reads_the_direct_sources_before_returning(fake):
    with _gpu.pinned_reads() as pinned:
        mesh = mio.read(FIXTURE)
    expected = mesh.points.copy(), mesh.cells[0].data.copy()
    stream = fake.cuda.Stream(non_blocking=True)
    gpu = mio.to_cupy(mesh, pinned=True, stream=stream)
    assert fake.log.count("synchronize") == 0  # the stream itself is not waited for ...
    assert fake.log.count("event_synchronize") >= 1  # ... only the event behind the direct copies
    assert len(gpu.refs) == 1 and gpu.ready is not None  # the staging chunk (block_bases) in flight
    del mesh  # safe at once: every direct source has been read
    churn()
    assert pinned.live == len(gpu.field_data) > 0  # only field_data (a host passthrough) still holds pinned buffers
    with gpu:
        pass
    assert gpu.refs == [] and gpu.ready.done
    np.testing.assert_array_equal(gpu.points.get(), expected[0])
    np.testing.assert_array_equal(gpu.cells[0][1].get(), expected[1])
    del gpu
    churn()
    assert pinned.frees == pinned.allocs


def test_pageable_meshes_take_the_staged_path_and_pinned_false_stays_asarray(fake):
    mesh = sample_mesh()
    gpu = mio.to_cupy(mesh, pinned=True)
    assert not any(d.endswith(": direct") for d in gpu.derived)
    assert fake.log.count("alloc_pinned") == 1
    fake.log.events.clear()
    with _gpu.pinned_reads():
        pinned_mesh = mio.read(FIXTURE)
    fake.log.events.clear()
    plain = mio.to_cupy(pinned_mesh)  # pinned=False: what users write today, even for pinned arrays
    assert fake.log.count("asarray") == sum(1 for _ in plain.arrays()) and fake.log.count("set") == 0
    assert not any("path of" in d for d in plain.derived)


# --- from_cupy(pinned=True): the pinned return (routing) ----------------------------------------------------

def test_pinned_return_gives_pinned_arrays_owned_by_the_mesh(fake, tmp_path):
    mesh = sample_mesh()
    gpu = mio.to_cupy(mesh)
    with pytest.warns(mio.InteropWarning, match=r"device->host copy into pinned host memory") as record:
        back = mio.from_cupy(gpu, pinned=True)
    assert len(record) == sum(1 for _ in gpu.arrays()) - 1  # block_bases stays behind
    arrays = all_arrays(back)
    assert all(_gpu.is_pinned(a) for a in arrays)
    gets = {e[1] for e in fake.log.events if e[0] == "get"}
    assert {addr(a) for a in arrays} <= gets  # each DMA wrote straight into the Mesh's own array
    np.testing.assert_array_equal(back.points, mesh.points)
    np.testing.assert_array_equal(back.cells[1].data, mesh.cells[1].data)
    np.testing.assert_array_equal(back.cell_data["rho"][0], mesh.cell_data["rho"][0])
    assert back.regions == mesh.regions
    assert all(a.flags.writeable and a.flags.c_contiguous for a in arrays)
    # An ordinary Mesh: validated and written like any other.
    mio._core.validate(back._core_parts())
    mio.write(tmp_path / "back.vtu", back)
    again = mio.read(tmp_path / "back.vtu")
    np.testing.assert_array_equal(again.points, mesh.points)
    # Back up again: the pinned return takes the direct path, no staging for the mesh's arrays.
    fake.log.events.clear()
    gpu2 = mio.to_cupy(back, pinned=True)
    assert [d for d in gpu2.derived if d.endswith(": staged")] == ["host->device path of block_bases: staged"]
    # Freed through the pinned pool when numpy drops them.
    owned = {addr(a) for a in arrays}
    assert owned <= set(_gpu._PINNED) and owned <= set(fake.pool.in_use)
    mark = len(fake.log.events)
    del back, arrays, gpu2, again
    churn()
    freed = {e[1] for e in fake.log.events[mark:] if e[0] == "pinned_free"}
    assert owned <= freed and not owned & set(_gpu._PINNED)


def test_pinned_return_of_non_contiguous_and_host_inputs(fake):
    import types

    src = np.arange(24.0).reshape(4, 6)
    strided = fake.ndarray(src[:, ::2])  # a non-contiguous device array
    host_conn = np.array([[0, 1, 2]])
    with pytest.warns(mio.InteropWarning, match="into pinned host memory"):
        back = mio.from_cupy(types.SimpleNamespace(points=strided, cells=[("triangle", host_conn)]), pinned=True)
    assert fake.log.count("ascontiguousarray") == 1
    np.testing.assert_array_equal(back.points, src[:, ::2])
    assert _gpu.is_pinned(back.points)
    assert back.cells[0].data is host_conn and not _gpu.is_pinned(back.cells[0].data)  # host arrays pass through


def test_pinned_return_of_a_host_payload_needs_no_cupy(monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", None)
    mesh = sample_mesh()
    back = mio.from_cupy(mio.to_dlpack(mesh), pinned=True)
    assert back.points is mesh.points


# =================================== gated: a CUDA device =========================================

# The `cp` fixture (CuPy with a CUDA device, else a skip naming why) is in conftest.py.


def page_locked(cp, a) -> bool:
    """What the driver says about the memory of numpy array ``a``: cudaPointerGetAttributes
    type cudaMemoryTypeHost (1) - and, where CuPy exposes it, cudaHostGetFlags succeeding."""
    p = addr(a)
    try:
        attrs = cp.cuda.runtime.pointerGetAttributes(p)
    except Exception:  # older drivers raise for unregistered host memory
        return False
    kind = getattr(attrs, "type", getattr(attrs, "memoryType", None))
    if int(kind) != 1:
        return False
    get_flags = getattr(cp.cuda.runtime, "hostGetFlags", None)
    if get_flags is not None:
        get_flags(p)  # raises cudaErrorInvalidValue for memory that is not page-locked
    return True


def big_pinned_file(tmp_path, n_points=200_000):
    rng = np.random.default_rng(0)
    mesh = mio.Mesh(
        rng.random((n_points, 3)),
        [("tetra", rng.integers(0, n_points, (2 * n_points, 4))), ("triangle", rng.integers(0, n_points, (n_points // 4, 3)))],
        point_data={"T": rng.random(n_points)},
        cell_data={"rho": [rng.random(2 * n_points), rng.random(n_points // 4)]},
    )
    for name, suffix in (("vtu", ".vtu"), ("gmsh", ".msh")):
        table = mio.formats().get(name, {})
        if table.get("read") and table.get("write"):
            path = tmp_path / f"big{suffix}"
            mio.write(path, mesh)
            return path, mesh
    raise AssertionError("neither a vtu nor a gmsh reader+writer is registered on this build")


def test_device_reads_inside_pinned_reads_are_page_locked(cp, tmp_path):
    path, _ = big_pinned_file(tmp_path, 20_000)
    with _gpu.pinned_reads() as pinned:
        mesh = mio.read(path)
    plain = mio.read(path)
    arrays = all_arrays(mesh)
    assert pinned.allocs > 3 and len(arrays) > 3
    for a in arrays:
        assert _gpu.is_pinned(a) and page_locked(cp, a)
    assert not any(page_locked(cp, a) for a in all_arrays(plain))
    assert not page_locked(cp, mesh.points.copy())  # copies are ordinary memory


def test_device_fast_path_is_direct_and_gives_identical_arrays(cp, tmp_path):
    path, _ = big_pinned_file(tmp_path)
    with _gpu.pinned_reads():
        mesh = mio.read(path)
    reference = mio.to_cupy(mio.read(path))  # pageable read, pageable transfer
    gpu = mio.to_cupy(mesh, pinned=True)
    assert "host->device path of points: direct" in gpu.derived
    assert [d for d in gpu.derived if d.endswith(": staged")] == ["host->device path of block_bases: staged"]
    assert gpu.refs == []
    for (label, a), (_, b) in zip(gpu.arrays(), reference.arrays()):
        assert a.dtype == b.dtype and a.shape == b.shape and bool(cp.array_equal(a, b)), label


def test_device_pinned_return_gives_identical_page_locked_host_arrays(cp, tmp_path):
    path, source = big_pinned_file(tmp_path)
    gpu = mio.to_cupy(mio.read(path))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mio.InteropWarning)
        pageable = mio.from_cupy(gpu)
        pinned = mio.from_cupy(gpu, pinned=True)
    for a, b in zip(all_arrays(pinned), all_arrays(pageable)):
        assert a.dtype == b.dtype and np.array_equal(a, b)
        assert page_locked(cp, a) and not page_locked(cp, b)
    out = tmp_path / f"back{path.suffix}"
    mio.write(out, pinned)  # an ordinary Mesh: any writer
    np.testing.assert_array_equal(mio.read(out).points, source.points)


def test_device_buffers_outlive_the_context_and_go_back_to_the_pool(cp, tmp_path):
    path, _ = big_pinned_file(tmp_path, 20_000)
    with _gpu.pinned_reads() as pinned:
        mesh = mio.read(path)
    expected = mesh.points.copy()
    churn()
    cp.get_default_pinned_memory_pool().free_all_blocks()  # only unused blocks go: ours are in use
    assert page_locked(cp, mesh.points)
    np.testing.assert_array_equal(mesh.points, expected)
    gpu = mio.to_cupy(mesh, pinned=True)
    np.testing.assert_array_equal(gpu.points.get(), expected)
    assert "host->device path of points: direct" in gpu.derived
    del mesh
    churn()
    assert pinned.frees == pinned.allocs and pinned.bad_frees == 0


def test_device_async_stream_with_the_payload_as_context_manager(cp, tmp_path):
    path, _ = big_pinned_file(tmp_path)
    with _gpu.pinned_reads():
        mesh = mio.read(path)
    stream = cp.cuda.Stream(non_blocking=True)
    with mio.to_cupy(mesh, pinned=True, stream=stream) as gpu:
        assert gpu.stream is stream and gpu.refs  # the staging chunk (block_bases) while its copy may be in flight
        with stream:
            gpu.point_data["T"] *= 2.0  # ordered after the copies on the same stream
    assert gpu.refs == []
    np.testing.assert_array_equal(gpu.point_data["T"].get(), 2.0 * mesh.point_data["T"])
    np.testing.assert_array_equal(gpu.cells[0][1].get(), mesh.cells[0].data)


def test_device_process_exit_with_live_pinned_buffers_is_clean(cp, tmp_path):
    path, _ = big_pinned_file(tmp_path, 5_000)
    code = textwrap.dedent(
        f"""
        import warnings
        import meshioplusplus as mio
        from meshioplusplus import _gpu
        with _gpu.pinned_reads():
            MESH = mio.read({str(path)!r})
        warnings.simplefilter("ignore")
        BACK = mio.from_cupy(mio.to_cupy(MESH, pinned=True), pinned=True)
        print("ok")
        """
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=dict(os.environ))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "ok" and "Exception ignored" not in r.stderr, r.stderr
