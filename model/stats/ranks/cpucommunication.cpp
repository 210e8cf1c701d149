#include "stats/ranks/cpucommunication.h"

#include "core/intervals.h"
#include "core/units.h"

#include <algorithm>
#include <unordered_map>

namespace rankscope::stats {

namespace {

bool isGlooName(std::string_view name)
{
    return name.starts_with("gloo:");
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
        for (const ThreadInfo &t : r.threads)
            if (Session::ownsProcess(entry, t.pid) && t.name.startsWith(QLatin1String("pt_gloo"))) {
                ++found.glooThreads;
                here = true;
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
    QStringList signs;
    if (found.ranges > 0)
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
