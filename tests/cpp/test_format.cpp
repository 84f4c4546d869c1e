// Core format registry: deduction from a file name (format.hpp). The rule: longest matching
// extension first, case-insensitive, equal lengths in registration order; the first
// candidate that can read (write) is used. Python asks the same function (_core.deduce_format).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "meshioplusplus/format.hpp"

namespace mpp = meshioplusplus;

namespace {

std::vector<std::string> names(const std::vector<const mpp::Format*>& formats) {
  std::vector<std::string> out;
  for (const auto* f : formats) out.push_back(f->name);
  return out;
}

}  // namespace

TEST(FormatDeduction, TiesKeepRegistrationOrderAndLongerSuffixesWin) {
  const std::vector<mpp::Format> among = {{"first", {".dat"}}, {"second", {".dat", ".b.dat"}}, {"third", {".DAT"}}};
  EXPECT_EQ(names(mpp::formats_for_path("x.dat", among)), (std::vector<std::string>{"first", "second", "third"}));
  EXPECT_EQ(names(mpp::formats_for_path("X.B.DAT", among)), (std::vector<std::string>{"second", "first", "third"}));
  EXPECT_TRUE(mpp::formats_for_path("x.dat.gz", among).empty());
}

TEST(FormatDeduction, EveryRegisteredExtensionDeducesAFormatThatClaimsIt) {
  for (const auto& f : mpp::formats())
    for (const auto& ext : f.extensions) {
      const mpp::Format& got = mpp::deduce_format("mesh" + ext, /*for_write=*/!f.read);  // write-only: svg
      const auto candidates = mpp::formats_for_path("mesh" + ext);
      ASSERT_FALSE(candidates.empty());
      EXPECT_EQ(&got, candidates.front()) << ext;
    }
  EXPECT_THROW(mpp::deduce_format("mesh.no-such-suffix", false), std::invalid_argument);
}
