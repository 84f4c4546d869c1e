"""Lies in headers. A small file that declares 10^12 nodes or elements (or a count
that overflows, or a size field that does) raises ReadError at once, without allocating.

Each case is a template with one count in it and the true value of that count: the true
value must read as a mesh (so the template is a valid file and the lie is the only thing
wrong), and the lie must raise ReadError under an address-space limit of AS_LIMIT, with no core
buffer larger than MAX_REQUEST asked for (the allocator counts requests: exact, whatever
the machine's speed; a read that never ends is caught by the worker's timeout). Cases
marked `sparse` are legal files whose tags are huge (Gmsh allows gaps): they must read or
raise ReadError, equally small. Every readable format must have cases here.
"""
from __future__ import annotations

import base64
import hashlib
import json
import struct
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

import pytest

import hostile
import meshioplusplus as mio

WORKER = Path(__file__).with_name("hostile_worker.py")
AS_LIMIT = 1 << 30  # 1 GiB of address space; Python + numpy + meshio++ use ~60 MiB
MAX_REQUEST = 1 << 20  # no buffer above 1 MiB for a file of a few hundred bytes
LIES = (10**12, 2**31 - 1, 2**32 + 3, 2**63 - 1)

i32 = lambda *v: struct.pack(f"<{len(v)}i", *v)  # noqa: E731
u64 = lambda *v: struct.pack(f"<{len(v)}Q", *v)  # noqa: E731
f64 = lambda *v: struct.pack(f"<{len(v)}d", *v)  # noqa: E731
i32_fits = lambda n: n < 2**31  # noqa: E731

# --- gmsh -----------------------------------------------------------------------------
H22 = b"$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"
H22B = b"$MeshFormat\n2.2 1 8\n" + i32(1) + b"\n$EndMeshFormat\n"
H40 = b"$MeshFormat\n4 0 8\n$EndMeshFormat\n"
H41 = b"$MeshFormat\n4.1 0 8\n$EndMeshFormat\n"
H41B = b"$MeshFormat\n4.1 1 8\n" + i32(1) + b"\n$EndMeshFormat\n"
NODES22 = b"$Nodes\n3\n1 0 0 0\n2 1 0 0\n3 0 1 0\n$EndNodes\n"
NODES22B = b"$Nodes\n3\n" + b"".join(i32(k + 1) + f64(*p) for k, p in enumerate([(0, 0, 0), (1, 0, 0), (0, 1, 0)])) + b"\n$EndNodes\n"
NODES41 = b"$Nodes\n1 3 1 3\n2 1 0 3\n1\n2\n3\n0 0 0\n1 0 0\n0 1 0\n$EndNodes\n"
NODES41B = (b"$Nodes\n" + u64(1, 3, 1, 3) + i32(2, 1, 0) + u64(3) + u64(1, 2, 3)
            + f64(0, 0, 0, 1, 0, 0, 0, 1, 0) + b"\n$EndNodes\n")
ELEMS22 = b"$Elements\n1\n1 2 2 0 1 1 2 3\n$EndElements\n"
ELEMS22B = b"$Elements\n1\n" + i32(2, 1, 0) + i32(1, 1, 2, 3) + b"\n$EndElements\n"
ELEMS40 = b"$Elements\n1 1\n1 2 2 1\n1 1 2 3\n$EndElements\n"
ELEMS41 = b"$Elements\n1 1 1 1\n2 1 2 1\n1 1 2 3\n$EndElements\n"
ELEMS41B = b"$Elements\n" + u64(1, 1, 1, 1) + i32(2, 1, 2) + u64(1) + u64(1, 1, 2, 3) + b"\n$EndElements\n"


def n(v) -> bytes:
    return str(v).encode()


GMSH = {
    "msh22 $Nodes count": (lambda v: H22 + b"$Nodes\n" + n(v) + b"\n1 0 0 0\n2 1 0 0\n3 0 1 0\n$EndNodes\n" + ELEMS22, 3),
    "msh22 $Elements count": (lambda v: H22 + NODES22 + b"$Elements\n" + n(v) + b"\n1 2 2 0 1 1 2 3\n$EndElements\n", 1),
    "msh22 element tag count": (lambda v: H22 + NODES22 + b"$Elements\n1\n1 2 " + n(v) + b" 0 1 1 2 3\n$EndElements\n", 2),
    "msh22 $PhysicalNames count": (
        lambda v: H22 + b"$PhysicalNames\n" + n(v) + b'\n2 1 "a"\n$EndPhysicalNames\n' + NODES22
        + b"$Elements\n1\n1 2 2 1 1 1 2 3\n$EndElements\n", 1),
    "msh22 $NodeData value count": (
        lambda v: H22 + NODES22 + b"$Elements\n1\n1 2 2 0 1 1 2 3\n$EndElements\n"
        + b'$NodeData\n1\n"u"\n1\n0.0\n3\n0\n1\n' + n(v) + b"\n1 0.5\n2 0.5\n3 0.5\n$EndNodeData\n", 3),
    "msh22 binary $Nodes count": (lambda v: H22B + b"$Nodes\n" + n(v) + b"\n" + NODES22B[len(b"$Nodes\n3\n"):] + ELEMS22B, 3),
    "msh22 binary $Elements count": (
        lambda v: H22B + NODES22B + b"$Elements\n" + n(v) + b"\n" + i32(2, 1, 0) + i32(1, 1, 2, 3) + b"\n$EndElements\n", 1),
    "msh22 binary element block count": (
        lambda v: H22B + NODES22B + b"$Elements\n1\n" + i32(2, v if i32_fits(v) else -1, 0) + i32(1, 1, 2, 3)
        + b"\n$EndElements\n", 1),
    "msh40 $Nodes count": (lambda v: H40 + b"$Nodes\n1 " + n(v) + b"\n1 2 0 3\n1 0 0 0\n2 1 0 0\n3 0 1 0\n$EndNodes\n" + ELEMS40, 3),
    "msh40 node block count": (lambda v: H40 + b"$Nodes\n1 3\n1 2 0 " + n(v) + b"\n1 0 0 0\n2 1 0 0\n3 0 1 0\n$EndNodes\n" + ELEMS40, 3),
    "msh40 $Elements count": (
        lambda v: H40 + b"$Nodes\n1 3\n1 2 0 3\n1 0 0 0\n2 1 0 0\n3 0 1 0\n$EndNodes\n"
        + b"$Elements\n1 " + n(v) + b"\n1 2 2 1\n1 1 2 3\n$EndElements\n", 1),
    "msh41 $Nodes count": (lambda v: H41 + b"$Nodes\n1 " + n(v) + b" 1 3\n2 1 0 3\n1\n2\n3\n0 0 0\n1 0 0\n0 1 0\n$EndNodes\n" + ELEMS41, 3),
    "msh41 node entity blocks": (lambda v: H41 + b"$Nodes\n" + n(v) + b" 3 1 3\n2 1 0 3\n1\n2\n3\n0 0 0\n1 0 0\n0 1 0\n$EndNodes\n" + ELEMS41, 1),
    "msh41 node block count": (lambda v: H41 + b"$Nodes\n1 3 1 3\n2 1 0 " + n(v) + b"\n1\n2\n3\n0 0 0\n1 0 0\n0 1 0\n$EndNodes\n" + ELEMS41, 3),
    "msh41 $Elements count": (
        lambda v: H41 + NODES41 + b"$Elements\n1 " + n(v) + b" 1 1\n2 1 2 1\n1 1 2 3\n$EndElements\n", 1),
    "msh41 element block count": (
        lambda v: H41 + NODES41 + b"$Elements\n1 1 1 1\n2 1 2 " + n(v) + b"\n1 1 2 3\n$EndElements\n", 1),
    "msh41 $Entities point count": (
        lambda v: H41 + b"$Entities\n" + n(v) + b" 0 0 0\n1 0 0 0 0\n$EndEntities\n" + NODES41
        + b"$Elements\n1 1 1 1\n2 1 2 1\n1 1 2 3\n$EndElements\n", 1),
    "msh41 binary $Nodes count": (
        lambda v: H41B + b"$Nodes\n" + u64(1, v, 1, 3) + i32(2, 1, 0) + u64(3) + u64(1, 2, 3)
        + f64(0, 0, 0, 1, 0, 0, 0, 1, 0) + b"\n$EndNodes\n" + ELEMS41B, 3),
    "msh41 binary node block count": (
        lambda v: H41B + b"$Nodes\n" + u64(1, 3, 1, 3) + i32(2, 1, 0) + u64(v) + u64(1, 2, 3)
        + f64(0, 0, 0, 1, 0, 0, 0, 1, 0) + b"\n$EndNodes\n" + ELEMS41B, 3),
    "msh41 binary element block count": (
        lambda v: H41B + NODES41B + b"$Elements\n" + u64(1, 1, 1, 1) + i32(2, 1, 2) + u64(v) + u64(1, 1, 2, 3)
        + b"\n$EndElements\n", 1),
    # Legal but sparse: node tags up to 10^12 (Gmsh allows gaps); a dense tag map would die.
    "sparse msh41 max node tag": (
        lambda v: H41 + b"$Nodes\n1 3 1 " + n(v) + b"\n2 1 0 3\n1\n2\n" + n(v) + b"\n0 0 0\n1 0 0\n0 1 0\n$EndNodes\n"
        + b"$Elements\n1 1 1 1\n2 1 2 1\n1 1 2 " + n(v) + b"\n$EndElements\n", 3),
    "sparse msh22 node tag": (
        lambda v: H22 + b"$Nodes\n3\n1 0 0 0\n2 1 0 0\n" + n(v) + b" 0 1 0\n$EndNodes\n"
        + b"$Elements\n1\n1 2 2 0 1 1 2 " + n(v) + b"\n$EndElements\n", 3),
}

