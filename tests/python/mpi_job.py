"""The rank-side half of tests/python/test_mpi.py: run as
``mpirun -n N python mpi_job.py <mode> <dir> [args]``; rank 0 prints one line
``RESULT <json>`` that the test parses (every rank exits non-zero on a failed check).

Modes:
  write <dir> [empty] [ext=E]
                        partition the serial mesh (serial_mesh()) by contiguous cell ranges
                        (with ``empty``: the last rank gets nothing), write <dir>/part.E
                        (E: pvtu, the default, vtkhdf or xdmf) collectively, read it back on
                        the same ranks and reassemble
  read <dir> [ext=E]    read <dir>/part.E (written by another rank count) and reassemble
  gmsh <dir>            read <dir>/g.msh (gmsh -part N -part_split output) collectively
  fail <file>           read <file> collectively, expecting a ReadError: every rank's message
  device                to_cupy(comm=) with the CuPy stand-in: the device each rank picks
"""
import json
import os
import sys

import numpy as np

import meshioplusplus as mio

comm = None  # MPI.COMM_WORLD when run as a script: importing serial_mesh() starts no MPI
rank, size = 0, 1


def serial_mesh():
    """A 7 x 5 grid: triangles on the left half, quads on the right; point and cell data."""
    nx, ny = 7, 5
    xs, ys = np.meshgrid(np.arange(nx + 1, dtype=float), np.arange(ny + 1, dtype=float), indexing="ij")
    points = np.stack([xs.ravel(), ys.ravel(), 0.25 * xs.ravel()], axis=1)
    pid = lambda i, j: i * (ny + 1) + j  # noqa: E731
    tris, quads = [], []
    for i in range(nx):
        for j in range(ny):
            a, b, c, d = pid(i, j), pid(i + 1, j), pid(i + 1, j + 1), pid(i, j + 1)
            if i < nx // 2:
                tris += [[a, b, c], [a, c, d]]
            else:
                quads.append([a, b, c, d])
    tris, quads = np.array(tris, dtype=np.int64), np.array(quads, dtype=np.int64)
    return mio.Mesh(
        points,
        [("triangle", tris), ("quad", quads)],
        point_data={"T": points[:, 0] + 10 * points[:, 1], "v": points * 2.0},
        cell_data={"w": [np.arange(len(tris), dtype=float), 100.0 + np.arange(len(quads))],
                   "mat": [np.full(len(tris), 1, np.int32), np.full(len(quads), 2, np.int32)]},
    )


def flat_cells(mesh):
    """[(type, row)] in global cell order."""
    return [(b.type, row) for b in mesh.cells for row in np.asarray(b.data)]


def my_part(mesh, owners):
    """This rank's cells (owners[c] == rank), the points they use, global ids, ghosts."""
    cells = flat_cells(mesh)
    mine = [c for c in range(len(cells)) if owners[c] == rank]
    point_owner = np.full(len(mesh.points), size, dtype=np.int64)
    for c, (_, row) in enumerate(cells):
        point_owner[row] = np.minimum(point_owner[row], owners[c])
    used = np.unique(np.concatenate([cells[c][1] for c in mine])) if mine else np.zeros(0, np.int64)
    local = {g: i for i, g in enumerate(used)}
    blocks, gcell, cdata = [], [], {k: [] for k in mesh.cell_data}
    flat_data = {k: np.concatenate(v) for k, v in mesh.cell_data.items()}
    for c in mine:
        t, row = cells[c]
        if not blocks or blocks[-1][0] != t:
            blocks.append((t, []))
            for k in cdata:
                cdata[k].append([])
            gcell.append([])
        blocks[-1][1].append([local[g] for g in row])
        gcell[-1].append(c)
        for k in cdata:
            cdata[k][-1].append(flat_data[k][c])
    cell_data = {k: [np.array(x, dtype=flat_data[k].dtype) for x in v] for k, v in cdata.items()}
    cell_data["global_cell_ids"] = [np.array(x, dtype=np.int64) for x in gcell]
    cell_data["vtkGhostType"] = [np.zeros(len(x), np.uint8) for x in gcell]
    point_data = {k: v[used] for k, v in mesh.point_data.items()}
    point_data["global_point_ids"] = used.astype(np.int64)
    point_data["vtkGhostType"] = (point_owner[used] != rank).astype(np.uint8)
    return mio.Mesh(mesh.points[used] if len(used) else np.zeros((0, 3)),
                    [(t, np.array(rows, dtype=np.int64)) for t, rows in blocks],
                    point_data=point_data, cell_data=cell_data if blocks else {})


def reassemble(local):
    """Rank 0: the whole mesh from every rank's owned points and cells, by global ids."""
    pid = local.point_data["global_point_ids"]
    pghost = local.point_data["vtkGhostType"]
    mine_points = (pid[pghost == 0], local.points[pghost == 0],
                   {k: v[pghost == 0] for k, v in local.point_data.items()})
    mine_cells = []
    for b, block in enumerate(local.cells):
        gid = local.cell_data["global_cell_ids"][b]
        ghost = local.cell_data["vtkGhostType"][b]
        for j, row in enumerate(np.asarray(block.data)):
            if ghost[j] == 0:
                mine_cells.append((int(gid[j]), block.type, pid[row].tolist(),
                                   {k: v[b][j].tolist() for k, v in local.cell_data.items()}))
    parts = comm.gather((mine_points, mine_cells), root=0)
    if rank != 0:
        return None
    n = sum(len(p[0][0]) for p in parts)
    points = np.full((n, 3), np.nan)
    point_data = {}
    for (ids, xyz, data), _ in parts:
        points[ids] = xyz
        for k, v in data.items():
            point_data.setdefault(k, np.zeros((n,) + v.shape[1:], v.dtype))[ids] = v
    cells = sorted(c for _, cs in parts for c in cs)
    return points, point_data, cells


