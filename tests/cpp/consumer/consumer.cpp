// A downstream program: builds a mesh, writes it with every writable format, reads it
// back through meshioplusplus::read, and exits non-zero if anything differs.
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
  int written = 0;
  for (const auto& format : mpp::formats()) {
    if (!format.write || !format.read || format.extensions.empty()) continue;
    const std::string path = std::string(argv[1]) + "/consumer" + format.extensions.front();
    mpp::write(path, mesh);
    mpp::Mesh back = mpp::read(path);
    if (back.num_points() != 4 || back.num_cells() != 1) {
      std::fprintf(stderr, "%s: round trip changed the mesh\n", format.name.c_str());
      return 1;
    }
    ++written;
  }
  std::printf("consumer: %zu formats registered, %d round-tripped\n", mpp::formats().size(), written);
  return 0;
}