# --- vtu ------------------------------------------------------------------------------
VTU_HEAD = b'<?xml version="1.0"?>\n<VTKFile type="UnstructuredGrid" version="1.0" byte_order="LittleEndian" header_type="UInt64"'
POINTS_ASCII = b'<DataArray type="Float64" NumberOfComponents="3" format="ascii">0 0 0 1 0 0 0 1 0</DataArray>'
CELLS_ASCII = (b'<Cells>\n<DataArray type="Int64" Name="connectivity" format="ascii">0 1 2</DataArray>\n'
               b'<DataArray type="Int64" Name="offsets" format="ascii">3</DataArray>\n'
               b'<DataArray type="UInt8" Name="types" format="ascii">5</DataArray>\n</Cells>\n')


def vtu(points=POINTS_ASCII, npoints=3, ncells=1, extra_attrs=b"", appended=b"", point_data=b""):
    doc = (VTU_HEAD + extra_attrs + b">\n<UnstructuredGrid>\n<Piece NumberOfPoints=\"" + n(npoints)
           + b'" NumberOfCells="' + n(ncells) + b'">\n' + point_data + b"<Points>\n" + points + b"\n</Points>\n"
           + CELLS_ASCII + b"</Piece>\n</UnstructuredGrid>\n")
    if appended:
        doc += b'<AppendedData encoding="raw">\n_' + appended + b"\n</AppendedData>\n"
    return doc + b"</VTKFile>\n"


XYZ = f64(0, 0, 0, 1, 0, 0, 0, 1, 0)
ZXYZ = zlib.compress(XYZ)


def b64_points(header: bytes, payload: bytes) -> bytes:
    body = base64.b64encode(header) + base64.b64encode(payload)
    return b'<DataArray type="Float64" NumberOfComponents="3" format="binary">' + body + b"</DataArray>"


VTU = {
    "NumberOfPoints": (lambda v: vtu(npoints=v), 3),
    "NumberOfCells": (lambda v: vtu(ncells=v), 1),
    "NumberOfComponents": (
        lambda v: vtu(points=POINTS_ASCII.replace(b'NumberOfComponents="3"', b'NumberOfComponents="' + n(v) + b'"')), 3),
    "binary block byte count": (lambda v: vtu(points=b64_points(u64(v), XYZ)), len(XYZ)),
    "appended raw byte count": (
        lambda v: vtu(points=b'<DataArray type="Float64" NumberOfComponents="3" format="appended" offset="0"/>',
                      appended=u64(v) + XYZ), len(XYZ)),
    "zlib block count": (
        lambda v: vtu(points=b64_points(u64(v, len(XYZ), len(XYZ), len(ZXYZ)), ZXYZ),
                      extra_attrs=b' compressor="vtkZLibDataCompressor"'), 1),
    "zlib block size": (
        lambda v: vtu(points=b64_points(u64(1, v, v, len(ZXYZ)), ZXYZ),
                      extra_attrs=b' compressor="vtkZLibDataCompressor"'), len(XYZ)),
    "zlib compressed size": (
        lambda v: vtu(points=b64_points(u64(1, len(XYZ), len(XYZ), v), ZXYZ),
                      extra_attrs=b' compressor="vtkZLibDataCompressor"'), len(ZXYZ)),
    "point data NumberOfComponents": (
        lambda v: vtu(point_data=b'<PointData>\n<DataArray type="Float64" Name="u" NumberOfComponents="' + n(v)
                      + b'" format="ascii">1 2 3</DataArray>\n</PointData>\n'), 1),
}

# --- vtp, vts, vtr, vti ----------------------------------------------------------------
def vtp(npoints=3, npolys=1, points=POINTS_ASCII, offsets=b"3"):
    return (b'<?xml version="1.0"?>\n<VTKFile type="PolyData" version="1.0" byte_order="LittleEndian" header_type="UInt64">\n'
            b'<PolyData>\n<Piece NumberOfPoints="' + n(npoints) + b'" NumberOfPolys="' + n(npolys) + b'">\n<Points>\n'
            + points + b"\n</Points>\n<Polys>\n"
            b'<DataArray type="Int64" Name="connectivity" format="ascii">0 1 2</DataArray>\n'
            b'<DataArray type="Int64" Name="offsets" format="ascii">' + offsets + b"</DataArray>\n</Polys>\n"
            b"</Piece>\n</PolyData>\n</VTKFile>\n")


VTP = {
    "NumberOfPoints": (lambda v: vtp(npoints=v), 3),
    "NumberOfPolys": (lambda v: vtp(npolys=v), 1),
    "offsets": (lambda v: vtp(offsets=n(v)), 3),
    "binary block byte count": (lambda v: vtp(points=b64_points(u64(v), XYZ)), len(XYZ)),
}


def structured_xml(kind, last, piece_last=None):
    """A 3 x 1 x 1 grid (x extent 0..last) of `kind`; `piece_last` lies in the Piece only."""
    whole = b"0 " + n(last) + b" 0 0 0 0"
    piece = b"0 " + n(last if piece_last is None else piece_last) + b" 0 0 0 0"
    body = {"StructuredGrid": b"<Points>\n" + POINTS_ASCII + b"\n</Points>\n",
            "RectilinearGrid": b'<Coordinates>\n<DataArray type="Float64" format="ascii">0 1 2</DataArray>\n'
                               b'<DataArray type="Float64" format="ascii">0</DataArray>\n'
                               b'<DataArray type="Float64" format="ascii">0</DataArray>\n</Coordinates>\n',
            "ImageData": b""}[kind]
    attrs = b' Origin="0 0 0" Spacing="1 1 1"' if kind == "ImageData" else b""
    return (b'<?xml version="1.0"?>\n<VTKFile type="' + kind.encode() + b'" version="1.0">\n<' + kind.encode()
            + b' WholeExtent="' + whole + b'"' + attrs + b'>\n<Piece Extent="' + piece + b'">\n'
            + b'<PointData>\n<DataArray type="Float64" Name="u" format="ascii">1 2 3</DataArray>\n</PointData>\n'
            + body + b"</Piece>\n</" + kind.encode() + b">\n</VTKFile>\n")


def structured_cases(kind):
    return {"WholeExtent": (lambda v: structured_xml(kind, v), 2),
            "Piece Extent": (lambda v: structured_xml(kind, 2, piece_last=v), 2)}


