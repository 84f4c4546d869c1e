// meshio++ Tecplot ASCII (.dat, .tec, finite-element zones): reader and writer.
// Spec: https://github.com/su2code/SU2/raw/master/externals/tecio/360_data_format_guide.pdf (Tecplot 360 Data Format Guide, chapter 4 "ASCII Data")
#pragma once

#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

Format tecplot_format();

}  // namespace meshioplusplus
