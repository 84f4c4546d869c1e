"""The meshioplusplus command line (also `python -m meshioplusplus`): convert and info,
with meshio's option names where they overlap."""
from __future__ import annotations

import argparse
import sys

from ._exceptions import ReadError, WriteError


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="meshioplusplus", description="Read, write and convert unstructured meshes (meshio++).")
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("convert", help="convert a mesh file to another format")
    c.add_argument("infile")
    c.add_argument("outfile")
    c.add_argument("--input-format", "-i")
    c.add_argument("--output-format", "-o")
    c.add_argument("--ascii", "-a", action="store_true", help="write ASCII where the format has a choice")
    c.add_argument("--float-format", "-f", help="float format of ASCII output, e.g. .16e")
    c.add_argument("--sets-to-int-data", "-s", action="store_true", help="write point/cell sets as integer data")
    c.add_argument("--int-data-to-sets", "-d", action="store_true", help="turn integer data into sets")
    i = sub.add_parser("info", help="print a summary of a mesh file")
    i.add_argument("infile")
    i.add_argument("--input-format", "-i")
    sub.add_parser("formats", help="list the formats this build reads and writes")
    return p


def main(argv=None) -> int:
    from . import _helpers

    args = _parser().parse_args(argv)
    try:
        if args.command == "formats":
            for name, f in _helpers.formats().items():
                flags = ("r" if f["read"] else "-") + ("w" if f["write"] else "-")
                print(f"{name:10s} {flags}: {' '.join(f['extensions'])}")
            return 0
        mesh = _helpers.read(args.infile, args.input_format)
        if args.command == "info":
            print(mesh)
            return 0
        if args.sets_to_int_data:
            mesh.point_sets_to_data()
            mesh.cell_sets_to_data()
        if args.int_data_to_sets:
            for key in list(mesh.point_data):
                if mesh.point_data[key].dtype.kind in "iu":
                    mesh.point_data_to_sets(key)
            for key in list(mesh.cell_data):
                if all(a.dtype.kind in "iu" for a in mesh.cell_data[key]):
                    mesh.cell_data_to_sets(key)
        kwargs = {}
        if args.ascii:
            kwargs["binary"] = False
        if args.float_format:
            kwargs["float_fmt"] = args.float_format
        _helpers.write(args.outfile, mesh, args.output_format, **kwargs)
        return 0
    except (ReadError, WriteError, ValueError, OSError) as e:
        print(f"meshioplusplus: error: {e}", file=sys.stderr)
        return 1
