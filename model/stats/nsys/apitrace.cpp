#include "stats/nsys/apitrace.h"
#include "stats/reportcatalog.h"

#include "stats/nsys/nsysreports.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <vector>

namespace rankscope::stats {

ResultTable cudaApiTrace(const Report &report)
{
    ResultTable t = declaredTable(QStringLiteral("cuda_api_trace"));
    t.headers = QStringList{QStringLiteral("Start (ns)"), QStringLiteral("Duration (ns)"), QStringLiteral("Name"),
                            QStringLiteral("Result"),     QStringLiteral("CorrID"),        QStringLiteral("Pid"),
                            QStringLiteral("Tid"),        QStringLiteral("T-Pri"),         QStringLiteral("Thread Name")};
    struct Call {
        TimeNs start;
        std::uint32_t track, event;
    };
    std::vector<Call> calls;
    for (std::uint32_t tr = 0; tr < report.tracks.size(); ++tr) {
        const Track &track = report.tracks[tr];
        if (track.kind != TrackKind::CudaApi)
            continue;
        for (std::uint32_t i = 0; i < track.slices.size(); ++i)
            calls.push_back({track.slices.start(i), tr, i});
    }
    std::sort(calls.begin(), calls.end(),
              [](const Call &a, const Call &b) { return std::tie(a.start, a.track, a.event) < std::tie(b.start, b.track, b.event); });
    std::map<StringId, QString> names; // without the version suffix, once per name
    std::map<std::uint32_t, const ThreadInfo *> threadOfTrack;
    t.reserveRows(calls.size());
    for (const Call &c : calls) {
        const Track &track = report.tracks[c.track];
        const StringId name = track.slices.name(c.event);
        auto it = names.find(name);
        if (it == names.end())
            it = names.emplace(name, apiNameWithoutVersion(report.strings.string(name))).first;
        auto thread = threadOfTrack.find(c.track);
        if (thread == threadOfTrack.end())
            thread = threadOfTrack.emplace(c.track, report.thread(track.pid, track.tid)).first;
        const ApiCallRecord &call = report.apiCalls[track.slices.payload(c.event)];
        const ThreadInfo *info = thread->second;
        t.addRow({Cell::ofInteger(track.slices.start(c.event)), Cell::ofInteger(track.slices.duration(c.event)), Cell::ofText(it->second),
                  Cell::ofInteger(call.returnValue), Cell::ofInteger(call.correlationId), Cell::ofInteger(track.pid), Cell::ofInteger(track.tid),
                  info && info->priority != ThreadInfo::kNoPriority ? Cell::ofInteger(info->priority) : Cell{},
                  info && !info->name.isEmpty() ? Cell::ofText(info->name) : Cell{}});
    }
    return t;
}

} // namespace rankscope::stats
