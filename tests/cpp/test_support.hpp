// meshio++ tests: the scaffolding every format's tests share, written once: temporary paths,
// whole-file reads and writes, reading a string as a file, the outcome of a read ("mesh" or
// the ReadError's text), replacing part of a good file to make a bad one, a sweep of
// truncated and corrupted copies of a file, and small accessors (values, warnings, regions).
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "meshioplusplus/meshioplusplus.hpp"

namespace testsupport {

namespace mpp = meshioplusplus;

// A path in this process's own temporary folder.
inline std::string tmp_path(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("meshiopp_tests_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

inline std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

inline void spit(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// "mesh" when `path` reads as `format`, else "ReadError: " and its message; anything else
// escaping the reader fails the test.
inline std::string read_outcome(const std::string& path, const std::string& format, const mpp::Options& options = {}) {
  try {
    mpp::read(path, format, options);
    return "mesh";
  } catch (const mpp::ReadError& e) {
    return std::string("ReadError: ") + e.what();
  }
}

// `text` written to the temporary file `name`, then read as `format`.
inline mpp::Mesh read_string(const std::string& text, const std::string& format, const std::string& name,
                             const mpp::Options& options = {}) {
  const std::string path = tmp_path(name);
  spit(path, text);
  return mpp::read(path, format, options);
}

// read_outcome() of `text` written to the temporary file `name`.
inline std::string outcome_of_string(const std::string& text, const std::string& format, const std::string& name,
                                     const mpp::Options& options = {}) {
  const std::string path = tmp_path(name);
  spit(path, text);
  return read_outcome(path, format, options);
}

// `text` with the first `from` replaced by `to` (a bad file made from a good one).
inline std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "'" << from << "' is not in the text";
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// Truncated and corrupted copies of a file, each read: every outcome must be a mesh (which,
// with `validate`, must pass Mesh::validate()) or a ReadError whose text starts with
// `error_prefix`. Prefixes of length 0, prefix_step, ... up to the whole file; corruptions
// at byte 0, corrupt_step, ...: each byte XORed with each of `xor_masks`, and set to each
// of `set_to`.
struct Sweep {
  std::size_t prefix_step = 1, corrupt_step = 1;
  std::vector<unsigned char> xor_masks;
  std::vector<char> set_to;
  bool validate = false;
  std::string error_prefix = "ReadError: ";
  mpp::Options options;

  static Sweep xor_each(std::size_t prefix_step, std::size_t corrupt_step, std::vector<unsigned char> masks) {
    Sweep s;
    s.prefix_step = prefix_step, s.corrupt_step = corrupt_step, s.xor_masks = std::move(masks);
    return s;
  }
  static Sweep set_each(std::size_t prefix_step, std::size_t corrupt_step, std::vector<char> values) {
    Sweep s;
    s.prefix_step = prefix_step, s.corrupt_step = corrupt_step, s.set_to = std::move(values);
    return s;
  }
  Sweep validating() const {
    Sweep s = *this;
    s.validate = true;
    return s;
  }
  Sweep errors_start(std::string prefix) const {
    Sweep s = *this;
    s.error_prefix = std::move(prefix);
    return s;
  }
};
struct SweepCount {
  std::size_t files = 0, meshes = 0;
};

inline SweepCount sweep(const std::string& bytes, const std::string& format, const std::string& probe_name, const Sweep& s) {
  const std::string probe = tmp_path(probe_name);
  SweepCount n;
  auto check = [&](const std::string& b) {
    spit(probe, b);
    const std::string outcome = read_outcome(probe, format, s.options);
    if (outcome == "mesh") {
      ++n.meshes;
      if (s.validate) mpp::read(probe, format, s.options).validate();
    } else {
      EXPECT_EQ(outcome.rfind(s.error_prefix, 0), 0u) << outcome;
    }
    ++n.files;
  };
  for (std::size_t len = 0; len <= bytes.size(); len += std::max<std::size_t>(s.prefix_step, 1)) check(bytes.substr(0, len));
  for (std::size_t at = 0; at < bytes.size(); at += std::max<std::size_t>(s.corrupt_step, 1)) {
    std::string c = bytes;
    for (unsigned char x : s.xor_masks) {
      c[at] = static_cast<char>(bytes[at] ^ x);
      check(c);
    }
    for (char v : s.set_to) {
      c[at] = v;
      check(c);
    }
  }
  return n;
}

// The ReadError outcome names `needle` (and `also`, when given).
inline void expect_read_error(const std::string& outcome, const std::string& needle, const std::string& also = "") {
  EXPECT_EQ(outcome.rfind("ReadError", 0), 0u) << outcome;
  EXPECT_NE(outcome.find(needle), std::string::npos) << "want '" << needle << "' in: " << outcome;
  if (!also.empty()) {
    EXPECT_NE(outcome.find(also), std::string::npos) << "want '" << also << "' in: " << outcome;
  }
}

inline std::vector<double> doubles_of(const mpp::NDArray& a) {
  std::vector<double> out(a.size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = a.value_as_double(i);
  return out;
}

inline std::vector<std::int64_t> ints_of(const mpp::NDArray& a) {
  std::vector<std::int64_t> out(a.size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = a.value_as_int64(i);
  return out;
}

inline std::vector<double> points_of(const mpp::Mesh& m) { return doubles_of(m.points); }

// Whether a warning of `m` contains `part1` and `part2`.
inline bool has_warning(const mpp::Mesh& m, const std::string& part1, const std::string& part2 = "") {
  return std::any_of(m.warnings.begin(), m.warnings.end(), [&](const std::string& w) {
    return w.find(part1) != std::string::npos && w.find(part2) != std::string::npos;
  });
}

// The region `name` (of `kind`, when given), or nullptr.
inline const mpp::Region* region(const mpp::Mesh& m, const std::string& name) {
  for (const auto& r : m.regions)
    if (r.name == name) return &r;
  return nullptr;
}
inline const mpp::Region* region(const mpp::Mesh& m, const std::string& name, mpp::RegionKind kind) {
  for (const auto& r : m.regions)
    if (r.name == name && r.kind == kind) return &r;
  return nullptr;
}

// A fixture under tests/data/<format>/.
inline std::string data_path(const std::string& format, const std::string& name) {
  return std::string(MESHIOPP_TEST_DATA) + "/" + format + "/" + name;
}

}  // namespace testsupport
