"""meshio++: fast mesh I/O with meshio's API (``import meshioplusplus as meshio`` works).

Every array a reader returns is the buffer the C++ core filled, handed to numpy without a
copy; ``mio.use_allocator`` chooses where those buffers live. Whole meshes go to VTK,
PyVista, trimesh and PyTorch (``_interop``) and to CuPy/DLPack consumers (``_gpu``). One
submodule per registered format (``mio.gmsh``, ``mio.vtu``, ...) is made from the C++
registry at import (``_formats``).
"""
import sys as _sys

from ._flavour import load_core as _load_core

_core = _load_core()  # the serial- or parallel-HDF5 build (_flavour)
from . import _formats  # noqa: E402
from ._allocator import cached_buffer_bytes, release_cached_buffers, set_buffer_cache_limit, use_allocator
from ._exceptions import InteropError, InteropWarning, ReadError, WriteError
from ._gpu import DevicePayload, check_cuda, from_cupy, has_cuda_device, has_cupy, to_cupy, to_dlpack
from ._helpers import (
    deregister_format,
    extension_to_filetypes,
    formats,
    read,
    register_format,
    write,
    write_points_cells,
)
from ._interop import from_pyvista, from_trimesh, from_vtk, to_pyvista, to_trimesh, to_vtk
from ._mesh import CellBlock, Mesh, topological_dimension
from ._regions import Region, block_bases
from . import _cli  # noqa: E402,F401  (meshio exposes its CLI package as meshio._cli)

__version__ = _core.__version__  # CMakeLists.txt project(VERSION), compiled into _core

_FORMAT_MODULES = _formats.install(_sys.modules[__name__])

__all__ = [
    "Mesh", "CellBlock", "Region", "read", "write", "write_points_cells", "formats", "block_bases",
    "register_format", "deregister_format", "extension_to_filetypes", "topological_dimension", "__version__",
    "ReadError", "WriteError", "InteropError", "InteropWarning", "use_allocator",
    "set_buffer_cache_limit", "cached_buffer_bytes", "release_cached_buffers",
    "to_vtk", "from_vtk", "to_pyvista", "from_pyvista", "to_trimesh", "from_trimesh",
    "DevicePayload", "to_dlpack", "to_cupy", "from_cupy", "has_cupy", "has_cuda_device", "check_cuda",
    *_FORMAT_MODULES,
]
