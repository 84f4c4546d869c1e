// meshio++ Exodus II: the format's registration value (reader in exodus_read.cpp, writer in
// exodus_write.cpp, element table in exodus_cells.cpp). User documentation:
// docs/formats/exodus.md. Spec: https://sandialabs.github.io/seacas-docs/exodusII-new.pdf
#include "formats/exodus/exodus.hpp"

#include "formats/exodus/exodus_internal.hpp"
#include "meshioplusplus/errors.hpp"

namespace meshioplusplus {

#ifdef MESHIOPP_HAVE_NETCDF

bool exodus_available() { return true; }

Format exodus_format() {
  return Format{"exodus", {".e", ".exo", ".ex2"}, &exodus::read_exodus, &exodus::write_exodus};
}

#else

namespace {
constexpr const char* kMissing =
    "this build of meshio++ has no netCDF-C; install the Debian package libnetcdf-dev and rebuild "
    "to read and write Exodus II files";

Mesh read_unavailable(const std::string& path, const Options&) {
  throw ReadError(error_message("exodus", path, {}, kMissing));
}
void write_unavailable(const std::string& path, const Mesh&, const Options&) {
  throw WriteError(error_message("exodus", path, {}, kMissing));
}
}  // namespace

bool exodus_available() { return false; }

Format exodus_format() {
  return Format{"exodus", {".e", ".exo", ".ex2"}, &read_unavailable, &write_unavailable};
}

#endif

}  // namespace meshioplusplus
