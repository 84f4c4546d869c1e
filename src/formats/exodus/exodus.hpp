// meshio++ Exodus II (.e, .exo, .ex2): reader and writer on netCDF-C (classic, 64-bit
// offset and netCDF-4 files). Spec: the Exodus II data model and its netCDF mapping,
// https://sandialabs.github.io/seacas-docs/exodusII-new.pdf (Appendix "Implementation of
// EXODUS II with netCDF"). Built without netCDF-C the format is still registered, and a
// read or write throws an error naming the Debian package that enables it.
#pragma once

#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

Format exodus_format();

// Whether this build has netCDF-C (so Exodus files can be read and written).
bool exodus_available();

}  // namespace meshioplusplus
