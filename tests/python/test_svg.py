"""SVG (write only) against meshio 5.0's writer: both files parsed with ElementTree, the
viewBox, the style and every path's commands and coordinates compared numerically, for
triangles, quads, lines and mixed blocks and each of meshio's keywords; 3-D points refused
as meshio refuses them; reading an SVG is a clear error."""
from __future__ import annotations

import re
import warnings
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import meshioplusplus as mio

meshio = pytest.importorskip("meshio", reason="meshio is the peer for cross-checks")
SVG = "{http://www.w3.org/2000/svg}"


def meshes(M, kind):
    rng = np.random.default_rng(7)
    points = rng.random((40, 2)) * [3.0, 1.5] - [1.0, 0.25]
    tris = rng.integers(0, 40, (30, 3))
    quads = rng.integers(0, 40, (20, 4))
    lines = rng.integers(0, 40, (10, 2))
    cells = {"triangle": [("triangle", tris)], "quad": [("quad", quads)],
             "mixed": [("triangle", tris), ("line", lines), ("tetra", rng.integers(0, 40, (3, 4))), ("quad", quads),
                       ("triangle", tris[:4])]}[kind]
    return M.Mesh(points, cells)


def drawing(path):
    """(viewBox numbers, style text, [(commands, coordinates)] per path) of an SVG file."""
    root = ET.parse(path).getroot()
    assert root.tag == f"{SVG}svg" and root.get("version") == "1.1"
    view = [float(v) for v in root.get("viewBox").split()]
    style = root.find(f"{SVG}style").text
    paths = []
    for p in root.findall(f"{SVG}path"):
        d = p.get("d")
        paths.append(("".join(re.findall("[MLZ]", d)), [float(v) for v in re.findall(r"-?[0-9.]+(?:e[-+]?[0-9]+)?", d)]))
    return view, style, paths


def assert_same_drawing(ours, theirs):
    (v1, s1, p1), (v2, s2, p2) = drawing(ours), drawing(theirs)
    np.testing.assert_allclose(v1, v2, rtol=0, atol=1e-12)
    assert s1 == s2
    assert len(p1) == len(p2) and p1
    for (c1, x1), (c2, x2) in zip(p1, p2):
        assert c1 == c2
        np.testing.assert_allclose(x1, x2, rtol=0, atol=1e-12)


def write_both(tmp_path, kind, **kw):
    mio.write(tmp_path / "ours.svg", meshes(mio, kind), **kw)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        meshio.write(tmp_path / "theirs.svg", meshes(meshio, kind), **kw)
    return tmp_path / "ours.svg", tmp_path / "theirs.svg"


@pytest.mark.parametrize("kind", ["triangle", "quad", "mixed"])
def test_same_drawing_as_meshio(tmp_path, kind):
    ours, theirs = write_both(tmp_path, kind)
    assert_same_drawing(ours, theirs)
    assert ours.read_bytes() == theirs.read_bytes()  # it happens to match byte for byte too


KEYWORDS = [dict(float_fmt=".6e"), dict(float_fmt=".1f"), dict(float_fmt="g"), dict(stroke_width="0.25"),
            dict(stroke_width=2), dict(image_width=None), dict(image_width=640), dict(image_width=12.5),
            dict(fill="none"), dict(stroke="rgb(10, 20, 30)"),
            dict(float_fmt=".4f", image_width=None, stroke_width=None, fill="#fff", stroke="#000")]


@pytest.mark.parametrize("kw", KEYWORDS, ids=str)
def test_each_keyword_as_meshio(tmp_path, kw):
    ours, theirs = write_both(tmp_path, "mixed", **kw)
    assert_same_drawing(ours, theirs)


def test_flat_3d_is_drawn_and_3d_is_refused(tmp_path):
    m = meshes(mio, "triangle")
    m.points = np.column_stack([m.points, np.full(len(m.points), 1e-15)])
    mio.write(tmp_path / "flat.svg", m)
    meshio.write(tmp_path / "theirs.svg", meshio.Mesh(m.points, [("triangle", m.cells[0].data)]))
    assert_same_drawing(tmp_path / "flat.svg", tmp_path / "theirs.svg")
    (tmp_path / "x.svg").write_text("precious")
    m.points[5, 2] = 0.5
    with pytest.raises(mio.WriteError, match="flat 2D"):
        mio.write(tmp_path / "x.svg", m)
    with pytest.raises(meshio.WriteError):
        meshio.write(tmp_path / "y.svg", meshio.Mesh(m.points, [("triangle", m.cells[0].data)]))
    assert (tmp_path / "x.svg").read_text() == "precious"


def test_zero_width_meshes_as_meshio(tmp_path):
    for points in (np.array([[1.0, 0.0], [1.0, 2.0]]), np.array([[0.5, 0.5], [0.5, 0.5]])):
        mio.write(tmp_path / "ours.svg", mio.Mesh(points, [("line", [[0, 1]])]))
        meshio.write(tmp_path / "theirs.svg", meshio.Mesh(points, [("line", [[0, 1]])]))
        assert_same_drawing(tmp_path / "ours.svg", tmp_path / "theirs.svg")


def test_reading_svg_is_a_clear_error(tmp_path):
    mio.write(tmp_path / "x.svg", meshes(mio, "triangle"))
    with pytest.raises(mio.ReadError, match="'svg'.*cannot be read.*write-only"):
        mio.read(tmp_path / "x.svg")
    with pytest.raises(ValueError, match="write-only"):
        mio.svg.read(tmp_path / "x.svg")
    assert mio.formats()["svg"] == {"extensions": [".svg"], "read": False, "write": True}


def test_bad_keywords_are_value_errors(tmp_path):
    with pytest.raises(ValueError, match="float_fmt"):
        mio.write(tmp_path / "x.svg", meshes(mio, "quad"), float_fmt="%d")
    with pytest.raises(ValueError, match="image_width"):
        mio.write(tmp_path / "x.svg", meshes(mio, "quad"), image_width="wide")
    with pytest.raises(ValueError, match="colour"):
        mio.write(tmp_path / "x.svg", meshes(mio, "quad"), colour="red")
