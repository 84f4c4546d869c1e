// Periodic square (meshio++ gmsh fixture): right edge periodic with the left one.
SetFactory("Built-in");
lc = 0.4;
Point(1) = {0, 0, 0, lc}; Point(2) = {1, 0, 0, lc}; Point(3) = {1, 1, 0, lc}; Point(4) = {0, 1, 0, lc};
Line(1) = {1, 2}; Line(2) = {2, 3}; Line(3) = {3, 4}; Line(4) = {4, 1};
Curve Loop(1) = {1, 2, 3, 4}; Plane Surface(1) = {1};
Periodic Curve {2} = {-4} Translate {1, 0, 0};
Physical Surface("domain", 1) = {1};
Physical Curve("sides", 2) = {2, 4};
