#include "stats/nsys/graphsum.h"
#include "stats/reportcatalog.h"

#include "stats/summary.h"
#include "stats/summarygroups.h"

#include <map>
#include <vector>

namespace rankscope::stats {

ResultTable cudaGraphSum(const Report &report)
{
    ResultTable t = declaredTable(QStringLiteral("cuda_graph_sum"));
    t.headers = timeSummaryHeaders(QStringLiteral("Instances"), {QStringLiteral("Kernels"), QStringLiteral("Name")});
    struct Graph {
        std::vector<std::int64_t> durations;
        std::int64_t kernels = 0;
    };
    std::map<StringId, Graph> graphs;
    for (const Track &track : report.tracks) {
        if (track.kind != TrackKind::CudaGraph)
            continue;
        for (std::size_t i = 0; i < track.slices.size(); ++i) {
            Graph &g = graphs[track.slices.name(i)];
            g.durations.push_back(track.slices.duration(i));
            const std::uint32_t correlation = report.graphLaunches[track.slices.payload(i)].correlationId;
            for (const TrackEvent &op : report.gpuOpsFor(Report::correlationKey(track.pid, correlation))) {
                const Track &opTrack = report.tracks[op.track];
                g.kernels += opTrack.kind == TrackKind::Kernel && opTrack.deviceId == track.deviceId && opTrack.streamId == track.streamId;
            }
        }
    }
    std::int64_t grandTotal = 0;
    for (auto &[name, g] : graphs) {
        const Summary s = summarize(g.durations);
        grandTotal += s.total;
        const std::size_t row = t.appendRow();
        writeSummaryCells(t, row, s);
        t.setInteger(row, 8, g.kernels);
        t.setReportText(row, 9, report, name);
    }
    fillTimeShares(t, grandTotal);
    sortSummaryRows(t, 1, 2, 9);
    return t;
}

} // namespace rankscope::stats
