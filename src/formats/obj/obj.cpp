// meshio++ Wavefront OBJ: the format's registration value (reader in obj_read.cpp, writer
// in obj_write.cpp). User documentation: docs/formats/obj.md.
#include "formats/obj/obj.hpp"

#include "formats/obj/obj_internal.hpp"

namespace meshioplusplus {

Format obj_format() { return Format{"obj", {".obj"}, &obj::read_obj, &obj::write_obj}; }

}  // namespace meshioplusplus
