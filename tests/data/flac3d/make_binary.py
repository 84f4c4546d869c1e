"""Writes binary_with_faces.f3grid: meshio's binary layout (little-endian; see
src/formats/flac3d/flac3d_read.cpp), spelled out field by field. Run: python3 make_binary.py"""
import struct

out = [struct.pack("<2I", 1375135718, 3)]
gps = {1: (0, 0, 0), 2: (1, 0, 0), 3: (0, 1, 0), 4: (1, 1, 0), 5: (0, 0, 1), 6: (1, 0, 1), 7: (0, 1, 1), 8: (1, 1, 1), 9: (0.5, 0.5, 2)}
out.append(struct.pack("<I", len(gps)))
for gid, xyz in gps.items():
    out.append(struct.pack("<I3d", gid, *xyz))
zones = [(10, [1, 2, 3, 5, 4, 7, 6, 8]), (11, [5, 6, 7, 9])]  # a B8 and a T4, FLAC3D node order
out.append(struct.pack("<I", len(zones)))
for zid, nodes in zones:
    out.append(struct.pack(f"<2I{len(nodes)}I", zid, len(nodes), *nodes))


def group(name, slot, ids):
    return struct.pack(f"<H{len(name)}sH{len(slot)}sI{len(ids)}I", len(name), name.encode(), len(slot), slot.encode(), len(ids), *ids)


out.append(struct.pack("<I", 1) + group("all", "Default", [10, 11]))
faces = [(5, [5, 6, 9]), (6, [1, 2, 6, 5])]  # a T3 and a Q4
out.append(struct.pack("<I", len(faces)))
for fid, nodes in faces:
    out.append(struct.pack(f"<2I{len(nodes)}I", fid, len(nodes), *nodes))
out.append(struct.pack("<I", 1) + group("bottom", "bc", [6]))
with open("binary_with_faces.f3grid", "wb") as f:
    f.write(b"".join(out))
