// meshio++ TetGen: the format's registration value (reader in tetgen_read.cpp, writer in
// tetgen_write.cpp). User documentation: docs/formats/tetgen.md.
// Spec: https://wias-berlin.de/software/tetgen/fformats.html
#include "formats/tetgen/tetgen.hpp"

#include "formats/tetgen/tetgen_internal.hpp"

namespace meshioplusplus {

namespace tetgen {

std::string base_name(const std::string& path) {
  for (const std::string ext : {".node", ".ele"})
    if (path.size() > ext.size() && path.ends_with(ext)) return path.substr(0, path.size() - ext.size());
  return "";
}

std::string attr_name(std::size_t k) { return "tetgen:attr" + std::to_string(k + 1); }
std::string ref_name(std::size_t k) { return k == 0 ? "tetgen:ref" : "tetgen:ref" + std::to_string(k + 1); }

}  // namespace tetgen

Format tetgen_format() { return Format{"tetgen", {".node", ".ele"}, &tetgen::read_tetgen, &tetgen::write_tetgen}; }

}  // namespace meshioplusplus
