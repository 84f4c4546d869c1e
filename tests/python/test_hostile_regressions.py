"""Regressions found by the sweep and the fuzzers, one test per finding.

The inputs live in tests/fuzz/regressions/<format>/ (ctest also replays them through the
fuzz harness); here each is checked for the behaviour its fix promises.
"""
from __future__ import annotations

import numpy as np
import pytest

import helpers
import hostile
import meshioplusplus as mio

REGRESSIONS = hostile.FUZZ / "regressions"


def test_non_utf8_physical_name_reads_and_writes_back_its_bytes(tmp_path):
    # The sweep's byte flips made a Latin-1 physical name; the binding raised
    # UnicodeDecodeError. Names now decode with surrogateescape and encode back the same.
    path = REGRESSIONS / "gmsh" / "non-utf8-physical-name.msh"
    mesh = mio.read(path)
    names = [r.name for r in mesh.regions]
    assert "corn\udce9r" in names
    out = tmp_path / "back.msh"
    mio.write(out, mesh, binary=False)
    assert b'"corn\xe9r"' in out.read_bytes()
    assert "corn\udce9r" in [r.name for r in mio.read(out).regions]


# Formats whose files hold no arbitrary named point data, as meshio's writers for them: STL
# none; OFF only its vertex colours; OBJ only texture coordinates and normals; Medit only its
# references; Nastran only the GRID's CP as "nastran:ref"; TetGen only its attributes and
# markers; UGRID, PERMAS, FLAC3D, WKT, SU2, Abaqus, UNV (2411), DOLFIN XML, Netgen,
# Neuroglancer, ANSYS Fluent (mesh sections only) and SVG (a drawing) none.
NO_NAMED_POINT_DATA = {"stl", "off", "obj", "medit", "su2", "abaqus", "nastran", "unv", "dolfin-xml", "netgen", "neuroglancer",
                       "ansys", "flac3d", "permas", "tetgen", "ugrid", "wkt", "svg"}


def test_non_utf8_data_names_round_trip(tmp_path):
    for fmt in hostile.writable_formats():
        if fmt in NO_NAMED_POINT_DATA:
            continue
        simple, _ = helpers.simple_mesh_for(fmt)  # a mesh the format's writer takes
        mesh = mio.Mesh(simple.points, simple.cells, point_data={"t\udce9mp": np.arange(float(len(simple.points)))})
        (tmp_path / fmt).mkdir()
        out = tmp_path / fmt / ("x" + (mio.formats()[fmt]["extensions"] or [""])[0])
        mio.write(out, mesh, fmt)
        assert "t\udce9mp" in mio.read(out, fmt).point_data, fmt


def test_vtk_cells_overrunning_the_connectivity_raise_read_error():
    # CELLS 2 4 / "3 0 1 2": the first cell took the second's values and wrote past the
    # connectivity (heap overflow under ASan).
    with pytest.raises(mio.ReadError, match="cell 0 declares 3 nodes, 2 values are left for its nodes"):
        mio.read(REGRESSIONS / "vtk" / "cells-overrun-connectivity.vtk")


def test_gmsh_physical_tag_listed_twice_on_an_entity_gives_one_clean_region():
    # A surface entity listing physical tag 5 twice: the region was sized for both and
    # filled once, leaving uninitialised entries (a fuzz finding, caught by validate()).
    mesh = mio.read(REGRESSIONS / "gmsh" / "physical-tag-listed-twice.msh")
    regions = [r for r in mesh.regions if r.tag == 5]
    assert len(regions) == 1
    assert regions[0].dim == 2
    assert regions[0].entries.tolist() == [0]


def test_medit_index_past_int64_is_a_read_error_not_an_overflow(tmp_path):
    # 2^63 parses as a 19-digit index; turning it 0-based must not overflow (UBSan would
    # stop the sanitizer build) and the range check must name it.
    path = tmp_path / "big.mesh"
    path.write_text("MeshVersionFormatted 2\nDimension 3\nVertices\n3\n0 0 0 0\n1 0 0 0\n0 1 0 0\n"
                    "Triangles\n1\n1 2 9223372036854775808 0\nEnd\n")
    with pytest.raises(mio.ReadError, match="medit"):
        mio.read(path)


def test_obj_group_memberships_are_bounded_by_the_file_size(tmp_path):
    # One `g` line naming thousands of groups, then thousands of faces: every face joins
    # every group, which would ask for memory quadratic in the file's size.
    names = " ".join(f"g{i}" for i in range(4000))
    path = tmp_path / "groups.obj"
    path.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\ng " + names + " g0 g1\n" + "f 1 2 3\n" * 4000)
    with pytest.raises(mio.ReadError, match="group memberships"):
        mio.read(path)
    path.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\ng a a b\nf 1 2 3\nf 1 2 3\n")  # a name given twice counts once
    mesh = mio.read(path)
    assert sorted(len(mesh.cell_sets[n][0]) for n in ("g:a", "g:b")) == [2, 2]


def test_every_write_error_and_warning_names_the_file(tmp_path):
    mesh = mio.Mesh(np.array([[0.0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]), [("tetra", np.array([[0, 1, 2, 3]]))])
    mesh.regions.append(mio.Region("bad\nname", "side", np.array([[0, 0]])))
    target = tmp_path / "x.su2"
    with pytest.raises(mio.WriteError) as e:
        mio.write(target, mesh)
    assert str(e.value).startswith(f"su2: {target}: ")
    ply = tmp_path / "x.ply"
    with pytest.warns(UserWarning) as caught:
        mio.write(ply, mio.Mesh(mesh.points, mesh.cells))  # PLY skips the tetra block, warning
    assert all(str(w.message).startswith(f"ply: {ply}: ") for w in caught)
