"""The logic of bench/scaling.py and bench/memsample.py (what they measure is not tested:
no timing here): the /proc status parser, the anonymous-memory sampler, the synthetic box
mesh, and the file sized to a target within 10%."""
import os
import sys
import time
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
import memsample  # noqa: E402
import scaling  # noqa: E402

STATUS = """Name:\tpython3
VmPeak:\t  123456 kB
VmHWM:\t   40000 kB
VmRSS:\t   39000 kB
RssAnon:\t   21000 kB
RssFile:\t   18000 kB
Threads:\t1
"""


def test_status_parser_reads_kb_lines_as_bytes():
    assert memsample.status_bytes(STATUS, "RssAnon") == 21000 * 1024
    assert memsample.status_bytes(STATUS, "VmHWM") == 40000 * 1024


def test_status_parser_refuses_missing_and_malformed_keys():
    with pytest.raises(ValueError, match="no RssShmem"):
        memsample.status_bytes(STATUS, "RssShmem")
    with pytest.raises(ValueError, match="unexpected Threads"):
        memsample.status_bytes(STATUS, "Threads")  # no kB unit
    with pytest.raises(ValueError, match="no RssAnon"):
        memsample.status_bytes(STATUS.replace("RssAnon", "RssAnonX"), "RssAnon")


def test_sampler_sees_memory_that_is_touched_and_freed(tmp_path):
    # a fake status file whose RssAnon rises to a peak and falls back: the peak is kept
    fake = tmp_path / "status"

    def set_anon(kb):  # replaced whole, so the sampler never reads a half-written file
        (tmp_path / "next").write_text(STATUS.replace("21000", str(kb)))
        os.replace(tmp_path / "next", fake)

    set_anon(21000)
    with memsample.AnonPeak(interval=0.0001, path=str(fake)) as mem:
        for kb in (30000, 90000, 25000):
            set_anon(kb)
            seen, deadline = mem.samples, time.monotonic() + 10
            while mem.samples < seen + 2 and time.monotonic() < deadline:
                time.sleep(0.0001)
    assert mem.base == 21000 * 1024
    assert mem.peak == 90000 * 1024
    assert mem.growth == (90000 - 21000) * 1024


def test_sampler_on_this_process_counts_a_fresh_buffer():
    with memsample.AnonPeak() as mem:
        a = np.ones(64 * 2**20 // 8)  # 64 MiB touched
    assert mem.growth >= 0.9 * a.nbytes
    assert mem.samples >= 2


def test_box_tets_is_a_conforming_tetrahedral_box():
    points, tets = scaling.box_tets(4, 3, 2)
    assert points.shape == (24, 3) and tets.shape == (6 * 3 * 2 * 1, 4) and tets.dtype == np.int64
    assert tets.min() == 0 and tets.max() == 23
    # every tetrahedron has positive volume, and the volumes fill the box exactly
    a, b, c, d = (points[tets[:, k]] for k in range(4))
    vol = np.einsum("ij,ij->i", np.cross(b - a, c - a), d - a) / 6
    assert np.all(np.abs(vol) > 0)
    h = 1 / 3
    assert np.isclose(np.abs(vol).sum(), (3 * h) * (2 * h) * (1 * h))
    # conforming: each interior triangle is shared by exactly two tetrahedra, boundary ones by one
    faces = np.sort(np.concatenate([tets[:, [0, 1, 2]], tets[:, [0, 1, 3]], tets[:, [0, 2, 3]], tets[:, [1, 2, 3]]]), axis=1)
    _, counts = np.unique(faces, axis=0, return_counts=True)
    assert set(counts) == {1, 2}
    boundary = 2 * (2 * (3 * 2 + 3 * 1 + 2 * 1))  # two triangles per boundary square
    assert (counts == 1).sum() == boundary


def test_box_tets_refuses_a_flat_box():
    with pytest.raises(ValueError, match="at least 2 nodes"):
        scaling.box_tets(1, 3, 3)


@pytest.mark.parametrize("case", list(scaling.CASES))
def test_make_file_hits_the_requested_size_within_10_percent(tmp_path, case):
    import meshioplusplus as mio

    path, shape, seconds = scaling.make_file(case, 3.0, tmp_path)
    assert abs(path.stat().st_size / 3e6 - 1) <= 0.10
    mesh = mio.read(path)
    points, tets = scaling.box_tets(*shape)
    np.testing.assert_array_equal(mesh.points, points)
    assert [b.type for b in mesh.cells] == ["tetra"]
    np.testing.assert_array_equal(mesh.cells[0].data, tets)
    assert seconds > 0


def test_flatness_verdict():
    rows = [dict(case="a", read_s_per_mb=1.0), dict(case="a", read_s_per_mb=1.15), dict(case="b", read_s_per_mb=1.0),
            dict(case="b", read_s_per_mb=1.3), dict(case="c", read_s_per_mb=2.0)]
    assert scaling.flatness(rows, "a", "read") == (pytest.approx(1.15), "PASS")
    assert scaling.flatness(rows, "b", "read") == (pytest.approx(1.3), "MISS")
    assert scaling.flatness(rows, "c", "read") == (None, "n/a")


def test_read_child_reports_arrays_and_memory(tmp_path):
    path, _, _ = scaling.make_file("vtu-appended-raw", 1.0, tmp_path)
    r = scaling.run_child("read", "vtu-appended-raw", path)
    import meshioplusplus as mio

    assert r["arrays"] == scaling.returned_bytes(mio.read(path))
    assert r["anon_growth"] > 0 and r["anon_samples"] >= 2 and r["seconds"] > 0
