"""Subprocess half of the truncation-and-corruption sweep (test_hostile_sweep.py) and of
the header-lie test (test_hostile_header_lies.py).

    python hostile_worker.py FORMAT FIXTURE RESULT_JSON [AS_LIMIT_BYTES]
    python hostile_worker.py --files FORMAT RESULT_JSON AS_LIMIT_BYTES FILE...

The second form reads each FILE once, through a counting allocator (mio.use_allocator),
and records per file: outcome ("mesh", "ReadError" or "<Exception>: message") and the
largest buffer the core asked for.

Reads every case of hostile.cases(FIXTURE) with mio.read(..., FORMAT) under an address-space
limit, and writes {"cases", "mesh", "read_error", "failures": [...]} to RESULT_JSON. A case
fails when read raises anything but ReadError. Nothing here is timed: a read that never
ends is caught by the parent's timeout, however fast or slow the machine.
Before each case its label goes to stdout (flushed), so when the process dies (a crash)
or hangs the parent knows which case did it.
"""
import json
import os
import resource
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import meshioplusplus as mio  # noqa: E402

import hostile  # noqa: E402


def read_files():
    import ctypes

    fmt, result, limit, files = sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5:]
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    held, requests = {}, []

    def alloc(n):
        requests.append(n)
        buf = ctypes.create_string_buffer(max(n, 1))
        held[ctypes.addressof(buf)] = buf
        return ctypes.addressof(buf)

    def free(address, n):
        held.pop(address)

    out = {}
    for path in files:
        print(path, flush=True)
        requests.clear()
        try:
            with mio.use_allocator(alloc, free):
                mio.read(path, fmt)
            outcome = "mesh"
        except mio.ReadError as e:
            outcome = "ReadError: " + str(e)
        except BaseException as e:  # noqa: BLE001 - anything else is the finding
            outcome = f"{type(e).__name__}: {e}"
        out[path] = {
            "outcome": outcome,
            "max_request": max(requests, default=0),
        }
    with open(result, "w") as f:
        json.dump(out, f)


def main():
    fmt, fixture, result = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
    if len(sys.argv) > 4:
        limit = int(sys.argv[4])
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    data = fixture.read_bytes()
    tmpdir = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    out = {"cases": 0, "mesh": 0, "read_error": 0, "failures": []}
    with tempfile.TemporaryDirectory(dir=tmpdir, prefix="mio-sweep-") as tmp:
        probe = os.path.join(tmp, "probe" + fixture.suffix)
        for label, case in hostile.cases(data):
            print(label, flush=True)
            with open(probe, "wb") as f:
                f.write(case)
            try:
                mio.read(probe, fmt)
                out["mesh"] += 1
            except mio.ReadError:
                out["read_error"] += 1
            except BaseException as e:  # noqa: BLE001 - anything else is the finding
                out["failures"].append(f"{label}: {type(e).__name__}: {e}")
            out["cases"] += 1
    with open(result, "w") as f:
        json.dump(out, f)


if __name__ == "__main__":
    read_files() if sys.argv[1] == "--files" else main()
