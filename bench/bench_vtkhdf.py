"""VTKHDF: meshio++ vs VTK 9.1's vtkHDFReader (VTK 9.1 has no VTKHDF writer: writes are
compared with our own VTU, appended raw, and VTK's VTU writer), same process, interleaved,
medians, ratios, on the gmsh bracket (bench/geo/bracket.geo, ~50k points, ~280k cells;
bench_gmsh.py meshes it once). meshio has no VTKHDF.

    .venv/bin/python bench/bench_vtkhdf.py [--reps 7]
"""
from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

import vtk

import meshioplusplus as mio
from bench_gmsh import make_meshes, race

HERE = Path(__file__).resolve().parent


def vtk_hdf_read(path):
    r = vtk.vtkHDFReader()
    r.SetFileName(str(path))
    r.Update()
    return r.GetOutput()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--geo", type=Path, default=HERE / "geo" / "bracket.geo")
    args = ap.parse_args()
    reps = args.reps
    mesh = mio.read(make_meshes(args.geo)["binary"])
    mesh = mio.Mesh(mesh.points, mesh.cells)  # the cells and points only (no gmsh tags)
    out = Path(tempfile.mkdtemp(prefix="meshioplusplus-bench-vtkhdf-"))
    h5, vtu, vtk_vtu = out / "b.vtkhdf", out / "b.vtu", out / "b-vtk.vtu"
    raw = dict(data_mode="appended", compression=None)
    mio.write(h5, mesh)
    mio.write(vtu, mesh, **raw)
    grid = vtk_hdf_read(h5)
    assert grid.GetNumberOfCells() == sum(len(b) for b in mesh.cells)

    def vtk_write_vtu():
        w = vtk.vtkXMLUnstructuredGridWriter()
        w.SetInputData(grid)
        w.SetFileName(str(vtk_vtu))
        w.SetDataModeToAppended()
        w.SetEncodeAppendedData(0)
        w.SetCompressorTypeToNone()
        w.Write()

    print(f"bracket: {len(mesh.points)} points, {sum(len(b) for b in mesh.cells)} cells; "
          f"VTKHDF {h5.stat().st_size / 1e6:.1f} MB, VTU raw {vtu.stat().st_size / 1e6:.1f} MB; "
          f"load average {os.getloadavg()[0]:.2f}")
    t = race({
        "read vtkhdf meshio++": lambda: mio.read(h5),
        "read vtkhdf VTK vtkHDFReader": lambda: vtk_hdf_read(h5),
        "read vtu raw meshio++": lambda: mio.read(vtu),
        "write vtkhdf meshio++": lambda: mio.write(h5, mesh),
        "write vtu raw meshio++": lambda: mio.write(vtu, mesh, **raw),
        "write vtu raw VTK": vtk_write_vtu,
    }, reps)
    for k, v in t.items():
        print(f"{k:32s} {v * 1e3:8.1f} ms")
    print(f"read:  VTK vtkHDFReader / meshio++ vtkhdf = {t['read vtkhdf VTK vtkHDFReader'] / t['read vtkhdf meshio++']:.2f}x; "
          f"meshio++ vtu raw / vtkhdf = {t['read vtu raw meshio++'] / t['read vtkhdf meshio++']:.2f}x")
    print(f"write: meshio++ vtu raw / vtkhdf = {t['write vtu raw meshio++'] / t['write vtkhdf meshio++']:.2f}x; "
          f"VTK vtu raw / meshio++ vtkhdf = {t['write vtu raw VTK'] / t['write vtkhdf meshio++']:.2f}x")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
