"""Fuzz seeds for the CGNS reader: files meshio++'s own writer makes (the fixtures in
tests/data/cgns/ are the CGNS library's and h5py's). Run: .venv/bin/python tests/fuzz/seeds/cgns/make_seeds.py
  mpp_tet_regions.cgns  2 tetrahedra, point/cell data, a side, a point and a cell region
  mpp_polyhedra.cgns    2 hexahedra as NFACE_n / NGON_n (from tests/data/cgns/poly3.cgns)
  mpp_polygon_2d.cgns   a 2-D polygon and a triangle (NGON_n + TRI_3, CellDimension 2)"""
from pathlib import Path

import numpy as np

import meshioplusplus as mio

HERE = Path(__file__).resolve().parent
tet = mio.Mesh(np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0.5, 0.5, 0.5]]), [("tetra", [[0, 1, 2, 4], [0, 2, 3, 4]])])
tet.point_data = {"p": np.arange(5.0), "v": np.arange(15.0).reshape(5, 3)}
tet.cell_data = {"id": [np.array([1, 2], dtype=np.int32)]}
tet.regions = [mio.Region("wall", "side", [[0, 3]], dim=2), mio.Region("apex", "point", [4]), mio.Region("left", "cell", [0], dim=3)]
mio.write(HERE / "mpp_tet_regions.cgns", tet)
mio.write(HERE / "mpp_polyhedra.cgns", mio.read(HERE.parents[2] / "data" / "cgns" / "poly3.cgns"))
mio.write(HERE / "mpp_polygon_2d.cgns", mio.Mesh(np.array([[0, 0], [1, 0], [2, 0.5], [1, 1], [0, 1]], dtype=float),
                                                [("polygon", [[0, 1, 2, 3, 4]]), ("triangle", [[0, 1, 4]])]))
