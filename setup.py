"""Builds meshioplusplus._core with CMake and ships it inside the Python package.

`pip install --no-build-isolation .` works offline on Debian 12 (pybind11 2.10, numpy 1.24)
and on the GPU machine (Python 3.12, pip pybind11 3.x, numpy 2.x). MESHIOPP_BUILD_DIR
points at an existing CMake build tree (the Makefile's) so nothing is compiled twice; else
a private tree under build/ is used.
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        import pybind11

        shared = os.environ.get("MESHIOPP_BUILD_DIR")
        tag = f"{sys.version_info.major}{sys.version_info.minor}"
        build_dir = Path(shared) if shared else ROOT / "build" / f"python-{tag}"
        configure = [
            "cmake", "-S", str(ROOT), "-B", str(build_dir),
            f"-Dpybind11_DIR={pybind11.get_cmake_dir()}",
            f"-DPython_EXECUTABLE={sys.executable}",
            f"-DPYTHON_EXECUTABLE={sys.executable}",
            "-DMESHIOPP_BUILD_PYTHON=ON",
        ]
        if not shared:  # a private tree needs no tests or CLI
            configure += ["-DMESHIOPP_BUILD_TESTS=OFF", "-DMESHIOPP_BUILD_CLI=OFF"]
        subprocess.check_call(configure)
        jobs = os.environ.get("MESHIOPP_JOBS", str(os.cpu_count() or 2))
        subprocess.check_call(["cmake", "--build", str(build_dir), "--target", "_core", "-j", jobs])
        built = sorted(build_dir.glob("_core*.so"), key=lambda p: p.stat().st_mtime)
        if not built:
            raise RuntimeError(f"CMake built no _core module in {build_dir}")
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built[-1], target)


setup(ext_modules=[CMakeExtension("meshioplusplus._core")], cmdclass={"build_ext": CMakeBuild})