# --- vtk (legacy) -----------------------------------------------------------------------
VTK_HEAD = b"# vtk DataFile Version 4.2\nheader lie\nASCII\nDATASET UNSTRUCTURED_GRID\n"
VTK_HEAD_B = b"# vtk DataFile Version 4.2\nheader lie\nBINARY\nDATASET UNSTRUCTURED_GRID\n"
VTK51 = b"# vtk DataFile Version 5.1\nheader lie\nASCII\nDATASET UNSTRUCTURED_GRID\n"
VTK_PTS = b"POINTS 3 double\n0 0 0 1 0 0 0 1 0\n"
VTK_CELLS = b"CELLS 1 4\n3 0 1 2\nCELL_TYPES 1\n5\n"


def be_f64(*v):
    return struct.pack(f">{len(v)}d", *v)


def be_i32(*v):
    return struct.pack(f">{len(v)}i", *v)


VTK = {
    "POINTS count": (lambda v: VTK_HEAD + b"POINTS " + n(v) + b" double\n0 0 0 1 0 0 0 1 0\n" + VTK_CELLS, 3),
    "CELLS count": (lambda v: VTK_HEAD + VTK_PTS + b"CELLS " + n(v) + b" 4\n3 0 1 2\nCELL_TYPES 1\n5\n", 1),
    "CELLS size": (lambda v: VTK_HEAD + VTK_PTS + b"CELLS 1 " + n(v) + b"\n3 0 1 2\nCELL_TYPES 1\n5\n", 4),
    "CELL_TYPES count": (lambda v: VTK_HEAD + VTK_PTS + b"CELLS 1 4\n3 0 1 2\nCELL_TYPES " + n(v) + b"\n5\n", 1),
    "cell node count": (lambda v: VTK_HEAD + VTK_PTS + b"CELLS 1 4\n" + n(v) + b" 0 1 2\nCELL_TYPES 1\n5\n", 3),
    "POINT_DATA count": (
        lambda v: VTK_HEAD + VTK_PTS + VTK_CELLS + b"POINT_DATA " + n(v) + b"\nSCALARS u double 1\nLOOKUP_TABLE default\n0 1 2\n", 3),
    "SCALARS components": (
        lambda v: VTK_HEAD + VTK_PTS + VTK_CELLS + b"POINT_DATA 3\nSCALARS u double " + n(v) + b"\nLOOKUP_TABLE default\n0 1 2\n", 1),
    "FIELD array tuples": (
        lambda v: VTK_HEAD + VTK_PTS + VTK_CELLS + b"POINT_DATA 3\nFIELD f 1\nu 1 " + n(v) + b" double\n0 1 2\n", 3),
    "5.1 OFFSETS count": (
        lambda v: VTK51 + VTK_PTS + b"CELLS " + n(v) + b" 3\nOFFSETS vtktypeint64\n0 3\nCONNECTIVITY vtktypeint64\n0 1 2\n"
        + b"CELL_TYPES 1\n5\n", 2),
    "5.1 CONNECTIVITY size": (
        lambda v: VTK51 + VTK_PTS + b"CELLS 2 " + n(v) + b"\nOFFSETS vtktypeint64\n0 3\nCONNECTIVITY vtktypeint64\n0 1 2\n"
        + b"CELL_TYPES 1\n5\n", 3),
    "binary POINTS count": (
        lambda v: VTK_HEAD_B + b"POINTS " + n(v) + b" double\n" + be_f64(0, 0, 0, 1, 0, 0, 0, 1, 0)
        + b"\nCELLS 1 4\n" + be_i32(3, 0, 1, 2) + b"\nCELL_TYPES 1\n" + be_i32(5) + b"\n", 3),
    "binary CELLS size": (
        lambda v: VTK_HEAD_B + b"POINTS 3 double\n" + be_f64(0, 0, 0, 1, 0, 0, 0, 1, 0)
        + b"\nCELLS 1 " + n(v) + b"\n" + be_i32(3, 0, 1, 2) + b"\nCELL_TYPES 1\n" + be_i32(5) + b"\n", 4),
}

# --- ply ------------------------------------------------------------------------------
PLY_V = b"element vertex %s\nproperty float x\nproperty float y\nproperty float z\n"
PLY_F = b"element face %s\nproperty list %s int vertex_indices\n"
f32 = lambda *v: struct.pack(f"<{len(v)}f", *v)  # noqa: E731


def ply(fmt: bytes, vcount, fcount, body: bytes, count_type=b"uchar", extra=b"") -> bytes:
    return (b"ply\nformat " + fmt + b" 1.0\n" + PLY_V % n(vcount) + PLY_F % (n(fcount), count_type) + extra
            + b"end_header\n" + body)


PLY_ASCII_BODY = b"0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n"
PLY_BIN_BODY = f32(0, 0, 0, 1, 0, 0, 0, 1, 0) + struct.pack("<Q", 3) + i32(0, 1, 2)
PLY = {
    "ascii vertex count": (lambda v: ply(b"ascii", v, 1, PLY_ASCII_BODY), 3),
    "ascii face count": (lambda v: ply(b"ascii", 3, v, PLY_ASCII_BODY), 1),
    "ascii list count": (lambda v: ply(b"ascii", 3, 1, b"0 0 0\n1 0 0\n0 1 0\n" + n(v) + b" 0 1 2\n"), 3),
    "ascii skipped element count": (
        lambda v: ply(b"ascii", 3, 1, PLY_ASCII_BODY + b"0 1\n", extra=b"element edge " + n(v) + b"\nproperty int a\nproperty int b\n"), 1),
    "binary vertex count": (lambda v: ply(b"binary_little_endian", v, 1, PLY_BIN_BODY, b"uint64"), 3),
    "binary face count": (lambda v: ply(b"binary_little_endian", 3, v, PLY_BIN_BODY, b"uint64"), 1),
    "binary list count": (
        lambda v: ply(b"binary_little_endian", 3, 1, f32(0, 0, 0, 1, 0, 0, 0, 1, 0) + struct.pack("<Q", v) + i32(0, 1, 2), b"uint64"), 3),
    "binary skipped element count": (
        lambda v: ply(b"binary_little_endian", 3, 1, PLY_BIN_BODY + i32(0, 1), b"uint64",
                      extra=b"element edge " + n(v) + b"\nproperty int a\nproperty int b\n"), 1),
    "binary skipped list count": (
        lambda v: ply(b"binary_little_endian", 3, 1, PLY_BIN_BODY + struct.pack("<Q", v) + i32(7), b"uint64",
                      extra=b"element material 1\nproperty list uint64 int ids\n"), 1),
}

# --- obj (no declared counts: the indices are what can lie) ----------------------------
OBJ_V = b"v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvn 0 0 1\n"
OBJ = {
    "face vertex index": (lambda v: OBJ_V + b"f 1 2 " + n(v) + b"\n", 3),
    "relative vertex index": (lambda v: OBJ_V + b"f 1 2 -" + n(v) + b"\n", 1),
    "texture coordinate index": (lambda v: OBJ_V + b"f 1/1 2/1 3/" + n(v) + b"\n", 1),
    "normal index": (lambda v: OBJ_V + b"f 1//1 2//1 3//" + n(v) + b"\n", 1),
    "line vertex index": (lambda v: OBJ_V + b"l 1 " + n(v) + b"\n", 2),
}

# --- stl: the binary triangle count is the only count (ASCII has none) -----------------
u32 = lambda v: struct.pack("<I", v % 2**32)  # noqa: E731  the field is 32 bits: a lie wraps
STL_FACET = struct.pack("<12f", 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0) + b"\0\0"
STL = {
    "binary triangle count": (lambda v: b"meshio++ header lie".ljust(80, b" ") + u32(v) + STL_FACET * 2, 2),
    "binary triangle count behind a 'solid' header": (lambda v: b"solid lie".ljust(80, b" ") + u32(v) + STL_FACET * 2, 2),
}

# --- off ------------------------------------------------------------------------------
OFF_VERTS = b"0 0 0\n1 0 0\n0 1 0\n"
OFF = {
    "vertex count": (lambda v: b"OFF\n" + n(v) + b" 1 0\n" + OFF_VERTS + b"3 0 1 2\n", 3),
    "face count": (lambda v: b"OFF\n3 " + n(v) + b" 0\n" + OFF_VERTS + b"3 0 1 2\n", 1),
    "face vertex count": (lambda v: b"OFF\n3 1 0\n" + OFF_VERTS + n(v) + b" 0 1 2\n", 3),
    "COFF vertex count": (lambda v: b"COFF\n" + n(v) + b" 1 0\n0 0 0 1 0 0 1\n1 0 0 0 1 0 1\n0 1 0 0 0 1 1\n3 0 1 2\n", 3),
}

