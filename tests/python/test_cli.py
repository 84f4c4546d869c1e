"""The command line, both the Python script (and python -m) and the C++ binary: convert and
info on every readable+writable format, meshio's option names, errors as exit codes."""
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import meshioplusplus as mio
from helpers import assert_mesh_equal, simple_mesh_for

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(sys.executable).parent / "meshioplusplus"
CPP_CLI = ROOT / "build" / "meshioplusplus"

RW_FORMATS = [(name, (f["extensions"] or [""])[0]) for name, f in mio.formats().items() if f["read"] and f["write"]]


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
    mesh, expect = simple_mesh_for(name)
    src = tmp_path / f"in{ext}"
    mio.write(src, mesh, name)
    dst = tmp_path / f"out{ext}"
    r = run(cmd, "convert", src, dst, "--input-format", name, "-o", name)
    assert r.returncode == 0, r.stderr
    assert_mesh_equal(mesh, mio.read(dst, name))
    r = run(cmd, "info", dst, *(() if ext else ("-i", name)))  # no extension: the format named
    assert r.returncode == 0, r.stderr
    assert f"Number of points: {len(mesh.points)}" in r.stdout and expect in r.stdout


@pytest.mark.parametrize("cmd", tools(), ids=lambda c: Path(c[-1]).name)
def test_errors_exit_nonzero_with_one_line(tmp_path, cmd):
    r = run(cmd, "info", tmp_path / "missing.vtu")
    assert r.returncode == 1
    assert r.stderr.startswith("meshioplusplus: error:") and "missing.vtu" in r.stderr
    r = run(cmd, "convert", tmp_path / "a.unknown-ext", tmp_path / "b.vtu")
    assert r.returncode == 1
    r = run(cmd)
    assert r.returncode == 2


# --- meshio's verbs, against meshio's own CLI (meshio-tools: /usr/bin/meshio) ------------

MESHIO_CLI = Path("/usr/bin/meshio")
needs_meshio_cli = pytest.mark.skipif(not MESHIO_CLI.exists(), reason="meshio's CLI is the Debian package meshio-tools")


def _sets_mesh():
    import numpy as np

    pts = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [2, 0, 0], [2, 1, 0]], dtype=float)
    return mio.Mesh(pts, [("triangle", [[0, 1, 2], [0, 2, 3]]), ("quad", [[1, 4, 5, 2]])],
                    point_data={"T": np.arange(6.0), "ids": np.array([0, 0, 1, 1, 0, 1])},
                    cell_data={"mat": [np.array([1, 2]), np.array([1])]})


def _meshio_view(path):
    """The mesh as meshio reads it (meshio is the judge for both tools' output)."""
    import meshio

    m = meshio.read(path)
    return {
        "points": m.points.tolist(),
        "cells": [(c.type, c.data.tolist()) for c in m.cells],
        "point_data": {k: v.tolist() for k, v in m.point_data.items() if not k.startswith("gmsh:")},
        "cell_data": {k: [a.tolist() for a in v] for k, v in m.cell_data.items() if not k.startswith("gmsh:")},
        "point_sets": {k: sorted(v.tolist()) for k, v in m.point_sets.items()},
        "cell_sets": {k: [sorted(a.tolist()) for a in v] for k, v in m.cell_sets.items() if not k.startswith("gmsh:")},
    }


CONVERT_OPTIONS = [[], ["--ascii"], ["-a", "-f", ".3e"], ["--prune-z-0"], ["--sets-to-int-data"], ["--int-data-to-sets"],
                   ["-i", "vtu", "-o", "vtk"]]


