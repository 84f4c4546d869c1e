"""PyVista and trimesh: not packaged for Debian 12, so their real tests are gated on import
(their payloads are tested in test_interop_payload.py); a missing library raises
ImportError naming what to install."""
import sys

import numpy as np
import pytest

import meshioplusplus as mio
from meshioplusplus._interop import vtk_pointer
from helpers import tri_mesh, tri_quad_mesh


@pytest.mark.parametrize(
    "function, module, hint",
    [
        (mio.to_pyvista, "pyvista", "pip install pyvista"),
        (mio.from_pyvista, "pyvista", "pip install pyvista"),
        (mio.to_trimesh, "trimesh", "pip install trimesh"),
        (mio.from_trimesh, "trimesh", "pip install trimesh"),
    ],
)
def test_missing_library_raises_import_error_naming_the_install(monkeypatch, function, module, hint):
    monkeypatch.setitem(sys.modules, module, None)
    with pytest.raises(ImportError, match=rf"^{function.__name__} needs .*`{hint}`"):
        function(tri_mesh)


def test_pyvista_wraps_the_shared_vtk_grid():
    pv = pytest.importorskip("pyvista", reason="PyVista is not packaged for Debian 12")
    mesh = mio.Mesh(tri_mesh.points.copy(), tri_mesh.cells, point_data={"T": np.arange(4.0)},
                    regions=[mio.Region("r", "point", [1], 0, 3)])
    grid = mio.to_pyvista(mesh, zero_copy_only=True)
    assert isinstance(grid, pv.UnstructuredGrid)
    assert vtk_pointer(grid.GetPoints().GetData()) == mesh.points.__array_interface__["data"][0]
    back = mio.from_pyvista(grid)
    np.testing.assert_array_equal(back.points, mesh.points)
    assert back.regions == mesh.regions


def test_trimesh_round_trip():
    trimesh = pytest.importorskip("trimesh", reason="trimesh is not packaged for Debian 12")
    mesh = mio.Mesh(tri_quad_mesh.points, tri_quad_mesh.cells, regions=[mio.Region("c", "cell", [1], 2, 4)])
    with pytest.warns(mio.InteropWarning, match=r"cells\[1\] \(quad\) dropped"):
        surface = mio.to_trimesh(mesh)
    assert isinstance(surface, trimesh.Trimesh) and surface.faces.tolist() == [[0, 1, 4], [0, 4, 5]]
    back = mio.from_trimesh(surface)
    assert back.cells[0].type == "triangle" and back.regions == [mio.Region("c", "cell", [1], 2, 4)]
