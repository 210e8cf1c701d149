#include "stats/storedsummaries.h"

#include "core/qthash.h"

#include <unordered_map>

namespace rankscope::stats {

bool storedGroupsCover(std::span<const ReportSlice> slices)
{
    for (const ReportSlice &slice : slices)
        if (!slice.report->byName.present || !(slice.range == TimeRange::everything()))
            return false;
    return true;
}

std::vector<LabelledSummary> summariesOfStoredGroups(std::span<const ReportSlice> slices, const StoredGroups &what)
{
    std::unordered_map<QStringList, std::uint32_t, QtHash> indexOf; // not QHash: see core/qthash.h
    std::vector<QStringList> labels;        // per merged group
    std::vector<std::vector<SortedRun>> runs; // per merged group, one per report group
    for (const ReportSlice &slice : slices) {
        const NameSummaries &stored = slice.report->byName;
        for (const TrackKind kind : what.kinds)
            for (const NameGroup &group : stored.groupsOf(kind, what.value)) {
                if (slice.pid && group.pid != *slice.pid)
                    continue;
                QStringList groupLabels = what.labelsOf(*slice.report, group);
                if (groupLabels.isEmpty())
                    continue;
                auto it = indexOf.find(groupLabels);
                if (it == indexOf.end()) {
                    it = indexOf.emplace(groupLabels, std::uint32_t(labels.size())).first;
                    labels.push_back(std::move(groupLabels));
                    runs.emplace_back();
                }
                runs[it->second].push_back({stored.valuesOf(group), group.total, group.squaredDeviations});
            }
    }
    std::vector<LabelledSummary> summaries;
    summaries.reserve(labels.size());
    for (std::size_t g = 0; g < labels.size(); ++g)
        summaries.push_back({summarizeSortedRuns(runs[g]), std::move(labels[g])});
    return summaries;
}

} // namespace rankscope::stats
