"""Writes the tool-made STL and OFF fixtures (see README.md here and in ../off/).

Run from this folder: /usr/bin/python3 make_fixtures.py (VTK 9.1 and meshio 5.0 from Debian).
"""
import struct

import meshio
import numpy as np
from vtkmodules.vtkFiltersSources import vtkSphereSource
from vtkmodules.vtkIOGeometry import vtkSTLWriter

# VTK 9.1: a coarse sphere, ASCII and binary.
s = vtkSphereSource()
s.SetThetaResolution(6)
s.SetPhiResolution(5)
s.SetRadius(1.5)
s.SetCenter(0.25, -1.0, 3.0)
s.Update()
for name, binary in (("vtk_ascii.stl", False), ("vtk_binary.stl", True)):
    w = vtkSTLWriter()
    w.SetInputData(s.GetOutput())
    w.SetFileName(name)
    w.SetFileTypeToBinary() if binary else w.SetFileTypeToASCII()
    w.Write()

# meshio 5.0: a tetrahedron's skin with a -0.0 coordinate (merged with +0.0 on reading).
pts = np.array([[0.0, -0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0 / 3.0]])
tri = np.array([[0, 2, 1], [0, 1, 3], [1, 2, 3], [0, 3, 2]])
meshio.write("meshio_ascii.stl", meshio.Mesh(pts, [("triangle", tri)]), binary=False)
meshio.write("meshio_binary.stl", meshio.Mesh(pts, [("triangle", tri)]), binary=True)
meshio.write("../off/meshio_tetra_skin.off", meshio.Mesh(np.abs(pts), [("triangle", tri)]))

# Hand-made with struct: a binary STL whose 80-byte header begins with "solid" and whose
# attribute bytes hold a colour.
with open("binary_header_says_solid.stl", "wb") as f:
    f.write(b"solid part exported with a text-like header".ljust(80, b" "))
    f.write(struct.pack("<I", 2))
    for corners in ([(0, 0, 0), (1, 0, 0), (0, 1, 0)], [(1, 0, 0), (1, 1, 0), (0, 1, 0)]):
        f.write(struct.pack("<3f", 0, 0, 1))
        for c in corners:
            f.write(struct.pack("<3f", *c))
        f.write(struct.pack("<H", 0x7C1F))
