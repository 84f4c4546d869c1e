"""Writes the extra MED fuzz seeds of this folder with meshio++'s own writer:
    .venv/bin/python tests/fuzz/seeds/med/make_seeds.py
mpp_regions_fields.med: triangles + a quad + a line, point / cell regions (families with
groups), a point vector, a cell scalar and per-cell-node values (NOE.<type> supports)."""
from pathlib import Path

import numpy as np

import meshioplusplus as mio

HERE = Path(__file__).resolve().parent

mesh = mio.Mesh(
    np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [2.0, 0.5]]),
    [("triangle", np.array([[0, 1, 2], [0, 2, 3]])), ("quad", np.array([[1, 4, 2, 2]])), ("line", np.array([[0, 1]]))],
    point_data={"u": np.arange(10.0).reshape(5, 2)},
    cell_data={"rho": [np.array([1.0, 2.0]), np.array([3.0]), np.array([4.0])],
               "elno": [np.zeros((2, 3, 1)), np.ones((1, 4, 1)), np.full((1, 2, 1), 2.0)]},
)
mesh.point_sets = {"left": np.array([0, 3]), "tip": np.array([4])}
mesh.cell_sets = {"skin": [np.array([], dtype=int), np.array([], dtype=int), np.array([0])],
                  "body": [np.array([0, 1]), np.array([0]), np.array([], dtype=int)]}
mio.write(HERE / "mpp_regions_fields.med", mesh)
