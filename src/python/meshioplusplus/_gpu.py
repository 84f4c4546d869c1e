"""GPU hand-off: DLPack export, CuPy transfer and return, regions on device.

Specification: docs/gpu.md ("GPU handoff (DLPack / CuPy)").

This module gathers the public names; the code is split by what it needs:

- _gpu_payload.py: the pure builder ``_to_device_payload`` (imports no third-party
  library, mutates nothing, returns plain numpy in a frozen ``DevicePayload``) and
  ``to_dlpack``, so everything subtle about the payload is tested with no GPU;
- _gpu_runtime.py: is CuPy there (``has_cupy``), does a device run a kernel
  (``check_cuda``, ``has_cuda_device``), the install recipe, streams of other libraries,
  what a foreign producer speaks;
- _gpu_pinned.py: pinned host memory - ``pinned_reads()``, the registry behind
  ``is_pinned``, asking CuPy about memory pinned by others, the bounded staging ring;
- _gpu_transfer.py: ``to_cupy`` and ``from_cupy``.

Words, as the spec fixes them: a host->device move is always a transfer across the bus.
"Zero-copy" is used only where it is literally true: host buffers shared into a
``to_dlpack`` payload (the interop layer's ``zero_copy_only`` contract), host DLPack
producers adopted by ``np.from_dlpack``, consumers (RAPIDS, Numba, torch) adopting the
returned CuPy arrays on device, and CuPy adopting a foreign device array in place before its
one copy back.
"""
from __future__ import annotations

from ._gpu_payload import (  # noqa: F401
    HOST_DEVICE, KDL_CPU, KDL_CUDA, KDL_CUDA_HOST, KDL_ROCM, KDL_ROCM_HOST, DevicePayload, DeviceRegion,
    _to_device_payload, block_bases, to_dlpack,
)
from ._gpu_pinned import (  # noqa: F401
    _PINNED, STAGING_ALIGN, STAGING_CHUNK_BYTES, STAGING_CHUNKS, _data_range, _in_ranges, _pinned_empty,
    _pinned_ranges, _PinnedAllocator, _PinnedOwner, is_pinned, page_locked, pinned_reads, release_staging,
)
from ._gpu_runtime import (  # noqa: F401
    INSTALL_RECIPE, _require_cupy, _require_device, check_cuda, has_cuda_device, has_cupy,
)
from ._gpu_transfer import from_cupy, to_cupy  # noqa: F401

__all__ = ["DevicePayload", "DeviceRegion", "to_dlpack", "to_cupy", "from_cupy", "has_cupy", "has_cuda_device",
           "check_cuda", "pinned_reads", "is_pinned", "release_staging"]
