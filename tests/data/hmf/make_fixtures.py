"""Makes the HMF fixtures of this folder with meshio 5.0.0's own HMF writer (Debian
python3-meshio 5.0.0, python3-h5py 3.7, HDF5 1.10.8):

    /usr/bin/python3 tests/data/hmf/make_fixtures.py

- meshio_mixed.hmf: triangles, a quad, a tetrahedron and a line (blocks of four types),
  point data of float64, of int32 x 2 and of float32 x 3 x 3, cell data of int64 and of
  float64 x 2; meshio's default compression (gzip 4, chunked).
- meshio_plain.hmf: the same mesh, no compression (the values lie contiguous).
"""
import warnings
from pathlib import Path

import meshio
import numpy as np

HERE = Path(__file__).resolve().parent

points = np.array([[0.0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0.5, 0.5, 1.0]])
cells = [
    ("triangle", np.array([[0, 1, 2], [0, 2, 3]])),
    ("quad", np.array([[0, 1, 2, 3]])),
    ("tetra", np.array([[0, 1, 2, 4]])),
    ("line", np.array([[0, 4]])),
]
mesh = meshio.Mesh(
    points,
    cells,
    point_data={"T": points[:, 0] * 2.0, "pair": np.arange(10, dtype=np.int32).reshape(5, 2),
                "tensor": np.arange(45, dtype=np.float32).reshape(5, 3, 3)},
    cell_data={"id": [np.array([1, 2]), np.array([3]), np.array([4]), np.array([5])],
               "v": [np.ones((2, 2)), np.full((1, 2), 2.0), np.full((1, 2), 3.0), np.full((1, 2), 4.0)]},
)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # "Experimental file format"
    meshio.hmf.write(HERE / "meshio_mixed.hmf", mesh)
    meshio.hmf.write(HERE / "meshio_plain.hmf", mesh, compression=None, compression_opts=None)
