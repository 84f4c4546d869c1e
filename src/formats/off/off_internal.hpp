// meshio++ OFF: what the registration, the reader and the writer share.
// Spec: http://www.geomview.org/docs/html/OFF.html
#pragma once

#include <string>

#include "meshioplusplus/format.hpp"

namespace meshioplusplus::off {

// Data names (meshio's OFF reader keeps none of these; they are ours).
inline constexpr const char* kVertexColors = "vertex_colors";        // COFF: (n, 4) RGBA
inline constexpr const char* kVertexNormals = "vertex_normals";      // NOFF: (n, 3)
inline constexpr const char* kVertexTexture = "vertex_texture_coordinates";  // STOFF: (n, 2)
inline constexpr const char* kFaceColors = "face_colors";            // per-face colour columns

Mesh read_off(const std::string& path, const Options& options);
void write_off(const std::string& path, const Mesh& mesh, const Options& options);

}  // namespace meshioplusplus::off
