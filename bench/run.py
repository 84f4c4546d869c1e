"""meshio++ against meshio, VTK 9.1 and gmsh: read and write speed, floors, peak memory, targets
(make bench).

Inputs are made by the real gmsh from the committed .geo files in bench/geo/ (a bracket of
~50k nodes / ~280k cells, a cube of ~1M tetrahedra, and the bracket's skin alone meshed
finely with ~1.3M triangles for the surface formats), then converted by meshio (the peer) into the other
formats, so every library reads the same files; VTK itself makes the appended-raw VTU, the VTP
(vtkGeometryFilter of the skin) and the structured grids (VTS / VTR / VTI, the `grid` mesh:
66^3 hexahedra made with numpy + VTK). In one process, after a warm-up, each case is timed
interleaved (meshio, meshio++, VTK, gmsh, floor, meshio, meshio++, ...) and reported as
medians, the ratios peer time / meshio++ time, and the floors: copying the file's bytes into
fresh memory (reads), writing the same bytes with one write call (writes). Peak memory of
each read is measured in a fresh process per library. Then every speed target of issue 19 and
of the format issues is checked (PASS / MISS) in a targets table.

Usage: .venv/bin/python bench/run.py [--quick] [--only bracket|cube|skin|grid] [--reps N]
                                     [--case LABEL] [--budget SECONDS] [--no-sync]
A full run writes bench/results/<date>-<host>-<cores>cpu.{md,json,png} and regenerates the
README's table (bench/readme_table.py); a partial run (--quick, --only, --case) writes the
same names with a suffix (-quick, -only-cube, -case-medit) and never touches the full run's.
Method: docs/benchmarks.md.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
WORK = HERE / "work"
RESULTS = HERE / "results"
sys.path.insert(0, str(HERE))

# --- inputs ---------------------------------------------------------------------------
def gmsh_mesh(name: str, fmt: str, binary: bool) -> Path:
    """The .geo meshed by the gmsh program once, then saved in each requested MSH flavour."""
    out = WORK / f"{name}-{fmt}{'-bin' if binary else ''}.msh"
    if not out.exists():
        base = WORK / f"{name}-base.msh"
        if not base.exists():
            WORK.mkdir(parents=True, exist_ok=True)
            subprocess.run(["gmsh", "-2" if name in SURFACES else "-3", "-nt", str(os.cpu_count() or 2), str(HERE / "geo" / f"{name}.geo"),
                            "-o", str(base), "-format", "msh41"], check=True, stdout=subprocess.DEVNULL)
        args = ["gmsh", str(base), "-save", "-o", str(out), "-format", fmt] + (["-bin"] if binary else [])
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    return out


def peer_file(name: str, suffix: str, writer) -> Path:
    """A file written by meshio (the peer) from the gmsh mesh, for the formats gmsh lacks."""
    out = WORK / f"{name}-{suffix}"
    if not out.exists():
        import meshio

        writer(meshio, meshio.read(gmsh_mesh(name, "msh41", True)), out)
    return out


def appended_raw_vtu(name: str) -> Path:
    """Appended raw VTU, as VTK's own writer makes it (meshio cannot write this encoding)."""
    out = WORK / f"{name}-appended-raw.vtu"
    if not out.exists():
        from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridReader, vtkXMLUnstructuredGridWriter

        src = peer_file(name, "binary.vtu", lambda m, mesh, p: m.vtu.write(p, mesh, binary=True, compression=None))
        r = vtkXMLUnstructuredGridReader()
        r.SetFileName(str(src))
        r.Update()
        w = vtkXMLUnstructuredGridWriter()
        w.SetInputData(r.GetOutput())
        w.SetDataModeToAppended()
        w.EncodeAppendedDataOff()
        w.SetHeaderTypeToUInt64()
        w.SetCompressorTypeToNone()
        w.SetFileName(str(out))
        w.Write()
    return out


SURFACES = ("skin",)  # meshed with triangles only (gmsh -2), for the surface formats


def triangles_only(meshio, mesh):
    """The mesh's triangle blocks as one block, no cell data (what STL, OFF, PLY and OBJ hold
    and meshio's writers keep)."""
    import numpy

    tri = numpy.concatenate([b.data for b in mesh.cells if b.type == "triangle"])
    return meshio.Mesh(mesh.points, [("triangle", tri)])


def read_cases(name: str, only: str = ""):
    """(label, path, file_format, meshio++ read kwargs) of every read case both libraries
    support (those whose label contains `only`); an input file is made only for a case that
    runs."""
    if name in SURFACES:
        def surface(suffix, write):
            return lambda: peer_file(name, suffix, lambda m, mesh, p: write(m, triangles_only(m, mesh), p))

        cases = [
            ("stl binary", surface("binary.stl", lambda m, mesh, p: m.stl.write(p, mesh, binary=True)), "stl"),
            # meshio always merges; this row is for read / copy (every corner its own point)
            ("stl binary, ours merge=False", surface("binary.stl", lambda m, mesh, p: m.stl.write(p, mesh, binary=True)),
             "stl", {"merge": False}),
            ("stl ascii", surface("ascii.stl", lambda m, mesh, p: m.stl.write(p, mesh, binary=False)), "stl"),
            ("off", surface("mesh.off", lambda m, mesh, p: m.off.write(p, mesh)), "off"),
            ("ply binary", surface("binary.ply", lambda m, mesh, p: m.ply.write(p, mesh, binary=True)), "ply"),
            ("ply ascii", surface("ascii.ply", lambda m, mesh, p: m.ply.write(p, mesh, binary=False)), "ply"),
            ("obj", surface("mesh.obj", lambda m, mesh, p: m.obj.write(p, mesh)), "obj"),
            ("neuroglancer", surface("neuroglancer", lambda m, mesh, p: m.neuroglancer.write(p, mesh)), "neuroglancer"),
            ("wkt", surface("mesh.wkt", lambda m, mesh, p: m.wkt.write(p, mesh)), "wkt"),
        ]
    else:
        cases = [
            ("gmsh 4.1 ascii", lambda: gmsh_mesh(name, "msh41", False), "gmsh"),
            ("gmsh 4.1 binary", lambda: gmsh_mesh(name, "msh41", True), "gmsh"),
            ("gmsh 2.2 ascii", lambda: gmsh_mesh(name, "msh22", False), "gmsh"),
            ("gmsh 2.2 binary", lambda: gmsh_mesh(name, "msh22", True), "gmsh"),
            ("vtu ascii", lambda: peer_file(name, "ascii.vtu", lambda m, mesh, p: m.vtu.write(p, mesh, binary=False)), "vtu"),
            ("vtu binary", lambda: peer_file(name, "binary.vtu", lambda m, mesh, p: m.vtu.write(p, mesh, binary=True, compression=None)), "vtu"),
            ("vtu binary zlib", lambda: peer_file(name, "zlib.vtu", lambda m, mesh, p: m.vtu.write(p, mesh, binary=True, compression="zlib")), "vtu"),
            ("vtu appended raw", lambda: appended_raw_vtu(name), "vtu"),
            ("vtk ascii", lambda: peer_file(name, "ascii.vtk", lambda m, mesh, p: m.vtk.write(p, mesh, binary=False)), "vtk"),
            ("vtk binary", lambda: peer_file(name, "binary.vtk", lambda m, mesh, p: m.vtk.write(p, mesh, binary=True)), "vtk"),
            ("medit ascii", lambda: peer_file(name, "ascii.mesh", lambda m, mesh, p: m.write(p, without_point_data(m, mesh), "medit")), "medit"),
            ("medit binary", lambda: peer_file(name, "binary.meshb", lambda m, mesh, p: m.write(p, without_point_data(m, mesh), "medit")), "medit"),
            ("su2", lambda: gmsh_export(name, "su2"), "su2"),
            ("abaqus", lambda: peer_file(name, "abaqus.inp", lambda m, mesh, p: m.abaqus.write(p, abaqus_subset(m, mesh))), "abaqus"),
            # meshio's defaults: GRID* large-field points, small-field elements
            ("nastran", lambda: peer_file(name, "meshio.bdf", lambda m, mesh, p: m.nastran.write(p, mesh)), "nastran"),
            ("exodus netcdf4", lambda: peer_file(name, "meshio.e", lambda m, mesh, p: m.exodus.write(p, mesh)), "exodus"),
            ("med", lambda: peer_file(name, "meshio.med", lambda m, mesh, p: m.med.write(p, med_blocks(m, mesh))), "med"),
            # meshio's CGNS writer and reader know tetrahedra only (Base/Zone1/GridElements); uncompressed
            ("cgns (tetrahedra only)", lambda: peer_file(name, "meshio.cgns", lambda m, mesh, p: m.cgns.write(
                p, volume_only(m, mesh), compression=None, compression_opts=None)), "cgns"),
            ("dolfin-xml (tetrahedra only)", lambda: peer_file(name, "dolfin.xml", lambda m, mesh, p: m.write(p, volume_only(m, mesh), "dolfin-xml")),
             "dolfin-xml"),
            ("netgen", lambda: peer_file(name, "meshio.vol", lambda m, mesh, p: m.netgen.write(p, mesh)), "netgen"),
            ("netgen .vol.gz", lambda: peer_file(name, "meshio.vol.gz", lambda m, mesh, p: m.netgen.write(p, mesh)), "netgen"),
            ("mdpa", lambda: peer_file(name, "meshio.mdpa", lambda m, mesh, p: m.mdpa.write(p, mesh)), "mdpa"),
            ("permas", lambda: peer_file(name, "meshio.dato", lambda m, mesh, p: m.permas.write(p, mesh)), "permas"),
            ("flac3d ascii", lambda: peer_file(name, "ascii.f3grid", lambda m, mesh, p: m.flac3d.write(p, volume_only(m, mesh))), "flac3d"),
            ("flac3d binary", lambda: peer_file(name, "binary.f3grid", lambda m, mesh, p: m.flac3d.write(p, volume_only(m, mesh), binary=True)), "flac3d"),
            ("ugrid b8", lambda: peer_file(name, "meshio.b8.ugrid", lambda m, mesh, p: m.write(p, ugrid_cells(m, mesh), "ugrid")), "ugrid"),
            ("ugrid lb8", lambda: peer_file(name, "meshio.lb8.ugrid", lambda m, mesh, p: m.write(p, ugrid_cells(m, mesh), "ugrid")), "ugrid"),
            ("ugrid r8", lambda: peer_file(name, "meshio.r8.ugrid", lambda m, mesh, p: m.write(p, ugrid_cells(m, mesh), "ugrid")), "ugrid"),
            # meshio's writer: the tetrahedra alone (.node + .ele beside it)
            ("tetgen", lambda: peer_file(name, "meshio.node", lambda m, mesh, p: m.write(p, volume_only(m, mesh), "tetgen")), "tetgen"),
            # meshio's layout (cells list their nodes), tetrahedra only (its writer has no line / vertex)
            ("ansys binary", lambda: peer_file(name, "meshio-bin.msh", lambda m, mesh, p: m.ansys.write(p, volume_only(m, mesh), binary=True)), "ansys"),
            ("ansys ascii", lambda: peer_file(name, "meshio-ascii.msh", lambda m, mesh, p: m.ansys.write(p, volume_only(m, mesh), binary=False)), "ansys"),
            # Fluent's layout (faces with their cells; written by meshio++): ours rebuilds the
            # tetrahedra, meshio returns the faces
            ("ansys ascii faces", lambda: fluent_faces(name), "ansys"),
            ("xdmf hdf", lambda: peer_file(name, "meshio.xdmf", lambda m, mesh, p: m.xdmf.write(p, mesh)), "xdmf"),
            ("xdmf xml", lambda: peer_file(name, "meshio-xml.xdmf", lambda m, mesh, p: m.xdmf.write(p, mesh, data_format="XML")), "xdmf"),
            ("h5m", lambda: peer_file(name, "meshio.h5m", lambda m, mesh, p: m.h5m.write(p, h5m_cells(m, mesh))), "h5m"),
            # without cell data: meshio's HMF reader reads none (not even its own)
            ("hmf", lambda: peer_file(name, "meshio.hmf", lambda m, mesh, p: m.hmf.write(p, m.Mesh(mesh.points, mesh.cells, point_data=mesh.point_data))), "hmf"),
            ("tecplot (tetrahedra only)", lambda: peer_file(name, "meshio.dat", lambda m, mesh, p: m.tecplot.write(p, volume_only(m, mesh))), "tecplot"),
            # meshio's AVS-UCD reader fails on more than one cell type (CellBlock indexing)
            ("avsucd (tetrahedra only)", lambda: peer_file(name, "meshio-tets.avs", lambda m, mesh, p: m.avsucd.write(p, volume_only(m, mesh))),
             "avsucd"),
        ]
    return [(c[0], c[1](), c[2], c[3] if len(c) > 3 else {}) for c in cases if only in c[0]]


