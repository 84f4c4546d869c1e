// meshio++ core: warnings a reader or writer raises for a loss it chose to accept (an
// element it skips, data a format cannot hold), as meshio warns through Python's warnings.
//
// warn() appends to a list kept per thread, so concurrent reads never mix their notes;
// take_warnings() returns this thread's list and clears it. meshioplusplus::read() moves a
// read's warnings into the returned Mesh::warnings; after a write, the Python binding drains
// them and re-raises each as a UserWarning (a C++ caller may drain them the same way).
// Formats call warn() on the thread that called read or write, never inside parallel_for.
#pragma once

#include <string>
#include <vector>

namespace meshioplusplus {

void warn(std::string message);
std::vector<std::string> take_warnings();

}  // namespace meshioplusplus
