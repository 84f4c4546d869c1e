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
            ("neuroglancer", surface("neuroglancer", lambda m, mesh, p: m.neuroglancer.write(p, mesh)), "neuroglancer"),
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
            ("dolfin-xml (tetrahedra only)", lambda: peer_file(name, "dolfin.xml", lambda m, mesh, p: m.write(p, volume_only(m, mesh), "dolfin-xml")),
             "dolfin-xml"),
            ("netgen", lambda: peer_file(name, "meshio.vol", lambda m, mesh, p: m.netgen.write(p, mesh)), "netgen"),
            ("netgen .vol.gz", lambda: peer_file(name, "meshio.vol.gz", lambda m, mesh, p: m.netgen.write(p, mesh)), "netgen"),
            ("mdpa", lambda: peer_file(name, "meshio.mdpa", lambda m, mesh, p: m.mdpa.write(p, mesh)), "mdpa"),
            ("permas", lambda: peer_file(name, "meshio.dato", lambda m, mesh, p: m.permas.write(p, mesh)), "permas"),
            ("flac3d ascii", lambda: peer_file(name, "ascii.f3grid", lambda m, mesh, p: m.flac3d.write(p, volume_only(m, mesh))), "flac3d"),
            ("flac3d binary", lambda: peer_file(name, "binary.f3grid", lambda m, mesh, p: m.flac3d.write(p, volume_only(m, mesh), binary=True)), "flac3d"),
            ("ugrid b8", lambda: peer_file(name, "meshio.b8.ugrid", lambda m, mesh, p: m.write(p, ugrid_cells(m, mesh), "ugrid")), "ugrid"),
            ("ugrid lb8", lambda: peer_file(name, "meshio.lb8.ugrid", lambda m, mesh, p: m.write(p, ugrid_cells(m, mesh), "ugrid")), "ugrid"),
            ("ugrid r8", lambda: peer_file(name, "meshio.r8.ugrid", lambda m, mesh, p: m.write(p, ugrid_cells(m, mesh), "ugrid")), "ugrid"),
            # meshio's writer: the tetrahedra alone (.node + .ele beside it)
            ("tetgen", lambda: peer_file(name, "meshio.node", lambda m, mesh, p: m.write(p, volume_only(m, mesh), "tetgen")), "tetgen"),
            # meshio's layout (cells list their nodes), tetrahedra only (its writer has no line / vertex)
            ("ansys binary", lambda: peer_file(name, "meshio-bin.msh", lambda m, mesh, p: m.ansys.write(p, volume_only(m, mesh), binary=True)), "ansys"),
            ("ansys ascii", lambda: peer_file(name, "meshio-ascii.msh", lambda m, mesh, p: m.ansys.write(p, volume_only(m, mesh), binary=False)), "ansys"),
            # Fluent's layout (faces with their cells; written by meshio++): ours rebuilds the
            # tetrahedra, meshio returns the faces
            ("ansys ascii faces", lambda: fluent_faces(name), "ansys"),
            ("xdmf hdf", lambda: peer_file(name, "meshio.xdmf", lambda m, mesh, p: m.xdmf.write(p, mesh)), "xdmf"),
            ("xdmf xml", lambda: peer_file(name, "meshio-xml.xdmf", lambda m, mesh, p: m.xdmf.write(p, mesh, data_format="XML")), "xdmf"),
            ("tecplot (tetrahedra only)", lambda: peer_file(name, "meshio.dat", lambda m, mesh, p: m.tecplot.write(p, volume_only(m, mesh))), "tecplot"),
            ("avsucd", lambda: peer_file(name, "meshio.avs", lambda m, mesh, p: m.avsucd.write(p, mesh)), "avsucd"),
        ]
    return [(c[0], c[1](), c[2], c[3] if len(c) > 3 else {}) for c in cases if only in c[0]]


def fluent_faces(name: str) -> Path:
    """The tetrahedra in Fluent's own layout, ASCII (meshio reads that as faces); meshio
    cannot write it, so meshio++ does (faces=True)."""
    out = WORK / f"{name}-fluent-faces.msh"
    if not out.exists():
        import meshio

        import meshioplusplus as mio

        mesh = volume_only(meshio, meshio.read(gmsh_mesh(name, "msh41", True)))
        mio.write(out, mio.Mesh(mesh.points, [(c.type, c.data) for c in mesh.cells]), "ansys", faces=True, binary=False)
    return out
