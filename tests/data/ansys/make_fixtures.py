"""Writes the generated fixtures of this folder (see README.md). Independent of meshio++:
faces are found from each cell's own face list here, and each face's node order is set
from the geometry (right-hand normal pointing at c0's centroid), as the Fluent format
describes it. Run: python3 make_fixtures.py (numpy only)."""
import struct

import numpy as np

# Cell faces in local node numbers (any orientation: fixed below from the geometry).
FACES = {
    "tetra": [[0, 1, 2], [0, 1, 3], [1, 2, 3], [0, 2, 3]],
    "pyramid": [[0, 1, 2, 3], [0, 1, 4], [1, 2, 4], [2, 3, 4], [3, 0, 4]],
    "wedge": [[0, 1, 2], [3, 4, 5], [0, 1, 4, 3], [1, 2, 5, 4], [2, 0, 3, 5]],
    "hexahedron": [[0, 1, 2, 3], [4, 5, 6, 7], [0, 1, 5, 4], [1, 2, 6, 5], [2, 3, 7, 6], [3, 0, 4, 7]],
}
CODE = {"tetra": 2, "hexahedron": 4, "pyramid": 5, "wedge": 6, "polyhedron": 7, "triangle": 1, "quad": 3}


def faces_of(points, cells):
    """cells: list of (type, nodes, faces or None). Returns rows (nodes, c0, c1), 1-based."""
    seen = {}
    rows = []
    for ci, (t, nodes, faces) in enumerate(cells):
        fl = faces if faces is not None else [[nodes[i] for i in f] for f in FACES[t]]
        for f in fl:
            key = tuple(sorted(f))
            if key in seen:
                rows[seen[key]][2] = ci + 1
            else:
                seen[key] = len(rows)
                rows.append([list(f), ci + 1, 0])
    for r in rows:  # orient: normal into c0 (the first cell found)
        f, c0 = r[0], r[1]
        p = points[f]
        n = sum(np.cross(p[i] - p[0], p[i + 1] - p[0]) for i in range(1, len(f) - 1))
        cen = points[sorted({v for x in cells[c0 - 1][2] or [[cells[c0 - 1][1][i] for i in g] for g in FACES[cells[c0 - 1][0]]] for v in x})].mean(0)
        if np.dot(n, cen - p.mean(0)) < 0:
            r[0] = f[::-1]
        r[0] = [v + 1 for v in r[0]]
    return rows


def faces_2d(points, cells):
    seen, rows = {}, []
    for ci, (t, nodes) in enumerate(cells):
        for j in range(len(nodes)):
            e = [nodes[j], nodes[(j + 1) % len(nodes)]]
            key = tuple(sorted(e))
            if key in seen:
                rows[seen[key]][2] = ci + 1
            else:
                seen[key] = len(rows)
                rows.append([e, ci + 1, 0])
    for r in rows:  # c0 left of n0 -> n1
        (a, b), c0 = r[0], r[1]
        cen = points[cells[c0 - 1][1]].mean(0)
        d, w = points[b] - points[a], cen - points[a]
        if d[0] * w[1] - d[1] * w[0] < 0:
            r[0] = [b, a]
        r[0] = [v + 1 for v in r[0]]
    return rows


def ascii_file(name, points, cells, rows, comment, zones=True):
    dim = points.shape[1]
    out = [f'(0 "{comment}")', f"(2 {dim})", f"(10 (0 1 {len(points):x} 0))", f"(12 (0 1 {len(cells):x} 0))",
           f"(13 (0 1 {len(rows):x} 0))", f"(10 (1 1 {len(points):x} 1 {dim})("]
    out += [" ".join(f"{v:.17g}" for v in p) for p in points]
    out.append("))")
    types = {c[0] for c in cells}
    if len(types) == 1:
        out.append(f"(12 (2 1 {len(cells):x} 1 {CODE[cells[0][0]]}))")
    else:
        out.append(f"(12 (2 1 {len(cells):x} 1 0)(")
        out.append(" ".join(str(CODE[c[0]]) for c in cells))
        out.append("))")
    interior = [r for r in rows if r[2]]
    boundary = [r for r in rows if not r[2]]
    first = 1
    for zid, bc, part in ((3, 2, interior), (4, 3, boundary)):
        if not part:
            continue
        out.append(f"(13 ({zid:x} {first:x} {first + len(part) - 1:x} {bc} 0)(")
        out += [" ".join(f"{v:x}" for v in [len(f)] + f + [c0, c1]) for f, c0, c1 in part]
        out.append("))")
        first += len(part)
    if zones:
        out += ["(45 (2 fluid fluid)())", "(45 (3 interior default-interior)())", "(45 (4 wall outer)())"]
    open(name, "w").write("\n".join(out) + "\n")


