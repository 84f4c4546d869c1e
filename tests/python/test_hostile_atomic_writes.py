"""Atomic writes everywhere. A write that fails midway leaves an existing file at the
target path byte-identical and leaves no temporary file (`*.meshioplusplus-*`) behind.

Failures exercised, for every writable format and each of its encodings:
- an injected I/O error midway: the write runs in a subprocess whose RLIMIT_FSIZE is
  64 KiB, so write(2) fails with EFBIG after the first 64 KiB of a ~1 MiB output;
- a mesh that fails validation (connectivity out of range), caught before writing;
- data the writer rejects late, after it has written part of the file (LATE_FAILURES,
  per format, each checked to fail with WriteError);
- a target whose folder does not exist.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import hostile
import meshioplusplus as mio

FSIZE_LIMIT = 64 << 10
ENCODINGS = {
    "gmsh": [{}, {"binary": False}, {"fmt_version": "2.2"}, {"fmt_version": "2.2", "binary": False}],
    "vtu": [{}, {"binary": False}, {"data_mode": "appended", "compression": "None"}, {"compression": "None"}],
    "vtp": [{}, {"binary": False}, {"data_mode": "appended", "compression": "None"}],
    "vts": [{}, {"binary": False}, {"data_mode": "appended", "compression": "None"}],
    "vtr": [{}, {"data_mode": "appended"}],
    "vti": [{}, {"binary": False}],
    "vtk": [{}, {"binary": False}, {"fmt_version": "4.2"}, {"fmt_version": "4.2", "binary": False}],
    "ply": [{}, {"binary": False}],
    "stl": [{}, {"binary": True}],
    "medit": [{}, {"float_fmt": ".3e"}],  # .meshb (chosen by the name) is covered in test_medit.py
    "nastran": [{}, {"point_format": "free", "cell_format": "free"},
                {"point_format": "fixed-small", "cell_format": "fixed-large"}],
    "unv": [{}, {"group_dataset": 2477}],
    "exodus": [{}, {"netcdf_format": "NETCDF3_CLASSIC"}, {"netcdf_format": "NETCDF3_64BIT_OFFSET"}],
    "ansys": [{}, {"binary": False}, {"faces": True}],
    # Inline heavy data (the .xdmf file itself is large) and HDF5 heavy data, gzipped and
    # not: the .h5 is built in memory and copied, so HDF5 never meets the failing write
    # (Binary: test_xdmf.py).
    "xdmf": [{"data_format": "XML"}, {}, {"compression": None}],
}
ENCODINGS["flac3d"] = [{}, {"binary": True}]


# vts, vtr and vti write only structured meshes (a logical grid of hexahedra).
GRID_FORMATS = {"vts", "vtr", "vti"}
# svg draws flat meshes only (z == 0).
FLAT_FORMATS = {"svg"}


def grid_mesh(n, seed=0) -> mio.Mesh:
    """n^3 points on a unit-spaced grid, VTK's hexahedra, random point data (compresses poorly)."""
    rng = np.random.default_rng(seed)
    i, j, k = np.meshgrid(np.arange(n), np.arange(n), np.arange(n), indexing="ij")
    points = np.column_stack([i.ravel(order="F"), j.ravel(order="F"), k.ravel(order="F")]).astype(float)
    c = np.array([(a + n * (b + n * d)) for d in range(n - 1) for b in range(n - 1) for a in range(n - 1)])
    hexes = np.column_stack([c, c + 1, c + 1 + n, c + n])
    hexes = np.column_stack([hexes, hexes + n * n])
    return mio.Mesh(points, [("hexahedron", hexes)], point_data={"u": rng.random(len(points))})


def big_mesh(seed=0, fmt=None) -> mio.Mesh:
    """~1 MiB in any encoding: random points compress poorly."""
    if fmt in GRID_FORMATS:
        return grid_mesh(40, seed)
    rng = np.random.default_rng(seed)
    n = 20000
    points = rng.random((n, 3))
    tris = rng.integers(0, n, size=(20000, 3))
    if fmt in FLAT_FORMATS:
        points[:, 2] = 0.0
    return mio.Mesh(points, [("triangle", tris)], point_data={"u": rng.random(n)})