# --- avsucd ----------------------------------------------------------------------------
AVS_NODES = b"1 0 0 0\n2 1 0 0\n3 0 1 0\n"
AVSUCD = {
    "node count": (lambda v: n(v) + b" 1 0 0 0\n" + AVS_NODES + b"1 0 tri 1 2 3\n", 3),
    "cell count": (lambda v: b"3 " + n(v) + b" 0 0 0\n" + AVS_NODES + b"1 0 tri 1 2 3\n", 1),
    "node data component count": (lambda v: b"3 1 1 0 0\n" + AVS_NODES + b"1 0 tri 1 2 3\n" + n(v) + b" 1\nu, m\n1 1\n2 2\n3 3\n", 1),
    "node data component size": (lambda v: b"3 1 1 0 0\n" + AVS_NODES + b"1 0 tri 1 2 3\n1 " + n(v) + b"\nu, m\n1 1\n2 2\n3 3\n", 1),
}

# --- tecplot ---------------------------------------------------------------------------
TEC_HEAD = b'VARIABLES = "X", "Y"\n'
TECPLOT = {
    "zone node count": (lambda v: TEC_HEAD + b"ZONE N=" + n(v) + b", E=1, F=FEPOINT, ET=TRIANGLE\n0 0\n1 0\n0 1\n1 2 3\n", 3),
    "zone element count": (lambda v: TEC_HEAD + b"ZONE N=3, E=" + n(v) + b", F=FEPOINT, ET=TRIANGLE\n0 0\n1 0\n0 1\n1 2 3\n", 1),
    "block zone node count": (lambda v: TEC_HEAD + b"ZONE NODES=" + n(v) + b", ELEMENTS=1, DATAPACKING=BLOCK, ZONETYPE=FETRIANGLE\n0 1 0\n0 0 1\n1 2 3\n", 3),
}

# --- wkt: no counts; what a file can inflate is a coordinate -----------------------------
WKT = {
    "sparse coordinate": (lambda v: b"TIN (((0 0 0, " + n(v) + b" 0 0, 0 1 0, 0 0 0)))", 1),
}

# --- medit ------------------------------------------------------------------------------
MEDIT_HEAD = b"MeshVersionFormatted 2\nDimension 3\n"
MEDIT_VERTS = b"Vertices\n3\n0 0 0 1\n1 0 0 1\n0 1 0 1\n"


def meshb(version: int, *keywords: bytes) -> bytes:
    """A little-endian .meshb: header, Dimension 3, the given keyword records, End."""
    pos = "<q" if version >= 3 else "<i"
    out = struct.pack("<ii", 1, version)
    out += struct.pack("<i", 3) + struct.pack(pos, len(out) + 4 + struct.calcsize(pos) + 4) + struct.pack("<i", 3)
    for k in keywords:
        out += k
    return out + struct.pack("<i", 54) + struct.pack(pos, 0)


def meshb_keyword(version: int, code: int, count: int, rows: bytes, next_offset=None, at=0) -> bytes:
    pos = "<q" if version >= 3 else "<i"
    cnt = struct.pack("<q", count) if version == 4 else struct.pack("<i", count if i32_fits(count) else -1)
    body = cnt + rows
    nxt = at + 4 + struct.calcsize(pos) + len(body) if next_offset is None else next_offset
    return struct.pack("<i", code) + struct.pack(pos, nxt) + body


M4_VERTS = b"".join(struct.pack("<dddq", *p, 1) for p in [(0, 0, 0), (1, 0, 0), (0, 1, 0)])
M3_VERTS = b"".join(struct.pack("<dddi", *p, 1) for p in [(0, 0, 0), (1, 0, 0), (0, 1, 0)])
MEDIT = {
    "ascii Vertices count": (lambda v: MEDIT_HEAD + b"Vertices\n" + n(v) + b"\n0 0 0 1\n1 0 0 1\n0 1 0 1\nEnd\n", 3),
    "ascii Triangles count": (lambda v: MEDIT_HEAD + MEDIT_VERTS + b"Triangles\n" + n(v) + b"\n1 2 3 0\nEnd\n", 1),
    "ascii TetrahedraP2 count": (
        lambda v: MEDIT_HEAD + MEDIT_VERTS + b"TetrahedraP2\n" + n(v) + b"\n1 2 3 1 2 3 1 2 3 1 0\nEnd\n", 1),
    "meshb v4 Vertices count": (lambda v: meshb(4, meshb_keyword(4, 4, v, M4_VERTS)), 3),
    "meshb v4 Triangles count": (
        lambda v: meshb(4, meshb_keyword(4, 4, 3, M4_VERTS), meshb_keyword(4, 6, v, struct.pack("<4q", 1, 2, 3, 0))), 1),
    "meshb v3 Vertices count": (lambda v: meshb(3, meshb_keyword(3, 4, v, M3_VERTS)), 3),
    "meshb v3 Tetrahedra count": (
        lambda v: meshb(3, meshb_keyword(3, 4, 3, M3_VERTS), meshb_keyword(3, 8, v, struct.pack("<5i", 1, 2, 3, 1, 0))), 1),
    # An unknown keyword (Corners, code 13) skipped through its next-keyword offset.
    "meshb v4 next-keyword offset": (
        lambda v: meshb(4, meshb_keyword(4, 4, 3, M4_VERTS),
                        meshb_keyword(4, 13, 1, struct.pack("<q", 1), next_offset=v if v < 2**63 else -1)), 8 + 16 + (20 + 3 * 32) + (20 + 8)),
}

# --- su2 --------------------------------------------------------------------------------
SU2_ELEM = b"NDIME= 2\nNELEM= 1\n5 0 1 2\n"
SU2_POIN = b"NPOIN= 3\n0 0\n1 0\n0 1\n"
SU2 = {
    "NELEM count": (lambda v: b"NDIME= 2\nNELEM= " + n(v) + b"\n5 0 1 2\n" + SU2_POIN, 1),
    "NPOIN count": (lambda v: SU2_ELEM + b"NPOIN= " + n(v) + b"\n0 0\n1 0\n0 1\n", 3),
    "NPOIN count with ghost count": (lambda v: SU2_ELEM + b"NPOIN= " + n(v) + b" 3\n0 0 0\n1 0 1\n0 1 2\n", 3),
    "MARKER_ELEMS count": (
        lambda v: SU2_ELEM + SU2_POIN + b"NMARK= 1\nMARKER_TAG= wall\nMARKER_ELEMS= " + n(v) + b"\n3 0 1\n", 1),
    "NZONE count": (lambda v: b"NZONE= " + n(v) + b"\nIZONE= 1\n" + SU2_ELEM + SU2_POIN, 1),
}

# --- abaqus -----------------------------------------------------------------------------
# An .inp file declares no counts: what a hostile deck can inflate are labels (sparse, any
# size), GENERATE ranges and element names. Each must read (or raise ReadError) at once.
ABQ_NODES = b"*NODE\n1, 0., 0.\n2, 1., 0.\n3, 0., 1.\n"
ABAQUS = {
    "sparse node label": (lambda v: b"*NODE\n" + n(v) + b", 0., 0.\n2, 1., 0.\n3, 0., 1.\n*ELEMENT, TYPE=CPS3\n1, "
                          + n(v) + b", 2, 3\n", 1),
    "sparse element label": (lambda v: ABQ_NODES + b"*ELEMENT, TYPE=CPS3, ELSET=E\n" + n(v) + b", 1, 2, 3\n", 1),
    "sparse GENERATE last": (lambda v: ABQ_NODES + b"*NSET, NSET=A, GENERATE\n1, " + n(v) + b", 1\n", 3),
    "sparse GENERATE increment": (lambda v: ABQ_NODES + b"*NSET, NSET=A, GENERATE\n1, 3, " + n(v) + b"\n", 1),
    "sparse element name node count": (lambda v: ABQ_NODES + b"*ELEMENT, TYPE=CPS" + n(v) + b"\n1, 1, 2, 3\n", 3),
}

