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


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_write_partitioned_then_reassemble_equals_serial(tmp_path, n):
    r = mpirun(n, "write", tmp_path)
    assert r["global_num_cells"] == r["serial_cells"]
    assert r["global_num_points"] == r["serial_points"]  # shared points counted once: ghosts marked
    assert r["num_partitions"] == n
    assert sum(c[1] for c in r["counts"]) == r["serial_cells"]
    assert len(list((tmp_path / "part").glob("part_*.vtu"))) == n


@pytest.mark.parametrize("written,read", [(3, 2), (2, 4)])
def test_read_back_on_a_different_rank_count(tmp_path, written, read):
    mpirun(written, "write", tmp_path)
    r = mpirun(read, "read", tmp_path)  # reassembly equals the serial mesh (checked by the ranks)
    assert r["num_partitions"] == written
    for rank, (points, cells) in enumerate(r["counts"]):
        first, last = rank * written // read, (rank + 1) * written // read
        assert (cells == 0) == (first == last), r["counts"]  # ranks past the pieces are empty, no hang


@pytest.mark.parametrize("n", [3])
def test_a_rank_with_an_empty_partition(tmp_path, n):
    r = mpirun(n, "write", tmp_path, "empty")
    assert r["num_partitions"] == n - 1  # the empty rank wrote no piece
    assert r["global_num_cells"] == r["serial_cells"]
    assert sorted(c[1] == 0 for c in r["counts"]) == [False] * (n - 1) + [True]  # read back on n ranks


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
