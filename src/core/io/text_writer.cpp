// meshio++ core I/O: FloatFormat parsing (see text_writer.hpp).
#include "core/io/text_writer.hpp"

#include <stdexcept>

namespace meshioplusplus::io {

FloatFormat FloatFormat::parse(std::string_view spec) {
  FloatFormat f;
  if (spec.empty()) return f;
  std::string_view s = spec;
  if (s.front() == '.') {
    s.remove_prefix(1);
    auto r = std::from_chars(s.data(), s.data() + s.size(), f.precision);
    if (r.ec != std::errc{} || f.precision < 0 || f.precision > 60)
      throw std::invalid_argument("float_fmt '" + std::string(spec) + "': expected a precision after '.'");
    s.remove_prefix(static_cast<std::size_t>(r.ptr - s.data()));
  } else {
    f.precision = 6;
  }
  if (s.size() != 1) throw std::invalid_argument("float_fmt '" + std::string(spec) + "': expected [.P](e|f|g)");
  switch (s.front()) {
    case 'e': case 'E': f.style = std::chars_format::scientific; break;
    case 'f': case 'F': f.style = std::chars_format::fixed; break;
    case 'g': case 'G': f.style = std::chars_format::general; break;
    default: throw std::invalid_argument("float_fmt '" + std::string(spec) + "': expected e, f or g");
  }
  f.shortest = false;
  return f;
}

char* TextWriter::fit(char* out, std::size_t size, double v, int width) {
  for (int p = width; p > 0; --p) {
    auto r = std::to_chars(out, out + size, v, std::chars_format::scientific, p - 1);
    if (r.ptr - out <= width) return r.ptr;
  }
  return std::to_chars(out, out + size, v, std::chars_format::scientific, 0).ptr;
}

}  // namespace meshioplusplus::io
