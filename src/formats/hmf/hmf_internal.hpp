// meshio++ HMF: declarations shared by the reader and the writer (see hmf.hpp). The layout
// meshio 5.0.0 writes (https://github.com/nschloe/meshio/blob/v5.0.0/src/meshio/hmf/_hmf.py):
//   /  attributes type = "hmf", version = "0.1-alpha" (variable-length strings, as h5py writes str)
//   /domain/grid/Geometry (n, dim) points, attribute GeometryType "X" / "XY" / "XYZ"
//   /domain/grid/Topology<k> (m, nodes) for cell block k, attribute TopologyType: XDMF's
//       topology name (the table of formats/xdmf, shared)
//   /domain/grid/NodeAttributes/<name>: point data
//   /domain/grid/CellAttributes/<name>: cell data, every block's rows one after the other
// Field data and sets are not held (meshio neither).
#pragma once

#include <string>

#include "meshioplusplus/format.hpp"
#include "meshioplusplus/mesh.hpp"

namespace meshioplusplus::hmf {

inline constexpr const char* kType = "hmf";
inline constexpr const char* kVersion = "0.1-alpha";

Mesh read_hmf(const std::string& path, const Options& options);
void write_hmf(const std::string& path, const Mesh& mesh, const Options& options);

}  // namespace meshioplusplus::hmf
