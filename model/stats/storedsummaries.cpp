#include "stats/storedsummaries.h"
#include "core/cancellation.h"

#include <algorithm>

namespace rankscope::stats {

bool storedGroupsCover(std::span<const ReportSlice> slices)
{
    for (const ReportSlice &slice : slices)
        if (!slice.report->byName.present || !(slice.range == TimeRange::everything()))
            return false;
    return true;
}

void summariesOfStoredGroups(std::span<const ReportSlice> slices, const StoredGroups &what, GroupIndex &index, const SummaryOfGroup &summaryOf)
{
    // Per group, its parts: one a report's stored group. Most groups of an
    // emit_nvtx trace have one part, so the parts are a flat list of
    // (group, run) pairs put in group order, not a vector per group.
    std::vector<std::pair<std::uint32_t, SortedRun>> parts;
    RankPass rankPass(slices.size());
    for (const ReportSlice &slice : slices) {
        rankPass.next(); // gives up if a newer request replaced this one (core/cancellation.h)
        const NameSummaries &stored = slice.report->byName;
        for (const TrackKind kind : what.kinds)
            for (const NameGroup &group : stored.groupsOf(kind, what.value)) {
                if (slice.pid && group.pid != *slice.pid)
                    continue;
                if (const std::optional<std::uint32_t> g = what.groupOf(index, *slice.report, group))
                    parts.push_back({*g, {stored.valuesOf(group), group.total, group.squaredDeviations}});
            }
    }
    std::stable_sort(parts.begin(), parts.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
    std::vector<SortedRun> runs;
    for (std::size_t i = 0; i < parts.size();) {
        runs.clear();
        const std::uint32_t group = parts[i].first;
        for (; i < parts.size() && parts[i].first == group; ++i)
            runs.push_back(parts[i].second);
        summaryOf(group, summarizeSortedRuns(runs));
    }
}

} // namespace rankscope::stats
