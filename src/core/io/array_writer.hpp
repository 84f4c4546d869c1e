// meshio++ core I/O: the one way writers emit an array's values, as text or as binary.
//
// write_ascii() prints every dtype (float32 as the shortest float32 string, 8-bit integers
// as numbers, not characters) with a separator between values and a line break after every
// `per_line` values. write_binary() emits the raw values in the requested byte order,
// swapping through a bounded scratch buffer so the caller's array is never modified.
// Formats choose the dtype (NDArray::as_dtype) and the framing; these only emit values.
#pragma once

#include <cstddef>
#include <string_view>

#include "core/io/text_writer.hpp"
#include "meshioplusplus/ndarray.hpp"

namespace meshioplusplus::io {

struct AsciiLayout {
  std::size_t per_line = 0;           // values per line; 0 = one array row per line
  std::string_view separator = " ";   // between values on a line
  bool final_newline = true;          // a line break after the last value
};

// Every value of `a` (row-major) as text.
void write_ascii(TextWriter& w, const NDArray& a, const FloatFormat& ff, const AsciiLayout& layout = {});

// Every value of `a` (row-major) as raw bytes in the given byte order.
void write_binary(TextWriter& w, const NDArray& a, bool little_endian);

}  // namespace meshioplusplus::io
