"""Regressions found by the sweep and the fuzzers, one test per finding.

The inputs live in tests/fuzz/regressions/<format>/ (ctest also replays them through the
fuzz harness); here each is checked for the behaviour its fix promises.
"""
from __future__ import annotations

import numpy as np
import pytest

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
# references; Nastran only the GRID's CP as "nastran:ref"; SU2, Abaqus and UNV (2411) none.
NO_NAMED_POINT_DATA = {"stl", "off", "obj", "medit", "su2", "abaqus", "nastran", "unv"}


def test_non_utf8_data_names_round_trip(tmp_path):
    mesh = mio.Mesh(np.array([[0.0, 0, 0], [1, 0, 0], [0, 1, 0]]), [("triangle", np.array([[0, 1, 2]]))],
                    point_data={"t\udce9mp": np.arange(3.0)})
    for fmt in hostile.writable_formats():
        if fmt in NO_NAMED_POINT_DATA:
            continue
        out = tmp_path / ("x" + mio.formats()[fmt]["extensions"][0])
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