# --- nastran ---------------------------------------------------------------------------
# Bulk data declares no counts; what a file can lie with is the size of its ids (sparse:
# they may read, in memory proportional to the cards) and references to grids it lacks.
NAS_GRIDS = b"BEGIN BULK\nGRID,1,,0.,0.,0.\nGRID,2,,1.,0.,0.\n"
NASTRAN = {
    "sparse GRID id": (lambda v: NAS_GRIDS + b"GRID," + n(v) + b",,0.,1.,0.\nCTRIA3,1,1,1,2," + n(v) + b"\nENDDATA\n", 3),
    "element grid id": (lambda v: NAS_GRIDS + b"GRID,3,,0.,1.,0.\nCTRIA3,1,1,1,2," + n(v) + b"\nENDDATA\n", 3),
    "large-field grid id": (
        lambda v: NAS_GRIDS + b"GRID,3,,0.,1.,0.\nCTETRA* 1               1               1               2\n*       3       "
        + b"        " + n(v) + b"\nENDDATA\n", 1),
    "sparse CP id": (lambda v: NAS_GRIDS + b"GRID,3," + n(v) + b",0.,1.,0.\nCTRIA3,1,1,1,2,3\nENDDATA\n", 0),
    "sparse CORD2R id": (
        lambda v: NAS_GRIDS + b"CORD2R," + n(v) + b",0,0.,0.,0.,0.,0.,1.\n+,1.,0.,0.\nGRID,3," + n(v)
        + b",0.,1.,0.\nCTRIA3,1,1,1,2,3\nENDDATA\n", 9),
    "sparse element and property ids": (lambda v: NAS_GRIDS + b"GRID,3,,0.,1.,0.\nCTRIA3," + n(v) + b"," + n(v) + b",1,2,3\n", 1),
}

# --- unv ---------------------------------------------------------------------------------
# The counts a UNV file declares: an element's node count and a group's entity count; labels
# may be sparse.
UNV_NODES = (b"    -1\n  2411\n" + b"".join(n(k).rjust(10) + b"         1         1        11\n" + b"   0.0D+00   1.0D+00   2.0D+00\n"
                                         for k in (1, 2, 3)) + b"    -1\n")


def unv_elem(label=1, count=3, nodes=b"         1         2         3"):
    return (b"    -1\n  2412\n" + n(label).rjust(10) + b"        91         1         1         7" + n(count).rjust(10)
            + b"\n" + nodes + b"\n    -1\n")


UNV = {
    "element node count": (lambda v: UNV_NODES + unv_elem(count=v), 3),
    "group entity count": (
        lambda v: UNV_NODES + unv_elem() + b"    -1\n  2467\n         1         0         0         0         0         0         0"
        + n(v).rjust(10) + b"\ng\n         8         1         0         0\n    -1\n", 1),
    "sparse element label": (lambda v: UNV_NODES + unv_elem(label=v), 1),
    "element node label": (lambda v: UNV_NODES + unv_elem(nodes=b"         1         2" + n(v).rjust(10)), 3),
}

# --- mdpa --------------------------------------------------------------------------------
# MDPA declares no counts; a file can lie with the size of its ids (sparse: they may read, in
# memory proportional to the rows), references to nodes it lacks, and a vector's "[k]".
MDPA_NODES = b"Begin Nodes\n1 0 0 0\n2 1 0 0\n3 0 1 0\nEnd Nodes\n"
MDPA = {
    "sparse node id": (lambda v: MDPA_NODES.replace(b"3 0 1 0", n(v) + b" 0 1 0")
                       + b"Begin Elements Element2D3N\n1 0 1 2 " + n(v) + b"\nEnd Elements\n", 3),
    "element node id": (lambda v: MDPA_NODES + b"Begin Elements Element2D3N\n1 0 1 2 " + n(v) + b"\nEnd Elements\n", 3),
    "sparse element and property ids": (lambda v: MDPA_NODES + b"Begin Elements Element2D3N\n" + n(v) + b" " + n(v)
                                        + b" 1 2 3\nEnd Elements\nBegin SubModelPart p\nBegin SubModelPartElements\n" + n(v)
                                        + b"\nEnd SubModelPartElements\nEnd SubModelPart\n", 1),
    "vector value size": (lambda v: MDPA_NODES + b"Begin NodalData V\n1 0 [" + n(v) + b"](1,2,3)\nEnd NodalData\n", 3),
}

# --- permas ------------------------------------------------------------------------------
# A PERMAS deck declares no counts; it can lie with the size of its ids and, gzipped, with the
# inflated size its trailer declares (ISIZE, modulo 2^32).
PERMAS_COOR = b"$COOR\n1 0 0 0\n2 1 0 0\n3 0 1 0\n"


def permas_gzip_isize(v):
    import gzip

    packed = bytearray(gzip.compress(PERMAS_COOR + b"$ELEMENT TYPE = TRIA3\n1 1 2 3\n$FIN\n", mtime=0))
    packed[-4:] = struct.pack("<I", v % 2**32)
    return bytes(packed)


PERMAS = {
    "sparse node id": (lambda v: PERMAS_COOR + n(v) + b" 0 0 1\n$ELEMENT TYPE = TRIA3\n1 1 2 " + n(v) + b"\n", 3),
    "element node id": (lambda v: PERMAS_COOR + b"$ELEMENT TYPE = TRIA3\n1 1 2 " + n(v) + b"\n", 3),
    "sparse element id in a set": (lambda v: PERMAS_COOR + b"$ELEMENT TYPE = TRIA3 ESET = A\n" + n(v) + b" 1 2 3\n$ESET NAME = B\n"
                                   + n(v) + b"\n", 1),
    "gzip ISIZE": (permas_gzip_isize, len(PERMAS_COOR) + 35),
}

