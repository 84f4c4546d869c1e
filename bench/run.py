"""meshio++ against meshio: read and write speed, bandwidth and peak memory (make bench).

Inputs are made by the real gmsh from the committed .geo files in bench/geo/ (a bracket of
~50k nodes / ~280k cells, a cube of ~1M tetrahedra, and the bracket's skin alone meshed
finely with ~1.3M triangles for the surface formats), then converted by meshio (the peer) into the other
formats, so both libraries read the same files. In one process,
after a warm-up, each case is timed interleaved (meshio, meshio++, meshio, meshio++, ...)
and reported as medians, the ratio meshio time / meshio++ time, and MB/s of file bytes.
Peak resident memory of each read is measured in a fresh process per library.

Usage: .venv/bin/python bench/run.py [--quick] [--only bracket|cube|skin] [--reps N] [--case LABEL]
Writes bench/results/<date>-<machine>.md and .png, and prints the table.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
WORK = HERE / "work"
RESULTS = HERE / "results"


# --- inputs ---------------------------------------------------------------------------
def gmsh_mesh(name: str, fmt: str, binary: bool) -> Path:
    """The .geo meshed by the gmsh program once, then saved in each requested MSH flavour."""
    out = WORK / f"{name}-{fmt}{'-bin' if binary else ''}.msh"
    if not out.exists():
        base = WORK / f"{name}-base.msh"
        if not base.exists():
            WORK.mkdir(parents=True, exist_ok=True)
            subprocess.run(["gmsh", "-2" if name in SURFACES else "-3", "-nt", str(os.cpu_count() or 2), str(HERE / "geo" / f"{name}.geo"),
                            "-o", str(base), "-format", "msh41"], check=True, stdout=subprocess.DEVNULL)
        args = ["gmsh", str(base), "-save", "-o", str(out), "-format", fmt] + (["-bin"] if binary else [])
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    return out


def peer_file(name: str, suffix: str, writer) -> Path:
    """A file written by meshio (the peer) from the gmsh mesh, for the formats gmsh lacks."""
    out = WORK / f"{name}-{suffix}"
    if not out.exists():
        import meshio

        writer(meshio, meshio.read(gmsh_mesh(name, "msh41", True)), out)
    return out


def appended_raw_vtu(name: str) -> Path:
    """Appended raw VTU, as VTK's own writer makes it (meshio cannot write this encoding)."""
    out = WORK / f"{name}-appended-raw.vtu"
    if not out.exists():
        from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridReader, vtkXMLUnstructuredGridWriter

        src = peer_file(name, "binary.vtu", lambda m, mesh, p: m.vtu.write(p, mesh, binary=True, compression=None))
        r = vtkXMLUnstructuredGridReader()
        r.SetFileName(str(src))
        r.Update()
        w = vtkXMLUnstructuredGridWriter()
        w.SetInputData(r.GetOutput())
        w.SetDataModeToAppended()
        w.EncodeAppendedDataOff()
        w.SetHeaderTypeToUInt64()
        w.SetCompressorTypeToNone()
        w.SetFileName(str(out))
        w.Write()
    return out


SURFACES = ("skin",)  # meshed with triangles only (gmsh -2), for the surface formats


def triangles_only(meshio, mesh):
    """The mesh's triangle blocks as one block, no cell data (what STL, OFF, PLY and OBJ hold
    and meshio's writers keep)."""
    import numpy

    tri = numpy.concatenate([b.data for b in mesh.cells if b.type == "triangle"])
    return meshio.Mesh(mesh.points, [("triangle", tri)])


