#!/usr/bin/env python3
"""GPU hand-off speed: mio.to_cupy / mio.from_cupy against what users write today and
against the bus. Run on a machine with a CUDA device (tools/gpu_check.sh does).

For tetra meshes of 10^4 .. 10^7 cells (points, connectivity, one point field, one cell
field, one cell region), medians over interleaved repeats, every case synchronised before
the clock stops:

host -> device, mesh in ordinary memory
  user today      cupy.asarray on each array of the mesh (the arrays a meshio read returns
                  are the same numpy arrays; meshio itself is not needed to time this). In
                  CuPy 14 this stages each array through a pinned buffer from CuPy's pool.
  to_cupy         mio.to_cupy(mesh)
  pageable set()  one ndarray.set of a single pageable buffer of the same total size: the
                  true pageable baseline (no pinned buffer of CuPy's involved)
  bus asarray     one cupy.asarray of that buffer (CuPy's pinned staging)
host -> device, through pinned memory
  user today      per array: alloc_pinned_memory, copy in, ndarray.set
  to_cupy         mio.to_cupy(mesh, pinned=True)  (and with a caller's stream + synchronize)
  bus             one ndarray.set from an already pinned buffer of the same total size
device -> host
  user today      .get() on each array
  from_cupy       mio.from_cupy(gpu)
  bus             one .get() of a single device buffer; and into an already pinned buffer

The bar: the default paths (to_cupy, from_cupy) within 5% of the per-array user code on the
same arrays, i.e. no extra copy. Small meshes are dominated by per-call overhead (tens of
microseconds); the verdict is given per row and the table says which rows carry it.

Usage: gpu_bench.py [OUT_PATH_OR_DIR] [--sizes 1e4,1e5,1e6,1e7] [--repeats N] [--budget S]
       gpu_bench.py --dry-run   (host-memory stand-in for CuPy: checks this script's own
                                 control flow on a machine with no GPU; not a measurement)
"""
from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from pathlib import Path

import numpy as np

from gpu_common import gbps, load_cupy, release_pools, run_meta, timed, write_results



