// meshio++ benchmark surface: the bracket's skin (bracket.geo) meshed with triangles only
// (gmsh -2), finely enough for about 1.3M triangles, for the surface formats (STL, OFF, PLY, OBJ).
Include "bracket.geo";
Mesh.MeshSizeMax = 0.2;
