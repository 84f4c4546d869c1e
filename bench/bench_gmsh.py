"""Gmsh MSH benchmark: meshio vs meshio++ on a gmsh-made bracket (~50k nodes, ~280k cells).

    .venv/bin/python bench/bench_gmsh.py [--reps 7] [--geo bench/geo/bracket.geo]

Meshes bench/geo/bracket.geo with the gmsh program once (cached in the temp folder, keyed
by the .geo's contents), writes MSH 4.1 ASCII and binary, and times, interleaved in one
process, medians of --reps runs:
  read ASCII 4.1, read binary 4.1 (and copying the file's bytes in memory, the floor),
  write ASCII 4.1, write binary 4.1;
then the peak memory of one read (a fresh process, VmHWM over the baseline) against the
bytes of the arrays the read returns. Prints ratios; asserts nothing.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import meshio
import meshioplusplus as mio

HERE = Path(__file__).resolve().parent


def make_meshes(geo: Path) -> dict:
    key = hashlib.sha1(geo.read_bytes()).hexdigest()[:12]
    out = Path(tempfile.gettempdir()) / f"meshioplusplus-bench-gmsh-{key}"
    out.mkdir(exist_ok=True)
    files = {"ascii": out / "bracket_41_ascii.msh", "binary": out / "bracket_41_bin.msh"}
    if not files["binary"].exists():
        print(f"meshing {geo} with gmsh (once; cached in {out}) ...", flush=True)
        subprocess.run(["gmsh", "-3", str(geo), "-o", str(files["binary"]), "-format", "msh41", "-bin"], check=True, capture_output=True)
    if not files["ascii"].exists():
        subprocess.run(["gmsh", str(files["binary"]), "-0", "-o", str(files["ascii"]), "-format", "msh41"], check=True, capture_output=True)
    return files


def timed(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def race(cases: dict, reps: int) -> dict:
    """Interleaved runs of every case, `reps` times; medians in seconds."""
    times = {k: [] for k in cases}
    for _ in range(reps):
        for k, fn in cases.items():
            times[k].append(timed(fn))
    return {k: statistics.median(v) for k, v in times.items()}


PEAK_SCRIPT = r"""
import json, sys
import numpy as np
import meshioplusplus as mio
def status(key):
    for line in open("/proc/self/status"):
        if line.startswith(key):
            return int(line.split()[1]) * 1024
mio.read(sys.argv[1])  # warm: imports, page cache
m = None
base = status("VmRSS:")
open("/proc/self/clear_refs", "w").write("5")  # reset VmHWM to the current RSS
m = mio.read(sys.argv[1])
peak = status("VmHWM:") - base
arrays = m.points.nbytes + sum(np.asarray(c.data).nbytes for c in m.cells)
arrays += sum(np.asarray(v).nbytes for v in m.point_data.values())
arrays += sum(np.asarray(a).nbytes for v in m.cell_data.values() for a in v)
arrays += sum(np.asarray(r.entries).nbytes for r in m.regions)
print(json.dumps({"peak": peak, "arrays": arrays}))
"""


def peak_memory(path: Path) -> dict:
    out = subprocess.run([sys.executable, "-c", PEAK_SCRIPT, str(path)], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--geo", type=Path, default=HERE / "geo" / "bracket.geo")
    args = ap.parse_args()
    files = make_meshes(args.geo)
    mesh = mio.read(files["binary"])
    ref = meshio.read(files["binary"])
    ncells = sum(len(c.data) for c in mesh.cells)
    print(f"mesh: {len(mesh.points)} nodes, {ncells} cells; ASCII {files['ascii'].stat().st_size / 1e6:.1f} MB, "
          f"binary {files['binary'].stat().st_size / 1e6:.1f} MB; {args.reps} interleaved runs, medians")
    raw = files["binary"].read_bytes()

    read = race(
        {
            "meshio ascii": lambda: meshio.read(files["ascii"]),
            "meshio++ ascii": lambda: mio.read(files["ascii"]),
            "meshio binary": lambda: meshio.read(files["binary"]),
            "meshio++ binary": lambda: mio.read(files["binary"]),
            "copy bytes": lambda: bytearray(raw),
        },
        args.reps,
    )
    tmp = Path(tempfile.mkdtemp(prefix="mpp-bench-gmsh-"))
    write = race(
        {
            "meshio ascii": lambda: meshio.write(tmp / "a.msh", ref, file_format="gmsh", binary=False),
            "meshio++ ascii": lambda: mio.write(tmp / "b.msh", mesh, file_format="gmsh", binary=False),
            "meshio binary": lambda: meshio.write(tmp / "c.msh", ref, file_format="gmsh", binary=True),
            "meshio++ binary": lambda: mio.write(tmp / "d.msh", mesh, file_format="gmsh", binary=True),
        },
        args.reps,
    )
    for kind, res in (("read", read), ("write", write)):
        for k, v in res.items():
            print(f"  {kind:5s} {k:16s} {v * 1e3:9.2f} ms")
    print("ratios (meshio / meshio++; higher is better):")
    print(f"  read  ASCII 4.1   {read['meshio ascii'] / read['meshio++ ascii']:6.1f}x   (issue target >= 10x)")
    print(f"  read  binary 4.1  {read['meshio binary'] / read['meshio++ binary']:6.1f}x   (target >= 3x)")
    print(f"  binary read / copying the file's bytes in memory: {read['meshio++ binary'] / read['copy bytes']:.2f}   (target <= 2)")
    print(f"  write ASCII 4.1   {write['meshio ascii'] / write['meshio++ ascii']:6.1f}x   (target >= 5x)")
    print(f"  write binary 4.1  {write['meshio binary'] / write['meshio++ binary']:6.1f}x")
    for kind in ("ascii", "binary"):
        p = peak_memory(files[kind])
        print(f"  peak memory of a {kind} read: {p['peak'] / 1e6:.1f} MB over baseline, arrays returned "
              f"{p['arrays'] / 1e6:.1f} MB: {p['peak'] / p['arrays']:.2f}x (target <= 1.5x; includes mapped file pages)")


if __name__ == "__main__":
    main()
