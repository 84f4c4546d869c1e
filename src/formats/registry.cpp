// meshio++ formats: the registry. One line per format; each format folder exposes
// `Format <name>_format()` from its own header.
#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

const std::vector<Format>& formats() {
  static const std::vector<Format> all = {
  };
  return all;
}

}  // namespace meshioplusplus
