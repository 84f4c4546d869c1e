// meshio++ Exodus II: a thin, checked layer over netCDF-C shared by the reader and writer
// (typed reads and writes for every NDArray dtype, dtype <-> netCDF type, error text).
// netCDF-C API: https://docs.unidata.ucar.edu/netcdf-c/current/
#pragma once

#include <netcdf.h>

#include <cstddef>
#include <optional>
#include <string>

#include "meshioplusplus/ndarray.hpp"

namespace meshioplusplus::exodus::nc {

// The NDArray dtype of a numeric netCDF type; nullopt for text, strings and user types.
inline std::optional<DType> dtype_of_nc(nc_type t) {
  switch (t) {
    case NC_BYTE: return DType::int8;
    case NC_UBYTE: return DType::uint8;
    case NC_SHORT: return DType::int16;
    case NC_USHORT: return DType::uint16;
    case NC_INT: return DType::int32;
    case NC_UINT: return DType::uint32;
    case NC_INT64: return DType::int64;
    case NC_UINT64: return DType::uint64;
    case NC_FLOAT: return DType::float32;
    case NC_DOUBLE: return DType::float64;
    default: return std::nullopt;
  }
}

// nc_get_vara_<type> / nc_put_vara_<type> for the C++ type of `dtype`: netCDF converts
// between the file's type and the memory type as it copies (NC_ERANGE when a value does
// not fit).
inline int get_vara(int ncid, int varid, const std::size_t* start, const std::size_t* count, DType dtype,
                    void* out) {
  return visit_dtype(dtype, [&](auto tag) -> int {
    using T = decltype(tag);
    T* p = static_cast<T*>(out);
    if constexpr (std::is_same_v<T, double>) return nc_get_vara_double(ncid, varid, start, count, p);
    else if constexpr (std::is_same_v<T, float>) return nc_get_vara_float(ncid, varid, start, count, p);
    else if constexpr (std::is_same_v<T, std::int64_t>)
      return nc_get_vara_longlong(ncid, varid, start, count, reinterpret_cast<long long*>(p));
    else if constexpr (std::is_same_v<T, std::uint64_t>)
      return nc_get_vara_ulonglong(ncid, varid, start, count, reinterpret_cast<unsigned long long*>(p));
    else if constexpr (std::is_same_v<T, std::int32_t>) return nc_get_vara_int(ncid, varid, start, count, p);
    else if constexpr (std::is_same_v<T, std::uint32_t>) return nc_get_vara_uint(ncid, varid, start, count, p);
    else if constexpr (std::is_same_v<T, std::int16_t>) return nc_get_vara_short(ncid, varid, start, count, p);
    else if constexpr (std::is_same_v<T, std::uint16_t>) return nc_get_vara_ushort(ncid, varid, start, count, p);
    else if constexpr (std::is_same_v<T, std::int8_t>)
      return nc_get_vara_schar(ncid, varid, start, count, reinterpret_cast<signed char*>(p));
    else return nc_get_vara_uchar(ncid, varid, start, count, reinterpret_cast<unsigned char*>(p));
  });
}

inline int put_vara(int ncid, int varid, const std::size_t* start, const std::size_t* count, DType dtype,
                    const void* in) {
  return visit_dtype(dtype, [&](auto tag) -> int {
    using T = decltype(tag);
    const T* p = static_cast<const T*>(in);
    if constexpr (std::is_same_v<T, double>) return nc_put_vara_double(ncid, varid, start, count, p);
    else if constexpr (std::is_same_v<T, float>) return nc_put_vara_float(ncid, varid, start, count, p);
    else if constexpr (std::is_same_v<T, std::int64_t>)
      return nc_put_vara_longlong(ncid, varid, start, count, reinterpret_cast<const long long*>(p));
    else if constexpr (std::is_same_v<T, std::uint64_t>)
      return nc_put_vara_ulonglong(ncid, varid, start, count, reinterpret_cast<const unsigned long long*>(p));
    else if constexpr (std::is_same_v<T, std::int32_t>) return nc_put_vara_int(ncid, varid, start, count, p);
    else if constexpr (std::is_same_v<T, std::uint32_t>) return nc_put_vara_uint(ncid, varid, start, count, p);
    else if constexpr (std::is_same_v<T, std::int16_t>) return nc_put_vara_short(ncid, varid, start, count, p);
    else if constexpr (std::is_same_v<T, std::uint16_t>) return nc_put_vara_ushort(ncid, varid, start, count, p);
    else if constexpr (std::is_same_v<T, std::int8_t>)
      return nc_put_vara_schar(ncid, varid, start, count, reinterpret_cast<const signed char*>(p));
    else return nc_put_vara_uchar(ncid, varid, start, count, reinterpret_cast<const unsigned char*>(p));
  });
}

}  // namespace meshioplusplus::exodus::nc
