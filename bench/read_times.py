"""Median time of meshio++'s read of each file, in this process, for comparing two builds:
run it alternately with each build first on PYTHONPATH (a copy of an older
src/python/meshioplusplus with its _core .so), a few rounds, so that both see the same
machine. Same heap as bench/run.py (WARM_HEAP).
Usage: .venv/bin/python bench/read_times.py [--reps N] FILE ...
"""
import argparse
import os
import statistics
import sys
import time
import warnings
from pathlib import Path

from run import WARM_HEAP


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--reps", type=int, default=41)
    args = ap.parse_args()
    import meshioplusplus as mio
    warnings.simplefilter("ignore")  # meshio's own UGRID files carry record markers we warn about
    cells = []
    for name in args.files:
        for _ in range(3):
            mio.read(name)  # warm-up: the heap, the page cache, the threads
        times = []
        for _ in range(args.reps):
            t = time.perf_counter(); mio.read(name); times.append(time.perf_counter() - t)
        cells.append(f"{Path(name).name} {statistics.median(times) * 1e3:.3f}")
    print(f"{Path(mio.__file__).parent}: " + " | ".join(cells) + " (ms, medians)", flush=True)


if __name__ == "__main__":
    if any(os.environ.get(k) != v for k, v in WARM_HEAP.items()):
        os.execve(sys.executable, [sys.executable] + sys.argv, {**os.environ, **WARM_HEAP})
    main()
