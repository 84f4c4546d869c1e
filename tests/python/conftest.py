"""Shared pytest setup: tests/python is importable (for helpers.py), and the test-only
extension meshioplusplus._testing is present."""
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


# The test hooks live in meshioplusplus._testing, an extension built with the tests only
# (CMake MESHIOPP_BUILD_TESTS, which `make build` turns on). Without it the suite stops
# here, naming the fix, rather than skipping what needs it.
import meshioplusplus._core  # noqa: E402

try:
    import meshioplusplus._testing  # noqa: E402
except ImportError as e:
    raise pytest.UsageError(f"meshioplusplus._testing is missing ({e}): build with `make build` "
                            "(CMake -DMESHIOPP_BUILD_TESTS=ON), which installs it beside _core") from e

