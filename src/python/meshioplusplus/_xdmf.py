"""meshio's XDMF time series API (``meshio.xdmf.TimeSeriesWriter`` / ``TimeSeriesReader``)
over the C++ core (src/formats/xdmf/xdmf_time_series.hpp, bound as
``_core.XdmfTimeSeriesWriter`` / ``_core.XdmfTimeSeriesReader``).

One difference from meshio, on purpose: the heavy data file ``<stem>.h5`` is written beside
the ``.xdmf`` file, not in the working directory, so the pair always reads back. The files
appear when the writer's ``with`` block ends (atomically, like every write); an existing
file is untouched until then.
"""
from __future__ import annotations

import os

import numpy as np

from . import _core
from ._exceptions import ReadError, WriteError
from ._helpers import _options
from ._mesh import Mesh

__all__ = ["TimeSeriesWriter", "TimeSeriesReader"]


def _data_parts(points, cells, point_data, cell_data) -> dict:
    """The parts dict of one step's data (checked against the mesh like a Mesh's data)."""
    cell_data = dict(cell_data or {})
    for name, entry in cell_data.items():  # meshio's old layout: {name: {cell_type: array}}
        if isinstance(entry, dict):
            cell_data[name] = list(entry.values())
    return Mesh(points, cells, point_data=dict(point_data or {}), cell_data=cell_data)._core_parts()


class TimeSeriesWriter:
    """``with TimeSeriesWriter("out.xdmf") as w: w.write_points_cells(points, cells);
    w.write_data(t, point_data={...}, cell_data={...})``."""

    def __init__(self, filename, data_format: str = "HDF", **kwargs) -> None:
        if data_format not in ("XML", "Binary", "HDF"):
            raise WriteError(f"Unknown XDMF data format '{data_format}' (use 'XML', 'Binary', or 'HDF'.)")
        self.filename = os.fspath(filename)
        self.data_format = data_format
        self._options = _options({"data_format": data_format, **kwargs})
        self._core = None
        self._mesh = None

    def __enter__(self):
        try:
            self._core = _core.XdmfTimeSeriesWriter(self.filename, self._options)
        except ValueError as e:
            raise WriteError(str(e)) from e
        return self

    def __exit__(self, *_):
        # As meshio, the file is written however the block ends.
        if self._core is not None:
            self._core.close()
            self._core = None

    def write_points_cells(self, points, cells) -> None:
        if self._core is None:
            raise WriteError("TimeSeriesWriter is used as a context manager: with TimeSeriesWriter(...) as writer")
        mesh = Mesh(np.asarray(points), cells)
        self._core.write_points_cells(mesh._core_parts())
        self._mesh = mesh

    def write_data(self, t, point_data=None, cell_data=None) -> None:
        if self._core is None:
            raise WriteError("TimeSeriesWriter is used as a context manager: with TimeSeriesWriter(...) as writer")
        if self._mesh is None:
            raise WriteError("write_points_cells() must come before write_data()")
        self._core.write_data(float(t), _data_parts(self._mesh.points, self._mesh.cells, point_data, cell_data))


class TimeSeriesReader:
    """``reader = TimeSeriesReader("out.xdmf"); points, cells = reader.read_points_cells();
    t, point_data, cell_data = reader.read_data(k)`` for k in ``range(reader.num_steps)``."""

    def __init__(self, filename) -> None:
        self.filename = os.fspath(filename)
        self._core = _core.XdmfTimeSeriesReader(self.filename)
        self.num_steps = self._core.num_steps

    def __enter__(self):
        return self

    def __exit__(self, *_):
        pass

    def read_points_cells(self):
        mesh = Mesh._from_core(self._core.read_points_cells())
        return mesh.points, mesh.cells

    def read_data(self, k: int):
        if not 0 <= k < self.num_steps:
            raise IndexError(f"step {k} of a time series of {self.num_steps} steps")
        return self._core.read_data(k)
