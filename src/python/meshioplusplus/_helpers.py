"""read / write / write_points_cells over the C++ format registry (one registry: the
core's; this module only asks it). Paths and file-like objects are accepted, as in meshio.
Keyword arguments are passed to the format as options; a keyword the format does not know
is an error naming it.

meshio's plug-in API sits beside it: ``register_format(name, extensions, reader,
writer_map)`` adds a Python-only reader/writer, ``extension_to_filetypes`` lists every
extension (C++ formats first, plug-ins appended, as meshio appends), and
``deregister_format`` removes either kind."""
from __future__ import annotations

import os
import tempfile

import numpy as np

from . import _core
from ._exceptions import ReadError, WriteError
from ._mesh import Mesh, num_nodes_per_cell



# The core's registry is fixed when _core is built (src/formats/registry.cpp), so it is asked
# once: a read of a small file must not rebuild the format table on every call.
_CORE_FORMATS = tuple((name, tuple(exts), r, w) for name, exts, r, w in _core.formats())
_CORE_NAMES = frozenset(f[0] for f in _CORE_FORMATS)
_WRITE_ALIASES = frozenset(_core.write_format_aliases())


def formats() -> dict:
    """name -> {"extensions": [...], "read": bool, "write": bool} for every registered format."""
    return {name: {"extensions": list(exts), "read": r, "write": w} for name, exts, r, w in _CORE_FORMATS}


def deduce(path: str, file_format, for_write: bool) -> str:
    """The C++ format to use: ``file_format`` when given (checked), else the C++ core's
    choice from the file name (format.cpp deduce_format: longest matching extension, ties in
    registration order, the first that can read or write)."""
    error = WriteError if for_write else ReadError
    if file_format is not None:
        if for_write and file_format in _WRITE_ALIASES:
            return file_format  # meshio's gmsh22 / vtk42 / vtk51: the core maps it
        if file_format not in _CORE_NAMES:
            raise error(f"unknown file format '{file_format}' (known: {', '.join(formats()) or '(none)'})")
        return file_format
    try:
        return _core.deduce_format(path, for_write)
    except ValueError as e:
        raise error(str(e)) from None


# --- meshio's registry API ------------------------------------------------------------
extension_to_filetypes: dict = {}
reader_map: dict = {}  # Python plug-in readers: name -> callable(filename)
_writer_map: dict = {}  # Python plug-in writers: name -> callable(filename, mesh, **kwargs)
_deregistered: set = set()  # C++ formats taken out with deregister_format


def _init_extension_table() -> None:
    for name, f in formats().items():
        for ext in f["extensions"]:
            extension_to_filetypes.setdefault(ext.lower(), []).append(name)


def register_format(format_name: str, extensions, reader, writer_map) -> None:
    """meshio's plug-in hook: ``reader(filename) -> Mesh`` (or None), ``writer_map`` maps
    format names to ``writer(filename, mesh, **kwargs)``. A plug-in named like a C++ format
    takes its place; otherwise the C++ formats keep priority for shared extensions."""
    for ext in extensions:
        extension_to_filetypes.setdefault(ext.lower(), [])
        if format_name not in extension_to_filetypes[ext.lower()]:
            extension_to_filetypes[ext.lower()].append(format_name)
    if reader is not None:
        reader_map[format_name] = reader
    _writer_map.update(writer_map)
    _deregistered.discard(format_name)


def deregister_format(format_name: str) -> None:
    for names in extension_to_filetypes.values():
        if format_name in names:
            names.remove(format_name)
    reader_map.pop(format_name, None)
    _writer_map.pop(format_name, None)
    if format_name in _CORE_NAMES:
        _deregistered.add(format_name)


def _filetypes_from_path(path: str) -> list:
    """Formats for a path's suffixes, longest suffix first (".vtu.gz" before ".gz")."""
    name = os.path.basename(path).lower()
    parts = name.split(".")[1:]
    out = []
    for i in range(len(parts)):
        ext = "." + ".".join(parts[i:])
        for fmt in extension_to_filetypes.get(ext, []):
            if fmt not in out:
                out.append(fmt)
    return out


def _plugin_for(path, file_format, table: dict):
    """The Python plug-in to use, or None for the C++ core. Raises for a deregistered
    C++ format."""
    if file_format is not None:
        if file_format in table:
            return table[file_format]
        return None
    candidates = _filetypes_from_path(path) if path is not None else []
    if candidates and candidates[0] in table:
        return table[candidates[0]]
    return None


