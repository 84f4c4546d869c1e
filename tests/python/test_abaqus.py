"""Abaqus .inp against the real tools: gmsh's own .inp export reads as the .msh it came from
(points, cells per type, physical groups as sets), CalculiX runs a static step on what we
write (solid tetrahedra and 20-node bricks, triangle and quad shells), meshio reads what we
write and we read what meshio writes with equal arrays, round trips over the canonical
meshes, and the hand-written fixtures as Python sees them (warning texts are asserted in C++,
their arrival as Python warnings here)."""
from __future__ import annotations

import copy
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import helpers
import meshioplusplus as mio

meshio = pytest.importorskip("meshio", reason="meshio is the peer for cross-checks")

DATA = Path(__file__).resolve().parents[1] / "data" / "abaqus"
needs_gmsh = helpers.needs_gmsh_program
needs_ccx = pytest.mark.skipif(shutil.which("ccx") is None, reason="CalculiX is the oracle (Debian calculix-ccx)")

MESHES = {
    "tri": helpers.tri_mesh,
    "line": helpers.line_mesh,
    "quad": helpers.quad_mesh,
    "tri_quad": helpers.tri_quad_mesh,
    "tet": helpers.tet_mesh,
    "hex": helpers.hex_mesh,
}


def with_sets(mesh):
    mesh = copy.deepcopy(mesh)
    n = len(mesh.points)
    mesh.point_sets = {"first": np.array([0, n - 1])}
    mesh.cell_sets = {"some": [np.array([0]) for _ in mesh.cells]}
    return mesh


def assert_sets_equal(a, b):
    assert list(a.point_sets) == list(b.point_sets)
    for k in a.point_sets:
        np.testing.assert_array_equal(np.sort(a.point_sets[k]), np.sort(b.point_sets[k]))
    assert list(a.cell_sets) == list(b.cell_sets)
    for k in a.cell_sets:
        for x, y in zip(a.cell_sets[k], b.cell_sets[k]):
            np.testing.assert_array_equal(np.sort(np.asarray(x)), np.sort(np.asarray(y)))


# --- round trips ----------------------------------------------------------------------
@pytest.mark.parametrize("name", MESHES)
def test_round_trip(tmp_path, name):
    mesh = with_sets(MESHES[name])
    back = helpers.write_read(tmp_path, mesh, "abaqus", suffix=".inp")
    assert_sets_equal(mesh, back)


def test_round_trip_of_side_regions(tmp_path):
    mesh = copy.deepcopy(helpers.tet_mesh)
    mesh.regions.append(mio.Region("skin", "side", np.array([[0, 3], [1, 0]])))
    back = helpers.write_read(tmp_path, mesh, "abaqus", suffix=".inp")
    (skin,) = [r for r in back.regions if r.kind == "side"]
    np.testing.assert_array_equal(skin.entries, [[0, 3], [1, 0]])


# --- meshio, both ways ----------------------------------------------------------------
@pytest.mark.parametrize("name", MESHES)
def test_meshio_reads_what_we_write(tmp_path, name):
    mesh = with_sets(MESHES[name])
    path = tmp_path / "ours.inp"
    mio.write(path, mesh)
    theirs = meshio.read(path)
    np.testing.assert_array_equal(theirs.points, mesh.points)
    assert [c.type for c in theirs.cells] == [c.type for c in mesh.cells]
    for a, b in zip(theirs.cells, mesh.cells):
        np.testing.assert_array_equal(a.data, b.data)
    np.testing.assert_array_equal(theirs.point_sets["first"], mesh.point_sets["first"])
    for x, y in zip(theirs.cell_sets["some"], mesh.cell_sets["some"]):
        np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("name", MESHES)
def test_we_read_what_meshio_writes(tmp_path, name):
    mesh = with_sets(MESHES[name])
    path = tmp_path / "meshio.inp"
    meshio.write(path, meshio.Mesh(mesh.points, [(c.type, c.data) for c in mesh.cells],
                                   point_sets=dict(mesh.point_sets), cell_sets=dict(mesh.cell_sets)))
    ours = mio.read(path)
    theirs = meshio.read(path)
    helpers.assert_mesh_equal(theirs, ours)  # meshio writes .16e: exact
    helpers.assert_mesh_equal(mesh, ours)
    assert_sets_equal(mesh, ours)


