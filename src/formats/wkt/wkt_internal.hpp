// meshio++ WKT: what the registration, the reader and the writer share.
// Spec: https://www.ogc.org/standard/sfa/ (OGC 06-103r4, section 7)
#pragma once

#include <string>

#include "meshioplusplus/format.hpp"

namespace meshioplusplus::wkt {

Mesh read_wkt(const std::string& path, const Options& options);
void write_wkt(const std::string& path, const Mesh& mesh, const Options& options);

}  // namespace meshioplusplus::wkt
