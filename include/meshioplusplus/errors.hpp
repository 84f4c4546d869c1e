// meshio++ core: the two exceptions a reader or writer may throw.
//
// A reader either returns a Mesh or throws ReadError; a writer either writes the whole
// file (atomically) or throws WriteError. Messages name the format, the file, the position
// (line or byte offset) and what was expected vs found. error_message() is the one shape;
// read_error() / write_error() are the one way every reader, writer, file mapping and
// atomic file builds its exception, so no message can leave out the file. Bad arguments
// (options a format does not know) are std::invalid_argument.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace meshioplusplus {

struct ReadError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct WriteError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Where in a file something happened: a 1-based line, a 0-based byte offset, or both.
struct Position {
  std::int64_t line = -1;
  std::int64_t byte = -1;
};

// "<format>: <path>: line 12 (byte 345): <what>" (the position parts when known)
std::string error_message(std::string_view format, std::string_view path, Position where,
                          std::string_view what);

// The exceptions, built from error_message(): `throw write_error("gmsh", path, "...")`.
ReadError read_error(std::string_view format, std::string_view path, std::string_view what, Position where = {});
WriteError write_error(std::string_view format, std::string_view path, std::string_view what);

// "expected <expected>, found <found>" with `found` quoted and cut to a readable length.
std::string expected_found(std::string_view expected, std::string_view found);

}  // namespace meshioplusplus
