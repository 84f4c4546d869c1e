"""meshioplusplus.pvd's time series: ParaView's PVD collection with the API of meshio's
XDMF ``TimeSeriesWriter`` / ``TimeSeriesReader`` (meshio/xdmf/time_series.py).

A PVD file (``<VTKFile type="Collection">``) lists one VTK file per time step; VTK files
hold a whole mesh, so the writer writes the mesh again in every step's ``.vtu``, named
``<stem>_<k>.vtu`` beside the ``.pvd``. The small collection file is read and written by the
C++ core (``formats/pvd/pvd.hpp``: ``_core.pvd_datasets`` / ``_core.write_pvd_datasets``);
each step is read by the core's pvd reader (``step=k``: the parts of that time step joined)
and written by the core's vtu writer. docs/formats/pvd.md.
"""
from __future__ import annotations

import os
import pathlib

from . import _core
from ._exceptions import ReadError, WriteError
from ._helpers import read, write
from ._mesh import Mesh

__all__ = ["TimeSeriesReader", "TimeSeriesWriter"]


class TimeSeriesWriter:
    """``with TimeSeriesWriter("run.pvd") as w: w.write_points_cells(points, cells);
    w.write_data(t, point_data=..., cell_data=...)``. Keyword arguments are options of the
    vtu writer (binary, compression, ...). The ``.pvd`` is rewritten (atomically) after
    every step, so it always lists the steps written so far."""

    def __init__(self, filename, **vtu_options) -> None:
        self.filename = pathlib.Path(filename)
        self._vtu_options = vtu_options
        self._points = None
        self._cells = None
        self._datasets: list = []

    def __enter__(self):
        return self

    def __exit__(self, *_):
        _core.write_pvd_datasets(os.fspath(self.filename), self._datasets)

    def write_points_cells(self, points, cells) -> None:
        Mesh(points, cells)  # meshio's checks of the arguments, now rather than at the first step
        self._points, self._cells = points, cells

    def write_data(self, t, point_data=None, cell_data=None) -> None:
        if self._points is None:
            raise WriteError("TimeSeriesWriter: call write_points_cells before write_data")
        name = f"{self.filename.stem}_{len(self._datasets)}.vtu"
        mesh = Mesh(self._points, self._cells, point_data=point_data or {}, cell_data=cell_data or {})
        write(self.filename.parent / name, mesh, "vtu", **self._vtu_options)
        self._datasets.append((float(t), 0, name))
        _core.write_pvd_datasets(os.fspath(self.filename), self._datasets)


class TimeSeriesReader:
    """``num_steps``; ``read_points_cells()`` -> (points, cells) of the first step;
    ``read_data(k)`` -> (t, point_data, cell_data) of step k. A step is a distinct
    ``timestep`` of the collection, in file order; its parts (``part=``) are joined."""

    def __init__(self, filename) -> None:
        self.filename = pathlib.Path(filename)
        if not self.filename.exists():
            raise ReadError(f"File {self.filename} not found.")
        self._times: list = []
        for t, _part, _file in _core.pvd_datasets(os.fspath(self.filename)):
            if t not in self._times:
                self._times.append(t)
        self.num_steps = len(self._times)
        self.cells = None

    def __enter__(self):
        return self

    def __exit__(self, *_):
        pass

    def _step(self, k: int) -> Mesh:
        if not 0 <= k < self.num_steps:
            raise IndexError(f"step {k} out of range: {self.filename} holds {self.num_steps} steps")
        return read(self.filename, "pvd", step=k)

    def read_points_cells(self):
        mesh = self._step(0)
        self.cells = mesh.cells
        return mesh.points, mesh.cells

    def read_data(self, k: int):
        mesh = self._step(k)
        return self._times[k], mesh.point_data, mesh.cell_data
