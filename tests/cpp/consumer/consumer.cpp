// A downstream program: builds a mesh (a tetrahedron, or a triangle for the surface formats
// that refuse or skip volume cells, as meshio's writers do), writes it with every
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
  int written = 0;
  for (const auto& format : mpp::formats()) {
    if (!format.write || !format.read || format.extensions.empty()) continue;
    const std::string path = std::string(argv[1]) + "/consumer" + format.extensions.front();
    bool refused_volume = false;
    try {
      mpp::write(path, mesh);
    } catch (const mpp::WriteError&) {  // OBJ and STL refuse volume cells, as meshio's do
      refused_volume = true;
    }
    mpp::take_warnings();
    mpp::Mesh back = refused_volume ? mpp::Mesh{} : mpp::read(path);
    if (back.num_cells() == 0) {
      mpp::write(path, surface);
      mpp::take_warnings();
      back = mpp::read(path);
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
