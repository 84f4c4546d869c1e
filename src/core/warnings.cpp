// meshio++ core: the per-thread warning list (see include/meshioplusplus/warnings.hpp).
#include "meshioplusplus/warnings.hpp"

#include <utility>

namespace meshioplusplus {

namespace {
thread_local std::vector<std::string> t_warnings;
}

void warn(std::string message) { t_warnings.push_back(std::move(message)); }

std::vector<std::string> take_warnings() {
  std::vector<std::string> out;
  out.swap(t_warnings);
  return out;
}

}  // namespace meshioplusplus
