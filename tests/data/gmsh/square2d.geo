// 2-D plate, mixed triangles and quads, several physical groups (meshio++ gmsh fixture).
SetFactory("Built-in");
lc = 0.5;
Point(1) = {0, 0, 0, lc}; Point(2) = {2, 0, 0, lc}; Point(3) = {2, 1, 0, lc};
Point(4) = {0, 1, 0, lc}; Point(5) = {3, 0, 0, lc}; Point(6) = {3, 1, 0, lc};
Line(1) = {1, 2}; Line(2) = {2, 3}; Line(3) = {3, 4}; Line(4) = {4, 1};
Line(5) = {2, 5}; Line(6) = {5, 6}; Line(7) = {6, 3};
Curve Loop(1) = {1, 2, 3, 4}; Plane Surface(1) = {1};
Curve Loop(2) = {5, 6, 7, -2}; Plane Surface(2) = {2};
Transfinite Surface{2}; Recombine Surface{2};
Physical Curve("left", 11) = {4};
Physical Curve("right", 12) = {6};
Physical Curve(13) = {1, 5};
Physical Surface("tri", 21) = {1};
Physical Surface("quads", 22) = {2};
Physical Surface("all", 23) = {1, 2};
Physical Point("corner", 1) = {1};
