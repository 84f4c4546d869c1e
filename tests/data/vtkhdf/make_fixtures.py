"""Makes the VTKHDF fixtures of this folder with h5py (Debian python3-h5py 3.7, HDF5 1.10.8),
laid out as VTK's own test data (can-pvtu.hdf): Version [1, 0] int64, no Type attribute,
chunked datasets with an unlimited first axis.

    /usr/bin/python3 tests/data/vtkhdf/make_fixtures.py
"""
from pathlib import Path

import h5py
import numpy as np

HERE = Path(__file__).resolve().parent


def write(path, parts, chunked):
    kw = dict(chunks=True) if chunked else {}
    with h5py.File(path, "w") as f:
        g = f.create_group("VTKHDF")
        g.attrs["Version"] = np.array([1, 0], dtype=np.int64)

        def put(name, arrays):
            a = np.concatenate(arrays)
            if chunked:
                g.create_dataset(name, data=a, maxshape=(None,) + a.shape[1:], **kw)
            else:
                g.create_dataset(name, data=a)

        g["NumberOfPoints"] = np.array([len(p["points"]) for p in parts], dtype=np.int64)
        g["NumberOfCells"] = np.array([len(p["types"]) for p in parts], dtype=np.int64)
        g["NumberOfConnectivityIds"] = np.array([len(p["conn"]) for p in parts], dtype=np.int64)
        put("Points", [p["points"] for p in parts])
        put("Offsets", [np.asarray(p["offsets"], dtype=np.int64) for p in parts])
        put("Connectivity", [np.asarray(p["conn"], dtype=np.int64) for p in parts])
        put("Types", [np.asarray(p["types"], dtype=np.uint8) for p in parts])
        put("PointData/T", [p["points"][:, 0] * 2.0 for p in parts])
        put("PointData/V", [p["points"][:, ::-1].astype(np.float32) for p in parts])
        put("CellData/id", [np.arange(len(p["types"]), dtype=np.int32) for p in parts])
        g.create_group("FieldData")["KE"] = np.array([1.0, 2.5])


square = np.array([[0.0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0.5, 0.5, 1]])
p0 = dict(points=square, offsets=[0, 3, 6, 10], conn=[0, 1, 2, 0, 2, 3, 0, 1, 2, 4], types=[5, 5, 10])
p1 = dict(points=square + [2, 0, 0], offsets=[0, 4, 6], conn=[0, 1, 2, 3, 3, 4], types=[9, 3])
write(HERE / "two_partitions_chunked.hdf", [p0, p1], chunked=True)
write(HERE / "one_partition.vtkhdf", [p0], chunked=False)
