// meshio++ UGRID: the format's registration value and the variant chosen by the name
// (reader in ugrid_read.cpp, writer in ugrid_write.cpp). User documentation:
// docs/formats/ugrid.md.
// Spec: https://www.simcenter.msstate.edu/software/documentation/ug_io/3d_grid_file_type_ugrid.html
#include "formats/ugrid/ugrid.hpp"

#include "formats/ugrid/ugrid_internal.hpp"

namespace meshioplusplus {

namespace ugrid {

const Variant& variant_of(std::string_view path) {
  const std::size_t last = path.rfind('.');
  if (last != std::string_view::npos && last > 0) {
    const std::size_t prev = path.rfind('.', last - 1);
    if (prev != std::string_view::npos) {
      const std::string_view suffix = path.substr(prev + 1, last - prev - 1);
      for (const auto& v : kVariants)
        if (!v.suffix.empty() && v.suffix == suffix) return v;
    }
  }
  return kVariants[0];
}

}  // namespace ugrid

Format ugrid_format() { return Format{"ugrid", {".ugrid"}, &ugrid::read_ugrid, &ugrid::write_ugrid}; }

}  // namespace meshioplusplus
