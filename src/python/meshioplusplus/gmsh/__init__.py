"""`mio.gmsh.read(path)` / `mio.gmsh.write(path, mesh, **options)`: the gmsh format (C++: src/formats/gmsh/)."""
from .._helpers import _FormatModule

read = _FormatModule("gmsh").read
write = _FormatModule("gmsh").write
