#include "stats/comparison/rundiff.h"

#include "core/cancellation.h"
#include "core/cudaenums.h"
#include "core/intervals.h"
#include "stats/ranks/collectives.h"
#include "stats/ranks/rankcomparison.h"

#include <QRegularExpression>
#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

namespace rankscope::stats {

std::optional<DiffReport> diffReportNamed(const QString &name)
{
    for (DiffReport r : {DiffReport::Kernels, DiffReport::Nvtx, DiffReport::Api, DiffReport::Memcpy, DiffReport::Steps, DiffReport::Collectives,
                         DiffReport::CpuSampling})
        if (name == diffReportName(r))
            return r;
    return std::nullopt;
}

QString diffReportName(DiffReport report)
{
    switch (report) {
    case DiffReport::Kernels:
        return QStringLiteral("kernels");
    case DiffReport::Nvtx:
        return QStringLiteral("nvtx");
    case DiffReport::Api:
        return QStringLiteral("api");
    case DiffReport::Memcpy:
        return QStringLiteral("memcpy");
    case DiffReport::Steps:
        return QStringLiteral("steps");
    case DiffReport::Collectives:
        return QStringLiteral("collectives");
    case DiffReport::CpuSampling:
        return QStringLiteral("cpu_sampling");
    }
    return {};
}

QString nvtxPathPart(std::string_view name)
{
    if (isStepName(name))
        return QStringLiteral("step");
    // PyTorch's per-call markers ("aten::to, op_id = 998949", "seq = 12")
    // differ between runs; the op is the same.
    static const QRegularExpression markers(QStringLiteral(",\\s*(?:op_id|seq|stashed seq)\\s*=\\s*\\d+"));
    return QString::fromUtf8(name.data(), qsizetype(name.size())).remove(markers);
}

QString normalizedKernelName(std::string_view name)
{
    // Template arguments, outermost level only (they nest), then hashes.
    QString out;
    int depth = 0;
    for (const QChar c : QString::fromUtf8(name.data(), qsizetype(name.size()))) {
        if (c == QLatin1Char('<')) {
            if (depth++ == 0)
                out += QStringLiteral("<…>");
            continue;
        }
        if (c == QLatin1Char('>') && depth > 0) {
            --depth;
            continue;
        }
        if (depth == 0)
            out += c;
    }
    static const QRegularExpression hashes(QStringLiteral("0x[0-9a-fA-F]+|\\b[0-9a-f]{12,}\\b"));
    return out.replace(hashes, QStringLiteral("…"));
}

namespace {

struct Totals {
    std::int64_t count = 0;
    TimeNs total = 0;
};
using Grouped = std::map<QString, Totals>;

// Every event one side's report counts, with the name it is grouped
// under: visit(key, rankIndex, track, event, duration). Over its ranks,
// or one rank.
template <class Visit>
void forEachKeyedEvent(const Session &s, DiffReport report, const DiffOptions &options, std::optional<int> onlyRank, Visit &&visit)
{
    RankPass rankPass(s.ranks().size());
    for (int ri = 0; ri < int(s.ranks().size()); ++ri) {
        rankPass.next(); // gives up if a newer request replaced this one (core/cancellation.h)
        if (onlyRank && *onlyRank != ri)
            continue;
        const RankEntry &entry = s.ranks()[std::size_t(ri)];
        const Report &r = *entry.report;
        // Names are interned per report: make each key once.
        std::unordered_map<StringId, QString> keyOf;
        auto keyFor = [&](StringId id, auto make) -> const QString & {
            auto it = keyOf.find(id);
            if (it == keyOf.end())
                it = keyOf.emplace(id, make(r.strings.view(id))).first;
            return it->second;
        };
        for (std::uint32_t ti = 0; ti < r.tracks.size(); ++ti) {
            const Track &t = r.tracks[ti];
            if (!Session::ownsTrack(entry, t))
                continue;
            const SliceTrack &sl = t.slices;
            switch (report) {
            case DiffReport::Kernels:
                if (t.kind != TrackKind::Kernel)
                    break;
                for (std::uint32_t i = 0; i < sl.size(); ++i)
                    visit(keyFor(sl.name(i),
                                 [&](std::string_view n) {
                                     return options.normalizeKernelNames ? normalizedKernelName(n) : QString::fromUtf8(n.data(), qsizetype(n.size()));
                                 }),
                          ri, ti, i, sl.duration(i));
                break;
            case DiffReport::Api:
                if (t.kind != TrackKind::CudaApi)
                    break;
                for (std::uint32_t i = 0; i < sl.size(); ++i)
                    visit(keyFor(sl.name(i), [](std::string_view n) { return QString::fromUtf8(n.data(), qsizetype(n.size())); }), ri, ti, i,
                          sl.duration(i));
                break;
            case DiffReport::Memcpy:
                if (t.kind != TrackKind::Memcpy)
                    break;
                for (std::uint32_t i = 0; i < sl.size(); ++i) {
                    const MemcpyRecord &m = r.memcpys[sl.payload(i)];
                    visit(memcpyKindShortName(m.copyKind) + (m.isPageable() ? QStringLiteral(" (pageable)") : QString()), ri, ti, i, sl.duration(i));
                }
                break;
            case DiffReport::Steps:       // diffSteps()
            case DiffReport::Collectives: // diffCollectives()
            case DiffReport::CpuSampling:
                break; // stats/sampling/samplingcomparison.h
            case DiffReport::Nvtx: {
                if (!isHostRange(t.kind))
                    break;
                // Events come parents first: the open ranges above each one.
                // A path stops growing at kNvtxPathLevels levels or
                // kNvtxPathChars characters: what lies deeper is keyed as
                // "outer > … > name", so keys stay linear in the input
                // however deep ranges nest.
                struct OpenRange {
                    std::uint16_t depth;
                    QString path;
                    QString elidedStem; // set when the path was cut: what its children extend
                };
                std::vector<OpenRange> open;
                for (std::uint32_t i = 0; i < sl.size(); ++i) {
                    const std::uint16_t depth = sl.depth(i);
                    while (!open.empty() && open.back().depth >= depth)
                        open.pop_back();
                    const QString &part = keyFor(sl.name(i), [](std::string_view n) { return nvtxPathPart(n); });
                    OpenRange range{depth, part, {}};
                    if (!open.empty()) {
                        const OpenRange &parent = open.back();
                        if (!parent.elidedStem.isEmpty()) {
                            range.elidedStem = parent.elidedStem;
                        } else if (open.size() >= kNvtxPathLevels || parent.path.size() + part.size() > kNvtxPathChars) {
                            range.elidedStem = parent.path + QStringLiteral(" > …");
                        }
                        range.path = (range.elidedStem.isEmpty() ? parent.path : range.elidedStem) + QStringLiteral(" > ") + part;
                    }
                    visit(range.path, ri, ti, i, sl.duration(i));
                    open.push_back(std::move(range));
                }
                break;
            }
            }
        }
    }
}

// The names of one side, grouped, summed over its ranks (or one rank).
Grouped groupSide(const Session &s, DiffReport report, const DiffOptions &options, std::optional<int> onlyRank)
{
    Grouped grouped;
    forEachKeyedEvent(s, report, options, onlyRank, [&](const QString &key, int, std::uint32_t, std::uint32_t, TimeNs duration) {
        Totals &g = grouped[key];
        ++g.count;
        g.total += duration;
    });
    return grouped;
}

} // namespace

std::vector<DiffRow> diffRuns(const Session &a, const Session &b, DiffReport report, const DiffOptions &options)
{
    const Grouped ga = groupSide(a, report, options, options.rankA);
    const Grouped gb = groupSide(b, report, options, options.rankB);
    std::map<QString, DiffRow> rows;
    for (const auto &[name, t] : ga) {
        DiffRow &row = rows[name];
        row.name = name;
        row.countA = t.count;
        row.totalA = t.total;
    }
    for (const auto &[name, t] : gb) {
        DiffRow &row = rows[name];
        row.name = name;
        row.countB = t.count;
        row.totalB = t.total;
    }
    std::vector<DiffRow> out;
    out.reserve(rows.size());
    for (auto &[name, row] : rows)
        out.push_back(std::move(row));
    std::stable_sort(out.begin(), out.end(), [](const DiffRow &x, const DiffRow &y) {
        const TimeNs dx = x.delta() < 0 ? -x.delta() : x.delta(), dy = y.delta() < 0 ? -y.delta() : y.delta();
        return dx != dy ? dx > dy : x.name < y.name;
    });
    return out;
}

namespace {
Cell meanCell(TimeNs total, std::int64_t count)
{
    return count > 0 ? Cell::ofDecimal(double(total) / double(count), 1) : Cell::ofText(QString());
}
} // namespace

std::vector<EventLocation> eventsOfDiffRow(const Session &s, DiffReport report, const DiffOptions &options, const QString &name)
{
    std::vector<EventLocation> events;
    forEachKeyedEvent(s, report, options, std::nullopt, [&](const QString &key, int rank, std::uint32_t track, std::uint32_t event, TimeNs) {
        if (key == name)
            events.push_back({rank, track, event});
    });
    return events;
}

TimeNs DiffRow::deltaFromCount() const
{
    if (countA == 0 || countB == 0) // new or gone: all of it
        return delta();
    return TimeNs(std::llround(double(countB - countA) * double(totalA) / double(countA)));
}

QString DiffRow::change() const
{
    if (countA == 0)
        return countB == 0 ? QStringLiteral("unchanged") : QStringLiteral("new in B");
    if (countB == 0)
        return QStringLiteral("gone in B");
    const TimeNs fromCount = deltaFromCount(), fromMean = deltaFromMean();
    if (fromCount == 0 && fromMean == 0)
        return QStringLiteral("unchanged");
    if (std::llabs(fromCount) >= std::llabs(fromMean))
        return countB > countA ? QStringLiteral("more calls") : QStringLiteral("fewer calls");
    return fromMean > 0 ? QStringLiteral("slower per call") : QStringLiteral("faster per call");
}

ResultTable diffTable(const std::vector<DiffRow> &rows, DiffReport report)
{
    ResultTable t;
    t.name = QStringLiteral("diff_") + diffReportName(report);
    t.title = QStringLiteral("Run comparison: ") + diffReportName(report);
    t.headers =
        QStringList{QStringLiteral("Name"),      QStringLiteral("Count A"),         QStringLiteral("Total A (ns)"),   QStringLiteral("Mean A (ns)"),
                    QStringLiteral("Count B"),   QStringLiteral("Total B (ns)"),    QStringLiteral("Mean B (ns)"),    QStringLiteral("Delta (ns)"),
                    QStringLiteral("Ratio B/A"), QStringLiteral("From Count (ns)"), QStringLiteral("From Mean (ns)"), QStringLiteral("Change")};
    for (const DiffRow &r : rows)
        t.addRow({Cell::ofText(r.name), Cell::ofInteger(r.countA), Cell::ofInteger(r.totalA), meanCell(r.totalA, r.countA), Cell::ofInteger(r.countB),
                  Cell::ofInteger(r.totalB), meanCell(r.totalB, r.countB), Cell::ofInteger(r.delta()),
                  r.totalA > 0 ? Cell::ofDecimal(double(r.totalB) / double(r.totalA), 3) : Cell::ofText(QString()),
                  Cell::ofInteger(r.deltaFromCount()), Cell::ofInteger(r.deltaFromMean()), Cell::ofText(r.change())});
    return t;
}

namespace {

// One rank's annotated steps (report time, by start) and its GPU's busy runs.
struct RankSteps {
    std::vector<TimeRange> steps;
    std::vector<Interval> busy;
};

RankSteps stepsOfRank(const Session &s, int rankIndex)
{
    RankSteps out;
    const RankEntry &entry = s.ranks()[std::size_t(rankIndex)];
    const Report &r = *entry.report;
    std::vector<Interval> busy;
    for (const Track &t : r.tracks) {
        if (!Session::ownsTrack(entry, t))
            continue;
        if (t.kind == TrackKind::Kernel || t.kind == TrackKind::Memcpy || t.kind == TrackKind::Memset)
            for (std::size_t i = 0; i < t.slices.size(); ++i)
                busy.push_back({t.slices.start(i), t.slices.end(i)});
    }
    out.steps = annotatedSteps(entry);
    out.busy = unionOf(std::move(busy));
    return out;
}

} // namespace

std::vector<StepDiff> diffSteps(const Session &a, const Session &b, const DiffOptions &options)
{
    const RankSteps sa = stepsOfRank(a, options.rankA.value_or(0));
    const RankSteps sb = stepsOfRank(b, options.rankB.value_or(0));
    std::vector<StepDiff> out(std::max(sa.steps.size(), sb.steps.size()));
    for (std::size_t k = 0; k < out.size(); ++k) {
        out[k].index = int(k);
        if (k < sa.steps.size()) {
            out[k].durationA = sa.steps[k].duration();
            out[k].busyA = coveredIn(sa.busy, sa.steps[k].start, sa.steps[k].end);
        }
        if (k < sb.steps.size()) {
            out[k].durationB = sb.steps[k].duration();
            out[k].busyB = coveredIn(sb.busy, sb.steps[k].start, sb.steps[k].end);
        }
    }
    std::stable_sort(out.begin(), out.end(), [](const StepDiff &x, const StepDiff &y) { return std::llabs(x.delta()) > std::llabs(y.delta()); });
    return out;
}

ResultTable stepDiffTable(const std::vector<StepDiff> &steps)
{
    ResultTable t;
    t.name = QStringLiteral("diff_steps");
    t.title = QStringLiteral("Run comparison: steps");
    t.headers = QStringList{
        QStringLiteral("Step"),           QStringLiteral("Duration A (ns)"), QStringLiteral("GPU busy A (%)"), QStringLiteral("Duration B (ns)"),
        QStringLiteral("GPU busy B (%)"), QStringLiteral("Delta (ns)"),      QStringLiteral("Ratio B/A")};
    auto duration = [](const std::optional<TimeNs> &d) { return d ? Cell::ofInteger(*d) : Cell::ofText(QString()); };
    auto share = [](const std::optional<TimeNs> &busy, const std::optional<TimeNs> &d) {
        return busy && d && *d > 0 ? Cell::ofDecimal(100.0 * double(*busy) / double(*d), 1) : Cell::ofText(QString());
    };
    for (const StepDiff &s : steps)
        t.addRow({Cell::ofInteger(s.index), duration(s.durationA), share(s.busyA, s.durationA), duration(s.durationB), share(s.busyB, s.durationB),
                  s.durationA && s.durationB ? Cell::ofInteger(s.delta()) : Cell::ofText(QString()),
                  s.durationA && s.durationB && *s.durationA > 0 ? Cell::ofDecimal(double(*s.durationB) / double(*s.durationA), 3)
                                                                 : Cell::ofText(QString())});
    return t;
}

std::vector<CollectiveDiff> diffCollectives(const CollectiveMatch &a, const CollectiveMatch &b)
{
    std::map<QString, CollectiveDiff> byName;
    for (const bool sideA : {true, false}) {
        for (const CollectiveInstance &c : (sideA ? a : b).instances) {
            if (c.arrivals.size() < 2)
                continue; // one rank's operation: nothing waited, no skew
            CollectiveDiff &row = byName[c.name];
            row.name = c.name;
            TimeNs wait = 0;
            for (const CollectiveArrival &arrival : c.arrivals)
                wait += c.waitOf(arrival);
            (sideA ? row.countA : row.countB) += 1;
            (sideA ? row.skewA : row.skewB) += c.skew();
            (sideA ? row.waitA : row.waitB) += wait;
        }
    }
    std::vector<CollectiveDiff> out;
    for (auto &[name, row] : byName)
        out.push_back(std::move(row));
    std::stable_sort(out.begin(), out.end(),
                     [](const CollectiveDiff &x, const CollectiveDiff &y) { return std::llabs(x.waitB - x.waitA) > std::llabs(y.waitB - y.waitA); });
    return out;
}

ResultTable collectiveDiffTable(const std::vector<CollectiveDiff> &rows)
{
    ResultTable t;
    t.name = QStringLiteral("diff_collectives");
    t.title = QStringLiteral("Run comparison: collectives");
    t.headers = QStringList{QStringLiteral("Collective"),        QStringLiteral("Count A"),        QStringLiteral("Mean skew A (ns)"),
                            QStringLiteral("Total wait A (ns)"), QStringLiteral("Count B"),        QStringLiteral("Mean skew B (ns)"),
                            QStringLiteral("Total wait B (ns)"), QStringLiteral("Wait delta (ns)")};
    for (const CollectiveDiff &r : rows)
        t.addRow({Cell::ofText(r.name), Cell::ofInteger(r.countA), meanCell(r.skewA, r.countA), Cell::ofInteger(r.waitA), Cell::ofInteger(r.countB),
                  meanCell(r.skewB, r.countB), Cell::ofInteger(r.waitB), Cell::ofInteger(r.waitB - r.waitA)});
    return t;
}

} // namespace rankscope::stats
