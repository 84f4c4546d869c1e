"""VTP: meshio++ vs VTK 9.1's own vtkXMLPolyDataReader / Writer (meshio has no VTP), same
process, interleaved, medians, ratios, on the bracket's skin (bench/geo/skin.geo meshed with
triangles by gmsh -2, made once into bench/work/).

    .venv/bin/python bench/bench_vtp.py [--reps 5]
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import time
from pathlib import Path

import vtk

import meshioplusplus as mio

HERE = Path(__file__).resolve().parent
WORK = HERE / "work"


def median_time(f, reps):
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=5)
    reps = ap.parse_args().reps
    WORK.mkdir(exist_ok=True)
    msh = WORK / "skin-vtp.msh"
    if not msh.exists():
        subprocess.run(["gmsh", "-2", str(HERE / "geo" / "skin.geo"), "-o", str(msh), "-format", "msh41"], check=True,
                       capture_output=True)
    mesh = mio.read(msh)
    mesh = mio.Mesh(mesh.points, [c for c in mesh.cells if c.type == "triangle"])
    print(f"skin: {len(mesh.points)} points, {sum(len(c) for c in mesh.cells)} triangles")
    for label, ours_kw, mode, zlib in [("ascii", dict(binary=False), "ascii", False),
                                       ("binary", dict(compression=None), "binary", False),
                                       ("binary zlib", dict(), "binary", True),
                                       ("appended raw", dict(data_mode="appended", compression=None), "appended", False)]:
        path = WORK / f"skin-{label.replace(' ', '-')}.vtp"
        vpath = WORK / f"skin-{label.replace(' ', '-')}-vtk.vtp"
        mio.write(path, mesh, **ours_kw)
        reader = vtk.vtkXMLPolyDataReader()
        reader.SetFileName(str(path))
        reader.Update()
        pd = reader.GetOutput()

        def vtk_write():
            w = vtk.vtkXMLPolyDataWriter()
            w.SetInputData(pd)
            w.SetFileName(str(vpath))
            {"ascii": w.SetDataModeToAscii, "binary": w.SetDataModeToBinary, "appended": w.SetDataModeToAppended}[mode]()
            w.SetEncodeAppendedData(0)
            w.SetCompressorTypeToZLib() if zlib else w.SetCompressorTypeToNone()
            w.Write()

        def vtk_read():
            r = vtk.vtkXMLPolyDataReader()
            r.SetFileName(str(vpath))
            r.Update()

        vtk_write()
        tv_r, to_r = median_time(vtk_read, reps), median_time(lambda: mio.read(vpath), reps)
        tv_w, to_w = median_time(vtk_write, reps), median_time(lambda: mio.write(path, mesh, **ours_kw), reps)
        print(f"read  vtp {label:13s} VTK {tv_r * 1e3:8.1f} ms  meshio++ {to_r * 1e3:8.1f} ms  {tv_r / to_r:5.1f}x")
        print(f"write vtp {label:13s} VTK {tv_w * 1e3:8.1f} ms  meshio++ {to_w * 1e3:8.1f} ms  {tv_w / to_w:5.1f}x")


if __name__ == "__main__":
    main()
