// meshio++ PERMAS (.post, .post.gz, .dato, .dato.gz): reader ($COOR nodes, $ELEMENT blocks of
// every type meshio maps, $NSET / $ESET as regions; other records skipped with a warning;
// gzip by content) and writer (meshio's layout plus the sets; gzip by the .gz extension).
// Spec: the PERMAS user reference (INTES, https://www.intes.de/), its input syntax: "$"
// records, "!" comments, "&" continuation lines.
// User documentation: docs/formats/permas.md.
#pragma once

#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

Format permas_format();

}  // namespace meshioplusplus
