"""VTU / legacy VTK: meshio++ vs meshio, same process, interleaved, medians, ratios.

    .venv/bin/python bench/bench_vtk.py [--reps 5] [--mesh bench/geo/xxx.msh] [--threads 2]

The mesh: a gmsh-made tetrahedral box of ~50k nodes / ~280k cells (gmsh's Python API,
generated once into bench/work/), or any file meshio reads (--mesh). Prints one line per
case: meshio's median, meshio++'s median, and the speed-up. "appended raw read" is compared
with copying the file's bytes in memory (the floor for a reader).
"""
from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

import numpy as np

import meshio
import meshioplusplus as mio

WORK = Path(__file__).parent / "work"


def gmsh_box(path: Path, target_nodes=50_000):
    import gmsh

    gmsh.initialize()
    gmsh.option.setNumber("General.Terminal", 0)
    gmsh.model.add("box")
    gmsh.model.occ.addBox(0, 0, 0, 1, 1, 1)
    gmsh.model.occ.synchronize()
    h = (1.0 / target_nodes) ** (1 / 3) * 0.93
    gmsh.option.setNumber("Mesh.MeshSizeMin", h)
    gmsh.option.setNumber("Mesh.MeshSizeMax", h)
    gmsh.model.mesh.generate(3)
    gmsh.option.setNumber("Mesh.MshFileVersion", 4.1)
    gmsh.write(str(path))
    gmsh.finalize()


def load_mesh(arg):
    if arg:
        m = meshio.read(arg)
    else:
        WORK.mkdir(parents=True, exist_ok=True)
        path = WORK / "box.msh"
        if not path.exists():
            gmsh_box(path)
        m = meshio.read(path)
    cells = [(c.type, c.data.astype(np.int64)) for c in m.cells if c.type in ("tetra", "triangle")]
    n = sum(len(d) for _, d in cells)
    pd = {"x": m.points[:, 0].copy(), "v": m.points.copy()}
    cd = {"id": [np.arange(len(d), dtype=np.int32) for _, d in cells]}
    return meshio.Mesh(m.points, cells, point_data=pd, cell_data=cd), mio.Mesh(m.points, cells, point_data=pd, cell_data=cd), n


def median_time(fn, reps):
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t)
    return statistics.median(ts)


def interleaved(a, b, reps):
    ta, tb = [], []
    for _ in range(reps):
        ta.append(median_time(a, 1))
        tb.append(median_time(b, 1))
    return statistics.median(ta), statistics.median(tb)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--mesh", default="")
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    mm, pm, ncells = load_mesh(args.mesh)
    print(f"mesh: {len(mm.points)} points, {ncells} cells; threads={args.threads}; reps={args.reps} (medians)")
    WORK.mkdir(parents=True, exist_ok=True)
    p_m, p_p = WORK / "m.vtu", WORK / "p.vtu"
    rows = []

    def case(name, f_meshio, f_ours):
        a, b = interleaved(f_meshio, f_ours, args.reps)
        rows.append((name, a, b))
        print(f"{name:34s} meshio {a*1e3:9.1f} ms   meshio++ {b*1e3:8.1f} ms   x{a/b:6.1f}", flush=True)

    th = dict(threads=args.threads)
    case("vtu write binary+zlib", lambda: meshio.write(p_m, mm, "vtu"), lambda: mio.write(p_p, pm, "vtu", **th))
    case("vtu read binary+zlib", lambda: meshio.read(p_m), lambda: mio.read(p_p, threads=args.threads))
    case("vtu write binary (no zlib)", lambda: meshio.write(p_m, mm, "vtu", compression=None),
         lambda: mio.write(p_p, pm, "vtu", compression=None))
    case("vtu read binary (no zlib)", lambda: meshio.read(p_m), lambda: mio.read(p_p))
    case("vtu write ascii", lambda: meshio.write(p_m, mm, "vtu", binary=False), lambda: mio.write(p_p, pm, "vtu", binary=False))
    case("vtu read ascii", lambda: meshio.read(p_m), lambda: mio.read(p_p))
    p_v_m, p_v_p = WORK / "m.vtk", WORK / "p.vtk"
    case("vtk write binary 5.1", lambda: meshio.write(p_v_m, mm, "vtk"), lambda: mio.write(p_v_p, pm, "vtk"))
    case("vtk read binary 5.1", lambda: meshio.read(p_v_m), lambda: mio.read(p_v_p))
    case("vtk write ascii 5.1", lambda: meshio.write(p_v_m, mm, "vtk", binary=False), lambda: mio.write(p_v_p, pm, "vtk", binary=False))
    case("vtk read ascii 5.1", lambda: meshio.read(p_v_m), lambda: mio.read(p_v_p))
    # Appended raw: meshio cannot write it; compare with copying the file's bytes in memory.
    p_a = WORK / "appended.vtu"
    mio.write(p_a, pm, "vtu", data_mode="appended", compression=None)
    data = p_a.read_bytes()
    a, b = interleaved(lambda: bytearray(data), lambda: mio.read(p_a), args.reps)
    print(f"{'vtu read appended raw':34s} memcpy {a*1e3:9.1f} ms   meshio++ {b*1e3:8.1f} ms   {b/a:5.2f}x the copy "
          f"({len(data)/1e6:.1f} MB)")
    for t in (1, 2):
        w = median_time(lambda: mio.write(p_p, pm, "vtu", threads=t), args.reps)
        print(f"meshio++ vtu write binary+zlib, threads={t}: {w*1e3:.1f} ms")


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    main()
