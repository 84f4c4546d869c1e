"""Collective partitioned I/O (docs/parallel.md): ``mio.read(path, comm=)`` and
``mio.write(path, mesh, comm=)`` under ``mpirun -n 1..4`` (tests/python/mpi_job.py is the
rank side; rank 0 prints the result as JSON). Oracles: the serial mesh the ranks partition,
VTK 9.1's vtkXMLPUnstructuredGridReader on the PVTU we write, gmsh's own
``-part N -part_split`` files and gmsh's Python API on them."""
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import meshioplusplus as mio

HERE = os.path.dirname(os.path.abspath(__file__))
MPIRUN = shutil.which("mpirun")
_core_dir = os.path.dirname(mio._core.__file__)
HAVE_MPI_MODULE = any(name.startswith("_mpi") for name in os.listdir(_core_dir))

# mpirun is installed by tools/setup.sh (openmpi-bin); the skip says so if it is not there.
pytestmark = [
    pytest.mark.skipif(MPIRUN is None, reason="mpirun not found: install openmpi-bin (tools/debian-packages.txt)"),
    pytest.mark.skipif(not HAVE_MPI_MODULE, reason="meshioplusplus._mpi not built (MESHIOPP_WITH_MPI, python3-mpi4py)"),
]


def mpirun_python(n, args, timeout=120):
    """`mpirun -n n python args...`, its output captured; a failure shows both streams."""
    cmd = [MPIRUN, "--allow-run-as-root", "--oversubscribe", "-n", str(n), sys.executable, *map(str, args)]
    env = dict(os.environ, OMPI_MCA_rmaps_base_oversubscribe="1", PYTHONPATH=HERE + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    assert done.returncode == 0, f"{' '.join(cmd)} failed ({done.returncode}):\nstdout:\n{done.stdout}\nstderr:\n{done.stderr}"
    return done


def mpirun(n, *args, timeout=120):
    done = mpirun_python(n, [os.path.join(HERE, "mpi_job.py"), *args], timeout=timeout)
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    assert len(lines) == 1, done.stdout + done.stderr
    return json.loads(lines[0][len("RESULT "):])


# The layouts: PVTU (a piece per rank) and, where the build has parallel HDF5, VTKHDF (one
# file, written and read collectively).
HAVE_PARALLEL_HDF5 = mio._flavour.parallel_build_exists()
NEEDS_PARALLEL_HDF5 = pytest.mark.skipif(not HAVE_PARALLEL_HDF5, reason="no parallel-HDF5 build (libhdf5-openmpi-dev, libnetcdf-mpi-dev)")
LAYOUTS = ["pvtu", pytest.param("vtkhdf", marks=NEEDS_PARALLEL_HDF5), pytest.param("xdmf", marks=NEEDS_PARALLEL_HDF5)]


@pytest.mark.parametrize("ext", LAYOUTS)
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_write_partitioned_then_reassemble_equals_serial(tmp_path, n, ext):
    r = mpirun(n, "write", tmp_path, f"ext={ext}")
    assert r["global_num_cells"] == r["serial_cells"]
    assert r["global_num_points"] == r["serial_points"]  # shared points counted once: ghosts marked
    assert r["num_partitions"] == (1 if ext == "xdmf" else n)  # XDMF: one grid, the serial mesh (below)
    assert sum(c[1] for c in r["counts"]) == r["serial_cells"]
    if ext == "pvtu":
        assert len(list((tmp_path / "part").glob("part_*.vtu"))) == n
    else:  # one file (XDMF: and its HDF5 file), no temporary left
        assert sorted(p.name for p in tmp_path.iterdir()) == (["part.vtkhdf"] if ext == "vtkhdf" else ["part.h5", "part.xdmf"])


@pytest.mark.parametrize("written,read", [(3, 2), (2, 4)])
def test_read_back_on_a_different_rank_count(tmp_path, written, read):
    mpirun(written, "write", tmp_path)
    r = mpirun(read, "read", tmp_path)  # reassembly equals the serial mesh (checked by the ranks)
    assert r["num_partitions"] == written
    for rank, (points, cells) in enumerate(r["counts"]):
        first, last = rank * written // read, (rank + 1) * written // read
        assert (cells == 0) == (first == last), r["counts"]  # ranks past the pieces are empty, no hang


@NEEDS_PARALLEL_HDF5
@pytest.mark.parametrize("written,read", [(3, 1), (3, 2), (2, 3), (2, 4), (4, 3)])
def test_vtkhdf_read_back_on_a_different_rank_count_splits_the_cells(tmp_path, written, read):
    mpirun(written, "write", tmp_path, "ext=vtkhdf")
    r = mpirun(read, "read", tmp_path, "ext=vtkhdf")  # reassembly equals the serial mesh (checked by the ranks)
    assert r["num_partitions"] == written
    cells = 50  # serial_mesh(): 7 x 5 cells, the left half as two triangles each
    if read != written:  # a contiguous range of the file's cells per rank, whatever the partitions
        assert [c[1] for c in r["counts"]] == [(k + 1) * cells // read - k * cells // read for k in range(read)]


@NEEDS_PARALLEL_HDF5
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_vtkhdf_written_serially_reads_on_n_ranks(tmp_path, n):
    from mpi_job import serial_mesh  # starts no MPI in this process

    mio.write(tmp_path / "part.vtkhdf", serial_mesh())  # one partition, no global ids: the file's numbering
    r = mpirun(n, "read", tmp_path, "ext=vtkhdf")  # reassembly equals the serial mesh (checked by the ranks)
    assert r["num_partitions"] == 1
    assert sum(c[1] for c in r["counts"]) == 50
    assert sum(c[0] for c in r["counts"]) >= 48  # points used by several ranks are on each (ghosts but one)


@pytest.mark.parametrize("ext", LAYOUTS)
@pytest.mark.parametrize("n", [3])
def test_a_rank_with_an_empty_partition(tmp_path, n, ext):
    r = mpirun(n, "write", tmp_path, "empty", f"ext={ext}")
    # PVTU: the empty rank wrote no piece; VTKHDF: its partition is there, empty; XDMF: one grid
    assert r["num_partitions"] == {"pvtu": n - 1, "vtkhdf": n, "xdmf": 1}[ext]
    assert r["global_num_cells"] == r["serial_cells"]
    if ext != "xdmf":  # read back on n ranks: the empty partition is empty again
        assert sorted(c[1] == 0 for c in r["counts"]) == [False] * (n - 1) + [True]
    else:  # one grid: read back as n cell ranges
        assert [c[1] for c in r["counts"]] == [(k + 1) * 50 // n - k * 50 // n for k in range(n)]


def vtk_read(path):
    from vtkmodules.util.numpy_support import vtk_to_numpy
    from vtkmodules.vtkIOXML import vtkXMLPUnstructuredGridReader

    reader = vtkXMLPUnstructuredGridReader()
    reader.SetFileName(str(path))
    reader.Update()
    grid = reader.GetOutput()
    pd, cd = grid.GetPointData(), grid.GetCellData()
    return (vtk_to_numpy(grid.GetPoints().GetData()),
            {pd.GetArrayName(i): vtk_to_numpy(pd.GetArray(i)) for i in range(pd.GetNumberOfArrays())},
            {cd.GetArrayName(i): vtk_to_numpy(cd.GetArray(i)) for i in range(cd.GetNumberOfArrays())},
            grid.GetNumberOfCells())


@pytest.mark.parametrize("n", [3])
def test_vtk_reads_the_pvtu_we_wrote_with_the_serial_arrays(tmp_path, n):
    pytest.importorskip("vtkmodules")
    from mpi_job import serial_mesh  # starts no MPI in this process

    serial = serial_mesh()
    mpirun(n, "write", tmp_path)
    points, point_data, cell_data, ncells = vtk_read(tmp_path / "part.pvtu")
    assert ncells == sum(len(b.data) for b in serial.cells)
    # cells in piece order = rank order = global order: VTK's cell arrays are the serial ones
    assert np.array_equal(cell_data["w"], np.concatenate(serial.cell_data["w"]))
    assert np.array_equal(cell_data["mat"], np.concatenate(serial.cell_data["mat"]))
    assert np.array_equal(cell_data["global_cell_ids"], np.arange(ncells))
    gid = point_data["global_point_ids"]
    assert np.array_equal(points, serial.points[gid])  # shared points duplicated, as VTK keeps them
    assert np.allclose(point_data["T"], serial.point_data["T"][gid])
    assert np.allclose(point_data["v"], serial.point_data["v"][gid])
    assert point_data["vtkGhostType"].dtype == np.uint8
    assert np.count_nonzero(point_data["vtkGhostType"] == 0) == len(serial.points)


@NEEDS_PARALLEL_HDF5
@pytest.mark.parametrize("n,empty", [(1, False), (2, False), (3, False), (4, False), (3, True)])
def test_vtk_reads_the_vtkhdf_we_wrote_collectively_as_a_partitioned_grid(tmp_path, n, empty):
    vtk = pytest.importorskip("vtk")
    from vtk.util.numpy_support import vtk_to_numpy
    from mpi_job import serial_mesh  # starts no MPI in this process

    serial = serial_mesh()
    r = mpirun(n, "write", tmp_path, "ext=vtkhdf", *(["empty"] if empty else []))  # empty: the last rank's partition
    reader = vtk.vtkHDFReader()
    reader.SetFileName(str(tmp_path / "part.vtkhdf"))
    reader.Update()
    grid = reader.GetOutput()
    pd, cd = grid.GetPointData(), grid.GetCellData()
    cell_data = {cd.GetArrayName(i): vtk_to_numpy(cd.GetArray(i)) for i in range(cd.GetNumberOfArrays())}
    point_data = {pd.GetArrayName(i): vtk_to_numpy(pd.GetArray(i)) for i in range(pd.GetNumberOfArrays())}
    ncells = sum(len(b.data) for b in serial.cells)
    assert grid.GetNumberOfCells() == ncells
    assert grid.GetNumberOfPoints() == sum(c[0] for c in r["counts"])  # each partition's points, shared ones per partition
    assert np.array_equal(cell_data["w"], np.concatenate(serial.cell_data["w"]))  # partitions in rank order
    assert np.array_equal(cell_data["global_cell_ids"], np.arange(ncells))
    gid = point_data["global_point_ids"]
    assert np.array_equal(vtk_to_numpy(grid.GetPoints().GetData()), serial.points[gid])
    assert np.allclose(point_data["v"], serial.point_data["v"][gid])
    assert np.count_nonzero(point_data["vtkGhostType"] == 0) == len(serial.points)
    # and partition by partition, as a parallel VTK pipeline asks for them
    for piece, (points, cells) in enumerate(r["counts"]):
        reader = vtk.vtkHDFReader()
        reader.SetFileName(str(tmp_path / "part.vtkhdf"))
        reader.UpdatePiece(piece, n, 0)
        assert (reader.GetOutput().GetNumberOfPoints(), reader.GetOutput().GetNumberOfCells()) == (points, cells)


MESHIO_XDMF = """
import sys, meshio
m = meshio.read(sys.argv[1])
if sys.argv[2] == "write":
    meshio.write(sys.argv[3], m)
else:
    print(repr((m.points.tolist(), [(b.type, b.data.tolist()) for b in m.cells],
                {k: v.tolist() for k, v in m.point_data.items()}, {k: [x.tolist() for x in v] for k, v in m.cell_data.items()})))
"""


def meshio_run(*args):
    """Debian's meshio (with its h5py) in a process of its own: one HDF5 library per process."""
    return subprocess.run(["/usr/bin/python3", "-c", MESHIO_XDMF, *map(str, args)], capture_output=True, text=True,
                          check=True, timeout=120).stdout


@NEEDS_PARALLEL_HDF5
@pytest.mark.parametrize("n", [2, 3])
def test_meshio_reads_the_xdmf_we_wrote_collectively_as_the_serial_mesh(tmp_path, n):
    from mpi_job import serial_mesh  # starts no MPI in this process

    serial = serial_mesh()
    mpirun(n, "write", tmp_path, "ext=xdmf")
    points, cells, point_data, cell_data = eval(meshio_run(tmp_path / "part.xdmf", "show"))
    # the ranks' owned points at their global ids: the serial points, shared ones once
    assert np.array_equal(np.array(points), serial.points)
    assert [(t, np.array(d).tolist()) for t, d in cells] == [(b.type, np.asarray(b.data).tolist()) for b in serial.cells]
    assert np.allclose(point_data["v"], serial.point_data["v"])
    assert np.array_equal(np.concatenate(cell_data["w"]), np.concatenate(serial.cell_data["w"]))
    assert "vtkGhostType" not in point_data and "global_point_ids" not in point_data  # implied by the rows


@NEEDS_PARALLEL_HDF5
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_xdmf_written_by_meshio_reads_on_n_ranks(tmp_path, n):
    from mpi_job import serial_mesh  # starts no MPI in this process

    mio.write(tmp_path / "serial.vtu", serial_mesh())
    meshio_run(tmp_path / "serial.vtu", "write", tmp_path / "part.xdmf")  # meshio's layout: Mixed, its own names
    r = mpirun(n, "read", tmp_path, "ext=xdmf")  # reassembly equals the serial mesh (checked by the ranks)
    assert [c[1] for c in r["counts"]] == [(k + 1) * 50 // n - k * 50 // n for k in range(n)]


H5PY_EDIT = """
import sys, h5py
with h5py.File(sys.argv[1], "r+") as f:
    exec(sys.argv[2])
"""


@NEEDS_PARALLEL_HDF5
@pytest.mark.parametrize("ext,edit,message", [
    ("xdmf", "f['data1'][5] = 999", "node 999 out of range (48 points)"),
    ("xdmf", "f['data1'][0] = 77", "unknown cell type code 77 at value 0"),
    ("vtkhdf", "f['VTKHDF/Connectivity'][3] = 999", "point id 999 out of range"),
    ("vtkhdf", "f['VTKHDF/Offsets'][2] = -5", "Offsets"),
])
@pytest.mark.parametrize("n", [1, 3])
def test_a_corrupt_file_is_a_read_error_on_every_rank(tmp_path, n, ext, edit, message):
    from mpi_job import serial_mesh  # starts no MPI in this process

    mio.write(tmp_path / f"bad.{ext}", serial_mesh())
    h5 = tmp_path / ("bad.h5" if ext == "xdmf" else "bad.vtkhdf")
    subprocess.run(["/usr/bin/python3", "-c", H5PY_EDIT, str(h5), edit], check=True, timeout=60)
    r = mpirun(n, "fail", tmp_path / f"bad.{ext}")
    assert all(m is not None for m in r["messages"]), r  # no rank returned a mesh, none hung
    assert any(message in m for m in r["messages"]), r   # the rank that found it names it ...
    assert all(message in m or "failed on rank" in m for m in r["messages"]), r  # ... the others name that rank


GEO = """SetFactory("OpenCASCADE");
Rectangle(1) = {0, 0, 0, 1, 1};
Physical Surface("domain", 5) = {1};
Physical Curve("left", 7) = {4};
Mesh.MeshSizeMax = 0.2;
"""


def gmsh_partitions(files):
    """gmsh's own view: per file, the element tags of its partition's surface entities
    (its "Ghost surface" entities, -part_ghosts, hold other partitions' elements)."""
    import gmsh

    out = []
    gmsh.initialize()
    try:
        gmsh.option.setNumber("General.Terminal", 0)
        for p, f in enumerate(files, start=1):
            gmsh.open(str(f))
            tags = []
            for dim, tag in gmsh.model.getEntities(2):
                if gmsh.model.getType(dim, tag).startswith("Ghost"):
                    continue
                if list(gmsh.model.getPartitions(dim, tag)) == [p]:
                    for t in gmsh.model.mesh.getElements(dim, tag)[1]:
                        tags += list(t)
            out.append(sorted(int(t) for t in tags))
            gmsh.clear()
    finally:
        gmsh.finalize()
    return out


@pytest.mark.parametrize("n,ghosts", [(2, False), (3, True)])
def test_gmsh_part_split_files_read_on_n_ranks_give_gmsh_partitions(tmp_path, n, ghosts):
    pytest.importorskip("gmsh")
    gmsh_exe = shutil.which("gmsh")
    assert gmsh_exe, "gmsh is installed by tools/setup.sh"
    (tmp_path / "g.geo").write_text(GEO)
    extra = ["-part_ghosts", "-bin"] if ghosts else []  # binary MSH 4.1 for the ghost case
    subprocess.run([gmsh_exe, "-2", str(tmp_path / "g.geo"), "-format", "msh41", "-o", str(tmp_path / "whole.msh")],
                   check=True, capture_output=True)
    subprocess.run([gmsh_exe, "-2", str(tmp_path / "g.geo"), "-part", str(n), "-part_split", *extra, "-format", "msh41",
                    "-o", str(tmp_path / "g.msh")], check=True, capture_output=True)
    files = [tmp_path / f"g_{p}.msh" for p in range(1, n + 1)]
    assert all(f.exists() for f in files)
    expected = gmsh_partitions(files)
    r = mpirun(n, "gmsh", tmp_path)
    assert r["num_partitions"] == n
    assert [rank["owned"] for rank in r["ranks"]] == expected
    if ghosts:
        assert all(rank["ghost_cells"] > 0 for rank in r["ranks"])
    # Owned points and triangles of all ranks = the unpartitioned mesh (gmsh keeps the tags).
    whole = mio.read(tmp_path / "whole.msh")
    points = {}
    for rank in r["ranks"]:
        for tag, xyz in rank["points"].items():
            assert int(tag) not in points, f"node {tag} owned by two ranks"
            points[int(tag)] = xyz
    assert len(points) == len(whole.points)
    assert np.allclose(np.array([points[t] for t in sorted(points)]), whole.points, rtol=0, atol=1e-12)  # whole.msh is ASCII
    cells = sorted(c for rank in r["ranks"] for c in rank["cells"])
    tris = whole.cells_dict["triangle"]
    assert len(cells) == len(tris)
    assert sorted(tuple(c[1:]) for c in cells) == sorted(tuple(x + 1 for x in row) for row in tris.tolist())
    assert ["domain", 5] in r["regions"]  # physical groups restricted locally, global tags
    assert r["global_num_cells"] >= len(tris)


def test_comm_none_imports_neither_mpi4py_nor_the_mpi_module(tmp_path):
    code = (
        "import sys, numpy as np, meshioplusplus as mio\n"
        f"p = {str(tmp_path / 'a.vtu')!r}\n"
        "mio.write(p, mio.Mesh(np.zeros((3, 3)), [('triangle', np.array([[0, 1, 2]]))]), comm=None)\n"
        "mio.read(p, comm=None)\n"
        "assert 'mpi4py' not in sys.modules and 'meshioplusplus._mpi' not in sys.modules, sorted(sys.modules)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("n", [3])
def test_to_cupy_picks_the_node_local_rank_device(n):
    r = mpirun(n, "device", 2)  # the CuPy stand-in with 2 devices
    assert r["picked"] == [k % 2 for k in range(n)]  # from MPI_Comm_split_type(shared)
    assert r["from_env"] == [k % 2 for k in range(n)]  # OMPI_COMM_WORLD_LOCAL_RANK
    assert r["forced"] == [0] * n  # device= wins
    assert r["current_after"] == 0  # the current device is restored


def test_to_cupy_device_selection_rules(monkeypatch):
    import fake_cupy
    from meshioplusplus._parallel import local_rank

    for name in ("OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "MV2_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID"):
        monkeypatch.delenv(name, raising=False)
    cp = fake_cupy.install(monkeypatch, device_count=3)
    mesh = mio.Mesh(np.zeros((3, 3)), [("triangle", np.array([[0, 1, 2]]))])
    assert local_rank() is None
    assert mio.to_cupy(mesh).device[1] == 0  # not an MPI job: the current device
    monkeypatch.setenv("MPI_LOCALRANKID", "4")
    assert local_rank() == 4
    assert mio.to_cupy(mesh).device[1] == 1  # 4 % 3
    assert mio.to_cupy(mesh, device=2).device[1] == 2
    assert cp.cuda.runtime.getDevice() == 0
    with pytest.raises(ValueError, match="device=3"):
        mio.to_cupy(mesh, device=3)
    assert mio.to_cupy(mesh, stream=cp.cuda.Stream()).device[1] == 0  # a stream's device counts


def test_parallel_write_of_gmsh_names_pvtu_and_other_formats_are_refused(tmp_path):
    code = (
        "import numpy as np, meshioplusplus as mio\n"
        "from mpi4py import MPI\n"
        "m = mio.Mesh(np.zeros((3, 3)), [('triangle', np.array([[0, 1, 2]]))])\n"
        "try:\n"
        f"    mio.write({str(tmp_path / 'x.msh')!r}, m, comm=MPI.COMM_WORLD)\n"
        "except mio.WriteError as e:\n"
        "    assert '.pvtu' in str(e), e\n"
        "else:\n"
        "    raise SystemExit('no error')\n"
        "try:\n"
        f"    mio.read({str(tmp_path / 'x.stl')!r}, comm=MPI.COMM_WORLD)\n"
        "except ValueError as e:\n"
        "    assert 'pvtu' in str(e), e\n"
        "else:\n"
        "    raise SystemExit('no error')\n"
        "print('REFUSED BOTH')\n"
    )
    assert "REFUSED BOTH" in mpirun_python(1, ["-c", code]).stdout


# --- one HDF5 per process: which build of the extension a process loads (docs/parallel.md)

def test_flavour_follows_the_override_then_h5py_then_the_launcher():
    from meshioplusplus._flavour import wants_parallel

    class H5py:
        def __init__(self, mpi):
            self.get_config = lambda: type("Config", (), {"mpi": mpi})()

    assert not wants_parallel({}, {})
    assert wants_parallel({"OMPI_COMM_WORLD_SIZE": "2"}, {})          # started by Open MPI's mpirun
    assert wants_parallel({"MPI_LOCALNRANKS": "2"}, {})               # by MPICH's Hydra
    assert wants_parallel({"H5PY_ALWAYS_USE_MPI": "1"}, {})           # Debian h5py's own switch
    assert not wants_parallel({"OMPI_COMM_WORLD_SIZE": "2"}, {"h5py": H5py(False)})  # h5py went serial: follow it
    assert wants_parallel({}, {"h5py": H5py(True)})
    assert not wants_parallel({"MESHIOPP_HDF5": "serial", "OMPI_COMM_WORLD_SIZE": "2"}, {"h5py": H5py(True)})
    assert wants_parallel({"MESHIOPP_HDF5": "Parallel"}, {})
    with pytest.raises(ImportError, match="MESHIOPP_HDF5='both'"):
        wants_parallel({"MESHIOPP_HDF5": "both"}, {})


MAPPED_HDF5 = ("import json, os, sys, h5py, meshioplusplus as mio\n"
               "libs = sorted({l.split()[-1].rsplit('/', 1)[-1] for l in open('/proc/self/maps') if 'libhdf5' in l})\n"
               "with open(os.path.join(sys.argv[1], os.environ['OMPI_COMM_WORLD_RANK']), 'w') as f:\n"
               "    json.dump([mio._flavour.is_parallel(mio._core), h5py.get_config().mpi, libs], f)\n")


@NEEDS_PARALLEL_HDF5
@pytest.mark.parametrize("h5py_first", [True, False])
def test_under_mpirun_meshioplusplus_and_h5py_share_the_parallel_libhdf5(tmp_path, h5py_first):
    code = MAPPED_HDF5 if h5py_first else MAPPED_HDF5.replace("h5py, meshioplusplus as mio", "meshioplusplus as mio, h5py")
    mpirun_python(2, ["-c", code, tmp_path])  # each rank writes what it mapped to a file of its own
    for rank in ("0", "1"):
        parallel_core, h5py_mpi, libs = json.loads((tmp_path / rank).read_text())
        assert parallel_core and h5py_mpi, (rank, parallel_core, h5py_mpi)
        assert libs and all(name.startswith("libhdf5_openmpi") for name in libs), libs  # no libhdf5_serial beside it


@NEEDS_PARALLEL_HDF5
def test_comm_in_a_serial_process_names_the_way_to_the_parallel_build(tmp_path):
    code = ("from mpi4py import MPI\nimport meshioplusplus as mio\n"
            f"try:\n    mio.read({str(tmp_path / 'x.vtkhdf')!r}, comm=MPI.COMM_WORLD)\n"
            "except mio.ReadError as e:\n    print(e)\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OMPI_", "PMIX_", "H5PY_", "MESHIOPP_HDF5"))}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120, check=True).stdout
    assert "loaded the serial one" in out and "MESHIOPP_HDF5=parallel" in out, out
    # With the override, the same process shape (a singleton MPI job) reads and writes VTKHDF.
    code = ("from mpi4py import MPI\nimport numpy as np, meshioplusplus as mio\n"
            "m = mio.Mesh(np.eye(3), [('triangle', np.array([[0, 1, 2]]))])\n"
            f"mio.write({str(tmp_path / 'x.vtkhdf')!r}, m, comm=MPI.COMM_WORLD)\n"
            f"back = mio.read({str(tmp_path / 'x.vtkhdf')!r}, comm=MPI.COMM_WORLD)\n"
            "print('RESULT', mio._flavour.is_parallel(mio._core), back.points.tolist(), back.point_data['global_point_ids'].tolist())\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True,
                         env=dict(env, MESHIOPP_HDF5="parallel")).stdout
    assert "RESULT True [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]] [0, 1, 2]" in out, out
