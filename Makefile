# meshio++: `make demo` and `make test` work on a fresh Debian 12 machine (root, no PyPI).
PY      := .venv/bin/python
BUILD   := build
JOBS    ?= 2
PYBIND11_DIR = $(shell /usr/bin/python3 -c "import pybind11; print(pybind11.get_cmake_dir())")
# ccache, where a developer has it, makes rebuilds in several work trees cheap; CI has none.
LAUNCHER := $(shell command -v ccache >/dev/null 2>&1 && echo -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

.PHONY: setup build test test-cpp test-python san-configure test-sanitize test-tsan fuzz fuzz-smoke demo bench clean

setup: .venv/.setup-done

.venv/.setup-done: tools/setup.sh tools/debian-packages.txt
	bash tools/setup.sh
	touch $@

# The C++ library, CLI, tests and the _core extension, then the package into .venv.
build: setup
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -Dpybind11_DIR=$(PYBIND11_DIR) \
	  -DPython_EXECUTABLE=/usr/bin/python3 -DPYTHON_EXECUTABLE=/usr/bin/python3 -DMESHIOPP_WITH_MPI=ON $(LAUNCHER) >/dev/null
	cmake --build $(BUILD) -j$(JOBS)
	MESHIOPP_BUILD_DIR=$(abspath $(BUILD)) MESHIOPP_JOBS=$(JOBS) \
	  $(PY) -m pip install --no-build-isolation --no-deps --no-index -q -e .

test-cpp: build
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS)

test-python: build
	$(PY) -m pytest -q tests/python

test: test-cpp test-python

# The C++ suite (GoogleTest + the fuzz regression replay) under ASan + UBSan, leaks checked,
# built with clang-14 in build-sanitize/. That build also links every libFuzzer target (its
# sources not instrumented for coverage: a replay needs none), so `make fuzz-smoke` reuses it
# instead of compiling the core a fourth time. The sanitizer and TSan builds leave out MPI
# (its tests run only in `make test`) and keep line tables only (-gline-tables-only / -g1:
# file and line in every report, a fraction of the full debug information's compile and
# link time).
# install_and_consume builds an uninstrumented consumer: the plain `make test` runs it.
# allocator_may_return_null: libhdf5 asks malloc for the sizes a corrupt file declares (512 GB
# for one flipped byte of a CGNS fixture) and fails cleanly when it gets NULL, as it does
# outside ASan; ASan's default would abort the process instead. The leak suppressions are
# libhdf5's own (tools/lsan-suppressions.txt says which and why).
SAN_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=1:strict_string_checks=1:allocator_may_return_null=1 \
           LSAN_OPTIONS=suppressions=$(CURDIR)/tools/lsan-suppressions.txt:print_suppressions=0 \
           UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
SAN_BUILD := build-sanitize
san-configure: setup
	cmake -S . -B $(SAN_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-14 \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -gline-tables-only -DNDEBUG" -DMESHIOPP_SANITIZE=ON \
	  -DMESHIOPP_FUZZ=ON -DMESHIOPP_FUZZ_COVERAGE=OFF -DMESHIOPP_WITH_MPI=OFF \
	  -DMESHIOPP_BUILD_PYTHON=OFF -DMESHIOPP_BUILD_CLI=OFF >/dev/null
test-sanitize: san-configure
	cmake --build $(SAN_BUILD) -j$(JOBS)
	cd $(SAN_BUILD) && $(SAN_ENV) ctest --output-on-failure -j$(JOBS) -E "install_and_consume"

# The threading tests (allocator hook, parallel readers/writers) under ThreadSanitizer.
TSAN_TESTS := AllocatorHook.*:HostileConcurrency.*:*ThreadCount*:AtomicFileBackgroundFlush.*:ParallelPool.*
test-tsan: setup
	cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
	  -DMESHIOPP_TSAN=ON -DMESHIOPP_WITH_MPI=OFF -DMESHIOPP_BUILD_PYTHON=OFF -DMESHIOPP_BUILD_CLI=OFF >/dev/null
	cmake --build build-tsan -j$(JOBS) --target meshioplusplus_tests
	TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 build-tsan/tests/cpp/meshioplusplus_tests \
	  --gtest_filter='$(TSAN_TESTS)'

# libFuzzer (clang-14): `make fuzz FORMAT=gmsh SECONDS=600`; see docs/robustness.md.
FORMAT  ?= gmsh
SECONDS ?= 60
fuzz: setup
	tools/fuzz.sh $(FORMAT) $(SECONDS)

# Every fuzz target builds (clang-14, libFuzzer + ASan + UBSan) and runs once over its
# fixtures, seeds and regressions: deterministic, for CI (catches clang-only breaks too).
# It shares build-sanitize/ with make test-sanitize (fuzzing itself uses build-fuzz/).
fuzz-smoke: san-configure
	MESHIOPP_FUZZ_BUILD=$(SAN_BUILD) tools/fuzz.sh --replay

demo: build
	$(PY) examples/demo.py

# Benchmarks against meshio (not part of make test): inputs made by gmsh from bench/geo/,
# results under bench/results/ (Markdown table + PNG), plus the C++ micro-benchmarks and the
# MPI scaling of the partitioned layouts (a ~1 GB mesh read on 1..4 ranks).
bench: build
	cmake -S . -B $(BUILD) -DMESHIOPP_BUILD_BENCH=ON >/dev/null
	cmake --build $(BUILD) --target bench_primitives -j$(JOBS)
	$(BUILD)/bench_primitives --benchmark_min_time=0.2 | tee bench/results/primitives-latest.txt
	$(PY) bench/run.py
	$(PY) bench/bench_mpi.py --weak-cells 250000 --strong-cells 7000000  # MPI scaling, every layout (docs/parallel.md)

clean:
	rm -rf $(BUILD) build-* src/python/*.egg-info