def small_mesh(fmt=None) -> mio.Mesh:
    if fmt in GRID_FORMATS:
        return grid_mesh(2)
    return mio.Mesh(np.array([[0.0, 0, 0], [1, 0, 0], [0, 1, 0]]), [("triangle", np.array([[0, 1, 2]]))])


def late_gmsh() -> mio.Mesh:
    # The nodes and elements are written before $NodeData meets the name it cannot quote.
    m = big_mesh()
    m.point_data = {'bad "name"\n': m.point_data["u"]}
    return m


def late_vtu() -> mio.Mesh:
    # One cell_data name whose blocks differ in shape: vtu finds it while gathering the
    # arrays (before opening the file), legacy vtk after writing POINTS and CELLS.
    m = big_mesh()
    m.cells = [m.cells[0], mio.CellBlock("line", np.array([[0, 1]]))]
    m.cell_data = {"c": [np.zeros(len(m.cells[0])), np.zeros((1, 3))]}
    return m


def late_cgns() -> mio.Mesh:
    m = big_mesh()
    m.point_data = {"p" * 40: m.point_data["u"]}
    return m


def late_ply() -> mio.Mesh:
    # A point_data name a PLY header cannot hold (whitespace).
    m = big_mesh()
    m.point_data = {"bad name": m.point_data["u"]}
    return m


def late_obj() -> mio.Mesh:
    # A volume block after the triangles: OBJ holds faces and lines only.
    m = big_mesh()
    m.cells = [m.cells[0], mio.CellBlock("tetra", np.array([[0, 1, 2, 3]]))]
    return m




def late_surface() -> mio.Mesh:
    # A large triangle block, then a block STL and OFF cannot hold (tetra).
    m = big_mesh()
    m.cells = [m.cells[0], mio.CellBlock("tetra", np.array([[0, 1, 2, 3]]))]
    m.point_data = {}
    return m


def late_avsucd() -> mio.Mesh:
    # A large triangle block, then a block AVS-UCD has no cell type for (triangle6).
    m = big_mesh()
    m.cells = [m.cells[0], mio.CellBlock("triangle6", np.array([[0, 1, 2, 3, 4, 5]]))]
    return m


def late_tecplot() -> mio.Mesh:
    # A large triangle block whose cell data has blocks of different shapes (1-D, then 2-D
    # for the second block): refused when the cell variables are gathered.
    m = big_mesh()
    m.cells = [m.cells[0], mio.CellBlock("triangle", np.array([[0, 1, 2]]))]
    m.cell_data = {"c": [np.zeros(20000), np.zeros((1, 2))]}
    return m


def late_wkt() -> mio.Mesh:
    # A large triangle block whose last triangle has a NaN corner (WKT cannot spell it).
    m = big_mesh()
    m.points[m.cells[0].data[-1, 0]] = np.nan
    m.point_data = {}
    return m


def late_medit() -> mio.Mesh:
    # medit:ref of two values per cell: found at its block, after the vertices are written.
    m = big_mesh()
    m.cell_data = {"medit:ref": [np.zeros((len(m.cells[0]), 2), dtype=np.int64)]}
    return m


def late_su2() -> mio.Mesh:
    # A side region whose name holds a line break: found when the markers are written, after
    # the points and elements.
    m = big_mesh()
    m.regions.append(mio.Region("bad\nname", "side", np.array([[0, 0]])))
    return m


def late_abaqus() -> mio.Mesh:
    # Nodes and elements are written before *NSET meets a name it cannot quote.
    m = big_mesh()
    m.point_data = {}
    m.point_sets = {'bad "name"': np.array([0, 1])}
    return m


def late_nastran() -> mio.Mesh:
    # GRIDs and CTRIA3s are written before the writer meets a cell type Nastran has no card for.
    m = big_mesh()
    m.cells = [m.cells[0], mio.CellBlock("line3", np.array([[0, 1, 2]]))]
    return m


