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

import gc
import sys

import numpy as np
import pytest

import meshioplusplus as mio
from meshioplusplus import _gpu

import fake_cupy

MiB = 1 << 20


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
        flat, _ = mio._core._owned_array(3 * 3000)  # a reader's buffer, page-locked: the direct path
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
