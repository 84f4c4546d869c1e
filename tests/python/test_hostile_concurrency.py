"""Concurrency. The binding releases the GIL while C++ parses and serialises, so
threads reading and writing different files at once give exactly what sequential runs give.

The GIL test is deterministic, whatever the machine's speed: a reader thread opens a FIFO,
which blocks (in C++) until a writer opens the other end; the main thread, which needs the
GIL to run at all, is that writer. If the read held the GIL, the two would deadlock, so it
runs in a subprocess with a timeout.
"""
from __future__ import annotations

import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import helpers
import hostile
import meshioplusplus as mio

INPUTS = [(fmt, path) for fmt in hostile.readable_formats() for path in hostile.mesh_fixtures(fmt)]


def ragged(rows) -> np.ndarray:
    """A ragged block (list of rows, or of faces for polyhedra) as one array: lengths, then values."""
    if isinstance(rows, np.ndarray):
        return rows
    parts = [ragged(r) for r in rows]
    lengths = np.array([p.size for p in parts], dtype=np.int64)
    return np.concatenate([lengths] + [p.ravel().astype(np.int64) for p in parts])


def flatten(mesh) -> list:
    """Every array of a mesh with its name, in a fixed order (for exact comparison)."""
    out = [("points", mesh.points)]
    for k, block in enumerate(mesh.cells):
        out.append((f"cells{k}:{block.type}", ragged(block.data)))
    out += [(f"pd:{k}", v) for k, v in sorted(mesh.point_data.items())]
    out += [(f"cd:{k}:{i}", a) for k, v in sorted(mesh.cell_data.items()) for i, a in enumerate(v)]
    out += [(f"fd:{k}", np.asarray(v)) for k, v in sorted(mesh.field_data.items())]
    return out


def assert_identical(a, b, what):
    fa, fb = flatten(a), flatten(b)
    assert [n for n, _ in fa] == [n for n, _ in fb], what
    for (name, x), (_, y) in zip(fa, fb):
        assert x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes(), f"{what}: {name}"


def test_threads_reading_different_files_match_sequential_reads():
    assert len(INPUTS) >= 2
    expected = [mio.read(p, f) for f, p in INPUTS]
    jobs = INPUTS * 4  # each file read by several threads, different files at once
    with ThreadPoolExecutor(max_workers=4) as pool:
        got = list(pool.map(lambda job: mio.read(job[1], job[0]), jobs))
    for k, mesh in enumerate(got):
        f, p = jobs[k]
        assert_identical(mesh, expected[k % len(INPUTS)], f"{f} {p.name}")


def test_threads_writing_different_files_match_sequential_writes(tmp_path):
    meshes = [(f, p.stem, mio.read(p, f)) for f, p in INPUTS if mio.formats()[f]["write"]]
    assert meshes
    ext = {f: (mio.formats()[f]["extensions"] or [""])[0] for f, _, _ in meshes}
    # Copies of one file share its name in different folders: XDMF and the collections name
    # their side files after the file.
    for folder in ("seq", "par0", "par1", "par2"):
        (tmp_path / folder).mkdir()
    kept = []
    for f, stem, mesh in meshes:
        try:
            mio.write(tmp_path / "seq" / f"{f}-{stem}{ext[f]}", mesh, f)
        except mio.WriteError:  # its own writer refuses it (WKT: TIN only; ...): no write job
            continue
        kept.append((f, stem, mesh))
    meshes = kept

    def write(job):
        k, (f, stem, mesh) = job
        path = tmp_path / f"par{k % 3}" / f"{f}-{stem}{ext[f]}"
        mio.write(path, mesh, f)
        return path

    jobs = list(enumerate(meshes * 3))
    with ThreadPoolExecutor(max_workers=4) as pool:
        paths = list(pool.map(write, jobs))
    for (k, (f, stem, _)), path in zip(jobs, paths):
        assert path.read_bytes() == (tmp_path / "seq" / f"{f}-{stem}{ext[f]}").read_bytes(), path.name


@pytest.mark.parametrize("fmt", hostile.readable_formats())
def test_the_gil_is_released_while_reading(fmt, tmp_path):
    if fmt in hostile.WITH_SIDE_FILES:
        # Its side files must lie beside the pipe: a file of ours written there.
        fixture = tmp_path / ("source" + mio.formats()[fmt]["extensions"][0])
        mio.write(fixture, helpers.simple_mesh_for(fmt)[0], fmt)
    else:
        fixture = hostile.fixtures(fmt)[0]
    fifo = tmp_path / ("pipe" + fixture.suffix)
    child = textwrap.dedent(f"""
        import os, threading
        import meshioplusplus as mio
        result = {{}}
        def reader():
            try:
                result["mesh"] = mio.read({str(fifo)!r}, {fmt!r})
            except Exception as e:
                result["error"] = repr(e)
        os.mkfifo({str(fifo)!r})
        t = threading.Thread(target=reader)
        t.start()
        # Whichever opens first waits for the other: the reader in C++, this thread in open().
        with open({str(fifo)!r}, "wb") as w:  # needs the GIL: deadlocks if the read holds it
            w.write(open({str(fixture)!r}, "rb").read())
        t.join()
        print("ok" if "mesh" in result else result.get("error"))
    """)
    try:
        proc = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{fmt}: reading from a FIFO deadlocked: the GIL is held while C++ reads")
    assert proc.stdout.strip() == "ok", proc.stdout + proc.stderr[-2000:]
