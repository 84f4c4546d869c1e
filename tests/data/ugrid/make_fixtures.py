"""Writes the hand-made UGRID fixtures of this folder byte by byte with `struct`, following
the UGRID layout (https://www.simcenter.msstate.edu/software/documentation/ug_io/3d_grid_file_type_ugrid.html):
run `/usr/bin/python3 tests/data/ugrid/make_fixtures.py`."""
import struct
from pathlib import Path

HERE = Path(__file__).resolve().parent

# A unit cube's corners and an apex above it: one hexahedron, one pyramid on its top face,
# the bottom face as a quad (surface ID 7) and two triangles of the pyramid (IDs 3 and 4).
POINTS = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0), (0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1), (0.5, 0.5, 2)]
TRIS = [(5, 6, 9), (6, 7, 9)]
QUADS = [(1, 2, 3, 4)]
IDS = [3, 4, 7]
# UGRID's pyramid order: base 1 0 . . with the apex third (VTK 5 6 7 8 + apex 9 -> 6 5 9 7 8)
PYRAMIDS = [(6, 5, 9, 7, 8)]
HEXES = [(1, 2, 3, 4, 5, 6, 7, 8)]
COUNTS = (len(POINTS), len(TRIS), len(QUADS), 0, len(PYRAMIDS), 0, len(HEXES))


def body(order, real):
    out = b"".join(struct.pack(f"{order}3{real}", *p) for p in POINTS)
    for rows in (TRIS, QUADS):
        out += b"".join(struct.pack(f"{order}{len(r)}i", *r) for r in rows)
    out += struct.pack(f"{order}{len(IDS)}i", *IDS)
    for rows in (PYRAMIDS, HEXES):
        out += b"".join(struct.pack(f"{order}{len(r)}i", *r) for r in rows)
    return out


def fortran(order, real):
    head = struct.pack(f"{order}7i", *COUNTS)
    b = body(order, real)
    rec = lambda data: struct.pack(f"{order}i", len(data)) + data + struct.pack(f"{order}i", len(data))  # noqa: E731
    return rec(head) + rec(b)


(HERE / "big-endian-with-record-markers.r8.ugrid").write_bytes(fortran(">", "d"))
(HERE / "little-endian-single.lb4.ugrid").write_bytes(struct.pack("<7i", *COUNTS) + body("<", "f"))
