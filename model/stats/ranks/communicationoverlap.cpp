#include "stats/ranks/communicationoverlap.h"

#include "core/cancellation.h"
#include "core/intervals.h"
#include "stats/reportcatalog.h"

#include <algorithm>
#include <map>

namespace rankscope::stats {

std::vector<CommunicationOverlap> communicationOverlaps(const Session &session, const KernelClassifier &classes, const StatsScope &scope)
{
    std::vector<CommunicationOverlap> out;
    for (std::size_t ri = 0; ri < session.ranks().size(); ++ri) {
        if (scope.rankIndex && std::size_t(*scope.rankIndex) != ri)
            continue;
        const RankEntry &entry = session.ranks()[ri];
        const Report &r = *entry.report;
        KernelClassCache classOf(r.strings, classes);
        // Per (process, device): the other kernels, and the communication ones.
        struct Device {
            std::vector<Interval> others;
            std::vector<CommunicationOverlap> communication;
        };
        std::map<std::pair<std::uint32_t, int>, Device> devices;
        for (std::uint32_t t = 0; t < r.tracks.size(); ++t) {
            const Track &track = r.tracks[t];
            if (track.kind != TrackKind::Kernel || !Session::ownsTrack(entry, track))
                continue;
            throwIfCancelled();
            Device &device = devices[{track.pid, track.deviceId}];
            const SliceTrack &s = track.slices;
            for (std::size_t i = 0; i < s.size(); ++i) {
                if (classOf.of(s.name(i)) != KernelClass::Communication) {
                    device.others.emplace_back(s.start(i), s.end(i));
                    continue;
                }
                CommunicationOverlap c;
                c.rankIndex = int(ri);
                c.deviceId = track.deviceId;
                c.track = t;
                c.event = std::uint32_t(i);
                c.time = {s.start(i), s.end(i)}; // report time until measured
                device.communication.push_back(c);
            }
        }
        for (auto &[key, device] : devices) {
            const std::vector<Interval> busy = unionOf(std::move(device.others));
            std::sort(device.communication.begin(), device.communication.end(),
                      [](const CommunicationOverlap &a, const CommunicationOverlap &b) { return a.time.start < b.time.start; });
            for (CommunicationOverlap &c : device.communication) {
                c.overlap = coveredIn(busy, c.time.start, c.time.end);
                c.time = {c.time.start + entry.sessionOffset, c.time.end + entry.sessionOffset};
                if (!scope.range || (c.time.start >= scope.range->start && c.time.start < scope.range->end))
                    out.push_back(c);
            }
        }
    }
    // Ranks keep their order; a rank's devices were visited by (pid, device).
    std::stable_sort(out.begin(), out.end(), [](const CommunicationOverlap &a, const CommunicationOverlap &b) {
        return std::tie(a.rankIndex, a.deviceId) < std::tie(b.rankIndex, b.deviceId);
    });
    return out;
}

ResultTable ncclGpuOverlapTrace(const Session &session, const std::vector<CommunicationOverlap> &overlaps, const KernelClassifier &classes)
{
    ResultTable t = declaredTable(QStringLiteral("nccl_gpu_overlap_trace"));
    t.headers =
        QStringList{QStringLiteral("Rank"),         QStringLiteral("Device"),      QStringLiteral("Start (ns)"), QStringLiteral("Duration (ns)"),
                    QStringLiteral("Overlap (ns)"), QStringLiteral("Overlap (%)"), QStringLiteral("Name")};
    // Two runs side by side (File > Compare With...): which run each row is.
    const bool comparison = session.isComparison();
    if (comparison)
        t.headers << QStringLiteral("Run");
    t.reserveRows(overlaps.size());
    for (const CommunicationOverlap &c : overlaps) {
        const RankEntry &entry = session.ranks()[std::size_t(c.rankIndex)];
        const std::size_t row = t.appendRow();
        t.setInteger(row, 0, entry.rank);
        t.setInteger(row, 1, c.deviceId);
        t.setInteger(row, 2, c.time.start);
        t.setInteger(row, 3, c.time.duration());
        t.setInteger(row, 4, c.overlap);
        if (c.time.duration() > 0)
            t.setDecimal(row, 5, 100.0 * double(c.overlap) / double(c.time.duration()), 1);
        t.setReportText(row, 6, *entry.report, entry.report->tracks[c.track].slices.name(c.event));
        if (comparison)
            t.setText(row, 7, runSideName(entry.side));
    }
    if (overlaps.empty())
        t.notes << QStringLiteral("no communication kernels (%1)").arg(classes.description());
    return t;
}

} // namespace rankscope::stats