def pvtu_pieces(name: str, n: int):
    """The gmsh mesh written by meshio++ as one .vtu and as an n-piece .pvtu (every block's
    rows cut into n ranges, each piece with only its points): (one .vtu, .pvtu)."""
    import numpy as np

    import meshioplusplus as mio

    one, coll = WORK / f"{name}-ours-one.vtu", WORK / f"{name}-{n}pieces.pvtu"
    if not coll.exists():
        mesh = mio.read(gmsh_mesh(name, "msh41", True))
        mio.write(one, mesh)
        pieces = []
        for k in range(n):
            rows = [np.asarray(b.data)[len(b) * k // n : len(b) * (k + 1) // n] for b in mesh.cells]
            used = np.unique(np.concatenate([r.ravel() for r in rows]))
            cells = [(b.type, np.searchsorted(used, r)) for b, r in zip(mesh.cells, rows)]
            cell_data = {key: [np.asarray(a)[len(b) * k // n : len(b) * (k + 1) // n] for a, b in zip(v, mesh.cells)]
                         for key, v in mesh.cell_data.items()}
            pieces.append(mio.Mesh(mesh.points[used], cells, point_data={key: v[used] for key, v in mesh.point_data.items()},
                                   cell_data=cell_data))
        mio.write(coll, None, pieces=pieces)
    return one, coll


def collection_rows(name: str, reps: int):
    """PVTU overhead: meshio++ reading a 4-piece .pvtu vs the same mesh as one .vtu (the
    meshio column is meshio reading that one .vtu: meshio has no .pvtu)."""
    import meshio

    import meshioplusplus as mio

    one, coll = pvtu_pieces(name, 4)
    t_one, t_coll = interleaved(lambda: mio.read(one), lambda: mio.read(coll), reps)
    t_peer, _ = interleaved(lambda: meshio.read(one), lambda: None, reps)
    mb = one.stat().st_size / 1e6
    print(f"  read  pvtu 4 pieces      {mb:7.1f} MB  meshio++ one .vtu {t_one:7.4f}s  4-piece .pvtu {t_coll:7.4f}s"
          f"  overhead {100 * (t_coll / t_one - 1):+.0f}%  (meshio one .vtu {t_peer:.3f}s)", flush=True)
    return dict(mesh=name, op="collection", case="pvtu 4 pieces (meshio: one .vtu)", mb=mb, meshio=t_peer, ours=t_coll,
                ratio=t_peer / t_coll, ours_one_vtu=t_one)


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


def ugrid_cells(lib, mesh):
    """The cells UGRID holds, one block per type, without data: meshio's UGRID writer fails
    on any cell data and on a second block of a type."""
    import numpy

    types = [t for t in ("triangle", "quad", "tetra", "pyramid", "wedge", "hexahedron") if any(b.type == t for b in mesh.cells)]
    return lib.Mesh(mesh.points, [(t, numpy.concatenate([numpy.asarray(b.data) for b in mesh.cells if b.type == t])) for t in types])


def abaqus_subset(lib, mesh):
    """The cell blocks meshio's Abaqus writer can name (it has no vertex element)."""
    return lib.Mesh(mesh.points, [(c.type, c.data) for c in mesh.cells if c.type in ("line", "triangle", "tetra")])


# Peer-side fixes a format needs before both libraries write the same mesh.
WRITE_MESH = {"medit": without_point_data, "su2": volume_only, "abaqus": abaqus_subset, "dolfin-xml": volume_only}
WRITE_MESH["flac3d"] = volume_only  # meshio's FLAC3D writer fails on any face, line or vertex
WRITE_MESH["svg"] = lambda lib, m: lib.Mesh(m.points[:, :2], [(c.type, c.data) for c in m.cells])  # SVG draws flat meshes: x, y only


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
    ("dolfin-xml (tetrahedra only)", ".xml", "dolfin-xml", {}, {}),
    ("netgen", ".vol", "netgen", {}, {}),
    ("netgen .vol.gz", ".vol.gz", "netgen", {}, {}),
    ("mdpa", ".mdpa", "mdpa", {}, {}),
    ("permas", ".dato", "permas", {}, {}),
    ("flac3d ascii (tetrahedra only)", ".f3grid", "flac3d", {"binary": False}, {"binary": False}),
    ("flac3d binary (tetrahedra only)", ".f3grid", "flac3d", {"binary": True}, {"binary": True}),
    ("tetgen (tetrahedra only)", ".node", "tetgen", {}, {}),
    ("ugrid b8", ".b8.ugrid", "ugrid", {}, {}),
    ("ugrid lb8", ".lb8.ugrid", "ugrid", {}, {}),
    ("ansys binary (tetrahedra only)", ".msh", "ansys", {"binary": True}, {"binary": True}),
    ("ansys ascii (tetrahedra only)", ".msh", "ansys", {"binary": False}, {"binary": False}),
    ("xdmf hdf", ".xdmf", "xdmf", {}, {}),
    ("xdmf xml", ".xdmf", "xdmf", {"data_format": "XML"}, {"data_format": "XML"}),
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
    ("neuroglancer", "", "neuroglancer", {}, {}),  # no extension, as meshio
    ("wkt", ".wkt", "wkt", {}, {}),
    ("svg (x, y only)", ".svg", "svg", {}, {}),
]


# --- timing ---------------------------------------------------------------------------
XDMF_SERIES_LABEL = "xdmf time series (100 steps)"


def xdmf_time_series_rows(name, mesh, reps):
    """A 100-step series (a float64 point field and a float64 cell field per step) written
    and read with meshio's TimeSeriesWriter/Reader and ours (HDF5 heavy data), and the same
    datasets read with h5py alone (the floor of an HDF5 read)."""
    import h5py
    import meshio

    import meshioplusplus as mio

    rng = np.random.default_rng(0)
    cells = [(b.type, b.data) for b in mesh.cells]
    steps = [(0.01 * k, {"u": rng.random(len(mesh.points))}, {"c": [rng.random(len(b.data)) for b in mesh.cells]})
             for k in range(100)]
    folder = WORK / "series"
    folder.mkdir(parents=True, exist_ok=True)
    cwd = os.getcwd()
    os.chdir(folder)  # meshio writes its .h5 in the working directory
    try:
        def write(lib, path):
            with lib.xdmf.TimeSeriesWriter(path) as w:
                w.write_points_cells(mesh.points, cells)
                for t, pd, cd in steps:
                    w.write_data(t, point_data=pd, cell_data=cd)

        def read(lib, path):
            r = lib.xdmf.TimeSeriesReader(path)
            r.read_points_cells()
            for k in range(r.num_steps):
                r.read_data(k)

        def h5py_read(path):
            with h5py.File(path) as f:
                for key in f:
                    f[key][()]

        t_peer, t_ours = interleaved(lambda: write(meshio, "meshio.xdmf"), lambda: write(mio, "ours.xdmf"), reps)
        mb = (folder / "ours.h5").stat().st_size / 1e6
        rows = [dict(mesh=name, op="write", case=XDMF_SERIES_LABEL, mb=mb, meshio=t_peer, ours=t_ours, ratio=t_peer / t_ours)]
        t_peer, t_ours = interleaved(lambda: read(meshio, "meshio.xdmf"), lambda: read(mio, "ours.xdmf"), reps)
        t_h5py, t_ours2 = interleaved(lambda: h5py_read("ours.h5"), lambda: read(mio, "ours.xdmf"), reps)
        rows.append(dict(mesh=name, op="read", case=XDMF_SERIES_LABEL, mb=mb, meshio=t_peer, ours=t_ours, ratio=t_peer / t_ours,
                         h5py=t_h5py, ours_vs_h5py=t_ours2 / t_h5py))
    finally:
        os.chdir(cwd)
    for r in rows:
        extra = f"  h5py {r['h5py']:.4f}s (ours/h5py {r['ours_vs_h5py']:.2f})" if "h5py" in r else ""
        print(f"  {r['op']:5s} {r['case']:18s} {r['mb']:7.1f} MB  meshio {r['meshio']:7.3f}s  meshio++ {r['ours']:7.4f}s"
              f"  x{r['ratio']:6.1f}{extra}", flush=True)
    return rows


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
        if name not in SURFACES and args.case in "pvtu 4 pieces":
            rows.append(collection_rows(name, reps))
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
        if args.case in XDMF_SERIES_LABEL and name == "bracket":  # 100 steps of the cube: GBs of disk
            rows += xdmf_time_series_rows(name, our_mesh, reps)

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
                 if r["op"] == "read" and "copy" in r else " | | ")
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
