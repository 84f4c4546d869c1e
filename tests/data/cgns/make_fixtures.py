"""CGNS/HDF5 fixtures written with h5py from the SIDS and its HDF5 mapping
(https://cgns.github.io/CGNS_docs_current/filemap/): layouts no Debian tool writes.
  poly3.cgns   two hexahedra as NFACE_n over NGON_n (CGNS 3 layout: counts inline; a
               negative face id for the shared face); cgnscheck 3.4 reads it
  poly4.cgns   the same in the CGNS 4 layout (ElementStartOffset), CGNSLibraryVersion 4.2
  mixed3.cgns  a MIXED section (TETRA_4, PYRA_5) + a TRI_3 boundary section, a FaceCenter
               BC on the triangle, Vertex and CellCenter FlowSolutions (VelocityX/Y/Z)
  mixed4.cgns  the MIXED section in the CGNS 4 layout
  two_zones.cgns  two zones of one tetrahedron each, a Vertex BC in each
  structured.cgns a Structured zone
Run: /usr/bin/python3 make_fixtures.py (h5py 3.7, Debian python3-h5py)."""
import h5py
import numpy as np


def chars(s):
    return np.frombuffer(s.encode(), dtype=np.int8)


def node(parent, name, label, typ, data=None):
    g = parent.create_group(name) if name else parent
    g.attrs["name"] = np.array((name or "HDF5 MotherNode").encode(), dtype="S33")
    g.attrs["label"] = np.array(label.encode(), dtype="S33")
    g.attrs["type"] = np.array(typ.encode(), dtype="S3")
    if name:
        g.attrs["flags"] = np.array([1], dtype=np.int32)
    if data is not None:
        g.create_dataset(" data", data=data)
    return g


def text(parent, name, label, s):
    return node(parent, name, label, "C1", chars(s))


def i4(v):
    return np.array(v, dtype=np.int32)


def start(path, version=3.4):
    f = h5py.File(path, "w")
    node(f, None, "Root Node of HDF5 File", "MT")
    f.create_dataset(" format", data=chars("IEEE_LITTLE_32\0"))
    f.create_dataset(" hdf5version", data=np.frombuffer(b"HDF5 Version 1.10.8".ljust(33, b"\0"), dtype=np.int8))
    node(f, "CGNSLibraryVersion", "CGNSLibraryVersion_t", "R4", np.array([version], np.float32))
    return f


def zone(base, name, points, ncell, structured=False):
    z = node(base, name, "Zone_t", "I4", i4([[len(points)], [ncell], [0]]))
    text(z, "ZoneType", "ZoneType_t", "Structured" if structured else "Unstructured")
    g = node(z, "GridCoordinates", "GridCoordinates_t", "MT")
    for k, c in enumerate("XYZ"):
        node(g, "Coordinate" + c, "DataArray_t", "R8", np.ascontiguousarray(points[:, k], dtype=float))
    return z


def section(z, name, etype, first, count, conn, offsets=None):
    e = node(z, name, "Elements_t", "I4", i4([etype, 0]))
    node(e, "ElementRange", "IndexRange_t", "I4", i4([first, first + count - 1]))
    if offsets is not None:
        node(e, "ElementStartOffset", "DataArray_t", "I4", i4(offsets))
    node(e, "ElementConnectivity", "DataArray_t", "I4", i4(conn))
    return e


# Two unit hexahedra side by side along x: points 1..12 (1-based).
HEX_POINTS = np.array([[x, y, z] for z in (0, 1) for y in (0, 1) for x in (0, 1, 2)], dtype=float)


def p(x, y, z):
    return 1 + x + 3 * y + 6 * z


HEX_FACES = [
    [p(0, 0, 0), p(0, 1, 0), p(1, 1, 0), p(1, 0, 0)],  # 1 bottom, cell 1
    [p(0, 0, 1), p(1, 0, 1), p(1, 1, 1), p(0, 1, 1)],  # 2 top
    [p(0, 0, 0), p(1, 0, 0), p(1, 0, 1), p(0, 0, 1)],  # 3 y-
    [p(0, 1, 0), p(0, 1, 1), p(1, 1, 1), p(1, 1, 0)],  # 4 y+
    [p(0, 0, 0), p(0, 0, 1), p(0, 1, 1), p(0, 1, 0)],  # 5 x-
    [p(1, 0, 0), p(1, 1, 0), p(1, 1, 1), p(1, 0, 1)],  # 6 shared x = 1 (out of cell 1)
    [p(1, 0, 0), p(1, 1, 0), p(2, 1, 0), p(2, 0, 0)],  # 7 bottom, cell 2
    [p(1, 0, 1), p(2, 0, 1), p(2, 1, 1), p(1, 1, 1)],  # 8 top
    [p(1, 0, 0), p(2, 0, 0), p(2, 0, 1), p(1, 0, 1)],  # 9 y-
    [p(1, 1, 0), p(1, 1, 1), p(2, 1, 1), p(2, 1, 0)],  # 10 y+
    [p(2, 0, 0), p(2, 1, 0), p(2, 1, 1), p(2, 0, 1)],  # 11 x+
]
# Faces are elements 3..13 (after the 2 cells); the shared face seen from cell 2 is negative.
CELLS = [[3, 4, 5, 6, 7, 8], [9, 10, 11, 12, 13, -8]]


