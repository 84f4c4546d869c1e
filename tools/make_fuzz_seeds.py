"""Writes the extra fuzz seeds of tests/fuzz/seeds/<format>/ (issue 9).

    .venv/bin/python tools/make_fuzz_seeds.py

tests/data/<format>/ holds the fixtures that real tools made; a reader whose fixtures do not
yet cover its encodings gets small seeds here, so that the fuzzers and the truncation sweep
start from every encoding. vtu: VTK 9.1 (python3-vtk9, vtkXMLUnstructuredGridWriter) in
ascii, binary, binary+zlib, appended raw and appended base64 modes, and meshio++'s own
writer in each data mode and header type. Each seed is kept under ~4 KiB so that the sweep
tries every prefix.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

import meshioplusplus as mio

OUT = Path(__file__).resolve().parents[1] / "tests" / "fuzz" / "seeds"


def small_mesh() -> mio.Mesh:
    points = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0.5, 0.5, 1], [2, 0, 0]], dtype=float)
    cells = [("triangle", np.array([[1, 5, 2]])), ("quad", np.array([[0, 1, 2, 3]])), ("tetra", np.array([[0, 1, 3, 4]]))]
    return mio.Mesh(
        points,
        cells,
        point_data={"u": np.arange(6, dtype=float), "v": np.arange(18, dtype=np.float32).reshape(6, 3)},
        cell_data={"id": [np.array([7], dtype=np.int32), np.array([8], dtype=np.int32), np.array([9], dtype=np.int32)]},
    )


def polyhedron_mesh() -> mio.Mesh:
    points = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]], dtype=float)
    tet = [np.array([0, 1, 2]), np.array([0, 1, 3]), np.array([1, 2, 3]), np.array([0, 2, 3])]
    return mio.Mesh(points, [("polyhedron", [tet]), ("polygon", [np.array([1, 2, 4, 3])])])


def vtk_seeds(folder: Path) -> None:
    import vtk

    grid = vtk.vtkUnstructuredGrid()
    pts = vtk.vtkPoints()
    pts.SetDataTypeToDouble()
    for p in [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0), (0.5, 0.5, 1)]:
        pts.InsertNextPoint(*p)
    grid.SetPoints(pts)
    grid.InsertNextCell(vtk.VTK_QUAD, 4, [0, 1, 2, 3])
    grid.InsertNextCell(vtk.VTK_TETRA, 4, [0, 1, 3, 4])
    grid.InsertNextCell(vtk.VTK_LINE, 2, [2, 4])
    data = vtk.vtkDoubleArray()
    data.SetName("temperature")
    for k in range(5):
        data.InsertNextValue(0.25 * k)
    grid.GetPointData().AddArray(data)
    ids = vtk.vtkIntArray()
    ids.SetName("id")
    for k in range(3):
        ids.InsertNextValue(10 + k)
    grid.GetCellData().AddArray(ids)
    modes = {
        "vtk91_ascii.vtu": lambda w: w.SetDataModeToAscii(),
        "vtk91_binary.vtu": lambda w: (w.SetDataModeToBinary(), w.SetCompressorTypeToNone()),
        "vtk91_binary_zlib.vtu": lambda w: (w.SetDataModeToBinary(), w.SetCompressorTypeToZLib()),
        "vtk91_appended_raw.vtu": lambda w: (w.SetDataModeToAppended(), w.EncodeAppendedDataOff(), w.SetCompressorTypeToNone()),
        "vtk91_appended_base64_uint32.vtu": lambda w: (
            w.SetDataModeToAppended(), w.EncodeAppendedDataOn(), w.SetCompressorTypeToNone(), w.SetHeaderTypeToUInt32()),
    }
    for name, setup in modes.items():
        w = vtk.vtkXMLUnstructuredGridWriter()
        w.SetInputData(grid)
        setup(w)
        w.SetFileName(str(folder / name))
        w.Write()


def main() -> None:
    folder = OUT / "vtu"
    folder.mkdir(parents=True, exist_ok=True)
    vtk_seeds(folder)
    modes = {
        "ascii": dict(binary=False),
        "binary": dict(compression="None", header_type="UInt32"),
        "binary_zlib": dict(header_type="UInt64"),
        "appended": dict(data_mode="appended", compression="None", header_type="UInt64"),
        "appended_zlib": dict(data_mode="appended", header_type="UInt32"),
    }
    for mode, options in modes.items():
        mio.write(folder / f"mpp_mixed_{mode}.vtu", small_mesh(), "vtu", **options)
    mio.write(folder / "mpp_polyhedron_ascii.vtu", polyhedron_mesh(), "vtu", binary=False)
    mio.write(folder / "mpp_polyhedron_appended.vtu", polyhedron_mesh(), "vtu", data_mode="appended", compression="None")
    for p in sorted(folder.glob("*.vtu")):
        print(p.name, p.stat().st_size)


if __name__ == "__main__":
    main()
