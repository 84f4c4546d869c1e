"""Page faults and time per read, with transparent huge pages allowed or refused for this
process (prctl PR_SET_THP_DISABLE), to show what the core's 2 MiB-aligned MADV_HUGEPAGE
buffers buy. Usage: .venv/bin/python bench/page_faults.py FILE [thp|nothp]
(run once per mode: the setting is per process)."""
import ctypes
import resource
import statistics
import sys
import time

path, mode = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "thp")
if mode == "nothp":
    ctypes.CDLL(None).prctl(41, 1, 0, 0, 0)  # PR_SET_THP_DISABLE
import meshioplusplus as mio  # noqa: E402

reps = 15
mio.read(path)  # warm-up
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
times = []
for _ in range(reps):
    t = time.perf_counter()
    mio.read(path)
    times.append(time.perf_counter() - t)
faults = (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / reps
print(f"{mode:6s} {path}: median {statistics.median(times) * 1e3:.1f} ms, {faults:.0f} page faults per read")
