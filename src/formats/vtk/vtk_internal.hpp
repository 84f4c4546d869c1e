// meshio++ legacy VTK: the reader and writer entry points (vtk_read.cpp, vtk_write.cpp).
#pragma once

#include <string>

#include "meshioplusplus/format.hpp"

namespace meshioplusplus::vtk {

Mesh read_vtk(const std::string& path, const Options& options);
void write_vtk(const std::string& path, const Mesh& mesh, const Options& options);

}  // namespace meshioplusplus::vtk