def test_writer_keywords_are_meshios(tmp_path):
    path = tmp_path / "kw.inp"
    mio.write(path, helpers.tet_mesh, float_fmt=".3e", translate_cell_names=False)
    text = path.read_text()
    assert "*ELEMENT, TYPE=tetra\n" in text
    assert "2, 1.000e+00, 0.000e+00, 0.000e+00\n" in text
    mio.write(path, helpers.tet_mesh, float_fmt=".16e")  # meshio's default, as meshio writes it
    ours = [ln for ln in path.read_text().splitlines() if ln.startswith("2, ")]
    meshio.write(tmp_path / "m.inp", meshio.Mesh(helpers.tet_mesh.points, [("tetra", helpers.tet_mesh.cells[0].data)]))
    theirs = [ln for ln in (tmp_path / "m.inp").read_text().splitlines() if ln.startswith("2, ")]
    assert ours == theirs


def test_writing_a_type_abaqus_has_no_name_for_is_a_write_error(tmp_path):
    mesh = mio.Mesh(helpers.tri_mesh.points, [("vertex", [[0], [1]])])
    with pytest.raises(mio.WriteError, match="vertex"):
        mio.write(tmp_path / "v.inp", mesh)


# --- the hand-written fixtures, as Python sees them -------------------------------------
def test_fixture_elset_generate_as_meshio_shapes():
    m = mio.read(DATA / "elset_generate.inp")
    assert m.points.shape == (6, 2)
    np.testing.assert_array_equal(m.cell_sets["ODD"][0], [0, 2])
    np.testing.assert_array_equal(m.point_sets["BOTTOM"], [0, 1, 2])


def test_fixture_part_instance_names_and_coordinates():
    m = mio.read(DATA / "part_instance.inp")
    np.testing.assert_allclose(m.points, [[10, 0], [11, 0], [10, 1], [0, 1], [0, 2], [-1, 1]], atol=1e-12)
    assert set(m.cell_sets) == {"BOTH_SKINS", "A.SKIN", "B.SKIN"}
    np.testing.assert_array_equal(m.point_sets["TIPS"], [4, 5])


def test_fixture_surface_as_side_regions():
    m = mio.read(DATA / "surface.inp")
    sides = {r.name: r.entries.tolist() for r in m.regions if r.kind == "side"}
    assert sides == {"BOTTOM": [[0, 3], [2, 4]], "SIDES": [[0, 0], [1, 4], [2, 0]]}


def test_fixture_with_non_mesh_keywords_reads_the_mesh():
    m = mio.read(DATA / "unknown_keyword.inp")
    assert len(m.points) == 5 and [c.type for c in m.cells] == ["tetra"]
    m = mio.read(DATA / "unknown_element_type.inp")
    assert [c.type for c in m.cells] == ["triangle"]


@pytest.mark.parametrize("name", ["unknown_keyword", "elset_generate", "node_nset", "sets_of_sets", "include",
                                  "part_instance", "continuation", "unknown_element_type"])
def test_fixtures_meshio_chokes_on_read_here(name):
    # The claim of docs/formats/abaqus.md: meshio 5.0 fails on each of these decks.
    with pytest.raises(BaseException):  # ReadError, KeyError, RuntimeError or its sys.exit
        meshio.read(DATA / f"{name}.inp", "abaqus")
    m = mio.read(DATA / f"{name}.inp")
    assert len(m.points) > 0 and len(m.cells) > 0


def test_include_cycle_is_a_read_error_naming_the_chain():
    with pytest.raises(mio.ReadError, match=r"include cycle: .*include_cycle_a\.inp -> .*include_cycle_b\.inp -> "):
        mio.read(DATA / "cycle" / "include_cycle_a.inp")


