"""The command line, both the Python script (and python -m) and the C++ binary: convert and
info on every readable+writable format, meshio's option names, errors as exit codes."""
import subprocess
import sys
from pathlib import Path

import pytest

import meshioplusplus as mio
from helpers import assert_mesh_equal, tet_mesh, tri_mesh

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(sys.executable).parent / "meshioplusplus"
CPP_CLI = ROOT / "build" / "meshioplusplus"

RW_FORMATS = [(name, f["extensions"][0]) for name, f in mio.formats().items() if f["read"] and f["write"]]


def tools():
    out = [[sys.executable, "-m", "meshioplusplus"], [str(SCRIPT)]]
    if CPP_CLI.exists():
        out.append([str(CPP_CLI)])
    return out


def run(cmd, *args):
    return subprocess.run([*cmd, *map(str, args)], capture_output=True, text=True, timeout=120)


def test_the_cli_programs_exist():
    assert SCRIPT.exists(), "the console script is installed into the venv"
    assert CPP_CLI.exists(), "make build builds the C++ command-line tool"
    assert RW_FORMATS, "at least one format reads and writes"


@pytest.mark.parametrize("cmd", tools(), ids=lambda c: Path(c[-1]).name)
def test_help_and_formats(cmd):
    r = run(cmd, "--help")
    assert r.returncode == 0 and "convert" in r.stdout and "info" in r.stdout
    r = run(cmd, "formats")
    assert r.returncode == 0
    for name, _ in RW_FORMATS:
        assert name in r.stdout


@pytest.mark.parametrize("cmd", tools(), ids=lambda c: Path(c[-1]).name)
@pytest.mark.parametrize("name, ext", RW_FORMATS)
def test_convert_and_info_round_trip(tmp_path, cmd, name, ext):
    src = tmp_path / f"in{ext}"
    mesh = tet_mesh
    try:
        mio.write(src, mesh, name)
    except mio.WriteError:  # a surface format (STL, OFF): tetrahedra are not its cells
        mesh = tri_mesh
        mio.write(src, mesh, name)
    dst = tmp_path / f"out{ext}"
    r = run(cmd, "convert", src, dst, "--input-format", name, "-o", name)
    assert r.returncode == 0, r.stderr
    assert_mesh_equal(mesh, mio.read(dst, name))
    r = run(cmd, "info", dst)
    assert r.returncode == 0, r.stderr
    expect = ("Number of points: 5", "tetra: 2") if mesh is tet_mesh else ("Number of points: 4", "triangle: 2")
    assert all(e in r.stdout for e in expect), r.stdout


@pytest.mark.parametrize("cmd", tools(), ids=lambda c: Path(c[-1]).name)
def test_errors_exit_nonzero_with_one_line(tmp_path, cmd):
    r = run(cmd, "info", tmp_path / "missing.vtu")
    assert r.returncode == 1
    assert r.stderr.startswith("meshioplusplus: error:") and "missing.vtu" in r.stderr
    r = run(cmd, "convert", tmp_path / "a.unknown-ext", tmp_path / "b.vtu")
    assert r.returncode == 1
    r = run(cmd)
    assert r.returncode == 2
