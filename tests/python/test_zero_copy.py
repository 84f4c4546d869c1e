"""The zero-copy boundary: arrays born in C++ reach numpy without a copy (the base is a
capsule owning the buffer), survive every other reference, and are freed through the
allocator they were born with; numpy arrays handed to C++ are wrapped as views."""
import gc
import subprocess
import sys
import textwrap

import warnings

import numpy as np
import pytest

import meshioplusplus as mio
from meshioplusplus import _testing
from helpers import tet_mesh


class NumpyArena:
    """A Python allocator handing out slices of numpy byte arrays it keeps alive."""

    def __init__(self):
        self.live = {}  # address -> (backing array, nbytes)
        self.allocs = 0
        self.frees = 0
        self.freed_twice = 0

    def alloc(self, nbytes):
        backing = np.empty(nbytes + 64, dtype=np.uint8)
        address = backing.ctypes.data
        address += (-address) % 64
        self.live[address] = (backing, nbytes)
        self.allocs += 1
        return address

    def free(self, address, nbytes):
        if address not in self.live:
            self.freed_twice += 1
            return
        assert self.live[address][1] == nbytes
        del self.live[address]
        self.frees += 1

    def owns(self, array):
        p = array.__array_interface__["data"][0]
        return any(a <= p and p + array.nbytes <= a + n for a, (_, n) in self.live.items())


def churn():
    gc.collect()
    junk = [np.random.default_rng(i).random(10_000) for i in range(50)]
    del junk
    gc.collect()


def test_core_array_reaches_numpy_without_a_copy():
    arr, address = _testing.owned_array(1000)
    assert arr.__array_interface__["data"][0] == address
    assert type(arr.base).__name__ == "PyCapsule"
    assert arr.flags.writeable and arr.flags.c_contiguous
    np.testing.assert_array_equal(arr[:5], [0, 1, 2, 3, 4])


def test_one_allocation_per_array_and_freed_exactly_once():
    arena = NumpyArena()
    with mio.use_allocator(arena.alloc, arena.free):
        arrays = [_testing.owned_array(100 + i)[0] for i in range(5)]
    assert arena.allocs == 5
    assert all(arena.owns(a) for a in arrays)
    assert arena.frees == 0
    del arrays
    churn()
    assert arena.frees == 5 and arena.freed_twice == 0 and not arena.live


def test_array_outlives_every_other_reference_and_the_hook():
    arena = NumpyArena()
    with mio.use_allocator(arena.alloc, arena.free):
        arr, _ = _testing.owned_array(10_000)
    view = arr[::2]
    del arr
    churn()
    assert arena.frees == 0
    view[:] += 1.0  # still writeable, still ours
    np.testing.assert_array_equal(view[:3], [1, 3, 5])
    assert not mio._core.allocator_installed()
    del view
    churn()
    assert arena.frees == 1


def test_nested_allocators_restore_the_previous_one():
    outer, inner = NumpyArena(), NumpyArena()
    with mio.use_allocator(outer.alloc, outer.free):
        with mio.use_allocator(inner.alloc, inner.free):
            a = _testing.owned_array(8)[0]
        b = _testing.owned_array(8)[0]
    c = _testing.owned_array(8)[0]
    assert (inner.allocs, outer.allocs) == (1, 1)
    assert inner.owns(a) and outer.owns(b) and not inner.owns(c) and not outer.owns(c)


def test_failing_python_allocator_raises_memory_error_not_a_crash(tmp_path):
    def bad_alloc(nbytes):
        raise RuntimeError("no memory for you")

    path = tmp_path / "tet.vtu"
    mio.write(path, tet_mesh)
    with mio.use_allocator(bad_alloc, lambda a, n: None):
        with pytest.raises(MemoryError, match="buffer allocator failed: .*no memory for you"):
            mio.read(path)


