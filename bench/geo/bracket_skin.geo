// meshio++ benchmark part: the bracket's skin alone, meshed finely with triangles (gmsh -2)
// as the surface mesh of the PLY / OBJ rows (~1.3M triangles at Mesh.MeshSizeMax 0.2).
Include "bracket.geo";
Mesh.MeshSizeMax = 0.2;