def poly(path, layout4):
    f = start(path, 4.2 if layout4 else 3.4)
    b = node(f, "Base", "CGNSBase_t", "I4", i4([3, 3]))
    z = zone(b, "Zone1", HEX_POINTS, 2)
    if layout4:
        section(z, "Cells", 23, 1, 2, sum(CELLS, []), [0, 6, 12])
        section(z, "Faces", 22, 3, 11, sum(HEX_FACES, []), list(range(0, 45, 4)))
    else:
        section(z, "Cells", 23, 1, 2, sum(([6] + cell for cell in CELLS), []))
        section(z, "Faces", 22, 3, 11, sum(([4] + f for f in HEX_FACES), []))
    f.close()


# A tetrahedron and a pyramid sharing the triangle (2, 3, 5); the triangle (1, 2, 3) a BC.
MIX_POINTS = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, -1], [1, 1, 1], [1, 1, 0]], dtype=float)


def mixed(path, layout4):
    f = start(path, 4.2 if layout4 else 3.4)
    b = node(f, "Base", "CGNSBase_t", "I4", i4([3, 3]))
    z = zone(b, "Zone1", MIX_POINTS, 2)
    tet, pyr = [1, 2, 3, 4], [1, 2, 6, 3, 5]
    if layout4:
        section(z, "Volume", 20, 1, 2, [10] + tet + [12] + pyr, [0, 5, 11])
    else:
        section(z, "Volume", 20, 1, 2, [10] + tet + [12] + pyr)
    section(z, "Wall", 5, 3, 1, [1, 3, 2])
    zbc = node(z, "ZoneBC", "ZoneBC_t", "MT")
    bc = text(zbc, "wall", "BC_t", "BCWall")
    text(bc, "GridLocation", "GridLocation_t", "FaceCenter")
    node(bc, "PointList", "IndexArray_t", "I4", i4([[3]]))
    s = node(z, "FlowSolution", "FlowSolution_t", "MT")
    text(s, "GridLocation", "GridLocation_t", "Vertex")
    node(s, "Pressure", "DataArray_t", "R8", np.arange(6, dtype=float))
    s = node(z, "CellSolution", "FlowSolution_t", "MT")
    text(s, "GridLocation", "GridLocation_t", "CellCenter")
    for k, c in enumerate("XYZ"):
        node(s, "Velocity" + c, "DataArray_t", "R8", np.array([k, 10 + k], dtype=float))
    node(s, "Id", "DataArray_t", "I4", i4([7, 8]))
    f.close()


def two_zones(path):
    f = start(path)
    b = node(f, "Base", "CGNSBase_t", "I4", i4([3, 3]))
    for k, name in enumerate(("Left", "Right")):
        pts = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=float) + [2 * k, 0, 0]
        z = zone(b, name, pts, 1)
        section(z, "Tets", 10, 1, 1, [1, 2, 3, 4])
        zbc = node(z, "ZoneBC", "ZoneBC_t", "MT")
        bc = text(zbc, "apex", "BC_t", "BCWall")
        node(bc, "PointList", "IndexArray_t", "I4", i4([[4]]))
        s = node(z, "FlowSolution", "FlowSolution_t", "MT")
        node(s, "T", "DataArray_t", "R8", np.full(4, float(k)))
    f.close()


def structured(path):
    f = start(path)
    b = node(f, "Base", "CGNSBase_t", "I4", i4([3, 3]))
    z = node(b, "Block", "Zone_t", "I4", i4([[2, 2, 2], [1, 1, 1], [0, 0, 0]]))
    text(z, "ZoneType", "ZoneType_t", "Structured")
    f.close()


poly("poly3.cgns", False)
poly("poly4.cgns", True)
mixed("mixed3.cgns", False)
mixed("mixed4.cgns", True)
two_zones("two_zones.cgns")
structured("unread/structured.cgns")
