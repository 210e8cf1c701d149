#include "stats/ranks/collectives.h"
#include "stats/ranks/collectivematching.h"
#include "stats/ranks/cpucommunication.h"
#include "stats/ranks/mpicollectives.h"
#include "stats/reportcatalog.h"

#include "core/cancellation.h"
#include "core/intervals.h"
#include "core/units.h"
#include "session/eventlinks.h"
#include "stats/ranks/collectiveinputs.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

namespace rankscope::stats {

QString collectiveKindName(CollectiveKind kind)
{
    switch (kind) {
    case CollectiveKind::AllReduce:
        return QStringLiteral("AllReduce");
    case CollectiveKind::AllGather:
        return QStringLiteral("AllGather");
    case CollectiveKind::ReduceScatter:
        return QStringLiteral("ReduceScatter");
    case CollectiveKind::Broadcast:
        return QStringLiteral("Broadcast");
    case CollectiveKind::Reduce:
        return QStringLiteral("Reduce");
    case CollectiveKind::AllToAll:
        return QStringLiteral("AllToAll");
    case CollectiveKind::SendRecv:
        return QStringLiteral("SendRecv");
    case CollectiveKind::Send:
        return QStringLiteral("Send");
    case CollectiveKind::Recv:
        return QStringLiteral("Recv");
    case CollectiveKind::Other:
        break;
    }
    return QStringLiteral("Other");
}

namespace {

// Lower case, letters and digits only: "_reduce_scatter_base" and
// "ReduceScatter" both read "reducescatterbase"/"reducescatter".
std::string normalised(std::string_view name)
{
    std::string out;
    out.reserve(name.size());
    for (const char c : name)
        if (std::isalnum(static_cast<unsigned char>(c)))
            out += char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::optional<CollectiveKind> kindInName(std::string_view name)
{
    const std::string n = normalised(name);
    // NCCL's grouped calls: "ncclSend + ncclRecv".
    if (n.find("send") != std::string::npos && n.find("recv") != std::string::npos)
        return CollectiveKind::SendRecv;
    // Longer names first: "allreduce" and "reducescatter" contain "reduce".
    static const std::pair<const char *, CollectiveKind> kinds[] = {
        {"allreduce", CollectiveKind::AllReduce}, {"reducescatter", CollectiveKind::ReduceScatter},
        {"allgather", CollectiveKind::AllGather}, {"alltoall", CollectiveKind::AllToAll},
        {"sendrecv", CollectiveKind::SendRecv},   {"broadcast", CollectiveKind::Broadcast},
        {"reduce", CollectiveKind::Reduce},       {"send", CollectiveKind::Send},
        {"recv", CollectiveKind::Recv},
    };
    for (const auto &[text, kind] : kinds)
        if (n.find(text) != std::string::npos)
            return kind;
    return std::nullopt;
}

} // namespace

CollectiveKind collectiveKindOf(std::string_view collectiveName, std::string_view kernelName)
{
    if (const auto kind = kindInName(collectiveName))
        return *kind;
    return kindInName(kernelName).value_or(CollectiveKind::Other);
}

double busBandwidthFactor(CollectiveKind kind, int ranks)
{
    if (ranks <= 0)
        return 1.0;
    const double n = ranks;
    switch (kind) {
    case CollectiveKind::AllReduce:
        return 2.0 * (n - 1) / n;
    case CollectiveKind::AllGather:
    case CollectiveKind::ReduceScatter:
    case CollectiveKind::AllToAll:
        return (n - 1) / n;
    default:
        return 1.0;
    }
}

std::optional<double> CollectiveInstance::algorithmBandwidth() const
{
    if (bytes < 0 || transfer() <= 0)
        return std::nullopt;
    return double(bytes) / double(transfer()); // bytes per ns = GB/s
}

std::optional<double> CollectiveInstance::busBandwidth() const
{
    const auto alg = algorithmBandwidth();
    if (!alg)
        return std::nullopt;
    return *alg * busBandwidthFactor(kind, groupSize);
}

bool isPointToPoint(CollectiveKind kind)
{
    return kind == CollectiveKind::Send || kind == CollectiveKind::Recv || kind == CollectiveKind::SendRecv;
}

namespace {

// The note that says a match's times are as recorded; an aligned match
// replaces it with its own.
const QString &recordedTimesNote()
{
    static const QString note = QStringLiteral("Times as recorded: the reports are aligned on their recorded UTC starts.");
    return note;
}

} // namespace

CollectiveMatch matchCollectives(const Session &session, const KernelClassifier &classes)
{
    CollectiveInputs inputs(session, classes);
    return matchCollectives(inputs);
}

namespace {

// The communication kernels' (or Gloo's CPU ranges') instances, matched
// per communicator, with the notes on how.
void matchCommunicationOperations(const Session &session, CommunicatorGroups &groups, CollectiveMatch &match)
{
    const bool onCpu =
        std::all_of(groups.communicators.begin(), groups.communicators.end(), [](const auto &c) { return isCpuCommunicator(c.first); });
    if (!groups.ranksWithout.isEmpty() && groups.ranksWithout.size() < int(session.ranks().size()))
        match.notes << QStringLiteral("Ranks without communication kernels: %1.").arg(groups.ranksWithout.join(QStringLiteral(", ")));
    if (onCpu) // a Gloo run: its gloo:* ranges, numbered by us
        match.notes << cpuCommunicationNote(cpuCommunicationOf(session));
    else
        match.notes << (groups.keyedByGroup
                            ? QStringLiteral("Collectives matched by process group (or NCCL communicator; sends and receives by the pair of ranks), "
                                             "in order of their end on each rank.")
                            : QStringLiteral("The trace names no process groups: the communication kernels of each rank's k-th "
                                             "communication stream are matched with the other ranks' by their end, which a "
                                             "collective reaches on every rank together."));
    bool usedSequences = false;
    for (auto &[communicator, perRank] : groups.communicators) {
        if (perRank.size() < 2) {
            match.notes << QStringLiteral("%1 has operations on rank %2 only: nothing to match.")
                               .arg(communicator)
                               .arg(session.ranks()[std::size_t(perRank.begin()->first)].rank);
            continue;
        }
        const MatchingOrder order = orderForMatching(perRank);
        usedSequences = usedSequences || order.bySequence;
        CommunicatorMatch matched = matchCommunicator(communicator, perRank, order);
        std::move(matched.instances.begin(), matched.instances.end(), std::back_inserter(match.instances));
        std::move(matched.desyncs.begin(), matched.desyncs.end(), std::back_inserter(match.desyncs));
    }
    if (usedSequences && !onCpu)
        match.notes << QStringLiteral("Where every operation of a process group carries the trace's sequence number (Kineto's \"Seq\"), "
                                      "its instances are the operations of one number.");
}

} // namespace

CollectiveMatch matchCollectives(CollectiveInputs &inputs)
{
    const Session &session = inputs.session();
    CollectiveMatch match;
    CommunicatorGroups groups = groupByCommunicator(inputs);
    // MPI's collectives, matched per communicator in call order.
    const std::shared_ptr<const MpiMatch> mpiMatch = sharedMpiMatch(session);
    std::vector<CollectiveInstance> mpi = mpiCollectiveInstances(session, *mpiMatch);
    if (groups.communicators.empty() && mpi.empty()) {
        match.notes << QStringLiteral("No communication kernels (NCCL or the other libraries of the kernel classes) in any rank: "
                                      "there are no collectives to match.");
        // A Gloo run communicates all the same: on the CPU.
        if (const QString cpu = cpuCommunicationNote(cpuCommunicationOf(session)); !cpu.isEmpty())
            match.notes << cpu;
        return match;
    }
    if (!groups.communicators.empty())
        matchCommunicationOperations(session, groups, match);
    if (!mpi.empty()) {
        match.notes << QStringLiteral("MPI collectives matched per communicator in call order: the k-th collective call of every rank "
                                      "on a communicator is one operation.");
        if (mpiMatch->mismatchedCollectives > 0)
            match.notes << QStringLiteral("%1 MPI collective calls were not the same operation as the other ranks' call at their place "
                                          "on the communicator: left out.")
                               .arg(mpiMatch->mismatchedCollectives);
        std::move(mpi.begin(), mpi.end(), std::back_inserter(match.instances));
    }
    std::stable_sort(match.instances.begin(), match.instances.end(),
                     [](const CollectiveInstance &a, const CollectiveInstance &b) { return a.firstArrival < b.firstArrival; });
    if (!match.instances.empty())
        match.notes << recordedTimesNote();
    for (const CommunicatorDesync &d : match.desyncs)
        match.notes << desyncNote(session, d);
    return match;
}

std::vector<RankWait> rankWaits(const Session &session, const CollectiveMatch &match, const StatsScope &scope, const KernelClassifier &classes)
{
    CollectiveInputs inputs(session, classes);
    return rankWaits(inputs, match, scope);
}

std::vector<RankWait> rankWaits(CollectiveInputs &inputs, const CollectiveMatch &match, const StatsScope &scope)
{
    const Session &session = inputs.session();
    const std::size_t rankCount = session.ranks().size();
    std::vector<RankWait> rows(rankCount);
    RankPass rankPass(rankCount);
    for (std::size_t ri = 0; ri < rankCount; ++ri) {
        rankPass.next(); // gives up if a newer request replaced this one (core/cancellation.h)
        rows[ri].rankIndex = int(ri);
        rows[ri].rank = session.ranks()[ri].rank;
    }
    for (const CollectiveInstance &c : match.instances) {
        if (!isInScope(c, scope))
            continue;
        for (const CollectiveArrival &a : c.arrivals) {
            RankWait &w = rows[std::size_t(a.rankIndex)];
            ++w.collectives;
            w.waited += c.waitOf(a);
            if (a.rankIndex == c.lastRankIndex) {
                ++w.timesLast;
                for (const CollectiveArrival &other : c.arrivals)
                    w.delayCaused += c.waitOf(other);
            }
            // The late interval on the rank's own (recorded) timeline.
            const TimeNs shift = match.shiftOf(a.rankIndex);
            const TimeNs from = c.firstArrival - shift, to = a.start - shift;
            if (to <= from)
                continue;
            const std::vector<Interval> &runs = inputs.otherGpuWorkOf(a.rankIndex);
            const TimeNs compute = coveredIn(runs, from, to);
            // From the launching call on, an idle GPU waits for the launch.
            TimeNs host = 0;
            if (a.launch && *a.launch - shift < to) {
                const TimeNs launchFrom = std::max(from, *a.launch - shift);
                host = (to - launchFrom) - coveredIn(runs, launchFrom, to);
            }
            w.late += to - from;
            w.lateCompute += compute;
            w.lateHost += host;
            w.lateIdle += (to - from) - compute - host;
        }
    }
    return rows;
}

std::vector<ClockEstimate> alignOnCollectives(const Session &session, const CollectiveMatch &match)
{
    const std::size_t rankCount = session.ranks().size();
    std::vector<ClockEstimate> out(rankCount);
    if (rankCount == 0)
        return out;
    // The reference: the lowest rank index that takes part in anything.
    int reference = -1;
    for (const CollectiveInstance &c : match.instances)
        if (c.endsTogether)
            for (const CollectiveArrival &a : c.arrivals)
                if (reference < 0 || a.rankIndex < reference)
                    reference = a.rankIndex;
    if (reference < 0)
        return out;
    std::vector<std::vector<TimeNs>> differences(rankCount);
    for (const CollectiveInstance &c : match.instances) {
        if (!c.endsTogether)
            continue;
        const auto ref = std::find_if(c.arrivals.begin(), c.arrivals.end(), [&](const CollectiveArrival &a) { return a.rankIndex == reference; });
        if (ref == c.arrivals.end())
            continue;
        for (const CollectiveArrival &a : c.arrivals)
            differences[std::size_t(a.rankIndex)].push_back(ref->end - a.end);
    }
    auto median = [](std::vector<TimeNs> v) {
        const auto mid = v.begin() + std::ptrdiff_t(v.size() / 2);
        std::nth_element(v.begin(), mid, v.end());
        return *mid;
    };
    RankPass rankPass(rankCount);
    for (std::size_t ri = 0; ri < rankCount; ++ri) {
        rankPass.next(); // gives up if a newer request replaced this one (core/cancellation.h)
        const std::vector<TimeNs> &d = differences[ri];
        if (d.empty())
            continue;
        ClockEstimate &e = out[ri];
        e.collectives = d.size();
        // Processes of one export were recorded against one clock: no
        // offset to estimate (what remains is the collective's own
        // asymmetry, e.g. a send ending before its receive).
        e.sameClock = session.ranks()[ri].report == session.ranks()[std::size_t(reference)].report;
        e.offset = e.sameClock ? 0 : median(d);
        std::vector<TimeNs> distance;
        distance.reserve(d.size());
        for (const TimeNs x : d)
            distance.push_back(x > *e.offset ? x - *e.offset : *e.offset - x);
        e.residual = median(std::move(distance));
    }
    return out;
}

const CollectiveInstance *instanceOfKernel(const Session &session, const CollectiveMatch &match, const EventLocation &kernel)
{
    if (!kernel.isValid() || std::size_t(kernel.rank) >= session.ranks().size())
        return nullptr;
    const Track &selected = session.track(kernel);
    if (selected.kind == TrackKind::Mpi) // an MPI collective's call: the arrival itself
        for (const CollectiveInstance &c : match.instances)
            for (const CollectiveArrival &a : c.arrivals)
                if (a.kernel == kernel)
                    return &c;
    if (selected.kind != TrackKind::Kernel && selected.kind != TrackKind::NcclKernels)
        return nullptr;
    // Both rows' payloads are the kernel's row in Report::kernels.
    const std::uint32_t record = selected.slices.payload(kernel.event);
    for (const CollectiveInstance &c : match.instances)
        for (const CollectiveArrival &a : c.arrivals)
            if (a.rankIndex == kernel.rank && session.track(a.kernel).slices.payload(a.kernel.event) == record)
                return &c;
    return nullptr;
}

bool isInScope(const CollectiveInstance &c, const StatsScope &scope)
{
    return !scope.range || (c.firstArrival >= scope.range->start && c.firstArrival < scope.range->end);
}

QString suggestedOffsetsNote(const Session &session, const std::vector<ClockEstimate> &clocks)
{
    constexpr std::size_t kNamed = 8; // a note of 255 offsets is read by nobody
    std::vector<std::size_t> shifted;
    QStringList sameClock;
    std::size_t agreeing = 0;
    for (std::size_t ri = 0; ri < clocks.size(); ++ri) {
        if (!clocks[ri].offset)
            continue;
        if (clocks[ri].sameClock)
            sameClock << QString::number(session.ranks()[ri].rank);
        else if (*clocks[ri].offset != 0)
            shifted.push_back(ri);
        else
            ++agreeing;
    }
    if (!shifted.empty()) {
        std::stable_sort(shifted.begin(), shifted.end(),
                         [&](std::size_t a, std::size_t b) { return std::abs(*clocks[a].offset) > std::abs(*clocks[b].offset); });
        QStringList named;
        for (std::size_t k = 0; k < std::min(kNamed, shifted.size()); ++k) {
            const ClockEstimate &e = clocks[shifted[k]];
            named << QStringLiteral("rank %1 %2 (residual %3)")
                         .arg(session.ranks()[shifted[k]].rank)
                         .arg(formatDuration(*e.offset), formatDuration(e.residual.value_or(0)));
        }
        QString note = QStringLiteral("Clock offsets the collectives suggest: %1").arg(named.join(QStringLiteral(", ")));
        if (shifted.size() > kNamed)
            note += QStringLiteral(", and %1 more ranks").arg(shifted.size() - kNamed);
        if (agreeing > 0)
            note += QStringLiteral("; %1 other ranks' clocks agree as recorded").arg(agreeing);
        return note + QLatin1Char('.');
    }
    if (sameClock.size() > 1)
        return QStringLiteral("Ranks %1 are in one export: one clock, nothing to align.").arg(sameClock.join(QStringLiteral(", ")));
    if (agreeing > 0)
        return QStringLiteral("The collectives end together as recorded: the ranks' clocks agree, nothing to align.");
    return {};
}

CollectiveMatch alignedOnCollectives(const Session &session, const CollectiveMatch &match)
{
    const std::vector<ClockEstimate> clocks = alignOnCollectives(session, match);
    CollectiveMatch aligned = match;
    aligned.notes.removeAll(recordedTimesNote());
    aligned.clockShift.assign(session.ranks().size(), 0);
    std::vector<std::size_t> estimated; // ranks with an offset
    bool agree = true;
    for (std::size_t ri = 0; ri < clocks.size(); ++ri) {
        const ClockEstimate &e = clocks[ri];
        if (!e.offset)
            continue;
        // An offset within the matching's own scatter (3 residuals) or
        // 50 µs is no evidence of a clock difference.
        const TimeNs magnitude = *e.offset < 0 ? -*e.offset : *e.offset;
        agree = agree && (e.sameClock || magnitude <= std::max<TimeNs>(50'000, 3 * *e.residual));
        aligned.clockShift[ri] = *e.offset;
        estimated.push_back(ri);
    }
    // The largest offsets by name, the rest counted: a note of hundreds of
    // ranks' offsets is read by nobody (the status bar, the CLI's stderr).
    constexpr std::size_t kNamed = 8;
    std::stable_sort(estimated.begin(), estimated.end(),
                     [&](std::size_t a, std::size_t b) { return std::abs(*clocks[a].offset) > std::abs(*clocks[b].offset); });
    QStringList offsets;
    for (std::size_t k = 0; k < std::min(kNamed, estimated.size()); ++k) {
        const ClockEstimate &e = clocks[estimated[k]];
        // In readable units, as the thresholds beside them ("50 µs").
        offsets << QStringLiteral("rank %1 %2%3 (residual %4)")
                       .arg(session.ranks()[estimated[k]].rank)
                       .arg(*e.offset >= 0 ? QStringLiteral("+") : QString())
                       .arg(formatDuration(*e.offset), formatDuration(*e.residual));
    }
    if (estimated.size() > kNamed)
        offsets << QStringLiteral("and %1 more ranks with smaller offsets").arg(estimated.size() - kNamed);
    if (offsets.isEmpty()) {
        aligned.notes << QStringLiteral("Aligned on collectives: no rank shares a collective with another; times as recorded.");
        return aligned;
    }
    if (agree) {
        aligned.clockShift.assign(session.ranks().size(), 0);
        aligned.notes << QStringLiteral("Aligned on collectives: the recorded clocks already agree (one export, or offsets within "
                                        "50 µs or three residuals, as on one host), no correction: %1.")
                             .arg(offsets.join(QStringLiteral(", ")));
        return aligned;
    }
    for (CollectiveInstance &c : aligned.instances) {
        for (CollectiveArrival &a : c.arrivals) {
            const TimeNs shift = aligned.shiftOf(a.rankIndex);
            a.start += shift;
            a.end += shift;
            if (a.launch)
                *a.launch += shift;
        }
        measureInstance(c);
    }
    std::stable_sort(aligned.instances.begin(), aligned.instances.end(),
                     [](const CollectiveInstance &a, const CollectiveInstance &b) { return a.firstArrival < b.firstArrival; });
    aligned.notes << QStringLiteral("Aligned on collectives (the ends of matched collectives lined up): %1.").arg(offsets.join(QStringLiteral(", ")));
    return aligned;
}

ResultTable collectivesTable(const Session &session, const CollectiveMatch &match, const StatsScope &scope)
{
    ResultTable t = declaredTable(QStringLiteral("collectives"));
    t.headers = QStringList{
        QStringLiteral("Index"),     QStringLiteral("Communicator"), QStringLiteral("Sequence"),           QStringLiteral("Name"),
        QStringLiteral("Ranks"),     QStringLiteral("Bytes"),        QStringLiteral("First Arrival (ns)"), QStringLiteral("Last Arrival (ns)"),
        QStringLiteral("Last Rank"), QStringLiteral("Skew (ns)"),    QStringLiteral("End (ns)"),           QStringLiteral("Bus Bandwidth (GB/s)")};
    // Times from the session's first event, the timeline's 0.
    const TimeNs zero = session.ranks().empty() ? 0 : session.extent().start;
    std::int64_t index = 0;
    for (const CollectiveInstance &c : match.instances) {
        if (!isInScope(c, scope)) {
            ++index; // an instance keeps its index in every scope
            continue;
        }
        const auto bus = c.busBandwidth();
        t.addRow({Cell::ofInteger(index++), Cell::ofText(c.communicator), Cell::ofInteger(std::int64_t(c.sequence)), Cell::ofText(c.name),
                  Cell::ofInteger(std::int64_t(c.arrivals.size())), c.bytes >= 0 ? Cell::ofInteger(c.bytes) : Cell(),
                  Cell::ofInteger(c.firstArrival - zero), Cell::ofInteger(c.lastArrival - zero),
                  Cell::ofInteger(session.ranks()[std::size_t(c.lastRankIndex)].rank), Cell::ofInteger(c.skew()), Cell::ofInteger(c.end - zero),
                  bus ? Cell::ofDecimal(*bus, 3) : Cell()});
    }
    return t;
}

ResultTable collectiveKindsTable(const CollectiveMatch &match, const StatsScope &scope)
{
    struct Group {
        std::vector<TimeNs> skews;
        std::int64_t bytes = 0;
        bool bytesKnown = false;
        TimeNs waited = 0;
        double busSum = 0;
        std::size_t busCount = 0;
    };
    std::map<std::pair<QString, QString>, Group> groups; // communicator, name
    for (const CollectiveInstance &c : match.instances) {
        if (!isInScope(c, scope))
            continue;
        Group &g = groups[{c.communicator, c.name}];
        g.skews.push_back(c.skew());
        if (c.bytes >= 0) {
            g.bytes += c.bytes;
            g.bytesKnown = true;
        }
        for (const CollectiveArrival &a : c.arrivals)
            g.waited += c.waitOf(a);
        if (const auto bus = c.busBandwidth()) {
            g.busSum += *bus;
            ++g.busCount;
        }
    }
    ResultTable t;
    t.name = QStringLiteral("collective_kinds");
    t.title = QStringLiteral("Collectives by Communicator and Name");
    t.headers = QStringList{QStringLiteral("Communicator"),
                            QStringLiteral("Name"),
                            QStringLiteral("Count"),
                            QStringLiteral("Bytes"),
                            QStringLiteral("Mean Skew (ns)"),
                            QStringLiteral("Median Skew (ns)"),
                            QStringLiteral("P99 Skew (ns)"),
                            QStringLiteral("Total Wait (ns)"),
                            QStringLiteral("Mean Bus Bandwidth (GB/s)")};
    for (auto &[key, g] : groups) {
        std::sort(g.skews.begin(), g.skews.end());
        const std::size_t n = g.skews.size();
        TimeNs sum = 0;
        for (const TimeNs s : g.skews)
            sum += s;
        // Nearest rank: the smallest skew at or above 99% of the instances.
        const std::size_t p99 = std::min(n - 1, std::size_t(std::ceil(0.99 * double(n))) - 1);
        const TimeNs median = n % 2 ? g.skews[n / 2] : (g.skews[n / 2 - 1] + g.skews[n / 2]) / 2;
        t.addRow({Cell::ofText(key.first), Cell::ofText(key.second), Cell::ofInteger(std::int64_t(n)),
                  g.bytesKnown ? Cell::ofInteger(g.bytes) : Cell(), Cell::ofInteger(sum / TimeNs(n)), Cell::ofInteger(median),
                  Cell::ofInteger(g.skews[p99]), Cell::ofInteger(g.waited), g.busCount ? Cell::ofDecimal(g.busSum / double(g.busCount), 3) : Cell()});
    }
    return t;
}

ResultTable rankWaitTable(const Session &session, const CollectiveMatch &match, const StatsScope &scope, const KernelClassifier &classes)
{
    CollectiveInputs inputs(session, classes);
    return rankWaitTable(inputs, match, scope);
}

ResultTable rankWaitTable(CollectiveInputs &inputs, const CollectiveMatch &match, const StatsScope &scope)
{
    return rankWaitTable(rankWaits(inputs, match, scope));
}

ResultTable rankWaitTable(const std::vector<RankWait> &waits)
{
    ResultTable t = declaredTable(QStringLiteral("rank_wait"));
    t.headers = QStringList{
        QStringLiteral("Rank"),        QStringLiteral("Collectives"),       QStringLiteral("Times Last"),     QStringLiteral("Delay Caused (ns)"),
        QStringLiteral("Waited (ns)"), QStringLiteral("Late: Compute (%)"), QStringLiteral("Late: Idle (%)"), QStringLiteral("Late: Host (%)")};
    auto share = [](TimeNs part, TimeNs whole) { return whole > 0 ? Cell::ofDecimal(100.0 * double(part) / double(whole), 1) : Cell(); };
    for (const RankWait &w : waits)
        t.addRow({Cell::ofInteger(w.rank), Cell::ofInteger(std::int64_t(w.collectives)), Cell::ofInteger(std::int64_t(w.timesLast)),
                  Cell::ofInteger(w.delayCaused), Cell::ofInteger(w.waited), share(w.lateCompute, w.late), share(w.lateIdle, w.late),
                  share(w.lateHost, w.late)});
    return t;
}

} // namespace rankscope::stats
