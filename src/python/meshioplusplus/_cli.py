"""The meshioplusplus command line (also ``python -m meshioplusplus``): meshio's verbs and
options (``convert``, ``info``, ``compress``, ``decompress``, ``ascii``, ``binary``, with
meshio's one-letter aliases ``c``, ``i``, ``a``, ``b``) plus ``formats``. The C++ tool
(src/cli/main.cpp) has the same verbs and options; docs/cli.md lists them.

The in-place verbs (compress, decompress, ascii, binary) rewrite the file with the writer
options that mean the same thing in every format (``binary``, ``compression``); a format
whose writer has no such option says so instead of guessing. Writes are atomic, so a
failed rewrite leaves the file as it was. Errors are one line on stderr and exit status 1;
usage errors exit with 2; nothing here calls ``sys.exit`` from library code.
"""
from __future__ import annotations

import argparse
import os
import sys
import threading
import time
import warnings

from ._exceptions import ReadError, WriteError

_VERB_ALIASES = {"c": "convert", "i": "info", "a": "ascii", "b": "binary"}


def _parser() -> argparse.ArgumentParser:
    from . import __version__

    p = argparse.ArgumentParser(prog="meshioplusplus", description="Read, write and convert unstructured meshes (meshio++).")
    p.add_argument("--version", "-v", action="version", version=f"meshioplusplus {__version__}")
    sub = p.add_subparsers(dest="command", required=True, title="subcommands")

    c = sub.add_parser("convert", aliases=["c"], help="convert a mesh file to another format")
    c.add_argument("infile", help="mesh file to be read from")
    c.add_argument("outfile", help="mesh file to be written to")
    c.add_argument("--input-format", "-i", help="input file format (default: from the extension)")
    c.add_argument("--output-format", "-o", help="output file format (default: from the extension)")
    c.add_argument("--ascii", "-a", action="store_true", help="write the ASCII variant where the format has one")
    c.add_argument("--float-format", "-f", help="float format of ASCII output, e.g. .16e")
    c.add_argument("--sets-to-int-data", "-s", action="store_true", help="write point/cell sets as integer data")
    c.add_argument("--int-data-to-sets", "-d", action="store_true", help="turn integer point/cell data into sets")
    c.add_argument("--prune", "-p", action="store_true", help="remove lower-dimensional cells and orphaned points")
    c.add_argument("--prune-z-0", "-z", action="store_true", help="drop the z coordinate when it is 0 everywhere")

    i = sub.add_parser("info", aliases=["i"], help="print a summary of a mesh file")
    i.add_argument("infile", help="mesh file to be read from")
    i.add_argument("--input-format", "-i", help="input file format")

    for verb, helptext in (
        ("compress", "rewrite a mesh file compressed (binary, zlib; --max: lzma where the format has it)"),
        ("decompress", "rewrite a mesh file without compression"),
        ("ascii", "rewrite a mesh file in the ASCII variant of its format"),
        ("binary", "rewrite a mesh file in the binary variant of its format"),
    ):
        aliases = [a for a, v in _VERB_ALIASES.items() if v == verb]
        s = sub.add_parser(verb, aliases=aliases, help=helptext)
        s.add_argument("infile", help="mesh file to rewrite in place")
        s.add_argument("--input-format", "-i", help="input file format")
        if verb == "compress":
            s.add_argument("--max", "-max", action="store_true", help="maximum compression")

    sub.add_parser("formats", help="list the formats this build reads and writes")
    return p


class _Progress:
    """A status line on stderr for a step that takes longer than `delay` seconds, only
    when stderr is a terminal (pipes and logs stay clean)."""

    def __init__(self, what: str, delay: float = 0.5):
        self.what = what
        self.delay = delay
        self.enabled = sys.stderr.isatty()
        self._done = threading.Event()
        self._shown = False

    def _run(self):
        start = time.monotonic()
        if self._done.wait(self.delay):
            return
        while not self._done.wait(0.25):
            self._shown = True
            sys.stderr.write(f"\r{self.what} ... {time.monotonic() - start:.1f} s")
            sys.stderr.flush()

    def __enter__(self):
        if self.enabled:
            self._thread = threading.Thread(target=self._run, daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc):
        if self.enabled:
            self._done.set()
            self._thread.join()
            if self._shown:
                sys.stderr.write(f"\r{self.what} ... done\n")
                sys.stderr.flush()
        return False


