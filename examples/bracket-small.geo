// meshio++ example: a coarse version of bench/geo/bracket.geo, an L-shaped bracket with
// bolt holes (OpenCASCADE), first-order tetrahedra, physical groups "bracket" and "skin".
SetFactory("OpenCASCADE");
Box(1) = {0, 0, 0, 100, 60, 10};
Box(2) = {0, 0, 0, 10, 60, 60};
v() = BooleanUnion{ Volume{1}; Delete; }{ Volume{2}; Delete; };
Cylinder(10) = {30, 20, -1, 0, 0, 12, 6};
Cylinder(11) = {70, 20, -1, 0, 0, 12, 6};
Cylinder(12) = {70, 40, -1, 0, 0, 12, 6};
Cylinder(13) = {-1, 30, 40, 12, 0, 0, 8};
b() = BooleanDifference{ Volume{v()}; Delete; }{ Volume{10, 11, 12, 13}; Delete; };
Physical Volume("bracket", 1) = {b()};
Physical Surface("skin", 2) = Surface{:};
Mesh.MeshSizeMax = 8;
