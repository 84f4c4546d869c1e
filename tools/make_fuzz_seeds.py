"""Writes the extra fuzz seeds of tests/fuzz/seeds/<format>/.

    .venv/bin/python tools/make_fuzz_seeds.py

tests/data/<format>/ holds the fixtures that real tools made; seeds here add what they do
not cover, so that the fuzzers and the truncation sweep start from it. vtu: meshio++'s own
writer (its comment, attribute order, ragged polygon/polyhedron layout and int32/float32
data) in ascii, binary+zlib (UInt64 headers) and appended+zlib (UInt32 headers), and a
polyhedron + polygon mesh appended raw. Each seed is under ~2 KiB so that the sweep tries
every prefix.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

import meshioplusplus as mio

OUT = Path(__file__).resolve().parents[1] / "tests" / "fuzz" / "seeds"


def small_mesh() -> mio.Mesh:
    points = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0.5, 0.5, 1], [2, 0, 0]], dtype=float)
    cells = [("triangle", np.array([[1, 5, 2]])), ("quad", np.array([[0, 1, 2, 3]])), ("tetra", np.array([[0, 1, 3, 4]]))]
    return mio.Mesh(
        points,
        cells,
        point_data={"u": np.arange(6, dtype=float), "v": np.arange(18, dtype=np.float32).reshape(6, 3)},
        cell_data={"id": [np.array([7], dtype=np.int32), np.array([8], dtype=np.int32), np.array([9], dtype=np.int32)]},
    )


def polyhedron_mesh() -> mio.Mesh:
    points = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]], dtype=float)
    tet = [np.array([0, 1, 2]), np.array([0, 1, 3]), np.array([1, 2, 3]), np.array([0, 2, 3])]
    return mio.Mesh(points, [("polyhedron", [tet]), ("polygon", [np.array([1, 2, 4, 3])])])


def main() -> None:
    folder = OUT / "vtu"
    folder.mkdir(parents=True, exist_ok=True)
    modes = {
        "ascii": dict(binary=False),
        "binary_zlib": dict(header_type="UInt64"),
        "appended_zlib": dict(data_mode="appended", header_type="UInt32"),
    }
    for mode, options in modes.items():
        mio.write(folder / f"mpp_mixed_{mode}.vtu", small_mesh(), "vtu", **options)
    mio.write(folder / "mpp_polyhedron_appended.vtu", polyhedron_mesh(), "vtu", data_mode="appended", compression="None")
    for p in sorted(folder.glob("*.vtu")):
        print(p.name, p.stat().st_size)


if __name__ == "__main__":
    main()
