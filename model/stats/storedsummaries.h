#pragma once
// The summary tables' rows over whole reports from the groups their index
// caches store (core/namesummaries.h), merged across ranks by label: a few
// groups per rank and a few of their values read, where reading the events
// again would touch every page of every rank (256 ranks x 1M events: GBs).
// Same numbers as over the events, the median exact.
#include "core/namesummaries.h"
#include "stats/statsscope.h"
#include "stats/summary.h"

#include <QStringList>

#include <functional>
#include <span>
#include <vector>

namespace rankscope::stats {

struct LabelledSummary {
    Summary summary;
    QStringList labels; // the table's text columns
};

// Whether stored groups answer every slice: whole reports (or one process
// of one), each opened from a cache that holds them.
bool storedGroupsCover(std::span<const ReportSlice> slices);

// A group's labels in the table being built; empty leaves it out.
using GroupLabels = std::function<QStringList(const Report &, const NameGroup &)>;

// What a table takes: the groups of these kinds and value, as labelled.
struct StoredGroups {
    std::vector<TrackKind> kinds;
    GroupedValue value = GroupedValue::Duration;
    GroupLabels labelsOf;
};

// The slices' stored groups `what` takes, merged by label and summarised,
// in no particular order.
std::vector<LabelledSummary> summariesOfStoredGroups(std::span<const ReportSlice> slices, const StoredGroups &what);

} // namespace rankscope::stats
