"""The interop payload builders, with no target library: what is shared (pointer identity),
what is copied (noted; raises under zero_copy_only), what is derived (never raises, never
warned), regions as masks + sidecar, and the inverse builders (payload -> Mesh)."""
import copy
import json
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import meshioplusplus as mio
from meshioplusplus import _interop
from meshioplusplus._interop import mesh_from_triangles, mesh_from_unstructured, triangle_payload, unstructured_payload
from helpers import assert_mesh_equal, hex_mesh, quad_mesh, tet_mesh, tri_mesh, tri_mesh_2d, tri_quad_mesh


def decorated_tet():
    return mio.Mesh(
        tet_mesh.points.copy(),
        [("tetra", tet_mesh.cells[0].data.copy())],
        point_data={"T": np.arange(5.0), "v": np.arange(15, dtype=np.float32).reshape(5, 3)},
        cell_data={"id": [np.array([7, 8], dtype=np.int32)]},
        field_data={"f": np.array([1, 3])},
        regions=[mio.Region("apex", "point", [4], dim=0, tag=11), mio.Region("second", "cell", [1], dim=3, tag=12)],
    )


def test_vtk_payload_shares_every_mesh_buffer_of_a_single_block_mesh():
    mesh = decorated_tet()
    p = unstructured_payload(mesh)
    assert p.points is mesh.points
    assert np.shares_memory(p.connectivity, mesh.cells[0].data) and p.connectivity.ctypes.data == mesh.cells[0].data.ctypes.data
    assert p.point_data["T"] is mesh.point_data["T"] and p.point_data["v"] is mesh.point_data["v"]
    assert p.cell_data["id"] is mesh.cell_data["id"][0]
    assert p.field_data["f"] is mesh.field_data["f"]
    assert p.notes == ()
    assert all(p.shared.values()) and {"points", "cells[0] (tetra)", "point_data['T']", "cell_data['id'][0]", "field_data['f']"} <= set(p.shared)
    np.testing.assert_array_equal(p.offsets, [0, 4, 8])
    np.testing.assert_array_equal(p.cell_types, [10, 10])
    assert p.cell_types.dtype == np.uint8 and p.offsets.dtype == p.connectivity.dtype == np.int64
    assert any("offsets" in d for d in p.derived) and any("cell_types" in d for d in p.derived)


def test_int32_connectivity_is_shared_with_int32_offsets():
    mesh = mio.Mesh(tri_mesh.points, [("triangle", np.array([[0, 1, 2], [0, 2, 3]], dtype=np.int32))])
    p = unstructured_payload(mesh, zero_copy_only=True)
    assert np.shares_memory(p.connectivity, mesh.cells[0].data)
    assert p.offsets.dtype == p.connectivity.dtype == np.int32


def test_payload_is_frozen_and_does_not_mutate_the_mesh():
    mesh = decorated_tet()
    mesh.regions.append(mio.Region("face", "side", [[0, 1]]))
    before = copy.deepcopy(mesh)
    p = unstructured_payload(mesh)
    triangle_payload(mesh)
    assert_mesh_equal(mesh, before)
    assert mesh.regions == before.regions and list(mesh.point_data) == list(before.point_data)
    assert list(mesh.field_data) == ["f"]
    with pytest.raises(Exception):
        p.points = None
    with pytest.raises(TypeError):
        p.point_data["x"] = np.zeros(5)


def _with(mesh, **kwargs):
    out = copy.deepcopy(mesh)
    for k, v in kwargs.items():
        setattr(out, k, v)
    return out


COPY_CASES = {
    "2-D points": (tri_mesh_2d, "points", "padded with zeros to 3-D"),
    "integer points": (mio.Mesh(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]]), [("triangle", [[0, 1, 2]])]), "points", "converted to float64"),
    "non-contiguous points": (mio.Mesh(np.zeros((3, 6))[:, ::2], [("triangle", [[0, 1, 2]])]), "points", "not C-contiguous"),
    "two blocks": (tri_quad_mesh, r"cells\[0\] \(triangle\), cells\[1\] \(quad\)", "2 blocks concatenated"),
    "uint16 connectivity": (mio.Mesh(tri_mesh.points, [("triangle", np.array([[0, 1, 2]], dtype=np.uint16))]), r"cells\[0\]", "converted to int64"),
    "ragged polygons": (mio.Mesh(quad_mesh.points, [("polygon", [np.array([0, 1, 4]), np.array([1, 2, 3, 4])])]), r"cells\[0\] \(polygon\)", "ragged rows gathered"),
    "bool point data": (_with(tri_mesh, point_data={"b": np.array([True, False, True, True])}), r"point_data\['b'\]", "bool widened to uint8"),
    "strided point data": (_with(tri_mesh, point_data={"s": np.arange(8.0)[::2]}), r"point_data\['s'\]", "not C-contiguous"),
    "float16 cell data": (_with(tri_mesh, cell_data={"h": [np.ones(2, np.float16)]}), r"cell_data\['h'\]\[0\]", "float16 converted"),
    # the connectivity of two blocks is the first copy, so zero_copy_only raises on it
    "cell data over two blocks": (_with(tri_quad_mesh, cell_data={"c": [np.ones(2), np.ones(1)]}), r"cell_data\['c'\]", "2 blocks concatenated", r"cells\[0\]"),
    "list field data": (_with(tri_mesh, field_data={"l": [1, 2]}), r"field_data\['l'\]", "list is not an array"),
}


