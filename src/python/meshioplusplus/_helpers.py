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


def _known() -> str:
    return ", ".join(formats()) or "(none)"


def _deduce(path: str, file_format, for_write: bool) -> str:
    table = formats()
    error = WriteError if for_write else ReadError
    if file_format is not None:
        if file_format not in table:
            raise error(f"unknown file format '{file_format}' (known: {_known()})")
        return file_format
    lower = path.lower()
    hits = sorted(
        ((len(ext), name) for name, f in table.items() for ext in f["extensions"] if lower.endswith(ext.lower())),
        reverse=True,
    )
    for _, name in hits:
        if table[name]["write" if for_write else "read"]:
            return name
    raise error(f"cannot deduce a file format from '{path}'; pass file_format= one of: {_known()}")


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
    name = _deduce(path, file_format, for_write=False)
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
    name = _deduce(path, file_format, for_write=True)
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


class _FormatModule:
    """What ``mio.<format>`` exposes: read and write bound to one format."""

    def __init__(self, name: str):
        self.name = name

    def read(self, filename, **kwargs) -> Mesh:
        return read(filename, self.name, **kwargs)

    def write(self, filename, mesh: Mesh, **kwargs) -> None:
        write(filename, mesh, self.name, **kwargs)
