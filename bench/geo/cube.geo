// Benchmark input: the unit cube, about 1M linear tetrahedra (gmsh 4.8.4, Debian 12).
// Made by bench/run.py: gmsh -3 cube.geo -o cube.msh -format msh41
SetFactory("OpenCASCADE");
Box(1) = {0, 0, 0, 1, 1, 1};
Physical Volume("solid", 1) = {1};
Physical Surface("skin", 2) = {1, 2, 3, 4, 5, 6};
Mesh.CharacteristicLengthMin = 0.0175;
Mesh.CharacteristicLengthMax = 0.0175;
Mesh.Algorithm3D = 10;  // HXT: parallel and fast
