#pragma once
// The rows of nsys' trace reports (cuda_gpu_trace, cuda_api_trace,
// mpi_event_trace): events by start and, where two start at once, in the
// order of the tables nsys' query unions, then as the report keeps them.
#include "core/report.h"

#include <algorithm>
#include <optional>
#include <tuple>
#include <vector>

namespace rankscope::stats {

struct TraceRow {
    TimeNs start = 0;
    int table = 0; // the place of its source table in nsys' UNION ALL
    TrackEvent at;
};

// The events `tableOf(track, event)` places (nullopt: not in the report),
// in trace order.
template <class TableOf>
std::vector<TraceRow> rowsInTraceOrder(const Report &report, TableOf &&tableOf)
{
    std::vector<TraceRow> rows;
    for (std::uint32_t tr = 0; tr < report.tracks.size(); ++tr) {
        const Track &track = report.tracks[tr];
        for (std::uint32_t i = 0; i < track.slices.size(); ++i)
            if (const std::optional<int> table = tableOf(track, i))
                rows.push_back({track.slices.start(i), *table, {tr, i}});
    }
    std::sort(rows.begin(), rows.end(), [](const TraceRow &a, const TraceRow &b) {
        return std::tie(a.start, a.table, a.at.track, a.at.event) < std::tie(b.start, b.table, b.at.track, b.at.event);
    });
    return rows;
}

} // namespace rankscope::stats
