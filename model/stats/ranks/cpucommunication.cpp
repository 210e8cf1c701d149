#include "stats/ranks/cpucommunication.h"

#include "core/intervals.h"
#include "core/units.h"

#include <algorithm>
#include <set>
#include <unordered_map>

namespace rankscope::stats {

namespace {

bool isGlooName(std::string_view name)
{
    return name.starts_with("gloo:");
}

// cudaStreamSynchronize_v3020, cuStreamSynchronize, cudaEventSynchronize...
bool isSynchronization(std::string_view name)
{
    return name.find("Synchronize") != std::string_view::npos;
}

// Whether the report names any gloo range at all: its few thousand names,
// not its millions of NVTX ranges (the rank comparison asks for every rank,
// most of which have none).
bool namesAnyGlooRange(const Report &report)
{
    for (std::size_t id = 0; id < report.strings.size(); ++id)
        if (isGlooName(report.strings.view(StringId(id))))
            return true;
    return false;
}

} // namespace

std::vector<CpuCollectiveRange> cpuCollectivesOfRank(const RankEntry &entry)
{
    std::vector<CpuCollectiveRange> found;
    const Report &r = *entry.report;
    if (!namesAnyGlooRange(r))
        return found;
    for (std::uint32_t t = 0; t < r.tracks.size(); ++t) {
        const Track &track = r.tracks[t];
        if (!isHostRange(track.kind) || !Session::ownsTrack(entry, track))
            continue;
        std::unordered_map<StringId, bool> gloo; // a few names, a million ranges
        for (std::size_t i = 0; i < track.slices.size(); ++i) {
            auto [it, added] = gloo.try_emplace(track.slices.name(i), false);
            if (added)
                it->second = isGlooName(r.strings.view(track.slices.name(i)));
            if (it->second)
                found.push_back({t, std::uint32_t(i), track.slices.start(i), track.slices.end(i), track.slices.name(i)});
        }
    }
    std::stable_sort(found.begin(), found.end(), [](const CpuCollectiveRange &a, const CpuCollectiveRange &b) { return a.start < b.start; });
    return found;
}

bool isGlooThreadName(const QString &threadName)
{
    return threadName.startsWith(QLatin1String("pt_gloo"));
}

QString cpuCommunicatorOf(const QString &rangeName)
{
    return rangeName + QStringLiteral(" (CPU)");
}

bool isCpuCommunicator(const QString &communicator)
{
    return communicator.startsWith(QLatin1String("gloo:")) && communicator.endsWith(QLatin1String(" (CPU)"));
}

TimeNs cpuCommunicationTime(const RankEntry &entry, TimeRange reportRange)
{
    std::vector<Interval> spans;
    for (const CpuCollectiveRange &c : cpuCollectivesOfRank(entry)) {
        const TimeNs start = std::max(c.start, reportRange.start), end = std::min(c.end, reportRange.end);
        if (start < end)
            spans.emplace_back(start, end);
    }
    TimeNs total = 0;
    for (const Interval &run : unionOf(std::move(spans)))
        total += run.second - run.first;
    return total;
}

CpuCommunication cpuCommunicationOf(const Session &session)
{
    CpuCommunication found;
    for (const RankEntry &entry : session.ranks()) {
        const Report &r = *entry.report;
        bool here = false;
        // Threads the report traced: an export names every process's
        // threads (a node's four ranks in each rank's file), traced or not.
        std::set<std::pair<std::uint32_t, std::uint32_t>> traced; // pid, tid
        for (const Track &track : r.tracks)
            if (!isGpuTrack(track.kind))
                traced.insert({track.pid, track.tid});
        std::set<std::pair<std::uint32_t, std::uint32_t>> glooThreads;
        for (const ThreadInfo &t : r.threads)
            if (Session::ownsProcess(entry, t.pid) && isGlooThreadName(t.name) && traced.count({t.pid, t.tid})) {
                ++found.glooThreads;
                glooThreads.insert({t.pid, t.tid});
                here = true;
            }
        for (const Track &track : r.tracks) {
            if (track.kind != TrackKind::CudaApi || !glooThreads.count({track.pid, track.tid}))
                continue;
            for (std::size_t i = 0; i < track.slices.size(); ++i)
                if (isSynchronization(r.strings.view(track.slices.name(i)))) {
                    ++found.glooSyncCalls;
                    found.glooSyncTime += track.slices.end(i) - track.slices.start(i);
                }
        }
        for (const CpuCollectiveRange &c : cpuCollectivesOfRank(entry)) {
            ++found.ranges;
            found.rangeTime += c.end - c.start;
            here = true;
        }
        found.ranks += here;
    }
    return found;
}

QString cpuCommunicationNote(const CpuCommunication &found)
{
    if (!found.any())
        return {};
    if (found.ranges == 0) {
        const QString waits = found.glooSyncCalls == 0
                                  ? QStringLiteral("they made no CUDA synchronisation")
                                  : QStringLiteral("they waited %1 in %2 CUDA synchronisations for the copies of GPU tensors to and from the CPU")
                                        .arg(formatDuration(found.glooSyncTime))
                                        .arg(found.glooSyncCalls);
        return QStringLiteral("This run communicates on the CPU (Gloo): %1 pt_gloo threads on %2 rank(s), where %3. The export has no "
                              "gloo:* ranges, so its collectives can be neither matched across ranks nor timed, and CPU Comm reads 0. "
                              "To see them, record the PyTorch profiler's trace (it names each gloo:* collective), or run under nsys "
                              "with NVTX ranges for PyTorch's operators (the training loop inside torch.autograd.profiler.emit_nvtx()).")
            .arg(found.glooThreads)
            .arg(found.ranks)
            .arg(waits);
    }
    QStringList signs;
    signs << QStringLiteral("%1 gloo:* ranges (%2 in all)").arg(found.ranges).arg(formatDuration(found.rangeTime));
    if (found.glooThreads > 0)
        signs << QStringLiteral("%1 pt_gloo threads").arg(found.glooThreads);
    return QStringLiteral("This run communicates on the CPU (Gloo): %1 on %2 rank(s). Its collectives run on CPU threads, not as GPU "
                          "kernels: they are matched across ranks from their gloo:* ranges (the k-th of each name on every rank), count as "
                          "CPU Comm in the rank comparison and as no GPU communication.")
        .arg(signs.join(QStringLiteral(" and ")))
        .arg(found.ranks);
}

} // namespace rankscope::stats
