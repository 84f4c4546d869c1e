// Triangles and quads extruded in two layers: wedges and hexahedra (meshio++ gmsh fixture).
// Order 2 gives wedge18/hexahedron27, order 2 with Mesh.SecondOrderIncomplete=1 wedge15/hexahedron20.
SetFactory("Built-in");
Point(1) = {0, 0, 0, 0.5}; Point(2) = {1, 0, 0, 0.5}; Point(3) = {1, 1, 0, 0.5};
Point(4) = {0, 1, 0, 0.5}; Point(5) = {2, 0, 0, 0.5}; Point(6) = {2, 1, 0, 0.5};
Line(1) = {1, 2}; Line(2) = {2, 3}; Line(3) = {3, 4}; Line(4) = {4, 1};
Line(5) = {2, 5}; Line(6) = {5, 6}; Line(7) = {6, 3};
Curve Loop(1) = {1, 2, 3, 4}; Plane Surface(1) = {1};
Curve Loop(2) = {5, 6, 7, -2}; Plane Surface(2) = {2};
Transfinite Curve{5, 6, 7, 2} = 3; Transfinite Surface{2}; Recombine Surface{2};
out[] = Extrude {0, 0, 1} { Surface{1, 2}; Layers{2}; Recombine; };
Physical Volume("wedges", 1) = {out[1]};
Physical Volume("hexes", 2) = {out[7]};
Physical Surface("top", 3) = {out[0], out[6]};
Physical Surface(4) = {1, 2};
