#pragma once
// The summary tables' rows over whole reports from the groups their index
// caches store (core/namesummaries.h), merged across ranks by label: a few
// groups per rank and a few of their values read, where reading the events
// again would touch every page of every rank (256 ranks x 1M events: GBs).
// Same numbers as over the events, the median exact.
#include "core/namesummaries.h"
#include "stats/statsscope.h"
#include "stats/summary.h"
#include "stats/summarygroups.h"

#include <functional>
#include <optional>
#include <span>
#include <vector>

namespace rankscope::stats {

// Whether stored groups answer every slice: whole reports (or one process
// of one), each opened from a cache that holds them.
bool storedGroupsCover(std::span<const ReportSlice> slices);

// A stored group's group in the table being built; none leaves it out.
using StoredGroupOf = std::function<std::optional<std::uint32_t>(GroupIndex &, const Report &, const NameGroup &)>;

// What a table takes: the groups of these kinds and value, as grouped.
struct StoredGroups {
    std::vector<TrackKind> kinds;
    GroupedValue value = GroupedValue::Duration;
    StoredGroupOf groupOf;
};

// A group's summary, handed on as made (a table of 10^7 groups does not
// hold their summaries and its rows at once).
using SummaryOfGroup = std::function<void(std::uint32_t group, const Summary &summary)>;

// Calls `summaryOf` for each group the slices' stored groups `what` takes
// make in `index`, in group order.
void summariesOfStoredGroups(std::span<const ReportSlice> slices, const StoredGroups &what, GroupIndex &index, const SummaryOfGroup &summaryOf);

} // namespace rankscope::stats