def test_gil_is_taken_in_callbacks_from_released_threads():
    # _core.read releases the GIL; the allocator is called from C++ and must re-take it.
    # _testing.owned_array holds the GIL; a thread pool of reads is exercised in the format tests.
    import threading

    arena = NumpyArena()
    lock = threading.Lock()

    def alloc(n):
        with lock:
            return arena.alloc(n)

    def free(a, n):
        with lock:
            arena.free(a, n)

    with mio.use_allocator(alloc, free):
        threads = [threading.Thread(target=lambda: [_testing.owned_array(64) for _ in range(50)]) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    churn()
    assert arena.allocs == 200 and arena.frees == 200


def test_process_exiting_with_live_buffers_exits_cleanly():
    code = textwrap.dedent(
        """
        import numpy as np, meshioplusplus as mio
        from meshioplusplus import _testing
        keep = []
        def alloc(n):
            b = np.empty(n, np.uint8); keep.append(b); return b.ctypes.data
        def free(a, n):
            pass
        with mio.use_allocator(alloc, free):
            live = [_testing.owned_array(1000)[0] for _ in range(10)]
        GLOBAL = live  # still alive at interpreter shutdown
        print("ok")
        """
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "ok"
    assert "Error" not in r.stderr


def test_numpy_arrays_are_wrapped_as_views_on_write():
    mesh = mio.Mesh(tet_mesh.points.copy(), [("tetra", np.array(tet_mesh.cells[0].data, dtype=np.int64))],
                    point_data={"T": np.arange(5.0)})
    seen = _testing.view_addresses(mesh._core_parts())
    assert seen["points"] == mesh.points.ctypes.data
    assert seen["cells"][0] == mesh.cells[0].data.ctypes.data
    assert seen["point_data"]["T"] == mesh.point_data["T"].ctypes.data


def test_non_contiguous_or_foreign_endian_arrays_are_converted_once():
    pts = np.asfortranarray(np.random.default_rng(0).random((5, 3)))
    be = np.arange(5.0).astype(">f8")
    mesh = mio.Mesh(pts, [("tetra", np.array([[0, 1, 2, 3]], dtype=np.int32))], point_data={"T": be})
    seen = _testing.view_addresses(mesh._core_parts())
    assert seen["points"] != pts.ctypes.data
    assert seen["point_data"]["T"] != be.ctypes.data
    assert seen["cells"][0] == mesh.cells[0].data.ctypes.data  # int32 stays int32, no copy


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda m: m.cells.__setitem__(0, mio.CellBlock("tetra", np.array([[0, 1, 2, 9]]))), r"cells\[0\] \(tetra\): index 9"),
        (lambda m: m.cells.__setitem__(0, mio.CellBlock("tetra", np.array([[0, 1, -2, 3]]))), r"index -2"),
        (lambda m: m.cells.__setitem__(0, mio.CellBlock("tetra", np.array([[0, 1, 2]]))), "expected 4 nodes per cell, found 3"),
        (lambda m: m.point_data.__setitem__("T", np.zeros(3)), r"point_data\['T'\]: expected 5 rows, found 3"),
        (lambda m: m.point_data.__setitem__("S", np.array(["a"] * 5)), r"point_data\['S'\]: dtype <U1"),
        (lambda m: setattr(m, "points", np.zeros((5, 4))), "points: expected 2 or 3 coordinates"),
    ],
)
def test_bad_meshes_raise_value_error_naming_the_array(change, message):
    m = mio.Mesh(tet_mesh.points.copy(), [("tetra", [[0, 1, 2, 4]])])
    change(m)
    with pytest.raises(ValueError, match=message):
        mio._core.validate(m._core_parts())


# --- real reads -------------------------------------------------------------------------
from pathlib import Path  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / "data"


def _flat(data):
    """A block's arrays: its (m, k) array, a ragged block's rows, a polyhedron block's faces."""
    return [a for item in data for a in _flat(item)] if isinstance(data, list) else [data]


def all_arrays(mesh):
    out = [mesh.points]
    for block in mesh.cells:
        out += _flat(block.data)
    out += list(mesh.point_data.values()) + [a for v in mesh.cell_data.values() for a in v]
    out += list(mesh.field_data.values()) + [r.entries for r in mesh.regions]
    return out


def owner_of(array):
    """The capsule (or ndarray chain end) that owns an array's memory."""
    base = array
    while isinstance(base, np.ndarray) and base.base is not None:
        base = base.base
    return base


def _one_fixture_per_format():
    """For every readable format, its first fixture (tests/data/<format>/, sorted) that reads
    into a mesh of more than five arrays: the claim "every array a reader fills is the core's
    buffer" is checked for each reader, not only Gmsh's."""
    import hostile

    out = []
    for fmt in hostile.readable_formats():
        for path in (p for p in hostile.fixtures(fmt) if DATA in p.parents):
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    if len(all_arrays(mio.read(path, fmt))) > 5:
                        out.append(str(path.relative_to(DATA)))
                        break
            except mio.ReadError:
                continue
    return out


@pytest.mark.parametrize("fixture", ["gmsh/box3d_o2_msh41.msh", "gmsh/square2d_msh41_bin.msh", "gmsh/square2d_msh22.msh",
                                     *_one_fixture_per_format()])
def test_every_array_of_a_read_is_a_core_buffer_allocated_once(fixture):
    arena = NumpyArena()
    with mio.use_allocator(arena.alloc, arena.free):
        mesh = mio.read(DATA / fixture)
    arrays = all_arrays(mesh)
    assert len(arrays) > 5
    owners = {id(owner_of(a)): owner_of(a) for a in arrays}
    for a in arrays:
        assert type(owner_of(a)).__name__ == "PyCapsule", "every array's memory is owned by a core capsule"
        assert arena.owns(a), "every array lives in memory the allocator handed out"
    # One allocation per returned buffer: the reader allocates nothing else through the hook
    # that survives, and nothing is copied afterwards. Several arrays may be views into one
    # allocation (VTK's cell blocks share the one decoded connectivity).
    holding = {b for a in arrays for b, (_, n) in arena.live.items()
               if b <= a.__array_interface__["data"][0] and a.__array_interface__["data"][0] + a.nbytes <= b + n}
    assert len(owners) >= len(holding)
    assert arena.allocs - arena.frees == len(holding)
    del mesh, arrays, owners, a
    churn()
    assert arena.frees == arena.allocs and arena.freed_twice == 0


