"""Each concern the C++ core and the Python package both need has one owner, and the other
side asks it: format deduction, the data policy, region canonical form and block_bases,
the mesh summary, the version, the boundary dict's schema and the per-format submodules.
These tests feed both sides the same input and check they agree."""
import importlib
import importlib.metadata
import re
import subprocess
import sys
import types
from pathlib import Path

import numpy as np
import pytest

import meshioplusplus as mio
from meshioplusplus import _core, _formats, _helpers, _policy, _schema, _testing
from helpers import assert_mesh_equal, simple_mesh_for, tet_mesh, tri_quad_mesh

ROOT = Path(__file__).resolve().parents[2]
CPP_CLI = ROOT / "build" / "meshioplusplus"


# --- format deduction: format.cpp deduce_format -----------------------------------------
def test_a_tie_between_formats_resolves_in_registration_order():
    # Two formats claim ".dat"; the longer ".b.dat" beats both. The rule is the core's
    # formats_for_path, the function _core.deduce_format and the C++ CLI use.
    among = [("first", [".dat"]), ("second", [".dat", ".b.dat"]), ("third", [".DAT"])]
    assert _testing.formats_for_path_among("x.dat", among) == ["first", "second", "third"]
    assert _testing.formats_for_path_among("X.B.DAT", among) == ["second", "first", "third"]
    assert _testing.formats_for_path_among("x.dat.gz", among) == []


def _registered_paths(tmp_path):
    for name, f in mio.formats().items():
        for ext in f["extensions"]:
            for spelled in (ext, ext.upper()):
                yield tmp_path / f"case-{name}{spelled}"


def test_python_the_core_and_the_cli_deduce_the_same_format_for_every_extension(tmp_path):
    assert CPP_CLI.exists(), "make build builds the C++ command-line tool"
    paths = list(_registered_paths(tmp_path))
    assert paths
    for path in paths:
        path.write_bytes(b"not a mesh\n")
        cli = subprocess.run([str(CPP_CLI), "info", str(path)], capture_output=True, text=True, timeout=120)
        if not mio.formats()[path.name.split(".")[0][len("case-"):]]["read"]:
            # A write-only format (svg): the same "write-only" refusal in all three.
            with pytest.raises(ValueError) as core_error:
                _core.deduce_format(str(path), False)
            with pytest.raises(mio.ReadError, match="write-only") as python_error:
                mio.read(path)
            assert str(python_error.value) == str(core_error.value)
            assert cli.returncode == 1 and cli.stderr.strip() == f"meshioplusplus: error: {python_error.value}"
            continue
        chosen = _core.deduce_format(str(path), False)
        assert _helpers.deduce(str(path), None, for_write=False) == chosen
        # Python and the CLI ran the same reader: the one that rejects the file names its
        # format in both; a lenient one (OBJ ignores statements it does not know) reads an
        # empty mesh in both.
        try:
            mesh = mio.read(path)
        except mio.ReadError as python_error:
            assert cli.returncode == 1
            assert cli.stderr.strip() == f"meshioplusplus: error: {python_error}"
            assert str(python_error).startswith(f"{chosen}: ")
        else:
            assert cli.returncode == 0, cli.stderr
            assert len(mesh.points) == 0 and "Number of points: 0" in cli.stdout


def test_an_unknown_extension_is_the_same_error_in_python_and_the_core(tmp_path):
    path = tmp_path / "mesh.unknown-suffix"
    path.write_text("x")
    with pytest.raises(ValueError) as core_error:
        _core.deduce_format(str(path), False)
    with pytest.raises(mio.ReadError) as python_error:
        mio.read(path)
    assert str(python_error.value) == str(core_error.value)
    with pytest.raises(mio.WriteError, match="cannot deduce a file format"):
        mio.write(path, tet_mesh)


# --- the data policy: numpy_bridge.cpp storage_dtype, _policy.share ----------------------
def _bridge_cases():
    base = np.arange(12)
    return {
        "float16": np.arange(6, dtype=np.float16).reshape(3, 2),
        "longdouble": np.arange(6, dtype=np.longdouble),
        "bool": np.array([True, False, True]),
        "non-contiguous": np.arange(20.0).reshape(4, 5)[:, ::2],
        "big-endian float64": np.arange(6, dtype=">f8"),
        "big-endian int32": np.arange(6, dtype=">i4").reshape(2, 3),
        "int32 connectivity": base.astype(np.int32).reshape(4, 3),
        "uint16": base.astype(np.uint16),
        "int8": base.astype(np.int8),
        "float32": base.astype(np.float32),
        "float64": base.astype(np.float64),
        "int64 fortran order": np.asfortranarray(base.reshape(3, 4)),
    }


