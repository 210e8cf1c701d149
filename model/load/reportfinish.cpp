#include "load/reportfinish.h"

#include "load/derivedtracks.h"
#include "load/sidetableorder.h"
#include "load/workerpool.h"

#include <algorithm>
#include <tuple>

namespace rankscope {

void finalizeTracks(Report &r)
{
    std::erase_if(r.tracks, [](const Track &t) { return t.slices.isEmpty(); });
    parallelFor(r.tracks.size(), [&](std::size_t i) { r.tracks[i].slices.finalize(); });
    std::stable_sort(r.tracks.begin(), r.tracks.end(), [](const Track &a, const Track &b) {
        const bool gpuA = isGpuTrack(a.kind), gpuB = isGpuTrack(b.kind);
        return std::tie(a.pid, gpuA, a.deviceId, a.streamId, a.tid, a.kind, a.domainId)
               < std::tie(b.pid, gpuB, b.deviceId, b.streamId, b.tid, b.kind, b.domainId);
    });
}

void finishReport(Report &report, const ReportFinish &finish)
{
    if (!finish.namesStringsLater) // every string is in: the lookup (4 B a slot) goes before the load peaks
        report.strings.releaseLookup();
    finalizeTracks(report);
    if (finish.onSortedTracks)
        finish.onSortedTracks(report);
    storeSideTablesInTrackOrder(report);
    buildCorrelations(report);
    if (!finish.projectionRecorded)
        buildNvtxProjections(report);
    buildNcclTracks(report);
    buildGpuBusySummaries(report);
    if (finish.beforeCommunication)
        finish.beforeCommunication(report);
    buildCommunicationSummary(report);
    for (CounterTrack &c : report.counters)
        c.finalize();
    report.shrinkToFit();
}

} // namespace rankscope