def read_cases(name: str, only: str = ""):
    """(label, path, file_format, meshio++ read kwargs) of every read case both libraries
    support (those whose label contains `only`); an input file is made only for a case that
    runs."""
    if name in SURFACES:
        def surface(suffix, write):
            return lambda: peer_file(name, suffix, lambda m, mesh, p: write(m, triangles_only(m, mesh), p))

        cases = [
            ("stl binary", surface("binary.stl", lambda m, mesh, p: m.stl.write(p, mesh, binary=True)), "stl"),
            # meshio always merges; this row is for read / copy (every corner its own point)
            ("stl binary, ours merge=False", surface("binary.stl", lambda m, mesh, p: m.stl.write(p, mesh, binary=True)),
             "stl", {"merge": False}),
            ("stl ascii", surface("ascii.stl", lambda m, mesh, p: m.stl.write(p, mesh, binary=False)), "stl"),
            ("off", surface("mesh.off", lambda m, mesh, p: m.off.write(p, mesh)), "off"),
            ("ply binary", surface("binary.ply", lambda m, mesh, p: m.ply.write(p, mesh, binary=True)), "ply"),
            ("ply ascii", surface("ascii.ply", lambda m, mesh, p: m.ply.write(p, mesh, binary=False)), "ply"),
            ("obj", surface("mesh.obj", lambda m, mesh, p: m.obj.write(p, mesh)), "obj"),
            ("wkt", surface("mesh.wkt", lambda m, mesh, p: m.wkt.write(p, mesh)), "wkt"),
        ]
    else:
        cases = [
            ("gmsh 4.1 ascii", lambda: gmsh_mesh(name, "msh41", False), "gmsh"),
            ("gmsh 4.1 binary", lambda: gmsh_mesh(name, "msh41", True), "gmsh"),
            ("gmsh 2.2 ascii", lambda: gmsh_mesh(name, "msh22", False), "gmsh"),
            ("gmsh 2.2 binary", lambda: gmsh_mesh(name, "msh22", True), "gmsh"),
            ("vtu ascii", lambda: peer_file(name, "ascii.vtu", lambda m, mesh, p: m.vtu.write(p, mesh, binary=False)), "vtu"),
            ("vtu binary", lambda: peer_file(name, "binary.vtu", lambda m, mesh, p: m.vtu.write(p, mesh, binary=True, compression=None)), "vtu"),
            ("vtu binary zlib", lambda: peer_file(name, "zlib.vtu", lambda m, mesh, p: m.vtu.write(p, mesh, binary=True, compression="zlib")), "vtu"),
            ("vtu appended raw", lambda: appended_raw_vtu(name), "vtu"),
            ("vtk ascii", lambda: peer_file(name, "ascii.vtk", lambda m, mesh, p: m.vtk.write(p, mesh, binary=False)), "vtk"),
            ("vtk binary", lambda: peer_file(name, "binary.vtk", lambda m, mesh, p: m.vtk.write(p, mesh, binary=True)), "vtk"),
            ("medit ascii", lambda: peer_file(name, "ascii.mesh", lambda m, mesh, p: m.write(p, without_point_data(m, mesh), "medit")), "medit"),
            ("medit binary", lambda: peer_file(name, "binary.meshb", lambda m, mesh, p: m.write(p, without_point_data(m, mesh), "medit")), "medit"),
            ("su2", lambda: gmsh_export(name, "su2"), "su2"),
            ("abaqus", lambda: peer_file(name, "abaqus.inp", lambda m, mesh, p: m.abaqus.write(p, abaqus_subset(m, mesh))), "abaqus"),
            # meshio's defaults: GRID* large-field points, small-field elements
            ("nastran", lambda: peer_file(name, "meshio.bdf", lambda m, mesh, p: m.nastran.write(p, mesh)), "nastran"),
            ("exodus netcdf4", lambda: peer_file(name, "meshio.e", lambda m, mesh, p: m.exodus.write(p, mesh)), "exodus"),
            ("tecplot (tetrahedra only)", lambda: peer_file(name, "meshio.dat", lambda m, mesh, p: m.tecplot.write(p, volume_only(m, mesh))), "tecplot"),
            ("avsucd", lambda: peer_file(name, "meshio.avs", lambda m, mesh, p: m.avsucd.write(p, mesh)), "avsucd"),
        ]
    return [(c[0], c[1](), c[2], c[3] if len(c) > 3 else {}) for c in cases if only in c[0]]