def binary_file(name, points, cells, rows, float_type):
    key = "2010" if float_type == "f4" else "3010"
    b = [f'(0 "{name}: binary sections, Fluent layout (no line break after the opening parenthesis)")\n(2 3)\n'.encode()]
    b.append(f"(10 (0 1 {len(points):x} 0))\n(12 (0 1 {len(cells):x} 0))\n(13 (0 1 {len(rows):x} 0))\n".encode())
    b.append(f"({key} (1 1 {len(points):x} 1 3)(".encode() + points.astype("<" + float_type).tobytes() + f")End of Binary Section {key})\n".encode())
    b.append(f"(12 (2 1 {len(cells):x} 1 2))\n".encode())
    vals = []
    for f, c0, c1 in rows:
        vals += f + [c0, c1]
    b.append(f"(2013 (3 1 {len(rows):x} 3 3)(".encode() + struct.pack(f"<{len(vals)}i", *vals) + b")End of Binary Section 2013)\n")
    b.append(b'(39 (3 wall wall-3)())\n(2059 (1 2 3 4)(\x01\x02)\x28\x29End of Binary Section 2059)\n')
    open(name, "wb").write(b"".join(b))


if __name__ == "__main__":
    # Two tetrahedra sharing a face: binary, double and single precision (plus an unknown
    # binary section 2059 holding parentheses, to skip).
    pts = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]], float)
    cells = [("tetra", [0, 1, 2, 3], None), ("tetra", [1, 2, 3, 4], None)]
    rows = faces_of(pts, cells)
    binary_file("binary_tets.msh", pts, cells, rows, "f8")
    binary_file("binary_tets_float32.msh", pts, cells, rows, "f4")
    # A wedge on a hexahedron, a pyramid beside the hexahedron: mixed cell zone, mixed faces.
    pts = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1],
                    [0.5, 0, 1.8], [0.5, 1, 1.8], [2, 0.5, 0.5]], float)
    cells = [("hexahedron", [0, 1, 2, 3, 4, 5, 6, 7], None), ("wedge", [4, 5, 8, 7, 6, 9], None),
             ("pyramid", [1, 5, 6, 2, 10], None)]
    ascii_file("wedge_pyramid.msh", pts, cells, faces_of(pts, cells), "hexahedron, wedge and pyramid; mixed zones")
    # One polyhedral cell: a cube whose top face is split into two triangles (7 faces).
    pts = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]], float)
    faces = [[0, 1, 2, 3], [0, 1, 5, 4], [1, 2, 6, 5], [2, 3, 7, 6], [3, 0, 4, 7], [4, 5, 6], [4, 6, 7]]
    cells = [("polyhedron", list(range(8)), faces)]
    ascii_file("polyhedron.msh", pts, cells, faces_of(pts, cells), "one polyhedral cell (7 faces)")
    # 2-D: two triangles and a quad.
    pts = np.array([[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [2, 1.5]], float)
    cells = [("quad", [0, 1, 4, 3]), ("triangle", [1, 2, 5]), ("triangle", [1, 5, 4])]
    ascii_file("tri_quad_2d.msh", pts, [(t, n, None) for t, n in cells], faces_2d(pts, cells), "2-D: a quad and two triangles")
