"""Writes the hand-made I-DEAS Universal fixtures of this folder (see README.md)."""


def i10(*v):
    return "".join(f"{x:10d}" for x in v) + "\n"


def d25(*v):
    return "".join(f"{f'{x:.16E}'.replace('E', 'D'):>25s}" for x in v) + "\n"


def ds(n, body):
    return f"    -1\n{n:6d}\n" + body + "    -1\n"


def nodes(pts, labels=None):
    return "".join(i10(labels[i] if labels else i + 1, 1, 1, 11) + d25(*p) for i, p in enumerate(pts))


def elem(label, fe, nodes, beam=False, prop=1, mat=1):
    s = i10(label, fe, prop, mat, 7, len(nodes))
    if beam:
        s += i10(0, 1, 1)
    for k in range(0, len(nodes), 8):
        s += i10(*nodes[k:k + 8])
    return s


def ideas(perm):
    """Record order from perm (VTK node i sits at record position perm[i]), labels = VTK index + 1."""
    rec = [0] * len(perm)
    for i, p in enumerate(perm):
        rec[p] = i + 1
    return rec


pts = [(0.0, 0.0, 0.0), (1.5, -2.25, 0.0), (1e-300, 3.0e12, -0.1), (0.5, 0.5, 0.5)]
body = (elem(1, 21, [1, 2], beam=True) + elem(2, 11, [2, 3], beam=True, prop=4) + elem(3, 24, [1, 3, 2], beam=True)
        + elem(4, 91, [1, 2, 3], prop=9, mat=2))
open("beam_and_d_exponents.unv", "w").write(ds(2411, nodes(pts)) + ds(2412, body))

header = "NONE\nNONE\n   I-DEAS Master Series\n26-Mar-01   17:49:32\n"
units = "         1SI - mks (Newton)     2\n" + d25(1.0, 1.0, 1.0) + d25(273.15)
cs = i10(1) + "Part\n" + i10(1, 0, 8) + "CS1\n" + d25(1, 0, 0) + d25(0, 1, 0) + d25(0, 0, 1) + d25(0, 0, 0)
body = elem(1, 111, [1, 2, 3, 4]) + elem(2, 122, [1, 2]) + elem(3, 161, [4])
open("unknown_datasets.unv", "w").write(
    ds(151, header) + ds(164, units) + ds(2420, cs) + ds(2411, nodes([(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]))
    + ds(2412, body) + ds(2414, "         1\nLOAD CASE 1\n"))

pts = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0), (2, 0, 0), (2, 1, 0)]
body = elem(10, 94, [1, 2, 3, 4]) + elem(11, 94, [2, 5, 6, 3]) + elem(12, 21, [1, 2], beam=True)
g67 = i10(5, 0, 0, 0, 0, 0, 0, 3) + "left and bottom\n" + i10(8, 10, 0, 0, 8, 12, 0, 0) + i10(7, 1, 0, 0)
g67 += i10(6, 0, 0, 0, 0, 0, 0, 2) + "corners\n" + i10(7, 1, 0, 0, 7, 6, 0, 0)
g77 = i10(7, 0, 0, 0, 0, 0, 0, 1) + "right\n" + i10(8, 11, 0, 0)
open("groups_2467_2477.unv", "w").write(ds(2411, nodes(pts)) + ds(2412, body) + ds(2467, g67) + ds(2477, g77))

tet = ideas([0, 2, 4, 9, 1, 3, 5, 6, 7, 8])
hexa = ideas([0, 2, 4, 6, 12, 14, 16, 18, 1, 3, 5, 7, 13, 15, 17, 19, 8, 9, 10, 11])
tri6 = ideas([0, 2, 4, 1, 3, 5])
quad8 = ideas([0, 2, 4, 6, 1, 3, 5, 7])
wedge = ideas([0, 2, 4, 9, 11, 13, 1, 3, 5, 10, 12, 14, 6, 7, 8])
pts = [(float(i), 0.0, 0.0) for i in range(20)]
body = elem(1, 118, tet) + elem(2, 116, hexa) + elem(3, 92, tri6) + elem(4, 95, quad8) + elem(5, 113, wedge)
open("quadratic_orders.unv", "w").write(ds(2411, nodes(pts)) + ds(2412, body))

body = elem(7, 91, [1000, 5, 77])
open("elements_before_sparse_nodes.unv", "w").write(
    ds(2412, body) + ds(2411, nodes([(1, 0, 0), (0, 1, 0), (0, 0, 1)], labels=[77, 1000, 5])))