def _check_registered(file_format, error):
    if file_format is not None and file_format in _deregistered:
        raise error(f"Unknown file format '{file_format}' (deregistered)")


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
    """Read a mesh file; the format comes from the extension unless ``file_format`` names it.

    ``ragged=True`` keeps variable-size cells (polygons, polyhedra) as one ragged block
    per run of one type instead of meshio's rectangular ``polygon`` blocks per node count
    and ``polyhedron<n>`` blocks.

    ``comm=`` (an mpi4py communicator): a collective read of a partitioned mesh (.pvtu,
    Gmsh ``-part_split`` files) giving this rank's part (docs/parallel.md)."""
    comm = kwargs.pop("comm", None)
    if comm is not None:
        from . import _parallel

        return _parallel.read(filename, comm, file_format, _options(kwargs))
    _check_registered(file_format, ReadError)
    # The common case (a path, no plug-in registered, no deregistered format) costs one
    # stat, one format lookup and the core's read: small files are read by the thousand.
    if isinstance(filename, str):
        path = filename
    elif _is_buffer(filename):
        return _read_buffer(filename, file_format, kwargs)
    else:
        path = os.fspath(filename)
    if not os.path.exists(path):
        raise ReadError(f"File {path} not found.")
    if reader_map:
        plugin = _plugin_for(path, file_format, reader_map)
        if plugin is not None:
            return plugin(path, **kwargs)
    name = deduce(path, file_format, for_write=False)
    if _deregistered:
        _check_registered(name, ReadError)
    # What the reader skipped (cells of unknown types, keywords that are not mesh) is raised
    # by _core.read as UserWarning, as meshio warns.
    mesh = Mesh._from_core(_core.read(path, name, _options(kwargs) if kwargs else {}), regions_canonical=True)
    if not kwargs.get("ragged", False):
        _name_polyhedra(mesh)
    return mesh


def _read_buffer(buffer, file_format, kwargs) -> Mesh:
    """read() of a file-like object: a plug-in named by file_format gets the buffer itself;
    the core reads its bytes from a temporary file."""
    plugin = _plugin_for(None, file_format, reader_map)
    if plugin is not None:
        return plugin(buffer, **kwargs)
    if file_format is None:
        raise ReadError("file_format must be given when reading from a buffer")
    data = buffer.read()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "buffer")
        with open(path, "wb") as f:
            f.write(data.encode() if isinstance(data, str) else data)
        return read(path, file_format, **kwargs)


def _name_polyhedra(mesh: Mesh) -> None:
    """meshio's ``polyhedron<n>`` names (n distinct nodes per cell) for the polyhedron runs
    the core split by that count."""
    for block in mesh.cells:
        if block.type == "polyhedron" and len(block.data):
            faces = [np.asarray(f).reshape(-1) for f in block.data[0]]
            n = len(np.unique(np.concatenate(faces))) if faces else 0
            block.type = f"polyhedron{n}"


def write(filename, mesh: Mesh, file_format: str | None = None, **kwargs) -> None:
    """Write ``mesh`` atomically (temporary file beside the target, then rename).

    ``pieces=[m0, m1, ...]`` (collections: pvtu, pvtp) writes one piece file per mesh and
    the collection file naming them; ``mesh`` is then None or the whole mesh the pieces
    partition (its cell count must be the pieces' total): it is not written itself.

    ``comm=`` (an mpi4py communicator): a collective write, ``mesh`` being this rank's
    part, as one .vtu piece per rank and the .pvtu (docs/parallel.md).

    ``sync=False`` (every format): return without flushing the file and its folder to the
    device; still atomic, but a power cut soon after may lose the write (docs/robustness.md)."""
    comm = kwargs.pop("comm", None)
    if comm is not None:
        from . import _parallel

        return _parallel.write(filename, mesh, comm, file_format, _options(kwargs))
    _check_registered(file_format, WriteError)
    if "pieces" in kwargs:
        return _write_pieces(filename, mesh, file_format, kwargs.pop("pieces"), kwargs)
    plugin = _plugin_for(None if _is_buffer(filename) else os.fspath(filename), file_format, _writer_map)
    if plugin is not None:
        return plugin(filename if _is_buffer(filename) else os.fspath(filename), mesh, **kwargs)
    for block in mesh.cells:  # meshio's sanity check, before any byte is written
        n = num_nodes_per_cell.get(block.type)
        data = block.data
        if n and isinstance(data, np.ndarray) and (data.ndim != 2 or data.shape[1] != n):
            raise WriteError(
                f"Unexpected cells array shape {data.shape} for {block.type} cells. Expected shape [:, {n}]."
            )
    if _is_buffer(filename):
        if file_format is None:
            raise WriteError("file_format must be given when writing to a buffer")
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "buffer")
            kwargs.setdefault("sync", False)  # a scratch file: nothing to make durable
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
    _check_registered(name, WriteError)
    _core.write(path, name, mesh._core_parts(), _options(kwargs))


def _write_pieces(filename, mesh, file_format, pieces, kwargs) -> None:
    """write(..., pieces=[...]): the meshes go to the core as a list (_core.write_pieces);
    every other keyword is an option of the piece writer, as for write()."""
    if _is_buffer(filename):
        raise WriteError("pieces= writes several files: give a path, not a buffer")
    pieces = list(pieces)
    if not pieces or not all(isinstance(p, Mesh) for p in pieces):
        raise ValueError("pieces must be a non-empty list of meshioplusplus.Mesh")
    total = sum(sum(len(b) for b in p.cells) for p in pieces)
    if mesh is not None and sum(len(b) for b in mesh.cells) != total:
        raise ValueError(
            f"pieces hold {total} cells but mesh holds {sum(len(b) for b in mesh.cells)}: "
            "give mesh=None, or the whole mesh the pieces partition"
        )
    path = os.fspath(filename)
    name = deduce(path, file_format, for_write=True)
    _check_registered(name, WriteError)
    _core.write_pieces(path, name, [p._core_parts() for p in pieces], _options(kwargs))


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


_init_extension_table()