def late_unv() -> mio.Mesh:
    # 2411 and part of 2412 are written before the writer meets a region name it cannot put
    # on a group's name line.
    m = big_mesh()
    m.regions = [mio.Region("bad\nname", "cell", np.array([0]))]
    return m


def late_exodus() -> mio.Mesh:
    # A side region on a line's end point, which has no Exodus side number: found while the
    # side sets are written, after the coordinates and the connectivity.
    m = big_mesh()
    m.cells = [m.cells[0], mio.CellBlock("line", np.array([[0, 1]]))]
    m.regions = [mio.Region("bad", "side", np.array([[len(m.cells[0]), 0]]))]  # a line's end: no Exodus side
    return m


def late_grid() -> mio.Mesh:
    # Valid cells that are not the grid's: found while matching the grid, before the file opens.
    m = grid_mesh(40)
    m.cells[0].data[0] = m.cells[0].data[1]
    return m


def late_dolfin() -> mio.Mesh:
    # The mesh file is written before the companion of a cell data name too long for a file
    # name (over 255 bytes) is created.
    m = big_mesh()
    m.cell_data = {"x" * 300: [np.arange(len(m.cells[0]))]}
    return m


def late_netgen() -> mio.Mesh:
    # Elements and points are written before the material names meet an index Netgen would
    # have to list every number up to.
    m = big_mesh()
    m.field_data = {"far": np.array([10**9, 2])}
    return m


def late_mdpa() -> mio.Mesh:
    # Nodes and elements are written before the sub-model parts meet a region name that is
    # no sub-model part name (a blank).
    m = big_mesh()
    m.regions = [mio.Region("bad name", "cell", np.array([0]))]
    return m


def late_permas() -> mio.Mesh:
    # A set name that cannot stand in a "$NSET NAME =" record (a blank).
    m = big_mesh()
    m.regions = [mio.Region("bad name", "point", np.array([0]))]
    return m


def late_flac3d() -> mio.Mesh:
    # Gridpoints are written before the groups are numbered and meet a name longer than the
    # binary format's 16-bit name length (and than any ZGROUP line).
    m = big_mesh()
    m.cells = [mio.CellBlock("tetra", np.column_stack([m.cells[0].data, m.cells[0].data[:, :1]]))]
    m.regions = [mio.Region("x" * 70000, "cell", np.array([0]))]
    return m


def late_tetgen() -> mio.Mesh:
    # A cell data name with a line break, met in the .ele's comment after the .node is written.
    m = big_mesh()
    m.cells = [mio.CellBlock("tetra", np.array([[0, 1, 2, 3]]))]
    m.cell_data = {"bad\nname": [np.array([1])]}
    return m


def late_ugrid() -> mio.Mesh:
    # A surface ID that a 32-bit integer cannot hold: met after the coordinates and faces.
    m = big_mesh()
    m.cell_data = {"ugrid:ref": [np.full(len(m.cells[0]), 2**40, dtype=np.int64)]}
    return m


def late_ansys() -> mio.Mesh:
    # meshio's layout writes the points and the triangles before it meets a line block,
    # which Fluent cannot hold.
    m = big_mesh()
    m.cells = [m.cells[0], mio.CellBlock("line", np.array([[0, 1]]))]
    return m


def late_xdmf() -> mio.Mesh:
    # Cell data of another dtype in the second block: found at the attributes, after the
    # geometry and the topology are written.
    m = big_mesh()
    m.cells = [m.cells[0], mio.CellBlock("line", np.array([[0, 1]]))]
    m.cell_data = {"c": [np.zeros(len(m.cells[0])), np.zeros(1, dtype=np.int32)]}
    return m


LATE_FAILURES = {"vtp": late_vtu, "vts": late_grid, "vtr": late_grid, "vti": late_grid, "gmsh": late_gmsh, "vtu": late_vtu, "vtk": late_vtu, "ply": late_ply, "obj": late_obj,
                 "stl": late_surface, "off": late_surface, "medit": late_medit, "su2": late_su2,
                 "abaqus": late_abaqus, "nastran": late_nastran, "unv": late_unv, "exodus": late_exodus,
                 "dolfin-xml": late_dolfin, "netgen": late_netgen}