@needs_meshio_cli
@pytest.mark.parametrize("cmd", tools(), ids=lambda c: Path(c[-1]).name)
@pytest.mark.parametrize("opts", CONVERT_OPTIONS, ids=lambda o: " ".join(o) or "plain")
def test_convert_matches_meshio_cli(tmp_path, cmd, opts):
    src = tmp_path / "in.vtu"
    mio.write(src, _sets_mesh())
    # meshio's VTU writer has no float_fmt: the float format goes to Gmsh (one cell type;
    # "-o gmsh" because meshio's convert takes ".msh" for ANSYS, the first it registered).
    ext = ".vtk" if "vtk" in opts else ".msh" if "-f" in opts else ".vtu"
    m = _sets_mesh()
    if ext == ".msh":
        opts = [*opts, "-o", "gmsh"]
        mio.write(src, mio.Mesh(m.points, [m.cells[0]], point_data={"T": m.point_data["T"]}))
    if "--int-data-to-sets" in opts:  # meshio 5.0's convert raises on float data here
        mio.write(src, mio.Mesh(m.points, m.cells, point_data={"ids": m.point_data["ids"]}, cell_data={"mat": m.cell_data["mat"]}))
    theirs, ours = tmp_path / f"theirs{ext}", tmp_path / f"ours{ext}"
    if "--int-data-to-sets" in opts:
        # meshio 5.0's convert raises here ("dictionary changed size during iteration"), and
        # its VTU writer turns sets back into data: meshio's Mesh methods are the reference,
        # and Gmsh (which stores cell sets as physical groups) the output.
        import meshio

        ref = meshio.read(src)
        for key in list(ref.cell_data):
            ref.cell_data_to_sets(key)
        ours = tmp_path / "ours.msh"
        r = run(cmd, "convert", src, ours, *opts)
        assert r.returncode == 0, r.stderr
        back = mio.read(ours)
        assert "mat" not in back.cell_data and "ids" not in back.point_data
        got = {k: {t: sorted(v.tolist()) for t, v in d.items()} for k, d in back.cell_sets_dict.items()}
        assert got == {k: {t: sorted(v.tolist()) for t, v in d.items()} for k, d in ref.cell_sets_dict.items()}
        return
    if "--prune-z-0" in opts:
        # meshio 5.0's convert has no --prune-z-0: its Mesh method is the reference.
        import meshio

        m = meshio.read(src)
        m.points = m.points[:, :2]
        meshio.write(theirs, m)
        r = run(cmd, "convert", src, ours, *opts)
        assert r.returncode == 0, r.stderr
        assert _meshio_view(ours) == _meshio_view(theirs)  # VTU stores 3 coordinates: z = 0 again
        return
    r = run([str(MESHIO_CLI)], "convert", src, theirs, *opts)
    assert r.returncode == 0, r.stderr
    r = run(cmd, "convert", src, ours, *opts)
    assert r.returncode == 0, r.stderr
    a, b = _meshio_view(theirs), _meshio_view(ours)
    if "-f" in opts:  # the same float format: the same rounded values, byte for byte in $Nodes
        assert "1.000e+00" in ours.read_text()
        nodes = lambda p: p.read_text().split("$Nodes")[1].split("$EndNodes")[0].split()  # noqa: E731
        assert [t for t in nodes(ours) if "e" in t] == [t for t in nodes(theirs) if "e" in t]
    assert b == a


@needs_meshio_cli
@pytest.mark.parametrize("cmd", tools(), ids=lambda c: Path(c[-1]).name)
@pytest.mark.parametrize("verb, ext, marker", [
    ("ascii", ".vtu", b'format="ascii"'), ("binary", ".vtu", b'format="binary"'),
    ("compress", ".vtu", b"vtkZLibDataCompressor"), ("decompress", ".vtu", None),
    ("ascii", ".msh", b"\n4.1 0 8\n"), ("binary", ".msh", b"\n4.1 1 8\n"), ("compress", ".msh", b"\n4.1 1 8\n"),
    ("ascii", ".vtk", b"\nASCII\n"), ("binary", ".vtk", b"\nBINARY\n"),
])
def test_in_place_verbs_match_meshio_cli(tmp_path, cmd, verb, ext, marker):
    mesh = _sets_mesh()
    ours, theirs = tmp_path / f"ours{ext}", tmp_path / f"theirs{ext}"
    start = {"binary": False}
    if ext == ".msh":
        mesh = mio.Mesh(mesh.points, [mesh.cells[0]], point_data={"T": mesh.point_data["T"]})  # meshio's gmsh: one type
    if ext == ".msh":  # meshio's in-place gmsh verbs need the tags its own writer puts in
        import meshio

        import numpy as np

        tags = {k: [np.ones(len(c), dtype=int) for c in mesh.cells] for k in ("gmsh:physical", "gmsh:geometrical")}
        meshio.write(ours, meshio.Mesh(mesh.points, [(c.type, c.data) for c in mesh.cells], point_data=dict(mesh.point_data),
                                       cell_data=tags), "gmsh", binary=False)
        theirs.write_bytes(ours.read_bytes())
    else:
        mio.write(ours, mesh, **start)
        mio.write(theirs, mesh, **start)
    # meshio's in-place verbs take ".msh" for ANSYS (the first format it registered for it).
    fmt = ["-i", "gmsh"] if ext == ".msh" else []
    r = run([str(MESHIO_CLI)], verb, theirs, *fmt)
    assert r.returncode == 0, r.stderr + r.stdout
    r = run(cmd, verb, ours, *fmt)
    assert r.returncode == 0, r.stderr
    assert "File size before" in r.stdout and "File size after" in r.stdout
    data = ours.read_bytes()
    if marker is not None:
        assert marker in data
        assert marker in theirs.read_bytes()
    if verb == "decompress":
        assert b"compressor=" not in data
    if ext == ".msh":
        # meshio 5.0 cannot read back the Gmsh file its own in-place verbs write (KeyError in
        # its $Elements reader); gmsh is the judge of ours, meshio of what it reads from ours.
        r = subprocess.run(["gmsh", "-v", "2", str(ours), "-0", "-o", str(tmp_path / "g.msh")], capture_output=True, text=True, timeout=60)
        assert r.returncode == 0 and "Error" not in r.stdout + r.stderr
        import meshio

        before = meshio.read(tmp_path / "g.msh")
        assert _meshio_view(ours)["cells"] == [(c.type, c.data.tolist()) for c in before.cells]
        assert _meshio_view(ours)["point_data"]["T"] == mesh.point_data["T"].tolist()
        return
    assert _meshio_view(ours) == _meshio_view(theirs)


