"""The per-call read path (bench/small_files.py): files of 64 KiB and less are read() into a
buffer instead of mapped (src/core/io/file.hpp kReadSmallFilesBelow), and the Python
dispatch takes a short path when no plug-in is registered. Both sides of the size
threshold must read the same meshes, checked against meshio (the oracle)."""
import os
import pathlib

import meshio
import numpy as np
import pytest

import meshioplusplus as mio

THRESHOLD = 64 * 1024


def box(n: int):
    """n x n x 2 grid of points, two triangles per square: a small surface."""
    x, y = np.meshgrid(np.linspace(0, 1, n), np.linspace(0, 1, n))
    points = np.column_stack([x.ravel(), y.ravel(), np.zeros(n * n)])
    q = (np.arange(n - 1)[None, :] + n * np.arange(n - 1)[:, None]).ravel()
    tri = np.concatenate([np.column_stack([q, q + 1, q + n + 1]), np.column_stack([q, q + n + 1, q + n])])
    return points, tri


CASES = [
    ("stl", ".stl", {"binary": True}),
    ("stl", ".stl", {"binary": False}),
    ("vtk", ".vtk", {"binary": True}),
    ("vtu", ".vtu", {}),
]


@pytest.mark.parametrize("fmt,suffix,kw", CASES, ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_files_either_side_of_the_small_file_threshold_read_alike(tmp_path, fmt, suffix, kw):
    sizes = []
    for n in (4, 6, 40, 60):  # from a few hundred bytes to well over 64 KiB
        points, tri = box(n)
        path = tmp_path / f"n{n}{suffix}"
        meshio.write(path, meshio.Mesh(points, [("triangle", tri)]), fmt, **kw)
        sizes.append(path.stat().st_size)
        ours, peer = mio.read(path), meshio.read(path)
        np.testing.assert_allclose(ours.points, peer.points)
        assert [b.type for b in ours.cells] == [b.type for b in peer.cells]
        for a, b in zip(ours.cells, peer.cells):
            np.testing.assert_array_equal(a.data, b.data)
    assert min(sizes) < THRESHOLD < max(sizes)


def test_a_file_of_exactly_the_threshold_and_one_byte_more(tmp_path):
    # ASCII STL padded with spaces in its solid name to the exact byte counts
    points, tri = box(4)
    base = tmp_path / "base.stl"
    meshio.write(base, meshio.Mesh(points, [("triangle", tri)]), "stl", binary=False)
    text = base.read_text()
    first, rest = text.split("\n", 1)
    for size in (THRESHOLD - 1, THRESHOLD, THRESHOLD + 1):
        pad = size - len(text.encode())
        path = tmp_path / f"s{size}.stl"
        path.write_text("solid " + "x" * (pad + len(first) - len("solid ")) + "\n" + rest)
        assert path.stat().st_size == size
        mesh = mio.read(path)
        assert len(mesh.points) == len(points) and len(mesh.cells[0]) == len(tri)


def test_dispatch_takes_str_pathlike_and_names_a_missing_file(tmp_path):
    points, tri = box(4)
    path = tmp_path / "m.stl"
    meshio.write(path, meshio.Mesh(points, [("triangle", tri)]), "stl")
    for arg in (str(path), path, pathlib.PurePosixPath(path)):
        assert len(mio.read(arg).points) == len(points)
    with pytest.raises(mio.ReadError, match="not found"):
        mio.read(tmp_path / "absent.stl")
    with pytest.raises(mio.ReadError, match="unknown file format 'nope'"):
        mio.read(path, "nope")


def test_a_plugin_still_takes_its_extension(tmp_path):
    path = tmp_path / "m.smallplug"
    path.write_text("anything")
    calls = []
    mio.register_format("smallplug", [".smallplug"], lambda f: calls.append(os.fspath(f)) or "plugin", {})
    try:
        assert mio.read(path) == "plugin" and calls == [str(path)]
        assert mio.read(str(path), "smallplug") == "plugin"
    finally:
        mio.deregister_format("smallplug")
    with pytest.raises(mio.ReadError):
        mio.read(path)  # no reader for the extension any more
