"""PyTorch on the CPU (Debian python3-torch) as a DLPack consumer: tensors made with
torch.from_dlpack from our arrays share their memory and keep it alive."""
import gc

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="PyTorch is a Debian test oracle (python3-torch)")

import meshioplusplus as mio  # noqa: E402
from meshioplusplus._interop import unstructured_payload  # noqa: E402
from test_interop_vtk import churn, owned_mesh  # noqa: E402


def test_tensors_from_mesh_arrays_share_memory():
    mesh = owned_mesh()
    for a in (mesh.points, mesh.cells[0].data, mesh.point_data["T"], mesh.cell_data["id"][0]):
        t = torch.from_dlpack(a)
        assert t.data_ptr() == a.__array_interface__["data"][0]
        assert tuple(t.shape) == a.shape and np.array_equal(t.numpy(), a)
    t = torch.from_dlpack(mesh.points)
    t[0, 0] = 42.0  # the very same memory, both ways
    assert mesh.points[0, 0] == 42.0


def test_tensors_from_payload_arrays_share_the_mesh_and_derived_buffers():
    mesh = owned_mesh()
    p = unstructured_payload(mesh, zero_copy_only=True)
    assert torch.from_dlpack(p.points).data_ptr() == mesh.points.__array_interface__["data"][0]
    assert torch.from_dlpack(p.connectivity).data_ptr() == mesh.cells[0].data.__array_interface__["data"][0]
    mask = torch.from_dlpack(p.point_data["region:apex"])
    assert mask.dtype == torch.int8 and mask.data_ptr() == p.point_data["region:apex"].__array_interface__["data"][0]


def test_tensor_outlives_the_mesh_and_its_cpp_buffer_owner():
    mesh = owned_mesh()
    expected = mesh.points.copy()
    t = torch.from_dlpack(mesh.points)
    del mesh
    churn()
    np.testing.assert_array_equal(t.numpy(), expected)


def test_tensors_from_vtk_backed_meshes_share_vtk_memory():
    grid = mio.to_vtk(owned_mesh())
    mesh = mio.from_vtk(grid)
    t = torch.from_dlpack(mesh.points)
    del grid, mesh
    gc.collect()
    churn()
    assert t[4].tolist() == [0.5, 0.5, 0.5]
