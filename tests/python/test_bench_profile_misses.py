"""The logic of bench/profile_misses.py (perf itself is not run here): which targets of a results
file it profiles, how it reads perf report's lines, and settle_page_cache in bench/run.py
leaving a file's bytes as they were."""
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
import profile_misses as bench_profile  # noqa: E402
import run  # noqa: E402


def target(case, status, source="#19", op="read", mesh="bracket", name="binary read at least 3x meshio", value=1.5):
    return {"source": source, "target": name, "mesh": mesh, "op": op, "case": case, "value": value, "cmp": ">=",
            "limit": 3.0, "status": status, "short_by": 3.0 / value}


def test_misses_are_the_issues_missed_targets_grouped_by_case():
    results = {"targets": [
        target("ugrid b8", "MISS"),
        target("ugrid b8", "MISS", name="binary read within 1.5x of copying the file's bytes", value=5.0),
        target("gmsh 4.1 binary", "PASS"),
        target("medit binary", "MISS", source="#16"),
        target("ugrid b8", "MISS", mesh="cube"),
        target("vtu appended raw", "MISS", op="write", name="faster than VTK", value=0.6),
    ]}
    got = bench_profile.misses(results, 19, "", "")
    assert list(got) == [("bracket", "read", "ugrid b8"), ("cube", "read", "ugrid b8"), ("bracket", "write", "vtu appended raw")]
    assert len(got[("bracket", "read", "ugrid b8")]) == 2
    assert got[("bracket", "read", "ugrid b8")][0] == "binary read at least 3x meshio: 1.50 vs >= 3.00 (2.00x short)"
    assert list(bench_profile.misses(results, 19, "cube", "")) == [("cube", "read", "ugrid b8")]
    assert list(bench_profile.misses(results, 19, "", "vtu appended raw")) == [("bracket", "write", "vtu appended raw")]
    assert list(bench_profile.misses(results, 16, "", "")) == [("bracket", "read", "medit binary")]


def test_perf_report_lines_parse_into_share_object_and_symbol():
    line = "    28.81%  _core.cpython-311-x86_64-linux-gnu.so  [.] meshioplusplus::io::decode_avx2<int>"
    m = bench_profile.LINE.match(line)
    assert m and (float(m[1]), m[2], m[3]) == (28.81, "_core.cpython-311-x86_64-linux-gnu.so", "meshioplusplus::io::decode_avx2<int>")
    kernel = bench_profile.LINE.match("    10.20%  [kernel.kallsyms]  [k] _copy_to_iter")
    assert kernel and kernel[2] == "[kernel.kallsyms]" and kernel[3] == "_copy_to_iter"
    dso = bench_profile.DSO_LINE.match("    49.30%  libc.so.6")
    assert dso and (float(dso[1]), dso[2]) == (49.3, "libc.so.6")
    assert bench_profile.LINE.match("# Overhead  Shared Object  Symbol") is None
    long_name = "x" * 300
    assert len(bench_profile.short(long_name)) == 110 and bench_profile.short("(anonymous namespace)::f") == "f"


def test_settle_page_cache_keeps_the_bytes(tmp_path):
    data = os.urandom(3 << 20) + b"tail"
    path = tmp_path / "input.bin"
    path.write_bytes(data)
    run.settle_page_cache([path])
    assert path.read_bytes() == data


def test_an_nx_meshio_miss_says_what_it_asks_against_the_rows_floor():
    def row(**kw):
        r = dict(mesh="cube", op="read", case="ugrid b8", fmt="ugrid", ours=0.005, meshio=0.0075, ratio=1.5, copy=0.002)
        r.update(kw)
        return r
    rows = [row(), row(op="write", copy=None, floor=0.004, meshio=0.006, ratio=1.2),
            row(case="medit binary", fmt="medit", meshio=0.03, ratio=6.0)]
    got = {(t["op"], t["case"], t["target"]): t for t in run.targets(rows)}
    read_miss = got[("read", "ugrid b8", ".meshb and binary UGRID at least 3x meshio (1M cells)")]
    assert read_miss["status"] == "MISS"
    value, floor = read_miss["vs_floor"]
    assert abs(value - 0.0025 / 0.002) < 1e-9 and floor == "the copy floor"
    write_miss = got[("write", "ugrid b8", ".meshb and binary UGRID at least 3x meshio (1M cells)")]
    assert write_miss["vs_floor"][1] == "the write floor" and abs(write_miss["vs_floor"][0] - 0.5) < 1e-9
    assert got[("read", "medit binary", ".meshb and binary UGRID at least 3x meshio (1M cells)")]["vs_floor"] is None  # a pass
    # a floor target's miss has no such note
    assert got[("read", "ugrid b8", ".meshb and binary UGRID read within 2x of copying the file's bytes (1M cells)")]["vs_floor"] is None
    line = [m for m in run.summary(run.targets(rows))["misses"] if "write ugrid b8" in m and "3x meshio" in m][0]
    assert line.endswith("; that is 0.50x the write floor")