def check_equal(whole, serial):
    points, point_data, cells = whole
    assert np.array_equal(points, serial.points), "points differ"
    for k, v in serial.point_data.items():
        assert np.allclose(point_data[k], v), f"point data {k} differs"
    want = flat_cells(serial)
    assert [c[0] for c in cells] == list(range(len(want))), "global cell ids are not 0..n-1"
    flat = {k: np.concatenate(v) for k, v in serial.cell_data.items()}
    for gid, t, row, data in cells:
        assert t == want[gid][0] and row == want[gid][1].tolist(), f"cell {gid} differs: {t} {row} vs {want[gid]}"
        for k, v in flat.items():
            assert data[k] == v[gid], f"cell data {k} of cell {gid} differs"


def finish(result):
    if rank == 0:
        print("RESULT " + json.dumps(result), flush=True)


def main():
    mode, args = sys.argv[1], sys.argv[2:]
    ext = next((a.split("=", 1)[1] for a in args if a.startswith("ext=")), "pvtu")
    if mode == "write":
        folder, empty = args[0], "empty" in args
        serial = serial_mesh()
        ncells = sum(len(b.data) for b in serial.cells)
        parts = size - 1 if empty and size > 1 else size
        owners = np.array([c * parts // ncells for c in range(ncells)])
        local = my_part(serial, owners)
        mio.write(os.path.join(folder, "part." + ext), local, comm=comm)
        back = mio.read(os.path.join(folder, "part." + ext), comm=comm)
        if not empty and ext != "xdmf":  # pieces == ranks: each rank reads back its own piece (XDMF has no pieces)
            assert len(back.points) == len(local.points) and len(back.cells) == len(local.cells)
        whole = reassemble(back)
        if rank == 0:
            check_equal(whole, serial)
        counts = comm.gather([len(back.points), sum(len(b.data) for b in back.cells)], root=0)
        finish({"counts": counts, "global_num_cells": int(back.field_data["global_num_cells"][0]),
                "global_num_points": int(back.field_data["global_num_points"][0]),
                "num_partitions": int(back.field_data["num_partitions"][0]), "serial_cells": ncells,
                "serial_points": len(serial.points)})
    elif mode == "read":
        serial = serial_mesh()
        back = mio.read(os.path.join(args[0], "part." + ext), comm=comm)
        whole = reassemble(back)
        if rank == 0:
            check_equal(whole, serial)
        counts = comm.gather([len(back.points), sum(len(b.data) for b in back.cells)], root=0)
        finish({"counts": counts, "num_partitions": int(back.field_data["num_partitions"][0])})
    elif mode == "gmsh":
        local = mio.read(os.path.join(args[0], "g.msh"), comm=comm)
        owned = []  # this rank's non-ghost cells of the top dimension: element tags
        for b, block in enumerate(local.cells):
            if block.type in ("triangle", "tetra"):
                ghost = local.cell_data["vtkGhostType"][b]
                owned += (local.cell_data["global_cell_ids"][b][ghost == 0] + 1).tolist()
        ghosts = sum(int(np.count_nonzero(g)) for g in local.cell_data["vtkGhostType"])
        pid = local.point_data["global_point_ids"]
        pghost = local.point_data["vtkGhostType"]
        points = {int(i) + 1: local.points[k].tolist() for k, i in enumerate(pid) if pghost[k] == 0}
        cells = []
        for b, block in enumerate(local.cells):
            if block.type in ("triangle", "tetra"):
                ghost = local.cell_data["vtkGhostType"][b]
                gid = local.cell_data["global_cell_ids"][b]
                cells += [[int(gid[j]) + 1] + (pid[row] + 1).tolist() for j, row in enumerate(np.asarray(block.data))
                          if ghost[j] == 0]
        regions = sorted({(r.name, r.tag) for r in local.regions}) if hasattr(local, "regions") else []
        gathered = comm.gather({"owned": sorted(owned), "ghost_cells": ghosts, "points": points, "cells": cells,
                                "sets": sorted(local.cell_sets)}, root=0)
        finish({"ranks": gathered, "global_num_cells": int(local.field_data["global_num_cells"][0]),
                "num_partitions": int(local.field_data["num_partitions"][0]), "regions": [list(r) for r in regions]})
    elif mode == "fail":
        try:
            mio.read(args[0], comm=comm)
            message = None
        except mio.ReadError as e:
            message = str(e)
        finish({"messages": comm.gather(message, root=0)})
    elif mode == "device":
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import fake_cupy

        sys.modules["cupy"] = cp = fake_cupy.make(device_count=int(args[0]))
        sys.modules["cupyx"] = cp.cupyx
        mesh = mio.Mesh(np.zeros((3, 3)), [("triangle", np.array([[0, 1, 2]]))])
        picked = mio.to_cupy(mesh, comm=comm).device[1]
        from_env = mio.to_cupy(mesh).device[1]
        forced = mio.to_cupy(mesh, device=0, comm=comm).device[1]
        finish({"picked": comm.gather(picked, root=0), "from_env": comm.gather(from_env, root=0),
                "forced": comm.gather(forced, root=0), "current_after": cp.cuda.runtime.getDevice()})
    else:
        raise SystemExit(f"unknown mode {mode}")


if __name__ == "__main__":
    from mpi4py import MPI

    comm = MPI.COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()
    try:
        main()
    except BaseException:
        import traceback

        traceback.print_exc()
        sys.stdout.flush()
        comm.Abort(1)
