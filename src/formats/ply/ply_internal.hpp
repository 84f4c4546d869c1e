// meshio++ PLY: what the reader and writer share: the scalar type names of the header
// (http://paulbourke.net/dataformats/ply/, "char uchar short ushort int uint float double,
// or one of int8 uint8 int16 uint16 int32 uint32 float32 float64"; int64 and uint64 are
// meshio's extension) and the field_data keys that carry the header's comment lines.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "meshioplusplus/format.hpp"

namespace meshioplusplus::ply {

// "comment" and "obj_info" header lines, in file order, each line's text after the
// keyword, joined by '\n', as the UTF-8 bytes of a uint8 array.
inline constexpr const char* kCommentKey = "ply:comment";
inline constexpr const char* kObjInfoKey = "ply:obj_info";

inline std::optional<DType> type_from_name(std::string_view s) {
  if (s == "char" || s == "int8") return DType::int8;
  if (s == "uchar" || s == "uint8") return DType::uint8;
  if (s == "short" || s == "int16") return DType::int16;
  if (s == "ushort" || s == "uint16") return DType::uint16;
  if (s == "int" || s == "int32") return DType::int32;
  if (s == "uint" || s == "uint32") return DType::uint32;
  if (s == "float" || s == "float32") return DType::float32;
  if (s == "double" || s == "float64") return DType::float64;
  if (s == "int64") return DType::int64;
  if (s == "uint64") return DType::uint64;
  return std::nullopt;
}

// The names meshio's writer uses (VTK's PLY library reads all but int64/uint64): numpy's
// spelling but for the two float types.
inline std::string_view type_name(DType d) {
  if (d == DType::float32) return "float";
  if (d == DType::float64) return "double";
  return dtype_name(d);
}

Mesh read_ply(const std::string& path, const Options& options);
void write_ply(const std::string& path, const Mesh& mesh, const Options& options);

}  // namespace meshioplusplus::ply
