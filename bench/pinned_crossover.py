#!/usr/bin/env python3
"""Pinned-memory crossover: when does pinned memory pay off for the GPU hand-off?

For payloads from 64 KiB to 4 GiB (a tetra mesh: points, connectivity, one point field,
one cell field), medians over interleaved repeats, every case synchronised before the clock
stops, on a machine with a CUDA device (tools/gpu_check.sh runs it):

host -> device
  to_cupy            mio.to_cupy(mesh)                    mesh in ordinary memory; cupy.asarray per
                     array, which in CuPy 14 stages through a pinned buffer from its pool
  staged-pinned      mio.to_cupy(mesh, pinned=True)       same mesh: the bounded staging ring
  read-into-pinned   mio.to_cupy(pinned_mesh, pinned=True)  mesh whose arrays live in pinned memory
                     from the allocator pinned_reads() installs (a real read under
                     pinned_reads() for payloads up to --read-max; above that the same
                     allocator, filled by a copy, to keep the run short) -> direct path
  raw pinned set()   one ndarray.set of the same bytes from one pinned buffer (the bus)
  raw pageable set() one ndarray.set of the same bytes from one pageable buffer: the true
                     pageable baseline (the driver stages it; no CuPy pinned buffer involved)
  raw cupy.asarray   one cupy.asarray of the same bytes: CuPy's own pinned staging, not pageable
device -> host
  pageable           mio.from_cupy(gpu)                   .get() into fresh pageable memory
  pinned             mio.from_cupy(gpu, pinned=True)      into pinned buffers from the pool (warm)
  pinned, cold       the same, once, right after emptying CuPy's pinned pool (not a median)
  raw pinned         one .get(out=) of the same bytes into one pinned buffer
  raw pageable       one .get() of the same bytes

The crossover reported is the smallest payload from which each pinned=True path is faster
than the default to_cupy / from_cupy, with every larger measured payload agreeing. The issue's target is
checked at >= 1 GiB: to_cupy(pinned=True) of the read-into-pinned mesh and
from_cupy(pinned=True) at >= 40 GB/s end to end, next to the raw pinned copy of the same run.

Usage: pinned_crossover.py [OUT_PATH_OR_DIR] [--sizes 64K,...,4G] [--repeats N] [--budget S]
                           [--read-max 32M]
       pinned_crossover.py --dry-run   (host-memory stand-in for CuPy: checks this script's
                                        control flow on a machine with no GPU; measures nothing)
"""
from __future__ import annotations

import argparse
import gc
import os
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

from gpu_common import gbps, load_cupy, release_pools, run_meta, timed, write_results

DEFAULT_SIZES = "64K,512K,4M,32M,256M,1G,4G"
TARGET_GBPS = 40.0
TARGET_MIN_BYTES = 1 << 30

H2D = ["to_cupy", "staged-pinned", "read-into-pinned", "raw pinned set()", "raw pageable set()", "raw cupy.asarray"]
D2H = ["pageable", "pinned", "raw pinned", "raw pageable"]


def parse_size(text: str) -> int:
    text = text.strip().upper()
    for suffix, mult in (("K", 1 << 10), ("M", 1 << 20), ("G", 1 << 30)):
        if text.endswith(suffix):
            return int(float(text[:-1]) * mult)
    return int(float(text))


def human(nbytes: int) -> str:
    for suffix, mult in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if nbytes >= mult:
            return f"{nbytes / mult:g} {suffix}"
    return f"{nbytes} B"


