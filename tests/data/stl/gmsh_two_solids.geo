// Source of gmsh_two_solids.stl: gmsh -2 gmsh_two_solids.geo -clscale 8 -o gmsh_two_solids.stl
SetFactory("OpenCASCADE");
Box(1) = {0, 0, 0, 1, 2, 0.5};
Physical Surface("bottom") = {5};
Physical Surface("sides") = {1, 2, 3, 4, 6};
Mesh.MeshSizeMax = 1.5;
Mesh.StlOneSolidPerSurface = 2;
