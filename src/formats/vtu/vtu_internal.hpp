// meshio++ VTU: the reader and writer entry points (vtu_read.cpp, vtu_write.cpp).
#pragma once

#include <string>

#include "meshioplusplus/format.hpp"

namespace meshioplusplus::vtu {

Mesh read_vtu(const std::string& path, const Options& options);
void write_vtu(const std::string& path, const Mesh& mesh, const Options& options);

}  // namespace meshioplusplus::vtu