def gmsh_export(name: str, fmt: str) -> Path:
    """The gmsh mesh saved by the gmsh program in another of its formats (named by `fmt`)."""
    out = WORK / f"{name}.{fmt}"
    if not out.exists():
        subprocess.run(["gmsh", str(gmsh_mesh(name, "msh41", True)), "-save", "-o", str(out), "-format", fmt],
                       check=True, stdout=subprocess.DEVNULL)
    return out


def volume_only(lib, mesh):
    """The tetrahedra alone: meshio 5's SU2 writer crashes on any boundary cell."""
    return lib.Mesh(mesh.points, [b for b in mesh.cells if b.type == "tetra"])


def without_point_data(lib, mesh):
    """The mesh without point data: meshio's Medit writer takes the first integer point data
    as the vertex references and crashes on gmsh:dim_tags (two columns)."""
    return lib.Mesh(mesh.points, mesh.cells, cell_data=mesh.cell_data)


def abaqus_subset(lib, mesh):
    """The cell blocks meshio's Abaqus writer can name (it has no vertex element)."""
    return lib.Mesh(mesh.points, [(c.type, c.data) for c in mesh.cells if c.type in ("line", "triangle", "tetra")])


# Peer-side fixes a format needs before both libraries write the same mesh.
WRITE_MESH = {"medit": without_point_data, "su2": volume_only, "abaqus": abaqus_subset, "tecplot": volume_only}


# (label, suffix, format, meshio kwargs, meshio++ kwargs[, mesh subset]); meshio names its 2.2
# writer "gmsh22"
WRITE_CASES = [
    ("gmsh 4.1 ascii", ".msh", "gmsh", {"binary": False}, {"binary": False}),
    ("gmsh 4.1 binary", ".msh", "gmsh", {"binary": True}, {"binary": True}),
    ("gmsh 2.2 ascii", ".msh", "gmsh22", {"binary": False}, {"fmt_version": "2.2", "binary": False}),
    ("vtu ascii", ".vtu", "vtu", {"binary": False}, {"binary": False}),
    ("vtu binary", ".vtu", "vtu", {"binary": True, "compression": None}, {"binary": True, "compression": None}),
    ("vtu binary zlib", ".vtu", "vtu", {"binary": True, "compression": "zlib"}, {"binary": True, "compression": "zlib"}),
    ("vtk ascii", ".vtk", "vtk", {"binary": False}, {"binary": False}),
    ("vtk binary", ".vtk", "vtk", {"binary": True}, {"binary": True}),
    ("medit ascii", ".mesh", "medit", {}, {}),
    ("medit binary", ".meshb", "medit", {}, {}),
    ("su2 (tetrahedra only)", ".su2", "su2", {}, {}),
    ("abaqus", ".inp", "abaqus", {}, {}),
    ("nastran", ".bdf", "nastran", {}, {}),
    ("exodus netcdf4", ".e", "exodus", {}, {}),
    ("avsucd", ".avs", "avsucd", {}, {}),
    ("tecplot (tetrahedra only)", ".dat", "tecplot", {}, {}),
]


SURFACE_WRITE_CASES = [
    ("stl ascii", ".stl", "stl", {"binary": False}, {"binary": False}),
    ("stl binary", ".stl", "stl", {"binary": True}, {"binary": True}),
    ("off", ".off", "off", {}, {}),
    ("ply binary", ".ply", "ply", {"binary": True}, {"binary": True}),
    ("ply ascii", ".ply", "ply", {"binary": False}, {"binary": False}),
    ("obj", ".obj", "obj", {}, {}),
    ("wkt", ".wkt", "wkt", {}, {}),
]


# --- timing ---------------------------------------------------------------------------
def interleaved(fa, fb, reps: int, budget: float = 40.0):
    """Median seconds of fa and fb, run alternately after one warm-up each. Slow cases get
    fewer repetitions (never under 3) so that one case stays near `budget` seconds."""
    t = time.perf_counter(); fa(); fb(); warm = time.perf_counter() - t
    reps = max(3, min(reps, int(budget / max(warm, 1e-9))))
    ta, tb = [], []
    for _ in range(reps):
        t = time.perf_counter(); fa(); ta.append(time.perf_counter() - t)
        t = time.perf_counter(); fb(); tb.append(time.perf_counter() - t)
    return statistics.median(ta), statistics.median(tb)