# --- gmsh: its .inp export reads as the .msh it came from -------------------------------
GEO = {
    "tet": 'SetFactory("OpenCASCADE");\nBox(1) = {0, 0, 0, 1, 2, 1};\nPhysical Volume("solid") = {1};\n'
           'Physical Surface("bottom") = {5};\nPhysical Surface("top") = {6};\nMesh.CharacteristicLengthMax = 0.6;\n',
    "hex": 'SetFactory("OpenCASCADE");\nBox(1) = {0, 0, 0, 1, 1, 2};\nPhysical Volume("solid") = {1};\n'
           'Physical Surface("bottom") = {5};\nTransfinite Curve{:} = 3;\nTransfinite Surface{:};\nRecombine Surface{:};\n'
           'Transfinite Volume{1};\n',
    "quad2d": 'SetFactory("OpenCASCADE");\nRectangle(1) = {0, 0, 0, 2, 1};\nPhysical Surface("plate") = {1};\n'
              'Physical Curve("left") = {4};\nRecombine Surface{1};\nMesh.CharacteristicLengthMax = 0.4;\n',
}


gmsh = helpers.run_gmsh


per_type = helpers.blocks_by_type


def named_sets(mesh):
    """Physical groups as sorted global cell indices (block order is the same in both)."""
    bases = np.cumsum([0] + [len(c) for c in mesh.cells])
    return {k: np.sort(np.concatenate([np.asarray(x) + bases[i] for i, x in enumerate(v)])) for k, v in mesh.cell_sets.items()}


@needs_gmsh
@pytest.mark.parametrize("order", [1, 2, "2-incomplete"])
@pytest.mark.parametrize("geo", GEO)
def test_gmsh_inp_export_reads_as_its_msh(tmp_path, geo, order):
    # Order 2 gives hexahedron27 (C3D27) and quad9 (M3D9), incomplete order 2 hexahedron20
    # (C3D20) and quad8 (CPS8): every node order the export has.
    (tmp_path / "x.geo").write_text(GEO[geo])
    dim = 2 if geo.endswith("2d") else 3
    extra = ["-string", "Mesh.SecondOrderIncomplete=1;"] if order == "2-incomplete" else []
    order = str(order)[0]
    gmsh(f"-{dim}", "-order", order, *extra, tmp_path / "x.geo", "-o", tmp_path / "x.msh", "-format", "msh41")
    gmsh(tmp_path / "x.msh", "-save", "-o", tmp_path / "from_msh.inp")
    gmsh(f"-{dim}", "-order", order, *extra, tmp_path / "x.geo", "-o", tmp_path / "direct.inp")
    msh = mio.read(tmp_path / "x.msh")
    for inp_path in (tmp_path / "from_msh.inp", tmp_path / "direct.inp"):
        inp = mio.read(inp_path)
        # gmsh prints coordinates with 14 significant digits in .inp.
        np.testing.assert_allclose(inp.points, msh.points, rtol=0, atol=1e-13 * np.abs(msh.points).max())
        a, b = per_type(inp), per_type(msh)
        assert a.keys() == b.keys()
        for t in a:
            np.testing.assert_array_equal(a[t], b[t])
        ours, theirs = named_sets(inp), named_sets(msh)
        assert set(theirs) <= set(ours)  # gmsh adds one ELSET per geometric entity
        for k in theirs:
            np.testing.assert_array_equal(ours[k], theirs[k])


