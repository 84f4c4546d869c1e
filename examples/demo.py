"""make demo: the main job on the bundled example.

Reads examples/bracket-small.msh (made by gmsh from bracket-small.geo, see
examples/README.md), prints its summary, converts it to VTU with meshio++, checks that
VTK's own reader opens the result, and does the same conversion once more with the C++
command-line tool.
"""
import subprocess
import sys
from pathlib import Path

import numpy as np

import meshioplusplus as mio

here = Path(__file__).resolve().parent
root = here.parent
src = here / "bracket-small.msh"
out_dir = root / "build" / "demo"
out_dir.mkdir(parents=True, exist_ok=True)

mesh = mio.read(src)
print(f"read {src.relative_to(root)}")
print(mesh)
for region in mesh.regions:
    print(f"  region {region.name!r}: {region.kind}, dim {region.dim}, tag {region.tag}, {len(region)} entries")

vtu = out_dir / "bracket-small.vtu"
mio.write(vtu, mesh)
print(f"\nwrote {vtu.relative_to(root)} ({vtu.stat().st_size} bytes, binary + zlib)")

try:
    from vtkmodules.util.numpy_support import vtk_to_numpy
    from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridReader
except ImportError:
    print("VTK is not installed; skipping the VTK check")
else:
    reader = vtkXMLUnstructuredGridReader()
    reader.SetFileName(str(vtu))
    reader.Update()
    grid = reader.GetOutput()
    same = np.allclose(vtk_to_numpy(grid.GetPoints().GetData()), mesh.points)
    print(f"VTK reads it: {grid.GetNumberOfPoints()} points, {grid.GetNumberOfCells()} cells, points identical: {same}")
    if grid.GetNumberOfCells() != sum(len(b) for b in mesh.cells) or not same:
        sys.exit("demo: VTK disagrees with meshio++")

cli = root / "build" / "meshioplusplus"
if cli.exists():
    vtk_legacy = out_dir / "bracket-small.vtk"
    subprocess.run([str(cli), "convert", str(src), str(vtk_legacy)], check=True)
    print(f"C++ CLI: converted to {vtk_legacy.relative_to(root)}")
    print(subprocess.run([str(cli), "info", str(vtk_legacy)], check=True, capture_output=True, text=True).stdout)
