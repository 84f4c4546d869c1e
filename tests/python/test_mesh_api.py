"""meshio 5.x API parity of Mesh / CellBlock, checked against the real meshio where it
defines the behaviour."""
import meshio
import numpy as np
import pytest

import meshioplusplus as mio
from helpers import tri_quad_mesh


def both(cls_args, **kwargs):
    return mio.Mesh(*cls_args, **kwargs), meshio.Mesh(*cls_args, **kwargs)


def test_constructor_accepts_meshio_forms_and_validates():
    pts = np.zeros((4, 3))
    m = mio.Mesh(pts, {"triangle": [[0, 1, 2]]})
    assert m.cells[0].type == "triangle" and m.cells[0].data.shape == (1, 3)
    with pytest.raises(ValueError, match="point_data"):
        mio.Mesh(pts, [("triangle", [[0, 1, 2]])], point_data={"T": np.zeros(3)})
    with pytest.raises(ValueError, match="Incompatible cell data"):
        mio.Mesh(pts, [("triangle", [[0, 1, 2]])], cell_data={"c": [np.zeros(1), np.zeros(1)]})
    with pytest.raises(ValueError, match="unknown cell type 'triangel'"):
        mio.Mesh(pts, [("triangel", [[0, 1, 2]])])


def test_dict_properties_match_meshio():
    cells = [("triangle", [[0, 1, 2]]), ("quad", [[0, 1, 2, 3]]), ("triangle", [[1, 2, 3]])]
    cell_data = {"c": [np.array([1.0]), np.array([2.0]), np.array([3.0])]}
    ours, ref = both((np.zeros((4, 3)), cells), cell_data={k: list(v) for k, v in cell_data.items()},
                     cell_sets={"s": [np.array([0]), np.array([]), np.array([0])]})
    for key in ref.cells_dict:
        np.testing.assert_array_equal(ours.cells_dict[key], ref.cells_dict[key])
    for t in ("triangle", "quad"):
        np.testing.assert_array_equal(ours.cell_data_dict["c"][t], ref.cell_data_dict["c"][t])
        np.testing.assert_array_equal(ours.get_cells_type(t), ref.get_cells_type(t))
        np.testing.assert_array_equal(ours.get_cell_data("c", t), ref.get_cell_data("c", t))
    assert ours.get_cells_type("tetra").shape == ref.get_cells_type("tetra").shape == (0, 4)
    assert ours.cell_sets_dict.keys() == ref.cell_sets_dict.keys()
    np.testing.assert_array_equal(ours.cell_sets_dict["s"]["triangle"], ref.cell_sets_dict["s"]["triangle"])


def test_sets_to_data_and_back_match_meshio():
    for m in both((np.zeros((4, 3)), [("triangle", [[0, 1, 2], [1, 2, 3]])]),
                  cell_sets={"a": [np.array([0])], "b": [np.array([1])]}, point_sets={"p": np.array([0, 1]), "q": np.array([2, 3])}):
        m.cell_sets_to_data()
        m.point_sets_to_data()
    ours, ref = m, None  # last one is meshio's; recompute ours for comparison
    ours = mio.Mesh(np.zeros((4, 3)), [("triangle", [[0, 1, 2], [1, 2, 3]])],
                    cell_sets={"a": [np.array([0])], "b": [np.array([1])]}, point_sets={"p": np.array([0, 1]), "q": np.array([2, 3])})
    ours.cell_sets_to_data()
    ours.point_sets_to_data()
    ref = m
    np.testing.assert_array_equal(ours.cell_data["a-b"][0], ref.cell_data["a-b"][0])
    np.testing.assert_array_equal(ours.point_data["p-q"], ref.point_data["p-q"])
    assert not ours.cell_sets and not ours.point_sets
    ours.cell_data_to_sets("a-b")
    np.testing.assert_array_equal(ours.cell_sets["a"][0], [0])
    np.testing.assert_array_equal(ours.cell_sets["b"][0], [1])


def test_repr_copy_and_iteration():
    m = tri_quad_mesh
    text = repr(m)
    assert "Number of points: 6" in text and "triangle: 2" in text and "quad: 1" in text
    c = m.copy()
    c.points[0, 0] = 99
    assert m.points[0, 0] == 0
    types = [t for t, _ in m.cells]
    assert types == ["triangle", "quad"]
    assert len(m.cells[0]) == 2


