#include "stats/ranks/collectivematching.h"

#include "core/cancellation.h"

#include <algorithm>

namespace rankscope::stats {

namespace {

// How many of a rank's operations end within the tolerance of the
// reference rank's once shifted by `shift` (in order, each used once).
std::size_t endsMatched(const std::vector<CollectiveOp> &reference, const std::vector<CollectiveOp> &ops, TimeNs shift, TimeNs tolerance)
{
    std::size_t matched = 0;
    for (std::size_t i = 0, j = 0; i < reference.size() && j < ops.size();) {
        const TimeNs d = ops[j].end + shift - reference[i].end;
        if (d < -tolerance) {
            ++j;
        } else if (d > tolerance) {
            ++i;
        } else {
            ++matched;
            ++i;
            ++j;
        }
    }
    return matched;
}

} // namespace

CommunicatorGroups groupByCommunicator(CollectiveInputs &inputs)
{
    const Session &session = inputs.session();
    CommunicatorGroups groups;
    RankPass rankPass(session.ranks().size());
    for (int ri = 0; ri < int(session.ranks().size()); ++ri) {
        rankPass.next(); // gives up if a newer request replaced this one (core/cancellation.h)
        const RankCollectiveOps &ops = inputs.of(ri);
        groups.keyedByGroup = groups.keyedByGroup || ops.keyedByGroup;
        if (ops.byCommunicator.empty())
            groups.ranksWithout << QString::number(session.ranks()[std::size_t(ri)].rank);
        const RunSide side = session.ranks()[std::size_t(ri)].side;
        for (const auto &[communicator, list] : ops.byCommunicator)
            groups.communicators[side == RunSide::None ? communicator : runSideName(side) + QStringLiteral(": ") + communicator][ri] = list;
    }
    return groups;
}

// Half the usual time between a rank's consecutive operations on a
// communicator: operations of one instance end together (up to the ranks'
// clock offsets), the next instance's a step later.
TimeNs matchingTolerance(const OpsPerRank &perRank)
{
    std::vector<TimeNs> spacing;
    for (const auto &[ri, ops] : perRank)
        for (std::size_t i = 1; i < ops.size(); ++i)
            spacing.push_back(ops[i].end - ops[i - 1].end);
    if (spacing.empty())
        return kTimeMax / 4;
    const auto mid = spacing.begin() + std::ptrdiff_t(spacing.size() / 2);
    std::nth_element(spacing.begin(), mid, spacing.end());
    return std::max<TimeNs>(*mid / 2, 1);
}

// The shift that lines a rank's operation ends up with the reference
// rank's, for matching only: across hosts the recorded clocks can be off by
// more than the time between collectives. Candidates pair one of the first
// few operations of each; the one that matches most wins (no shift on a
// tie), so a skipped operation cannot mislead it as a k-th-with-k-th guess
// would.
TimeNs matchingShift(const std::vector<CollectiveOp> &reference, const std::vector<CollectiveOp> &ops, TimeNs tolerance)
{
    constexpr std::size_t kCandidates = 4;
    TimeNs best = 0;
    std::size_t bestMatched = endsMatched(reference, ops, 0, tolerance);
    for (std::size_t i = 0; i < std::min(kCandidates, reference.size()); ++i)
        for (std::size_t j = 0; j < std::min(kCandidates, ops.size()); ++j) {
            const TimeNs shift = reference[i].end - ops[j].end;
            const std::size_t matched = endsMatched(reference, ops, shift, tolerance);
            if (matched > bestMatched || (matched == bestMatched && std::abs(shift) < std::abs(best))) {
                best = shift;
                bestMatched = matched;
            }
        }
    return best;
}

void measureInstance(CollectiveInstance &c)
{
    c.firstArrival = c.arrivals.front().start;
    c.lastArrival = c.arrivals.front().start;
    c.lastRankIndex = c.arrivals.front().rankIndex;
    c.end = c.arrivals.front().end;
    for (const CollectiveArrival &a : c.arrivals) {
        c.firstArrival = std::min(c.firstArrival, a.start);
        if (a.start > c.lastArrival) {
            c.lastArrival = a.start;
            c.lastRankIndex = a.rankIndex;
        }
        c.end = std::max(c.end, a.end);
    }
}

TimeNs MatchingOrder::keyOf(int rankIndex, const CollectiveOp &op) const
{
    if (bySequence)
        return TimeNs(op.sequence);
    const auto it = shift.find(rankIndex);
    return op.end + (it == shift.end() ? 0 : it->second);
}

MatchingOrder orderForMatching(OpsPerRank &perRank)
{
    MatchingOrder order;
    order.bySequence = !perRank.empty();
    for (const auto &[ri, ops] : perRank)
        for (const CollectiveOp &op : ops)
            order.bySequence = order.bySequence && op.sequence >= 0 && !isPointToPoint(op.kind);
    if (order.bySequence) {
        for (auto &[ri, ops] : perRank)
            std::stable_sort(ops.begin(), ops.end(), [](const CollectiveOp &a, const CollectiveOp &b) { return a.sequence < b.sequence; });
        for (const auto &[ri, ops] : perRank)
            order.shift[ri] = 0;
        return order;
    }
    order.tolerance = matchingTolerance(perRank);
    for (const auto &[ri, ops] : perRank)
        order.shift[ri] = perRank.empty() ? 0 : matchingShift(perRank.begin()->second, ops, order.tolerance);
    return order;
}

CommunicatorMatch matchCommunicator(const QString &communicator, const OpsPerRank &perRank, const MatchingOrder &order)
{
    CommunicatorMatch out;
    std::size_t most = 0;
    for (const auto &[ri, ops] : perRank)
        most = std::max(most, ops.size());
    // Greedy by the key: the operations that come with the earliest
    // remaining one (within the tolerance) are one instance; a rank whose
    // next operation comes later has none in it: it skipped it.
    std::map<int, std::size_t> next, firstMissing, skipped;
    for (const auto &[ri, ops] : perRank)
        next[ri] = 0;
    for (std::size_t sequence = 0;; ++sequence) {
        TimeNs earliest = kTimeMax;
        for (const auto &[ri, ops] : perRank)
            if (next[ri] < ops.size())
                earliest = std::min(earliest, order.keyOf(ri, ops[next[ri]]));
        if (earliest == kTimeMax)
            break;
        CollectiveInstance c;
        c.communicator = communicator;
        c.sequence = sequence;
        std::vector<int> absent; // ranks with later operations only
        for (const auto &[ri, ops] : perRank) {
            if (next[ri] >= ops.size())
                continue;
            const CollectiveOp &op = ops[next[ri]];
            if (order.keyOf(ri, op) > earliest + order.tolerance) {
                absent.push_back(ri);
                continue;
            }
            ++next[ri];
            CollectiveArrival a;
            a.rankIndex = ri;
            a.kernel = {ri, op.track, op.event};
            a.start = op.start;
            a.end = op.end;
            a.launch = op.launch;
            if (c.arrivals.empty()) {
                c.kind = op.kind;
                c.name = op.name;
            }
            if (c.bytes < 0)
                c.bytes = op.bytes;
            c.groupSize = std::max(c.groupSize, op.groupSize);
            c.arrivals.push_back(a);
        }
        if (c.arrivals.size() < 2)
            continue; // one rank's extra operation: the others skipped nothing
        for (const int ri : absent) {
            firstMissing.try_emplace(ri, sequence);
            ++skipped[ri];
        }
        c.groupSize = std::max<int>(c.groupSize, int(c.arrivals.size()));
        measureInstance(c);
        out.instances.push_back(std::move(c));
    }
    for (const auto &[ri, ops] : perRank)
        if (ops.size() < most || firstMissing.count(ri)) {
            const auto missing = firstMissing.find(ri);
            out.desyncs.push_back({communicator, ri, ops.size(), most, skipped[ri],
                                   missing != firstMissing.end() ? std::optional<std::size_t>(missing->second) : std::nullopt});
        }
    return out;
}

QString desyncNote(const Session &session, const CommunicatorDesync &d)
{
    const int rank = session.ranks()[std::size_t(d.rankIndex)].rank;
    QString note =
        QStringLiteral("Desync on %1: rank %2 has %3 operations, another rank %4").arg(d.communicator).arg(rank).arg(d.operations).arg(d.expected);
    if (d.firstMissing)
        note += QStringLiteral("; rank %1 is absent from %2 instance(s) the others took part in, the first operation #%3")
                    .arg(rank)
                    .arg(d.skipped)
                    .arg(*d.firstMissing);
    else
        note += QStringLiteral(" (%1 behind at the end, or cut by the capture)").arg(d.expected - d.operations);
    return note + QLatin1Char('.');
}

} // namespace rankscope::stats
