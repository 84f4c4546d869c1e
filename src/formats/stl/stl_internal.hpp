// meshio++ STL: what the registration, the reader and the writer share.
// Spec: https://en.wikipedia.org/wiki/STL_(file_format)
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "meshioplusplus/format.hpp"

namespace meshioplusplus::stl {

// A binary STL is an 80-byte header, a uint32 triangle count, then 50 bytes per triangle
// (normal and three corners as 12 float32, a uint16 "attribute byte count").
constexpr std::uint64_t kHeaderBytes = 84;
constexpr std::uint64_t kTriangleBytes = 50;

// The triangle count of a binary STL of `file_size` bytes whose header declares
// `declared`, or nullopt when the size does not fit a binary STL with that count. The size
// decides (a binary header may begin with "solid", as many exporters write): the count is
// (size - 84) / 50 when that division is exact and 84 + 50 * declared equals the size
// modulo 2^32. All arithmetic is 64-bit, so a file over 4 GiB whose count is right reads
// (readers that compute 84 + 50 * count in 32 bits reject it); a file whose 32-bit count
// or size field has wrapped is still recognised by its size.
std::optional<std::uint64_t> binary_triangle_count(std::uint64_t file_size, std::uint32_t declared);

Mesh read_stl(const std::string& path, const Options& options);
void write_stl(const std::string& path, const Mesh& mesh, const Options& options);

}  // namespace meshioplusplus::stl
