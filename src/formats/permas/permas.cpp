// meshio++ PERMAS: the format's registration value (reader in permas_read.cpp, writer in
// permas_write.cpp, the element table in permas_types.cpp). User documentation:
// docs/formats/permas.md.
#include "formats/permas/permas.hpp"

#include "formats/permas/permas_internal.hpp"

namespace meshioplusplus {

Format permas_format() {
  return Format{"permas", {".post", ".post.gz", ".dato", ".dato.gz"}, &permas::read_permas, &permas::write_permas};
}

}  // namespace meshioplusplus
