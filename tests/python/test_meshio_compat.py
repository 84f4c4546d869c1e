"""meshio compatibility: the same scenario through Debian's meshio (python3-meshio 5.0) and
through meshioplusplus, results compared.

- the public API, by introspection: every public name of meshio (module, Mesh, CellBlock)
  exists in meshioplusplus, except the documented ALLOWED_MISSING (docs/python.md);
- every cell type of meshio's vocabulary constructs, with meshio's dimension;
- every Mesh method gives meshio's result on the same mesh;
- every writer both have accepts meshio's keyword names with meshio's defaults;
- round trips through every format both read and write, for meshio's standard test meshes
  with point, cell and field data and sets: meshio reads our file as it reads its own, we
  read meshio's file as meshio does, and the input mesh is never mutated (meshio's
  write_read semantics). FORMAT_HOLDS says what each format can hold: our own round trip
  keeps all of it; the comparisons with meshio cover what meshio's own round trip keeps
  too (meshio_keeps, derived by running it).
Formats come from the registry, so formats added later are covered when meshio has them.
"""
from __future__ import annotations

import copy
import inspect
import warnings
from pathlib import Path

import meshio
import numpy as np
import pytest

import meshioplusplus as mio

# ---------------------------------------------------------------------------------------
# The public API

# Names of meshio's public API that meshioplusplus deliberately lacks, each with its reason
# (the same list is in docs/python.md, "Differences from meshio that remain on purpose").
# Today that is only the format submodules of formats not implemented yet: a submodule
# without a reader would be a lie. When a format lands in the registry, its name must leave
# this list (test_not_implemented_formats_are_exactly_the_unregistered_ones says so).
NOT_IMPLEMENTED_FORMATS: set[str] = set()
ALLOWED_MISSING = {name: "format not implemented in meshio++ yet" for name in NOT_IMPLEMENTED_FORMATS}

OURS_FORMATS = {name for name, f in mio.formats().items()}
MESHIO_FORMATS = set(meshio._helpers.reader_map) | set(meshio._helpers._writer_map)
# meshio's format submodules are named like its formats, except these module names.
MESHIO_MODULE_FORMATS = {"gmsh": {"gmsh", "gmsh22"}, "xdmf": {"xdmf"}, "exodus": {"exodus"}, "dolfin": {"dolfin-xml"}}


def meshio_public_names():
    return sorted(set(meshio.__all__) | {n for n in dir(meshio) if not n.startswith("_")} | {"__version__"})


def format_modules():
    return [n for n in meshio.__all__ if inspect.ismodule(getattr(meshio, n, None)) and not n.startswith("_")]


def test_every_public_name_of_meshio_exists():
    missing = [name for name in meshio_public_names() if name not in ALLOWED_MISSING and not hasattr(mio, name)]
    assert not missing, f"meshio names missing from meshioplusplus: {missing}"


def test_not_implemented_formats_are_exactly_the_unregistered_ones():
    # Every format module of meshio exists in meshioplusplus, with read and write, exactly
    # when our registry has that format; the others are the documented allow-list.
    for name in format_modules():
        if name in OURS_FORMATS or MESHIO_MODULE_FORMATS.get(name, set()) & OURS_FORMATS:
            assert name not in NOT_IMPLEMENTED_FORMATS, f"{name} is registered now: take it off NOT_IMPLEMENTED_FORMATS"
            module = getattr(mio, name, None)
            assert module is not None, f"mio.{name} missing although the registry has {name}"
            assert callable(module.read) and callable(module.write)
        else:
            assert name in NOT_IMPLEMENTED_FORMATS, f"meshio's {name} is neither implemented nor allow-listed"
    docs = (Path(__file__).resolve().parents[2] / "docs" / "python.md").read_text()
    for name in NOT_IMPLEMENTED_FORMATS - OURS_FORMATS:
        assert f"`{name}`" in docs, f"docs/python.md does not list {name} among the formats not implemented"


@pytest.mark.parametrize("cls", ["Mesh", "CellBlock"])
def test_class_api(cls):
    theirs = getattr(meshio, cls)
    ours = getattr(mio, cls)
    names = [n for n in dir(theirs) if not n.startswith("_") or n in ("__repr__", "__len__", "__init__")]
    missing = [n for n in names if not hasattr(ours, n)]
    assert not missing, f"{cls}: {missing}"
    # Constructor keywords: every meshio keyword is accepted under the same name.
    ours_params = inspect.signature(ours.__init__).parameters
    for p in inspect.signature(theirs.__init__).parameters.values():
        assert p.name in ours_params, f"{cls}({p.name}=...)"


def test_module_functions_take_meshios_keywords():
    for fn in ("read", "write", "write_points_cells", "register_format", "deregister_format"):
        theirs = inspect.signature(getattr(meshio, fn)).parameters
        ours = inspect.signature(getattr(mio, fn)).parameters
        for p in theirs.values():
            if p.kind in (p.VAR_KEYWORD, p.VAR_POSITIONAL):
                continue
            assert p.name in ours, f"{fn}({p.name}=...)"
            if p.default is not p.empty:
                assert ours[p.name].default == p.default, f"{fn}: default of {p.name}"


def test_errors_are_value_errors_and_name_the_file(tmp_path):
    assert issubclass(mio.ReadError, ValueError) and issubclass(mio.WriteError, ValueError)
    bad = tmp_path / "bad.msh"
    bad.write_text("$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n1 2 1 2\n")
    with pytest.raises(mio.ReadError) as e:
        mio.read(bad)
    assert str(bad) in str(e.value) and "line" in str(e.value)
    with pytest.raises(mio.ReadError):
        mio.read(tmp_path / "missing.vtu")  # meshio: ReadError("File ... not found.")
    with pytest.raises(meshio.ReadError):
        meshio.read(tmp_path / "missing.vtu")


def test_version():
    assert isinstance(mio.__version__, str) and mio.__version__.count(".") >= 1


# ---------------------------------------------------------------------------------------
# Cell vocabulary

MESHIO_TYPES = sorted(set(meshio._mesh.topological_dimension) | set(meshio._common.num_nodes_per_cell))
LAGRANGE_NODES = {"CURVE": 5, "TRIANGLE": 10, "QUADRILATERAL": 9, "TETRAHEDRON": 10, "HEXAHEDRON": 27, "WEDGE": 18, "PYRAMID": 14}


def nodes_of(cell_type):
    if cell_type.startswith("VTK_LAGRANGE_"):
        return LAGRANGE_NODES[cell_type[len("VTK_LAGRANGE_"):]]
    if cell_type == "polygon":
        return 5
    return meshio._common.num_nodes_per_cell[cell_type]


@pytest.mark.parametrize("cell_type", MESHIO_TYPES)
def test_every_cell_type_constructs(cell_type):
    n = nodes_of(cell_type)
    cells = np.arange(2 * n).reshape(2, n)
    points = np.random.default_rng(0).random((2 * n, 3))
    ours = mio.Mesh(points, [(cell_type, cells)])
    assert ours.cells[0].type == cell_type and ours.cells[0].data.shape == (2, n)
    try:
        theirs = meshio.Mesh(points, [(cell_type, cells)])
    except KeyError:  # meshio 5.0 lacks some of its own types in topological_dimension
        theirs = None
        assert cell_type not in meshio._mesh.topological_dimension
    if theirs is not None:
        assert ours.cells[0].dim == theirs.cells[0].dim
    assert ours.cells[0].dim == mio.topological_dimension[cell_type]
    if cell_type in meshio._mesh.topological_dimension:
        assert mio.topological_dimension[cell_type] == meshio._mesh.topological_dimension[cell_type]
    if cell_type in meshio._common.num_nodes_per_cell:
        assert ours.get_cells_type(cell_type).shape == (2, n)
        assert mio.Mesh(points, []).get_cells_type(cell_type).shape == (0, n)


def test_polyhedron_names():
    faces = [[np.array([0, 1, 2]), np.array([0, 1, 3]), np.array([1, 2, 3]), np.array([0, 2, 3])]]
    for M in (meshio, mio):
        block = M.CellBlock("polyhedron4", faces)
        assert block.dim == 3 and len(block) == 1
    assert mio.topological_dimension["polyhedron12"] == 3