def fluent_faces(name: str) -> Path:
    """The tetrahedra in Fluent's own layout, ASCII (meshio reads that as faces); meshio
    cannot write it, so meshio++ does (faces=True)."""
    out = WORK / f"{name}-fluent-faces.msh"
    if not out.exists():
        import meshio

        import meshioplusplus as mio

        mesh = volume_only(meshio, meshio.read(gmsh_mesh(name, "msh41", True)))
        mio.write(out, mio.Mesh(mesh.points, [(c.type, c.data) for c in mesh.cells]), "ansys", faces=True, binary=False)
    return out
def pvtu_pieces(name: str, n: int):
    """The gmsh mesh written by meshio++ as one .vtu and as an n-piece .pvtu (every block's
    rows cut into n ranges, each piece with only its points): (one .vtu, .pvtu)."""
    import numpy as np

    import meshioplusplus as mio

    one, coll = WORK / f"{name}-ours-one.vtu", WORK / f"{name}-{n}pieces.pvtu"
    if not coll.exists():
        mesh = mio.read(gmsh_mesh(name, "msh41", True))
        mio.write(one, mesh)
        pieces = []
        for k in range(n):
            rows = [np.asarray(b.data)[len(b) * k // n : len(b) * (k + 1) // n] for b in mesh.cells]
            used = np.unique(np.concatenate([r.ravel() for r in rows]))
            cells = [(b.type, np.searchsorted(used, r)) for b, r in zip(mesh.cells, rows)]
            cell_data = {key: [np.asarray(a)[len(b) * k // n : len(b) * (k + 1) // n] for a, b in zip(v, mesh.cells)]
                         for key, v in mesh.cell_data.items()}
            pieces.append(mio.Mesh(mesh.points[used], cells, point_data={key: v[used] for key, v in mesh.point_data.items()},
                                   cell_data=cell_data))
        mio.write(coll, None, pieces=pieces)
    return one, coll


def gmsh_export(name: str, fmt: str) -> Path:
    """The gmsh mesh saved by the gmsh program in another of its formats (named by `fmt`)."""
    out = WORK / f"{name}.{fmt}"
    if not out.exists():
        subprocess.run(["gmsh", str(gmsh_mesh(name, "msh41", True)), "-save", "-o", str(out), "-format", fmt],
                       check=True, stdout=subprocess.DEVNULL)
    return out


def volume_only(lib, mesh):
    """The tetrahedra alone: meshio 5's SU2 writer crashes on any boundary cell."""
    return lib.Mesh(mesh.points, [b for b in mesh.cells if b.type == "tetra"])


def without_point_data(lib, mesh):
    """The mesh without point data: meshio's Medit writer takes the first integer point data
    as the vertex references and crashes on gmsh:dim_tags (two columns)."""
    return lib.Mesh(mesh.points, mesh.cells, cell_data=mesh.cell_data)


def h5m_cells(lib, mesh):
    """The lines, triangles and tetrahedra (meshio's H5M writer skips other types), one block
    per type (it fails on a second group of a name), with point data and no cell data (it
    crashes on any: it calls .items() on each name's list of arrays)."""
    import numpy

    types = [t for t in ("line", "triangle", "tetra") if any(b.type == t for b in mesh.cells)]
    return lib.Mesh(mesh.points, [(t, numpy.concatenate([numpy.asarray(b.data) for b in mesh.cells if b.type == t])) for t in types],
                    point_data=mesh.point_data)


def ugrid_cells(lib, mesh):
    """The cells UGRID holds, one block per type, without data: meshio's UGRID writer fails
    on any cell data and on a second block of a type."""
    import numpy

    types = [t for t in ("triangle", "quad", "tetra", "pyramid", "wedge", "hexahedron") if any(b.type == t for b in mesh.cells)]
    return lib.Mesh(mesh.points, [(t, numpy.concatenate([numpy.asarray(b.data) for b in mesh.cells if b.type == t])) for t in types])


def abaqus_subset(lib, mesh):
    """The cell blocks meshio's Abaqus writer can name (it has no vertex element)."""
    return lib.Mesh(mesh.points, [(c.type, c.data) for c in mesh.cells if c.type in ("line", "triangle", "tetra")])


def med_blocks(lib, mesh):
    """One block per cell type, cell data following (MED holds one block per type; meshio's
    MED writer fails on a second block of a type)."""
    import numpy

    types = list(dict.fromkeys(b.type for b in mesh.cells))
    cells = [(t, numpy.concatenate([numpy.asarray(b.data) for b in mesh.cells if b.type == t])) for t in types]
    cell_data = {k: [numpy.concatenate([numpy.asarray(v[i]) for i, b in enumerate(mesh.cells) if b.type == t]) for t in types]
                 for k, v in mesh.cell_data.items()}
    return lib.Mesh(mesh.points, cells, point_data=dict(mesh.point_data), cell_data=cell_data)


# Peer-side fixes a format needs before both libraries write the same mesh.
WRITE_MESH = {"medit": without_point_data, "su2": volume_only, "abaqus": abaqus_subset, "dolfin-xml": volume_only}
WRITE_MESH["flac3d"] = volume_only  # meshio's FLAC3D writer fails on any face, line or vertex
WRITE_MESH["ugrid"] = ugrid_cells  # meshio's UGRID writer: one block per type, no cell data
WRITE_MESH["med"] = med_blocks  # meshio's MED writer: one block per type
WRITE_MESH["cgns"] = volume_only  # meshio's CGNS writer holds tetrahedra only
WRITE_MESH["tetgen"] = volume_only  # meshio's TetGen writer indexes cell data past a block's end otherwise
WRITE_MESH["h5m"] = h5m_cells
WRITE_MESH["svg"] = lambda lib, m: lib.Mesh(m.points[:, :2], [(c.type, c.data) for c in m.cells])  # SVG draws flat meshes: x, y only


# (label, suffix, format, meshio kwargs (None: meshio cannot), meshio++ kwargs); meshio names its
# 2.2 writer "gmsh22"
WRITE_CASES = [
    ("gmsh 4.1 ascii", ".msh", "gmsh", {"binary": False}, {"binary": False}),
    ("gmsh 4.1 binary", ".msh", "gmsh", {"binary": True}, {"binary": True}),
    ("gmsh 2.2 ascii", ".msh", "gmsh22", {"binary": False}, {"fmt_version": "2.2", "binary": False}),
    ("gmsh 2.2 binary", ".msh", "gmsh22", {"binary": True}, {"fmt_version": "2.2", "binary": True}),
    ("vtu ascii", ".vtu", "vtu", {"binary": False}, {"binary": False}),
    ("vtu binary", ".vtu", "vtu", {"binary": True, "compression": None}, {"binary": True, "compression": None}),
    ("vtu binary zlib", ".vtu", "vtu", {"binary": True, "compression": "zlib"}, {"binary": True, "compression": "zlib"}),
    ("vtu appended raw", ".vtu", "vtu", None, {"data_mode": "appended", "compression": None}),  # meshio writes no appended data
    ("vtk ascii", ".vtk", "vtk", {"binary": False}, {"binary": False}),
    ("vtk binary", ".vtk", "vtk", {"binary": True}, {"binary": True}),
    ("medit ascii", ".mesh", "medit", {}, {}),
    ("medit binary", ".meshb", "medit", {}, {}),
    ("su2 (tetrahedra only)", ".su2", "su2", {}, {}),
    ("abaqus", ".inp", "abaqus", {}, {}),
    ("nastran", ".bdf", "nastran", {}, {}),
    ("exodus netcdf4", ".e", "exodus", {}, {}),
    ("med", ".med", "med", {}, {}),
    ("cgns (tetrahedra only)", ".cgns", "cgns", {"compression": None, "compression_opts": None}, {"compression": None}),  # both uncompressed
    ("dolfin-xml (tetrahedra only)", ".xml", "dolfin-xml", {}, {}),
    ("netgen", ".vol", "netgen", {}, {}),
    ("netgen .vol.gz", ".vol.gz", "netgen", {}, {}),
    ("mdpa", ".mdpa", "mdpa", {}, {}),
    ("permas", ".dato", "permas", {}, {}),
    ("flac3d ascii (tetrahedra only)", ".f3grid", "flac3d", {"binary": False}, {"binary": False}),
    ("flac3d binary (tetrahedra only)", ".f3grid", "flac3d", {"binary": True}, {"binary": True}),
    ("tetgen (tetrahedra only)", ".node", "tetgen", {}, {}),
    ("ugrid b8", ".b8.ugrid", "ugrid", {}, {}),
    ("ugrid lb8", ".lb8.ugrid", "ugrid", {}, {}),
    ("ansys binary (tetrahedra only)", ".msh", "ansys", {"binary": True}, {"binary": True}),
    ("ansys ascii (tetrahedra only)", ".msh", "ansys", {"binary": False}, {"binary": False}),
    ("xdmf hdf", ".xdmf", "xdmf", {}, {}),
    ("xdmf xml", ".xdmf", "xdmf", {"data_format": "XML"}, {"data_format": "XML"}),
    ("avsucd", ".avs", "avsucd", {}, {}),
    ("h5m", ".h5m", "h5m", {}, {}),
    ("hmf", ".hmf", "hmf", {}, {}),
    ("tecplot (tetrahedra only)", ".dat", "tecplot", {}, {}),
]


SURFACE_WRITE_CASES = [
    ("stl ascii", ".stl", "stl", {"binary": False}, {"binary": False}),
    ("stl binary", ".stl", "stl", {"binary": True}, {"binary": True}),
    ("off", ".off", "off", {}, {}),
    ("ply binary", ".ply", "ply", {"binary": True}, {"binary": True}),
    ("ply ascii", ".ply", "ply", {"binary": False}, {"binary": False}),
    ("obj", ".obj", "obj", {}, {}),
    ("neuroglancer", "", "neuroglancer", {}, {}),  # no extension, as meshio
    ("wkt", ".wkt", "wkt", {}, {}),
    ("svg (x, y only)", ".svg", "svg", {}, {}),
]


# --- VTK-made inputs ------------------------------------------------------------------
GRIDS = ("grid",)  # structured grids made by numpy + VTK: the VTS / VTR / VTI rows
GRID_CELLS = 66  # cells per axis: 287,496 hexahedra on 300,763 points, about the bracket's cell count
XML_ENCODINGS = ("ascii", "binary", "binary zlib", "appended raw")
# meshio++ write keywords for each encoding (VTK's writer gets the same data mode and compressor)
OURS_XML_KW = {"ascii": {"binary": False}, "binary": {"binary": True, "compression": None},
               "binary zlib": {"binary": True, "compression": "zlib"},
               "appended raw": {"data_mode": "appended", "compression": None}}
VTK_XML = {"vtu": "UnstructuredGrid", "vtp": "PolyData", "vts": "StructuredGrid", "vtr": "RectilinearGrid", "vti": "ImageData"}


def vtkall():
    import vtkmodules.all as v  # every VTK class; imported once

    return v


def vtk_xml_write(kind: str, data, path: Path, encoding: str):
    """VTK's own XML writer for `kind` (vtu, vtp, ...) in one of XML_ENCODINGS, UInt64 headers
    (meshio++'s default), VTK's default compression level."""
    w = getattr(vtkall(), f"vtkXML{VTK_XML[kind]}Writer")()
    w.SetInputData(data)
    w.SetFileName(str(path))
    w.SetHeaderTypeToUInt64()
    if encoding == "ascii":
        w.SetDataModeToAscii()
    elif encoding == "appended raw":
        w.SetDataModeToAppended()
        w.EncodeAppendedDataOff()
    else:
        w.SetDataModeToBinary()
    if encoding.endswith("zlib"):
        w.SetCompressorTypeToZLib()
    else:
        w.SetCompressorTypeToNone()
    if not w.Write():
        raise RuntimeError(f"VTK could not write {path}")


def vtk_read_data(path: Path, fmt: str):
    """The dataset VTK's own reader makes of `path` (a deep copy, detached from the reader)."""
    r = vtk_reader(fmt, path)
    r.Update()
    out = r.GetOutput().NewInstance()
    out.DeepCopy(r.GetOutput())
    return out


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def vtk_surface_vtp(name: str, encoding: str) -> Path:
    """The skin as VTK PolyData: meshio's triangles-only VTU read by VTK, through
    vtkGeometryFilter, written by vtkXMLPolyDataWriter in `encoding`."""
    out = WORK / f"{name}-vtk-{slug(encoding)}.vtp"
    if not out.exists():
        src = peer_file(name, "triangles.vtu", lambda m, mesh, p: m.vtu.write(p, triangles_only(m, mesh), binary=True, compression=None))
        v = vtkall()
        r = v.vtkXMLUnstructuredGridReader()
        r.SetFileName(str(src))
        g = v.vtkGeometryFilter()
        g.SetInputConnection(r.GetOutputPort())
        g.Update()
        vtk_xml_write("vtp", g.GetOutput(), out, encoding)
    return out


def vtk_surface_vtu(name: str, encoding: str) -> Path:
    """The same skin as a VTK unstructured grid (vtkAppendFilter of the PolyData above),
    written by vtkXMLUnstructuredGridWriter in `encoding`: the VTU beside each VTP, so issue
    14's "VTP at VTU's ratios" compares the two formats on one mesh."""
    out = WORK / f"{name}-vtk-{slug(encoding)}.vtu"
    if not out.exists():
        vtk_xml_write("vtu", vtk_surface_grid(name), out, encoding)
    return out


def vtk_surface_grid(name: str):
    v = vtkall()
    f = v.vtkAppendFilter()
    f.SetInputData(vtk_read_data(vtk_surface_vtp(name, "binary"), "vtp"))
    f.Update()
    return f.GetOutput()


def vtk_grid(kind: str):
    """A GRID_CELLS^3 grid made with numpy + VTK: VTI uniform, VTR geometric spacing, VTS the
    VTR's points bent by a sine (so its points are not a product); a float64 point field `u`
    and a float64 cell field `c`."""
    from vtkmodules.util.numpy_support import numpy_to_vtk

    v, n = vtkall(), GRID_CELLS
    x = np.linspace(0.0, 1.0, n + 1) if kind == "vti" else (np.geomspace(1.0, 3.0, n + 1) - 1.0) / 2.0
    X, Y, Z = np.meshgrid(x, x, x, indexing="ij")  # flattened in Fortran order: i fastest, as VTK
    pts = np.stack([X.ravel("F"), Y.ravel("F"), Z.ravel("F")], axis=1)
    if kind == "vti":
        d = v.vtkImageData()
        d.SetSpacing(1.0 / n, 1.0 / n, 1.0 / n)
    elif kind == "vtr":
        d = v.vtkRectilinearGrid()
        d.SetXCoordinates(numpy_to_vtk(x, deep=1))
        d.SetYCoordinates(numpy_to_vtk(x, deep=1))
        d.SetZCoordinates(numpy_to_vtk(x, deep=1))
    else:
        d = v.vtkStructuredGrid()
        pts = pts + 0.02 * np.sin(6.0 * pts[:, [1, 2, 0]])
        p = v.vtkPoints()
        p.SetData(numpy_to_vtk(np.ascontiguousarray(pts), deep=1))
        d.SetPoints(p)
    d.SetDimensions(n + 1, n + 1, n + 1)
    u = numpy_to_vtk(np.sin(3.0 * pts[:, 0]) * np.cos(2.0 * pts[:, 1]) + pts[:, 2], deep=1)
    u.SetName("u")
    d.GetPointData().AddArray(u)
    c = numpy_to_vtk(np.arange(n ** 3, dtype=np.float64) / n ** 3, deep=1)
    c.SetName("c")
    d.GetCellData().AddArray(c)
    return d


def vtk_grid_file(kind: str, encoding: str) -> Path:
    out = WORK / f"grid-{slug(encoding)}.{kind}"
    if not out.exists():
        WORK.mkdir(parents=True, exist_ok=True)
        vtk_xml_write(kind, vtk_grid(kind), out, encoding)
    return out


def peer_read_cases(name: str, only: str = ""):
    """Read cases meshio lacks (VTK's VTP / VTS / VTR / VTI, made by VTK): meshio++ against VTK."""
    cases = []
    if name in SURFACES:
        cases = [(f"vtp {e}", (lambda e=e: vtk_surface_vtp(name, e)), "vtp") for e in XML_ENCODINGS]
        cases += [(f"vtu {e}", (lambda e=e: vtk_surface_vtu(name, e)), "vtu") for e in XML_ENCODINGS]
    elif name in GRIDS:
        cases = [(f"{k} {e}", (lambda k=k, e=e: vtk_grid_file(k, e)), k) for k in ("vts", "vtr", "vti") for e in XML_ENCODINGS[1:]]
    return [(c[0], c[1](), c[2], {}) for c in cases if only in c[0]]


# --- peers: VTK's readers / writers and gmsh's API -----------------------------------
# VTK's reader of each format meshio++ and VTK share (XML kinds from VTK_XML).
VTK_READERS = {"vtk": "vtkUnstructuredGridReader", "stl": "vtkSTLReader", "ply": "vtkPLYReader", "obj": "vtkOBJReader"}


def vtk_reader(fmt: str, path: Path):
    v = vtkall()
    r = getattr(v, f"vtkXML{VTK_XML[fmt]}Reader" if fmt in VTK_XML else VTK_READERS[fmt])()
    r.SetFileName(str(path))
    if fmt == "vtk":  # the legacy reader keeps only the first scalars / vectors / ... unless told
        for attr in ("Scalars", "Vectors", "Normals", "Tensors", "ColorScalars", "TCoords", "Fields"):
            getattr(r, f"ReadAll{attr}On")()
    return r


def vtk_touch(ds) -> int:
    """Every array of a VTK dataset as numpy (vtk_to_numpy: views of the arrays the reader
    filled): points, cells, point / cell / field data. Returns their bytes."""
    from vtkmodules.util.numpy_support import vtk_to_numpy

    arrays = []
    if ds.IsA("vtkPointSet") and ds.GetPoints() is not None:
        arrays.append(ds.GetPoints().GetData())
    if ds.IsA("vtkUnstructuredGrid"):
        arrays += [ds.GetCells().GetConnectivityArray(), ds.GetCells().GetOffsetsArray(), ds.GetCellTypesArray()]
    if ds.IsA("vtkPolyData"):
        for cells in (ds.GetVerts(), ds.GetLines(), ds.GetPolys(), ds.GetStrips()):
            arrays += [cells.GetConnectivityArray(), cells.GetOffsetsArray()]
    if ds.IsA("vtkRectilinearGrid"):
        arrays += [ds.GetXCoordinates(), ds.GetYCoordinates(), ds.GetZCoordinates()]
    for attrs in (ds.GetPointData(), ds.GetCellData(), ds.GetFieldData()):
        arrays += [attrs.GetArray(i) for i in range(attrs.GetNumberOfArrays())]
    return sum(vtk_to_numpy(a).nbytes for a in arrays if a is not None)


def vtk_read_fn(fmt: str, path: Path):
    """VTK's read of `path`: a fresh reader, Update(), then every array touched as numpy."""
    if fmt not in VTK_XML and fmt not in VTK_READERS:
        return None

    def read():
        r = vtk_reader(fmt, path)
        r.Update()
        vtk_touch(r.GetOutput())

    return read


def vtk_write_fn(fmt: str, label: str, data, path: Path):
    """VTK's write of `data` (the dataset VTK read from the same mesh) in the case's encoding:
    XML writers with the encoding named in the label, legacy / STL / PLY ASCII or binary."""
    if data is None:
        return None
    if fmt in VTK_XML:
        encoding = label.split(" ", 1)[1]
        return lambda: vtk_xml_write(fmt, data, path, encoding)
    cls = {"vtk": "vtkUnstructuredGridWriter", "stl": "vtkSTLWriter", "ply": "vtkPLYWriter"}.get(fmt)
    if cls is None:
        return None

    def write():
        w = getattr(vtkall(), cls)()
        w.SetInputData(data)
        w.SetFileName(str(path))
        w.SetFileTypeToBinary() if "binary" in label else w.SetFileTypeToASCII()
        if not w.Write():
            raise RuntimeError(f"VTK could not write {path}")

    return write


class Gmsh:
    """gmsh's Python API, initialized once: a read is gmsh.clear() + gmsh.open() (the mesh in
    gmsh's own model, in memory; nothing is copied out to Python), a write gmsh.write() of the
    model opened from the mesh's MSH 4.1 binary file."""

    def __init__(self):
        import gmsh

        self.gmsh, self.model_of = gmsh, None
        try:
            gmsh.initialize(readConfigFiles=False, interruptible=False)
        except TypeError:  # older API without `interruptible`
            gmsh.initialize(readConfigFiles=False)
        gmsh.option.setNumber("General.Terminal", 0)
        gmsh.option.setNumber("General.Verbosity", 0)

    def read_fn(self, fmt: str, path: Path):
        if fmt != "gmsh":
            return None

        def read():
            self.gmsh.clear()
            self.gmsh.open(str(path))
            self.model_of = None

        return read

    def load(self, src: Path):
        """The model opened from `src`, once, outside the timed calls."""
        if self.model_of != src:
            self.gmsh.clear()
            self.gmsh.open(str(src))
            self.model_of = src

    def write_fn(self, fmt: str, label: str, src: Path, path: Path):
        if fmt not in ("gmsh", "gmsh22"):
            return None
        version, binary = (2.2 if fmt == "gmsh22" else 4.1), "binary" in label
        self.load(src)

        def write():
            self.load(src)  # a no-op unless a read came in between
            self.gmsh.option.setNumber("Mesh.MshFileVersion", version)
            self.gmsh.option.setNumber("Mesh.Binary", int(binary))
            self.gmsh.write(str(path))

        return write


# --- floors ---------------------------------------------------------------------------
# The files a read of one path takes besides it: TetGen's .ele (and .face, .edge) beside
# its .node, the HDF5 heavy data beside an .xdmf (same stem).
COMPANIONS = {"tetgen": (".ele", ".face", ".edge"), "xdmf": (".h5", ".hdf5", ".hdf")}


def read_inputs(path: Path, fmt: str) -> list:
    """`path` and the companion files a read of it takes (their bytes count in the MB column
    and in the copy floor)."""
    return [path] + [c for ext in COMPANIONS.get(fmt, ()) if (c := path.with_suffix(ext)).is_file()]


def settle_page_cache(paths):
    """Every input's bytes in the page cache as reading the file from disk leaves them: written
    back, dropped (POSIX_FADV_DONTNEED), then read once through. How the bytes got into the
    page cache changes a mapped read: pages a writer just wrote sit in small folios, pages
    read ahead from disk in large ones, and faulting a mapping of the first costs far more
    (the cube's base64 VTU: 0.089 s against 0.050 s per read, 34k against 18k page faults for
    11 reads). A run once measured whichever state its inputs happened to be in."""
    for p in paths:
        fd = os.open(p, os.O_RDONLY)
        try:
            os.fsync(fd)  # dirty pages are not dropped
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            while os.read(fd, 1 << 24):
                pass
        finally:
            os.close(fd)


def copy_fn(paths):
    """The read floor: the files' bytes (already in memory) copied into fresh buffers."""
    data = [np.frombuffer(p.read_bytes(), dtype=np.uint8) for p in paths]
    return lambda: [d.copy() for d in data]


def h5py_read_all(path):
    """Every dataset of an HDF5 file (a netCDF-4 file is one) read into numpy with h5py."""
    import h5py

    def read(_, obj):
        if isinstance(obj, h5py.Dataset):
            obj[()]
        # None: visititems stops at the first callback that returns anything else

    with h5py.File(path, "r") as f:
        f.visititems(read)


def h5py_read_fn(paths):
    """The floor of an HDF5 read (issue 17): h5py reading every dataset of the files."""
    return lambda: [h5py_read_all(p) for p in paths]


# --no-sync: meshio++ writes with sync=False and the floor skips the flushes, like meshio.
SYNC = True


def write_floor_fn(files):
    """The write floor: the bytes of each file a writer made, `(data, target)`, written with one
    write call to a fresh temporary file beside `target`, fdatasync, renamed over it, the
    folder fsync'ed: meshio++'s writers' durability (src/core/io/file.cpp, AtomicFile) without
    any formatting (with --no-sync: no fdatasync, no fsync, as meshio++'s sync=False)."""
    def write():
        for data, target in files:
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=target.name + ".floor-")
            try:
                view = memoryview(data)
                while view:  # one call, unless the kernel caps it (2 GiB on Linux)
                    view = view[os.write(fd, view):]
                if SYNC:
                    os.fdatasync(fd)
            finally:
                os.close(fd)
            os.replace(tmp, target)
            if not SYNC:
                continue
            d = os.open(target.parent, os.O_RDONLY | os.O_DIRECTORY)
            try:
                os.fsync(d)
            finally:
                os.close(d)

    return write


# --- timing ---------------------------------------------------------------------------
MIN_REPS = 3
SLOW_S = 5.0  # a first call this slow is its own warm-up (counted as a repetition)


class Clock:
    """Repetitions per case: --reps, shrunk so the cases left fit the --budget seconds
    left (never under MIN_REPS), or, without a budget, so one case stays near 40 s."""

    def __init__(self, budget: float, cases: int, start: float, per_case: float = 40.0):
        self.budget, self.start = budget, start
        self.left, self.per_case = max(1, cases), per_case

    def allowance(self) -> float:
        if not self.budget:
            return self.per_case
        return max(0.0, self.start + self.budget - time.perf_counter()) / max(1, self.left)

    def done(self):
        self.left -= 1


def race(fns: dict, reps: int, clock: Clock):
    """Median seconds of each function, run interleaved after one warm-up each; returns
    (medians, repetitions)."""
    samples, errors = {k: [] for k in fns}, {}
    per_rep = 0.0
    for k, f in list(fns.items()):
        try:
            t = time.perf_counter(); f(); dt = time.perf_counter() - t
        except Exception as exc:  # noqa: BLE001 - a library failing on a case is a result, not the end of the run
            errors[k] = f"{type(exc).__name__}: {exc}"[:300]
            del fns[k], samples[k]
            continue
        per_rep += dt
        if dt >= SLOW_S:
            samples[k].append(dt)
    n = max(MIN_REPS, min(reps, int(clock.allowance() / max(per_rep, 1e-9))))
    for _ in range(n):
        for k, f in fns.items():
            if len(samples[k]) < n:
                t = time.perf_counter(); f(); samples[k].append(time.perf_counter() - t)
    clock.done()
    return {k: statistics.median(v) for k, v in samples.items()}, n, errors


class CaseFailed(RuntimeError):
    """meshio++ itself failed on a case: reported, and the run goes on."""


PEERS = ("meshio", "vtk", "gmsh")
PEER_NAMES = {"meshio": "meshio", "vtk": "VTK", "gmsh": "gmsh"}


def timed_row(name: str, op: str, label: str, fns: dict, reps: int, clock: Clock, mb: float) -> dict:
    fns = {k: f for k, f in fns.items() if f is not None}
    t, n, errors = race(fns, reps, clock)
    if "ours" in errors:
        raise CaseFailed(f"{name} {op} {label}: meshio++ failed: {errors['ours']}")
    row = dict(mesh=name, op=op, case=label, mb=mb, reps=n, ours=t["ours"])
    if errors:  # a peer that fails on the case gets a blank, and the reason
        row["failed"] = errors
        for k, e in errors.items():
            print(f"  ({k} failed on {op} {label}: {e})", flush=True)
    for peer in PEERS:
        row[peer] = t.get(peer)
        row["ratio" if peer == "meshio" else f"ratio_{peer}"] = t[peer] / t["ours"] if peer in t else None
    for k in t:  # the floors (copy, floor) and any other reference timed in the race (h5py)
        if k not in PEERS and k != "ours":
            row[k] = t[k]
    return row


def fmt_s(x, digits=3):
    return "-" if x is None else f"{x:.{digits}f}"


def fmt_x(x):
    return "" if x is None else f"{x:.1f}"


def print_row(r: dict):
    peers = "  ".join(f"{PEER_NAMES[p]} {fmt_s(r.get(p)):>7s}s x{fmt_x(r.get('ratio' if p == 'meshio' else 'ratio_' + p)) or '-':>6s}"
                      for p in PEERS if r.get(p) is not None)
    floor = (f"  read/copy {r['ours'] / r['copy']:.1f}" if "copy" in r else "") + (f"  write/floor {r['ours'] / r['floor']:.1f}" if "floor" in r else "")
    floor += f"  h5py {r['h5py']:.4f}s (ours/h5py {r['ours_vs_h5py']:.2f})" if "ours_vs_h5py" in r else ""
    mem = f"  peak/arrays {r['rss_ours']:.2f} (anon {r['anon_ours']:.2f})" if "rss_ours" in r else ""
    print(f"  {r['op']:5s} {r['case']:28s} {r['mb']:7.1f} MB  meshio++ {r['ours']:7.4f}s  {peers}{floor}{mem}  [{r['reps']} reps]", flush=True)


XDMF_SERIES_LABEL = "xdmf time series (100 steps)"


def xdmf_time_series_rows(name, mesh, reps, clock):
    """A 100-step series (a float64 point field and a float64 cell field per step) written
    and read with meshio's TimeSeriesWriter/Reader and ours (HDF5 heavy data), and the same
    datasets read with h5py alone (the floor of an HDF5 read)."""
    import meshio

    import meshioplusplus as mio

    rng = np.random.default_rng(0)
    cells = [(b.type, b.data) for b in mesh.cells]
    steps = [(0.01 * k, {"u": rng.random(len(mesh.points))}, {"c": [rng.random(len(b.data)) for b in mesh.cells]})
             for k in range(100)]
    folder = WORK / "series"
    folder.mkdir(parents=True, exist_ok=True)
    cwd = os.getcwd()
    os.chdir(folder)  # meshio writes its .h5 in the working directory
    try:
        def write(lib, path, **kw):
            with lib.xdmf.TimeSeriesWriter(path, **kw) as w:
                w.write_points_cells(mesh.points, cells)
                for t, pd, cd in steps:
                    w.write_data(t, point_data=pd, cell_data=cd)

        def read(lib, path):
            r = lib.xdmf.TimeSeriesReader(path)
            r.read_points_cells()
            for k in range(r.num_steps):
                r.read_data(k)

        our_kw = {} if SYNC else {"sync": False}
        write(mio, "ours.xdmf", **our_kw)
        # the floor: the .xdmf and its .h5 written with one write call each
        floor_files = [(p.read_bytes(), folder / ("floor" + p.suffix)) for p in (folder / "ours.xdmf", folder / "ours.h5")]
        row = timed_row(name, "write", XDMF_SERIES_LABEL, {"meshio": lambda: write(meshio, "meshio.xdmf"),
                                                            "ours": lambda: write(mio, "ours.xdmf", **our_kw),
                                                            "floor": write_floor_fn(floor_files)}, reps, clock, 0.0)
        row["mb"] = sum(len(d) for d, _ in floor_files) / 1e6
        rows = [row]
        # h5py reading the same datasets in the same race: the floor of an HDF5 read
        row = timed_row(name, "read", XDMF_SERIES_LABEL, {"meshio": lambda: read(meshio, "meshio.xdmf"),
                                                           "ours": lambda: read(mio, "ours.xdmf"), "h5py": h5py_read_fn(["ours.h5"])},
                        reps, clock, rows[0]["mb"])
        row["ours_vs_h5py"] = row["ours"] / row["h5py"]
        rows.append(row)
    finally:
        os.chdir(cwd)
    for r in rows:
        print_row(r)
    return rows


PEAK_SCRIPT = r"""
import sys, numpy as np
lib, path, fmt = sys.argv[1:4]
if lib == "meshio":
    import meshio as m
else:
    import meshioplusplus as m
def status(key):
    for line in open("/proc/self/status"):
        if line.startswith(key + ":"):
            return int(line.split()[1]) * 1024
open("/proc/self/clear_refs", "w").write("5")  # reset the peak RSS (VmHWM) to the current RSS
rss0, anon0 = status("VmRSS"), status("RssAnon")
import threading
peak_anon = [anon0]
done = threading.Event()
def poll():
    while not done.is_set():
        peak_anon[0] = max(peak_anon[0], status("RssAnon")); done.wait(0.0005)
t = threading.Thread(target=poll); t.start()
mesh = m.read(path, fmt)
done.set(); t.join()
peak = status("VmHWM")
arrays = [mesh.points] + [np.asarray(c.data) for c in mesh.cells]
arrays += list(mesh.point_data.values()) + [a for v in mesh.cell_data.values() for a in v]
# the sets are arrays returned too: meshio's point and cell sets, meshio++'s regions
if lib == "meshio":
    arrays += list(mesh.point_sets.values()) + [a for v in mesh.cell_sets.values() for a in v if a is not None]
else:
    arrays += [r.entries for r in mesh.regions]
nbytes = sum(np.asarray(a).nbytes for a in arrays)
print(peak - rss0, peak_anon[0] - anon0, nbytes)
"""


def peak_memory(lib: str, path: Path, fmt: str):
    r = subprocess.run([sys.executable, "-c", PEAK_SCRIPT, lib, str(path), fmt], capture_output=True, text=True, check=True,
                       env=default_heap_env())
    rss, anon, nbytes = map(int, r.stdout.split())
    return rss, anon, nbytes


def collection_rows(name: str, reps: int, clock: Clock):
    """PVTU overhead: meshio++ reading a 4-piece .pvtu vs the same mesh as one .vtu (the
    meshio column is meshio reading that one .vtu: meshio has no .pvtu)."""
    import meshio

    import meshioplusplus as mio

    one, coll = pvtu_pieces(name, 4)
    row = timed_row(name, "collection", "pvtu 4 pieces (meshio: one .vtu)",
                    {"meshio": lambda: meshio.read(one), "ours": lambda: mio.read(coll), "ours_one_vtu": lambda: mio.read(one)},
                    reps, clock, one.stat().st_size / 1e6)
    row["fmt"] = "pvtu"
    print_row(row)
    print(f"    overhead of 4 pieces over one .vtu: {100 * (row['ours'] / row['ours_one_vtu'] - 1):+.0f}%", flush=True)
    return row


# --- write cases ----------------------------------------------------------------------
SURFACE_WRITE_CASES += [(f"{k} {e}", f".{k}", k, None, OURS_XML_KW[e]) for k in ("vtp", "vtu") for e in XML_ENCODINGS]
GRID_WRITE_CASES = [(f"{k} {e}", f".{k}", k, None, OURS_XML_KW[e]) for k in ("vts", "vtr", "vti") for e in XML_ENCODINGS[1:]]
MESHIO_LACKS = {"vtp", "vts", "vtr", "vti"}


def all_read_cases(name: str, only: str = ""):
    """Every read case of mesh `name` (meshio's and VTK-only ones) whose label contains `only`."""
    return ([] if name in GRIDS else read_cases(name, only)) + peer_read_cases(name, only)


def write_cases(name: str):
    """The write cases of mesh `name`: structured grids, surfaces or volumes."""
    return GRID_WRITE_CASES if name in GRIDS else SURFACE_WRITE_CASES if name in SURFACES else WRITE_CASES


class Sources:
    """The meshes each library writes, made once per mesh and only when a case needs them:
    meshio's and meshio++'s reads of the gmsh file, and VTK's dataset of the same mesh."""

    def __init__(self, name: str):
        self.name, self.cache = name, {}

    def get(self, key, make):
        if key not in self.cache:
            self.cache[key] = make()
        return self.cache[key]

    def meshes(self):
        import meshio

        import meshioplusplus as mio

        def make():
            src = gmsh_mesh(self.name, "msh41", True)
            peer, ours = meshio.read(src), mio.read(src)
            if self.name in SURFACES:
                peer = triangles_only(meshio, peer)
                ours = mio.Mesh(peer.points, [("triangle", peer.cells[0].data)])
            return peer, ours

        return self.get("meshes", make)

    def vtk_data(self, fmt: str):
        """VTK's dataset of the mesh: VTK's read of meshio's VTU (volumes), of the VTK-made VTP
        (surfaces), or the numpy + VTK grid."""
        if self.name in GRIDS:
            return self.get(fmt, lambda: vtk_grid(fmt))
        if self.name in SURFACES and fmt == "vtu":
            return self.get("vtu", lambda: vtk_surface_grid(self.name))
        if self.name in SURFACES:
            return self.get("vtp", lambda: vtk_read_data(vtk_surface_vtp(self.name, "binary"), "vtp"))
        return self.get("vtu", lambda: vtk_read_data(peer_file(self.name, "binary.vtu", lambda m, mesh, p: m.vtu.write(
            p, mesh, binary=True, compression=None)), "vtu"))


def write_fns(name: str, case, src: Sources, gm: Gmsh):
    """Each library's write of a case (None where it lacks it) and the write floor, and the
    bytes the floor writes; meshio++'s write has run once (a failure raises CaseFailed)."""
    import meshio

    import meshioplusplus as mio

    label, suffix, fmt, peer_kw, our_kw = case
    folder = WORK / "out" / slug(f"{name} {label}")
    folder.mkdir(parents=True, exist_ok=True)
    p_peer, p_ours, p_vtk, p_gmsh = (folder / f"{who}{suffix}" for who in ("meshio", "ours", "vtk", "gmsh"))
    ours_fmt = "gmsh" if fmt == "gmsh22" else fmt
    if name in GRIDS:
        om = src.get(f"ours {fmt}", lambda: mio.read(vtk_grid_file(fmt, "appended raw")))
        pm = None
    else:
        pm, om = src.meshes()
        fix = WRITE_MESH.get(fmt, lambda lib, m: m)
        pm, om = fix(meshio, pm), fix(mio, om)
    ours = lambda: mio.write(p_ours, om, ours_fmt, **our_kw, **({} if SYNC else {"sync": False}))
    try:
        ours()
    except Exception as exc:  # noqa: BLE001
        raise CaseFailed(f"{name} write {label}: meshio++ failed: {type(exc).__name__}: {exc}"[:400]) from exc
    # the bytes the floor writes: every file of meshio++'s output (a .node and its .ele, an .xdmf and its .h5)
    outputs = [p for p in sorted(folder.iterdir()) if p.name.startswith("ours") and p.is_file() and ".floor-" not in p.name]
    floor_files = [(p.read_bytes(), folder / ("floor" + p.name[len("ours"):])) for p in outputs]
    fns = {"meshio": (lambda: meshio.write(p_peer, pm, fmt, **peer_kw)) if peer_kw is not None else None,
           "ours": ours,
           "vtk": vtk_write_fn(fmt, label, src.vtk_data(fmt) if fmt in VTK_XML or fmt in ("vtk", "stl", "ply") else None, p_vtk),
           "gmsh": gm.write_fn(fmt, label, gmsh_mesh(name, "msh41", True), p_gmsh) if name not in GRIDS + SURFACES else None,
           "floor": write_floor_fn(floor_files)}
    return fns, sum(len(d) for d, _ in floor_files)


def write_row(name: str, case, src: Sources, gm: Gmsh, reps: int, clock: Clock) -> dict:
    fns, nbytes = write_fns(name, case, src, gm)
    row = timed_row(name, "write", case[0], fns, reps, clock, nbytes / 1e6)
    row["fmt"] = case[2]
    return row


def read_fns(case, gm: Gmsh) -> dict:
    """Each library's read of a case (None where it lacks it), the copy floor and, for HDF5
    files, h5py's read of every dataset."""
    import meshio

    import meshioplusplus as mio

    label, path, fmt, kw = case
    return {"meshio": (lambda: meshio.read(path, fmt)) if fmt not in MESHIO_LACKS else None,
            "ours": lambda: mio.read(path, fmt, **kw),
            "vtk": vtk_read_fn(fmt, path),
            "gmsh": gm.read_fn(fmt, path),
            "copy": copy_fn(read_inputs(path, fmt)),
            "h5py": h5py_read_fn([p for p in read_inputs(path, fmt) if p.suffix != ".xdmf"]) if encoding(dict(case=label, fmt=fmt)) == "hdf5" else None}


def read_row(name: str, case, gm: Gmsh, reps: int, clock: Clock) -> dict:
    label, path, fmt, _ = case
    settle_page_cache(read_inputs(path, fmt))
    fns = read_fns(case, gm)
    row = timed_row(name, "read", label, fns, reps, clock, sum(p.stat().st_size for p in read_inputs(path, fmt)) / 1e6)
    row["fmt"] = fmt
    if "h5py" in row:
        row["ours_vs_h5py"] = row["ours"] / row["h5py"]
    rss_o, anon_o, bytes_o = peak_memory("meshioplusplus", path, fmt)
    row.update(rss_ours=rss_o / bytes_o, anon_ours=anon_o / bytes_o)
    if row["meshio"] is not None:
        rss_p, anon_p, bytes_p = peak_memory("meshio", path, fmt)
        row.update(rss_meshio=rss_p / bytes_p, anon_meshio=anon_p / bytes_p)
    return row


# --- the machine ----------------------------------------------------------------------
def machine_info() -> dict:
    def first(path, key=None):
        try:
            text = Path(path).read_text()
        except OSError:
            return None
        if key is None:
            return text.strip()
        return next((line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith(key)), None)

    def version(mod):
        try:
            m = __import__(mod)
        except ImportError:
            return "not installed"
        if mod == "vtk":
            return m.vtkVersion.GetVTKVersion()
        return getattr(m, "__version__", "?")

    try:
        commit = subprocess.run(["git", "-C", str(HERE), "describe", "--always", "--dirty"], capture_output=True, text=True,
                                check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    return dict(date=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), host=socket.gethostname().split(".")[0],
                cores=os.cpu_count(), cpu=first("/proc/cpuinfo", "model name") or platform.processor() or platform.machine(),
                governor=first("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor") or "not visible",
                load_start=[round(x, 2) for x in os.getloadavg()], python=platform.python_version(),
                versions={"meshioplusplus": version("meshioplusplus"), "commit": commit, "meshio": version("meshio"),
                          "vtk": version("vtk"), "gmsh": version("gmsh"), "numpy": version("numpy")})


def header_lines(meta: dict) -> list:
    v = meta["versions"]
    lines = [f"Machine: {meta['host']}, {meta['cores']} cores, {meta['cpu']}, governor {meta['governor']}.",
             f"Load average (1, 5, 15 min) at start {meta['load_start']}" + (f", at end {meta['load_end']}" if "load_end" in meta else "") + ".",
             f"Versions: meshio++ {v['meshioplusplus']} (commit {v['commit']}), meshio {v['meshio']}, VTK {v['vtk']}, "
             f"gmsh {v['gmsh']}, numpy {v['numpy']}, Python {meta['python']}.",
             f"Run: {meta['command']}; {meta['kind']}; up to {meta['reps']} interleaved repetitions per case after a warm-up "
             f"(at least {MIN_REPS}; a case's count is in the `reps` column)" + (f"; budget {meta['budget']:.0f} s" if meta.get("budget") else "") + "."]
    if meta.get("heap"):
        lines.append(f"Heap of the timed process: {meta['heap']} (every library's arrays reused warm; peak memory in fresh processes "
                     "with glibc's defaults).")
    if "wall_s" in meta:
        lines.append("Wall time per section (s): " + ", ".join(f"{k} {v:.0f}" for k, v in meta["sections"].items())
                     + f"; total {meta['wall_s']:.0f}.")
    return lines


# --- targets --------------------------------------------------------------------------
ISSUE14 = {"stl", "ply", "obj", "off"}
ISSUE15 = {"abaqus", "nastran", "ansys", "unv", "permas", "mdpa", "flac3d"}
ISSUE16 = {"medit", "su2", "tetgen", "ugrid", "avsucd", "tecplot", "dolfin-xml", "netgen", "neuroglancer", "svg", "wkt"}
BIG = ("bracket", "cube")  # issue 19's targets hold on both; the format issues' on the 1M-cell meshes


def encoding(r: dict) -> str:
    label, fmt = r["case"], r.get("fmt", "")
    if fmt in ("exodus", "med", "cgns", "h5m", "hmf") or label == "xdmf hdf" or label == XDMF_SERIES_LABEL:
        return "hdf5"
    if "zlib" in label or ".gz" in label:
        return "compressed"
    if "binary" in label or "appended raw" in label or fmt in ("ugrid", "neuroglancer"):
        return "binary"
    return "text"


def targets(rows: list) -> list:
    """Every speed target of issue 19 and of the format issues (14-17) that a row of this run
    measures: one entry per (target, row), with the measured value, the limit, PASS / MISS."""
    def read(r): return r["op"] == "read"
    def write(r): return r["op"] == "write"
    # Issue 14's "VTP at VTU's ratios": meshio has no VTP, so VTP's ratio to meshio is taken
    # against meshio's read / write of the same mesh as VTU; it is at least VTU's ratio
    # exactly when our VTP time is at most our VTU time (same mesh, same encoding).
    vtu_time = {(r["mesh"], r["op"], r["case"][4:]): r["ours"] for r in rows if r.get("fmt") == "vtu"}
    def vtp_key(r): return (r["mesh"], r["op"], r["case"][4:])
    specs = [
        ("#19", "binary read within 1.5x of copying the file's bytes", lambda r: read(r) and r["mesh"] in BIG and encoding(r) == "binary" and "copy" in r,
         lambda r: r["ours"] / r["copy"], "<=", 1.5),
        ("#19", "binary read at least 3x meshio", lambda r: read(r) and r["mesh"] in BIG and encoding(r) == "binary", lambda r: r["ratio"], ">=", 3),
        ("#19", "binary write within 1.5x of one write call", lambda r: write(r) and r["mesh"] in BIG and encoding(r) == "binary" and "floor" in r,
         lambda r: r["ours"] / r["floor"], "<=", 1.5),
        ("#19", "Gmsh 4.1 ASCII read at least 25x meshio", lambda r: read(r) and r["mesh"] in BIG and r["case"] == "gmsh 4.1 ascii",
         lambda r: r["ratio"], ">=", 25),
        ("#19", "other text reads at least 15x meshio", lambda r: read(r) and r["mesh"] in BIG and encoding(r) == "text" and r["case"] != "gmsh 4.1 ascii",
         lambda r: r["ratio"], ">=", 15),
        ("#19", "VTU zlib write at least 25x meshio", lambda r: write(r) and r["mesh"] in BIG and r["case"] == "vtu binary zlib", lambda r: r["ratio"], ">=", 25),
        ("#19", "VTU zlib read at least 4x meshio", lambda r: read(r) and r["mesh"] in BIG and r["case"] == "vtu binary zlib", lambda r: r["ratio"], ">=", 4),
        ("#19", "peak anonymous memory of a read at most 1.2x the arrays", lambda r: read(r) and "anon_ours" in r, lambda r: r["anon_ours"], "<=", 1.2),
        ("#19", "faster than VTK", lambda r: True, lambda r: r.get("ratio_vtk"), ">=", 1),
        ("#19", "faster than gmsh", lambda r: True, lambda r: r.get("ratio_gmsh"), ">=", 1),
        ("#14", "binary STL / PLY read at least 5x meshio", lambda r: read(r) and r["mesh"] == "skin" and r["fmt"] in ("stl", "ply")
         and encoding(r) == "binary" and "merge=False" not in r["case"], lambda r: r["ratio"], ">=", 5),
        ("#14", "binary STL / PLY read within 2x of copying the file's bytes", lambda r: read(r) and r["mesh"] == "skin" and r["fmt"] in ("stl", "ply")
         and encoding(r) == "binary", lambda r: r["ours"] / r["copy"], "<=", 2),
        ("#14", "ASCII STL / PLY / OBJ / OFF read and write at least 10x meshio", lambda r: r["mesh"] == "skin" and r["fmt"] in ISSUE14
         and encoding(r) == "text", lambda r: r["ratio"], ">=", 10),
        ("#14", "VTP at VTU's ratios: VTP time / VTU time, same mesh and encoding", lambda r: r.get("fmt") == "vtp" and vtp_key(r) in vtu_time,
         lambda r: r["ours"] / vtu_time[vtp_key(r)], "<=", 1.1),  # "at": equal within one case's run-to-run noise (~10% here)
        ("#15", "read and write at least 10x meshio (1M cells)", lambda r: r["mesh"] == "cube" and r["fmt"] in ISSUE15, lambda r: r["ratio"], ">=", 10),
        ("#16", "text formats read and write at least 10x meshio (1M cells)", lambda r: r["mesh"] == "cube" and r["fmt"] in ISSUE16
         and encoding(r) == "text", lambda r: r["ratio"], ">=", 10),
        ("#16", ".meshb and binary UGRID at least 3x meshio (1M cells)", lambda r: r["mesh"] == "cube" and r["fmt"] in ("medit", "ugrid")
         and encoding(r) == "binary", lambda r: r["ratio"], ">=", 3),
        ("#16", ".meshb and binary UGRID read within 2x of copying the file's bytes (1M cells)", lambda r: read(r) and r["mesh"] == "cube"
         and r["fmt"] in ("medit", "ugrid") and encoding(r) == "binary", lambda r: r["ours"] / r["copy"], "<=", 2),
        ("#17", "HDF5-based reads at least 3x meshio (1M cells)", lambda r: read(r) and r["mesh"] == "cube" and encoding(r) == "hdf5"
         and r["fmt"] != "exodus" and r["case"] != XDMF_SERIES_LABEL, lambda r: r["ratio"], ">=", 3),
        ("#17", "HDF5-based reads within 1.5x of h5py", lambda r: read(r) and "ours_vs_h5py" in r, lambda r: r["ours_vs_h5py"], "<=", 1.5),
        ("#17", "Exodus read and write at least 3x meshio (1M cells)", lambda r: r["mesh"] == "cube" and r["fmt"] == "exodus",
         lambda r: r["ratio"], ">=", 3),
        ("#17", "100-step XDMF time series written and read at least 5x meshio", lambda r: r["case"] == XDMF_SERIES_LABEL,
         lambda r: r["ratio"], ">=", 5),
    ]
    out = []
    for source, text, select, value, cmp, limit in specs:
        for r in rows:
            if not select(r):
                continue
            v, lim = value(r), (limit(r) if callable(limit) else limit)
            if v is None or lim is None:
                continue
            ok = v <= lim if cmp == "<=" else v >= lim
            out.append(dict(source=source, target=text, mesh=r["mesh"], op=r["op"], case=r["case"], value=v, cmp=cmp, limit=lim,
                            status="PASS" if ok else "MISS", short_by=None if ok else (v / lim if cmp == "<=" else lim / v),
                            vs_floor=None if ok or "x meshio" not in text else meshio_target_vs_floor(r, lim)))
    return out


def meshio_target_vs_floor(r: dict, times: float):
    """For "Nx meshio" on row r: the time that would take (meshio's / N) against the row's floor,
    and the floor's name: the copy floor of a read, h5py's read of an HDF5 file, the write
    floor of a write (below 1: the target asks meshio++ to beat the floor itself)."""
    for key, what in (("h5py", "h5py's read"), ("copy", "the copy floor"), ("floor", "the write floor")):
        if r.get(key) and r.get("meshio"):
            return (r["meshio"] / times) / r[key], what
    return None


def summary(tg: list) -> dict:
    misses = [t for t in tg if t["status"] == "MISS"]
    return dict(passed=len(tg) - len(misses), missed=len(misses),
                misses=[f"{t['source']} {t['target']}: {t['mesh']} {t['op']} {t['case']}: {t['value']:.2f} vs {t['cmp']} {t['limit']:.2f} "
                        f"({t['short_by']:.2f}x short)" + (f"; that is {t['vs_floor'][0]:.2f}x {t['vs_floor'][1]}" if t.get("vs_floor") else "")
                        for t in sorted(misses, key=lambda t: -t["short_by"])])


# --- the run --------------------------------------------------------------------------
FULL_BUDGET = 1500.0  # wall seconds of a full run, inputs included (they are cached in bench/work/ after the first)


def results_stem(args) -> str:
    """<date>-<host>-<cores>cpu, plus a suffix naming a partial run (never a full run's name)."""
    stem = f"{datetime.date.today().isoformat()}-{socket.gethostname().split('.')[0]}-{os.cpu_count()}cpu"
    if args.quick:
        stem += "-quick"
    if args.only:
        stem += f"-only-{args.only}"
    if args.case:
        stem += f"-case-{slug(args.case)}"
    if args.no_sync:
        stem += "-nosync"
    return stem


def main(argv=None):
    import meshioplusplus as mio

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", choices=["bracket", "cube", "skin", "grid"])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="bracket only, 3 repetitions")
    ap.add_argument("--case", default="", help="only the read and write cases whose label contains this (\"medit\")")
    ap.add_argument("--budget", type=float, default=None,
                    help=f"wall seconds for the whole run; repetitions shrink to fit (never under {MIN_REPS}). "
                         f"Default {FULL_BUDGET:.0f} for a full run, none for a partial one (one case near 40 s then)")
    ap.add_argument("--no-sync", action="store_true",
                    help="meshio++ writes with sync=False and the write floor skips fdatasync/fsync (a partial run)")
    args = ap.parse_args(argv)
    global SYNC
    SYNC = not args.no_sync
    partial = bool(args.quick or args.only or args.case or args.no_sync)
    meshes = ["bracket"] if args.quick else ([args.only] if args.only else ["bracket", "cube", "skin", "grid"])
    reps = 3 if args.quick else args.reps
    budget = args.budget if args.budget is not None else (0.0 if partial else FULL_BUDGET)
    meta = machine_info()
    meta.update(command="bench/run.py " + " ".join(sys.argv[1:] if argv is None else argv), kind="partial run" if partial else "full run",
                full=not partial, reps=reps, budget=budget, sections={},
                heap=" ".join(f"{k}={os.environ[k]}" for k in WARM_HEAP if k in os.environ))
    print("\n".join(header_lines(meta)), flush=True)
    started = time.perf_counter()

    def section(key, t0):
        meta["sections"][key] = time.perf_counter() - t0

    gm = Gmsh()
    plan = {}
    for name in meshes:  # every input first: the time they take is reported apart
        t0 = time.perf_counter()
        reads = all_read_cases(name, args.case)
        writes = [c for c in write_cases(name) if args.case in c[0]]
        extra = []
        if name in ("bracket", "cube") and args.case in "pvtu 4 pieces":
            pvtu_pieces(name, 4)
            extra.append("pvtu")
        if name == "bracket" and args.case in XDMF_SERIES_LABEL:
            extra.append("series")
        plan[name] = (reads, writes, extra)
        section(f"inputs {name}", t0)
    if not any(r or w or e for r, w, e in plan.values()):
        sys.exit(f"bench/run.py: no read or write case of {', '.join(plan)} matches --case {args.case!r}")
    meta["inputs"] = sorted({str(c[1].relative_to(HERE.parent)): round(c[1].stat().st_size / 1e6, 1)
                             for reads, _, _ in plan.values() for c in reads}.items())
    clock = Clock(budget, sum(len(r) + len(w) + 2 * len(e) for r, w, e in plan.values()), started)

    rows, failed = [], meta.setdefault("failed", [])  # cases meshio++ itself failed on
    for name, (reads, writes, extra) in plan.items():
        src = Sources(name)
        if name in GRIDS:
            print(f"\n{name}: {GRID_CELLS}^3 hexahedra, {(GRID_CELLS + 1) ** 3} points (made with numpy + VTK)", flush=True)
        else:
            _, ours = src.meshes()
            print(f"\n{name}: {len(ours.points)} points, {sum(len(b) for b in ours.cells)} cells", flush=True)
        t0 = time.perf_counter()
        for case in reads:
            try:
                rows.append(read_row(name, case, gm, reps, clock))
            except CaseFailed as exc:
                failed.append(str(exc)); print(f"  FAILED {exc}", flush=True)
                continue
            print_row(rows[-1])
        if "pvtu" in extra:
            rows.append(collection_rows(name, reps, clock))
        section(f"read {name}", t0)
        t0 = time.perf_counter()
        for case in writes:
            try:
                rows.append(write_row(name, case, src, gm, reps, clock))
            except CaseFailed as exc:
                failed.append(str(exc)); print(f"  FAILED {exc}", flush=True)
                continue
            print_row(rows[-1])
        if "series" in extra:
            rows += xdmf_time_series_rows(name, src.meshes()[1], reps, clock)
        section(f"write {name}", t0)

    meta["wall_s"] = time.perf_counter() - started
    meta["load_end"] = [round(x, 2) for x in os.getloadavg()]
    tg = targets(rows)
    results = dict(meta=meta, rows=rows, targets=tg, summary=summary(tg))
    stem = results_stem(args)
    RESULTS.mkdir(parents=True, exist_ok=True)
    md = RESULTS / f"{stem}.md"
    md.write_text(markdown(results, stem))
    (RESULTS / f"{stem}.json").write_text(json.dumps(results, indent=1))
    plot(rows, RESULTS / f"{stem}.png")
    print()
    print("\n".join(header_lines(meta)))
    print(f"targets: {results['summary']['passed']} PASS, {results['summary']['missed']} MISS")
    for m in results["summary"]["misses"]:
        print(f"  MISS {m}")
    print(f"\nwrote {md.relative_to(HERE.parent)} and the .json and .png beside it")
    if not partial:
        import readme_table

        readme_table.update_readme(HERE.parent / "README.md", RESULTS / f"{stem}.json")
        print("regenerated the README's table (bench/readme_table.py)")
    del mio


def markdown(results: dict, stem: str) -> str:
    meta, rows = results["meta"], results["rows"]
    lines = [f"# meshio++ against meshio, VTK and gmsh: {meta['date']} ({meta['kind']})", ""] + [f"- {x}" for x in header_lines(meta)] + [
        "",
        "Method: [docs/benchmarks.md](../../docs/benchmarks.md). Times are medians in seconds; `X/us` = X's time / meshio++'s time",
        "(above 1: meshio++ is faster; blank: X lacks the case). read / copy = meshio++'s read / copying the file's bytes into",
        "fresh memory; write / floor = meshio++'s write / writing the same bytes with one write call (fresh file, fdatasync,",
        "rename" + ("" if SYNC else "; --no-sync: meshio++ writes with sync=False and the floor has no fdatasync/fsync") + "). peak/arrays = peak memory growth of a read in a fresh process / bytes of the arrays returned: RSS, and",
        "in parentheses anonymous memory only (the file's page-cache pages excluded). HDF5 reads: (h5py x) = meshio++'s read /",
        "h5py reading every dataset of the file into numpy (issue 17's floor).",
        "",
        "| mesh | op | case | MB | reps | meshio++ s | meshio s | VTK s | gmsh s | meshio/us | VTK/us | gmsh/us | MB/s | read/copy, write/floor | peak/arrays (anon) | meshio peak/arrays (anon) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        floor = f"{r['ours'] / r['copy']:.2f}" if "copy" in r else f"{r['ours'] / r['floor']:.2f}" if "floor" in r else ""
        floor += f" (h5py {r['ours_vs_h5py']:.2f})" if "ours_vs_h5py" in r else ""
        mem = f"{r['rss_ours']:.2f} ({r['anon_ours']:.2f})" if "rss_ours" in r else ""
        peer_mem = f"{r['rss_meshio']:.2f} ({r['anon_meshio']:.2f})" if "rss_meshio" in r else ""
        lines.append(f"| {r['mesh']} | {r['op']} | {r['case']} | {r['mb']:.1f} | {r['reps']} | {r['ours']:.4f} | "
                     + " | ".join("" if r.get(p) is None else f"{r[p]:.4f}" for p in PEERS) + " | "
                     + " | ".join(fmt_x(r.get(k)) for k in ("ratio", "ratio_vtk", "ratio_gmsh"))
                     + f" | {r['mb'] / r['ours']:.0f} | {floor} | {mem} | {peer_mem} |")
    fails = meta.get("failed", []) + [f"{r['mesh']} {r['op']} {r['case']}: {PEER_NAMES.get(k, k)} failed: {e}"
                                      for r in rows for k, e in r.get("failed", {}).items()]
    if fails:
        lines += ["", "Failures (a blank above where a peer failed; a case meshio++ failed on has no row):", ""]
        lines += [f"- {f}" for f in fails]
    s = results["summary"]
    lines += ["", f"## Targets: {s['passed']} PASS, {s['missed']} MISS", "",
              "| issue | target | mesh | op | case | measured | limit | |", "|---|---|---|---|---|---|---|---|"]
    for t in results["targets"]:
        lines.append(f"| {t['source']} | {t['target']} | {t['mesh']} | {t['op']} | {t['case']} | {t['value']:.2f} | {t['cmp']} {t['limit']:.2f} | {t['status']} |")
    lines += ["", "Misses, worst first (short by = how many times faster, or leaner, meshio++ must get; for an \"Nx meshio\" "
              "target, \"that is\" = meshio's time / N against the row's floor (h5py's read for HDF5, the copy floor for "
              "other reads, the write floor for writes, which flushes in a run without --no-sync while meshio does not): "
              "below 1, the target asks for less time than the floor itself):", ""]
    lines += [f"- {m}" for m in s["misses"]] or ["- none"]
    lines += ["", f"Plot: [{stem}.png]({stem}.png)."]
    return "\n".join(lines) + "\n"


def plot(rows, path: Path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    meshes = list(dict.fromkeys(r["mesh"] for r in rows))
    colors = {"ratio": "tab:blue", "ratio_vtk": "tab:green", "ratio_gmsh": "tab:red"}
    fig, axes = plt.subplots(1, len(meshes), figsize=(8 * len(meshes), max(6, 0.32 * max(sum(r["mesh"] == m for r in rows) for m in meshes))),
                             squeeze=False)
    for ax, name in zip(axes[0], meshes):
        sel = [r for r in rows if r["mesh"] == name]
        y = np.arange(len(sel))
        for k, (key, peer) in enumerate(zip(colors, PEERS)):
            vals = [r.get(key) or np.nan for r in sel]  # no bar where the peer lacks the case
            ax.barh(y + (k - 1) * 0.27, vals, height=0.27, color=colors[key], label=f"{PEER_NAMES[peer]} / meshio++")
        ax.set_yticks(y, [f"{r['op']} {r['case']}" for r in sel], fontsize=7)
        ax.axvline(1.0, color="k", lw=0.8)
        ax.set_xscale("log")
        ax.set_xlabel("peer time / meshio++ time (right of 1: meshio++ faster)")
        ax.set_title(name)
        ax.invert_yaxis()
        ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


# --- the heap every library allocates from -----------------------------------------------
# glibc serves a large malloc with a fresh mmap (every page faulted in on first touch, ~0.3
# ms per MB in this VM) until a free raises its mmap threshold, up to 32 MiB; from then on
# arrays up to that size come back warm from the heap. Which state numpy (meshio, h5py, the
# copy floor) is in then depends on what the process did before: meshio's MED read of the
# cube measured 0.0146 s in a full run and 0.20 s in a partial one. The timed process runs
# with mmap off and no trimming, so every array of every library is reused warm, whatever
# ran before (meshio++'s own buffers come from its buffer cache either way); the peak
# memory subprocesses keep glibc's defaults (a read in a fresh process).
WARM_HEAP = {"MALLOC_MMAP_MAX_": "0", "MALLOC_TRIM_THRESHOLD_": str(1 << 40), "MALLOC_TOP_PAD_": str(64 << 20)}


def default_heap_env() -> dict:
    return {k: v for k, v in os.environ.items() if k not in WARM_HEAP}


if __name__ == "__main__":
    if any(os.environ.get(k) != v for k, v in WARM_HEAP.items()):
        os.execve(sys.executable, [sys.executable] + sys.argv, {**os.environ, **WARM_HEAP})
    main()
