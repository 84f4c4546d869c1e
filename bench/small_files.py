"""Per-call overhead of mio.read on ~1 KB files against meshio.read, and where our time goes
(issue 19: "small files: under 100 microseconds per call").

The files (Gmsh 4.1 ASCII, VTU, legacy VTK, STL binary and ASCII) hold a tiny tetrahedral box or a
few triangles; each is written by meshio (the peer), except Gmsh 4.1, written by meshio++ (meshio 5.0
writes 4.1 only with gmsh:physical/geometrical data), so both libraries read the same files. Calls
are timed in batches of `--batch`, interleaved (meshio batch, meshio++ batch, ...), and the
per-call median over the batches is reported.

The breakdown times the layers of one meshio++ read alone, the same way: os.stat (the floor of
`exists`), open + read of the file's bytes (the floor of any reader), the core's format
detection, `_core.read` (C++ open + parse + the numpy hand-off), `Mesh._from_core` (the
Python objects); "Python dispatch" is the whole call minus the last three. A cProfile of the
whole call names the Python functions that cost most, and `--perf` adds `perf record`'s
split of CPU samples by shared object (kernel, libpython, the _core extension, libc, numpy).

Usage: .venv/bin/python bench/small_files.py [--calls 2000] [--batch 100] [--perf]
Writes bench/results/<date>-<host>-small-files.{md,json}.
"""
from __future__ import annotations

import argparse
import cProfile
import datetime
import io
import json
import os
import pstats
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
TARGET_US = 100.0

sys.path.insert(0, str(HERE))
from scaling import box_tets, machine  # noqa: E402


def tiny_volume():
    points, tets = box_tets(3, 2, 2)  # 12 points, 12 tetrahedra
    return points, tets


def tiny_surface(n: int):
    points, tets = box_tets(3, 3, 2)
    tri = tets[:, [0, 1, 2]][:n]
    return points, tri


def make_files(work: Path) -> list:
    """(label, path, format) of the ~1 KB inputs."""
    import meshio

    import meshioplusplus as mio

    pts, tets = tiny_volume()
    spts, tri = tiny_surface(20)
    out = []

    def add(label, name, fmt, write):
        path = work / name
        write(path)
        out.append((label, path, fmt))

    add("gmsh 4.1 ascii", "tiny.msh", "gmsh",
        lambda p: mio.write(p, mio.Mesh(pts, [("tetra", tets)]), "gmsh", binary=False))
    add("vtu (binary, zlib)", "tiny.vtu", "vtu", lambda p: meshio.write(p, meshio.Mesh(pts, [("tetra", tets)])))
    add("vtu ascii", "tiny-ascii.vtu", "vtu",
        lambda p: meshio.vtu.write(p, meshio.Mesh(pts, [("tetra", tets)]), binary=False))
    add("vtk legacy binary", "tiny.vtk", "vtk", lambda p: meshio.write(p, meshio.Mesh(pts, [("tetra", tets)])))
    add("vtk legacy ascii", "tiny-ascii.vtk", "vtk",
        lambda p: meshio.vtk.write(p, meshio.Mesh(pts, [("tetra", tets)]), binary=False))
    add("stl binary", "tiny.stl", "stl", lambda p: meshio.stl.write(p, meshio.Mesh(spts, [("triangle", tri)]), binary=True))
    add("stl ascii", "tiny-ascii.stl", "stl",
        lambda p: meshio.stl.write(p, meshio.Mesh(spts, [("triangle", tri[:4])]), binary=False))
    return out


