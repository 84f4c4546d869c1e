"""`mio.vtu.read(path)` / `mio.vtu.write(path, mesh, **options)`: the vtu format (C++: src/formats/vtu/)."""
from .._helpers import _FormatModule

read = _FormatModule("vtu").read
write = _FormatModule("vtu").write
