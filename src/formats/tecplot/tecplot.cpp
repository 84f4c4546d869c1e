// meshio++ Tecplot ASCII: the format's registration value (reader in tecplot_read.cpp,
// writer in tecplot_write.cpp). User documentation: docs/formats/tecplot.md.
#include "formats/tecplot/tecplot.hpp"

#include "formats/tecplot/tecplot_internal.hpp"

namespace meshioplusplus {

Format tecplot_format() { return Format{"tecplot", {".dat", ".tec"}, &tecplot::read_tecplot, &tecplot::write_tecplot}; }

}  // namespace meshioplusplus