@pytest.mark.parametrize("case", list(_bridge_cases()))
def test_the_hand_offs_and_the_write_path_store_an_array_alike(case):
    array = _bridge_cases()[case]
    ledger = _policy.Ledger("to_x")
    shared = _policy.share(ledger, "a", array)
    dtype, shape, address = _testing.bridge(array)  # what _core.write would store
    assert shared.dtype == dtype and shared.dtype.isnative
    assert shared.shape == shape
    np.testing.assert_array_equal(shared, array.astype(dtype))
    # shared by the hand-off exactly when the write path wraps the very buffer
    assert ledger.shared["a"] == (address == array.__array_interface__["data"][0])
    assert ledger.shared["a"] == (case in {"int32 connectivity", "uint16", "int8", "float32", "float64"})


@pytest.mark.parametrize("array", [np.array(["a"]), np.array([1 + 2j]), np.array([None], dtype=object),
                                   np.array(["2020-01-01"], dtype="datetime64[D]")], ids=str)
def test_arrays_with_no_numeric_form_are_dropped_by_hand_offs_and_refused_by_writes(array):
    ledger = _policy.Ledger("to_x")
    assert _policy.share(ledger, "a", array) is None and "dropped" in ledger.notes[0]
    with pytest.raises(ValueError, match="has no numeric representation"):
        _testing.bridge(array)


def test_float16_point_data_is_written_as_float64(tmp_path):
    mesh = mio.Mesh(tet_mesh.points, tet_mesh.cells, point_data={"h": np.arange(5, dtype=np.float16)})
    mio.write(tmp_path / "h.vtu", mesh)
    back = mio.read(tmp_path / "h.vtu")
    assert back.point_data["h"].dtype == np.float64
    np.testing.assert_array_equal(back.point_data["h"], np.arange(5.0))


# --- regions and block_bases: mesh.cpp ----------------------------------------------------
def test_region_entries_take_the_cores_canonical_form():
    side = mio.Region("s", "side", [[3, 1], [0, 2], [3, 1], [0, 1]])
    np.testing.assert_array_equal(side.entries, [[0, 1], [0, 2], [3, 1]])
    cell = mio.Region("c", "cell", np.array([5.0, 1.0, 5.0]))
    assert cell.entries.dtype == np.int64 and list(cell.entries) == [1, 5]
    assert list(mio.Region("corn\udce9r", "cell", [2, 1]).entries) == [1, 2]  # a Latin-1 name from a file
    canonical = np.array([1, 4, 9], dtype=np.int64)
    assert mio.Region("k", "point", canonical).entries is canonical  # no copy when canonical
    with pytest.raises(ValueError, match="region 'f': entries must be integers"):
        mio.Region("f", "point", [0.5])
    with pytest.raises(ValueError, match=r"region 'b': side entries must have shape \(n, 2\)"):
        mio.Region("b", "side", [1, 2, 3])


def test_a_region_written_and_read_back_equals_the_python_canonical_form(tmp_path):
    mesh = mio.Mesh(tri_quad_mesh.points, tri_quad_mesh.cells, regions=[mio.Region("c", "cell", [2, 0, 2], 2, 7)])
    mio.write(tmp_path / "r.msh", mesh)
    back = mio.read(tmp_path / "r.msh")
    assert [list(r.entries) for r in back.regions if r.name == "c"] == [list(mesh.regions[0].entries)]


def test_block_bases_is_the_cores():
    cells = [np.zeros((n, 3)) for n in (4, 0, 7)]
    np.testing.assert_array_equal(mio.block_bases(cells), [0, 4, 4, 11])
    assert mio.block_bases([]).tolist() == [0]


@pytest.mark.parametrize("kind", ["cell", "side"])
def test_renumbering_after_a_dropped_block_is_one_function(kind):
    bases = np.array([0, 2, 5, 6])  # blocks of 2, 3 and 1 cells; the middle one dropped
    cells = np.array([0, 1, 2, 4, 5])
    entries = cells if kind == "cell" else np.stack([cells, np.arange(5)], axis=1)
    out, removed, changed = _policy.renumber_cells("r", entries, kind, bases, [True, False, True])
    got = out if kind == "cell" else out[:, 0]
    assert list(got) == [0, 1, 2] and removed == 2 and changed
    same, removed, changed = _policy.renumber_cells("r", entries, kind, bases, [True, True, True])
    assert same is entries and removed == 0 and not changed
    with pytest.raises(mio.InteropError, match="r references cell 6, outside the mesh's 6 cells"):
        _policy.renumber_cells("r", np.array([6]), "cell", bases, [True, True, True])


# --- the summary: mesh.cpp summary() ------------------------------------------------------
def test_repr_is_the_cores_summary_as_the_cli_prints_it(tmp_path):
    path = tmp_path / "tet.msh"
    mesh = mio.Mesh(tet_mesh.points, tet_mesh.cells, point_data={"T": np.arange(5.0)},
                    regions=[mio.Region("second", "cell", [1], 3, 3)])
    mio.write(path, mesh)
    cli = subprocess.run([str(CPP_CLI), "info", str(path)], capture_output=True, text=True, timeout=120)
    assert cli.returncode == 0
    assert repr(mio.read(path)) + "\n" == cli.stdout
    assert "  Number of points: 5\n" in cli.stdout and "  Cell sets: second\n" in cli.stdout


