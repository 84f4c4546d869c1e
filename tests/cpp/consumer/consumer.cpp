// A downstream program: builds a mesh (a tetrahedron, or a triangle for the surface formats
// that refuse or skip volume cells, as meshio's writers do, or a one-hexahedron grid for the
// structured ones), writes it with every
// writable format, reads it back through meshioplusplus::read, and exits non-zero if the
// points or the cells it kept differ.
#include <meshioplusplus/meshioplusplus.hpp>

#include <cstdio>
#include <string>

namespace mpp = meshioplusplus;

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  mpp::Mesh mesh;
  mesh.points = mpp::NDArray::from_vector<double>({0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1}, {4, 3});
  mesh.cells.push_back(mpp::CellBlock::rectangular("tetra", mpp::NDArray::from_vector<std::int64_t>({0, 1, 2, 3}, {1, 4})));
  mesh.validate();
  mpp::Mesh surface;
  surface.points = mesh.points;
  surface.cells.push_back(mpp::CellBlock::rectangular("triangle", mpp::NDArray::from_vector<std::int64_t>({0, 1, 2}, {1, 3})));
  // The structured VTK formats (vts, vtr, vti) write a logical grid only: one hexahedron.
  mpp::Mesh grid;
  grid.points = mpp::NDArray::from_vector<double>({0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1}, {8, 3});
  grid.cells.push_back(
      mpp::CellBlock::rectangular("hexahedron", mpp::NDArray::from_vector<std::int64_t>({0, 1, 3, 2, 4, 5, 7, 6}, {1, 8})));
  int written = 0;
  for (const auto& format : mpp::formats()) {
    if (!format.write || !format.read || format.extensions.empty()) continue;
    const std::string path = std::string(argv[1]) + "/consumer" + format.extensions.front();
    mpp::Mesh back;
    for (const mpp::Mesh* candidate : {&mesh, &surface, &grid}) {
      try {
        mpp::write(path, *candidate);
      } catch (const mpp::WriteError&) {  // OBJ and STL refuse volume cells, as meshio's do
        continue;
      }
      mpp::take_warnings();
      back = mpp::read(path);
      if (back.num_cells() > 0) break;  // formats that skip what they cannot hold
    }
    if (back.num_points() < 3 || back.num_cells() != 1) {
      std::fprintf(stderr, "%s: round trip changed the mesh\n", format.name.c_str());
      return 1;
    }
    ++written;
  }
  std::printf("consumer: %zu formats registered, %d round-tripped\n", mpp::formats().size(), written);
  return 0;
}
