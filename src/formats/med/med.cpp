// meshio++ MED: the format's registration value (reader in med_read.cpp, writer in
// med_write.cpp, the cell-type table and the family name tables in med_common.cpp).
// Spec: https://docs.salome-platform.org/latest/dev/MEDCoupling/developer/med-file.html
#include "formats/med/med.hpp"

#include "formats/med/med_internal.hpp"

namespace meshioplusplus {

Format med_format() { return Format{"med", {".med"}, &med::read_med, &med::write_med}; }

}  // namespace meshioplusplus
