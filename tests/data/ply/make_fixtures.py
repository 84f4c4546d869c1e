# Makes the VTK- and meshio-written fixtures of tests/data/ply and tests/data/obj.
# Run from tests/data: python3 ply/make_fixtures.py (VTK 9.1.0 from Debian python3-vtk9, meshio 5.0.0 from python3-meshio).
import numpy as np, vtk, meshio
from vtk.util.numpy_support import numpy_to_vtk
s = vtk.vtkSphereSource(); s.SetThetaResolution(6); s.SetPhiResolution(5); s.Update()
pd = s.GetOutput()
rgb = (np.arange(pd.GetNumberOfPoints() * 3).reshape(-1, 3) * 7 % 256).astype(np.uint8)
a = numpy_to_vtk(rgb, deep=1); a.SetName("RGB"); pd.GetPointData().SetScalars(a)
tc = (np.arange(pd.GetNumberOfPoints() * 2).reshape(-1, 2) / 64.0).astype(np.float32)
t = numpy_to_vtk(tc, deep=1); t.SetName("TC"); pd.GetPointData().SetTCoords(t)
for name, ascii, big in [("vtk_ascii", True, False), ("vtk_binary_le", False, False), ("vtk_binary_be", False, True)]:
    w = vtk.vtkPLYWriter(); w.SetFileName(f"ply/{name}.ply"); w.SetInputData(pd)
    w.SetFileTypeToASCII() if ascii else w.SetFileTypeToBinary()
    w.SetDataByteOrderToBigEndian() if big else w.SetDataByteOrderToLittleEndian()
    w.SetArrayName("RGB"); w.SetTextureCoordinatesNameToUV(); w.Write()
w = vtk.vtkOBJWriter(); w.SetFileName("obj/vtk_sphere.obj"); w.SetInputData(pd); w.Write()
pts = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [2, 0, 0], [2, 1, 0], [3, 0.5, 0]], dtype=float)
cells = [("triangle", [[0, 1, 2], [0, 2, 3]]), ("quad", [[1, 4, 5, 2]]), ("polygon", [[4, 6, 5, 2, 1]])]
m = meshio.Mesh(pts, cells, point_data={"temperature": np.linspace(0, 1, 7), "id": np.arange(7, dtype=np.int32)})
meshio.write("ply/meshio_binary.ply", m, binary=True)
meshio.write("ply/meshio_ascii.ply", m, binary=False)
m2 = meshio.Mesh(pts, cells, point_data={"obj:vt": pts[:, :2] / 3, "obj:vn": np.tile([0.0, 0, 1], (7, 1))})
meshio.write("obj/meshio_mixed.obj", m2)