def test_unknown_cell_type_is_a_value_error():
    with pytest.raises(ValueError, match="unknown cell type 'tetra7'"):
        mio.Mesh(np.zeros((7, 3)), [("tetra7", np.zeros((1, 7), int))])


# ---------------------------------------------------------------------------------------
# Mesh methods: the same calls on the same mesh through both libraries

POINTS = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [2, 0, 0], [2, 1, 0], [0.5, 0.5, 1.0], [9, 9, 0]], dtype=float)


def method_mesh(M):
    cells = [("triangle", [[0, 1, 2], [0, 2, 3]]), ("quad", [[1, 4, 5, 2]]), ("tetra", [[0, 1, 2, 6]]), ("triangle", [[1, 4, 5]])]
    return M.Mesh(
        POINTS.copy(),
        cells,
        point_data={"T": np.arange(8.0), "ids": np.array([1, 1, 2, 2, 1, 2, 3, 3])},
        cell_data={"mat": [np.array([1, 2]), np.array([2]), np.array([3]), np.array([1])], "w": [np.ones(2), np.ones(1), np.ones(1), np.ones(1)]},
        field_data={"steel": np.array([1, 2])},
        point_sets={"left": np.array([0, 3]), "right": np.array([4, 5])},
        cell_sets={"a": [np.array([0]), np.array([], dtype=int), np.array([0]), np.array([0])], "b": [np.array([1]), np.array([0]), np.array([], dtype=int), np.array([], dtype=int)]},
    )


