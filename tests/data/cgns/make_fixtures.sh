#!/bin/sh
# Fixtures written by the real CGNS library (Debian cgns-convert 3.4.0-3):
#   hex_bc.cgns      one HEXA_8, 6 QUAD_4 faces in 3 sections, 3 BCs (PointRange, FaceCenter)
#   hexpyr.cgns      HEXA_8 + PYRA_5 + TRI_3/QUAD_4 faces (AFLR3's pyramid order: its
#                    triangles are not faces of the pyramid as CGNS numbers it, cgnscheck warns)
#   tetgen_cube.cgns 68 TETRA_4 and 96 TRI_3 in 6 sections (tetgen_to_cgns, from tests/data/tetgen)
#   hex_adf.cgns     hex_bc.cgns converted to the ADF flavour (cgnsconvert -a)
# and by h5py from the SIDS (make_fixtures.py): the layouts no Debian tool writes.
set -e
cd "$(dirname "$0")"
aflr3_to_cgns -f hex.ugrid hex_bc.cgns
aflr3_to_cgns -f hexpyr.ugrid hexpyr.cgns
cp ../tetgen/cube.1.node ../tetgen/cube.1.ele ../tetgen/cube.1.face /tmp/
tetgen_to_cgns /tmp/cube.1 tetgen_cube.cgns
cgnsconvert -a hex_bc.cgns unread/hex_adf.cgns
/usr/bin/python3 make_fixtures.py
