"""Read and write time per MB from ~10 MB to ~2 GB files, and the peak anonymous memory of
each read against the bytes of the arrays it returns (issue 19: "cost grows linearly").

Cases: Gmsh 4.1 binary, VTU appended raw (no compression) and Gmsh 4.1 ASCII. Each file is
a structured tetrahedral box (every grid cube split into 6 tetrahedra), made with numpy and
written by meshio++'s own writer, sized to the target within 10% (one rescale of the box
when the first guess misses). Every write and every read runs in a fresh subprocess, so a
read starts from an empty heap; the read's memory is the peak of RssAnon sampled every
0.5 ms (bench/memsample.py), minus RssAnon before the read, divided by the bytes of the
arrays the read returns (points, cells, point and cell data). Page-cache pages of the file
are not anonymous memory and are not counted. Files are deleted after each size.

Usage: .venv/bin/python bench/scaling.py [--max-mb 2000] [--sizes 10,50,200,1000,2000]
                                         [--cases gmsh41-binary,vtu-appended-raw,gmsh41-ascii]
Writes bench/results/<date>-<host>-scaling.{md,json,png} and prints the table.
PASS (per case and operation): the largest s/MB is at most 1.2x the smallest over all sizes.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shutil
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
SIZES_MB = (10, 50, 200, 1000, 2000)
FLAT = 1.2  # the largest s/MB over the smallest, per case and operation
MEMORY_BOUND = 1.2  # peak anonymous memory / bytes of the arrays returned

# label -> (file suffix, meshio++ format name, writer keywords)
CASES = {
    "gmsh41-binary": (".msh", "gmsh", {"fmt_version": "4.1", "binary": True}),
    "vtu-appended-raw": (".vtu", "vtu", {"data_mode": "appended", "compression": None}),
    "gmsh41-ascii": (".msh", "gmsh", {"fmt_version": "4.1", "binary": False}),
}


# --- the synthetic mesh ------------------------------------------------------------------
# The 6 tetrahedra of a cube (Kuhn / Freudenthal split: conforming between neighbours):
# corner bits (x=1, y=2, z=4); each tetrahedron walks from corner 0 to corner 7 along one
# order of the axes.
_KUHN = np.array([[0, a, a | b, 7] for a, b in ((1, 2), (1, 4), (2, 1), (2, 4), (4, 1), (4, 2))])


def box_tets(nx: int, ny: int, nz: int):
    """(points (nx*ny*nz, 3) float64, tetra (6*(nx-1)*(ny-1)*(nz-1), 4) int64) of a box
    with unit spacing scaled by 1/(nx-1) (coordinates with many digits, as real meshes)."""
    if min(nx, ny, nz) < 2:
        raise ValueError(f"box_tets: every side needs at least 2 nodes, got {nx}x{ny}x{nz}")
    h = 1.0 / (nx - 1)
    points = np.empty((nz, ny, nx, 3))
    points[..., 0] = np.arange(nx) * h
    points[..., 1] = (np.arange(ny) * h)[:, None]
    points[..., 2] = (np.arange(nz) * h)[:, None, None]
    corner = np.array([(b & 1) + nx * ((b >> 1) & 1) + nx * ny * ((b >> 2) & 1) for b in range(8)], dtype=np.int64)
    base = (np.arange(nx - 1, dtype=np.int64)[None, None, :] + nx * np.arange(ny - 1, dtype=np.int64)[None, :, None]
            + nx * ny * np.arange(nz - 1, dtype=np.int64)[:, None, None]).reshape(-1)
    tets = np.empty((base.size, 6, 4), dtype=np.int64)
    np.add(base[:, None, None], corner[_KUHN][None, :, :], out=tets)
    return points.reshape(-1, 3), tets.reshape(-1, 4)


def write_box(path: Path, case: str, shape) -> float:
    """Write the box of `shape` nodes as `case` to `path`; seconds the write call took."""
    import meshioplusplus as mio

    suffix, fmt, kw = CASES[case]
    points, tets = box_tets(*shape)
    mesh = mio.Mesh(points, [("tetra", tets)])
    t = time.perf_counter()
    mio.write(path, mesh, fmt, **kw)
    return time.perf_counter() - t


def shape_for(case: str, target_bytes: float, work: Path):
    """Box shape (nx, nx, nz) whose `case` file is about `target_bytes`: bytes per cube of
    a calibration box, then nz from the target (nx from its cube root)."""
    probe = work / f"probe{CASES[case][0]}"
    write_box(probe, case, (13, 13, 13))
    per_cube = probe.stat().st_size / 12**3
    probe.unlink()
    cubes = max(1.0, target_bytes / per_cube)
    nx = max(2, round(cubes ** (1 / 3)) + 1)
    nz = max(2, round(cubes / (nx - 1) ** 2) + 1)
    return nx, nx, nz


def make_file(case: str, target_mb: float, work: Path, reps: int = 1):
    """The `case` file of about `target_mb` MB (1e6 bytes) in `work`: (path, shape, median
    write seconds over `reps` writes). A first guess that misses by more than 5% (text sizes
    grow with the digits of the node numbers) is rescaled once."""
    path = work / f"scaling-{case}{CASES[case][0]}"
    shape = shape_for(case, target_mb * 1e6, work)
    times = [run_child("write", case, path, *shape)["seconds"]]
    miss = path.stat().st_size / (target_mb * 1e6)
    if abs(miss - 1) > 0.05:
        nx, ny, nz = shape
        shape = (nx, ny, max(2, round((nz - 1) / miss) + 1))
        times = [run_child("write", case, path, *shape)["seconds"]]
    times += [run_child("write", case, path, *shape)["seconds"] for _ in range(reps - 1)]
    return path, shape, statistics.median(times)


# --- children: one fresh process per write and per read ---------------------------------------
def child_write(case: str, path: str, nx: str, ny: str, nz: str) -> dict:
    return {"seconds": write_box(Path(path), case, (int(nx), int(ny), int(nz)))}


def returned_bytes(mesh) -> int:
    """Bytes of every array a read returned: points, cells, point and cell data."""
    arrays = [mesh.points] + [np.asarray(c.data) for c in mesh.cells]
    arrays += list(mesh.point_data.values()) + [a for v in mesh.cell_data.values() for a in v]
    return sum(np.asarray(a).nbytes for a in arrays)


def child_read(case: str, path: str) -> dict:
    sys.path.insert(0, str(HERE))
    from memsample import AnonPeak, read_status

    import meshioplusplus as mio

    fmt = CASES[case][1]
    with AnonPeak() as mem:
        t = time.perf_counter()
        mesh = mio.read(path, fmt)
        seconds = time.perf_counter() - t
    return {"seconds": seconds, "anon_growth": mem.growth, "anon_samples": mem.samples,
            "arrays": returned_bytes(mesh), "vm_hwm": read_status("VmHWM")}


def run_child(kind: str, *args) -> dict:
    r = subprocess.run([sys.executable, __file__, "--child", kind, *map(str, args)], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"scaling child {kind} {args} failed ({r.returncode}):\n{r.stderr[-3000:]}")
    return json.loads(r.stdout.strip().splitlines()[-1])


# --- the run -------------------------------------------------------------------------------
def reps_for(mb: float) -> int:
    """Repetitions for a size: more for small files, whose times are short and noisy."""
    return max(1, min(5, round(400 / mb)))


def flatness(rows, case: str, op: str):
    """(largest s/MB / smallest, PASS or MISS) of one case and operation over its sizes."""
    per_mb = [r[f"{op}_s_per_mb"] for r in rows if r["case"] == case]
    if len(per_mb) < 2:
        return None, "n/a"
    spread = max(per_mb) / min(per_mb)
    return spread, ("PASS" if spread <= FLAT else "MISS")


def machine() -> dict:
    model = ""
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    gov = Path("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")
    return {"host": socket.gethostname().split(".")[0], "cores": os.cpu_count(), "cpu": model,
            "governor": gov.read_text().strip() if gov.exists() else "not visible",
            "python": platform.python_version(), "mem_gb": round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default=",".join(map(str, SIZES_MB)), help="target file sizes in MB")
    ap.add_argument("--max-mb", type=float, default=2000, help="skip target sizes above this")
    ap.add_argument("--cases", default=",".join(CASES))
    ap.add_argument("--work", type=Path, default=HERE / "work" / "scaling")
    ap.add_argument("--tag", default="scaling", help="results file name: <date>-<host>-<tag>")
    args = ap.parse_args(argv)
    sizes = [float(s) for s in args.sizes.split(",") if float(s) <= args.max_mb]
    cases = args.cases.split(",")
    for c in cases:
        if c not in CASES:
            ap.error(f"unknown case {c!r} (known: {', '.join(CASES)})")
    args.work.mkdir(parents=True, exist_ok=True)
    info = machine()
    info["load_start"] = os.getloadavg()
    print(f"{info['host']}: {info['cores']} cores, {info['cpu']}, governor {info['governor']}, "
          f"load {info['load_start'][0]:.2f}", flush=True)

    rows = []
    for mb in sizes:
        for case in cases:
            reps = reps_for(mb)
            if shutil.disk_usage(args.work).free < 4 * mb * 1e6:
                raise SystemExit(f"not enough free disk in {args.work} for a {mb:.0f} MB file")
            path, shape, write_s = make_file(case, mb, args.work, reps)
            size = path.stat().st_size
            reads = [run_child("read", case, path) for _ in range(reps)]
            path.unlink()
            row = dict(case=case, target_mb=mb, mb=size / 1e6, shape=list(shape), reps=reps,
                       write_s=write_s, read_s=statistics.median(r["seconds"] for r in reads),
                       arrays_mb=reads[0]["arrays"] / 1e6,
                       anon_ratio=max(r["anon_growth"] for r in reads) / reads[0]["arrays"],
                       hwm_mb=max(r["vm_hwm"] for r in reads) / 1e6, load=os.getloadavg()[0])
            row["read_s_per_mb"] = row["read_s"] / row["mb"]
            row["write_s_per_mb"] = row["write_s"] / row["mb"]
            rows.append(row)
            print(f"  {case:17s} {row['mb']:8.1f} MB  read {row['read_s']:8.3f}s ({row['read_s_per_mb'] * 1e3:6.2f} ms/MB)"
                  f"  write {row['write_s']:8.3f}s ({row['write_s_per_mb'] * 1e3:6.2f} ms/MB)"
                  f"  anon/arrays {row['anon_ratio']:.2f}  x{reps}  load {row['load']:.2f}", flush=True)
        save(rows, info, cases, args.tag, final=mb == sizes[-1])  # after each size: a cut-short run keeps its rows


def save(rows, info, cases, tag: str, final: bool) -> None:
    info["load_end"] = os.getloadavg()
    stamp = datetime.date.today().isoformat()
    base = RESULTS / f"{stamp}-{info['host']}-{tag}"
    RESULTS.mkdir(parents=True, exist_ok=True)
    verdicts = {f"{c} {op}": flatness(rows, c, op) for c in cases for op in ("read", "write")}
    base.with_suffix(".json").write_text(json.dumps({"machine": info, "rows": rows, "flat_bound": FLAT,
                                                      "memory_bound": MEMORY_BOUND,
                                                      "verdicts": {k: {"spread": v[0], "verdict": v[1]} for k, v in verdicts.items()}},
                                                     indent=1) + "\n")
    base.with_suffix(".md").write_text(table(rows, info, verdicts))
    plot(rows, cases, base.with_suffix(".png"))
    if final:
        print(table(rows, info, verdicts))
        print(f"wrote {base.relative_to(HERE.parent)}.{{md,json,png}}")


def table(rows, info, verdicts) -> str:
    out = [f"# Scaling: time per MB and read memory, {datetime.date.today().isoformat()}", "",
           f"Machine: {info['host']}, {info['cores']} cores, {info['cpu']}, governor {info['governor']}, "
           f"{info['mem_gb']} GiB RAM; load average {info['load_start'][0]:.2f} at the start, "
           f"{info['load_end'][0]:.2f} at the end (shared machine: compare within a column, not across runs).", "",
           "Command: `.venv/bin/python bench/scaling.py` (see docs/benchmarks.md#scaling). Each write and each read "
           "in a fresh process; median of `reps`; memory = peak RssAnon growth of the read / bytes of the arrays it returns "
           "(max over reps).", "",
           "| case | file MB | reps | read s | read ms/MB | write s | write ms/MB | arrays MB | anon / arrays | load |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r['case']} | {r['mb']:.1f} | {r['reps']} | {r['read_s']:.3f} | {r['read_s_per_mb'] * 1e3:.2f} | "
                   f"{r['write_s']:.3f} | {r['write_s_per_mb'] * 1e3:.2f} | {r['arrays_mb']:.1f} | "
                   f"{r['anon_ratio']:.3f}{'' if r['anon_ratio'] <= MEMORY_BOUND else ' (over)'} | {r['load']:.2f} |")
    out += ["", f"Flat within {round((FLAT - 1) * 100)}% (largest ms/MB / smallest, over the sizes above):", ""]
    out += [f"- {k}: {'n/a' if s is None else f'{s:.2f}x'} {v}" for k, (s, v) in verdicts.items()]
    mem_ok = all(r["anon_ratio"] <= MEMORY_BOUND for r in rows)
    out += [f"- read memory within {MEMORY_BOUND}x of the arrays at every size: {'PASS' if mem_ok else 'MISS'}", ""]
    return "\n".join(out)


def plot(rows, cases, path: Path) -> None:
    try:
        import matplotlib
    except ImportError:
        print("matplotlib missing (python3-matplotlib): no plot", file=sys.stderr)
        return
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax, am) = plt.subplots(1, 2, figsize=(13, 5.5))
    for case in cases:
        rs = sorted((r for r in rows if r["case"] == case), key=lambda r: r["mb"])
        mb = [r["mb"] for r in rs]
        for op, style in (("read", "-o"), ("write", "--s")):
            ax.plot(mb, [r[f"{op}_s_per_mb"] * 1e3 for r in rs], style, label=f"{case} {op}")
        am.plot(mb, [r["anon_ratio"] for r in rs], "-o", label=case)
    ax.set_xscale("log"); ax.set_yscale("log")
    ax.set_xlabel("file size (MB)"); ax.set_ylabel("ms per MB (lower is better; flat = linear cost)")
    ax.set_title("time per MB"); ax.grid(True, which="both", alpha=0.3); ax.legend(fontsize=8)
    am.axhline(MEMORY_BOUND, color="red", linestyle=":", label=f"bound {MEMORY_BOUND}x")
    am.set_xscale("log"); am.set_ylim(0, max([MEMORY_BOUND * 1.3] + [r["anon_ratio"] * 1.1 for r in rows]))
    am.set_xlabel("file size (MB)"); am.set_ylabel("peak anonymous memory / arrays returned")
    am.set_title("read memory"); am.grid(True, which="both", alpha=0.3); am.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        kind, args = sys.argv[2], sys.argv[3:]
        print(json.dumps((child_write if kind == "write" else child_read)(*args)))
    else:
        main()