def copy_time(path: Path, reps: int) -> float:
    """Median seconds to copy the file's bytes in memory into a fresh buffer (the floor for a
    binary read, which must also produce fresh arrays)."""
    data = np.frombuffer(path.read_bytes(), dtype=np.uint8)
    times = []
    for _ in range(reps + 1):
        t = time.perf_counter(); data.copy(); times.append(time.perf_counter() - t)
    return statistics.median(times[1:])


PEAK_SCRIPT = r"""
import sys, numpy as np
lib, path, fmt = sys.argv[1:4]
if lib == "meshio":
    import meshio as m
else:
    import meshioplusplus as m
def status(key):
    for line in open("/proc/self/status"):
        if line.startswith(key + ":"):
            return int(line.split()[1]) * 1024
open("/proc/self/clear_refs", "w").write("5")  # reset the peak RSS (VmHWM) to the current RSS
rss0, anon0 = status("VmRSS"), status("RssAnon")
import threading
peak_anon = [anon0]
done = threading.Event()
def poll():
    while not done.is_set():
        peak_anon[0] = max(peak_anon[0], status("RssAnon")); done.wait(0.0005)
t = threading.Thread(target=poll); t.start()
mesh = m.read(path, fmt)
done.set(); t.join()
peak = status("VmHWM")
arrays = [mesh.points] + [np.asarray(c.data) for c in mesh.cells]
arrays += list(mesh.point_data.values()) + [a for v in mesh.cell_data.values() for a in v]
nbytes = sum(a.nbytes for a in arrays)
print(peak - rss0, peak_anon[0] - anon0, nbytes)
"""


def peak_memory(lib: str, path: Path, fmt: str):
    r = subprocess.run([sys.executable, "-c", PEAK_SCRIPT, lib, str(path), fmt], capture_output=True, text=True, check=True)
    rss, anon, nbytes = map(int, r.stdout.split())
    return rss, anon, nbytes


# --- the run --------------------------------------------------------------------------
def main():
    import meshio

    import meshioplusplus as mio

    ap = argparse.ArgumentParser()
    ap.add_argument("--only", choices=["bracket", "cube", "skin"])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="bracket only, 3 repetitions")
    ap.add_argument("--case", default="", help="only the read and write cases whose label contains this (\"medit\")")
    args = ap.parse_args()
    meshes = ["bracket"] if args.quick else ([args.only] if args.only else ["bracket", "cube", "skin"])
    reps = 3 if args.quick else args.reps

    rows = []
    for name in meshes:
        cases = read_cases(name, args.case)
        src = gmsh_mesh(name, "msh41", True)
        peer_mesh, our_mesh = meshio.read(src), mio.read(src)
        if name in SURFACES:
            peer_mesh = triangles_only(meshio, peer_mesh)
            our_mesh = mio.Mesh(peer_mesh.points, [("triangle", peer_mesh.cells[0].data)])
        print(f"\n{name}: {len(our_mesh.points)} points, {sum(len(b) for b in our_mesh.cells)} cells", flush=True)
        for label, path, fmt, kw in cases:
            mb = path.stat().st_size / 1e6
            t_peer, t_ours = interleaved(lambda: meshio.read(path, fmt), lambda: mio.read(path, fmt, **kw), reps)
            rss_p, anon_p, bytes_p = peak_memory("meshio", path, fmt)
            rss_o, anon_o, bytes_o = peak_memory("meshioplusplus", path, fmt)
            row = dict(mesh=name, op="read", case=label, mb=mb, meshio=t_peer, ours=t_ours, ratio=t_peer / t_ours,
                       copy=copy_time(path, reps), rss_ours=rss_o / bytes_o, anon_ours=anon_o / bytes_o,
                       rss_meshio=rss_p / bytes_p, anon_meshio=anon_p / bytes_p)
            rows.append(row)
            print(f"  read  {label:18s} {mb:7.1f} MB  meshio {t_peer:7.3f}s  meshio++ {t_ours:7.4f}s  x{row['ratio']:6.1f}"
                  f"  copy {row['copy']:.4f}s  peak/arrays {row['rss_ours']:.2f} (anon {row['anon_ours']:.2f})", flush=True)
        write_cases = SURFACE_WRITE_CASES if name in SURFACES else WRITE_CASES
        for label, suffix, fmt, peer_kw, our_kw in [c for c in write_cases if args.case in c[0]]:
            p_peer, p_ours = WORK / f"out-meshio{suffix}", WORK / f"out-ours{suffix}"
            ours_fmt = "gmsh" if fmt == "gmsh22" else fmt
            fix = WRITE_MESH.get(fmt, lambda lib, m: m)
            pm, om = fix(meshio, peer_mesh), fix(mio, our_mesh)
            t_peer, t_ours = interleaved(lambda: meshio.write(p_peer, pm, fmt, **peer_kw),
                                         lambda: mio.write(p_ours, om, ours_fmt, **our_kw), reps)
            mb = p_ours.stat().st_size / 1e6
            row = dict(mesh=name, op="write", case=label, mb=mb, meshio=t_peer, ours=t_ours, ratio=t_peer / t_ours)
            rows.append(row)
            print(f"  write {label:18s} {mb:7.1f} MB  meshio {t_peer:7.3f}s  meshio++ {t_ours:7.4f}s  x{row['ratio']:6.1f}", flush=True)

    stamp = datetime.date.today().isoformat()
    machine = f"{socket.gethostname().split('.')[0]}-{os.cpu_count()}cpu"
    RESULTS.mkdir(parents=True, exist_ok=True)
    md = RESULTS / f"{stamp}-{machine}.md"
    md.write_text(markdown(rows, meshio.__version__, reps))
    (RESULTS / f"{stamp}-{machine}.json").write_text(json.dumps(rows, indent=1))
    plot(rows, RESULTS / f"{stamp}-{machine}.png")
    print(f"\nwrote {md.relative_to(HERE.parent)} and the .png beside it")


