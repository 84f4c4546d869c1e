"""What a binary read costs at the least, measured five ways, against meshio++ and meshio on the same
files in one interleaved race (medians, milliseconds):

- copy: the file's bytes, already in this process's memory, copied into a fresh buffer
  (bench/run.py's copy floor, the floor of the "within Nx of copying the file's bytes"
  targets);
- read(2): the file read into a fresh buffer with one readinto call (the kernel copies
  the bytes out of the page cache);
- pread xN: the same on N threads, each reading its own slice of the file with os.preadv
  (what a reader that does not map the file, as meshio++'s binary readers, cannot beat);
- map, map+populate: the file mapped (the second with MAP_POPULATE), one byte of every page
  read, unmapped: the least a reader that decodes through a mapping pays besides decoding.

Same heap and page-cache state as bench/run.py (WARM_HEAP, settle_page_cache).
Usage: .venv/bin/python bench/read_floors.py [--reps N] [--threads N] FILE[:FORMAT] ...
"""
import argparse
import mmap
import os
import resource
import statistics
import sys
import threading
import time
import warnings
from pathlib import Path

import numpy as np

from run import WARM_HEAP, copy_fn, settle_page_cache


def read_call(path: Path):
    def read():
        with open(path, "rb", buffering=0) as f:
            buf = np.empty(os.fstat(f.fileno()).st_size, dtype=np.uint8)
            f.readinto(buf)
        return buf
    return read


def pread_threads(path: Path, threads: int):
    def read():
        fd = os.open(path, os.O_RDONLY)
        try:
            size = os.fstat(fd).st_size
            buf = np.empty(size, dtype=np.uint8)
            view = memoryview(buf)

            def part(t):
                lo, hi = size * t // threads, size * (t + 1) // threads
                while lo < hi:
                    lo += os.preadv(fd, [view[lo:hi]], lo)

            workers = [threading.Thread(target=part, args=(t,)) for t in range(1, threads)]
            for w in workers:
                w.start()
            part(0)
            for w in workers:
                w.join()
        finally:
            os.close(fd)
        return buf
    return read


def map_touch(path: Path, populate: bool):
    flags = mmap.MAP_SHARED | (mmap.MAP_POPULATE if populate else 0)

    def read():
        with open(path, "rb") as f:
            m = mmap.mmap(f.fileno(), 0, flags=flags, prot=mmap.PROT_READ)
            try:
                view = np.frombuffer(m, dtype=np.uint8)
                total = int(view[::mmap.PAGESIZE].sum())
                del view
            finally:
                m.close()
        return total
    return read


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--reps", type=int, default=31)
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    args = ap.parse_args()
    import meshio

    import meshioplusplus as mio
    warnings.simplefilter("ignore")  # meshio's own UGRID files carry record markers we warn about
    print(f"{args.reps} interleaved repetitions, medians in ms; pread on {args.threads} threads; heap {WARM_HEAP}")
    print(f"{'file':34s} {'MB':>6s} {'copy':>6s} {'read(2)':>8s} {'pread':>6s} {'map':>6s} {'map+pop':>8s} {'ours':>6s} {'meshio':>7s}  "
          "ours/copy ours/read(2) ours/pread meshio/ours")
    for spec in args.files:
        name, _, fmt = spec.partition(":")
        path = Path(name)
        settle_page_cache([path])
        fns = {"copy": copy_fn([path]), "read(2)": read_call(path), "pread": pread_threads(path, args.threads),
               "map": map_touch(path, False), "map+pop": map_touch(path, True),
               "ours": lambda: mio.read(path, fmt or None), "meshio": lambda: meshio.read(path, fmt or None)}
        samples, faults = {k: [] for k in fns}, {k: 0 for k in fns}
        for f in fns.values():
            f()  # warm-up
        for _ in range(args.reps):
            for k, f in fns.items():
                before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
                t = time.perf_counter(); f(); samples[k].append(time.perf_counter() - t)
                faults[k] += resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
        m = {k: statistics.median(v) * 1e3 for k, v in samples.items()}
        print(f"{path.name:34s} {path.stat().st_size / 1e6:6.1f} {m['copy']:6.2f} {m['read(2)']:8.2f} {m['pread']:6.2f} {m['map']:6.2f} {m['map+pop']:8.2f} {m['ours']:6.2f} "
              f"{m['meshio']:7.2f}  {m['ours'] / m['copy']:9.2f} {m['ours'] / m['read(2)']:12.2f} {m['ours'] / m['pread']:10.2f} "
              f"{m['meshio'] / m['ours']:11.2f}", flush=True)
        print(f"{'':34s} page faults per call: " + ", ".join(f"{k} {faults[k] / args.reps:.0f}" for k in fns) +
              f" ({path.stat().st_size // mmap.PAGESIZE} pages)", flush=True)


if __name__ == "__main__":
    if any(os.environ.get(k) != v for k, v in WARM_HEAP.items()):
        os.execve(sys.executable, [sys.executable] + sys.argv, {**os.environ, **WARM_HEAP})
    main()