# --- CalculiX runs a static step on what we write ---------------------------------------
def run_ccx(tmp_path: Path, mesh, section: str):
    mio.write(tmp_path / "mesh.inp", mesh)
    (tmp_path / "job.inp").write_text(
        "*INCLUDE, INPUT=mesh.inp\n*MATERIAL, NAME=STEEL\n*ELASTIC\n210000., 0.3\n" + section
        + "*BOUNDARY\nFIX, 1, 6\n*STEP\n*STATIC\n*CLOAD\nLOAD, 3, -1.0\n*NODE FILE\nU\n*END STEP\n")
    proc = subprocess.run(["ccx", "-i", "job"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    return proc


def sets_for(points, cells):
    n_cells = sum(len(c.data) for c in cells)
    bases = np.cumsum([0] + [len(c.data) for c in cells])
    return dict(
        point_sets={"FIX": np.where(points[:, 0] < points[:, 0].min() + 1e-9)[0],
                    "LOAD": np.where(points[:, 0] > points[:, 0].max() - 1e-9)[0]},
        cell_sets={"EALL": [np.arange(bases[i + 1] - bases[i]) for i in range(len(cells))]},
    ), n_cells


@needs_ccx
@needs_gmsh
@pytest.mark.parametrize("geo,order", [("tet", 1), ("tet", 2), ("hex", 1), ("hex", 2)])
def test_calculix_solves_our_solid_mesh(tmp_path, geo, order):
    # Tetrahedra (C3D4, C3D10) and bricks (C3D8, C3D20 written over two data lines).
    (tmp_path / "x.geo").write_text(GEO[geo])
    extra = ["-string", "Mesh.SecondOrderIncomplete=1;"] if geo == "hex" else []
    gmsh("-3", "-order", order, *extra, tmp_path / "x.geo", "-o", tmp_path / "x.msh", "-format", "msh41")
    src = mio.read(tmp_path / "x.msh")
    # Shift so that coordinates are negative and need all their digits (20-character limit).
    points = src.points - np.array([0.123456789012345678, 1 / 3, 0.0])
    cells = [c for c in src.cells if c.dim == 3]
    sets, _ = sets_for(points, cells)
    proc = run_ccx(tmp_path, mio.Mesh(points, cells, **sets), "*SOLID SECTION, ELSET=EALL, MATERIAL=STEEL\n")
    assert proc.returncode == 0, proc.stdout[-2000:]
    assert (tmp_path / "job.frd").stat().st_size > 0


@needs_ccx
@pytest.mark.parametrize("shell", ["triangle", "quad"])
def test_calculix_solves_our_shell_mesh(tmp_path, shell):
    nx, ny = 6, 4
    x, y = np.meshgrid(np.linspace(0, 2, nx + 1), np.linspace(0, 1, ny + 1))
    points = np.column_stack([x.ravel(), y.ravel(), np.zeros(x.size)]) - np.array([0.0, 0.0, 1 / 7])
    idx = np.arange(x.size).reshape(ny + 1, nx + 1)
    quads = np.column_stack([idx[:-1, :-1].ravel(), idx[:-1, 1:].ravel(), idx[1:, 1:].ravel(), idx[1:, :-1].ravel()])
    data = quads if shell == "quad" else np.concatenate([quads[:, [0, 1, 2]], quads[:, [0, 2, 3]]])
    cells = [mio.CellBlock(shell, data)]
    sets, _ = sets_for(points, cells)
    proc = run_ccx(tmp_path, mio.Mesh(points, cells, **sets), "*SHELL SECTION, ELSET=EALL, MATERIAL=STEEL\n0.01\n")
    assert proc.returncode == 0, proc.stdout[-2000:]
    assert (tmp_path / "job.frd").stat().st_size > 0
    assert ("S4" if shell == "quad" else "S3") in (tmp_path / "mesh.inp").read_text()


@needs_ccx
def test_calculix_rejects_numbers_longer_than_20_characters(tmp_path):
    # Why the writer's default is not meshio's ".16e": the same deck with .16e coordinates
    # (23 characters when negative) fails in CalculiX, ours runs.
    points = helpers.hex_mesh.points - 0.123456789012345678
    cells = [mio.CellBlock("hexahedron", helpers.hex_mesh.cells[0].data)]
    sets, _ = sets_for(points, cells)
    mesh = mio.Mesh(points, cells, **sets)
    assert run_ccx(tmp_path, mesh, "*SOLID SECTION, ELSET=EALL, MATERIAL=STEEL\n").returncode == 0
    mio.write(tmp_path / "mesh.inp", mesh, float_fmt=".16e")
    proc = subprocess.run(["ccx", "-i", "job"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode != 0 or "ERROR" in proc.stdout


def test_skipped_keywords_reach_python_as_warnings_naming_keyword_and_line():
    with pytest.warns(UserWarning) as caught:
        mesh = mio.read(DATA / "unknown_keyword.inp")
    texts = [str(w.message) for w in caught]
    assert len(texts) == 4, texts
    assert all("unknown_keyword.inp" in t for t in texts)
    assert any("*MATERIAL" in t.upper() and "line 13" in t for t in texts), texts
    assert len(mesh.cells) == 1 and mesh.cells[0].type == "tetra"
