"""Pieces the GPU benchmarks share (bench/gpu_bench.py, bench/pinned_crossover.py): CuPy
loading (or the host-memory stand-in for --dry-run), run metadata, interleaved timing."""
from __future__ import annotations

import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def load_cupy(prog: str, dry_run: bool):
    """(cupy module, device description), or None after printing why CuPy cannot be used.
    --dry-run installs tests/python/fake_cupy.py (host memory: checks control flow only)."""
    if dry_run:
        sys.path.insert(0, str(ROOT / "tests" / "python"))
        import fake_cupy

        cp = fake_cupy.make()
        sys.modules["cupy"], sys.modules["cupyx"] = cp, cp.cupyx
        return cp, "no device (dry run)"
    try:
        import cupy as cp
    except ImportError as exc:
        print(f"{prog}: CuPy is not importable ({exc}); install the cupy-cudaXXx wheel of your toolkit", file=sys.stderr)
        return None
    if cp.cuda.runtime.getDeviceCount() < 1:
        print(f"{prog}: CuPy is installed but no CUDA device answers", file=sys.stderr)
        return None
    props = cp.cuda.runtime.getDeviceProperties(cp.cuda.runtime.getDevice())
    name = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
    return cp, f"{name} (device {cp.cuda.runtime.getDevice()})"


def run_meta(cp, device: str, args) -> dict:
    return {
        "when": time.strftime("%Y-%m-%d %H:%M"),
        "device": device,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "cupy": getattr(cp, "__version__", "?"),
        "repeats": args.repeats,
        "dry_run": args.dry_run,
    }


def timed(cases: dict, sync, repeats: int) -> dict:
    """Median seconds per case; cases interleaved and rotated every repeat; one warm-up each."""
    names = list(cases)
    for name in names:
        result = cases[name]()
        sync()
        del result
    samples = {name: [] for name in names}
    for r in range(repeats):
        order = names[r % len(names):] + names[: r % len(names)]
        for name in order:
            sync()
            t0 = time.perf_counter()
            result = cases[name]()
            sync()
            samples[name].append(time.perf_counter() - t0)
            del result
    return {name: statistics.median(v) for name, v in samples.items()}


def gbps(nbytes, seconds):
    return nbytes / seconds / 1e9


def release_pools(cp) -> None:
    """After a size: its buffers are gone, so hand the pools' blocks back before the next."""
    import gc

    gc.collect()
    cp.get_default_memory_pool().free_all_blocks()
    cp.get_default_pinned_memory_pool().free_all_blocks()


def write_results(md_path: Path, text: str, meta: dict, results: list) -> None:
    """The Markdown table and its raw JSON beside it (rewritten after every size, so a
    timeout still leaves what was measured)."""
    import json

    md_path.write_text(text)
    md_path.with_suffix(".json").write_text(json.dumps({"meta": meta, "results": results}, indent=1))
