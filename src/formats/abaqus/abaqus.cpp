// meshio++ Abaqus: the format's registration value (reader in abaqus_read.cpp, writer in
// abaqus_write.cpp, element-type and face tables in abaqus_types.cpp).
#include "formats/abaqus/abaqus.hpp"

#include "formats/abaqus/abaqus_internal.hpp"

namespace meshioplusplus {

Format abaqus_format() { return Format{"abaqus", {".inp"}, &abaqus::read_abaqus, &abaqus::write_abaqus}; }

}  // namespace meshioplusplus
