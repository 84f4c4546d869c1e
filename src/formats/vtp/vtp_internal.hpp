// meshio++ VTP: the reader and writer entry points (vtp_read.cpp, vtp_write.cpp).
#pragma once

#include <string>

#include "meshioplusplus/format.hpp"

namespace meshioplusplus::vtp {

Mesh read_vtp(const std::string& path, const Options& options);
void write_vtp(const std::string& path, const Mesh& mesh, const Options& options);

}  // namespace meshioplusplus::vtp