@pytest.mark.parametrize("case", list(COPY_CASES))
def test_every_copy_is_noted_and_raises_under_zero_copy_only(case):
    mesh, label, reason, *first = COPY_CASES[case]
    p = unstructured_payload(mesh)
    matching = [n for n in p.notes if re.match(label, n) and reason in n]
    assert len(matching) == 1 and "copied" in matching[0], p.notes
    assert p.shared and not all(p.shared.values())
    expected = rf"^to_vtk: {first[0]}.* would be copied" if first else rf"^to_vtk: {label}.* would be copied \(.*{reason}"
    with pytest.raises(mio.InteropError, match=expected):
        unstructured_payload(mesh, zero_copy_only=True)


def test_copied_arrays_do_not_share_and_hold_the_same_values():
    p = unstructured_payload(tri_mesh_2d)
    assert not np.shares_memory(p.points, tri_mesh_2d.points)
    np.testing.assert_array_equal(p.points[:, :2], tri_mesh_2d.points)
    np.testing.assert_array_equal(p.points[:, 2], 0)
    p = unstructured_payload(tri_quad_mesh)
    np.testing.assert_array_equal(p.connectivity, [0, 1, 4, 0, 4, 5, 1, 2, 3, 4])
    np.testing.assert_array_equal(p.offsets, [0, 3, 6, 10])
    np.testing.assert_array_equal(p.cell_types, [5, 5, 9])


def test_derived_arrays_never_raise_under_zero_copy_only():
    mesh = decorated_tet()
    p = unstructured_payload(mesh, zero_copy_only=True)
    assert p.notes == ()
    mask_p, mask_c = p.point_data["region:apex"], p.cell_data["region:second"]
    assert mask_p.dtype == mask_c.dtype == np.int8
    np.testing.assert_array_equal(mask_p, [0, 0, 0, 0, 1])
    np.testing.assert_array_equal(mask_c, [0, 1])
    assert json.loads(p.regions_json) == [
        {"name": "apex", "kind": "point", "dim": 0, "tag": 11},
        {"name": "second", "kind": "cell", "dim": 3, "tag": 12},
    ]
    assert sum("mask" in d for d in p.derived) == 2 and any("sidecar" in d for d in p.derived)


def test_drops_are_noted_but_not_copies_so_zero_copy_only_allows_them():
    mesh = _with(tri_mesh, point_data={"s": np.array(["a", "b", "c", "d"]), "z": np.ones(4, complex)},
                 regions=[mio.Region("edge", "side", [[0, 1]])])
    p = unstructured_payload(mesh, zero_copy_only=True)
    assert set(p.point_data) == set()
    assert sorted(p.notes) == sorted([
        "point_data['s'] dropped: dtype <U1 has no numeric representation",
        "point_data['z'] dropped: dtype complex128 has no numeric representation",
        "regions['edge'] dropped: side regions have no (cell, facet) slot in VTK",
    ])
    assert p.regions_json is None


def test_mask_name_collision_keeps_the_mesh_array_and_notes_the_region():
    mesh = _with(tri_mesh, point_data={"region:a": np.arange(4.0)}, regions=[mio.Region("a", "point", [1])])
    p = unstructured_payload(mesh)
    assert p.point_data["region:a"] is mesh.point_data["region:a"]
    assert any("regions['a'] dropped" in n for n in p.notes)