LATE_FAILURES["mdpa"] = late_mdpa
LATE_FAILURES["permas"] = late_permas
LATE_FAILURES["flac3d"] = late_flac3d
LATE_FAILURES["tetgen"] = late_tetgen
LATE_FAILURES["ugrid"] = late_ugrid
LATE_FAILURES["ansys"] = late_ansys
LATE_FAILURES["xdmf"] = late_xdmf
LATE_FAILURES["cgns"] = late_cgns  # a point data name over CGNS's 32 characters: found after the grid and the sections
LATE_FAILURES["vtkhdf"] = late_vtu  # cell data blocks of different shapes: refused before the file opens
LATE_FAILURES["med"] = late_vtu  # cell data blocks with different numbers of components: refused before the file opens
LATE_FAILURES["h5m"] = late_vtu  # one tag name of two shapes (each declared once): refused before the file opens
LATE_FAILURES["hmf"] = late_vtu  # cell data blocks of different shapes: refused before the file opens
# collections: their piece writer (vtu, vtp) rejects the data; the collection file, written
# last, stays as it was
LATE_FAILURES.update({"pvtu": late_vtu, "pvtp": late_vtu, "pvd": late_vtu})


# A .pvd lists file names only: the same names whatever the mesh (the read-back below shows
# the new mesh).
LISTS_ONLY = {"pvd"}
LATE_FAILURES.update({"avsucd": late_avsucd, "tecplot": late_tecplot, "wkt": late_wkt})


def encodings(fmt):
    return ENCODINGS.get(fmt, [{}])


def original(tmp_path: Path, fmt: str) -> tuple[Path, bytes]:
    ext = (mio.formats()[fmt]["extensions"] or [""])[0]
    target = tmp_path / f"precious{ext}"
    mio.write(target, small_mesh(fmt), fmt)
    return target, target.read_bytes()


def assert_untouched(target: Path, before: bytes):
    assert target.read_bytes() == before, "the existing file was changed by a failed write"
    leftovers = sorted(p.name for p in target.parent.iterdir() if ".meshioplusplus-" in p.name)
    assert not leftovers, f"temporary files left behind: {leftovers}"


CASES = [(fmt, k) for fmt in hostile.writable_formats() for k in range(len(encodings(fmt)))]


@pytest.mark.parametrize("fmt,k", CASES, ids=[f"{f}-{json.dumps(encodings(f)[k])}" for f, k in CASES])
def test_an_io_error_midway_leaves_the_existing_file_intact(fmt, k, tmp_path):
    target, before = original(tmp_path, fmt)
    options = encodings(fmt)[k]
    side = target.with_suffix(".h5")  # XDMF's heavy data beside the .xdmf
    side_before = side.read_bytes() if side.exists() else None
    # The same write without a limit produces far more than FSIZE_LIMIT bytes.
    probe = tmp_path / ("probe" + target.suffix)
    mio.write(probe, big_mesh(fmt=fmt), fmt, **options)
    # Collections (pvtu, pvd) write their data beside the target: count every file written.
    assert sum(p.stat().st_size for p in tmp_path.rglob("probe*") if p.is_file()) > 4 * FSIZE_LIMIT
    probe.unlink()
    child = textwrap.dedent(f"""
        import resource, sys
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        import meshioplusplus as mio
        from test_hostile_atomic_writes import big_mesh
        mesh = big_mesh(fmt={fmt!r})
        resource.setrlimit(resource.RLIMIT_FSIZE, ({FSIZE_LIMIT}, {FSIZE_LIMIT}))  # Python ignores SIGXFSZ
        try:
            mio.write({str(target)!r}, mesh, {fmt!r}, **{options!r})
        except mio.WriteError as e:
            print("WriteError:", e)
        else:
            print("no error")
    """)
    proc = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.startswith("WriteError:"), proc.stdout + proc.stderr[-3000:]
    assert "write failed" in proc.stdout or "close failed" in proc.stdout, proc.stdout
    assert_untouched(target, before)
    if side_before is not None:
        assert side.read_bytes() == side_before, "the existing .h5 beside the .xdmf was changed by a failed write"


