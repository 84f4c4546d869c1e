// meshio++ SVG: what the registration and the writer share.
// Spec: https://www.w3.org/TR/SVG11/paths.html
#pragma once

#include <string>

#include "meshioplusplus/format.hpp"

namespace meshioplusplus::svg {

void write_svg(const std::string& path, const Mesh& mesh, const Options& options);

}  // namespace meshioplusplus::svg
