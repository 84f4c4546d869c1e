// meshio++ core: version() (see version.hpp).
#include "meshioplusplus/version.hpp"

#ifndef MESHIOPP_VERSION
#error "MESHIOPP_VERSION must come from CMake's project(VERSION)"
#endif

namespace meshioplusplus {

const char* version() { return MESHIOPP_VERSION; }

}  // namespace meshioplusplus
