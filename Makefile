# meshio++: `make demo` and `make test` work on a fresh Debian 12 machine (root, no PyPI).
PY      := .venv/bin/python
BUILD   := build
JOBS    ?= 2
PYBIND11_DIR = $(shell /usr/bin/python3 -c "import pybind11; print(pybind11.get_cmake_dir())")

.PHONY: setup build test test-cpp test-python demo bench clean

setup: .venv/.setup-done

.venv/.setup-done: tools/setup.sh tools/debian-packages.txt
	bash tools/setup.sh
	touch $@

# The C++ library, CLI, tests and the _core extension, then the package into .venv.
build: setup
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -Dpybind11_DIR=$(PYBIND11_DIR) \
	  -DPython_EXECUTABLE=/usr/bin/python3 -DPYTHON_EXECUTABLE=/usr/bin/python3 >/dev/null
	cmake --build $(BUILD) -j$(JOBS)
	MESHIOPP_BUILD_DIR=$(abspath $(BUILD)) MESHIOPP_JOBS=$(JOBS) \
	  $(PY) -m pip install --no-build-isolation --no-deps --no-index -q -e .

test-cpp: build
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS)

test-python: build
	$(PY) -m pytest -q tests/python

test: test-cpp test-python

demo: build
	$(PY) examples/demo.py

# Benchmarks against meshio (not part of make test): inputs made by gmsh from bench/geo/,
# results under bench/results/ (Markdown table + PNG), plus the C++ micro-benchmarks.
bench: build
	cmake -S . -B $(BUILD) -DMESHIOPP_BUILD_BENCH=ON >/dev/null
	cmake --build $(BUILD) --target bench_primitives -j$(JOBS)
	$(BUILD)/bench_primitives --benchmark_min_time=0.2 | tee bench/results/primitives-latest.txt
	$(PY) bench/run.py

clean:
	rm -rf $(BUILD) build-* src/python/*.egg-info
