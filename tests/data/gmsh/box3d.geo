// 3-D box made of two volumes (meshio++ gmsh fixture); mesh with -order 2 for tetra10.
SetFactory("OpenCASCADE");
Box(1) = {0, 0, 0, 1, 1, 1};
Box(2) = {1, 0, 0, 1, 1, 1};
Coherence;
Mesh.MeshSizeMin = 0.5;
Mesh.MeshSizeMax = 0.5;
Physical Volume("left", 1) = {1};
Physical Volume("right", 2) = {2};
Physical Surface("bottom", 3) = Surface In BoundingBox{-0.1, -0.1, -0.1, 2.1, 1.1, 0.1};
