"""Hostile-input helpers shared by the sweep, header-lie and atomic-write tests.

The cases of the truncation-and-corruption sweep are generated here, deterministically, so
that the worker subprocess (hostile_worker.py) and the parent test produce the same bytes
for a label: a crashing case can be rebuilt and saved by the parent.
"""
from __future__ import annotations

import re
from pathlib import Path

import meshioplusplus as mio

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
FUZZ = ROOT / "tests" / "fuzz"

# Prefix sweep: every prefix of a file up to this size; beyond it a sample.
ALL_PREFIXES_UP_TO = 4096
SAMPLED_PREFIXES = 1500
# Byte flips: this many positions (all of them for smaller files), each XORed with these.
FLIP_POSITIONS = 400
FLIP_MASKS = (0x01, 0x20, 0x80, 0xFF)
# Digit-run mutations (numbers turned into lies): at most this many per file.
NUMBER_MUTATIONS = 300
LIES = (b"1000000000000", b"-1", b"4294967296", b"99999999999999999999999", b"0")


def readable_formats() -> list[str]:
    return sorted(name for name, f in mio.formats().items() if f["read"])


def writable_formats() -> list[str]:
    return sorted(name for name, f in mio.formats().items() if f["write"])


def fixtures(fmt: str) -> list[Path]:
    """Every file of tests/data/<fmt>/ and tests/fuzz/seeds/<fmt>/ with one of the format's
    extensions (tests/data/gmsh/*.geo are gmsh's inputs, not mesh files)."""
    exts = tuple(e.lower() for e in mio.formats()[fmt]["extensions"])
    out = []
    for folder in (DATA / fmt, FUZZ / "seeds" / fmt):
        if folder.is_dir():
            # A format without an extension (neuroglancer): the files without one.
            out += [p for p in sorted(folder.iterdir())
                    if p.is_file() and (p.name.lower().endswith(exts) if exts else not p.suffix)]
    return out


# Formats whose files name other files (pieces, heavy data) by relative path.
COLLECTIONS = {"pvtu", "pvtp", "pvd"}
WITH_SIDE_FILES = COLLECTIONS | {"xdmf"}


def mesh_fixtures(fmt: str) -> list[Path]:
    """fixtures(fmt) that read as meshes where they lie: the collections' fuzz seeds name
    pieces that are absent on purpose (tests/fuzz/seeds/README.md)."""
    return [p for p in fixtures(fmt) if not (fmt in COLLECTIONS and p.parent.parent.name == "seeds")]


def _spread(n: int, count: int) -> list[int]:
    """`count` positions spread evenly over range(n) (all of them when n <= count)."""
    if n <= count:
        return list(range(n))
    return sorted({(i * n) // count for i in range(count)})


def prefix_lengths(size: int) -> list[int]:
    if size <= ALL_PREFIXES_UP_TO:
        return list(range(size))
    # Sampled: every length in the first 512 bytes (headers), an even spread, the last 64.
    lengths = set(range(512)) | set(_spread(size, SAMPLED_PREFIXES)) | set(range(size - 64, size))
    return sorted(lengths)


def cases(data: bytes):
    """(label, bytes) for every case of one fixture: prefixes, byte flips, number lies."""
    for n in prefix_lengths(len(data)):
        yield f"prefix:{n}", data[:n]
    for at in _spread(len(data), FLIP_POSITIONS):
        for mask in FLIP_MASKS:
            b = bytearray(data)
            b[at] ^= mask
            yield f"flip:{at}^{mask:#04x}", bytes(b)
    runs = [m.span() for m in re.finditer(rb"[0-9]+", data)]
    for i in _spread(len(runs), NUMBER_MUTATIONS // len(LIES)):
        start, end = runs[i]
        for k, lie in enumerate(LIES):
            yield f"number:{start}-{end}={k}", data[:start] + lie + data[end:]


def case_bytes(data: bytes, label: str) -> bytes:
    for lab, b in cases(data):
        if lab == label:
            return b
    raise KeyError(label)
