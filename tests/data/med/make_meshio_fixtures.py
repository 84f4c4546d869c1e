"""Makes the meshio-written MED fixtures of this folder with Debian's meshio 5.0.0 (h5py
3.7, HDF5 1.10.8): python3 make_meshio_fixtures.py (see README.md)."""
import numpy as np
import meshio

points = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0], [0.5, 0.5, 1.0]])
cells = [("triangle", np.array([[0, 1, 2], [0, 2, 3]])), ("tetra", np.array([[0, 1, 2, 4]])),
         ("pyramid", np.array([[0, 1, 2, 3, 4]]))]
mesh = meshio.Mesh(
    points,
    cells,
    point_data={"point_tags": np.array([0, 1, 1, 2, 0]), "u": np.arange(15, dtype=float).reshape(5, 3),
                "t": np.linspace(0.0, 1.0, 5)},
    cell_data={"cell_tags": [np.array([-1, -1]), np.array([-2]), np.array([0])],
               "rho": [np.array([1.0, 2.0]), np.array([3.0]), np.array([4.0])]},
)
mesh.point_tags = {1: ["bottom"], 2: ["bottom", "top"]}
mesh.cell_tags = {-1: ["skin"], -2: ["volume", "solid part"]}
meshio.write("meshio_mixed.med", mesh)
