// meshio++ core: error message shape shared by every reader and writer (see errors.hpp).
#include "meshioplusplus/errors.hpp"

namespace meshioplusplus {

std::string error_message(std::string_view format, std::string_view path, Position where,
                          std::string_view what) {
  std::string out;
  out.append(format);
  if (!path.empty()) out.append(": ").append(path);
  if (where.line >= 0) out.append(": line ").append(std::to_string(where.line));
  if (where.byte >= 0) {
    out.append(where.line >= 0 ? " (byte " : ": byte ").append(std::to_string(where.byte));
    if (where.line >= 0) out.append(")");
  }
  out.append(": ").append(what);
  return out;
}

ReadError read_error(std::string_view format, std::string_view path, std::string_view what, Position where) {
  return ReadError(error_message(format, path, where, what));
}

WriteError write_error(std::string_view format, std::string_view path, std::string_view what) {
  return WriteError(error_message(format, path, {}, what));
}

std::string expected_found(std::string_view expected, std::string_view found) {
  constexpr std::size_t kMaxShown = 40;
  std::string shown;
  for (char c : found.substr(0, kMaxShown)) {
    if (c == '\n') break;
    shown.push_back((c >= 32 && c < 127) ? c : '?');
  }
  std::string out = "expected ";
  out.append(expected);
  if (found.empty()) return out.append(", found end of file");
  out.append(", found '").append(shown);
  if (found.size() > kMaxShown && shown.size() == kMaxShown) out.append("...");
  return out.append("'");
}

}  // namespace meshioplusplus
