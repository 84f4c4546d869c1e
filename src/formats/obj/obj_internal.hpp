// meshio++ Wavefront OBJ: the reader and writer entry points and the data names they share
// (meshio's: "obj:vt" texture coordinates, "obj:vn" normals, "obj:group_ids").
// Spec: https://paulbourke.net/dataformats/obj/
#pragma once

#include <string>

#include "meshioplusplus/format.hpp"

namespace meshioplusplus::obj {

inline constexpr const char* kTexCoords = "obj:vt";
inline constexpr const char* kNormals = "obj:vn";
inline constexpr const char* kGroupIds = "obj:group_ids";

Mesh read_obj(const std::string& path, const Options& options);
void write_obj(const std::string& path, const Mesh& mesh, const Options& options);

}  // namespace meshioplusplus::obj
