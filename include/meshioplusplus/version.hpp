// meshio++ core: the library's version, compiled in from CMake's project(VERSION), its one
// source (the Python package reads it from here too).
#pragma once

namespace meshioplusplus {

const char* version();

}  // namespace meshioplusplus
