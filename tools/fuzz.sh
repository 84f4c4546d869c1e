#!/usr/bin/env bash
# Fuzzes one reader with libFuzzer (clang-14, ASan + UBSan) for a given time.
#
#   tools/fuzz.sh FORMAT SECONDS [extra libFuzzer flags...]
#   tools/fuzz.sh --list                      the formats that have a fuzz target
#   tools/fuzz.sh --replay                    build every target and run each once over its
#                                             fixtures, seeds and regressions (no mutation:
#                                             deterministic, for CI)
#
# Builds build-fuzz/ (MESHIOPP_FUZZ=ON) once, seeds build-fuzz/corpus/FORMAT/ from
# tests/data/FORMAT/, tests/fuzz/seeds/FORMAT/ and tests/fuzz/regressions/FORMAT/, uses
# tests/fuzz/dicts/FORMAT.dict when present, and writes crashes to
# build-fuzz/artifacts/FORMAT/. The corpus grows across runs. The last lines of the log
# (build-fuzz/logs/FORMAT-<date>.log) give the number of executions; the summary line
# "fuzz: FORMAT ran S s (of SECONDS), N execs, exit RC, K findings" is appended to
# build-fuzz/logs/totals.txt (libFuzzer stops at its first finding: S < SECONDS then).
#
# A finding: minimize it (build-fuzz/fuzz_FORMAT -minimize_crash=1 -runs=100000 FILE), copy
# the minimized input to tests/fuzz/regressions/FORMAT/<what-it-broke> and fix the reader;
# ctest replays that folder on every run (fuzz_regressions_FORMAT).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${MESHIOPP_FUZZ_BUILD:-build-fuzz}
JOBS=${JOBS:-2}

configure() {
  if [ ! -f "$BUILD/CMakeCache.txt" ]; then
    cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-14 \
      -DMESHIOPP_FUZZ=ON -DMESHIOPP_BUILD_TESTS=OFF -DMESHIOPP_BUILD_PYTHON=OFF -DMESHIOPP_BUILD_CLI=OFF >/dev/null
  fi
}

# The formats with a fuzz target in $BUILD (fuzz_<format>; fuzz_replay, in a build that has
# the tests too, is the ctest replay tool, not a target).
fuzz_targets() {
  cmake --build "$BUILD" --target help | sed -n 's/^\.\.\. fuzz_\(.*\)$/\1/p' | grep -vx replay
}

if [ "${1:-}" = "--list" ]; then
  configure
  fuzz_targets
  exit 0
fi
# The registered format name of folder src/formats/$1 (its fixtures' folder in tests/data):
# the folder's own name unless <folder>.cpp registers another (dolfin -> dolfin-xml).
registered_name() {
  local n
  n=$(sed -n 's/.*Format{"\([^"]*\)".*/\1/p' "src/formats/$1/$1.cpp" 2>/dev/null | head -n1)
  echo "${n:-$1}"
}
seed_dirs() {
  for d in "tests/data/$(registered_name "$1")" "tests/fuzz/seeds/$1" "tests/fuzz/regressions/$1"; do
    [ -d "$d" ] && echo "$d"
  done
  return 0
}

if [ "${1:-}" = "--replay" ]; then
  configure
  cmake --build "$BUILD" -j"$JOBS"
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
  export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tools/lsan-suppressions.txt:print_suppressions=0}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
  for f in $(fuzz_targets); do
    mapfile -t dirs < <(seed_dirs "$f")
    [ ${#dirs[@]} -gt 0 ] || { echo "fuzz: $f has no fixtures, seeds or regressions" >&2; exit 1; }
    files=$(find "${dirs[@]}" -maxdepth 1 -type f ! -name 'README*' | sort)
    # shellcheck disable=SC2086
    "$BUILD/fuzz_$f" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 $files >"$BUILD/replay-$f.log" 2>&1 ||
      { tail -n 40 "$BUILD/replay-$f.log"; echo "fuzz: $f failed on a replayed input" >&2; exit 1; }
    echo "fuzz: $f replayed $(echo "$files" | wc -l) inputs under libFuzzer + ASan + UBSan"
  done
  exit 0
fi
if [ $# -lt 2 ]; then
  echo "usage: tools/fuzz.sh FORMAT SECONDS [libFuzzer flags...] | tools/fuzz.sh --list" >&2
  exit 2
fi
FORMAT=$1
SECONDS_TO_RUN=$2
shift 2

configure
cmake --build "$BUILD" -j"$JOBS" --target "fuzz_$FORMAT"

corpus="$BUILD/corpus/$FORMAT"
artifacts="$BUILD/artifacts/$FORMAT"
logs="$BUILD/logs"
mkdir -p "$corpus" "$artifacts" "$logs"
for seeds in $(seed_dirs "$FORMAT"); do
  find "$seeds" -maxdepth 1 -type f ! -name 'README*' -exec cp -n {} "$corpus/" \;
done
flags=(-max_total_time="$SECONDS_TO_RUN" -timeout=5 -rss_limit_mb=2048 -malloc_limit_mb=1024
       -max_len=65536 -print_final_stats=1 -artifact_prefix="$artifacts/")
[ -f "tests/fuzz/dicts/$FORMAT.dict" ] && flags+=(-dict="tests/fuzz/dicts/$FORMAT.dict")

log="$logs/$FORMAT-$(date +%Y%m%d-%H%M%S).log"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:allocator_may_return_null=0}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tools/lsan-suppressions.txt:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
echo "fuzz: $FORMAT for $SECONDS_TO_RUN s, log $log"
start=$(date +%s)
set +e
"$BUILD/fuzz_$FORMAT" "${flags[@]}" "$@" "$corpus" >"$log" 2>&1
rc=$?
set -e
elapsed=$(( $(date +%s) - start ))
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
findings=$(find "$artifacts" -type f | wc -l)
line="fuzz: $FORMAT ran $elapsed s (of $SECONDS_TO_RUN), ${execs:-?} execs, exit $rc, $findings findings in $artifacts"
echo "$line" | tee -a "$logs/totals.txt"
tail -n 5 "$log"
exit $rc