def test_regions_are_the_storage_and_sets_are_views():
    m = mio.Mesh(np.zeros((5, 3)), [("triangle", [[0, 1, 2], [1, 2, 3]]), ("line", [[0, 1], [3, 4], [1, 4]])])
    m.cell_sets["walls"] = [np.array([1]), np.array([2, 0])]
    (r,) = m.regions
    assert (r.name, r.kind) == ("walls", "cell")
    np.testing.assert_array_equal(r.entries, [1, 2, 4])  # global block-major, sorted
    got = m.cell_sets["walls"]
    np.testing.assert_array_equal(got[0], [1])
    np.testing.assert_array_equal(got[1], [0, 2])
    m.regions.append(mio.Region("inlet", "point", [4, 0, 4], dim=0, tag=7))
    np.testing.assert_array_equal(m.point_sets["inlet"], [0, 4])
    assert list(m.cell_sets) == ["walls"] and list(m.point_sets) == ["inlet"]
    m.point_sets["inlet"] = [1]
    assert m.regions[1].tag == 7  # replacing keeps dim/tag
    del m.cell_sets["walls"]
    assert [r.name for r in m.regions] == ["inlet"]
    m.cell_sets = {"x": [[0], []]}
    assert [r.kind for r in m.regions] == ["point", "cell"]


def test_region_canonical_form():
    r = mio.Region("s", "side", [[3, 1], [0, 2], [3, 1], [3, 0]], dim=1, tag=2)
    np.testing.assert_array_equal(r.entries, [[0, 2], [3, 0], [3, 1]])
    assert r.entries.dtype == np.int64
    already = np.arange(5, dtype=np.int64)
    assert mio.Region("c", "cell", already).entries is already  # canonical input is kept, not copied
    with pytest.raises(ValueError, match="kind"):
        mio.Region("x", "face", [1])
    with pytest.raises(ValueError, match=r"shape \(n, 2\)"):
        mio.Region("x", "side", [1, 2, 3])


def test_regions_of_a_read_are_canonical_as_they_come(tmp_path):
    # The core canonicalizes every region a read returns, and Python takes them unchecked
    # (Region._canonical): they must pass the check a Region makes, unchanged.
    points = np.random.default_rng(1).random((9, 3))
    tris = np.array([[0, 1, 2], [1, 2, 3], [2, 3, 4], [3, 4, 5], [4, 5, 6]])
    tets = np.array([[0, 1, 2, 3], [1, 2, 3, 4], [2, 3, 4, 5], [5, 6, 7, 8]])
    mesh = mio.Mesh(points, [("triangle", tris), ("tetra", tets)],
                    cell_data={"medit:ref": [np.array([2, 1, 2, 1, 2]), np.array([7, 5, 7, 7])]})
    path = str(tmp_path / "refs.mesh")
    mio.write(path, mesh)
    got = mio.read(path)
    assert {r.name: r.entries.tolist() for r in got.regions} == {
        "medit_ref_2_1": [1, 3], "medit_ref_2_2": [0, 2, 4], "medit_ref_3_5": [6], "medit_ref_3_7": [5, 7, 8]}
    for r in got.regions:
        assert r.entries.dtype == np.int64
        assert mio.Region(r.name, r.kind, r.entries).entries is r.entries


def test_block_bases_is_the_numbering_cell_regions_are_written_in(tmp_path):
    sizes = [3, 0, 5, 2]
    cells = [mio.CellBlock("line", np.zeros((n, 2), dtype=int)) for n in sizes]
    np.testing.assert_array_equal(mio.block_bases(cells), [0, 3, 3, 8, 10])
    # cell 1 of the third block, numbered by block_bases, is the cell the core writes and
    # reads back as that region (the core's own block_bases numbers it)
    points = np.zeros((3, 3))
    blocks = [("line", [[0, 1]] * 3), ("triangle", [[0, 1, 2]] * 2)]
    mesh = mio.Mesh(points, blocks)
    mesh.regions.append(mio.Region("r", "cell", [mio.block_bases(mesh.cells)[1] + 1], 2, 4))
    mio.write(tmp_path / "b.msh", mesh)
    back = mio.read(tmp_path / "b.msh")
    assert [list(r.entries) for r in back.regions if r.name == "r"] == [[4]]
    assert mio.block_bases([]).tolist() == [0]


def test_side_regions_validate_against_the_core_facet_tables():
    m = mio.Mesh(np.zeros((4, 3)), [("tetra", [[0, 1, 2, 3]])], regions=[mio.Region("f", "side", [[0, 4]])])
    with pytest.raises(ValueError, match=r"facet 4 of cell 0 \(tetra\) is outside \[0, 4\)"):
        mio._core.validate(m._core_parts())
    assert mio._core.cell_facets("tetra")[0] == [0, 1, 3]


def test_facets_of_every_3d_type_point_outwards_in_our_node_order():
    # The unit reference cell of each linear type in the node order meshio++ (and meshio)
    # stores it; every facet's normal (right-hand rule) must point away from the centroid.
    cells = {
        "tetra": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]],
        "hexahedron": [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]],
        "wedge": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [0, 1, 1]],  # Gmsh prism order
        "pyramid": [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0.5, 0.5, 1]],
    }
    for cell_type, coords in cells.items():
        x = np.array(coords, dtype=float)
        centre = x.mean(axis=0)
        for facet in mio._core.cell_facets(cell_type):
            f = x[facet]
            normal = np.cross(f[1] - f[0], f[2] - f[0])
            assert np.dot(normal, f.mean(axis=0) - centre) > 0, (cell_type, facet)
