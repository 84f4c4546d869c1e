// meshio++ core I/O: the one lock around the C libraries that are not thread-safe.
//
// The serial HDF5 library and netCDF-C (which calls HDF5 for netCDF-4 files) keep global
// state and may not be entered from two threads at once. Every format built on them holds
// this lock for the whole of a read or a write, so Python threads (the binding releases the
// GIL while parsing) and C++ callers can read and write such files concurrently and safely.
#pragma once

#include <mutex>

namespace meshioplusplus::io {

inline std::recursive_mutex& hdf5_netcdf_mutex() {
  static std::recursive_mutex m;
  return m;
}

}  // namespace meshioplusplus::io
