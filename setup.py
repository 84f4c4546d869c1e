"""Builds meshioplusplus._core with CMake and ships it inside the Python package.

`pip install --no-build-isolation .` works offline on Debian 12 (pybind11 2.10, numpy 1.24)
and on the GPU machine (Python 3.12, pip pybind11 3.x, numpy 2.x). MESHIOPP_BUILD_DIR
points at an existing CMake build tree (the Makefile's) so nothing is compiled twice; else
a private tree under build/ is used. That tree builds no tests, so it has no
meshioplusplus._testing (the tests' hooks); the shared tree of `make build` has both.

The version is CMake's `project(... VERSION x.y.z)`, its one source: read here for the
package metadata and compiled into _core.__version__.
"""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def cmake_project_version() -> str:
    text = (ROOT / "CMakeLists.txt").read_text()
    found = re.search(r"^project\(\s*meshioplusplus\s+VERSION\s+([0-9][0-9.]*)", text, re.MULTILINE)
    if not found:
        raise RuntimeError("CMakeLists.txt: no `project(meshioplusplus VERSION x.y.z)` line")
    return found.group(1)


def built_with_tests(build_dir: Path) -> bool:
    cache = build_dir / "CMakeCache.txt"
    return cache.exists() and "MESHIOPP_BUILD_TESTS:BOOL=ON" in cache.read_text()


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


def build_dir() -> Path:
    shared = os.environ.get("MESHIOPP_BUILD_DIR")
    tag = f"{sys.version_info.major}{sys.version_info.minor}"
    return Path(shared) if shared else ROOT / "build" / f"python-{tag}"


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        import pybind11

        tree = build_dir()
        configure = [
            "cmake", "-S", str(ROOT), "-B", str(tree),
            f"-Dpybind11_DIR={pybind11.get_cmake_dir()}",
            f"-DPython_EXECUTABLE={sys.executable}",
            f"-DPYTHON_EXECUTABLE={sys.executable}",
            "-DMESHIOPP_BUILD_PYTHON=ON",
        ]
        if not os.environ.get("MESHIOPP_BUILD_DIR"):  # a private tree needs no tests or CLI
            configure += ["-DMESHIOPP_BUILD_TESTS=OFF", "-DMESHIOPP_BUILD_CLI=OFF"]
        subprocess.check_call(configure)
        target, folder, module = CMAKE_TARGETS[ext.name.split(".", 1)[1]]
        jobs = os.environ.get("MESHIOPP_JOBS", str(os.cpu_count() or 2))
        subprocess.check_call(["cmake", "--build", str(tree), "--target", target, "-j", jobs])
        built = sorted((tree / folder).glob(f"{module}*.so"), key=lambda p: p.stat().st_mtime)
        if not built:
            raise RuntimeError(f"CMake built no {module} module in {tree / folder}")
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built[-1], target)


def built_with_mpi(build_dir: Path) -> bool:
    cache = build_dir / "CMakeCache.txt"
    return cache.exists() and "MESHIOPP_HAVE_MPI:INTERNAL=1" in cache.read_text() and any(build_dir.glob("_mpi*.so"))


def built_with_parallel_hdf5(build_dir: Path) -> bool:
    return built_with_mpi(build_dir) and any((build_dir / "hdf5_mpi").glob("_core*.so"))


# module inside the package -> (CMake target, folder of the tree it is built in, file name)
CMAKE_TARGETS = {
    "_core": ("_core", ".", "_core"),
    "_testing": ("_testing", ".", "_testing"),
    "_mpi": ("_mpi", ".", "_mpi"),
    "_hdf5_mpi._core": ("_core_parallel", "hdf5_mpi", "_core"),
}
# _testing (the tests' hooks) exists only in a tree that builds the tests: make build's.
# _mpi (comm= reads and writes) and the parallel-HDF5 flavour of _core (docs/parallel.md)
# only where CMake found MPI, mpi4py and parallel HDF5.
MODULES = (["_core"] + (["_testing"] if built_with_tests(build_dir()) else [])
           + (["_mpi"] if built_with_mpi(build_dir()) else [])
           + (["_hdf5_mpi._core"] if built_with_parallel_hdf5(build_dir()) else []))

setup(
    version=cmake_project_version(),
    ext_modules=[CMakeExtension(f"meshioplusplus.{m}") for m in MODULES],
    cmdclass={"build_ext": CMakeBuild},
)
