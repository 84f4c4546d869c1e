"""Collective, partitioned read / write over MPI (docs/parallel.md; C++:
include/meshioplusplus/mpi.hpp): ``mio.read(path, comm=MPI.COMM_WORLD)`` gives this rank's
part, ``mio.write(path, mesh, comm=comm)`` writes it as this rank's piece. The extension
module ``_mpi`` (and with it MPI and mpi4py) is imported only here, only when a comm is
given; ``comm=None`` is the serial API, unchanged.

Also the node-local rank that ``to_cupy`` uses to pick a rank's GPU."""
from __future__ import annotations

import os

from ._exceptions import ReadError, WriteError

# The environment variables launchers set to the node-local rank: Open MPI, MPICH /
# Intel MPI (Hydra), MVAPICH2, Slurm's srun.
LOCAL_RANK_VARIABLES = ("OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "MV2_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID")


def _module(error):
    from . import _core, _flavour

    if _flavour.parallel_build_exists() and not _flavour.is_parallel(_core):
        raise error(
            "comm= runs on the parallel-HDF5 build of meshio++, and this process loaded the serial one (one HDF5 "
            "library per process): start it with Open MPI's mpirun or MPICH's mpiexec, or set MESHIOPP_HDF5=parallel "
            "before importing meshioplusplus (and H5PY_ALWAYS_USE_MPI=1 if it also imports h5py; under Slurm's srun, "
            "set both); docs/parallel.md"
        )
    try:
        from . import _mpi
    except ImportError as e:
        raise error(
            "comm= needs meshio++ built with MPI and mpi4py (CMake MESHIOPP_WITH_MPI; Debian libopenmpi-dev, "
            f"python3-mpi4py): {e}"
        ) from None
    return _mpi


def read(filename, comm, file_format, options: dict):
    from ._mesh import Mesh

    mpi = _module(ReadError)
    return Mesh._from_core(mpi.read(comm, os.fspath(filename), file_format or "", options))


def write(filename, mesh, comm, file_format, options: dict) -> None:
    mpi = _module(WriteError)
    mpi.write(comm, os.fspath(filename), file_format or "", mesh._core_parts(), options)


def local_rank(comm=None, environ=None) -> int | None:
    """This process's rank among the ranks on its node: with ``comm`` (mpi4py) from
    ``MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)``, else from the launcher's environment
    (OMPI_COMM_WORLD_LOCAL_RANK, MPI_LOCALRANKID, ...); None outside an MPI job."""
    if comm is not None:
        from mpi4py import MPI

        node = comm.Split_type(MPI.COMM_TYPE_SHARED, key=comm.Get_rank())
        try:
            return node.Get_rank()
        finally:
            node.Free()
    environ = os.environ if environ is None else environ
    for name in LOCAL_RANK_VARIABLES:
        value = environ.get(name)
        if value is not None and value.strip().isdigit():
            return int(value)
    return None
