"""Writes the binary Medit fixtures of this folder (.meshb), byte by byte with struct.

Run: /usr/bin/python3 tests/data/medit/make_fixtures.py (no dependencies). The layout is
libMeshb's (https://github.com/LoicMarechal/libMeshb, sources/libmeshb7.c): the int32 1 in
the file's byte order, the int32 version, then keywords, each an int32 code, the offset of
the next keyword (int32 in versions 1-2, int64 in 3-4), for list keywords the count, then
the records. Integers are int32 in versions 1-3 and int64 in 4; reals float32 in version 1,
float64 after. Each file holds MESH (below) or a variant named after the case it tests.
"""
from __future__ import annotations

import struct
from pathlib import Path

HERE = Path(__file__).resolve().parent

# The reference mesh: the same one as reference.mesh in this folder.
POINTS = [(0.0, 0.0, 0.0, 1), (1.0, 0.0, 0.0, 2), (0.0, 1.0, 0.0, 2), (0.0, 0.0, 1.0, 3), (1.0, 1.0, 1.0, 0)]
EDGES = [(1, 2, 7)]  # 1-based node indices, then the reference
TRIANGLES = [(1, 2, 3, 10), (1, 2, 4, 11)]
TETRAHEDRA = [(1, 2, 3, 4, 5), (2, 3, 4, 5, 6)]

CODES = {"Dimension": 3, "Vertices": 4, "Edges": 5, "Triangles": 6, "Quadrilaterals": 7, "Tetrahedra": 8,
         "Corners": 13, "TrianglesP2": 24, "TetrahedraP2": 30, "End": 54}


class MeshB:
    def __init__(self, version: int, big_endian: bool = False):
        self.v = version
        self.e = ">" if big_endian else "<"
        self.ifmt = "q" if version == 4 else "i"
        self.rfmt = "f" if version == 1 else "d"
        self.pfmt = "q" if version >= 3 else "i"
        self.out = bytearray(struct.pack(self.e + "ii", 1, version))

    def _keyword(self, code: int, body: bytes):
        head = struct.pack(self.e + "i", code)
        nxt = len(self.out) + len(head) + struct.calcsize(self.pfmt) + len(body)
        self.out += head + struct.pack(self.e + self.pfmt, nxt) + body

    def dimension(self, d: int):
        self._keyword(CODES["Dimension"], struct.pack(self.e + "i", d))

    def records(self, name: str, rows, fmt_row, code=None):
        body = struct.pack(self.e + self.ifmt, len(rows))
        for r in rows:
            body += struct.pack(self.e + fmt_row, *r)
        self._keyword(code if code is not None else CODES[name], body)

    def vertices(self, rows, dim=3):
        self.records("Vertices", rows, self.rfmt * dim + self.ifmt)

    def elements(self, name, rows):
        self.records(name, rows, self.ifmt * len(rows[0]))

    def end(self):
        self.out += struct.pack(self.e + "i" + self.pfmt, CODES["End"], 0)

    def save(self, name: str):
        (HERE / name).write_bytes(bytes(self.out))


def reference(version: int, big_endian: bool = False) -> MeshB:
    m = MeshB(version, big_endian)
    m.dimension(3)
    m.vertices(POINTS)
    m.elements("Edges", EDGES)
    m.elements("Triangles", TRIANGLES)
    m.elements("Tetrahedra", TETRAHEDRA)
    m.end()
    return m


def main():
    reference(1).save("v1_float32.meshb")
    reference(2).save("v2.meshb")
    reference(3).save("v3.meshb")
    reference(4).save("v4_int64.meshb")
    reference(2, big_endian=True).save("v2_big_endian.meshb")
    reference(4, big_endian=True).save("v4_int64_big_endian.meshb")

    # Unknown keywords, skipped through their next-keyword offsets: Corners (a libMeshb
    # keyword this reader does not use) and code 200 (no keyword at all).
    m = MeshB(3)
    m.dimension(3)
    m.records("Corners", [(1,), (2,)], "i")
    m.vertices(POINTS)
    m.elements("Edges", EDGES)
    m.records("Unknown", [(1.5, 2.5)], "dd", code=200)
    m.elements("Triangles", TRIANGLES)
    m.elements("Tetrahedra", TETRAHEDRA)
    m.end()
    m.save("unknown_keyword.meshb")

    # No End keyword: what was read stands (meshio does the same, with a warning).
    m = reference(2)
    m.out = m.out[: -struct.calcsize("<ii")]
    m.save("no_end.meshb")

    # Dimension 2: triangles and a quadrilateral.
    m = MeshB(2)
    m.dimension(2)
    m.vertices([(0.0, 0.0, 1), (1.0, 0.0, 1), (1.0, 1.0, 2), (0.0, 1.0, 2), (2.0, 0.5, 3), (2.0, 1.5, 3)], dim=2)
    m.elements("Triangles", [(1, 2, 3, 1), (1, 3, 4, 1)])
    m.elements("Quadrilaterals", [(2, 5, 6, 3, 3)])
    m.end()
    m.save("dimension2.meshb")

    # P2 elements: the TetrahedraP2 / TrianglesP2 of p2_elements.mesh.
    pts = [(0.0, 0.0, 0.0, 0), (1.0, 0.0, 0.0, 0), (0.0, 1.0, 0.0, 0), (0.0, 0.0, 1.0, 0),
           (0.5, 0.0, 0.0, 0), (0.5, 0.5, 0.0, 0), (0.0, 0.5, 0.0, 0), (0.0, 0.0, 0.5, 0),
           (0.5, 0.0, 0.5, 0), (0.0, 0.5, 0.5, 0)]
    m = MeshB(2)
    m.dimension(3)
    m.vertices(pts)
    m.elements("TrianglesP2", [(1, 2, 3, 5, 6, 7, 4)])
    m.elements("TetrahedraP2", [(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 9)])
    m.end()
    m.save("p2_elements.meshb")


if __name__ == "__main__":
    main()