# --- flac3d ------------------------------------------------------------------------------
# Binary counts: gridpoints, zones, a zone's gridpoints, groups, a group's name length and
# members; ASCII ids may be sparse.
f3u32 = lambda *v: struct.pack(f"<{len(v)}I", *v)  # noqa: E731
F3_GPS = b"".join(f3u32(k + 1) + f64(*p) for k, p in enumerate([(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]))
F3_ZONE = f3u32(1, 4, 1, 2, 3, 4)


def f3(gps=4, zones=1, zone=F3_ZONE, groups=1, name=3, members=1):
    c = lambda v: min(v, 2**32 - 1)  # noqa: E731 - a lie past 32 bits is the largest count
    group = struct.pack("<H", name) + b"abc" + struct.pack("<H", 1) + b"1" + f3u32(c(members)) + f3u32(1)
    return f3u32(1375135718, 3, c(gps)) + F3_GPS + f3u32(c(zones)) + zone + f3u32(c(groups)) + group + f3u32(0, 0)


FLAC3D = {
    "binary gridpoint count": (lambda v: f3(gps=v), 4),
    "binary zone count": (lambda v: f3(zones=v), 1),
    "binary zone gridpoint count": (lambda v: f3(zone=f3u32(1, min(v, 2**32 - 1), 1, 2, 3, 4)), 4),
    "binary group count": (lambda v: f3(groups=v), 1),
    "binary group name length": (lambda v: f3(name=v if v < 2**16 else 2**16 - 1), 3),
    "binary group member count": (lambda v: f3(members=v), 1),
    "sparse gridpoint id": (lambda v: b"G 1 0 0 0\nG 2 1 0 0\nG 3 0 1 0\nG " + n(v) + b" 0 0 1\nZ T4 1 1 2 3 " + n(v) + b"\n", 4),
    "sparse zone id in a group": (lambda v: b"G 1 0 0 0\nG 2 1 0 0\nG 3 0 1 0\nG 4 0 0 1\nZ T4 " + n(v) + b" 1 2 3 4\n"
                                  + b"ZGROUP \"g\" SLOT 1\n " + n(v) + b"\n", 1),
}

# --- exodus ---------------------------------------------------------------------------
# A small Exodus II file in netCDF's CDF5 flavour (64-bit dimension lengths, so every lie
# fits), made once by netCDF4-python; each case rewrites one big-endian dimension length
# (a dimension entry is its name, padded to 4 bytes, then the length) or the record count
# (bytes 4-12 of a CDF5 header).
_EXODUS_TEMPLATE = None


def _exodus_template() -> bytes:
    global _EXODUS_TEMPLATE
    if _EXODUS_TEMPLATE is None:
        import tempfile

        import netCDF4
        import numpy as np

        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "t.e"
            with netCDF4.Dataset(path, "w", format="NETCDF3_64BIT_DATA") as nc:
                for name, size in [("len_name", 33), ("num_dim", 3), ("num_nodes", 3), ("num_el_blk", 1),
                                   ("num_el_in_blk1", 1), ("num_nod_per_el1", 3), ("num_node_sets", 1),
                                   ("num_nod_ns1", 2), ("num_side_sets", 1), ("num_side_ss1", 1), ("num_nod_var", 1),
                                   ("time_step", None)]:
                    nc.createDimension(name, size)
                for k, c in enumerate("xyz"):
                    nc.createVariable(f"coord{c}", "f8", ("num_nodes",))[:] = np.eye(3)[k]
                con = nc.createVariable("connect1", "i4", ("num_el_in_blk1", "num_nod_per_el1"))
                con.elem_type = "TRI3"
                con[:] = [[1, 2, 3]]
                nc.createVariable("node_ns1", "i4", ("num_nod_ns1",))[:] = [1, 2]
                nc.createVariable("elem_ss1", "i4", ("num_side_ss1",))[:] = [1]
                nc.createVariable("side_ss1", "i4", ("num_side_ss1",))[:] = [3]
                names = nc.createVariable("name_nod_var", "S1", ("num_nod_var", "len_name"))
                names[0, 0] = b"u"
                nc.createVariable("time_whole", "f8", ("time_step",))[:] = [0.0]
                nc.createVariable("vals_nod_var1", "f8", ("time_step", "num_nodes"))[:] = [[1.0, 2.0, 3.0]]
            _EXODUS_TEMPLATE = path.read_bytes()
    return _EXODUS_TEMPLATE


def exodus_dim(name: str):
    def build(v):
        data = bytearray(_exodus_template())
        key = name.encode() + b"\0" * (-len(name) % 4)
        at = data.index(struct.pack(">q", len(name)) + key) + 8 + len(key)
        data[at: at + 8] = struct.pack(">q", v)
        return bytes(data)
    return build


def exodus_records(v):
    data = bytearray(_exodus_template())
    data[4:12] = struct.pack(">q", v)
    return bytes(data)


EXODUS = {
    "num_nodes": (exodus_dim("num_nodes"), 3),
    "num_el_in_blk1": (exodus_dim("num_el_in_blk1"), 1),
    "num_nod_per_el1": (exodus_dim("num_nod_per_el1"), 3),
    "num_el_blk": (exodus_dim("num_el_blk"), 1),
    "num_nod_ns1": (exodus_dim("num_nod_ns1"), 2),
    "num_side_ss1": (exodus_dim("num_side_ss1"), 1),
    "num_nod_var": (exodus_dim("num_nod_var"), 1),
    "len_name": (exodus_dim("len_name"), 33),
    "time_step records": (exodus_records, 1),
}

# --- dolfin-xml: the vertices and cells lists declare their sizes -------------------------
def dolfin(nv, nc):
    return (b'<dolfin><mesh celltype="triangle" dim="2"><vertices size="' + n(nv) + b'">'
            b'<vertex index="0" x="0" y="0"/><vertex index="1" x="1" y="0"/><vertex index="2" x="0" y="1"/></vertices>'
            b'<cells size="' + n(nc) + b'"><triangle index="0" v0="0" v1="1" v2="2"/></cells></mesh></dolfin>')


DOLFIN = {
    "vertices size": (lambda v: dolfin(v, 1), 3),
    "cells size": (lambda v: dolfin(3, v), 1),
}

# --- netgen: every section declares its row count -----------------------------------------
def netgen(points=3, surface=1, volume=1, edges=1, names=1):
    return (b"mesh3d\ndimension\n3\nsurfaceelements\n" + n(surface) + b"\n1 1 0 0 3 1 2 3\n"
            b"volumeelements\n" + n(volume) + b"\n1 4 1 2 3 1\n"
            b"edgesegmentsgi2\n" + n(edges) + b"\n1 0 1 2 -1 -1 0 0 1 0 1 0\n"
            b"points\n" + n(points) + b"\n0 0 0\n1 0 0\n0 1 0\n"
            b"materials\n" + n(names) + b"\n1 steel\nendmesh\n")


NETGEN = {
    "points count": (lambda v: netgen(points=v), 3),
    "surfaceelements count": (lambda v: netgen(surface=v), 1),
    "volumeelements count": (lambda v: netgen(volume=v), 1),
    "edgesegmentsgi2 count": (lambda v: netgen(edges=v), 1),
    "materials count": (lambda v: netgen(names=v), 1),
}

# --- neuroglancer: the vertex count is the only count ---------------------------------------
NEUROGLANCER = {
    # four vertices (one unused), so that 2^32 + 3 wrapping to 3 is still a lie
    "vertex count": (lambda v: struct.pack("<I", v % 2**32) + struct.pack("<12f", 0, 0, 0, 1, 0, 0, 0, 1, 0, 5, 5, 5)
                     + struct.pack("<3I", 0, 1, 2), 4),
}

# --- tetgen -----------------------------------------------------------------------------
# A .node read alone (points only): the point count and the attribute count of its header.
TETGEN = {
    ".node point count": (lambda v: b"# points\n" + n(v) + b" 3 0 1\n1 0 0 0 5\n2 1 0 0 5\n3 0 1 0 5\n", 3),
    ".node attribute count": (lambda v: b"3 3 " + n(v) + b" 0\n1 0 0 0 0.5\n2 1 0 0 0.5\n3 0 1 0 0.5\n", 1),
}

# --- ugrid ------------------------------------------------------------------------------
# ASCII (x.ugrid): the node, triangle and hexahedron counts of the header.
UGRID_PTS = b"0 0 0\n1 0 0\n0 1 0\n"
UGRID = {
    "node count": (lambda v: n(v) + b" 1 0 0 0 0 0\n" + UGRID_PTS + b"1 2 3\n7\n", 3),
    "triangle count": (lambda v: b"3 " + n(v) + b" 0 0 0 0 0\n" + UGRID_PTS + b"1 2 3\n7\n", 1),
    "hexahedron count": (lambda v: b"3 1 0 0 0 0 " + n(v) + b"\n" + UGRID_PTS + b"1 2 3\n7\n" + b"1 2 3 1 2 3 1 2\n" * min(v, 1), 0),
}

# --- ansys -----------------------------------------------------------------------------
# Counts are id ranges (first, last) in hexadecimal: the lie is the last id.
ANS_NODES = b"(2 2)\n(10 (1 1 3 1 2)(\n0 0\n1 0\n0 1\n))\n"
ANS_FACES = b"(13 (3 1 3 3 2)(\n1 2 1 0\n2 3 1 0\n3 1 1 0\n))\n"
ANSYS = {
    "node section last id": (lambda v: b"(2 2)\n(10 (1 1 " + n(v) + b" 1 2)(\n0 0\n1 0\n0 1\n))\n" + ANS_FACES, 3),
    "binary node section last id": (lambda v: b"(2 2)\n(3010 (1 1 " + n(v) + b" 1 2)(" + struct.pack("<6d", 0, 0, 1, 0, 0, 1)
                                    + b")End of Binary Section 3010)\n" + ANS_FACES, 3),
    "face section last id": (lambda v: ANS_NODES + b"(13 (3 1 " + n(v) + b" 3 2)(\n1 2 1 0\n2 3 1 0\n3 1 1 0\n))\n", 3),
    "cell declaration": (lambda v: ANS_NODES + b"(12 (0 1 " + n(v) + b" 0))\n" + ANS_FACES, 1),
    "cell zone last id": (lambda v: ANS_NODES + b"(12 (2 1 " + n(v) + b" 1 1))\n" + ANS_FACES, 1),
    "meshio cell section last id": (lambda v: ANS_NODES + b"(12 (1 1 " + n(v) + b" 1 1)(\n1 2 3\n))\n", 1),
}

def xdmf(points=3, cells=1, values=3):
    """An XDMF file with inline heavy data; each count may lie."""
    return (b'<?xml version="1.0"?>\n<Xdmf Version="3.0"><Domain><Grid Name="g">'
            b'<Geometry GeometryType="XYZ"><DataItem DataType="Float" Precision="8" Format="XML" Dimensions="'
            + n(points) + b' 3">0 0 0 1 0 0 0 1 0</DataItem></Geometry>'
            b'<Topology TopologyType="Triangle" NumberOfElements="1"><DataItem DataType="Int" Precision="8" '
            b'Format="XML" Dimensions="' + n(cells) + b' 3">0 1 2</DataItem></Topology>'
            b'<Attribute Name="u" Center="Node"><DataItem Format="XML" Dimensions="' + n(values)
            + b'">1 2 3</DataItem></Attribute></Grid></Domain></Xdmf>\n')


XDMF = {
    "Geometry Dimensions": (lambda v: xdmf(points=v), 3),
    "Topology Dimensions": (lambda v: xdmf(cells=v), 1),
    "Attribute Dimensions": (lambda v: xdmf(values=v), 3),
}

# --- pvtu, pvtp, pvd: collections --------------------------------------------------------------
# A collection declares no counts of its own (NumberOfComponents of its PDataArrays, checked
# against the pieces); the counts are its pieces'. The pieces are written beside the cases'
# files, in one folder made at import, and named by absolute path.
PIECES = Path(tempfile.mkdtemp(prefix="meshiopp_header_lie_pieces_"))


def piece_file(data: bytes, ext: str = ".vtu") -> bytes:
    path = PIECES / (hashlib.sha256(data).hexdigest()[:20] + ext)
    path.write_bytes(data)
    return str(path).encode()


U_DATA = b'<PointData>\n<DataArray type="Float64" Name="u" format="ascii">1 2 3</DataArray>\n</PointData>\n'


def pvtu(piece: bytes, components=1, grid=b"PUnstructuredGrid", ext=".vtu") -> bytes:
    declared = (b'<PPointData><PDataArray type="Float64" Name="u" NumberOfComponents="' + n(components) + b'"/></PPointData>\n'
                if components is not None else b"")
    return (b'<?xml version="1.0"?>\n<VTKFile type="' + grid + b'" version="1.0">\n<' + grid + b' GhostLevel="0">\n' + declared
            + b'<PPoints><PDataArray type="Float64" Name="Points" NumberOfComponents="3"/></PPoints>\n'
            b'<Piece Source="' + piece_file(piece, ext) + b'"/>\n</' + grid + b'>\n</VTKFile>\n')


def pvd(piece: bytes, part=0) -> bytes:
    return (b'<?xml version="1.0"?>\n<VTKFile type="Collection" version="0.1">\n<Collection>\n<DataSet timestep="0" part="'
            + n(part) + b'" file="' + piece_file(piece) + b'"/>\n</Collection>\n</VTKFile>\n')


PVTU = {
    "PDataArray NumberOfComponents": (lambda v: pvtu(vtu(point_data=U_DATA), components=v), 1),
    "piece NumberOfPoints": (lambda v: pvtu(vtu(npoints=v, point_data=U_DATA)), 3),
    "piece NumberOfCells": (lambda v: pvtu(vtu(ncells=v, point_data=U_DATA)), 1),
}
PVTP = {
    "piece NumberOfPoints": (lambda v: pvtu(vtp(npoints=v), None, b"PPolyData", ".vtp"), 3),
    "piece NumberOfPolys": (lambda v: pvtu(vtp(npolys=v), None, b"PPolyData", ".vtp"), 1),
}
PVD = {
    "dataset NumberOfPoints": (lambda v: pvd(vtu(npoints=v)), 3),
    # A part is a label, not a count: a huge one reads (or overflows to ReadError).
    "sparse part": (lambda v: pvd(vtu(), part=v), 0),
}

# --- vtkhdf: the partition counts are int64 datasets ---------------------------------------
# A one-partition VTKHDF file (3 points, 1 triangle) made once by h5py in a subprocess (h5py
# and meshio++ each hold HDF5's global state), which also reports the file offset of each
# count dataset's (contiguous) value; each case rewrites one of them.
_VTKHDF_MAKER = r"""
import io, json, sys, numpy as np, h5py
buf = io.BytesIO()
with h5py.File(buf, "w", libver="latest") as f:  # the compact file format: under 4 KiB
    g = f.create_group("VTKHDF")
    g.attrs["Version"] = np.array([1, 0], dtype=np.int64)
    counts = {"NumberOfPoints": 3, "NumberOfCells": 1, "NumberOfConnectivityIds": 3}
    for k, v in counts.items():
        g.create_dataset(k, data=np.array([v], dtype=np.int64))
    g["Points"] = np.array([[0.0, 0, 0], [1, 0, 0], [0, 1, 0]])
    g["Offsets"] = np.array([0, 3], dtype=np.int64)
    g["Connectivity"] = np.array([0, 1, 2], dtype=np.int64)
    g["Types"] = np.array([5], dtype=np.uint8)
    g.create_group("PointData")["u"] = np.array([1.0, 2.0, 3.0])
    offsets = {k: g[k].id.get_offset() for k in counts}
sys.stdout.write(json.dumps({"offsets": offsets, "bytes": buf.getvalue().hex()}))
"""


_H5PY_TEMPLATES = {}


def h5py_count(maker: str, name: str):
    """A case rewriting the int64 count `name` of the file h5py's `maker` script makes (run
    once, in a subprocess: h5py and meshio++ each hold HDF5's global state; it prints the
    file's bytes and each count's file offset)."""
    def build(v):
        if maker not in _H5PY_TEMPLATES:
            out = subprocess.run(["/usr/bin/python3", "-c", maker], check=True, capture_output=True, text=True).stdout
            made = json.loads(out)
            _H5PY_TEMPLATES[maker] = (bytes.fromhex(made["bytes"]), made["offsets"])
        data, offsets = _H5PY_TEMPLATES[maker]
        data = bytearray(data)
        data[offsets[name]: offsets[name] + 8] = struct.pack("<Q", v)
        return bytes(data)
    return build


VTKHDF = {name: (h5py_count(_VTKHDF_MAKER, name), true) for name, true in
          [("NumberOfPoints", 3), ("NumberOfCells", 1), ("NumberOfConnectivityIds", 3)]}

# --- med: the entity counts are NBR attributes (int64 scalars as h5py writes them) ---------
# A MED file as meshio lays it out (3 points, 1 triangle), made by h5py in a subprocess once
# per (count, value) the cases ask (h5py and meshio++ each hold HDF5's global state): the
# compact file format checksums its object headers, so a value cannot be patched in place.
_MED_FILES: dict = {}
_MED_MAKER = r"""
import io, json, sys, numpy as np, h5py
out = {}
for which, v in json.loads(sys.argv[1]):
    buf = io.BytesIO()
    with h5py.File(buf, "w", libver="latest") as f:  # the compact file format: under 4 KiB
        m = f.create_group("ENS_MAA/mesh")
        m.attrs["ESP"] = 2
        s = m.create_group("-0000000000000000001-0000000000000000001")
        coo = s.create_dataset("NOE/COO", data=np.array([0.0, 1.0, 0.0, 0.0, 0.0, 1.0]))
        coo.attrs["NBR"] = np.uint64(v if which == "COO" else 3)
        nod = s.create_dataset("MAI/TR3/NOD", data=np.array([1, 2, 3], dtype=np.int64))
        nod.attrs["NBR"] = np.uint64(v if which == "NOD" else 1)
    out[f"{which}:{v}"] = buf.getvalue().hex()
sys.stdout.write(json.dumps(out))
"""


def med_count(name: str):
    def build(v):
        if f"{name}:{v}" not in _MED_FILES:
            wanted = [[k, x] for k in ("COO", "NOD") for x in (*LIES, 3, 1, v)]
            out = subprocess.run(["/usr/bin/python3", "-c", _MED_MAKER, json.dumps(wanted)], check=True,
                                 capture_output=True, text=True).stdout
            _MED_FILES.update({k: bytes.fromhex(h) for k, h in json.loads(out).items()})
        return _MED_FILES[f"{name}:{v}"]
    return build


MED = {"NOE/COO@NBR": (med_count("COO"), 3), "MAI/TR3/NOD@NBR": (med_count("NOD"), 1)}
# --- h5m, hmf: node ids and point indices in the connectivity datasets -----------------------
# Each template is written once by h5py in a subprocess (h5py_count, as VTKHDF's), which
# reports the file offset of the (contiguous, int64) dataset holding the value each case rewrites.
_H5M_MAKER = r"""
import io, json, sys, numpy as np, h5py
buf = io.BytesIO()
with h5py.File(buf, "w", libver="latest") as f:
    t = f.create_group("tstt")
    c = t.create_dataset("nodes/coordinates", data=np.array([[0.0, 0, 0], [1, 0, 0], [0, 1, 0]]))
    c.attrs.create("start_id", 1, dtype="i8")
    e = t.create_dataset("elements/Tri3/connectivity", data=np.array([[0, 2, 3]], dtype=np.int64))
    e.attrs.create("start_id", 4, dtype="i8")
    offsets = {"connectivity": e.id.get_offset()}
sys.stdout.write(json.dumps({"offsets": offsets, "bytes": buf.getvalue().hex()}))
"""
_HMF_MAKER = r"""
import io, json, sys, numpy as np, h5py
buf = io.BytesIO()
with h5py.File(buf, "w", libver="latest") as f:
    # fixed-length strings (meshio++ reads both kinds): a variable-length one costs a 4 KiB global heap
    f.attrs["type"] = np.bytes_("hmf")
    f.attrs["version"] = np.bytes_("0.1-alpha")
    g = f.create_group("domain/grid")
    g["Geometry"] = np.array([[0.0, 0, 0], [1, 0, 0], [0, 1, 0]])
    g["Geometry"].attrs["GeometryType"] = np.bytes_("XYZ")
    t = g.create_dataset("Topology0", data=np.array([[0, 1, 2]], dtype=np.int64))
    t.attrs["TopologyType"] = np.bytes_("Triangle")
    offsets = {"Topology0": t.id.get_offset()}
sys.stdout.write(json.dumps({"offsets": offsets, "bytes": buf.getvalue().hex()}))
"""


# --- cgns: the zone size and ElementRange are int64 datasets --------------------------------
# A CGNS/HDF5 file (2 points on a line, 1 BAR_2; nodes carry
# only their label, all the reader needs, to stay under 4 KiB) made once by h5py in a
# subprocess, which also reports each count dataset's file offset; each case rewrites one.
_CGNS_MAKER = r"""
import io, json, sys, numpy as np, h5py
buf = io.BytesIO()
def node(parent, name, label, data=None):
    g = parent.create_group(name) if name else parent
    if label:  # nodes the reader finds by name go without
        g.attrs["label"] = np.array(label.encode(), dtype="S33")
    if data is not None:
        g.create_dataset(" data", data=data)
    return g
with h5py.File(buf, "w", libver="latest") as f:
    node(f, None, "Root Node of HDF5 File")
    b = node(f, "B", "CGNSBase_t", np.array([1, 1], np.int32))
    z = node(b, "Z", "Zone_t", np.array([[2], [1], [0]], np.int64))
    node(node(z, "GridCoordinates", ""), "CoordinateX", "", np.array([0.0, 1.0]))
    e = node(z, "E", "Elements_t", np.array([3, 0], np.int32))
    node(e, "ElementRange", "", np.array([1, 1], np.int64))
    node(e, "ElementConnectivity", "", np.array([1, 2], np.int64))
    at = lambda path: f[path].id.get_offset()
    offsets = {"zone vertices": at("B/Z/ data"), "ElementRange end": at("B/Z/E/ElementRange/ data") + 8}
sys.stdout.write(json.dumps({"offsets": offsets, "bytes": buf.getvalue().hex()}))
"""


H5M = {"node id in connectivity": (h5py_count(_H5M_MAKER, "connectivity"), 1)}
HMF = {"point index in Topology0": (h5py_count(_HMF_MAKER, "Topology0"), 0)}
CGNS = {name: (h5py_count(_CGNS_MAKER, name), true) for name, true in [("zone vertices", 2), ("ElementRange end", 1)]}

CASES = {"vtp": VTP, "vts": structured_cases("StructuredGrid"), "vtr": structured_cases("RectilinearGrid"),
         "vti": structured_cases("ImageData"), "gmsh": GMSH, "vtu": VTU, "vtk": VTK, "ply": PLY, "obj": OBJ, "stl": STL, "off": OFF, "medit": MEDIT, "su2": SU2, "abaqus": ABAQUS, "nastran": NASTRAN, "unv": UNV, "exodus": EXODUS, "dolfin-xml": DOLFIN, "netgen": NETGEN, "neuroglancer": NEUROGLANCER}
CASES["mdpa"] = MDPA
CASES["permas"] = PERMAS
CASES["flac3d"] = FLAC3D
CASES["tetgen"] = TETGEN
CASES["ugrid"] = UGRID
CASES["ansys"] = ANSYS
CASES["xdmf"] = XDMF
CASES["pvtu"] = PVTU
CASES["pvtp"] = PVTP
CASES["pvd"] = PVD
CASES["avsucd"] = AVSUCD
CASES["tecplot"] = TECPLOT
CASES["wkt"] = WKT
CASES["vtkhdf"] = VTKHDF
CASES["med"] = MED
CASES["h5m"] = H5M
CASES["hmf"] = HMF
CASES["cgns"] = CGNS


def run_worker(fmt: str, files: list[Path], tmp_path: Path) -> dict:
    result = tmp_path / "result.json"
    try:
        proc = subprocess.run(
            [sys.executable, str(WORKER), "--files", fmt, str(result), str(AS_LIMIT)] + [str(f) for f in files],
            capture_output=True, timeout=600,
        )
    except subprocess.TimeoutExpired as e:
        lines = (e.stdout or b"").decode(errors="replace").splitlines()
        pytest.fail(f"the reader never finished {lines[-1] if lines else '?'} (a hang)")
    if proc.returncode != 0 or not result.exists():
        lines = proc.stdout.decode(errors="replace").splitlines()
        pytest.fail(f"the reader process died (exit {proc.returncode}) on {lines[-1] if lines else '?'}\n"
                    + proc.stderr.decode(errors="replace")[-3000:])
    return json.loads(result.read_text())


def test_every_reader_has_header_lie_cases():
    missing = [fmt for fmt in hostile.readable_formats() if fmt not in CASES]
    assert not missing, f"readers with no header-lie cases in {Path(__file__).name}: {missing}"


@pytest.mark.parametrize("fmt", [f for f in hostile.readable_formats() if f in CASES])
def test_a_small_file_declaring_huge_counts_raises_read_error_at_once(fmt, tmp_path):
    ext = (mio.formats()[fmt]["extensions"] or [""])[0]
    files, expect = [], {}
    for k, (name, (build, truth)) in enumerate(CASES[fmt].items()):
        good = tmp_path / f"case{k}_truth{ext}"
        good.write_bytes(build(truth))
        files.append(good)
        expect[str(good)] = (name, "truth")
        for j, lie in enumerate(LIES):
            bad = tmp_path / f"case{k}_lie{j}{ext}"
            bad.write_bytes(build(lie))
            assert bad.stat().st_size < 4096
            files.append(bad)
            expect[str(bad)] = (name, lie)
    results = run_worker(fmt, files, tmp_path)
    problems = []
    for path, r in results.items():
        name, what = expect[path]
        label = f"{fmt} {name} = {what}"
        outcome = r["outcome"]
        if what == "truth":
            if outcome != "mesh":
                problems.append(f"{label}: the truthful twin must read (the case is wrong otherwise): {outcome}")
            elif r["max_request"] == 0:
                problems.append(f"{label}: the counting allocator saw none of the reader's buffers")
            continue
        sparse = name.startswith("sparse")
        if not (outcome.startswith("ReadError") or (sparse and outcome == "mesh")):
            problems.append(f"{label}: expected ReadError, got {outcome[:300]}")
        if r["max_request"] > MAX_REQUEST:
            problems.append(f"{label}: asked the allocator for {r['max_request']} bytes")
    assert not problems, "\n".join(problems)
