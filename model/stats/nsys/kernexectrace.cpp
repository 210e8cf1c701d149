#include "stats/nsys/kernexectrace.h"
#include "stats/reportcatalog.h"

#include "stats/nsys/kerngridsum.h"
#include "stats/nsys/nsysreports.h"

#include <algorithm>
#include <tuple>
#include <vector>

namespace rankscope::stats {

ResultTable cudaKernExecTrace(const Report &report)
{
    ResultTable t = declaredTable(QStringLiteral("cuda_kern_exec_trace"));
    t.headers = QStringList{QStringLiteral("API Start (ns)"),
                            QStringLiteral("API Dur (ns)"),
                            QStringLiteral("Queue Start (ns)"),
                            QStringLiteral("Queue Dur (ns)"),
                            QStringLiteral("Kernel Start (ns)"),
                            QStringLiteral("Kernel Dur (ns)"),
                            QStringLiteral("Total Dur (ns)"),
                            QStringLiteral("PID"),
                            QStringLiteral("TID"),
                            QStringLiteral("DevId"),
                            QStringLiteral("API Function"),
                            QStringLiteral("GridXYZ"),
                            QStringLiteral("BlockXYZ"),
                            QStringLiteral("Kernel Name")};
    struct Launch {
        TimeNs apiStart;
        TimeNs kernelStart;
        TrackEvent api, kernel;
    };
    std::vector<Launch> launches;
    std::size_t hint = 0;
    for (std::uint32_t tr = 0; tr < report.tracks.size(); ++tr) {
        const Track &track = report.tracks[tr];
        if (track.kind != TrackKind::Kernel)
            continue;
        for (std::uint32_t i = 0; i < track.slices.size(); ++i) {
            const std::uint32_t correlation = report.kernels[track.slices.payload(i)].correlationId;
            const std::optional<TrackEvent> api = report.apiCallFor(Report::correlationKey(track.pid, correlation), hint);
            if (!api || report.tracks[api->track].kind != TrackKind::CudaApi)
                continue;
            launches.push_back({report.tracks[api->track].slices.start(api->event), track.slices.start(i), *api, {tr, i}});
        }
    }
    std::sort(launches.begin(), launches.end(), [](const Launch &a, const Launch &b) {
        return std::tie(a.apiStart, a.kernelStart, a.kernel.track, a.kernel.event)
               < std::tie(b.apiStart, b.kernelStart, b.kernel.track, b.kernel.event);
    });
    t.reserveRows(launches.size());
    for (const Launch &l : launches) {
        const Track &apiTrack = report.tracks[l.api.track];
        const Track &kernelTrack = report.tracks[l.kernel.track];
        const TimeNs apiEnd = apiTrack.slices.end(l.api.event);
        const TimeNs kernelEnd = kernelTrack.slices.end(l.kernel.event);
        const KernelConfig &c = report.launch(report.kernels[kernelTrack.slices.payload(l.kernel.event)]);
        const bool queued = l.kernelStart >= apiEnd;
        t.addRow({Cell::ofInteger(l.apiStart), Cell::ofInteger(apiEnd - l.apiStart), queued ? Cell::ofInteger(apiEnd) : Cell{},
                  queued ? Cell::ofInteger(l.kernelStart - apiEnd) : Cell{}, Cell::ofInteger(l.kernelStart),
                  Cell::ofInteger(kernelEnd - l.kernelStart), Cell::ofInteger(std::max(apiEnd, kernelEnd) - l.apiStart),
                  Cell::ofInteger(apiTrack.pid), Cell::ofInteger(apiTrack.tid), Cell::ofInteger(kernelTrack.deviceId),
                  Cell::ofText(apiNameWithoutVersion(report.strings.string(apiTrack.slices.name(l.api.event)))),
                  Cell::ofText(launchDimensions(c.gridX, c.gridY, c.gridZ)), Cell::ofText(launchDimensions(c.blockX, c.blockY, c.blockZ)),
                  Cell::ofText(report.strings.string(kernelTrack.slices.name(l.kernel.event)))});
    }
    return t;
}

} // namespace rankscope::stats