def test_higher_order_cells_use_vtk_ids_and_lagrange_beyond_them():
    # ids from VTK's vtkCellType.h: fixed quadratic types, then VTK_LAGRANGE_* (69, 71)
    assert _interop.vtk_cell_type("triangle6") == 22 and _interop.vtk_cell_type("hexahedron27") == 29
    assert _interop.vtk_cell_type("triangle10") == 69 and _interop.vtk_cell_type("tetra20") == 71
    assert _interop.vtk_cell_type("no such cell") == -1
    # every type with a VTK id reads back as itself (one cell, nodes 0..k-1)
    # (k == 0: the VTK_LAGRANGE_* names, whose node count is the block's own)
    types = mio._core.cell_types()
    for name, (k, _, _) in types.items():
        vid = _interop.vtk_cell_type(name)
        if vid < 0 or k <= 0:
            continue
        got = mio._core.vtk_blocks_from_cells(np.array([vid], np.uint8), np.array([0, k]), np.arange(k), None, None, k)
        assert [b[0] for b in got["blocks"]] == [name] and not got["dropped"]
    # a Lagrange cell whose node count has no fixed name keeps VTK's Lagrange name
    k = next(n for n in range(12, 200) if f"line{n}" not in types)
    got = mio._core.vtk_blocks_from_cells(np.array([68], np.uint8), np.array([0, k]), np.arange(k), None, None, k)
    assert [(b[0], b[1].shape) for b in got["blocks"]] == [("VTK_LAGRANGE_CURVE", (1, k))] and not got["dropped"]


def polyhedron_mesh():
    # a unit cube as one polyhedron (6 quad faces) next to a tetra-shaped polyhedron and a triangle
    points = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]], dtype=float)
    cube = [np.array(f) for f in ([0, 3, 2, 1], [4, 5, 6, 7], [0, 1, 5, 4], [1, 2, 6, 5], [2, 3, 7, 6], [3, 0, 4, 7])]
    tet = [np.array(f) for f in ([0, 1, 2], [0, 1, 5], [1, 2, 5], [0, 2, 5])]
    return mio.Mesh(points, [("polyhedron", [cube, tet]), ("triangle", [[0, 1, 2]])], cell_data={"c": [np.array([1.0, 2.0]), np.array([3.0])]})


def test_polyhedra_become_vtk_face_streams():
    p = unstructured_payload(polyhedron_mesh())
    np.testing.assert_array_equal(p.cell_types, [42, 42, 5])
    np.testing.assert_array_equal(p.face_locations, [0, 31, -1])
    assert p.faces[0] == 6 and p.faces[31] == 4 and len(p.faces) == 31 + 1 + 4 * 4
    np.testing.assert_array_equal(p.connectivity[p.offsets[0] : p.offsets[1]], np.arange(8))
    np.testing.assert_array_equal(p.connectivity[p.offsets[1] : p.offsets[2]], [0, 1, 2, 5])
    assert any("face_locations" in d for d in p.derived)
    back = mesh_from_unstructured(p, _interop.Ledger("t"))
    assert [b.type for b in back.cells] == ["polyhedron", "triangle"]
    for a, b in zip(polyhedron_mesh().cells[0].data, back.cells[0].data):
        assert len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b))


def test_payload_round_trip_rebuilds_the_mesh_and_shares_the_payload_buffers():
    mesh = decorated_tet()
    p = unstructured_payload(mesh)
    ledger = _interop.Ledger("from_x")
    back = mesh_from_unstructured(p, ledger)
    assert ledger.notes == []
    assert_mesh_equal(mesh, back)
    assert back.regions == mesh.regions
    assert back.points is mesh.points and np.shares_memory(back.cells[0].data, mesh.cells[0].data)
    assert back.cell_data["id"][0] is mesh.cell_data["id"][0]
    assert "region:apex" not in back.point_data and "region:second" not in back.cell_data


@pytest.mark.parametrize("mesh", [tri_mesh, quad_mesh, tri_quad_mesh, tet_mesh, hex_mesh], ids=lambda m: "-".join(b.type for b in m.cells))
def test_payload_round_trip_of_canonical_meshes(mesh):
    mesh = _with(mesh, regions=[mio.Region("p", "point", [0, 2], 0, 1), mio.Region("c", "cell", [len(mesh.cells[0]) - 1], 2, 5)])
    back = mesh_from_unstructured(unstructured_payload(mesh), _interop.Ledger("t"))
    assert_mesh_equal(mesh, back)
    assert back.regions == mesh.regions


def test_missing_sidecar_gives_dim_and_tag_minus_one_with_a_note():
    p = unstructured_payload(decorated_tet())
    bare = _interop.UnstructuredPayload(p.points, p.cell_types, p.offsets, p.connectivity, point_data=p.point_data, cell_data=p.cell_data)
    ledger = _interop.Ledger("from_vtk")
    back = mesh_from_unstructured(bare, ledger)
    assert back.regions == [mio.Region("apex", "point", [4]), mio.Region("second", "cell", [1])]
    assert ledger.notes == [
        "regions['apex']: no meshioplusplus:regions sidecar entry; dim and tag set to -1",
        "regions['second']: no meshioplusplus:regions sidecar entry; dim and tag set to -1",
    ]


