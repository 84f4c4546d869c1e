// meshio++ Nastran bulk data (.bdf, .fem, .nas): reader (free, small and large field,
// continuations, cards in any order, CORD2R/C/S coordinate systems; cards that are not mesh
// are skipped with a warning) and writer (meshio's point_format / cell_format keywords).
// Spec: MSC Nastran Quick Reference Guide, "Bulk Data Entries"
// (https://nexus.hexagon.com/documentationcenter/en-US/bundle/MSC_Nastran_2022.4/page/Nastran_Combined_Book/qrg/bulkab/TOC.BULK.Data.xhtml).
// User documentation: docs/formats/nastran.md.
#pragma once

#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

Format nastran_format();

}  // namespace meshioplusplus
