#include "stats/ranks/rankcomparison.h"
#include "stats/ranks/cpucommunication.h"
#include "stats/ranks/stepmatrix.h"
#include "stats/reportcatalog.h"

#include "core/cancellation.h"
#include "core/intervals.h"
#include "stats/ranks/collectives.h"

#include <QRegularExpression>

#include <algorithm>
#include <unordered_map>

namespace rankscope::stats {

std::vector<TimeRange> annotatedSteps(const RankEntry &entry)
{
    return stepRangesOf(entry, nullptr);
}

namespace {

// A row from its GPU time split (core/gputimesplit.h), without the waits.
RankComparisonRow rowFrom(const GpuTimeSplit &split, int rankIndex, int rank)
{
    RankComparisonRow row;
    row.rankIndex = rankIndex;
    row.rank = rank;
    if (split.gpuOperations > 0) {
        row.span = split.span;
        row.computeNs = split.compute;
        row.communicationNs = split.exposedCommunication();
        row.memoryNs = split.memory();
        row.idleNs = split.idle();
        row.busyPercent = split.span ? 100.0 * double(split.busy) / double(split.span) : 0.0;
        row.idlePercent = 100.0 - row.busyPercent;
        if (split.communication > 0)
            row.overlapPercent = 100.0 * double(split.hiddenCommunication) / double(split.communication);
    }
    row.steps = std::size_t(split.steps);
    if (split.steps > 0) {
        row.meanStep = split.stepTotal / TimeNs(split.steps);
        row.maxStep = split.longestStep;
    }
    for (int kind = 0; kind < kMemcpyKindCount; ++kind)
        row.bytes[int(directionOf(MemcpyKind(kind)))] += split.bytesByCopyKind[kind];
    return row;
}

// A slice's row, without the waits: from the split its report keeps when
// the slice is all of a rank's time and the classes are the built-in ones,
// else from its events.
RankComparisonRow rowOf(const Session &session, const ReportSlice &slice, const KernelClassifier &classes)
{
    const Report &r = *slice.report;
    const RankEntry &entry = session.ranks()[std::size_t(slice.rankIndex)];
    const TimeNs cpuCommunication = cpuCommunicationTime(entry, slice.range);
    if (slice.range == TimeRange::everything() && classes.hasBuiltInCommunication())
        if (const GpuTimeSplit *kept = keptTimeSplit(r, slice.pid)) {
            RankComparisonRow row = rowFrom(*kept, slice.rankIndex, entry.rank);
            row.cpuCommunicationNs = cpuCommunication;
            return row;
        }
    KernelClassCache classOf(r.strings, classes);
    const GpuTimeSplit split = gpuTimeSplitOf(r, {
                                                     [&](const Track &t) { return slice.acceptsTrack(t); },
                                                     [&](const Track &t) { return slice.eventsIn(t); },
                                                     [&](StringId name) {
                                                         switch (classOf.of(name)) {
                                                         case KernelClass::Communication:
                                                             return GpuWorkClass::Communication;
                                                         case KernelClass::Memory:
                                                             return GpuWorkClass::Memory;
                                                         default:
                                                             return GpuWorkClass::Compute;
                                                         }
                                                     },
                                                 });
    RankComparisonRow row = rowFrom(split, slice.rankIndex, entry.rank);
    row.cpuCommunicationNs = cpuCommunication;
    return row;
}

template <class T>
void writeOptional(QDataStream &out, const std::optional<T> &value)
{
    out << value.has_value() << (value ? *value : T{});
}

template <class T>
void readOptional(QDataStream &in, std::optional<T> &value)
{
    bool has = false;
    T v{};
    in >> has >> v;
    value = has ? std::optional<T>(v) : std::nullopt;
}

} // namespace

RankComparisonRow rankComparisonRowOf(const Session &session, int rankIndex, const KernelClassifier &classes)
{
    StatsScope rank;
    rank.rankIndex = rankIndex;
    return rowOf(session, slicesOf(session, rank).front(), classes);
}

QDataStream &operator<<(QDataStream &out, const RankComparisonRow &row)
{
    out << qint64(row.span) << row.busyPercent << row.idlePercent << qint64(row.computeNs) << qint64(row.communicationNs) << qint64(row.memoryNs)
        << qint64(row.idleNs);
    writeOptional(out, row.overlapPercent);
    out << quint64(row.steps);
    writeOptional(out, row.meanStep.has_value() ? std::optional<qint64>(*row.meanStep) : std::nullopt);
    writeOptional(out, row.maxStep.has_value() ? std::optional<qint64>(*row.maxStep) : std::nullopt);
    for (const std::uint64_t bytes : row.bytes)
        out << quint64(bytes);
    out << qint64(row.cpuCommunicationNs);
    return out;
}

QDataStream &operator>>(QDataStream &in, RankComparisonRow &row)
{
    row = {};
    qint64 span = 0, compute = 0, communication = 0, memory = 0, idle = 0;
    in >> span >> row.busyPercent >> row.idlePercent >> compute >> communication >> memory >> idle;
    row.span = span;
    row.computeNs = compute;
    row.communicationNs = communication;
    row.memoryNs = memory;
    row.idleNs = idle;
    readOptional(in, row.overlapPercent);
    quint64 steps = 0;
    in >> steps;
    row.steps = std::size_t(steps);
    std::optional<qint64> meanStep, maxStep;
    readOptional(in, meanStep);
    readOptional(in, maxStep);
    row.meanStep = meanStep;
    row.maxStep = maxStep;
    for (std::uint64_t &bytes : row.bytes) {
        quint64 b = 0;
        in >> b;
        bytes = b;
    }
    qint64 cpuCommunication = 0;
    in >> cpuCommunication;
    row.cpuCommunicationNs = cpuCommunication;
    return in;
}

std::vector<RankComparisonRow> compareRanks(const Session &session, const StatsScope &scope, const KernelClassifier &classes,
                                            const CollectiveMatch *match, const GatheredComparisonRows *gathered)
{
    std::vector<RankComparisonRow> rows;
    const std::vector<ReportSlice> rankSlices = slicesOf(session, scope);
    RankPass rankPass(rankSlices.size());
    for (const ReportSlice &slice : rankSlices) {
        rankPass.next(); // gives up if a newer request replaced this one (core/cancellation.h)
        const auto ri = std::size_t(slice.rankIndex);
        if (!scope.range && gathered && ri < gathered->size() && (*gathered)[ri]) {
            RankComparisonRow row = *(*gathered)[ri];
            row.rankIndex = slice.rankIndex;
            row.rank = session.ranks()[ri].rank; // as this session numbers it
            rows.push_back(row);
        } else {
            rows.push_back(rowOf(session, slice, classes));
        }
    }
    // Who made the others wait at collectives, and who waited: matched
    // across every rank, whatever rank the scope names.
    if (rows.size() > 1 && match) {
        StatsScope everyRank = scope;
        everyRank.rankIndex.reset();
        const std::vector<RankWait> waits = rankWaits(session, *match, everyRank, classes);
        for (RankComparisonRow &row : rows)
            if (row.rankIndex >= 0 && std::size_t(row.rankIndex) < waits.size() && waits[std::size_t(row.rankIndex)].collectives > 0) {
                row.delayCaused = waits[std::size_t(row.rankIndex)].delayCaused;
                row.waited = waits[std::size_t(row.rankIndex)].waited;
            }
    }
    std::stable_sort(rows.begin(), rows.end(), [](const auto &a, const auto &b) { return a.rank < b.rank; });
    return rows;
}

std::vector<std::optional<bool>> rankComparisonWorseIsHigher()
{
    // Rank, Span, Busy, Idle, Compute, Exposed Comm, Exposed Memory, Hidden,
    // Steps, Mean step, Max step, HtoD, DtoH, DtoD, PtoP, Delay Caused, Waited,
    // CPU Comm.
    // Communication time, its hidden share and the time waited at
    // collectives are never shaded: a collective kernel runs from a rank's
    // own arrival to the last rank's, so the rank that waited longest shows
    // the most communication, and it is the victim of a straggler, not the
    // straggler. The straggler is the one whose Delay Caused is largest.
    return {std::nullopt, true, false,        true,         std::nullopt, std::nullopt, true, std::nullopt, std::nullopt,
            true,         true, std::nullopt, std::nullopt, std::nullopt, std::nullopt, true, std::nullopt, std::nullopt};
}

ResultTable rankComparisonTable(const Session &session, const StatsScope &scope, const KernelClassifier &classes, const CollectiveMatch *match,
                                const GatheredComparisonRows *gathered)
{
    ResultTable t = declaredTable(QStringLiteral("rank_comparison"));
    t.headers = QStringList{QStringLiteral("Rank"),
                            QStringLiteral("GPU Span (ns)"),
                            QStringLiteral("GPU Busy (%)"),
                            QStringLiteral("GPU Idle (%)"),
                            QStringLiteral("Compute (ns)"),
                            QStringLiteral("Exposed Comm (ns)"),
                            QStringLiteral("Exposed Memory (ns)"),
                            QStringLiteral("Comm Hidden (%)"),
                            QStringLiteral("Steps"),
                            QStringLiteral("Mean Step (ns)"),
                            QStringLiteral("Max Step (ns)"),
                            QStringLiteral("HtoD (B)"),
                            QStringLiteral("DtoH (B)"),
                            QStringLiteral("DtoD (B)"),
                            QStringLiteral("PtoP (B)"),
                            QStringLiteral("Delay Caused (ns)"),
                            QStringLiteral("Waited at Collectives (ns)"),
                            QStringLiteral("CPU Comm (ns)")};
    for (const RankComparisonRow &r : compareRanks(session, scope, classes, match, gathered))
        t.addRow({Cell::ofInteger(r.rank), Cell::ofInteger(r.span), Cell::ofDecimal(r.busyPercent, 1), Cell::ofDecimal(r.idlePercent, 1),
                  Cell::ofInteger(r.computeNs), Cell::ofInteger(r.communicationNs), Cell::ofInteger(r.memoryNs),
                  r.overlapPercent ? Cell::ofDecimal(*r.overlapPercent, 1) : Cell(), Cell::ofInteger(std::int64_t(r.steps)),
                  r.meanStep ? Cell::ofInteger(*r.meanStep) : Cell(), r.maxStep ? Cell::ofInteger(*r.maxStep) : Cell(),
                  Cell::ofInteger(std::int64_t(r.bytes[0])), Cell::ofInteger(std::int64_t(r.bytes[1])), Cell::ofInteger(std::int64_t(r.bytes[2])),
                  Cell::ofInteger(std::int64_t(r.bytes[3])), r.delayCaused ? Cell::ofInteger(*r.delayCaused) : Cell(),
                  r.waited ? Cell::ofInteger(*r.waited) : Cell(), Cell::ofInteger(r.cpuCommunicationNs)});
    return t;
}

std::vector<RankTimeShares> rankTimeSharesOf(const ResultTable &t)
{
    const auto column = [&](const char *header) { return t.headers.indexOf(QLatin1String(header)); };
    const qsizetype rank = column("Rank"), span = column("GPU Span (ns)"), compute = column("Compute (ns)"),
                    communication = column("Exposed Comm (ns)"), memory = column("Exposed Memory (ns)");
    std::vector<RankTimeShares> out;
    if (rank < 0 || span < 0 || compute < 0 || communication < 0 || memory < 0)
        return out;
    for (std::size_t r = 0; r < t.rowCount(); ++r) {
        const double whole = t.numberAt(r, std::size_t(span));
        if (!(whole > 0))
            continue;
        RankTimeShares s;
        s.rank = int(t.numberAt(r, std::size_t(rank)));
        s.compute = 100.0 * t.numberAt(r, std::size_t(compute)) / whole;
        s.communication = 100.0 * t.numberAt(r, std::size_t(communication)) / whole;
        s.memory = 100.0 * t.numberAt(r, std::size_t(memory)) / whole;
        // The rest of the span; the split counts each nanosecond once.
        s.idle = std::max(0.0, 100.0 - s.compute - s.communication - s.memory);
        out.push_back(s);
    }
    return out;
}

} // namespace rankscope::stats