def batches(fns, calls: int, batch: int, cpu: bool = False) -> list:
    """Median seconds per call of each function in `fns`, run interleaved in batches; with
    `cpu`, (wall, CPU) pairs: the process's CPU time per call, which a loaded machine
    inflates far less than wall time."""
    for fn in fns:  # warm-up
        fn()
    times = [[] for _ in fns]
    cpu_times = [[] for _ in fns]
    for _ in range(max(1, calls // batch)):
        for k, fn in enumerate(fns):
            c, t = time.process_time(), time.perf_counter()
            for _ in range(batch):
                fn()
            times[k].append((time.perf_counter() - t) / batch)
            cpu_times[k].append((time.process_time() - c) / batch)
    if cpu:
        return [(statistics.median(t), statistics.median(c)) for t, c in zip(times, cpu_times)]
    return [statistics.median(t) for t in times]


def layers(path: Path, fmt: str, calls: int, batch: int) -> dict:
    """CPU microseconds per call of each layer of one meshio++ read of `path` (named format)
    and of the whole call (deduced format, and named)."""
    import meshioplusplus as mio
    from meshioplusplus import _core
    from meshioplusplus._mesh import Mesh

    p = os.fspath(path)
    parts = _core.read(p, fmt, {})

    def slurp():
        with open(p, "rb") as f:
            f.read()

    names = ["os.stat", "open + read bytes", "format detection (_core.deduce_format)",
             "_core.read (C++ parse + numpy hand-off)", "Mesh._from_core (Python objects)", "mio.read(path)",
             "mio.read(path, file_format)"]
    fns = [lambda: os.stat(p), slurp, lambda: _core.deduce_format(p, False), lambda: _core.read(p, fmt, {}),
           lambda: Mesh._from_core(parts), lambda: mio.read(p), lambda: mio.read(p, fmt)]
    us = [c * 1e6 for _, c in batches(fns, calls, batch, cpu=True)]  # CPU time: steadier under load than wall
    out = dict(zip(names, us))
    out["Python dispatch (whole call - detection - _core.read - _from_core)"] = max(0.0, us[5] - us[2] - us[3] - us[4])
    return out


def profile(path: Path, calls: int, top: int = 12) -> str:
    """cProfile of `calls` mio.read calls: the functions with the most own time."""
    import meshioplusplus as mio

    p = os.fspath(path)
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(calls):
        mio.read(p)
    prof.disable()
    s = io.StringIO()
    pstats.Stats(prof, stream=s).strip_dirs().sort_stats("tottime").print_stats(top)
    lines = s.getvalue().splitlines()
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith("ncalls"))
    return "\n".join(lines[start:start + top + 1])


PERF_CHILD = r"""
import sys, meshioplusplus as mio
p, n = sys.argv[1], int(sys.argv[2])
for _ in range(n):
    mio.read(p)
"""


def perf_split(path: Path, calls: int) -> str:
    """`perf record` of a process doing `calls` reads (import excluded only by the count:
    use many calls): the share of samples per shared object."""
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "perf.data")
        r = subprocess.run(["perf", "record", "-q", "-F", "2000", "-o", data, "--", sys.executable, "-c", PERF_CHILD,
                            os.fspath(path), str(calls)], capture_output=True, text=True)
        if r.returncode != 0:
            return f"perf record failed: {r.stderr.strip()[-500:]}"
        rep = subprocess.run(["perf", "report", "-i", data, "--stdio", "--sort", "dso", "--percent-limit", "1"],
                             capture_output=True, text=True)
        return "\n".join(line for line in rep.stdout.splitlines() if line.strip() and not line.startswith("#"))


