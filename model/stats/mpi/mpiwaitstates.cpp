#include "stats/mpi/mpiwaitstates.h"
#include "stats/reportcatalog.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace rankscope::stats {

namespace {

// Where a call blocked: a blocking call itself, or the wait completing a
// non-blocking one (none when the trace has no such wait).
struct Blocking {
    EventLocation at;
    TimeNs start = 0, end = 0;
};

std::optional<Blocking> blockingPart(const Session &session, const MpiCall &call)
{
    const Report &r = *session.ranks()[std::size_t(call.at.rank)].report;
    const Track &track = r.tracks[call.at.track];
    if (isMpiNonBlocking(r.strings.view(track.slices.name(call.at.event))))
        return call.completion ? std::optional<Blocking>(Blocking{*call.completion, call.completionStart, call.completionEnd}) : std::nullopt;
    return Blocking{call.at, call.start, call.end};
}

} // namespace

QString mpiWaitPatternName(MpiWaitPattern pattern)
{
    switch (pattern) {
    case MpiWaitPattern::LateSender:
        return QStringLiteral("Late Sender");
    case MpiWaitPattern::LateReceiver:
        return QStringLiteral("Late Receiver");
    case MpiWaitPattern::WaitAtCollective:
        return QStringLiteral("Wait at Collective");
    }
    return {};
}

std::vector<MpiWait> mpiWaits(const Session &session, const MpiMatch &match)
{
    std::vector<MpiWait> waits;
    for (const MpiMessage &m : match.messages) {
        // Late Sender: the receive blocked from its start until the send began.
        if (const auto receive = blockingPart(session, m.receive); receive && m.send.start > receive->start) {
            const TimeNs wait = std::min(m.send.start, receive->end) - receive->start;
            if (wait > 0)
                waits.push_back({MpiWaitPattern::LateSender, m.receive.mpiRank, m.send.mpiRank, receive->at, m.send.at, receive->start, wait});
        }
        // Late Receiver: the send was still blocked when the receive was posted.
        if (const auto send = blockingPart(session, m.send); send && m.receive.start > send->start && send->end > m.receive.start) {
            const TimeNs wait = m.receive.start - send->start;
            waits.push_back({MpiWaitPattern::LateReceiver, m.send.mpiRank, m.receive.mpiRank, send->at, m.receive.at, send->start, wait});
        }
    }
    for (const MpiCollective &c : match.collectives) {
        if (c.calls.size() < 2)
            continue;
        const auto last = std::max_element(c.calls.begin(), c.calls.end(), [](const MpiCall &a, const MpiCall &b) { return a.start < b.start; });
        for (const MpiCall &call : c.calls) {
            const TimeNs wait = std::min(last->start, call.end) - call.start;
            if (&call != &*last && wait > 0)
                waits.push_back({MpiWaitPattern::WaitAtCollective, call.mpiRank, last->mpiRank, call.at, last->at, call.start, wait});
        }
    }
    return waits;
}

ResultTable mpiWaitStatesTable(const Session &session, const MpiMatch &match, const std::vector<MpiWait> &waits)
{
    ResultTable t = declaredTable(QStringLiteral("mpi_wait_states"));
    t.headers = QStringList{QStringLiteral("Pattern"), QStringLiteral("Rank"),      QStringLiteral("Peer"),
                            QStringLiteral("Call"),    QStringLiteral("Instances"), QStringLiteral("Wait (ns)")};
    struct Sum {
        std::int64_t instances = 0;
        TimeNs wait = 0;
    };
    std::map<std::tuple<MpiWaitPattern, int, int, QString>, Sum> sums;
    for (const MpiWait &w : waits) {
        const Report &r = *session.ranks()[std::size_t(w.waiting.rank)].report;
        Sum &s = sums[{w.pattern, w.rank, w.peer, r.strings.string(r.tracks[w.waiting.track].slices.name(w.waiting.event))}];
        ++s.instances;
        s.wait += w.wait;
    }
    std::vector<std::pair<std::tuple<MpiWaitPattern, int, int, QString>, Sum>> rows(sums.begin(), sums.end());
    std::stable_sort(rows.begin(), rows.end(), [](const auto &a, const auto &b) {
        if (std::get<0>(a.first) != std::get<0>(b.first))
            return std::get<0>(a.first) < std::get<0>(b.first);
        return a.second.wait > b.second.wait;
    });
    if (match.unmatchedSends + match.unmatchedReceives > 0)
        t.notes << QStringLiteral("%1 sends and %2 receives were not matched (a wildcard source or tag, a communicator whose handle differs "
                                  "between ranks, or a partner outside the trace): their waits are not counted")
                       .arg(match.unmatchedSends)
                       .arg(match.unmatchedReceives);
    if (match.mismatchedCollectives > 0)
        t.notes << QStringLiteral(
                       "%1 collective calls were not the same operation as the other ranks' call at their place on the communicator: left out")
                       .arg(match.mismatchedCollectives);
    for (const auto &[key, sum] : rows)
        t.addRow({Cell::ofText(mpiWaitPatternName(std::get<0>(key))), Cell::ofInteger(std::get<1>(key)), Cell::ofInteger(std::get<2>(key)),
                  Cell::ofText(std::get<3>(key)), Cell::ofInteger(sum.instances), Cell::ofInteger(sum.wait)});
    return t;
}

} // namespace rankscope::stats
