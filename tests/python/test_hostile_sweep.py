"""The truncation-and-corruption sweep over every fixture of every reader.

For each fixture (hostile.fixtures), every truncated prefix (all of them up to
hostile.ALL_PREFIXES_UP_TO bytes, a sample beyond), single-byte flips at a spread of
positions, and numbers replaced by lies (10^12, -1, 2^32, 10^23, 0) must read as a mesh or
raise ReadError. Anything else, a crash, a read that never ends (the worker's timeout) or an allocation past
the address-space limit fails; nothing is timed per read. Each fixture runs in its own subprocess
(hostile_worker.py): a crash names its case, and the case is saved for replay.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import hostile

WORKER = Path(__file__).with_name("hostile_worker.py")
AS_LIMIT = 2 << 30
SWEEP = [(fmt, path) for fmt in hostile.readable_formats() for path in hostile.fixtures(fmt)]


def test_every_reader_has_fixtures_to_sweep():
    # A reader with no fixture would be swept by nothing: that is a failure, not a skip.
    missing = [fmt for fmt in hostile.readable_formats() if not hostile.fixtures(fmt)]
    assert not missing, f"readers with no fixture in tests/data/<format>/ or tests/fuzz/seeds/<format>/: {missing}"


def test_cases_cover_every_prefix_of_small_files():
    data = bytes(range(256)) * 4
    labels = [label for label, _ in hostile.cases(data)]
    assert [f"prefix:{n}" for n in range(len(data))] == [lab for lab in labels if lab.startswith("prefix:")]
    assert sum(lab.startswith("flip:") for lab in labels) == hostile.FLIP_POSITIONS * len(hostile.FLIP_MASKS)
    big = b"x" * 100_000
    lengths = hostile.prefix_lengths(len(big))
    assert lengths[:512] == list(range(512)) and lengths[-1] == len(big) - 1 and len(lengths) < 2200


SWEEP_CASES = [pytest.param(f, p, id=f"{f}-{p.name}") for f, p in SWEEP]


@pytest.mark.parametrize("fmt,fixture", SWEEP_CASES)
def test_every_prefix_flip_and_lie_is_a_mesh_or_read_error(fmt, fixture, tmp_path):
    result = tmp_path / "result.json"
    try:
        proc = subprocess.run(
            [sys.executable, str(WORKER), fmt, str(fixture), str(result), str(AS_LIMIT)],
            capture_output=True, timeout=1800,
        )
    except subprocess.TimeoutExpired as e:
        lines = (e.stdout or b"").decode(errors="replace").splitlines()
        pytest.fail(f"the reader never finished case {lines[-1] if lines else '(the first)'} (a hang)")
    if proc.returncode != 0 or not result.exists():
        lines = proc.stdout.decode(errors="replace").splitlines()
        last = lines[-1] if lines else "(before the first case)"
        saved = ""
        if lines:
            crash = tmp_path / f"crash{fixture.suffix}"
            crash.write_bytes(hostile.case_bytes(fixture.read_bytes(), last))
            saved = f"; input saved as {crash}"
        pytest.fail(
            f"the reader process died (exit {proc.returncode}) on case {last}{saved}\n"
            + proc.stderr.decode(errors="replace")[-3000:]
        )
    out = json.loads(result.read_text())
    print(f"sweep {fmt} {fixture.name}: {out['cases']} cases, {out['mesh']} meshes, {out['read_error']} ReadErrors")
    assert out["cases"] == out["mesh"] + out["read_error"] + len(out["failures"])
    assert not out["failures"], "\n".join(out["failures"][:20])
    assert out["read_error"] > 0  # the sweep reached the reader's error paths