def test_unknown_vtk_cells_are_dropped_and_cell_numbering_follows():
    # triangle, triangle, VTK_TRIANGLE_STRIP (6: no meshio++ type), quad
    p = _interop.UnstructuredPayload(
        np.zeros((6, 3)), np.array([5, 5, 6, 9], np.uint8), np.array([0, 3, 6, 10, 14]),
        np.array([0, 1, 2, 0, 2, 3, 0, 1, 2, 3, 1, 2, 3, 4]),
        cell_data={"c": np.array([10.0, 11.0, 12.0, 13.0]), "region:r": np.array([0, 1, 1, 1], np.int8)},
        regions_json=json.dumps([{"name": "r", "kind": "cell", "dim": 2, "tag": 3}]),
    )
    ledger = _interop.Ledger("from_vtk")
    back = mesh_from_unstructured(p, ledger)
    assert [b.type for b in back.cells] == ["triangle", "quad"]
    assert [list(x) for x in back.cell_data["c"]] == [[10.0, 11.0], [13.0]]
    assert back.regions == [mio.Region("r", "cell", [1, 2], 2, 3)]
    assert ledger.notes == ["cells 2..2 dropped: VTK_TRIANGLE_STRIP (6) with 4 points has no meshio++ cell type"]


def test_ragged_vtk_polygons_become_views_of_the_connectivity():
    p = unstructured_payload(COPY_CASES["ragged polygons"][0])
    back = mesh_from_unstructured(p, _interop.Ledger("t"))
    assert [list(r) for r in back.cells[0].data] == [[0, 1, 4], [1, 2, 3, 4]]
    assert all(np.shares_memory(r, p.connectivity) for r in back.cells[0].data)


def test_triangle_payload_shares_vertices_and_faces():
    mesh = _with(tri_mesh, point_data={"T": np.arange(4.0)}, cell_data={"c": [np.array([1, 2])]})
    p = triangle_payload(mesh, zero_copy_only=True)
    assert p.vertices is mesh.points and p.faces is mesh.cells[0].data
    assert p.vertex_attributes["T"] is mesh.point_data["T"] and p.face_attributes["c"] is mesh.cell_data["c"][0]
    assert p.notes == () and p.metadata == {}
    back = mesh_from_triangles(p, _interop.Ledger("t"))
    assert_mesh_equal(mesh, back)
    assert back.points is mesh.points


def test_triangle_payload_drops_other_cells_and_renumbers_cell_regions():
    mesh = mio.Mesh(quad_mesh.points, [("quad", [[1, 2, 3, 4]]), ("triangle", [[0, 1, 4], [0, 4, 5]])],
                    regions=[mio.Region("c", "cell", [0, 2], 2, 4), mio.Region("s", "side", [[1, 0]])])
    p = triangle_payload(mesh, zero_copy_only=True)
    assert p.faces is mesh.cells[1].data
    np.testing.assert_array_equal(p.face_attributes["region:c"], [0, 1])
    assert p.notes == (
        "cells[0] (quad) dropped: only triangles are carried to trimesh",
        "regions['c']: 1 entries in blocks not carried to trimesh removed",
        "regions['s'] dropped: side regions have no (cell, facet) slot in trimesh",
    )
    back = mesh_from_triangles(p, _interop.Ledger("t"))
    assert back.regions == [mio.Region("c", "cell", [1], 2, 4)]
    with pytest.raises(mio.InteropError, match=r"cells\[0\] \(triangle\), cells\[1\] \(triangle\) would be copied"):
        triangle_payload(mio.Mesh(tri_mesh.points, [("triangle", [[0, 1, 2]]), ("triangle", [[0, 2, 3]])]), zero_copy_only=True)


def test_out_of_range_region_entries_raise_naming_the_region():
    with pytest.raises(mio.InteropError, match=r"regions\['bad'\] holds point entries outside \[0, 4\)"):
        unstructured_payload(_with(tri_mesh, regions=[mio.Region("bad", "point", [9])]))


def test_builders_import_no_target_library():
    code = textwrap.dedent(
        """
        import sys, numpy as np, meshioplusplus as mio
        from meshioplusplus import _interop
        m = mio.Mesh(np.zeros((3, 3)), [("triangle", [[0, 1, 2]])], regions=[mio.Region("r", "point", [1])])
        _interop.mesh_from_unstructured(_interop.unstructured_payload(m), _interop.Ledger("t"))
        _interop.mesh_from_triangles(_interop.triangle_payload(m), _interop.Ledger("t"))
        loaded = {name.split(".")[0] for name in sys.modules}
        print(sorted(loaded & {"vtk", "vtkmodules", "pyvista", "trimesh", "torch"}))
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
