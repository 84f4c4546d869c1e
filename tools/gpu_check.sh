#!/usr/bin/env bash
# The device check of the GPU hand-off, in one go: the first thing a session with the GPU
# machine runs (no network there; Python 3.12 with pip numpy 2.x, pybind11 3.x, cupy-cuda13x,
# torch, jax, numba; see docs/gpu.md). From the repository root:
#
#   OUT=/some/dir bash tools/gpu_check.sh
#
# Steps, each under `timeout` with the smaller of its own cap and the time left, the whole
# under GPU_CHECK_BUDGET seconds (default 420, 7 minutes); a failing step never stops the next:
#   1. versions and the device (nvidia-smi, CuPy, torch, JAX, Numba)
#   2. build the extension on that machine (pip editable install, else plain CMake)
#   3. every gated test: tests/python/test_gpu.py, test_pinned.py, test_gpu_semantics.py
#      (CuPy, torch, Numba, JAX with XLA_PYTHON_CLIENT_PREALLOCATE=false) and
#      test_interop_torch.py. A skipped test is a FAILURE here: on the device machine every
#      gated test must run. mio.check_cuda() must pass first.
#   4. bench/pinned_crossover.py (to_cupy default / staged / direct, from_cupy, and the raw
#      baselines: pinned set(), d.set(pageable), cupy.asarray), rewritten after every size
#   5. bench/gpu_bench.py, rewritten after every mesh size
#   6. the whole Python suite under numpy 2.x, only with the time left (informative)
# Writes flat files to $OUT: gpu_check.log (this trace), build.log, gpu_tests.log,
# gpu_tests.xml, skipped.txt, pinned_crossover.{md,json}, gpu_bench.{md,json},
# python_tests.log, summary.txt.
# Exit status: 0 only when the build worked, check_cuda() passed, every gated test passed
# and none skipped; 1 tests failed, 2 build failed, 3 no working CUDA device, 4 gated tests
# skipped.
#
# GPU_CHECK_DRY_RUN=1 (for a machine with no GPU): no build (uses the installed package),
# the benches with --dry-run on tiny sizes, no whole suite; it checks this script's own
# control flow and ends with status 3.
set -x
cd "$(dirname "$0")/.." || exit 1
OUT="${OUT:-$PWD/gpu-out}"
mkdir -p "$OUT"
exec > >(tee -a "$OUT/gpu_check.log") 2>&1
PY="${PYTHON:-python3}"
DRY="${GPU_CHECK_DRY_RUN:-0}"
export XLA_PYTHON_CLIENT_PREALLOCATE=false  # JAX must not take the GPU's memory from CuPy
export PYTHONDONTWRITEBYTECODE=1
START=$(date +%s)
DEADLINE=$(( START + ${GPU_CHECK_BUDGET:-420} ))
elapsed() { echo "gpu_check: $(( $(date +%s) - START ))s elapsed: $*"; }
# cap SECONDS: the smaller of SECONDS and the time left before the deadline (at least 1).
cap() { local left=$(( DEADLINE - $(date +%s) )); [ "$left" -lt 1 ] && left=1; [ "$1" -lt "$left" ] && echo "$1" || echo "$left"; }
summary() { echo "$*" >> "$OUT/summary.txt"; echo "gpu_check: $*"; }
: > "$OUT/summary.txt"

# --- 1. versions ---------------------------------------------------------------------------------
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
for probe in ("import cupy; print('cuda devices', cupy.cuda.runtime.getDeviceCount(), 'runtime', cupy.cuda.runtime.runtimeGetVersion(), 'driver', cupy.cuda.runtime.driverGetVersion())",
              "import numba.cuda; print('numba.cuda available', numba.cuda.is_available())",
              "import torch; print('torch cuda', torch.cuda.is_available())",
              "import jax; print('jax devices', jax.devices())"):
    try:
        exec(probe)
    except Exception as exc:  # noqa: BLE001
        print(probe.split(';')[0], "->", type(exc).__name__, exc)
EOF
  nvidia-smi --query-gpu=name,driver_version,memory.total,pcie.link.gen.current,pcie.link.width.current --format=csv
} 2>&1
elapsed "versions"

# --- 2. build ----------------------------------------------------------------------------------------
# setup.py builds in a private tree (build/python-3XX: no C++ tests or CLI, so no GoogleTest).
BUILD_RC=0
if [ "$DRY" = 1 ]; then
  echo "dry run: no build, the installed package is used" > "$OUT/build.log"
else
  {
    MESHIOPP_JOBS="$(nproc 2>/dev/null || echo 8)" timeout "$(cap 200)" \
      "$PY" -m pip install --no-build-isolation --no-deps --no-index -e .
  } > "$OUT/build.log" 2>&1
  if ! "$PY" -c "import meshioplusplus._core" >> "$OUT/build.log" 2>&1; then
    echo "pip editable install failed; plain CMake build" >> "$OUT/build.log"
    {
      timeout "$(cap 60)" cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release \
        -Dpybind11_DIR="$("$PY" -m pybind11 --cmakedir)" \
        -DPython_EXECUTABLE="$(command -v "$PY")" -DPYTHON_EXECUTABLE="$(command -v "$PY")" \
        -DMESHIOPP_BUILD_PYTHON=ON -DMESHIOPP_BUILD_TESTS=OFF -DMESHIOPP_BUILD_CLI=OFF \
        -DMESHIOPP_PYTHON_OUTPUT_DIR="$PWD/src/python/meshioplusplus" \
      && timeout "$(cap 200)" cmake --build build-gpu --target _core -j "$(nproc 2>/dev/null || echo 8)"
    } >> "$OUT/build.log" 2>&1
    export PYTHONPATH="$PWD/src/python${PYTHONPATH:+:$PYTHONPATH}"
  fi
