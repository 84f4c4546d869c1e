"""Issue 9: atomic writes everywhere. A write that fails midway leaves an existing file at the
target path byte-identical and leaves no temporary file (`*.meshioplusplus-*`) behind.

Failures exercised, for every writable format and each of its encodings:
- an injected I/O error midway: the write runs in a subprocess whose RLIMIT_FSIZE is
  64 KiB, so write(2) fails with EFBIG after the first 64 KiB of a ~1 MiB output;
- a mesh that fails validation (connectivity out of range), caught before writing;
- data the writer rejects late, after it has written part of the file (LATE_FAILURES,
  per format, each checked to fail with WriteError);
- a target whose folder does not exist.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import hostile
import meshioplusplus as mio

FSIZE_LIMIT = 64 << 10
ENCODINGS = {
    "gmsh": [{}, {"binary": False}, {"fmt_version": "2.2"}, {"fmt_version": "2.2", "binary": False}],
    "vtu": [{}, {"binary": False}, {"data_mode": "appended", "compression": "None"}, {"compression": "None"}],
    "vtk": [{}, {"binary": False}, {"fmt_version": "4.2"}, {"fmt_version": "4.2", "binary": False}],
    "exodus": [{}, {"netcdf_format": "NETCDF3_CLASSIC"}, {"netcdf_format": "NETCDF3_64BIT_OFFSET"}],
}


def big_mesh(seed=0) -> mio.Mesh:
    """~1 MiB in any encoding: random points compress poorly."""
    rng = np.random.default_rng(seed)
    n = 20000
    points = rng.random((n, 3))
    tris = rng.integers(0, n, size=(20000, 3))
    return mio.Mesh(points, [("triangle", tris)], point_data={"u": rng.random(n)})


def small_mesh() -> mio.Mesh:
    return mio.Mesh(np.array([[0.0, 0, 0], [1, 0, 0], [0, 1, 0]]), [("triangle", np.array([[0, 1, 2]]))])


def late_gmsh() -> mio.Mesh:
    # The nodes and elements are written before $NodeData meets the name it cannot quote.
    m = big_mesh()
    m.point_data = {'bad "name"\n': m.point_data["u"]}
    return m


def late_vtu() -> mio.Mesh:
    # One cell_data name whose blocks differ in shape: vtu finds it while gathering the
    # arrays (before opening the file), legacy vtk after writing POINTS and CELLS.
    m = big_mesh()
    m.cells = [m.cells[0], mio.CellBlock("line", np.array([[0, 1]]))]
    m.cell_data = {"c": [np.zeros(len(m.cells[0])), np.zeros((1, 3))]}
    return m


def late_exodus() -> mio.Mesh:
    # A side region on a line's end point, which has no Exodus side number: found while the
    # side sets are written, after the coordinates and the connectivity.
    m = big_mesh()
    m.cells = [m.cells[0], mio.CellBlock("line", np.array([[0, 1]]))]
    m.regions = [mio.Region("bad", "side", np.array([[len(m.cells[0]), 0]]))]  # a line's end: no Exodus side
    return m


LATE_FAILURES = {"gmsh": late_gmsh, "vtu": late_vtu, "vtk": late_vtu, "exodus": late_exodus}


def encodings(fmt):
    return ENCODINGS.get(fmt, [{}])


def original(tmp_path: Path, fmt: str) -> tuple[Path, bytes]:
    ext = mio.formats()[fmt]["extensions"][0]
    target = tmp_path / f"precious{ext}"
    mio.write(target, small_mesh(), fmt)
    return target, target.read_bytes()


def assert_untouched(target: Path, before: bytes):
    assert target.read_bytes() == before, "the existing file was changed by a failed write"
    leftovers = sorted(p.name for p in target.parent.iterdir() if ".meshioplusplus-" in p.name)
    assert not leftovers, f"temporary files left behind: {leftovers}"


CASES = [(fmt, k) for fmt in hostile.writable_formats() for k in range(len(encodings(fmt)))]


@pytest.mark.parametrize("fmt,k", CASES, ids=[f"{f}-{json.dumps(encodings(f)[k])}" for f, k in CASES])
def test_an_io_error_midway_leaves_the_existing_file_intact(fmt, k, tmp_path):
    target, before = original(tmp_path, fmt)
    options = encodings(fmt)[k]
    # The same write without a limit produces far more than FSIZE_LIMIT bytes.
    probe = tmp_path / ("probe" + target.suffix)
    mio.write(probe, big_mesh(), fmt, **options)
    assert probe.stat().st_size > 4 * FSIZE_LIMIT
    probe.unlink()
    child = textwrap.dedent(f"""
        import resource, sys
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        import meshioplusplus as mio
        from test_hostile_atomic_writes import big_mesh
        mesh = big_mesh()
        resource.setrlimit(resource.RLIMIT_FSIZE, ({FSIZE_LIMIT}, {FSIZE_LIMIT}))  # Python ignores SIGXFSZ
        try:
            mio.write({str(target)!r}, mesh, {fmt!r}, **{options!r})
        except mio.WriteError as e:
            print("WriteError:", e)
        else:
            print("no error")
    """)
    proc = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.startswith("WriteError:"), proc.stdout + proc.stderr[-3000:]
    assert "write failed" in proc.stdout or "close failed" in proc.stdout, proc.stdout
    assert_untouched(target, before)


@pytest.mark.parametrize("fmt", hostile.writable_formats())
def test_a_mesh_failing_validation_leaves_the_existing_file_intact(fmt, tmp_path):
    target, before = original(tmp_path, fmt)
    bad = big_mesh()
    bad.cells[0].data[-1, 0] = len(bad.points)  # out of range
    for options in encodings(fmt):
        with pytest.raises((ValueError, mio.WriteError)):
            mio.write(target, bad, fmt, **options)
        assert_untouched(target, before)


def test_every_writer_has_a_late_failure_case():
    missing = [fmt for fmt in hostile.writable_formats() if fmt not in LATE_FAILURES]
    assert not missing, f"writers with no late-failure case in {Path(__file__).name}: {missing}"


@pytest.mark.parametrize("fmt", [f for f in hostile.writable_formats() if f in LATE_FAILURES])
def test_data_rejected_late_leaves_the_existing_file_intact(fmt, tmp_path):
    target, before = original(tmp_path, fmt)
    for options in encodings(fmt):
        with pytest.raises(mio.WriteError):
            mio.write(target, LATE_FAILURES[fmt](), fmt, **options)
        assert_untouched(target, before)


@pytest.mark.parametrize("fmt", hostile.writable_formats())
def test_a_missing_folder_is_a_write_error_and_creates_nothing(fmt, tmp_path):
    target = tmp_path / "no-such-folder" / ("x" + mio.formats()[fmt]["extensions"][0])
    with pytest.raises(mio.WriteError):
        mio.write(target, small_mesh(), fmt)
    assert not target.parent.exists()
    assert sorted(os.listdir(tmp_path)) == []


@pytest.mark.parametrize("fmt", hostile.writable_formats())
def test_a_successful_write_replaces_the_file_and_leaves_no_temporary(fmt, tmp_path):
    target, before = original(tmp_path, fmt)
    mio.write(target, big_mesh(), fmt)
    assert target.read_bytes() != before
    assert_untouched(target, target.read_bytes())
    assert len(mio.read(target, fmt).points) == len(big_mesh().points)
