"""Writes the VTP, VTS, VTR and VTI fixtures (tests/data/{vtp,vts,vtr,vti}/) with VTK's own
XML writers: one small dataset per format with point and cell data, in ascii, binary+zlib
and appended raw encodings. Run: python3 tests/data/vtp/make_fixtures.py"""
from pathlib import Path

import numpy as np
import vtk
from vtk.util.numpy_support import numpy_to_vtk

HERE = Path(__file__).resolve().parent.parent


def data(ds, n_points, n_cells):
    a = numpy_to_vtk(np.arange(n_points, dtype=np.float64) * 0.5, deep=1)
    a.SetName("p")
    ds.GetPointData().AddArray(a)
    c = numpy_to_vtk(np.arange(n_cells, dtype=np.int32), deep=1)
    c.SetName("c")
    ds.GetCellData().AddArray(c)
    return ds


def polydata():
    pts = vtk.vtkPoints()
    for j in range(3):
        for i in range(3):
            pts.InsertNextPoint(i, j, 0.1 * i * j)
    pd = vtk.vtkPolyData()
    pd.SetPoints(pts)
    n = 0
    for kind, cells in {"Verts": [[8]], "Lines": [[0, 1, 2]], "Polys": [[0, 1, 4], [1, 2, 5, 4]], "Strips": [[3, 6, 4, 7, 5]]}.items():
        ca = vtk.vtkCellArray()
        for c in cells:
            ca.InsertNextCell(len(c), c)
        n += len(cells)
        getattr(pd, "Set" + kind)(ca)
    return data(pd, 9, n)


def image():
    img = vtk.vtkImageData()
    img.SetExtent(0, 2, 1, 2, 0, 1)
    img.SetOrigin(0.5, 0, -1)
    img.SetSpacing(1, 0.5, 2)
    return data(img, img.GetNumberOfPoints(), img.GetNumberOfCells())


def rectilinear():
    g = vtk.vtkRectilinearGrid()
    g.SetExtent(0, 2, 0, 1, 0, 1)
    for setter, values in ((g.SetXCoordinates, [0, 1, 3]), (g.SetYCoordinates, [0, 2]), (g.SetZCoordinates, [1, 4])):
        setter(numpy_to_vtk(np.array(values, dtype=np.float64), deep=1))
    return data(g, g.GetNumberOfPoints(), g.GetNumberOfCells())


def structured():
    ps = vtk.vtkImageDataToPointSet()
    ps.SetInputData(image())
    ps.Update()
    return ps.GetOutput()


CASES = {"vtp": (polydata, vtk.vtkXMLPolyDataWriter), "vts": (structured, vtk.vtkXMLStructuredGridWriter),
         "vtr": (rectilinear, vtk.vtkXMLRectilinearGridWriter), "vti": (image, vtk.vtkXMLImageDataWriter)}

for fmt, (make, writer) in CASES.items():
    for mode in ("ascii", "binary_zlib", "appended"):
        w = writer()
        w.SetInputData(make())
        w.SetFileName(str(HERE / fmt / f"{mode}.{fmt}"))
        {"ascii": w.SetDataModeToAscii, "binary_zlib": w.SetDataModeToBinary, "appended": w.SetDataModeToAppended}[mode]()
        if mode != "binary_zlib":
            w.SetCompressorTypeToNone()
        assert w.Write() == 1
