"""GPU hand-off: is CuPy there, does a device run a kernel, which stream, which protocol.

Specification: docs/gpu.md; CuPy's installation guide
(https://docs.cupy.dev/en/stable/install.html: per-toolkit wheels, the ``[ctk]`` extra for
a machine with only the driver); the CUDA stream protocol ``__cuda_stream__``
(https://nvidia.github.io/cuda-python/cuda-core/latest/interoperability.html); DLPack's
``__dlpack__(stream=...)`` (https://dmlc.github.io/dlpack/latest/python_spec.html) and the
CUDA Array Interface v3 (https://numba.readthedocs.io/en/stable/cuda/cuda_array_interface.html).

CuPy is imported lazily, by name, only inside the functions that need it.
"""
from __future__ import annotations

from ._exceptions import InteropError
from ._gpu_payload import KDL_CUDA, KDL_ROCM

INSTALL_RECIPE = """\
CuPy is not importable ({reason}). meshio++ does not install it for you: CuPy wheels are
built per CUDA toolkit, so install the one that matches the machine:

  The machine has                      Install
  the CUDA 13.x toolkit                pip install cupy-cuda13x
  the CUDA 12.x toolkit                pip install cupy-cuda12x
  only the NVIDIA driver, no toolkit   pip install "cupy-cuda13x[ctk]"   (driver for CUDA 13)
                                       pip install "cupy-cuda12x[ctk]"   (driver for CUDA 12)
  the CUDA 11.x toolkit                pip install cupy-cuda11x   (CuPy 13, the last series built for CUDA 11)
  ROCm                                 the matching cupy-rocm-* wheel (untested by meshio++)

(nvidia-smi shows the CUDA version the driver supports. Without the toolkit's NVRTC, CuPy
imports and counts the device but cannot compile its first kernel: the [ctk] extra brings
those libraries.) mio.to_dlpack and the host paths of mio.from_cupy need no CuPy."""

CTK_HINT = (
    'CuPy compiles its kernels at run time with NVRTC, which a machine with only the NVIDIA driver lacks: '
    'install CuPy with the toolkit libraries, pip install "cupy-cuda13x[ctk]" (or "cupy-cuda12x[ctk]" for a '
    'driver that supports CUDA 12 only), or install the CUDA toolkit'
)


def has_cupy() -> bool:
    """True when CuPy can be imported. Says nothing about a GPU: CuPy imports fine on a
    machine with none and fails only at first use. Never raises."""
    try:
        import cupy  # noqa: F401
    except Exception:
        return False
    return True


def _require_cupy():
    try:
        import cupy
    except Exception as exc:  # ImportError, or a broken install failing at import
        raise ImportError(INSTALL_RECIPE.format(reason=f"{type(exc).__name__}: {exc}")) from exc
    return cupy


def _device_count(cupy) -> tuple:
    try:
        return int(cupy.cuda.runtime.getDeviceCount()), "getDeviceCount() returned 0"
    except Exception as exc:  # CUDARuntimeError: no driver, no device, insufficient driver
        return 0, f"{type(exc).__name__}: {exc}"


def _require_device(operation: str):
    cupy = _require_cupy()
    count, reason = _device_count(cupy)
    if count < 1:
        raise RuntimeError(
            f"{operation}: CuPy {getattr(cupy, '__version__', '?')} is installed but no CUDA device answers ({reason}). "
            "Run on a machine with a GPU and a driver that supports this CuPy wheel's toolkit, "
            "or use mio.to_dlpack for a host payload."
        )
    return cupy