def test_read_arrays_stay_valid_after_the_mesh_is_gone():
    mesh = mio.read(DATA / "gmsh/box3d_o2_msh41.msh")
    points, conn = mesh.points, mesh.cells[-1].data
    expected_points, expected_conn = points.copy(), conn.copy()
    del mesh
    churn()
    np.testing.assert_array_equal(points, expected_points)
    np.testing.assert_array_equal(conn, expected_conn)
    points[0, 0] = 123.0  # writeable
    assert points[0, 0] == 123.0


def test_read_releases_the_gil(tmp_path):
    # Deterministic, whatever the machine's speed: the read blocks in C++ (open() of a
    # FIFO waits for a writer) and only this thread, which needs the GIL to run at all, can
    # write. Held, the two would deadlock: it runs in a child with a timeout.
    fifo = tmp_path / "pipe.msh"
    source = tmp_path / "tet.msh"
    mio.write(source, tet_mesh, "gmsh")
    child = textwrap.dedent(f"""
        import os, threading
        import meshioplusplus as mio
        os.mkfifo({str(fifo)!r})
        result = {{}}
        reader = threading.Thread(target=lambda: result.setdefault("mesh", mio.read({str(fifo)!r}, "gmsh")))
        reader.start()
        with open({str(fifo)!r}, "wb") as w:  # blocks until the reader's C++ open()
            w.write(open({str(source)!r}, "rb").read())
        reader.join()
        print(len(result["mesh"].points))
    """)
    try:
        r = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        pytest.fail("reading from a FIFO deadlocked: the GIL is held while C++ reads")
    assert r.stdout.strip() == str(len(tet_mesh.points)), r.stderr[-2000:]


def test_ragged_data_where_a_rectangular_block_is_needed_names_the_block():
    m = mio.Mesh(np.zeros((4, 3)), [("line", [[0, 1]]), ("triangle", [[0, 1, 2], [0, 1]])])
    with pytest.raises(ValueError, match=r"cells\[1\] \(triangle\): only polygon and polyhedron blocks may be ragged"):
        mio._core.validate(m._core_parts())


def test_ragged_polygons_cross_the_boundary_as_their_rows_and_are_gathered_in_cpp(tmp_path):
    rows = [np.array([0, 1, 2]), np.array([0, 1, 2, 3], dtype=np.int32)]
    m = mio.Mesh(np.zeros((4, 3)), [("polygon", rows)])
    _, sent = m._core_parts()["cells"][0]
    assert isinstance(sent, list) and sent[0] is rows[0]  # no Python-side gather
    mio._core.validate(m._core_parts())
    path = tmp_path / "poly.vtu"
    mio.write(path, m)
    back = mio.read(path, ragged=True)  # our compact form, on request
    assert [list(r) for r in back.cells[0].data] == [[0, 1, 2], [0, 1, 2, 3]]
    shaped = mio.read(path)  # meshio's shape: one rectangular block per node count
    assert [(b.type, b.data.tolist()) for b in shaped.cells] == [("polygon", [[0, 1, 2]]), ("polygon", [[0, 1, 2, 3]])]


def test_a_second_read_reuses_the_first_reads_freed_large_buffers_and_the_cache_can_be_emptied(tmp_path):
    # 300k points: a 7.2 MB points array, kept by the core's cache of freed large buffers.
    rng = np.random.default_rng(3)
    points = rng.random((300_000, 3))
    cells = np.arange(300_000 - 300_000 % 3, dtype=np.int64).reshape(-1, 3)
    path = tmp_path / "big.vtu"
    mio.write(path, mio.Mesh(points, [("triangle", cells)]), binary=True, compression=None)
    previous = mio.set_buffer_cache_limit(256 << 20)
    try:
        mio.release_cached_buffers()
        assert mio.cached_buffer_bytes() == 0
        first = mio.read(path)
        address = first.points.__array_interface__["data"][0]
        np.testing.assert_array_equal(first.points, points)
        del first
        gc.collect()
        assert mio.cached_buffer_bytes() >= points.nbytes
        second = mio.read(path)
        assert second.points.__array_interface__["data"][0] == address  # the same memory, warm
        np.testing.assert_array_equal(second.points, points)  # and every byte rewritten
        np.testing.assert_array_equal(second.cells[0].data, cells)
        del second
        gc.collect()
        mio.release_cached_buffers()
        assert mio.cached_buffer_bytes() == 0
        assert mio.set_buffer_cache_limit(0) == 256 << 20
        third = mio.read(path)
        del third
        gc.collect()
        assert mio.cached_buffer_bytes() == 0  # off
        with pytest.raises(ValueError, match="nbytes must be >= 0"):
            mio.set_buffer_cache_limit(-1)
    finally:
        mio.set_buffer_cache_limit(previous)
