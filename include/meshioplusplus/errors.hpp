// meshio++ core: the two exceptions a reader or writer may throw.
//
// A reader either returns a Mesh or throws ReadError; a writer either writes the whole
// file (atomically) or throws WriteError. Messages name the format, the file, the position
// (line or byte offset) and what was expected vs found; error_message() builds them in one
// shape. Bad arguments (malformed meshes handed to a writer) are std::invalid_argument.
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

// "<format>: <path>: line 12 (byte 345): <what>"
std::string error_message(std::string_view format, std::string_view path, Position where,
                          std::string_view what);

// "expected <expected>, found <found>" with `found` quoted and cut to a readable length.
std::string expected_found(std::string_view expected, std::string_view found);

}  // namespace meshioplusplus
