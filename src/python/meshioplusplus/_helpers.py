"""read / write / write_points_cells over the C++ format registry (one registry: the
core's; this module only asks it). Paths and file-like objects are accepted, as in meshio.
Keyword arguments are passed to the format as options; a keyword the format does not know
is an error naming it."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

from . import _core
from ._exceptions import ReadError, WriteError
from ._mesh import Mesh


def formats() -> dict:
    """name -> {"extensions": [...], "read": bool, "write": bool} for every registered format."""
    return {name: {"extensions": list(exts), "read": r, "write": w} for name, exts, r, w in _core.formats()}


def deduce(path: str, file_format, for_write: bool) -> str:
    """The format to use: ``file_format`` when given (checked), else the C++ core's choice
    from the file name (format.cpp deduce_format: longest matching extension, ties in
    registration order, the first that can read or write)."""
    error = WriteError if for_write else ReadError
    if file_format is not None:
        if file_format not in formats():
            raise error(f"unknown file format '{file_format}' (known: {', '.join(formats()) or '(none)'})")
        return file_format
    try:
        return _core.deduce_format(path, for_write)
    except ValueError as e:
        raise error(str(e)) from None


def _options(kwargs: dict) -> dict:
    out = {}
    for key, value in kwargs.items():
        if isinstance(value, bool):
            value = "true" if value else "false"
        out[key] = str(value)
    return out


def _is_buffer(obj) -> bool:
    return hasattr(obj, "read") or hasattr(obj, "write")


def read(filename, file_format: str | None = None, **kwargs) -> Mesh:
    """Read a mesh file; the format comes from the extension unless ``file_format`` names it."""
    if _is_buffer(filename):
        if file_format is None:
            raise ReadError("file_format must be given when reading from a buffer")
        data = filename.read()
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "buffer")
            with open(path, "wb") as f:
                f.write(data.encode() if isinstance(data, str) else data)
            return read(path, file_format, **kwargs)
    path = os.fspath(filename)
    if not Path(path).exists():
        raise ReadError(f"File {path} not found.")
    name = deduce(path, file_format, for_write=False)
    return Mesh._from_core(_core.read(path, name, _options(kwargs)))


def write(filename, mesh: Mesh, file_format: str | None = None, **kwargs) -> None:
    """Write ``mesh`` atomically (temporary file beside the target, then rename)."""
    if _is_buffer(filename):
        if file_format is None:
            raise WriteError("file_format must be given when writing to a buffer")
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "buffer")
            write(path, mesh, file_format, **kwargs)
            with open(path, "rb") as f:
                data = f.read()
        try:
            filename.write(data)
        except TypeError:
            filename.write(data.decode())
        return
    path = os.fspath(filename)
    name = deduce(path, file_format, for_write=True)
    _core.write(path, name, mesh._core_parts(), _options(kwargs))


def write_points_cells(
    filename,
    points,
    cells,
    point_data=None,
    cell_data=None,
    field_data=None,
    point_sets=None,
    cell_sets=None,
    file_format: str | None = None,
    **kwargs,
):
    mesh = Mesh(points, cells, point_data=point_data, cell_data=cell_data, field_data=field_data,
                point_sets=point_sets, cell_sets=cell_sets)
    write(filename, mesh, file_format=file_format, **kwargs)