def main(argv=None):
    import meshio

    import meshioplusplus as mio

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--calls", type=int, default=2000)
    ap.add_argument("--batch", type=int, default=100)
    ap.add_argument("--perf", action="store_true", help="add perf record's split by shared object")
    ap.add_argument("--tag", default="small-files")
    args = ap.parse_args(argv)
    info = machine()
    info["load_start"] = os.getloadavg()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        files = make_files(Path(tmp))
        for label, path, fmt in files:
            p = os.fspath(path)
            m_peer, m_ours = meshio.read(p), mio.read(p)
            assert len(m_peer.points) == len(m_ours.points), label
            (t_peer, c_peer), (t_ours, c_ours) = batches([lambda: meshio.read(p), lambda: mio.read(p)], args.calls,
                                                         args.batch, cpu=True)
            row = dict(case=label, bytes=path.stat().st_size, meshio_us=t_peer * 1e6, ours_us=t_ours * 1e6,
                       ratio=t_peer / t_ours, meshio_cpu_us=c_peer * 1e6, ours_cpu_us=c_ours * 1e6,
                       load=os.getloadavg()[0])
            row["layers_us"] = layers(path, fmt, args.calls // 2, args.batch)
            rows.append(row)
            print(f"  {label:20s} {row['bytes']:6d} B  meshio {row['meshio_us']:8.1f} us  meshio++ {row['ours_us']:7.1f} us"
                  f"  x{row['ratio']:5.1f}  CPU {row['meshio_cpu_us']:7.1f} / {row['ours_cpu_us']:6.1f} us"
                  f"  {'PASS' if row['ours_us'] < TARGET_US else 'MISS'}", flush=True)
        prof = {label: profile(path, args.calls // 2) for label, path, _ in files[:2]}
        perf = {label: perf_split(path, 20000) for label, path, _ in files[:2]} if args.perf else {}
    info["load_end"] = os.getloadavg()
    stamp = datetime.date.today().isoformat()
    base = RESULTS / f"{stamp}-{info['host']}-{args.tag}"
    RESULTS.mkdir(parents=True, exist_ok=True)
    base.with_suffix(".json").write_text(json.dumps({"machine": info, "target_us": TARGET_US, "calls": args.calls,
                                                      "batch": args.batch, "rows": rows, "cprofile": prof,
                                                      "perf": perf}, indent=1) + "\n")
    text = report(rows, info, prof, perf, args)
    base.with_suffix(".md").write_text(text)
    print(text)
    print(f"wrote {base.relative_to(HERE.parent)}.{{md,json}}")


def report(rows, info, prof, perf, args) -> str:
    out = [f"# Small files: per-call overhead of read, {datetime.date.today().isoformat()}", "",
           f"Machine: {info['host']}, {info['cores']} cores, {info['cpu']}, governor {info['governor']}; "
           f"load average {info['load_start'][0]:.2f} at the start, {info['load_end'][0]:.2f} at the end "
           "(shared machine: the ratios hold, the absolute times are inflated).", "",
           f"Command: `.venv/bin/python bench/small_files.py --calls {args.calls} --batch {args.batch}"
           f"{' --perf' if perf else ''}`. "
           f"Median per call over batches of {args.batch} calls, meshio and meshio++ interleaved; "
           f"{args.calls} calls each. Target: under {TARGET_US:.0f} us per mio.read (wall). CPU = the process's CPU time "
           "per call (time.process_time), which the load inflates far less.", "",
           "| file | bytes | meshio us | meshio++ us | meshio / meshio++ | < 100 us | meshio CPU us | meshio++ CPU us |",
           "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r['case']} | {r['bytes']} | {r['meshio_us']:.1f} | {r['ours_us']:.1f} | {r['ratio']:.1f} | "
                   f"{'PASS' if r['ours_us'] < TARGET_US else 'MISS'} | {r['meshio_cpu_us']:.1f} | {r['ours_cpu_us']:.1f} |")
    names = list(rows[0]["layers_us"])
    out += ["", "## Where the time goes (CPU microseconds per call, each layer timed alone)", "",
            "| layer | " + " | ".join(r["case"] for r in rows) + " |", "|---" * (len(rows) + 1) + "|"]
    for n in names:
        out.append(f"| {n} | " + " | ".join(f"{r['layers_us'][n]:.1f}" for r in rows) + " |")
    for label, text in prof.items():
        out += ["", f"## cProfile of mio.read, {label} (own time, {args.calls // 2} calls)", "", "```", text, "```"]
    for label, text in perf.items():
        out += ["", f"## perf record, {label}: CPU samples by shared object (20000 calls, import included)", "",
                "```", text, "```"]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    main()