def check_cuda() -> str:
    """Launch a trivial kernel on the current device and check its result; return a
    one-line description of what ran. Raises ImportError (with the install recipe) without
    CuPy, and RuntimeError when no device answers or the kernel cannot be compiled or run
    (a device can be counted while the first kernel fails, e.g. a driver-only machine
    without NVRTC: the message names the ``[ctk]`` extra)."""
    cupy = _require_device("check_cuda")
    version = getattr(cupy, "__version__", "?")
    try:
        got = int((cupy.arange(8, dtype=cupy.int64) * 2).sum())  # compiles and runs kernels, then syncs
    except Exception as exc:
        raise RuntimeError(
            f"check_cuda: CuPy {version} counts a CUDA device but launching a kernel failed "
            f"({type(exc).__name__}: {exc}). {CTK_HINT}."
        ) from exc
    if got != 56:
        raise RuntimeError(f"check_cuda: a trivial kernel on the device returned {got}, expected 56")
    return f"CuPy {version}: device {int(cupy.cuda.runtime.getDevice())} ran a kernel"


def has_cuda_device() -> bool:
    """True when CuPy is importable, a device answers and a trivial kernel runs on it
    (``check_cuda()``). Never raises."""
    try:
        check_cuda()
    except Exception:
        return False
    return True


def _device_id(cupy) -> tuple:
    kind = KDL_ROCM if getattr(cupy.cuda.runtime, "is_hip", False) else KDL_CUDA
    return (kind, int(cupy.cuda.runtime.getDevice()))


# --- streams ------------------------------------------------------------------------------------


def as_cupy_stream(cupy, stream, operation: str):
    """``stream=`` as a CuPy stream: a cupy.cuda.Stream / ExternalStream as given; a stream
    of another library (``__cuda_stream__``, torch's ``cuda_stream``, numba's ``handle``)
    or a raw ``cudaStream_t`` handle (int) wrapped in ``cupy.cuda.ExternalStream``. Anything
    else raises TypeError before anything is built or moved."""
    if stream is None:
        return None
    stream_types = tuple(t for t in (getattr(cupy.cuda, "Stream", None), getattr(cupy.cuda, "ExternalStream", None))
                         if isinstance(t, type))
    if stream_types and isinstance(stream, stream_types):
        return stream
    handle = None
    if isinstance(stream, int) and not isinstance(stream, bool):
        handle = stream
    elif callable(getattr(type(stream), "__cuda_stream__", None)):
        _, handle = stream.__cuda_stream__()
    elif isinstance(getattr(stream, "cuda_stream", None), int):  # torch.cuda.Stream
        handle = stream.cuda_stream
    elif getattr(stream, "handle", None) is not None:  # numba.cuda stream: a ctypes c_void_p
        handle = getattr(stream.handle, "value", stream.handle)
    if handle is None or isinstance(handle, bool) or not isinstance(handle, int) or handle < 0:
        raise TypeError(
            f"{operation}: stream must be a cupy.cuda.Stream, a stream of another library (torch.cuda.Stream, "
            f"anything with __cuda_stream__) or a raw cudaStream_t handle (int); got {type(stream).__name__}"
        )
    return cupy.cuda.ExternalStream(int(handle))


# --- what a producer speaks -------------------------------------------------------------------


def dlpack_device(a):
    """(device_type, device_id) from ``__dlpack_device__``, or None (absent, or refused)."""
    method = getattr(type(a), "__dlpack_device__", None)
    if method is None:
        return None
    try:
        return tuple(int(x) for x in a.__dlpack_device__())
    except Exception:
        return None


def cuda_array_interface(a, label: str, operation: str):
    """``a.__cuda_array_interface__``, or None when ``a`` has none. A producer that has the
    attribute but refuses it (torch raises RuntimeError for a tensor that requires grad, JAX
    ValueError for an array sharded over several devices) raises InteropError naming the
    array and the way out, never a bare error from inside a ``hasattr``."""
    try:
        return a.__cuda_array_interface__
    except AttributeError:
        return None
    except (RuntimeError, ValueError, TypeError) as exc:
        raise InteropError(refused(label, operation, "__cuda_array_interface__", exc)) from exc


def refused(label: str, operation: str, protocol: str, exc: BaseException) -> str:
    return (
        f"{operation}: {label}: the producer refused {protocol} ({type(exc).__name__}: {exc}). "
        "A torch tensor that requires grad must be detached first (t.detach()); an array sharded over "
        "several devices must be gathered onto one device first."
    )