def make_mesh(mio, nbytes: int):
    """A tetra mesh of about ``nbytes``: per point 24 B coordinates + 8 B field, per cell
    32 B connectivity + 8 B field, one cell per point. Cheap fills: the values do not matter
    for bandwidth and are checked once per size."""
    n = max(nbytes // 72, 4)
    points = np.empty((n, 3))
    points[:, 0] = np.arange(n, dtype=np.float64)
    points[:, 1:] = 0.5
    conn = np.empty((n, 4), dtype=np.int64)
    conn[:, 0] = np.arange(n)
    conn[:, 1:] = 0
    return mio.Mesh(points, [("tetra", conn)], point_data={"T": np.full(n, 2.0)}, cell_data={"rho": [np.full(n, 3.0)]})


def payload_bytes(mesh) -> int:
    return mesh.points.nbytes + mesh.cells[0].data.nbytes + mesh.point_data["T"].nbytes + mesh.cell_data["rho"][0].nbytes


def pinned_copy(mio, _gpu, cp, mesh, nbytes: int, read_max: int, workdir: Path):
    """The read-into-pinned mesh: read from a file under pinned_reads() when small enough,
    else arrays from the very allocator pinned_reads() installs, filled by a copy."""
    if nbytes <= read_max:
        path = workdir / "crossover.msh"
        mio.write(path, mesh, "gmsh", binary=True)
        with _gpu.pinned_reads():
            read = mio.read(path)
        path.unlink()
        keep = mio.Mesh(read.points, [("tetra", read.cells[0].data)], point_data={"T": read.point_data["T"]},
                        cell_data={"rho": [read.cell_data["rho"][0]]})
        return keep, "read under pinned_reads()"
    alloc = _gpu._PinnedAllocator(cp)

    def pinned(a):
        out = _gpu._pinned_empty(alloc, a.shape, a.dtype)
        out[...] = a
        return out

    return mio.Mesh(pinned(mesh.points), [("tetra", pinned(mesh.cells[0].data))], point_data={"T": pinned(mesh.point_data["T"])},
                    cell_data={"rho": [pinned(mesh.cell_data["rho"][0])]}), "pinned_reads() allocator, filled by a copy"



def quiet(fn):
    def run():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the noted copies of from_cupy: expected here
            return fn()
    return run


def bench_size(mio, _gpu, cp, nbytes: int, repeats: int, read_max: int, workdir: Path, dry_run: bool) -> dict:
    mesh = make_mesh(mio, nbytes)
    total = payload_bytes(mesh)
    pinned_mesh, source = pinned_copy(mio, _gpu, cp, mesh, total, read_max, workdir)
    null = cp.cuda.get_current_stream()
    sync = null.synchronize

    flat = np.ones(total, dtype=np.uint8)
    pinned_flat = np.frombuffer(cp.cuda.alloc_pinned_memory(total), np.uint8, total)
    pinned_flat[...] = 1
    d_flat = cp.empty(total, dtype=np.uint8)

    # Correctness once per size, and the path each array took (derived).
    check = mio.to_cupy(pinned_mesh, pinned=True)
    direct = sum(1 for d in check.derived if d.endswith(": direct"))
    assert direct == 4, f"read-into-pinned arrays must take the direct path: {check.derived}"
    assert float(check.points[-1].get()[0]) == float(len(mesh.points) - 1), "to_cupy moved different values"
    del check
    staged = mio.to_cupy(mesh, pinned=True)
    staging_line = [d for d in staged.derived if d.startswith("host->device:")][0]
    del staged

    def raw_pinned_up():
        d_flat.set(pinned_flat, stream=null)

    def raw_pageable_up():
        d_flat.set(flat, stream=null)  # from ordinary memory: the driver stages it, CuPy does not

    h2d = timed(
        {
            "to_cupy": lambda: mio.to_cupy(mesh),
            "staged-pinned": lambda: mio.to_cupy(mesh, pinned=True),
            "read-into-pinned": lambda: mio.to_cupy(pinned_mesh, pinned=True),
            "raw pinned set()": raw_pinned_up,
            "raw pageable set()": raw_pageable_up,
            "raw cupy.asarray": lambda: cp.asarray(flat),
        },
        sync,
        repeats,
    )

    gpu = mio.to_cupy(mesh)
    # Cold: the first pinned return after CuPy's pinned pool was emptied pays for pinning.
    gc.collect()
    cp.get_default_pinned_memory_pool().free_all_blocks()
    t0 = time.perf_counter()
    cold = quiet(lambda: mio.from_cupy(gpu, pinned=True))()
    sync()
    cold_s = time.perf_counter() - t0
    ok = np.array_equal(cold.points[-3:], mesh.points[-3:]) and np.array_equal(cold.cells[0].data[-3:], mesh.cells[0].data[-3:])
    assert ok, "from_cupy(pinned=True) returned different values"
    del cold

    d2h = timed(
        {
            "pageable": quiet(lambda: mio.from_cupy(gpu)),
            "pinned": quiet(lambda: mio.from_cupy(gpu, pinned=True)),
            "raw pinned": lambda: d_flat.get(out=pinned_flat),
            "raw pageable": lambda: d_flat.get(),
        },
        sync,
        repeats,
    )
    return {"nominal": nbytes, "bytes": total, "source": source, "h2d": h2d, "d2h": d2h, "d2h_pinned_cold": cold_s, "staging": staging_line}



def crossover(results: list, direction: str, path: str, against: str):
    """Smallest payload from which `path` beats `against` at this and every larger measured size."""
    wins = [r[direction][path] < r[direction][against] for r in results]
    for i in range(len(results)):
        if all(wins[i:]):
            return results[i]["nominal"]
    return None


def render(results: list, meta: dict) -> str:
    lines = [
        "# Pinned-memory crossover",
        "",
        f"{meta['when']} on {meta['device']}; Python {meta['python']}, numpy {meta['numpy']}, CuPy {meta['cupy']}. "
        f"Median of {meta['repeats']} interleaved repeats (after one warm-up), each synchronised. "
        "Cells: GB/s of the payload's bytes (ms in brackets). Every mio path is end to end (payload build, "
        "device allocation, copies, synchronisation).",
        "",
    ]
    if meta.get("dry_run"):
        lines += ["**DRY RUN with a host-memory stand-in for CuPy: checks the script, measures nothing. "
                  "Do not read these numbers.**", ""]
    if meta.get("skipped"):
        lines += [f"Not run (time budget): {', '.join(human(n) for n in meta['skipped'])}.", ""]
    for direction, title, cases in (("h2d", "Host -> device", H2D), ("d2h", "Device -> host", D2H)):
        lines += [f"## {title}", "", "| payload | " + " | ".join(cases) + (" | pinned, cold |" if direction == "d2h" else " |"),
                  "|---|" + "---|" * (len(cases) + (direction == "d2h"))]
        for r in results:
            cells = [f"{gbps(r['bytes'], r[direction][c]):.1f} ({1e3 * r[direction][c]:.2f})" for c in cases]
            if direction == "d2h":
                cells.append(f"{gbps(r['bytes'], r['d2h_pinned_cold']):.1f} ({1e3 * r['d2h_pinned_cold']:.2f})")
            lines.append(f"| {human(r['nominal'])} | " + " | ".join(cells) + " |")
        lines.append("")
    lines += ["## Crossover", ""]
    for direction, path, against, label in (
            ("h2d", "staged-pinned", "to_cupy", "to_cupy(pinned=True), mesh in pageable memory (staged) vs to_cupy(mesh)"),
            ("h2d", "read-into-pinned", "to_cupy", "to_cupy(pinned=True), mesh read under pinned_reads() (direct) vs to_cupy(mesh)"),
            ("h2d", "raw cupy.asarray", "raw pageable set()", "one cupy.asarray (CuPy's pinned staging) vs one pageable set()"),
            ("d2h", "pinned", "pageable", "from_cupy(pinned=True), warm pool vs from_cupy(gpu)")):
        at = crossover(results, direction, path, against)
        lines.append(f"- {label}: faster " + (f"from {human(at)} on" if at is not None else "at no measured size consistently"))
    lines += ["", "## Target (payload >= 1 GiB: >= 40 GB/s end to end)", "",
              "| payload | to_cupy(pinned=True), read-into-pinned | raw pinned up | from_cupy(pinned=True) | raw pinned down | verdict |",
              "|---|---|---|---|---|---|"]
    any_target = False
    for r in results:
        if r["nominal"] < TARGET_MIN_BYTES:
            continue
        any_target = True
        up, down = gbps(r["bytes"], r["h2d"]["read-into-pinned"]), gbps(r["bytes"], r["d2h"]["pinned"])
        raw_up, raw_down = gbps(r["bytes"], r["h2d"]["raw pinned set()"]), gbps(r["bytes"], r["d2h"]["raw pinned"])
        verdict = "met" if up >= TARGET_GBPS and down >= TARGET_GBPS else "NOT met"
        lines.append(f"| {human(r['nominal'])} | {up:.1f} ({up / raw_up:.0%} of raw) | {raw_up:.1f} | "
                     f"{down:.1f} ({down / raw_down:.0%} of raw) | {raw_down:.1f} | {verdict} |")
    if not any_target:
        lines.append("| (no payload >= 1 GiB was measured) | | | | | not measured |")
    lines += ["", "## Sources and staging", ""]
    for r in results:
        lines.append(f"- {human(r['nominal'])} ({r['bytes']} bytes): read-into-pinned mesh from the {r['source']}; staged path: {r['staging']}")
    lines.append("")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out", nargs="?", default=os.environ.get("OUT", "."), help="a .md path, or a folder for pinned_crossover.md/.json")
    ap.add_argument("--sizes", default=DEFAULT_SIZES)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--budget", type=float, default=150.0,
                    help="seconds; a size is skipped when the previous size's time, scaled by bytes, would overrun it")
    ap.add_argument("--read-max", default="32M", help="largest payload made by a real read under pinned_reads()")
    ap.add_argument("--dry-run", action="store_true", help="host-memory CuPy stand-in (tests/python/fake_cupy.py)")
    args = ap.parse_args(argv)

    out = Path(args.out)
    md_path = out if out.suffix == ".md" else out / "pinned_crossover.md"
    md_path.parent.mkdir(parents=True, exist_ok=True)
    sizes = [parse_size(s) for s in args.sizes.split(",")]

    loaded = load_cupy("pinned_crossover", args.dry_run)
    if loaded is None:
        return 2
    cp, device = loaded

    import meshioplusplus as mio
    from meshioplusplus import _gpu

    meta = run_meta(cp, device, args)
    results: list = []
    start = time.perf_counter()
    last = None  # (bytes, seconds) of the previous size
    with tempfile.TemporaryDirectory() as tmp:
        for nbytes in sizes:
            spent = time.perf_counter() - start
            estimate = last[1] * nbytes / last[0] if last else 0.0
            if spent + estimate > args.budget:
                print(f"pinned_crossover: {human(nbytes)} skipped ({spent:.0f}s spent, about {estimate:.0f}s more needed, "
                      f"budget {args.budget:.0f}s)", flush=True)
                meta.setdefault("skipped", []).append(nbytes)
                continue
            t0 = time.perf_counter()
            results.append(bench_size(mio, _gpu, cp, nbytes, args.repeats, parse_size(args.read_max), Path(tmp), args.dry_run))
            release_pools(cp)
            last = (nbytes, time.perf_counter() - t0)
            print(f"pinned_crossover: {human(nbytes)} done in {last[1]:.1f}s", flush=True)
            write_results(md_path, render(results, meta), meta, results)
    text = render(results, meta)
    write_results(md_path, text, meta, results)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
