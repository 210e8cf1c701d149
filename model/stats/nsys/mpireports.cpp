#include "stats/nsys/mpireports.h"
#include "stats/reportcatalog.h"

#include "stats/nsys/traceorder.h"
#include "stats/summary.h"
#include "stats/summarygroups.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <vector>

namespace rankscope::stats {

namespace {

constexpr double kMB = 1e6;

// The order nsys' queries put the tables in (UNION ALL): where two calls
// start at once, the earlier table's comes first.
int tableOrder(MpiCallKind kind)
{
    switch (kind) {
    case MpiCallKind::PointToPoint:
        return 0;
    case MpiCallKind::StartWait:
        return 1;
    case MpiCallKind::Other:
        return 2;
    case MpiCallKind::Collective:
        return 3;
    }
    return 4;
}

Cell valueCell(std::int64_t value)
{
    return value == MpiRecord::kNone ? Cell{} : Cell::ofInteger(value);
}

Cell megabytesCell(std::int64_t bytes)
{
    return bytes == MpiRecord::kNone ? Cell{} : Cell::ofDecimal(double(bytes) / kMB, 3);
}

} // namespace

ResultTable mpiEventSum(const Report &report)
{
    ResultTable t = declaredTable(QStringLiteral("mpi_event_sum"));
    t.headers = timeSummaryHeaders(QStringLiteral("Instances"), {QStringLiteral("Source"), QStringLiteral("Name")});
    std::map<std::pair<MpiCallKind, StringId>, std::vector<std::int64_t>> durations; // by source and function
    for (const Track &track : report.tracks) {
        if (track.kind != TrackKind::Mpi)
            continue;
        for (std::size_t i = 0; i < track.slices.size(); ++i)
            durations[{report.mpiCalls[track.slices.payload(i)].kind, track.slices.name(i)}].push_back(track.slices.duration(i));
    }
    std::int64_t grandTotal = 0;
    for (auto &[group, values] : durations) {
        const Summary s = summarize(values);
        grandTotal += s.total;
        const std::size_t row = t.appendRow();
        writeSummaryCells(t, row, s);
        t.setText(row, 8, std::string_view(mpiCallKindSource(group.first)));
        t.setReportText(row, 9, report, group.second);
    }
    fillTimeShares(t, grandTotal);
    sortSummaryRows(t, 1, 2, 8);
    return t;
}

ResultTable mpiEventTrace(const Report &report)
{
    ResultTable t = declaredTable(QStringLiteral("mpi_event_trace"));
    t.headers = QStringList{QStringLiteral("Start (ns)"),
                            QStringLiteral("End (ns)"),
                            QStringLiteral("Duration (ns)"),
                            QStringLiteral("Event"),
                            QStringLiteral("Pid"),
                            QStringLiteral("Tid"),
                            QStringLiteral("Tag"),
                            QStringLiteral("Rank"),
                            QStringLiteral("PeerRank"),
                            QStringLiteral("RootRank"),
                            QStringLiteral("Size (MB)"),
                            QStringLiteral("CollSendSize (MB)"),
                            QStringLiteral("CollRecvSize (MB)")};
    const std::vector<TraceRow> calls = rowsInTraceOrder(report, [&](const Track &track, std::uint32_t i) -> std::optional<int> {
        if (track.kind != TrackKind::Mpi)
            return std::nullopt;
        return tableOrder(report.mpiCalls[track.slices.payload(i)].kind);
    });
    t.reserveRows(calls.size());
    for (const TraceRow &c : calls) {
        const Track &track = report.tracks[c.at.track];
        const MpiRecord &m = report.mpiCalls[track.slices.payload(c.at.event)];
        const bool collective = m.kind == MpiCallKind::Collective;
        t.addRow({Cell::ofInteger(c.start), Cell::ofInteger(track.slices.end(c.at.event)), Cell::ofInteger(track.slices.duration(c.at.event)),
                  Cell::ofText(report.strings.string(track.slices.name(c.at.event))), Cell::ofInteger(track.pid), Cell::ofInteger(track.tid),
                  valueCell(m.tag), m.rank < 0 ? Cell{} : Cell::ofInteger(m.rank), valueCell(m.peer), valueCell(m.root),
                  megabytesCell(collective ? MpiRecord::kNone : m.size), megabytesCell(collective ? m.size : MpiRecord::kNone),
                  megabytesCell(collective ? m.recvSize : MpiRecord::kNone)});
    }
    return t;
}

} // namespace rankscope::stats