fi
if "$PY" -c "import meshioplusplus as mio; print('meshioplusplus from', mio.__file__, 'formats', sorted(mio.formats()))" >> "$OUT/build.log" 2>&1; then
  summary "build: ok"
else
  BUILD_RC=1
  summary "build: FAILED (see build.log)"
fi
tail -n 20 "$OUT/build.log"
elapsed "build"

# --- 3. the device, then every gated test -------------------------------------------------------------
DEVICE_OK=0
if "$PY" - > "$OUT/check_cuda.txt" 2>&1 <<'EOF'
import sys
import meshioplusplus as mio
try:
    print(mio.check_cuda())
except Exception as exc:  # noqa: BLE001
    print(f"{type(exc).__name__}: {str(exc).splitlines()[0]}")
    sys.exit(1)
EOF
then
  DEVICE_OK=1
  summary "check_cuda: $(tail -n 1 "$OUT/check_cuda.txt")"
else
  summary "check_cuda: NO WORKING CUDA DEVICE: $(tail -n 1 "$OUT/check_cuda.txt")"
fi
timeout "$(cap 170)" "$PY" -m pytest -v -rs -p no:cacheprovider --junitxml="$OUT/gpu_tests.xml" \
  tests/python/test_gpu.py tests/python/test_pinned.py tests/python/test_gpu_semantics.py \
  tests/python/test_interop_torch.py > "$OUT/gpu_tests.log" 2>&1
TESTS_RC=$?
"$PY" - "$OUT/gpu_tests.xml" "$OUT/skipped.txt" <<'EOF'
import sys
import xml.etree.ElementTree as ET
try:
    root = ET.parse(sys.argv[1]).getroot()
except Exception as exc:  # noqa: BLE001
    open(sys.argv[2], "w").write(f"no junit xml: {exc}\n")
    sys.exit(0)
skipped = [f"{c.get('classname')}::{c.get('name')}: {s.get('message')}" for c in root.iter("testcase") for s in c.findall("skipped")]
open(sys.argv[2], "w").write("".join(line + "\n" for line in skipped))
EOF
N_SKIPPED=$(grep -c . "$OUT/skipped.txt" 2>/dev/null || echo 0)
tail -n 40 "$OUT/gpu_tests.log"
summary "gated tests: pytest rc=$TESTS_RC, $N_SKIPPED skipped (a skip is a failure on the device machine; see skipped.txt)"
elapsed "gated tests"

# --- 4. the pinned-memory crossover --------------------------------------------------------------------
# Sizes stop being started once its budget is spent; its table is rewritten after every size.
if [ "$DRY" = 1 ]; then BENCH_ARGS=(--dry-run); XO_SIZES=64K,512K; GB_SIZES=1e4; else BENCH_ARGS=(); XO_SIZES=64K,512K,4M,32M,256M,1G,4G; GB_SIZES=1e4,1e5,1e6,1e7; fi
XOVER_BUDGET=$(( DEADLINE - $(date +%s) - 110 ))
[ "$XOVER_BUDGET" -gt 150 ] && XOVER_BUDGET=150
[ "$XOVER_BUDGET" -lt 20 ] && XOVER_BUDGET=20
timeout "$(cap $(( XOVER_BUDGET + 45 )))" "$PY" bench/pinned_crossover.py "$OUT/pinned_crossover.md" \
  --sizes "$XO_SIZES" --budget "$XOVER_BUDGET" "${BENCH_ARGS[@]}"
summary "pinned_crossover: rc=$?"
elapsed "crossover"

# --- 5. the hand-off bench ---------------------------------------------------------------------------
BENCH_LEFT=$(( DEADLINE - $(date +%s) - 20 ))
if [ "$BENCH_LEFT" -gt 20 ]; then
  timeout "$(cap "$BENCH_LEFT")" "$PY" bench/gpu_bench.py "$OUT/gpu_bench.md" --sizes "$GB_SIZES" \
    --budget $(( BENCH_LEFT * 2 / 3 )) "${BENCH_ARGS[@]}"
  summary "gpu_bench: rc=$?"
else
  summary "gpu_bench: NOT RUN (no time left)"
fi
elapsed "bench"

# --- 6. the whole Python suite under numpy 2.x, with what is left (informative) -----------------------
LEFT=$(( DEADLINE - $(date +%s) - 5 ))
if [ "$DRY" = 1 ]; then
  summary "python suite: not run in a dry run"
elif [ "$LEFT" -gt 30 ]; then
  timeout "$LEFT" "$PY" -m pytest -q -rs -p no:cacheprovider tests/python > "$OUT/python_tests.log" 2>&1
  summary "python suite (informative): rc=$?; $(tail -n 1 "$OUT/python_tests.log")"
else
  summary "python suite: not run (no time left)"
fi
elapsed "done"

RC=0
if [ "$BUILD_RC" -ne 0 ]; then RC=2
elif [ "$DEVICE_OK" -ne 1 ]; then RC=3
elif [ "$TESTS_RC" -ne 0 ]; then RC=1
elif [ "$N_SKIPPED" -ne 0 ]; then RC=4
fi
summary "exit status $RC"
exit "$RC"
