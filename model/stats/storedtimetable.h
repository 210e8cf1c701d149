#pragma once
// A time summary table (summarygroups.h: Time (%), Total, the count, Avg,
// Med, Min, Max, StdDev, then the labels) over stored groups, its cells
// computed when read (ResultTable::computed): an nvtx_sum of an emit_nvtx
// export read from its mapped cache has a group per range, and its numbers
// are in the mapped groups already, so the table keeps a key per row and
// its groups' parts and labels (~40 B a group), not ~90 B of cells a row.
#include "stats/resulttable.h"
#include "stats/storedsummaries.h"
#include "stats/summarygroups.h"

#include <memory>

namespace rankscope::stats {

// The rows, one per group of `parts` in group order, unsorted; labels in
// `labelColumns` columns after the eight (an NVTX range's style only when
// `withStyle`). `parts` keeps its reports alive (keepsReportsAlive()).
ResultTable storedTimeTable(std::shared_ptr<const StoredGroupParts> parts, GroupLabels labels, std::size_t labelColumns, bool withStyle);

} // namespace rankscope::stats