def as_plain(value):
    """Comparable form: arrays -> lists, dicts/lists recursively."""
    if isinstance(value, dict):
        return {k: as_plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [as_plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    return value


def mesh_state(m):
    return as_plain(
        {
            "points": m.points,
            "cells": [(c.type, c.data) for c in m.cells],
            "point_data": dict(m.point_data),
            "cell_data": dict(m.cell_data),
            "field_data": dict(m.field_data),
            "point_sets": dict(m.point_sets),
            "cell_sets": {k: [np.asarray(v, dtype=int) for v in vals] for k, vals in m.cell_sets.items()},
        }
    )


SCENARIOS = {
    "copy": lambda m: mesh_state(m.copy()),
    "get_cells_type": lambda m: as_plain([m.get_cells_type("triangle"), m.get_cells_type("quad"), m.get_cells_type("wedge")]),
    "get_cell_data": lambda m: as_plain(m.get_cell_data("mat", "triangle")),
    "cells_dict": lambda m: as_plain(m.cells_dict),
    "cell_data_dict": lambda m: as_plain(m.cell_data_dict),
    "cell_sets_dict": lambda m: as_plain(m.cell_sets_dict),
    "cell_sets_to_data": lambda m: (m.cell_sets_to_data(), mesh_state(m))[1],
    "cell_sets_to_data_named": lambda m: (m.cell_sets_to_data("groups"), mesh_state(m))[1],
    "point_sets_to_data": lambda m: (m.point_sets_to_data(), mesh_state(m))[1],
    "point_sets_to_data_join": lambda m: (m.point_sets_to_data(join_char="+"), mesh_state(m))[1],
    "cell_data_to_sets": lambda m: (m.cell_data_to_sets("mat"), mesh_state(m))[1],
    "point_data_to_sets": lambda m: (m.point_data_to_sets("ids"), mesh_state(m))[1],
    "sets_round_trip": lambda m: (m.cell_sets_to_data(), m.cell_data_to_sets("a-b"), mesh_state(m))[2],
    "repr_lines": lambda m: repr(m).splitlines()[1:],
    "len_cellblock": lambda m: [len(c) for c in m.cells],
    "cell_data_errors": lambda m: _raises(lambda: type(m)(m.points, [("triangle", [[0, 1, 2]])], cell_data={"x": [np.ones(2)]})),
    "point_data_errors": lambda m: _raises(lambda: type(m)(m.points, [], point_data={"x": np.ones(2)})),
    "cell_data_to_sets_float": lambda m: _raises(lambda: m.cell_data_to_sets("w")),
}


def _raises(fn):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fn()
    except Exception as e:  # the exception type is what must agree
        return type(e).__mro__[1].__name__ if type(e).__name__ in ("ReadError", "WriteError") else type(e).__name__
    return None


@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_mesh_method_matches_meshio(scenario):
    fn = SCENARIOS[scenario]
    theirs_mesh, ours_mesh = method_mesh(meshio), method_mesh(mio)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # meshio prints its warnings with rich; ours are warnings
        theirs = fn(theirs_mesh)
        ours = fn(ours_mesh)
    if scenario == "point_data_to_sets":
        # Deliberate difference (docs/python.md): meshio 5.0 names these sets "set-key-<tag>"
        # (the literal word "key"); we use the data's name, as its cell_data_to_sets does.
        theirs["point_sets"] = {k.replace("set-key-", "set-ids-"): v for k, v in theirs["point_sets"].items()}
    assert ours == theirs


REPR_MESHES = {
    "no cells": lambda M: M.Mesh(POINTS.copy(), []),
    "polygons": lambda M: M.Mesh(POINTS.copy(), [("polygon", [[0, 1, 2, 3, 4]]), ("triangle", [[0, 1, 2]]), ("polygon", [[0, 1, 2, 3]])],
                                 cell_data={"c": [np.ones(1), np.ones(1), np.ones(1)]}),
    "lagrange": lambda M: M.Mesh(np.random.default_rng(0).random((10, 3)), [("VTK_LAGRANGE_TRIANGLE", [list(range(10))])]),
    "point sets only": lambda M: M.Mesh(POINTS.copy(), [("line", [[0, 1]])], point_sets={"p": [0], "q": [1]}),
    "polyhedra": lambda M: M.Mesh(POINTS.copy(), [("polyhedron4", [[np.array([0, 1, 2]), np.array([0, 1, 6]), np.array([1, 2, 6]), np.array([0, 2, 6])]])]),
}


def test_repr_lists_side_sets_after_the_cell_sets():
    """Side regions (meshio has none) are named on their own line after the cell sets."""
    m = method_mesh(mio)
    m.regions.append(mio.Region("wall", "side", [[4, 0]], 2, 7))
    lines = repr(m).splitlines()
    assert lines[lines.index("  Cell sets: a, b") + 1] == "  Side sets: wall"


@pytest.mark.parametrize("name", list(REPR_MESHES))
def test_repr_is_meshios_line_for_line(name):
    """repr (the C++ summary, also the CLI's info) has meshio's layout; only the first line
    names the library."""
    theirs, ours = repr(REPR_MESHES[name](meshio)).splitlines(), repr(REPR_MESHES[name](mio)).splitlines()
    assert (theirs[0], ours[0]) == ("<meshio mesh object>", "<meshio++ mesh object>")
    assert ours[1:] == theirs[1:]


def test_sets_are_dicts():
    m = method_mesh(mio)
    for attr in ("point_sets", "cell_sets", "point_data", "cell_data", "field_data"):
        assert isinstance(getattr(m, attr), dict), attr
    assert m.point_sets == {"left": np.array([0, 3]), "right": np.array([4, 5])}
    assert m.point_sets != {"left": np.array([0, 3])}
    assert dict(m.cell_sets)["b"][1].tolist() == [0]
    m.point_sets["new"] = [7]
    assert [r.name for r in m.regions if r.kind == "point"] == ["left", "right", "new"]
    del m.cell_sets["a"]
    assert list(m.cell_sets) == ["b"] and {**m.cell_sets}.keys() == {"b"}
    assert copy.deepcopy(m.cell_sets).keys() == {"b"}


def test_warnings_where_meshio_warns(tmp_path):
    m = method_mesh(mio)
    del m.cell_sets["b"]  # cells outside every set
    with pytest.warns(UserWarning, match="not part of any cell set"):
        m.cell_sets_to_data()
    with pytest.warns(UserWarning, match="Not all points are part of a point set"):
        m.point_sets_to_data()
    mio.write(tmp_path / "m.vtu", method_mesh(mio))
    with pytest.warns(DeprecationWarning, match="Mesh.read is deprecated"):
        assert len(mio.Mesh.read(tmp_path / "m.vtu").points) == 8


def test_meshio_53_methods():
    """Methods meshio 5.3 added (Debian's 5.0 lacks them): checked against their definition."""
    m = method_mesh(mio)
    m.prune_z_0()
    assert m.points.shape[1] == 3  # point 6 has z = 1
    flat = mio.Mesh(POINTS[:6, :].copy(), [("triangle", [[0, 1, 2]])], point_data={"GLOBAL_ID": np.arange(1, 7)}, point_sets={"s": [0, 4]})
    flat.prune_z_0()
    assert flat.points.shape == (6, 2)
    flat.remove_orphaned_nodes()
    assert flat.points.tolist() == POINTS[:3, :2].tolist()
    assert flat.point_data["GLOBAL_ID"].tolist() == [1, 2, 3] and flat.point_sets["s"].tolist() == [0]
    m = method_mesh(mio)
    m.remove_lower_dimensional_cells()
    assert [c.type for c in m.cells] == ["tetra"] and m.cell_data["mat"][0].tolist() == [3]
    assert m.cell_sets["a"][0].tolist() == [0] and m.cell_sets["b"][0].tolist() == []
    m = mio.Mesh(POINTS[:4], [("triangle", [[0, 1, 2], [0, 2, 3]])], point_sets={"p": [0, 1], "q": [2, 3]},
                 cell_sets={"a": [[0]], "b": [[1]]})
    m.sets_to_int_data()  # meshio 5.3: cell_sets_to_data + point_sets_to_data
    assert not m.cell_sets and not m.point_sets
    assert m.point_data["p-q"].tolist() == [0, 0, 1, 1] and m.cell_data["a-b"][0].tolist() == [0, 1]
    m.int_data_to_sets()  # and back, the names from the "-"-joined keys
    assert not m.point_data and not m.cell_data
    assert as_plain(dict(m.point_sets)) == {"p": [0, 1], "q": [2, 3]}
    assert as_plain(dict(m.cell_sets)) == {"a": [[0]], "b": [[1]]}


def test_register_format_plugs_in_beside_the_cpp_formats(tmp_path):
    calls = []

    def reader(filename):
        calls.append(("read", str(filename)))
        return mio.Mesh(np.zeros((1, 3)), [("vertex", [[0]])])

    def writer(filename, mesh, **kwargs):
        calls.append(("write", str(filename), kwargs))
        with open(filename, "w") as f:
            f.write("x")

    mio.register_format("xyzfmt", [".xyz"], reader, {"xyzfmt": writer})
    try:
        assert "xyzfmt" in mio.extension_to_filetypes[".xyz"]
        mio.write(tmp_path / "a.xyz", mio.Mesh(np.zeros((1, 3)), []), flag=1)
        assert len(mio.read(tmp_path / "a.xyz").points) == 1
        assert mio.read(tmp_path / "a.xyz", file_format="xyzfmt").cells[0].type == "vertex"
        assert calls[0][0] == "write" and calls[0][2] == {"flag": 1} and calls[1][0] == "read"
        # the C++ formats still work beside it
        mio.write(tmp_path / "b.vtu", method_mesh(mio))
        assert len(mio.read(tmp_path / "b.vtu").points) == 8
    finally:
        mio.deregister_format("xyzfmt")
    assert "xyzfmt" not in mio.extension_to_filetypes.get(".xyz", [])
    with pytest.raises(mio.ReadError):
        mio.read(tmp_path / "a.xyz")
    # a C++ format can be deregistered and registered back
    mio.deregister_format("vtu")
    try:
        with pytest.raises(mio.WriteError):
            mio.write(tmp_path / "c.vtu", method_mesh(mio), file_format="vtu")
    finally:
        mio.register_format("vtu", [".vtu"], None, {})
    mio.write(tmp_path / "c.vtu", method_mesh(mio), file_format="vtu")


def test_extension_table_matches_meshios_for_shared_formats():
    for ext, names in meshio.extension_to_filetypes.items():
        for name in names:
            if name in OURS_FORMATS:
                assert name in mio.extension_to_filetypes.get(ext, []), (ext, name)


# ---------------------------------------------------------------------------------------
# Writers and round trips

SHARED_RW = sorted(
    name for name, f in mio.formats().items() if f["read"] and f["write"] and name in meshio._helpers.reader_map and name in meshio._helpers._writer_map
)


def std_meshes():
    """meshio's test meshes (its tests/helpers.py), each with point, cell and field data."""
    rng = np.random.default_rng(1)
    p3 = rng.random((30, 3))
    out = {
        "line": [("line", [[0, 1], [1, 2], [2, 3]])],
        "triangle": [("triangle", [[0, 1, 2], [0, 2, 3]])],
        "quad": [("quad", [[0, 1, 2, 3], [1, 4, 5, 2]])],
        "tri_quad": [("triangle", [[0, 1, 2], [0, 2, 3]]), ("quad", [[1, 4, 5, 2]])],
        "polygons_mixed": [("polygon", [[0, 1, 2], [1, 2, 3]]), ("polygon", [[0, 1, 2, 3]]), ("polygon", [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]])],
        "tetra": [("tetra", [[0, 1, 2, 3], [1, 2, 3, 4]])],
        "hexahedron": [("hexahedron", [list(range(8)), list(range(8, 16))])],
        "wedge": [("wedge", [list(range(6)), list(range(6, 12))])],
        "pyramid": [("pyramid", [list(range(5)), list(range(5, 10))])],
        "tet_hex": [("tetra", [[0, 1, 2, 3]]), ("hexahedron", [list(range(8, 16))])],
    }
    for t in ("line3", "triangle6", "quad8", "quad9", "tetra10", "hexahedron20", "hexahedron27", "wedge15", "wedge18", "pyramid13", "pyramid14",
              "line4", "triangle10", "quad16", "tetra20", "hexahedron64", "wedge40", "triangle15", "tetra35", "hexahedron125", "wedge75"):
        n = meshio._common.num_nodes_per_cell[t]
        out[t] = [(t, [list(range(n))])]
    meshes = {}
    for name, cells in out.items():
        npts = max(max(max(row) for row in data) for _, data in cells) + 1
        pts = p3[:npts] if npts <= 30 else rng.random((npts, 3))
        meshes[name] = (pts, cells)
    return meshes


STD = std_meshes()


def build(M, name, data=True):
    points, cells = STD[name]
    cells = [(t, np.array(d)) for t, d in cells]
    kw = {}
    if data:
        rng = np.random.default_rng(2)
        kw["point_data"] = {"pd": rng.random(len(points)), "pv": rng.random((len(points), 3))}
        kw["cell_data"] = {"cd": [rng.random(len(d)) for _, d in cells]}
        kw["field_data"] = {"fd": np.array([1.5, 2.5])}
    return M.Mesh(np.array(points), cells, **kw)


class Holds:
    """What a format can hold: its cell types (None: every type of the vocabulary), the
    ranks of point and cell data it keeps (1: one value per point/cell, 2: vectors), and
    whether it keeps point sets and sets of its cells. `by_count`: faces are stored as node lists only,
    so a 3- or 4-node polygon is a triangle or quad in the file (OFF, PLY, OBJ)."""

    def __init__(self, cells=None, point_data=(1, 2), cell_data=(1, 2), point_sets=False, cell_sets=False, by_count=False):
        self.cells, self.point_data, self.cell_data = cells, point_data, cell_data
        self.point_sets, self.cell_sets, self.by_count = point_sets, cell_sets, by_count

    def holds_type(self, cell_type):
        return self.cells is None or cell_type in self.cells


LINEAR = {"line", "triangle", "quad", "tetra", "hexahedron", "wedge", "pyramid"}
# The formats' own limits (their specs, docs/formats/<name>.md). What meshio 5.0 keeps of
# each is derived from its own round trip (meshio_keeps) and narrows the comparisons with
# meshio; our own round trip is compared on everything here.
FORMAT_HOLDS = {
    # Fluent's cell types (docs/formats/ansys.md); meshio's layout keeps no data or sets.
    "ansys": Holds(LINEAR - {"line"}, point_data=(), cell_data=()),
    "abaqus": Holds(LINEAR - {"pyramid"} | {"line3", "triangle6", "quad8", "quad9", "tetra10", "hexahedron20", "hexahedron27", "wedge15"},
                    point_data=(), cell_data=(), point_sets=True, cell_sets=True),
    # Exodus II element types (docs/formats/exodus.md); node sets; variables of one value or
    # three components (others are written as <name>_0, <name>_1, ... and read back so).
    # DOLFIN XML: one cell type per file; cell data in companion files, one value per cell.
    "dolfin-xml": Holds({"line", "triangle", "tetra"}, point_data=(), cell_data=(1,)),
    # AVS-UCD cell types; data of any component count; material ids as avsucd:material.
    "avsucd": Holds(LINEAR | {"vertex"}),
    "exodus": Holds(LINEAR | {"line3", "triangle6", "quad8", "quad9", "tetra10", "hexahedron20", "hexahedron27",
                              "wedge15", "pyramid13"}, point_sets=True),
    # FLAC3D zones and faces; groups come back named "zone:<name>:<slot>", as meshio names them.
    "flac3d": Holds({"tetra", "pyramid", "wedge", "hexahedron", "triangle", "quad"}, point_data=(), cell_data=()),
    "gmsh": Holds(cell_sets=True),  # physical groups; a node set is no Gmsh entity
    # Kratos geometries meshio names (docs/formats/mdpa.md); sub-model parts hold both kinds of set.
    "mdpa": Holds({"vertex", "line", "line3", "triangle", "triangle6", "quad", "quad8", "quad9", "tetra", "tetra10", "wedge",
                   "hexahedron", "hexahedron20", "hexahedron27"}, point_sets=True, cell_sets=True),
    "medit": Holds(LINEAR | {"line3", "triangle6", "quad9", "tetra10"}, point_data=(), cell_data=()),
    # CGNS element types (docs/formats/cgns.md); Vertex BCs and ZoneSubRegions are sets.
    "cgns": Holds(LINEAR | {"vertex", "line3", "triangle6", "quad8", "quad9", "tetra10", "pyramid13", "pyramid14", "triangle10", "wedge15", "wedge18",
                            "hexahedron20", "hexahedron27", "polygon"}, point_sets=True, cell_sets=True),
    # MED's cell types meshio maps (docs/formats/med.md); node and cell groups as families.
    "med": Holds(LINEAR | {"vertex", "line3", "triangle6", "quad8", "tetra10", "hexahedron20", "pyramid13", "wedge15"},
                 point_sets=True, cell_sets=True),
    # meshio's element classes (docs/formats/permas.md); $NSET / $ESET records.
    "permas": Holds(LINEAR | {"vertex", "line3", "triangle6", "quad8", "quad9", "tetra10", "wedge15", "hexahedron20", "hexahedron27"},
                    point_data=(), cell_data=(), point_sets=True, cell_sets=True),
    "nastran": Holds(LINEAR | {"triangle6", "quad8", "quad9", "tetra10", "hexahedron20", "wedge15", "pyramid13"},
                     point_data=(), cell_data=()),
    # Netgen's element types (docs/formats/netgen.md); its one integer per element is the
    # bookkeeping "netgen:index", no user data.
    "netgen": Holds({"vertex", "line", "triangle", "triangle6", "quad", "quad8", "tetra", "pyramid", "wedge", "hexahedron",
                     "tetra10", "pyramid13", "wedge15", "hexahedron20"}, point_data=(), cell_data=()),
    "neuroglancer": Holds({"triangle"}, point_data=(), cell_data=()),
    "obj": Holds({"line", "triangle", "quad", "polygon"}, point_data=(), cell_data=(), by_count=True),
    "off": Holds({"triangle", "quad", "polygon"}, point_data=(), cell_data=(), by_count=True),
    "ply": Holds({"line", "triangle", "quad", "polygon"}, point_data=(1,), cell_data=(1,), by_count=True),
    "stl": Holds({"triangle"}, point_data=(), cell_data=()),
    # SU2 markers are sets of boundary faces only (docs/formats/su2.md): no set of its cells.
    "su2": Holds(LINEAR - {"line"}, point_data=(), cell_data=()),
    # TetGen: tetrahedra (+ boundary triangles and edges in .face / .edge); point data of one
    # value per point are attributes, but come back named tetgen:attr<k> (as in meshio).
    "tetgen": Holds({"tetra", "tetra10", "triangle", "triangle6", "line", "line3"}, point_data=(), cell_data=()),
    # UGRID: surface triangles / quads and the four volume types; its one cell array is the
    # surface ID (ugrid:ref), no point data.
    "ugrid": Holds({"triangle", "quad", "tetra", "pyramid", "wedge", "hexahedron"}, point_data=(), cell_data=()),
    # Tecplot zone types (docs/formats/tecplot.md); a (n, k) array is written as k variables
    # <name>_0 ... (VECTORS_AS_COMPONENTS joins them back for the comparisons).
    "tecplot": Holds(LINEAR),
    "vtk": Holds(),
    "wkt": Holds({"triangle"}, point_data=(), cell_data=()),
    "vtu": Holds(),
    # XDMF topologies (docs/formats/xdmf.md): no sets, no polyhedra.
    "xdmf": Holds(LINEAR | {"vertex", "line3", "triangle6", "quad8", "quad9", "tetra10", "pyramid13", "wedge15",
                            "wedge18", "polygon"} | {f"hexahedron{n}" for n in (20, 24, 27, 64, 125, 216, 343, 512, 729, 1000, 1331)}),
    # H5M (docs/formats/h5m.md): the linear types meshio's reader maps, dense tags of any rank.
    "h5m": Holds(LINEAR),
}
# HMF's topologies are XDMF's (docs/formats/hmf.md).
FORMAT_HOLDS["hmf"] = FORMAT_HOLDS["xdmf"]
# Data a format's writer adds by default (H5M: GLOBAL_ID, add_global_ids=True as meshio's):
# left out of the comparisons like the "<format>:..." bookkeeping.
ADDED_DATA = {"h5m": ("GLOBAL_ID",)}
# Formats whose writer refuses a block it cannot hold, where meshio 5.0 drops it with a
# warning (docs/python.md, deliberate differences: a write never loses cells silently).
REFUSES_UNHELD = {"stl", "off", "wkt"}
REFUSES_UNHELD.add("flac3d")  # quadratic zones: meshio writes their corners as linear zones
# Writers that put each volume cell in right-handed node order, as meshio's does (FLAC3D): a
# mirrored cell of the input comes back mirrored, so our own round trip keeps each cell's
# nodes, not their order (the comparisons with meshio stay exact).
WRITES_RIGHT_HANDED = {"flac3d"}


# Formats that store cells by type in an order of their own (MED: by its type names, as
# meshio's reader gives them back too): our own round trip keeps each block, not the order.
REORDERS_BLOCKS = {"med", "cgns"}  # CGNS: the sections of the cells' dimension first


def blocks_by_type(c):
    order = sorted(range(len(c["cells"])), key=lambda i: c["cells"][i][0])
    return dict(c, cells=[c["cells"][i] for i in order], cell_data={k: [v[i] for i in order] for k, v in c["cell_data"].items()})


def node_sets(c):
    return dict(c, cells=[(t, np.sort(d, axis=1)) for t, d in c["cells"]])


def meshio_keeps(fmt, _cache={}):
    """What meshio 5.0's own writer and reader keep in `fmt`: the cell types of the
    single-type standard meshes that come back, and the data ranks of the triangle mesh."""
    if fmt not in _cache:
        import tempfile

        types, pd, cd = set(), set(), set()
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / f"k{EXT[fmt]}"
            for name, (_, cells) in STD.items():
                if len(cells) != 1:
                    continue
                try:
                    meshio_write(path, build(meshio, name), fmt)
                    back = meshio_read(path, fmt)
                except Exception:  # noqa: BLE001 - meshio cannot write or read it back
                    continue
                if [c.type for c in back.cells if len(c)] == [cells[0][0]]:
                    types.add(cells[0][0])
                    if name == "triangle":
                        pd = {np.asarray(v).ndim for k, v in back.point_data.items() if k in ("pd", "pv")}
                        cd = {np.asarray(v[0]).ndim for k, v in back.cell_data.items() if k == "cd"}
        _cache[fmt] = Holds(types, tuple(pd), tuple(cd))
    return _cache[fmt]


@pytest.mark.parametrize("fmt", SHARED_RW)
def test_format_holds_is_no_narrower_than_either_library(tmp_path, fmt):
    """FORMAT_HOLDS narrows the comparisons, so it must not hide anything: every cell type
    and data rank that meshio's own round trip keeps, or ours keeps, is in the table."""
    holds, theirs = FORMAT_HOLDS[fmt], meshio_keeps(fmt)
    assert all(holds.holds_type(t) for t in theirs.cells), (fmt, theirs.cells)
    assert set(theirs.point_data) <= set(holds.point_data) and set(theirs.cell_data) <= set(holds.cell_data)
    path = tmp_path / f"h{EXT[fmt]}"
    for name, (_, cells) in STD.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                mio.write(path, build(mio, name), fmt)
            except (mio.WriteError, ValueError):
                assert not holds.holds_type(cells[0][0]) or len(cells) > 1, name  # refused: not held
                continue
            back = mio.read(path, fmt)
        kept = {c.type for c in back.cells if len(c)}
        assert all(holds.holds_type(t) for t in kept), (name, kept)
        ranks = lambda data: {np.asarray(v[0] if isinstance(v, list) else v).ndim for k, v in data.items()  # noqa: E731
                              if k in ("pd", "pv", "cd")}
        assert ranks(back.point_data) <= set(holds.point_data) and (not kept or ranks(back.cell_data) <= set(holds.cell_data))


def narrowed(fmt):
    """What both libraries keep in `fmt`: the comparisons with meshio."""
    ours, theirs = FORMAT_HOLDS[fmt], meshio_keeps(fmt)
    cells = theirs.cells if ours.cells is None else ours.cells & theirs.cells
    return Holds(cells, tuple(set(ours.point_data) & set(theirs.point_data)),
                 tuple(set(ours.cell_data) & set(theirs.cell_data)), by_count=ours.by_count)


# Formats that store a (n, k) array as k variables <name>_0 ... <name>_(k-1), as meshio
# writes them (Tecplot): the comparisons join such columns back, on both sides alike.
VECTORS_AS_COMPONENTS = {"tecplot"}


def joined_components(data):
    """`data` (name -> array, or name -> per-block arrays) with <name>_0 ... <name>_(k-1)
    (k >= 2, no array <name>) stacked back into one (n, k) array <name>."""
    import re

    out, bases = dict(data), {}
    for key in data:
        match = re.fullmatch(r"(.+)_(\d+)", key)
        if match:
            bases.setdefault(match.group(1), set()).add(int(match.group(2)))
    for base, idx in bases.items():
        if base in data or len(idx) < 2 or idx != set(range(len(idx))):
            continue
        cols = [out.pop(f"{base}_{i}") for i in range(len(idx))]
        if isinstance(cols[0], list):
            out[base] = [np.column_stack([np.asarray(c[b]) for c in cols]) for b in range(len(cols[0]))]
        else:
            out[base] = np.column_stack([np.asarray(c) for c in cols])
    return out


def comparable(m, fmt, holds=None):
    """What two readers must agree on: points, the cells of the types `holds` has (default:
    what the format holds), user data of the ranks it keeps. Format bookkeeping (keys
    "<format>:...", such as gmsh:physical or medit:ref) stays out."""
    holds = FORMAT_HOLDS[fmt] if holds is None else holds
    ignore = tuple(f"{name}:" for name in FORMAT_HOLDS) + ("vtkOriginalCellIds",) + ADDED_DATA.get(fmt, ())
    named = {3: "triangle", 4: "quad"}
    blocks = []
    for i, c in enumerate(m.cells):
        data = np.asarray(c.data)
        t = named.get(data.shape[1], c.type) if holds.by_count and c.type == "polygon" and data.ndim == 2 else c.type
        if holds.holds_type(t) and len(data):
            blocks.append((i, t, data))
    point_data, cell_data = m.point_data, m.cell_data
    if fmt in VECTORS_AS_COMPONENTS:
        point_data, cell_data = joined_components(point_data), joined_components(cell_data)
    return {
        "points": np.asarray(m.points, dtype=float),
        "cells": [(t, d) for _, t, d in blocks],
        "point_data": {k: np.asarray(v) for k, v in point_data.items()
                       if not k.startswith(ignore) and np.asarray(v).ndim in holds.point_data},
        "cell_data": {k: [np.asarray(v[i]) for i, _, _ in blocks] for k, v in cell_data.items()
                      if blocks and not k.startswith(ignore) and np.asarray(v[0]).ndim in holds.cell_data},
    }


def assert_same(a, b, atol=1e-12):
    np.testing.assert_allclose(a["points"][:, : min(a["points"].shape[1], b["points"].shape[1])],
                               b["points"][:, : min(a["points"].shape[1], b["points"].shape[1])], atol=atol, rtol=0)
    assert [t for t, _ in a["cells"]] == [t for t, _ in b["cells"]]
    for (_, x), (_, y) in zip(a["cells"], b["cells"]):
        np.testing.assert_array_equal(x, y)
    assert a["point_data"].keys() == b["point_data"].keys()
    for k in a["point_data"]:
        np.testing.assert_allclose(a["point_data"][k], b["point_data"][k], atol=atol, rtol=0)
    assert a["cell_data"].keys() == b["cell_data"].keys()
    for k in a["cell_data"]:
        for x, y in zip(a["cell_data"][k], b["cell_data"][k]):
            np.testing.assert_allclose(x, y, atol=atol, rtol=0)


def meshio_write(path, mesh, fmt, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        meshio.write(path, mesh, fmt, **kw)


def meshio_read(path, fmt):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return meshio.read(path, fmt)


# Field data meshio keeps that is no array (docs/python.md, deliberate differences): MED's
# component names per field, a list of lists of strings.
MESHIO_ONLY_FIELD_DATA = {"med:nom"}


# Formats that store positions as float32: our own round trip of float64 points is that close.
FLOAT32_POSITIONS = {"neuroglancer": 1e-7}
EXT = {name: (mio.formats()[name]["extensions"] or [""])[0] for name in SHARED_RW}  # neuroglancer has none
# meshio 5.0 reads ASCII UGRID coordinates as float32 (docs/python.md): UGRID is compared on
# a binary variant, whose float64 both libraries keep.
EXT["ugrid"] = ".lb8.ugrid"


@pytest.mark.parametrize("fmt", SHARED_RW)
@pytest.mark.parametrize("name", list(STD))
def test_round_trip_against_meshio(tmp_path, fmt, name):
    """meshio's write_read on both sides: A = meshio reads meshio's file (the reference),
    B = meshio reads our file, C = we read meshio's file; B == A and C == A, and neither
    writer mutates its input."""
    ours_in = build(mio, name)
    ours_before = copy.deepcopy(ours_in)
    ext = EXT[fmt]
    theirs_path, ours_path = tmp_path / f"theirs{ext}", tmp_path / f"ours{ext}"
    try:
        meshio_write(theirs_path, build(meshio, name), fmt)
        reference = meshio_read(theirs_path, fmt)
    except Exception as e:  # meshio cannot build this mesh, or hold it in this format
        their_error = e
    else:
        their_error = None
    holds = FORMAT_HOLDS[fmt]
    unheld = [c.type for c in ours_in.cells if not holds.holds_type(c.type)]
    try:
        mio.write(ours_path, ours_in, fmt)
    except (mio.WriteError, ValueError) as e:
        if their_error is not None:
            return  # we refuse what meshio refuses too
        # Deliberate difference (docs/python.md): these writers refuse a block the format
        # cannot hold, naming it, where meshio drops it with a warning.
        assert fmt in REFUSES_UNHELD and unheld, f"meshio writes {name} as {fmt}, we raised {e}"
        assert f"'{unheld[0]}'" in str(e)
        assert not any(c.type in unheld and len(c) for c in reference.cells)  # meshio dropped them
        return
    assert_same(comparable(ours_before, fmt), comparable(ours_in, fmt), atol=0)  # input not mutated
    ours_back = mio.read(ours_path, fmt)
    if fmt in WRITES_RIGHT_HANDED:
        assert_same(node_sets(comparable(ours_in, fmt)), node_sets(comparable(ours_back, fmt)))
    elif fmt in REORDERS_BLOCKS:
        assert_same(blocks_by_type(comparable(ours_in, fmt)), blocks_by_type(comparable(ours_back, fmt)))
    else:
        assert_same(comparable(ours_in, fmt), comparable(ours_back, fmt), atol=FLOAT32_POSITIONS.get(fmt, 1e-12))
    if their_error is not None:
        return  # meshio 5.0 cannot hold this mesh in this format: our own round trip held
    both = narrowed(fmt)
    if fmt in DEGENERATE_AS and {c.type for c in ours_in.cells} - {c.type for c in reference.cells}:
        # Deliberate difference (docs/formats/<fmt>.md): meshio 5.0 reads the degenerate
        # elements its writer makes (a triangle as a quad with a repeated node, a tetra,
        # pyramid or wedge as a collapsed brick) as quads and bricks; we read them as the
        # cells they stand for. Spread back by meshio's own writer table, ours are its rows.
        ours_back, spread = mio.read(theirs_path, fmt), DEGENERATE_AS[fmt]
        width = reference.cells[0].data.shape[1]
        np.testing.assert_array_equal(np.concatenate([spread(c.type, c.data, width) for c in ours_back.cells]),
                                      np.concatenate([c.data for c in reference.cells]))
        for key in comparable(reference, fmt, both)["cell_data"]:
            np.testing.assert_allclose(np.concatenate(ours_back.cell_data[key]), np.concatenate(reference.cell_data[key]))
        no_cells = lambda m: dict(comparable(m, fmt, both), cells=[], cell_data={})  # noqa: E731
        assert_same(no_cells(reference), no_cells(ours_back))
        assert_same(comparable(reference, fmt, both), comparable(meshio_read(ours_path, fmt), fmt, both))  # B == A
        return
    if (name, fmt) in MESHIO_FILES_WE_REJECT:
        # Deliberate difference (docs/formats/<fmt>.md): meshio 5.0 writes a file the
        # format's spec forbids; we refuse to read it, naming the line.
        with pytest.raises(mio.ReadError, match=MESHIO_FILES_WE_REJECT[(name, fmt)]):
            mio.read(theirs_path, fmt)
        read_by_us = None
    else:
        read_by_us = comparable(mio.read(theirs_path, fmt), fmt, both)
    reference = comparable(reference, fmt, both)
    if not all(both.holds_type(t) for t, _ in comparable(ours_in, fmt)["cells"]):
        # Our file holds a type of the format that meshio 5.0's reader does not know (OFF
        # quads, Medit's P2 keywords): meshio cannot read it; C == A still holds.
        assert_same(reference, read_by_us)
        return
    if fmt in MESHIO_READS_FACE_DATA_ONLY_AS and comparable(ours_in, fmt)["cell_data"]:
        # meshio 5.0's binary PLY reader cannot read face properties (docs/formats/ply.md);
        # its ASCII reader can: B is checked on our ASCII file.
        mio.write(ours_path, ours_in, fmt, **MESHIO_READS_FACE_DATA_ONLY_AS[fmt])
    from_ours = comparable(meshio_read(ours_path, fmt), fmt, both)
    if (name, fmt) in NODE_ORDER_DIFFERENCES:
        # Deliberate difference (docs/python.md): meshio 5.0 keeps Gmsh's wedge18 node order
        # in memory; we hold VTK's, as for wedge15 (ours[j] = gmsh[perm[j]]). So meshio's
        # rows of our file, permuted, are the reference, and our rows of meshio's file are
        # the reference permuted.
        perm = NODE_ORDER_DIFFERENCES[(name, fmt)]
        from_ours["cells"] = [(t, d[:, perm]) for t, d in from_ours["cells"]]
        reference_ours = dict(reference, cells=[(t, d[:, perm]) for t, d in reference["cells"]])
    else:
        reference_ours = reference
    if (name, fmt) in MESHIO_WRITES_CELL_DATA_OF_SKIPPED_BLOCKS:
        # Deliberate difference (docs/formats/dolfin.md): meshio 5.0 writes the values of the
        # last block (the hexahedron it skipped) as the tetra's; ours are the tetra's own.
        np.testing.assert_array_equal(reference["cell_data"]["cd"][0], ours_in.cell_data["cd"][-1])
        np.testing.assert_array_equal(read_by_us["cell_data"]["cd"][0], ours_in.cell_data["cd"][-1])
        np.testing.assert_array_equal(from_ours["cell_data"]["cd"][0], ours_in.cell_data["cd"][0])
        for d in (reference, from_ours, read_by_us):
            d["cell_data"] = {}
    if (name, fmt) in MESHIO_READS_WRITTEN_ORDER:
        # Deliberate difference (docs/python.md): meshio 5.0 writes these rows in the
        # format's node order but reads them back as they are in the file; we read VTK's
        # order back, so our rows of meshio's file are its rows un-permuted.
        perm = MESHIO_READS_WRITTEN_ORDER[(name, fmt)]
        reference_ours = dict(reference, cells=[(t, d[:, perm]) for t, d in reference["cells"]])
    assert_same(reference, from_ours)  # B == A
    if read_by_us is None:
        return
    assert_same(reference_ours, read_by_us)  # C == A
    # Field data: whatever meshio keeps through its own writer, it finds in ours and we in its.
    theirs_back = meshio_read(theirs_path, fmt)
    for key, value in theirs_back.field_data.items():
        if key in MESHIO_ONLY_FIELD_DATA:
            continue
        np.testing.assert_array_equal(meshio_read(ours_path, fmt).field_data[key], value)
        np.testing.assert_array_equal(mio.read(theirs_path, fmt).field_data[key], value)


NODE_ORDER_DIFFERENCES = {
    ("wedge18", "gmsh"): [0, 1, 2, 3, 4, 5, 6, 9, 7, 12, 14, 13, 8, 10, 11, 15, 17, 16],
    # meshio 5.0 keeps Abaqus's 3-node line order (end, middle, end); we hold VTK's
    # (docs/formats/abaqus.md, "Node order").
    ("line3", "abaqus"): [0, 2, 1],
    # meshio 5.0 keeps Exodus's HEX20 / HEX27 node order in memory; we hold VTK's, the order
    # vtkExodusIIReader gives (docs/formats/exodus.md).
    ("hexahedron20", "exodus"): [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 16, 17, 18, 19, 12, 13, 14, 15],
    ("hexahedron27", "exodus"): [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 16, 17, 18, 19, 12, 13, 14, 15,
                                 23, 24, 25, 26, 21, 22, 20],
    # meshio 5.0 keeps Kratos' HEX20 / HEX27 node order (as in the file) in memory; we hold
    # VTK's (docs/formats/mdpa.md).
    ("hexahedron20", "mdpa"): [0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 10, 9, 16, 19, 18, 17, 12, 13, 14, 15],
    ("hexahedron27", "mdpa"): [0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 10, 9, 16, 19, 18, 17, 12, 13, 14, 15, 24, 22, 20, 23, 21, 25, 26],
}
# meshio 5.0's PERMAS writer puts these types in PERMAS' node order, its reader keeps the
# file's order: the inverse of the writer's permutation.
MESHIO_READS_WRITTEN_ORDER = {
    ("triangle6", "permas"): [0, 2, 4, 1, 3, 5],
    ("tetra10", "permas"): [0, 2, 4, 9, 1, 3, 5, 6, 7, 8],
    ("quad9", "permas"): [0, 2, 8, 6, 1, 5, 7, 3, 4],
    ("wedge15", "permas"): [0, 2, 4, 9, 11, 13, 1, 3, 5, 6, 7, 8, 10, 12, 14],
}
# meshio 5.0's reader raises on the set records the format's spec spells (PERMAS
# "$NSET NAME = <name>": it wants a parameter named NSET); our files hold them.
MESHIO_RAISES_ON_SET_RECORDS = {"permas": RuntimeError}
# Formats whose degenerate elements we read as the cells they stand for, where meshio 5.0
# keeps the element type of the zone: (cell type, our rows, the zone's node count) -> the
# rows meshio reads, by meshio's own writer table.
DEGENERATE_AS = {
    "tecplot": lambda t, d, k: d if d.shape[1] == k else d[:, meshio.tecplot._tecplot.meshio_to_tecplot_order_2[t]],
}
MESHIO_READS_FACE_DATA_ONLY_AS = {"ply": {"binary": False}}
# meshio 5.0's DOLFIN XML writer writes every block's cell data to one companion file per
# name, so the last block's values stand for the cells of the one type it wrote.
MESHIO_WRITES_CELL_DATA_OF_SKIPPED_BLOCKS = {("tet_hex", "dolfin-xml")}
# meshio 5.0 files that break the format's spec: meshio writes line3 as B33H, a 2-node
# Abaqus beam, with 3 nodes (docs/formats/abaqus.md, "Node order").
MESHIO_FILES_WE_REJECT = {("line3", "abaqus"): "node labels"}


@pytest.mark.parametrize("fmt", SHARED_RW)
def test_sets_round_trip_against_meshio(tmp_path, fmt):
    """Point and cell sets: whatever meshio keeps of them through its own writer, meshio
    finds in our file, and we find in its file, as they were written; formats that hold
    sets (FORMAT_HOLDS) keep them through our own round trip."""
    both = narrowed(fmt)
    # tri_quad where both libraries keep triangles and quads in this format, else triangles.
    two_types = both.holds_type("triangle") and both.holds_type("quad")

    def with_sets(M):
        m = build(M, "tri_quad" if two_types else "triangle")
        m.point_sets = {"ps": np.array([0, 2])}
        m.cell_sets = {"cs": [np.array([1]), np.array([0])] if two_types else [np.array([1])]}
        return m

    written = {"ps": [0, 2]}
    written_cells = {"triangle": [1], "quad": [0]} if two_types else {"triangle": [1]}
    ext = EXT[fmt]
    ours_in = with_sets(mio)
    mio.write(tmp_path / f"o{ext}", ours_in, fmt)
    assert list(ours_in.point_sets) == ["ps"] and list(ours_in.cell_sets) == ["cs"]  # input not mutated (meshio's is)
    back = mio.read(tmp_path / f"o{ext}", fmt)
    if FORMAT_HOLDS[fmt].cell_sets:
        # Gmsh element blocks are per entity, so the triangles may come back in two blocks.
        assert as_plain(back.cell_sets_dict["cs"]) == written_cells
    if FORMAT_HOLDS[fmt].point_sets:
        assert as_plain(back.point_sets["ps"]) == written["ps"]
    try:
        meshio_write(tmp_path / f"t{ext}", with_sets(meshio), fmt)
        ref = meshio_read(tmp_path / f"t{ext}", fmt)
    except Exception:  # noqa: BLE001 - meshio 5.0 cannot write this mesh in this format
        # gmsh: its writer needs gmsh:dim_tags for several cell types; su2: its writer
        # fails on any mesh (it unpacks CellBlocks as tuples). Our own round trip held.
        return
    if fmt in MESHIO_READS_FACE_DATA_ONLY_AS:
        mio.write(tmp_path / f"o{ext}", ours_in, fmt, **MESHIO_READS_FACE_DATA_ONLY_AS[fmt])
    if fmt in MESHIO_RAISES_ON_SET_RECORDS:
        with pytest.raises(MESHIO_RAISES_ON_SET_RECORDS[fmt]):
            meshio_read(tmp_path / f"o{ext}", fmt)
        return
    # Formats without sets (VTU, VTK): meshio's writer stores them as int data; so do we.
    from_ours = meshio_read(tmp_path / f"o{ext}", fmt)
    for attr in ("point_data", "cell_data"):
        for key, value in getattr(ref, attr).items():
            if key in ("ps", "cs"):
                assert as_plain(getattr(from_ours, attr)[key]) == as_plain(value), (attr, key)
    if fmt in ("vtu", "vtk"):
        assert "ps" in ref.point_data and "cs" in ref.cell_data  # the check above was not empty
    # The sets meshio keeps by name, meshio finds in our file and we in its file, as written
    # (meshio 5.0 itself reads back only the last of several *ELSET blocks of one name).
    assert set(ref.point_sets) <= {"ps"} and set(ref.cell_sets) <= {"cs"}
    if "cs" in ref.cell_sets:
        assert as_plain(meshio_read(tmp_path / f"o{ext}", fmt).cell_sets_dict["cs"]) == written_cells
        assert as_plain(mio.read(tmp_path / f"t{ext}", fmt).cell_sets_dict["cs"]) == written_cells
    if "ps" in ref.point_sets:
        assert as_plain(meshio_read(tmp_path / f"o{ext}", fmt).point_sets["ps"]) == written["ps"]
        assert as_plain(mio.read(tmp_path / f"t{ext}", fmt).point_sets["ps"]) == written["ps"]


def writer_keywords(fmt):
    module = getattr(meshio, next((m for m, fs in MESHIO_MODULE_FORMATS.items() if fmt in fs), fmt))
    params = inspect.signature(module.write).parameters.values()
    return [(p.name, p.default) for p in params if p.default is not p.empty]


WRITER_KW = [(fmt, kw, default) for fmt in SHARED_RW for kw, default in writer_keywords(fmt)]


@pytest.mark.parametrize("fmt, kw, default", WRITER_KW, ids=[f"{f}-{k}" for f, k, _ in WRITER_KW])
def test_writer_accepts_meshios_keywords(tmp_path, fmt, kw, default):
    path = tmp_path / f"k{EXT[fmt]}"
    both = narrowed(fmt)
    # meshio 5.0's CGNS reader reads tetrahedra only (a file of triangles is an error there)
    name = "tetra" if fmt == "cgns" else "tri_quad" if both.holds_type("triangle") and both.holds_type("quad") else "triangle"
    mesh = build(mio, name)
    if fmt in MESHIO_READS_FACE_DATA_ONLY_AS:
        mesh.cell_data = {}  # meshio 5.0's binary PLY reader cannot read face properties
    if fmt == "hmf":
        mesh.cell_data = {}  # meshio 5.0's HMF reader reads no cell data, not even from its own files (docs/formats/hmf.md)
    getattr(mio, fmt).write(path, mesh, **{kw: default})
    assert_same(comparable(meshio_read(path, fmt), fmt, both), comparable(mesh, fmt, both), atol=1e-12)


VARIANTS = {
    "gmsh": [dict(fmt_version=v, binary=b) for v in ("2.2", "4.0", "4.1") for b in (False, True)],
    "vtu": [dict(binary=False), dict(binary=True, compression=None), dict(compression="zlib"), dict(compression="lzma")],
    "vtk": [dict(binary=False), dict(binary=True), dict(fmt_version="4.2"), dict(fmt_version="5.1", binary=False)],
    "xdmf": [dict(data_format="HDF"), dict(data_format="XML"), dict(data_format="HDF", compression=None)],
}


@pytest.mark.parametrize("fmt, kw", [(f, kw) for f, kws in VARIANTS.items() if f in SHARED_RW for kw in kws], ids=str)
def test_writer_variants_meshio_reads(tmp_path, fmt, kw):
    """Every variant meshio writes, we write, and meshio reads ours as it reads its own."""
    # meshio's gmsh writer needs gmsh:dim_tags for more than one cell type: one type there.
    name = "tetra" if fmt == "gmsh" else "tet_hex"
    path_o, path_t = tmp_path / f"o{EXT[fmt]}", tmp_path / f"t{EXT[fmt]}"
    getattr(mio, fmt).write(path_o, build(mio, name), **kw)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        getattr(meshio, fmt).write(path_t, build(meshio, name), **kw)
    ref = comparable(meshio_read(path_t, fmt), fmt)
    assert_same(ref, comparable(meshio_read(path_o, fmt), fmt))
    if fmt == "gmsh" and kw["fmt_version"] == "4.0":
        # meshio 5.0 writes MSH 4.0 element tags from 0, which Gmsh itself rejects ("Unknown
        # entity"); we reject them too. Gmsh is the oracle for our ASCII 4.0 file instead
        # (Gmsh 4.8 reads MSH 4.0 in ASCII only: "Can only read MSH 4.0 format in ASCII
        # mode"); it keeps points and cells (data sections are views it does not re-save).
        assert_same(comparable(build(mio, name), fmt), comparable(mio.read(path_o), fmt))
        if not kw["binary"]:
            gmsh_reads_and_rewrites(path_o, tmp_path / "g.msh")
            expected = comparable(build(mio, name, data=False), fmt)
            assert_same(expected, comparable(mio.read(tmp_path / "g.msh"), fmt), atol=1e-12)
        return
    assert_same(ref, comparable(mio.read(path_t, fmt), fmt))


def gmsh_reads_and_rewrites(src, dst):
    import subprocess

    r = subprocess.run(["gmsh", "-v", "2", str(src), "-0", "-o", str(dst), "-format", "msh41", "-save_all"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "Error" not in r.stdout + r.stderr, r.stdout + r.stderr


def test_file_objects_and_path_likes(tmp_path):
    import io

    m = build(mio, "triangle")
    buf = io.BytesIO()
    mio.write(buf, m, file_format="vtu")
    back = mio.read(io.BytesIO(buf.getvalue()), file_format="vtu")
    assert_same(comparable(m, "vtu"), comparable(back, "vtu"))
    with pytest.raises(mio.ReadError, match="file_format"):
        mio.read(io.BytesIO(buf.getvalue()))
    mio.write_points_cells(tmp_path / "wpc.vtu", m.points, m.cells, point_data=m.point_data, file_format="vtu")
    assert len(mio.read(str(tmp_path / "wpc.vtu")).points) == 4


def test_write_checks_block_shapes_like_meshio(tmp_path):
    bad = mio.Mesh(np.zeros((4, 3)), [])
    bad.cells = [mio.CellBlock("triangle", np.array([[0, 1, 2, 3]]))]
    with pytest.raises(mio.WriteError, match="Unexpected cells array shape"):
        mio.write(tmp_path / "x.vtu", bad)


UNKNOWN_TYPES_VTU = """<?xml version="1.0"?>
<VTKFile type="UnstructuredGrid" version="0.1">
<UnstructuredGrid>
<Piece NumberOfPoints="4" NumberOfCells="3">
<Points><DataArray type="Float64" NumberOfComponents="3" format="ascii">0 0 0 1 0 0 1 1 0 0 1 0</DataArray></Points>
<Cells>
<DataArray type="Int64" Name="connectivity" format="ascii">0 1 2 0 1 2 3 0 2 3</DataArray>
<DataArray type="Int64" Name="offsets" format="ascii">3 7 10</DataArray>
<DataArray type="UInt8" Name="types" format="ascii">5 4 5</DataArray>
</Cells>
<CellData><DataArray type="Float64" Name="c" format="ascii">1 2 3</DataArray></CellData>
</Piece>
</UnstructuredGrid>
</VTKFile>
"""


def test_unknown_cell_types_are_named_never_a_crash(tmp_path):
    """A VTK_POLY_LINE (4) between two triangles: meshio warns and skips it; so do we, with a
    UserWarning (from Mesh::warnings) naming format, file, VTK type name and id, and count."""
    import re

    path = tmp_path / "unknown.vtu"
    path.write_text(UNKNOWN_TYPES_VTU)
    theirs = meshio_read(path, "vtu")
    with pytest.warns(UserWarning) as record:
        ours = mio.read(path)
    notes = [str(w.message) for w in record if issubclass(w.category, UserWarning)]
    assert notes == [f"vtu: {path}: VTK_POLY_LINE (4): 1 cell skipped (meshio++ has no such cell type)"], notes
    assert [(c.type, c.data.tolist()) for c in ours.cells] == [(c.type, c.data.tolist()) for c in theirs.cells]
    assert [(c.type, c.data.tolist()) for c in ours.cells] == [("triangle", [[0, 1, 2]]), ("triangle", [[0, 2, 3]])]
    assert as_plain(ours.cell_data) == as_plain(theirs.cell_data) == {"c": [[1.0], [3.0]]}
    # The skipping is not optional: an option to change it is an unknown option.
    with pytest.raises(ValueError, match=re.escape("unknown option(s) unknown_cells")):
        mio.read(path, unknown_cells="skip")


@pytest.mark.parametrize("ragged", [False, True])
def test_interop_and_device_payload_take_both_block_shapes(tmp_path, ragged):
    """The VTK hand-off and the DLPack payload (host side; no CUDA needed to build it) work
    on meshio's rectangular polygon blocks and on the ragged opt-in."""
    pytest.importorskip("vtk", reason="python3-vtk9 (Debian) is the oracle")
    src = build(mio, "polygons_mixed")
    mio.write(tmp_path / "p.vtu", src)
    mesh = mio.read(tmp_path / "p.vtu", ragged=ragged)
    assert [c.type for c in mesh.cells] == (["polygon"] if ragged else ["polygon"] * 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mio.InteropWarning)
        grid = mio.to_vtk(mesh)
        back = mio.from_vtk(grid)
    assert grid.GetNumberOfCells() == 5
    rows = lambda m: [list(map(int, r)) for c in m.cells for r in c.data]  # noqa: E731
    assert rows(back) == rows(mesh) == [[0, 1, 2], [1, 2, 3], [0, 1, 2, 3], [0, 1, 2, 3, 4], [5, 6, 7, 8, 9]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mio.InteropWarning)
        payload = mio.to_dlpack(mesh)
    if ragged:  # a ragged block cannot be a tensor: dropped with a note
        assert len(payload.cells) == 0 and payload.dropped
    else:  # rectangular polygon blocks are tensors like any other block
        assert [(t, np.asarray(c).shape) for t, c in payload.cells] == [("polygon", (2, 3)), ("polygon", (1, 4)), ("polygon", (2, 5))]


def test_set_views_stay_live_and_cheap():
    """The set dicts are cached views: each set is computed once per change, so a loop over
    many sets is linear; direct changes of mesh.regions or of the blocks are seen."""
    rng = np.random.default_rng(0)
    m = mio.Mesh(rng.random((100, 3)), [("triangle", rng.integers(0, 100, (10, 3))) for _ in range(20)])
    for i in range(100):
        m.regions.append(mio.Region(f"s{i}", "cell", rng.integers(0, 200, 5)))
    assert m.cell_sets is m.cell_sets  # one view while nothing changes
    view = m.cell_sets
    m.cell_sets["extra"] = [np.array([0])] + [np.array([], dtype=int)] * 19
    assert m.cell_sets is view and "extra" in dict.keys(view)  # its own writes keep it
    m.regions.append(mio.Region("direct", "cell", [3]))
    assert m.cell_sets is not view and "direct" in m.cell_sets and "direct" in dict(m.cell_sets)
    m.cells = m.cells[:10]  # fewer blocks: values are recomputed
    assert len(m.cell_sets["direct"]) == 10
    assert isinstance(copy.deepcopy(m).cell_sets, dict) and copy.deepcopy(m).cell_sets is not m.cell_sets


@pytest.mark.parametrize("alias, header", [("gmsh22", b"$MeshFormat\n2.2 "), ("vtk42", b"# vtk DataFile Version 4.2\n"),
                                           ("vtk51", b"# vtk DataFile Version 5.1\n")])
def test_meshios_write_only_format_names(tmp_path, alias, header):
    # meshio's writer names that carry a version: the header meshio's writer gives, and
    # meshio reads the file back.
    path = tmp_path / ("x.msh" if alias.startswith("gmsh") else "x.vtk")
    mesh = build(mio, "tetra")
    mio.write(path, mesh, file_format=alias)
    assert path.read_bytes().startswith(header)
    meshio_write(tmp_path / f"theirs{path.suffix}", build(meshio, "tetra"), alias)
    if alias != "vtk51":  # meshio 5.0 registers "vtk51" but its writer writes version 4.2
        assert (tmp_path / f"theirs{path.suffix}").read_bytes().startswith(header)
    np.testing.assert_array_equal(meshio_read(path, "gmsh" if alias.startswith("gmsh") else "vtk").cells[0].data,
                                  mesh.cells[0].data)
    with pytest.raises(ValueError, match="fmt_version"):
        mio.write(path, mesh, file_format=alias, fmt_version="4.1")
