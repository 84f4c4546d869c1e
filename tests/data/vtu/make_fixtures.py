"""Writes the VTU / legacy VTK fixtures with VTK's own writers (Debian python3-vtk9 9.1.0).

Run from the repository root: /usr/bin/python3 tests/data/vtu/make_fixtures.py
The grid: 2 hexahedra, 1 wedge, 2 triangles, 1 polyhedron (a pyramid), with point data
(Float64 scalars, Float32 vectors, Int32), cell data (Float64, Int64 2-component) and
field data. vtu/big_endian.vtu is the binary/uncompressed file re-encoded big-endian with
numpy (VTK writes the host byte order only).
"""
import base64
import re
from pathlib import Path

import numpy as np
import vtk
from vtk.util.numpy_support import numpy_to_vtk, numpy_to_vtkIdTypeArray

here = Path(__file__).parent
legacy = here.parent / "vtk"

pts = np.array([[x, y, z] for z in (0.0, 1.0) for y in (0.0, 1.0) for x in (0.0, 0.5, 1.25)]) + 0.01 * np.arange(12)[:, None]
g = vtk.vtkUnstructuredGrid()
p = vtk.vtkPoints()
p.SetData(numpy_to_vtk(pts, deep=True))
g.SetPoints(p)
for t, ids in [(12, [0, 1, 4, 3, 6, 7, 10, 9]), (12, [1, 2, 5, 4, 7, 8, 11, 10]), (13, [0, 1, 3, 6, 7, 9]),
               (5, [0, 1, 4]), (5, [1, 2, 5])]:
    g.InsertNextCell(t, len(ids), ids)
faces = vtk.vtkIdList()
faces.InsertNextId(5)
for f in ([0, 1, 4, 3], [0, 1, 7], [1, 4, 7], [4, 3, 7], [3, 0, 7]):
    faces.InsertNextId(len(f))
    for v in f:
        faces.InsertNextId(v)
g.InsertNextCell(42, faces)  # a polyhedron from its face stream


def add(attrs, name, arr):
    a = numpy_to_vtk(np.ascontiguousarray(arr), deep=True)
    a.SetName(name)
    attrs.AddArray(a)


add(g.GetPointData(), "scal", np.linspace(-1, 1, 12))
add(g.GetPointData(), "vec", (np.arange(36) / 7).astype(np.float32).reshape(12, 3))
add(g.GetPointData(), "ids", np.arange(12, dtype=np.int32) * -3)
add(g.GetCellData(), "c", np.arange(6) * 1.5)
add(g.GetCellData(), "c2", np.arange(12, dtype=np.int64).reshape(6, 2))
add(g.GetFieldData(), "TIME", np.array([2.5]))

for dm in ("ascii", "binary", "appended"):
    for comp in (None, "zlib"):
        for ht in ("UInt32", "UInt64"):
            for enc in ((0, 1) if dm == "appended" else (0,)):
                if dm == "ascii" and (comp or ht == "UInt32"):
                    continue
                w = vtk.vtkXMLUnstructuredGridWriter()
                w.SetInputData(g)
                name = f"{dm}{'_b64' if enc else ''}_{comp or 'raw'}_{ht}.vtu"
                w.SetFileName(str(here / name))
                getattr(w, f"SetDataModeTo{dm.capitalize()}")()
                w.SetEncodeAppendedData(enc)
                w.SetCompressorTypeToZLib() if comp else w.SetCompressorTypeToNone()
                getattr(w, f"SetHeaderTypeTo{ht}")()
                assert w.Write() == 1

for binary in (True, False):
    for ver in (42, 51):
        w = vtk.vtkUnstructuredGridWriter()
        w.SetInputData(g)
        w.SetFileName(str(legacy / f"vtk{ver}_{'binary' if binary else 'ascii'}.vtk"))
        w.SetFileTypeToBinary() if binary else w.SetFileTypeToASCII()
        if ver == 42:
            w.SetFileVersion(42)
        assert w.Write() == 1

# Big-endian: re-encode binary_raw_UInt32.vtu's inline arrays.
text = (here / "binary_raw_UInt32.vtu").read_text()
types = {"Float32": "f4", "Float64": "f8", "Int32": "i4", "Int64": "i8", "UInt8": "u1"}


def swap(m):
    head, body, tail = m.group(1), m.group(2), m.group(3)
    dt = types[re.search(r'type="(\w+)"', head).group(1)]
    # The data comes before (or, in some VTK versions, after) any <InformationKey> children.
    data = re.match(r"\s*([A-Za-z0-9+/=]{8,})", body) or re.search(r"([A-Za-z0-9+/=]{8,})\s*$", body)
    if data is None:
        raise SystemExit(f"no data in {head}{body[:200]}")
    raw = base64.b64decode(data.group(1))
    n = int(np.frombuffer(raw[:4], "<u4")[0])
    arr = np.frombuffer(raw[4 : 4 + n], "<" + dt)
    out = np.array([n], ">u4").tobytes() + arr.astype(">" + dt).tobytes()
    return head + body[: data.start(1)] + base64.b64encode(out).decode() + body[data.end(1) :] + tail


text = re.sub(r'(<DataArray[^>]*format="binary"[^>]*>)(.*?)(</DataArray>)', swap, text, flags=re.S)
(here / "big_endian.vtu").write_text(text.replace('byte_order="LittleEndian"', 'byte_order="BigEndian"'))
