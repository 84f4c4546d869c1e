// meshio++ benchmark surface: the bracket's skin (bracket.geo) meshed with triangles only
// (gmsh -2), finely enough for about 1.1M triangles, for the surface formats (STL, OFF).
Include "bracket.geo";
Mesh.MeshSizeMax = 0.22;