@pytest.mark.parametrize("fmt", hostile.writable_formats())
def test_a_mesh_failing_validation_leaves_the_existing_file_intact(fmt, tmp_path):
    target, before = original(tmp_path, fmt)
    bad = big_mesh(fmt=fmt)
    bad.cells[0].data[-1, 0] = len(bad.points)  # out of range
    for options in encodings(fmt):
        with pytest.raises((ValueError, mio.WriteError)):
            mio.write(target, bad, fmt, **options)
        assert_untouched(target, before)


# Writers that check everything before their first byte: nothing can fail late but I/O
# (the RLIMIT_FSIZE case above covers that).
NO_LATE_FAILURE = {"neuroglancer": "a vertex count, positions and triangle indices, all checked before the file is opened"}
NO_LATE_FAILURE["svg"] = "flatness and every option are checked before the file is opened; cells are drawn, never rejected"


def test_every_writer_has_a_late_failure_case():
    missing = [fmt for fmt in hostile.writable_formats() if fmt not in LATE_FAILURES and fmt not in NO_LATE_FAILURE]
    assert not missing, f"writers with no late-failure case in {Path(__file__).name}: {missing}"


@pytest.mark.parametrize("fmt", [f for f in hostile.writable_formats() if f in LATE_FAILURES])
def test_data_rejected_late_leaves_the_existing_file_intact(fmt, tmp_path):
    target, before = original(tmp_path, fmt)
    for options in encodings(fmt):
        with pytest.raises(mio.WriteError):
            mio.write(target, LATE_FAILURES[fmt](), fmt, **options)
        assert_untouched(target, before)


@pytest.mark.parametrize("fmt", hostile.writable_formats())
def test_a_missing_folder_is_a_write_error_and_creates_nothing(fmt, tmp_path):
    target = tmp_path / "no-such-folder" / ("x" + (mio.formats()[fmt]["extensions"] or [""])[0])
    with pytest.raises(mio.WriteError):
        mio.write(target, small_mesh(fmt), fmt)
    assert not target.parent.exists()
    assert sorted(os.listdir(tmp_path)) == []


@pytest.mark.parametrize("fmt", hostile.writable_formats())
def test_a_successful_write_replaces_the_file_and_leaves_no_temporary(fmt, tmp_path):
    target, before = original(tmp_path, fmt)
    mio.write(target, big_mesh(fmt=fmt), fmt)
    if fmt not in LISTS_ONLY:
        assert target.read_bytes() != before
    assert_untouched(target, target.read_bytes())
    expected = len(big_mesh(fmt=fmt).points)
    if fmt in ("stl", "wkt"):  # STL and WKT store facet corners: only the points some triangle uses come back
        expected = len(np.unique(big_mesh(fmt=fmt).cells[0].data))
    if not mio.formats()[fmt]["read"]:  # write-only (svg): no reader to read it back with
        return
    assert len(mio.read(target, fmt).points) == expected


@pytest.mark.parametrize("fmt", hostile.writable_formats())
def test_sync_false_writes_the_same_files(fmt, tmp_path):
    """sync=False skips the flush to the device (fdatasync, folder fsync) and nothing else:
    the same name in two folders gets the same files (side files and pieces included)."""
    name = "x" + (mio.formats()[fmt]["extensions"] or [""])[0]
    (tmp_path / "synced").mkdir()
    (tmp_path / "unsynced").mkdir()
    mio.write(tmp_path / "synced" / name, small_mesh(fmt), fmt)
    mio.write(tmp_path / "unsynced" / name, small_mesh(fmt), fmt, sync=False)

    def files(folder):
        return {p.relative_to(folder): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}

    synced, unsynced = files(tmp_path / "synced"), files(tmp_path / "unsynced")
    assert Path(name) in unsynced and not [p for p in unsynced if ".meshioplusplus-" in str(p)]
    assert unsynced == synced


def test_sync_must_be_a_boolean(tmp_path):
    with pytest.raises(ValueError, match="option 'sync'"):
        mio.write(tmp_path / "x.vtu", small_mesh("vtu"), sync="sometimes")
    assert not (tmp_path / "x.vtu").exists()
