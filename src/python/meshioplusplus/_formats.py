"""One submodule per registered format, made from the C++ registry at import time.

``mio.gmsh.read(path)``, ``mio.vtu.write(path, mesh, **options)``, ``import
meshioplusplus.vtu`` and ``from meshioplusplus import gmsh`` work for every format the core
registers (src/formats/registry.cpp), with nothing written per format in Python: a new
format folder and its registration line are all it takes. A format name that is not a
Python identifier is reachable under its identifier form ("-" and other characters
become "_").
"""
from __future__ import annotations

import importlib
import re
import sys
import types

from . import _core
from ._helpers import read, write


# meshio's submodule names where they are not the format's: meshio.dolfin reads and writes
# "dolfin-xml". The format's own identifier form (dolfin_xml) exists as well.
MESHIO_MODULE_NAMES = {"dolfin-xml": "dolfin"}


def module_name(format_name: str) -> str:
    """The attribute (and submodule) name of a format."""
    name = re.sub(r"\W", "_", format_name)
    return "_" + name if name[:1].isdigit() else name


# What meshio (or the format) has beyond read/write: a private module in this package whose
# __all__ names join the format's submodule (meshioplusplus.xdmf.TimeSeriesWriter,
# meshioplusplus.pvd.TimeSeriesWriter).
EXTRAS = {"xdmf": "._xdmf", "pvd": "._pvd"}


def _format_module(package: str, format_name: str, extensions) -> types.ModuleType:
    mod = types.ModuleType(
        f"{package}.{module_name(format_name)}",
        f"The {format_name} format ({', '.join(extensions) or 'no extension'}): read(path, **options) and "
        f"write(path, mesh, **options), bound to it.",
    )

    def read_format(filename, **kwargs):
        return read(filename, format_name, **kwargs)

    def write_format(filename, mesh, **kwargs):
        write(filename, mesh, format_name, **kwargs)

    read_format.__name__, write_format.__name__ = "read", "write"
    read_format.__qualname__, write_format.__qualname__ = "read", "write"
    read_format.__doc__ = f"Read a {format_name} file (keyword arguments are the format's options)."
    write_format.__doc__ = f"Write a mesh as {format_name}, atomically (keyword arguments are the format's options)."
    mod.read, mod.write = read_format, write_format
    mod.FORMAT = format_name
    mod.__all__ = ["read", "write"]
    if format_name in EXTRAS:
        extra = importlib.import_module(EXTRAS[format_name], __package__)
        for name in extra.__all__:
            setattr(mod, name, getattr(extra, name))
        mod.__all__ += list(extra.__all__)
    return mod


def install(package: types.ModuleType) -> list:
    """Make and register a submodule per registered format; returns their names."""
    names = []
    for format_name, extensions, _, _ in _core.formats():
        attr = module_name(format_name)
        existing = getattr(package, attr, None)
        if existing is not None and getattr(existing, "FORMAT", None) != format_name:
            raise ImportError(f"format '{format_name}': meshioplusplus.{attr} already names something else")
        mod = _format_module(package.__name__, format_name, extensions)
        setattr(package, attr, mod)
        sys.modules[mod.__name__] = mod
        names.append(attr)
        alias = MESHIO_MODULE_NAMES.get(format_name)
        if alias and getattr(package, alias, None) is None:
            setattr(package, alias, mod)
            sys.modules[f"{package.__name__}.{alias}"] = mod
            names.append(alias)
    return names