def _is_unknown_option(e: Exception) -> bool:
    return "unknown option" in str(e)


def _rewrite(helpers, infile: str, input_format, attempts, verb: str) -> int:
    """Read `infile` and write it back with the first option set its writer accepts."""
    fmt = input_format or next(iter(helpers._filetypes_from_path(os.fspath(infile))), None)
    before = os.stat(infile).st_size
    print(f"File size before: {before / 1024 ** 2:.2f} MB")
    with _Progress(f"reading {infile}"):
        mesh = helpers.read(infile, input_format)
    for options in attempts:
        try:
            with _Progress(f"writing {infile}"):
                helpers.write(infile, mesh, fmt, **options)
            break
        except (ValueError, TypeError) as e:
            if not _is_unknown_option(e):
                raise
    else:
        raise WriteError(f"{verb}: the {fmt} writer has no option for this ({', '.join(sorted({k for a in attempts for k in a}))})")
    after = os.stat(infile).st_size
    print(f"File size after: {after / 1024 ** 2:.2f} MB")
    return 0


def _convert(helpers, args) -> int:
    with _Progress(f"reading {args.infile}"):
        mesh = helpers.read(args.infile, args.input_format)
    if args.prune:
        mesh.remove_lower_dimensional_cells()
        mesh.remove_orphaned_nodes()
    if args.prune_z_0:
        mesh.prune_z_0()
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
    with _Progress(f"writing {args.outfile}"):
        helpers.write(args.outfile, mesh, args.output_format, **kwargs)
    return 0


def _info(helpers, args) -> int:
    import numpy as np

    from ._mesh import _block_node_arrays

    mesh = helpers.read(args.infile, args.input_format)
    print(mesh)
    used = np.zeros(len(mesh.points), dtype=bool)
    for block in mesh.cells:
        for a in _block_node_arrays(block):
            a = np.asarray(a, dtype=np.int64).reshape(-1)
            if a.size and (a.max() >= len(mesh.points) or a.min() < 0):
                warnings.warn("Inconsistent mesh. Cells refer to nonexistent points.", stacklevel=1)
                return 0
            used[a] = True
    if len(mesh.points) and not used.all():
        warnings.warn("Some points are not part of any cell.", stacklevel=1)
    return 0


def main(argv=None) -> int:
    from . import _helpers

    args = _parser().parse_args(argv)
    command = _VERB_ALIASES.get(args.command, args.command)
    try:
        if command == "formats":
            for name, f in _helpers.formats().items():
                flags = ("r" if f["read"] else "-") + ("w" if f["write"] else "-")
                print(f"{name:10s} {flags}: {' '.join(f['extensions'])}")
            return 0
        if command == "convert":
            return _convert(_helpers, args)
        if command == "info":
            return _info(_helpers, args)
        if command == "compress":
            attempts = [{"binary": True, "compression": "lzma" if args.max else "zlib"}, {"binary": True},
                        {"compression": "gzip"}]
            return _rewrite(_helpers, args.infile, args.input_format, attempts, command)
        if command == "decompress":
            return _rewrite(_helpers, args.infile, args.input_format,
                            [{"binary": True, "compression": None}, {"compression": None}], command)
        if command == "ascii":
            return _rewrite(_helpers, args.infile, args.input_format, [{"binary": False}], command)
        if command == "binary":
            return _rewrite(_helpers, args.infile, args.input_format, [{"binary": True}], command)
        raise AssertionError(command)
    except (ReadError, WriteError, ValueError, OSError) as e:
        print(f"meshioplusplus: error: {e}", file=sys.stderr)
        return 1
