"""Shared pytest setup: tests/python is importable (for helpers.py), and markers for the
optional frameworks."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture
def cp():
    """CuPy with a CUDA device for the gated GPU tests; skips, naming why, without one."""
    cupy = pytest.importorskip("cupy", reason="CuPy is not installed: the device suite needs cupy-cudaXXx and a GPU")
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as exc:  # noqa: BLE001
        pytest.skip(f"CuPy is installed but no CUDA device answers ({exc})")
    if count < 1:
        pytest.skip("CuPy is installed but getDeviceCount() == 0")
    return cupy