def make_mesh(mio, n_cells: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    n_points = max(n_cells // 5, 8)  # a tetra mesh has about 5-6 cells per point
    return mio.Mesh(
        rng.random((n_points, 3)),
        [("tetra", rng.integers(0, n_points, (n_cells, 4), dtype=np.int64))],
        point_data={"T": rng.random(n_points)},
        cell_data={"rho": [rng.random(n_cells)]},
        regions=[mio.Region("core", "cell", np.arange(0, n_cells, 10, dtype=np.int64), dim=3, tag=1)],
    )


def mesh_arrays(mesh):
    """The arrays a user would move by hand (block_bases is derived by to_cupy, 16 bytes)."""
    return [mesh.points, mesh.cells[0].data, mesh.point_data["T"], mesh.cell_data["rho"][0], mesh.regions[0].entries]



def bench_size(mio, cp, n_cells: int, repeats: int) -> dict:
    mesh = make_mesh(mio, n_cells)
    arrays = mesh_arrays(mesh)
    total = sum(a.nbytes for a in arrays)
    flat = np.ones(total, dtype=np.uint8)
    null = cp.cuda.get_current_stream()
    sync = null.synchronize
    stream = cp.cuda.Stream(non_blocking=True)

    pinned_flat_mem = cp.cuda.alloc_pinned_memory(total)
    pinned_flat = np.frombuffer(pinned_flat_mem, np.uint8, total)
    pinned_flat[...] = 1
    d_flat = cp.empty(total, dtype=cp.uint8)

    def user_pinned():
        out, keep = [], []
        for a in arrays:
            mem = cp.cuda.alloc_pinned_memory(a.nbytes)
            staged = np.frombuffer(mem, a.dtype, a.size).reshape(a.shape)
            staged[...] = a
            d = cp.empty(a.shape, a.dtype)
            d.set(staged, stream=null)
            out.append(d)
            keep.append(staged)
        null.synchronize()
        return out

    def to_cupy_stream():
        gpu = mio.to_cupy(mesh, pinned=True, stream=stream)
        gpu.synchronize()
        return gpu

    def bus_pinned():
        d_flat.set(pinned_flat, stream=null)
        null.synchronize()

    def pageable_set():
        d_flat.set(flat, stream=null)  # from ordinary memory: the driver stages it
        null.synchronize()

    h2d = timed(
        {
            "user: cupy.asarray per array": lambda: [cp.asarray(a) for a in arrays],
            "mio.to_cupy": lambda: mio.to_cupy(mesh),
            "bus: one pageable set()": pageable_set,
            "bus: one cupy.asarray": lambda: cp.asarray(flat),
            "user: pinned staging per array": user_pinned,
            "mio.to_cupy(pinned=True)": lambda: mio.to_cupy(mesh, pinned=True),
            "mio.to_cupy(pinned=True, stream)": to_cupy_stream,
            "bus: one set() from pinned": bus_pinned,
        },
        sync,
        repeats,
    )

    gpu = mio.to_cupy(mesh)
    device_arrays = [gpu.points, gpu.cells[0][1], gpu.point_data["T"], gpu.cell_data["rho"][0], gpu.regions[0].entries]

    def from_cupy():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # one InteropWarning per array: the noted copies
            return mio.from_cupy(gpu)

    d2h = timed(
        {
            "user: .get() per array": lambda: [d.get() for d in device_arrays],
            "mio.from_cupy": from_cupy,
            "bus: one .get()": lambda: d_flat.get(),
            "bus: one .get() into pinned": lambda: d_flat.get(out=pinned_flat),
        },
        sync,
        repeats,
    )
    return {"cells": n_cells, "points": len(mesh.points), "bytes": total, "h2d": h2d, "d2h": d2h}



def render(results: list, meta: dict) -> str:
    lines = [
        "# GPU hand-off benchmark",
        "",
        f"{meta['when']} on {meta['device']}; Python {meta['python']}, numpy {meta['numpy']}, CuPy {meta['cupy']}. "
        f"Median of {meta['repeats']} interleaved repeats, each synchronised. "
        "Time in ms, (GB/s of the mesh's bytes); ratio = mio path / per-array user code on the same arrays.",
        "",
    ]
    if meta.get("skipped"):
        lines += [f"Not run (time budget spent): {', '.join(f'{n:.0e}' for n in meta['skipped'])} cells.", ""]
    if meta.get("dry_run"):
        lines += ["**DRY RUN with a host-memory stand-in for CuPy: checks the script, measures nothing.**", ""]
    for direction, title, pairs in (
        ("h2d", "Host -> device", [("mio.to_cupy", "user: cupy.asarray per array"),
                                   ("mio.to_cupy(pinned=True)", "user: pinned staging per array"),
                                   ("mio.to_cupy(pinned=True, stream)", "user: pinned staging per array")]),
        ("d2h", "Device -> host", [("mio.from_cupy", "user: .get() per array")]),
    ):
        cases = list(results[0][direction]) if results else []
        lines += [f"## {title}", "", "| cells | MB | " + " | ".join(cases) + " |", "|---|---|" + "---|" * len(cases)]
        for r in results:
            cells = " | ".join(f"{1e3 * r[direction][c]:.3f} ({gbps(r['bytes'], r[direction][c]):.1f})" for c in cases)
            lines.append(f"| {r['cells']:.0e} | {r['bytes'] / 1e6:.1f} | {cells} |")
        lines += ["", "| cells | " + " | ".join(f"{a} / {b}" for a, b in pairs) + " |", "|---|" + "---|" * len(pairs)]
        for r in results:
            ratios = []
            for a, b in pairs:
                q = r[direction][a] / r[direction][b]
                ratios.append(f"{q:.3f} {'ok' if q <= 1.05 else 'OVER 5%'}")
            lines.append(f"| {r['cells']:.0e} | " + " | ".join(ratios) + " |")
        lines.append("")
    lines += [
        "Reading: the default paths must stay within 5% of the per-array user code (no extra copy); "
        "rows under about 10^5 cells are dominated by per-call overhead of tens of microseconds, "
        "not by copies. 'bus' is the ceiling for the same number of bytes in one buffer.",
        "",
    ]
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out", nargs="?", default=os.environ.get("OUT", "."), help="a .md path, or a folder for gpu_bench.md/.json")
    ap.add_argument("--sizes", default="1e4,1e5,1e6,1e7")
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--budget", type=float, default=150.0, help="seconds; larger sizes are skipped once it is spent")
    ap.add_argument("--dry-run", action="store_true", help="host-memory CuPy stand-in (tests/python/fake_cupy.py)")
    args = ap.parse_args(argv)

    out = Path(args.out)
    md_path = out if out.suffix == ".md" else out / "gpu_bench.md"
    md_path.parent.mkdir(parents=True, exist_ok=True)

    loaded = load_cupy("gpu_bench", args.dry_run)
    if loaded is None:
        return 2
    cp, device = loaded

    import meshioplusplus as mio

    meta = run_meta(cp, device, args)
    results = []
    start = time.perf_counter()
    for size in (int(float(s)) for s in args.sizes.split(",")):
        if time.perf_counter() - start > args.budget:
            print(f"gpu_bench: budget of {args.budget:.0f}s spent; skipping {size:.0e} cells and larger", flush=True)
            meta.setdefault("skipped", []).append(size)
            continue
        t0 = time.perf_counter()
        results.append(bench_size(mio, cp, size, args.repeats))
        release_pools(cp)
        print(f"gpu_bench: {size:.0e} cells done in {time.perf_counter() - t0:.1f}s", flush=True)
        write_results(md_path, render(results, meta), meta, results)
    text = render(results, meta)
    write_results(md_path, text, meta, results)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
