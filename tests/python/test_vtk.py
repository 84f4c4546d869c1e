"""Legacy VTK against the real VTK and meshio 5.0: VTK reads every file we write (4.2 and
5.1, ASCII and binary), we read what VTK's vtkUnstructuredGridWriter writes, meshio reads
what we write and we read what meshio writes, and meshio's vtk round-trip cases."""
from __future__ import annotations

import copy

import numpy as np
import pytest

import helpers
import meshioplusplus as mio
import test_vtk_oracle as oracle
import test_vtu as vtu_cases

meshio = pytest.importorskip("meshio", reason="meshio is the peer for cross-checks")

MESHES = vtu_cases.MESHES
MODES = {
    "51_binary": dict(fmt_version="5.1", binary=True),
    "51_ascii": dict(fmt_version="5.1", binary=False),
    "42_binary": dict(fmt_version="4.2", binary=True),
    "42_ascii": dict(fmt_version="4.2", binary=False),
}


def with_data(mesh):
    mesh = vtu_cases.with_data(mesh)
    mesh.point_data["with space"] = mesh.point_data.pop("a0")  # VTK escapes it as %20
    return mesh


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", MESHES)
def test_vtk_reads_what_we_write(tmp_path, name, mode):
    oracle.assert_vtk_reads_what_we_write(tmp_path / "ours.vtk", with_data(MESHES[name]), **MODES[mode])


@pytest.mark.parametrize("version", ["4.2", "5.1"])
@pytest.mark.parametrize("binary", [True, False])
@pytest.mark.parametrize("name", ["tri_2d", "wedge_pyramid", "quadratic", "polygons", "polyhedra"])
def test_we_read_what_vtk_writes(tmp_path, name, binary, version):
    src = tmp_path / "src.vtu"
    mio.write(src, with_data(MESHES[name]))
    path = oracle.vtk_write_legacy(oracle.vtk_grid_from_file(src), tmp_path / "vtk.vtk", binary, version)
    ours = mio.read(path)
    oracle.assert_flat_equal(oracle.vtk_read(path), oracle.flat_from_mesh(ours))


MESHIO_COMPARABLE = vtu_cases.MESHIO_COMPARABLE


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", MESHIO_COMPARABLE)
def test_meshio_reads_what_we_write(tmp_path, name, mode):
    mesh = vtu_cases.with_data(MESHES[name])
    if mode.startswith("51"):
        # meshio 5.0's 5.1 reader takes "int" as numpy's int (8 bytes) and VTK 9.1 does not
        # know "vtktypeint32": no int32 name works for both, and VTK wins. Leave int32 out.
        mesh.point_data.pop("i32")
        mesh.field_data.pop("fd")
    path = tmp_path / "ours.vtk"
    mio.write(path, mesh, **MODES[mode])
    theirs = meshio.read(path)
    helpers.assert_mesh_equal(mesh, theirs)


def test_meshio_reads_our_field_data(tmp_path):
    mesh = vtu_cases.with_data(helpers.tet_mesh)
    path = tmp_path / "ours.vtk"
    mio.write(path, mesh, fmt_version="4.2")
    theirs = meshio.read(path)
    assert sorted(theirs.field_data) == sorted(mesh.field_data)
    for k in mesh.field_data:
        np.testing.assert_array_equal(theirs.field_data[k], mesh.field_data[k])


@pytest.mark.parametrize("kw", [dict(binary=True), dict(binary=False), dict(binary=True, file_format="vtk42"),
                                dict(binary=False, file_format="vtk42")])
@pytest.mark.parametrize("name", MESHIO_COMPARABLE)
def test_we_read_what_meshio_writes(tmp_path, name, kw):
    mesh = vtu_cases.with_data(MESHES[name])
    path = tmp_path / "meshio.vtk"
    meshio.write(path, vtu_cases._meshio_mesh(mesh), **kw)
    ours = mio.read(path)
    helpers.assert_mesh_equal(meshio.read(path), ours)
    helpers.assert_mesh_equal(mesh, ours)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", list(MESHES))
def test_write_read(tmp_path, name, mode):
    mesh = with_data(MESHES[name])
    before = copy.deepcopy(mesh)
    path = tmp_path / "rt.vtk"
    mio.write(path, mesh, **MODES[mode])
    back = mio.read(path)
    oracle.assert_flat_equal(oracle.flat_from_mesh(before), oracle.flat_from_mesh(back))
    oracle.assert_flat_equal(oracle.flat_from_mesh(before), oracle.flat_from_mesh(mesh))


def test_cut_short_is_a_read_error(tmp_path):
    path = tmp_path / "cut.vtk"
    mio.write(path, with_data(helpers.hex_mesh))
    data = path.read_bytes()
    for n in (len(data) // 3, len(data) // 2, len(data) - 30):
        path.write_bytes(data[:n])
        with pytest.raises(mio.ReadError, match="line"):
            mio.read(path)
