#!/usr/bin/env bash
# Device checks of the GPU hand-off, in one go, on a machine with a CUDA device and no
# network (the project's GPU machine: Python 3.12, pip numpy 2.x / pybind11 3.x / cupy /
# torch / jax / numba present, no Debian packages). From the repository root:
#
#   OUT=/some/dir bash tools/gpu_check.sh
#
# Builds the package there, runs the gated tests (tests/python/test_gpu.py), the whole
# Python suite once under numpy 2.x, then bench/gpu_bench.py - about 5 minutes at most.
# Every step is bounded by `timeout` and a failing step never stops the next one. Writes at
# most 8 flat files to $OUT:
#   gpu_check.log   this script's trace (set -x) and every step's output
#   versions.txt    interpreter, packages, driver, device
#   build.log       the build
#   gpu_tests.log   pytest -v of tests/python/test_gpu.py (skip reasons with -rs)
#   gpu_tests.xml   the same as JUnit XML
#   python_tests.log  the whole Python suite, -q
#   gpu_bench.md    the benchmark table (written after every mesh size)
#   gpu_bench.json  the raw medians
# Exit status: pytest's for the gated tests (the bench does not decide it); 3 when they
# passed only because no CUDA device answered (everything skipped).
set -x
cd "$(dirname "$0")/.." || exit 1
OUT="${OUT:-$PWD/gpu-out}"
mkdir -p "$OUT"
exec > >(tee -a "$OUT/gpu_check.log") 2>&1
PY="${PYTHON:-python3}"
START=$(date +%s)
elapsed() { echo "gpu_check: $(( $(date +%s) - START ))s elapsed: $*"; }

# --- versions ------------------------------------------------------------------------------
{
  date -u
  uname -a
  "$PY" -VV
  "$PY" - <<'EOF'
import importlib
for name in ("numpy", "pybind11", "cupy", "torch", "jax", "numba", "pytest", "setuptools"):
    try:
        m = importlib.import_module(name)
        print(f"{name} {getattr(m, '__version__', '?')}")
    except Exception as exc:  # noqa: BLE001
        print(f"{name} not importable: {type(exc).__name__}: {exc}")
try:
    import cupy
    print("cuda devices:", cupy.cuda.runtime.getDeviceCount(), "runtime", cupy.cuda.runtime.runtimeGetVersion(),
          "driver", cupy.cuda.runtime.driverGetVersion())
except Exception as exc:  # noqa: BLE001
    print("cupy device query failed:", exc)
try:
    import numba.cuda
    print("numba.cuda available:", numba.cuda.is_available())
except Exception as exc:  # noqa: BLE001
    print("numba.cuda:", exc)
try:
    import torch
    print("torch cuda:", torch.cuda.is_available())
except Exception as exc:  # noqa: BLE001
    print("torch:", exc)
EOF
  nvidia-smi --query-gpu=name,driver_version,memory.total,pcie.link.gen.current,pcie.link.width.current --format=csv
} > "$OUT/versions.txt" 2>&1
cat "$OUT/versions.txt"
elapsed "versions"

# --- build -----------------------------------------------------------------------------------
# Editable install through setup.py (CMake underneath); if pip cannot do it offline, a plain
# CMake build placing _core next to the sources, imported through PYTHONPATH.
# setup.py builds in a private tree (build/python-3XX, no C++ tests or CLI, so no GoogleTest
# needed) unless MESHIOPP_BUILD_DIR names an existing one.
BUILD_DIR="$PWD/build-gpu"
JOBS="$(nproc 2>/dev/null || echo 8)"
{
  MESHIOPP_JOBS="$JOBS" timeout 200 \
    "$PY" -m pip install --no-build-isolation --no-deps --no-index -e . \
  && "$PY" -c "import meshioplusplus as mio; print('installed', mio.__file__)"
} > "$OUT/build.log" 2>&1
if ! "$PY" -c "import meshioplusplus" >> "$OUT/build.log" 2>&1; then
  echo "pip editable install failed; plain CMake build" >> "$OUT/build.log"
  {
    timeout 60 cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release \
      -Dpybind11_DIR="$("$PY" -m pybind11 --cmakedir)" \
      -DPython_EXECUTABLE="$(command -v "$PY")" -DPYTHON_EXECUTABLE="$(command -v "$PY")" \
      -DMESHIOPP_BUILD_PYTHON=ON -DMESHIOPP_BUILD_TESTS=OFF -DMESHIOPP_BUILD_CLI=OFF \
      -DMESHIOPP_PYTHON_OUTPUT_DIR="$PWD/src/python/meshioplusplus" \
    && timeout 200 cmake --build "$BUILD_DIR" --target _core -j "$JOBS"
  } >> "$OUT/build.log" 2>&1
  export PYTHONPATH="$PWD/src/python${PYTHONPATH:+:$PYTHONPATH}"
fi
"$PY" -c "import meshioplusplus as mio; print('meshioplusplus from', mio.__file__, 'formats', sorted(mio.formats()))" 2>&1 | tee -a "$OUT/build.log"
tail -n 30 "$OUT/build.log"
elapsed "build"

# --- gated tests ---------------------------------------------------------------------------------
timeout 120 "$PY" -m pytest -v -rs -p no:cacheprovider tests/python/test_gpu.py \
  --junitxml="$OUT/gpu_tests.xml" > "$OUT/gpu_tests.log" 2>&1
TESTS_RC=$?
tail -n 60 "$OUT/gpu_tests.log"
elapsed "gated tests rc=$TESTS_RC"

# --- the whole Python suite once under numpy 2.x (bounded; informative) ----------------------------
timeout 60 "$PY" -m pytest -q -rs -p no:cacheprovider tests/python > "$OUT/python_tests.log" 2>&1
echo "python suite rc=$?"
tail -n 25 "$OUT/python_tests.log"
elapsed "python suite"

# --- bench -----------------------------------------------------------------------------------------
# The bench stops starting new sizes once its budget is spent and rewrites its table after
# every size, so the outer timeout still leaves results.
timeout 150 "$PY" bench/gpu_bench.py "$OUT/gpu_bench.md" --budget 100
echo "bench rc=$?"
elapsed "bench"

# A run on a machine where the device suite skipped is not a device check: say so loudly.
if ! "$PY" -c "import sys, meshioplusplus as mio; sys.exit(0 if mio.has_cuda_device() else 1)"; then
  echo "gpu_check: NO CUDA DEVICE ANSWERED - the gated tests skipped and the bench did not run"
  [ "$TESTS_RC" -eq 0 ] && TESTS_RC=3
fi
exit "$TESTS_RC"
