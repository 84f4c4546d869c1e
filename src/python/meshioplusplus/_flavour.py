"""Which build of the extension a process loads: the serial-HDF5 ``_core`` or the
parallel-HDF5 one (``_hdf5_mpi._core``, linked to libhdf5_openmpi; needed by the collective
HDF5 layouts of ``comm=``). A process must map one HDF5 library, so the choice follows the
one h5py makes (docs/parallel.md, "One HDF5 per process"):

1. ``MESHIOPP_HDF5=serial`` or ``=parallel`` in the environment decides;
2. else an h5py already imported decides (``h5py.get_config().mpi``);
3. else the rule of Debian's h5py: parallel when an MPI launcher started the process
   (``OMPI_COMM_WORLD_SIZE``, ``MPI_LOCALNRANKS``) or ``H5PY_ALWAYS_USE_MPI`` is set.

The parallel build is used only where it was built; nothing here imports MPI or mpi4py.
"""
from __future__ import annotations

import importlib
import importlib.util
import os
import sys

LAUNCHER_VARIABLES = ("OMPI_COMM_WORLD_SIZE", "MPI_LOCALNRANKS", "H5PY_ALWAYS_USE_MPI")


def wants_parallel(environ=None, modules=None) -> bool:
    environ = os.environ if environ is None else environ
    modules = sys.modules if modules is None else modules
    choice = environ.get("MESHIOPP_HDF5", "").strip().lower()
    if choice in ("serial", "parallel"):
        return choice == "parallel"
    if choice:
        raise ImportError(f"MESHIOPP_HDF5={environ['MESHIOPP_HDF5']!r}: expected 'serial' or 'parallel'")
    h5py = modules.get("h5py")
    if h5py is not None and hasattr(h5py, "get_config"):
        return bool(h5py.get_config().mpi)
    return any(environ.get(name) is not None for name in LAUNCHER_VARIABLES)


def load_core():
    """Import the chosen flavour and register it as ``meshioplusplus._core``, the name every
    other module (and the C++ of _mpi) imports it by."""
    package = __name__.rsplit(".", 1)[0]
    core = None
    if wants_parallel():
        try:
            core = importlib.import_module(f"{package}._hdf5_mpi._core")
        except ImportError:
            if os.environ.get("MESHIOPP_HDF5", "").strip().lower() == "parallel":
                raise ImportError("MESHIOPP_HDF5=parallel, but this meshio++ was built without parallel HDF5 "
                                  "(CMake MESHIOPP_WITH_MPI with libhdf5-openmpi-dev and libnetcdf-mpi-dev)") from None
    if core is None:
        core = importlib.import_module(f"{package}._core")
    sys.modules[f"{package}._core"] = core
    return core


def is_parallel(core) -> bool:
    return core.__spec__.name.endswith("._hdf5_mpi._core")


def parallel_build_exists() -> bool:
    package = __name__.rsplit(".", 1)[0]
    return importlib.util.find_spec(f"{package}._hdf5_mpi._core") is not None
