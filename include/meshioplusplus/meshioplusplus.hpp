// meshio++: the one header a C++ user includes. `meshioplusplus::read(path)` returns a Mesh;
// `meshioplusplus::write(path, mesh)` writes one (format from the extension, or named).
#pragma once

#include "meshioplusplus/cell_types.hpp"
#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/format.hpp"
#include "meshioplusplus/mesh.hpp"
#include "meshioplusplus/mesh_ops.hpp"
#include "meshioplusplus/ndarray.hpp"
#include "meshioplusplus/version.hpp"
#include "meshioplusplus/warnings.hpp"
