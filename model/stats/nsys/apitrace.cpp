#include "stats/nsys/apitrace.h"
#include "stats/reportcatalog.h"

#include "stats/nsys/nsysreports.h"
#include "stats/nsys/traceorder.h"

#include <map>
#include <vector>

namespace rankscope::stats {

ResultTable cudaApiTrace(const Report &report)
{
    ResultTable t = declaredTable(QStringLiteral("cuda_api_trace"));
    t.headers = QStringList{QStringLiteral("Start (ns)"), QStringLiteral("Duration (ns)"), QStringLiteral("Name"),
                            QStringLiteral("Result"),     QStringLiteral("CorrID"),        QStringLiteral("Pid"),
                            QStringLiteral("Tid"),        QStringLiteral("T-Pri"),         QStringLiteral("Thread Name")};
    const std::vector<TraceRow> calls = rowsInTraceOrder(
        report, [](const Track &track, std::uint32_t) { return track.kind == TrackKind::CudaApi ? std::optional(0) : std::nullopt; });
    std::map<StringId, QString> names; // without the version suffix, once per name
    std::map<std::uint32_t, const ThreadInfo *> threadOfTrack;
    t.reserveRows(calls.size());
    for (const TraceRow &c : calls) {
        const Track &track = report.tracks[c.at.track];
        const StringId name = track.slices.name(c.at.event);
        auto it = names.find(name);
        if (it == names.end())
            it = names.emplace(name, apiNameWithoutVersion(report.strings.string(name))).first;
        auto thread = threadOfTrack.find(c.at.track);
        if (thread == threadOfTrack.end())
            thread = threadOfTrack.emplace(c.at.track, report.thread(track.pid, track.tid)).first;
        const ApiCallRecord &call = report.apiCalls[track.slices.payload(c.at.event)];
        const ThreadInfo *info = thread->second;
        t.addRow({Cell::ofInteger(c.start), Cell::ofInteger(track.slices.duration(c.at.event)), Cell::ofText(it->second),
                  Cell::ofInteger(call.returnValue), Cell::ofInteger(call.correlationId), Cell::ofInteger(track.pid), Cell::ofInteger(track.tid),
                  info && info->priority != ThreadInfo::kNoPriority ? Cell::ofInteger(info->priority) : Cell{},
                  info && !info->name.isEmpty() ? Cell::ofText(info->name) : Cell{}});
    }
    return t;
}

} // namespace rankscope::stats