@pytest.mark.parametrize("cmd", tools(), ids=lambda c: Path(c[-1]).name)
def test_compress_max_uses_lzma_and_decompress_has_no_option_for_gmsh(tmp_path, cmd):
    path = tmp_path / "m.vtu"
    mio.write(path, _sets_mesh(), compression=None)
    r = run(cmd, "compress", path, "--max")
    assert r.returncode == 0, r.stderr
    assert b"vtkLZMADataCompressor" in path.read_bytes()
    msh = tmp_path / "m.msh"
    mio.write(msh, mio.Mesh(_sets_mesh().points, [_sets_mesh().cells[0]]))
    before = msh.read_bytes()
    r = run(cmd, "decompress", msh)
    assert r.returncode == 1 and "decompress" in r.stderr and "gmsh" in r.stderr
    assert msh.read_bytes() == before  # a refused rewrite leaves the file as it was


@needs_meshio_cli
@pytest.mark.parametrize("cmd", tools(), ids=lambda c: Path(c[-1]).name)
def test_info_matches_meshio_cli(tmp_path, cmd):
    path = tmp_path / "m.vtu"
    mio.write(path, _sets_mesh())
    theirs = run([str(MESHIO_CLI)], "info", path)
    ours = run(cmd, "i", path)
    assert theirs.returncode == ours.returncode == 0
    # meshio's layout line for line (Mesh.__repr__); only the first line names the library.
    assert theirs.stdout.splitlines()[0] == "<meshio mesh object>"
    assert ours.stdout.splitlines()[0] == "<meshio++ mesh object>"
    assert ours.stdout.splitlines()[1:] == theirs.stdout.splitlines()[1:]
    assert "  Point data: T, ids" in theirs.stdout.splitlines()


@pytest.mark.parametrize("cmd", tools(), ids=lambda c: Path(c[-1]).name)
def test_prune_removes_lower_dimensional_cells_and_orphans(tmp_path, cmd):
    import numpy as np

    pts = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [5, 5, 5]], dtype=float)
    src = tmp_path / "p.vtu"
    mio.write(src, mio.Mesh(pts, [("line", [[0, 1]]), ("tetra", [[0, 1, 2, 3]])]))
    r = run(cmd, "convert", src, tmp_path / "out.vtu", "--prune")
    assert r.returncode == 0, r.stderr
    back = mio.read(tmp_path / "out.vtu")
    assert [c.type for c in back.cells] == ["tetra"] and len(back.points) == 4


@pytest.mark.parametrize("cmd", tools(), ids=lambda c: Path(c[-1]).name)
def test_no_progress_output_when_stderr_is_not_a_terminal(tmp_path, cmd):
    src = tmp_path / "in.vtu"
    mio.write(src, _sets_mesh())
    r = run(cmd, "convert", src, tmp_path / "out.msh")
    assert r.returncode == 0 and r.stderr == ""


@pytest.mark.parametrize("cmd", tools(), ids=lambda c: Path(c[-1]).name)
def test_info_warns_about_unused_points_like_meshio(tmp_path, cmd):
    import numpy as np

    path = tmp_path / "u.vtu"
    mio.write(path, mio.Mesh(np.random.default_rng(0).random((5, 3)), [("triangle", [[0, 1, 2]])]))
    ours = run(cmd, "info", path)
    assert ours.returncode == 0 and "Some points are not part of any cell" in ours.stderr
    if MESHIO_CLI.exists():
        theirs = run([str(MESHIO_CLI)], "info", path)
        assert "Some points are not part of any cell" in theirs.stderr + theirs.stdout
    full = tmp_path / "f.vtu"
    mio.write(full, mio.Mesh(np.random.default_rng(0).random((3, 3)), [("triangle", [[0, 1, 2]])]))
    assert "not part of any cell" not in run(cmd, "info", full).stderr


@pytest.mark.parametrize("cmd", tools(), ids=lambda c: Path(c[-1]).name)
def test_compress_and_decompress_exodus_use_netcdf4_gzip(tmp_path, cmd):
    # Exodus compresses with gzip inside netCDF-4 (docs/formats/exodus.md), not zlib/binary.
    mesh = _sets_mesh()
    path = tmp_path / "m.e"
    mio.write(path, mio.Mesh(mesh.points, [mesh.cells[0]]))
    r = run(cmd, "compress", path)
    assert r.returncode == 0, r.stderr
    r = run(cmd, "decompress", path)
    assert r.returncode == 0, r.stderr
    back = mio.read(path)
    np.testing.assert_array_equal(back.cells[0].data, mesh.cells[0].data)
