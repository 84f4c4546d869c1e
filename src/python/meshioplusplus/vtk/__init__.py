"""`mio.vtk.read(path)` / `mio.vtk.write(path, mesh, **options)`: the vtk format (C++: src/formats/vtk/)."""
from .._helpers import _FormatModule

read = _FormatModule("vtk").read
write = _FormatModule("vtk").write