def test_repr_names_a_region_whose_name_is_not_utf8():
    mesh = mio.Mesh(tet_mesh.points, tet_mesh.cells, regions=[mio.Region("corn\udce9r", "cell", [0], 3, 1)])
    assert repr(mesh).splitlines()[-1] == "  Cell sets: corn\udce9r"


def test_repr_of_a_mesh_the_core_cannot_take_still_answers():
    mesh = mio.Mesh(tet_mesh.points, tet_mesh.cells, point_data={"o": np.array([None] * 5, dtype=object)})
    assert "has no numeric representation" in repr(mesh)


# --- the version: CMakeLists.txt project(VERSION) ----------------------------------------
def test_the_version_has_one_source():
    cmake = re.search(r"^project\(\s*meshioplusplus\s+VERSION\s+([0-9.]+)", (ROOT / "CMakeLists.txt").read_text(), re.M)
    assert cmake, "CMakeLists.txt declares project(meshioplusplus VERSION x.y.z)"
    assert _core.__version__ == cmake.group(1)
    assert mio.__version__ == cmake.group(1)
    assert importlib.metadata.version("meshioplusplus") == cmake.group(1)
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert 'dynamic = ["version"]' in pyproject and not re.search(r"^version\s*=", pyproject, re.M)


# --- the boundary dict: _schema.CoreParts --------------------------------------------------
def test_the_dict_of_both_directions_has_exactly_the_schemas_keys(tmp_path):
    path = tmp_path / "tet.vtu"
    mio.write(path, tet_mesh)
    parts = _core.read(str(path), "vtu", {})
    assert tuple(parts) == _schema.KEYS
    assert tuple(tet_mesh._core_parts()) == _schema.KEYS
    for key in ("points", "cells", "point_data", "cell_data", "field_data", "regions", "gmsh_periodic"):
        assert key in _schema.CoreParts.__annotations__
    assert "CoreParts" in (_core.read.__doc__ or "") and "CoreParts" in (_core.write.__doc__ or "")


# --- test hooks: a separate extension ---------------------------------------------------
def test_the_product_module_carries_no_test_hook():
    code = "import meshioplusplus._core as c; print(sorted(n for n in dir(c) if n.startswith('_') and not n.startswith('__')))"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.stdout.strip() == "['_AllocatorToken', '_allocator_api']", r.stderr
    assert {"view_addresses", "owned_array", "bridge", "formats_for_path_among"} <= set(dir(_testing))


# --- per-format submodules: made from the registry ----------------------------------------
@pytest.mark.parametrize("name", list(mio.formats()))
def test_every_registered_format_has_a_working_submodule(name, tmp_path):
    attr = _formats.module_name(name)
    module = importlib.import_module(f"meshioplusplus.{attr}")
    assert getattr(mio, attr) is module and module.FORMAT == name
    assert attr in mio.__all__
    namespace = {}
    exec(f"from meshioplusplus import {attr}", namespace)
    assert namespace[attr] is module
    f = mio.formats()[name]
    if f["write"] and f["read"]:
        path = tmp_path / f"x{f['extensions'][0] if f['extensions'] else ''}"
        mesh, _ = simple_mesh_for(name)
        module.write(path, mesh)
        assert_mesh_equal(mesh, module.read(path))


def test_a_new_registry_entry_gets_a_submodule_with_no_python_edit(monkeypatch):
    registry = _core.formats() + [("new-fmt", [".new"], True, True)]
    monkeypatch.setattr(_core, "formats", lambda: registry)
    package = types.ModuleType("fake_package")
    names = _formats.install(package)
    try:
        assert "new_fmt" in names and package.new_fmt.FORMAT == "new-fmt"
        assert sys.modules["fake_package.new_fmt"] is package.new_fmt
        seen = []
        monkeypatch.setattr(_formats, "read", lambda filename, fmt, **kw: seen.append((filename, fmt, kw)))
        package.new_fmt.read("a.new", opt=1)
        assert seen == [("a.new", "new-fmt", {"opt": 1})]
    finally:
        for n in names:
            sys.modules.pop(f"fake_package.{n}", None)


def test_a_format_name_clashing_with_the_package_is_an_error(monkeypatch):
    monkeypatch.setattr(_core, "formats", lambda: [("read", [".r"], True, False)])
    package = types.ModuleType("fake_clash")
    package.read = lambda: None
    with pytest.raises(ImportError, match="format 'read': meshioplusplus.read already names something else"):
        _formats.install(package)
