"""The host-memory CuPy stand-in (fake_cupy.py) keeps the CuPy 14.2 semantics the GPU
tests rely on (cupy/_core/core.pyx, cupy/cuda/pinned_memory.pyx, cupy/_core/dlpack.pyx).
If one of these fails, the stand-in has drifted and the tests built on it prove less."""
from __future__ import annotations

import gc

import numpy as np
import pytest

import fake_cupy


def addr(a) -> int:
    return a.__array_interface__["data"][0]


def test_set_and_get_run_only_when_their_stream_is_synchronised():
    cp = fake_cupy.make()
    s = cp.cuda.Stream(non_blocking=True)
    host = np.arange(4.0)
    d = cp.empty(4, np.float64)
    d.set(host, stream=s)
    host[0] = 9.0  # before the copy ran
    out = np.zeros(4)
    d.get(stream=s, out=out, blocking=False)
    assert np.all(out == 0.0)  # nothing ran yet
    s.synchronize()
    np.testing.assert_array_equal(out, [9.0, 1.0, 2.0, 3.0])


def test_an_event_waits_only_for_the_work_recorded_before_it():
    cp = fake_cupy.make()
    s = cp.cuda.Stream(non_blocking=True)
    a, b = cp.empty(2, np.float64), cp.empty(2, np.float64)
    a.set(np.ones(2), stream=s)
    event = s.record()
    b.set(np.full(2, 2.0), stream=s)
    assert not event.done
    event.synchronize()
    assert event.done and not s.done
    np.testing.assert_array_equal(a.get(stream=s), [1.0, 1.0])  # a blocking get synchronises s


def test_non_blocking_streams_do_not_order_against_the_null_stream():
    cp = fake_cupy.make()
    s = cp.cuda.Stream(non_blocking=True)
    d = cp.empty(2, np.float64)
    d.set(np.ones(2), stream=s)
    assert not np.all(d.get() == 1.0)  # the null stream does not wait for s
    blocking = cp.cuda.Stream()
    e = cp.empty(2, np.float64)
    e.set(np.ones(2), stream=blocking)
    np.testing.assert_array_equal(e.get(), [1.0, 1.0])  # the legacy null stream waits for blocking streams


def test_pinned_pool_reuses_same_rounded_size_and_releases_only_on_free_all_blocks():
    cp = fake_cupy.make()
    m = cp.cuda.alloc_pinned_memory(1000)
    ptr = m.ptr
    assert cp.cuda.pinned_memory.is_memory_pinned(ptr)
    del m
    gc.collect()
    assert cp.cuda.alloc_pinned_memory(2000).ptr != ptr  # another rounded size: a new block
    again = cp.cuda.alloc_pinned_memory(1024)  # 1000 and 1024 both round to 1024
    assert again.ptr == ptr
    del again
    gc.collect()
    assert cp.pool.n_free_blocks() == 2 and cp.cuda.pinned_memory.is_memory_pinned(ptr)
    cp.get_default_pinned_memory_pool().free_all_blocks()
    assert cp.pool.n_free_blocks() == 0 and not cp.cuda.pinned_memory.is_memory_pinned(ptr)


def test_asarray_snapshots_pageable_input_but_copies_pinned_input_in_place():
    cp = fake_cupy.make()
    pageable = np.arange(3.0)
    pinned = cp.cupyx.empty_pinned(3)
    pinned[...] = np.arange(3.0)
    d1, d2 = cp.asarray(pageable), cp.asarray(pinned)
    pageable[...] = -1.0
    pinned[...] = -1.0
    cp.get_current_stream().synchronize()
    np.testing.assert_array_equal(d1.get(), [0.0, 1.0, 2.0])  # staged through the pool at call time
    np.testing.assert_array_equal(d2.get(), [-1.0, -1.0, -1.0])  # read when the copy ran
    assert cp.log.count("alloc_pinned") == 2  # the staging block and empty_pinned's block


def test_from_dlpack_refuses_host_producers_and_external_streams_share_the_queue():
    cp = fake_cupy.make()
    with pytest.raises(TypeError):
        cp.from_dlpack(np.arange(3.0))
    s = cp.cuda.Stream(non_blocking=True)
    ext = cp.cuda.ExternalStream(s.ptr)
    d = cp.empty(2, np.float64)
    d.set(np.ones(2), stream=ext)
    assert not s.done
    s.synchronize()
    assert ext.done