def markdown(rows, meshio_version, reps) -> str:
    cpu = platform.processor() or platform.machine()
    lines = [
        f"# meshio++ vs meshio {meshio_version}: {datetime.date.today().isoformat()}, {os.cpu_count()} cores ({cpu})",
        "",
        f"Command: `make bench` (bench/run.py, {reps} interleaved repetitions after a warm-up, medians).",
        "ratio = meshio time / meshio++ time. copy = copying the file's bytes in memory into a fresh buffer.",
        "peak/arrays = peak resident memory growth of a read in a fresh process / bytes of the arrays",
        "returned (RSS includes the file's mapped page-cache pages; anon counts only anonymous memory).",
        "",
        "| mesh | op | case | file MB | meshio s | meshio++ s | ratio | MB/s | read / copy | peak/arrays RSS (anon) | meshio peak/arrays |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        extra = (f"{r['ours'] / r['copy']:.1f}x | {r['rss_ours']:.2f} ({r['anon_ours']:.2f}) | {r['rss_meshio']:.2f}"
                 if r["op"] == "read" else " | | ")
        lines.append(f"| {r['mesh']} | {r['op']} | {r['case']} | {r['mb']:.1f} | {r['meshio']:.3f} | {r['ours']:.4f} | "
                     f"{r['ratio']:.1f} | {r['mb'] / r['ours']:.0f} | {extra} |")
    return "\n".join(lines) + "\n"


def plot(rows, path: Path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    meshes = sorted({r["mesh"] for r in rows})
    fig, axes = plt.subplots(1, len(meshes), figsize=(7 * len(meshes), 6), squeeze=False)
    for ax, name in zip(axes[0], meshes):
        sel = [r for r in rows if r["mesh"] == name]
        labels = [f"{r['op']} {r['case']}" for r in sel]
        ax.barh(labels, [r["ratio"] for r in sel], color=["tab:blue" if r["op"] == "read" else "tab:orange" for r in sel])
        ax.axvline(1.0, color="k", lw=0.8)
        ax.set_xscale("log")
        ax.set_xlabel("speed-up over meshio (meshio time / meshio++ time)")
        ax.set_title(name)
        ax.invert_yaxis()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    main()
