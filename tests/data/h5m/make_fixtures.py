"""Makes the H5M fixtures of this folder (Debian python3-h5py 3.7, HDF5 1.10.8, python3-meshio 5.0.0):

    /usr/bin/python3 tests/data/h5m/make_fixtures.py

- meshio_tri_tet.h5m: meshio 5.0.0's own H5M writer (triangles, a tetrahedron and lines,
  point data of float64 and of int32 x 2), no compression so the values lie contiguous.
- moab_layout.h5m: the layout MOAB's WriteHDF5 writes (no MOAB is packaged in Debian 12,
  so it is reproduced with h5py from MOAB's mhdf description): the elemtypes enum over
  uint8 with MOAB's names Vertex..EntitySet, nodes/coordinates with start_id 1, element
  groups Hex8 and Quad4 (start_ids continuing after the nodes, Quad4 before Hex8 in id
  order but after it by name), a Polyhedron group (connectivity of face ids + poly_indices,
  which meshio++ skips), dense tags GLOBAL_ID (int32) on nodes and elements, a 3-value
  double tag VEL on nodes (an HDF5 array type per node), a sparse MATERIAL_SET tag on one
  set (id_list / values) with sets/list and sets/contents, and the history dataset.
"""
from pathlib import Path

import h5py
import meshio
import numpy as np

HERE = Path(__file__).resolve().parent

# --- meshio's writer -----------------------------------------------------------------------
points = np.array([[0.0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0.5, 0.5, 1.0]])
mesh = meshio.Mesh(
    points,
    [("triangle", np.array([[0, 1, 2], [0, 2, 3]])), ("tetra", np.array([[0, 1, 2, 4]])), ("line", np.array([[0, 4]]))],
    point_data={"T": points[:, 0] * 2.0, "pair": np.arange(10, dtype=np.int32).reshape(5, 2)},
)
meshio.h5m.write(HERE / "meshio_tri_tet.h5m", mesh, compression=None, compression_opts=None)

# --- MOAB's layout -------------------------------------------------------------------------
names = ["Vertex", "Edge", "Tri", "Quad", "Polygon", "Tet", "Pyramid", "Prism", "Knife", "Hex", "Polyhedron", "EntitySet"]
with h5py.File(HERE / "moab_layout.h5m", "w") as f:
    tstt = f.create_group("tstt")
    elem_t = h5py.enum_dtype({n: i for i, n in enumerate(names)}, basetype="u1")
    tstt["elemtypes"] = elem_t
    tstt.create_dataset("history", data=[b"MOAB", b"5.3.0", b"10/02/26", b"12:00:00"])
    # 12 nodes: a 2x1x1 block of hexes' corners.
    xyz = np.array([[x, y, z] for z in (0.0, 1.0) for y in (0.0, 1.0) for x in (0.0, 1.0, 2.0)])
    nodes = tstt.create_group("nodes")
    c = nodes.create_dataset("coordinates", data=xyz)
    c.attrs.create("start_id", 1, dtype="i8")
    ntags = nodes.create_group("tags")
    ntags.create_dataset("GLOBAL_ID", data=np.arange(1, 13, dtype=np.int32))
    vel = ntags.create_dataset("VEL", (12,), dtype=np.dtype((np.float64, (3,))))
    vel[:] = xyz * 10.0
    elements = tstt.create_group("elements")
    # ids: nodes 1..12, Quad4 13..14, Hex8 15..16, Polyhedron 17, set 18
    quad = elements.create_group("Quad4")
    quad.attrs.create("element_type", 3, dtype=elem_t)
    q = quad.create_dataset("connectivity", data=np.array([[1, 2, 5, 4], [2, 3, 6, 5]], dtype=np.int64))
    q.attrs.create("start_id", 13, dtype="i8")
    quad.create_group("tags").create_dataset("GLOBAL_ID", data=np.array([1, 2], dtype=np.int32))
    hexes = elements.create_group("Hex8")
    hexes.attrs.create("element_type", 9, dtype=elem_t)
    h = hexes.create_dataset("connectivity", data=np.array([[1, 2, 5, 4, 7, 8, 11, 10], [2, 3, 6, 5, 8, 9, 12, 11]], dtype=np.int64))
    h.attrs.create("start_id", 15, dtype="i8")
    hexes.create_group("tags").create_dataset("GLOBAL_ID", data=np.array([3, 4], dtype=np.int32))
    poly = elements.create_group("Polyhedron")
    poly.attrs.create("element_type", 10, dtype=elem_t)
    p = poly.create_dataset("connectivity", data=np.array([13, 14], dtype=np.int64))
    p.attrs.create("start_id", 17, dtype="i8")
    poly.create_dataset("poly_indices", data=np.array([1], dtype=np.int64))
    sets = tstt.create_group("sets")
    s = sets.create_dataset("list", data=np.array([[1, -1, -1, 0b1010]], dtype=np.int64))  # end offsets, ranged flag
    s.attrs.create("start_id", 18, dtype="i8")
    sets.create_dataset("contents", data=np.array([15, 2], dtype=np.int64))  # range: 2 ids from 15
    sets.create_group("tags")
    tags = tstt.create_group("tags")
    for name, t in (("GLOBAL_ID", np.int32), ("VEL", np.dtype((np.float64, (3,)))), ("MATERIAL_SET", np.int32)):
        g = tags.create_group(name)
        g["type"] = np.dtype(t)
        g.attrs["class"] = 1 if name == "MATERIAL_SET" else 2
    tags["MATERIAL_SET"].create_dataset("id_list", data=np.array([18], dtype=np.int64))
    tags["MATERIAL_SET"].create_dataset("values", data=np.array([7], dtype=np.int32))
    tstt.attrs.create("max_id", 18, dtype="u8")
