#include "stats/cpucommunication.h"

#include "core/units.h"

#include <unordered_map>

namespace rankscope::stats {

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
        for (const Track &t : r.tracks) {
            if (t.kind != TrackKind::Nvtx || !Session::ownsTrack(entry, t))
                continue;
            std::unordered_map<StringId, bool> gloo; // a few names, a million ranges
            for (std::size_t i = 0; i < t.slices.size(); ++i) {
                auto [it, added] = gloo.try_emplace(t.slices.name(i), false);
                if (added)
                    it->second = r.strings.view(t.slices.name(i)).starts_with("gloo:");
                if (!it->second)
                    continue;
                ++found.ranges;
                found.rangeTime += t.slices.duration(i);
                here = true;
            }
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
                          "kernels, so they are not matched across ranks here and count as no GPU communication; look for them "
                          "on the ranks' CPU rows.")
        .arg(signs.join(QStringLiteral(" and ")))
        .arg(found.ranks);
}

} // namespace rankscope::stats
