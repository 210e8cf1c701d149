#include "stats/ranks/rankbreakdown.h"
#include "stats/reportcatalog.h"

#include "core/cancellation.h"
#include "core/intervals.h"

#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <vector>

namespace rankscope::stats {

namespace {

bool isProfilerStep(std::string_view name)
{
    static const QRegularExpression step(QStringLiteral("\\AProfilerStep#(\\d+)"));
    return matchesName(step, name);
}

// HTA works on the file's µs: ts rounds up, ts + dur rounds down (both in
// double, as Python does), and durations follow. Reports read from ns
// sources keep their nanoseconds.
struct TimeRounding {
    bool micro = false;
    TimeNs origin = 0;
    TimeNs start(TimeNs s) const { return micro ? TimeNs(std::ceil(double(s + origin) / 1000.0)) * 1000 - origin : s; }
    TimeNs end(TimeNs s, TimeNs e) const
    {
        if (!micro)
            return e;
        const double endUs = double(s + origin) / 1000.0 + double(e - s) / 1000.0;
        return TimeNs(std::floor(endUs)) * 1000 - origin;
    }
};

} // namespace

namespace {

// The distinct ProfilerStep#N names of one rank's ranges. HTA limits every
// rank to the profiled steps when the traces name at least two.
std::set<QString> stepNamesOf(const RankEntry &entry)
{
    // A bit per string, not a set of ids: an emit_nvtx export names nearly
    // every range differently (10^7 ids, 0.4 GB as set nodes).
    std::vector<bool> used(entry.report->strings.size(), false);
    for (const Track &t : entry.report->tracks)
        if (isHostRange(t.kind) && Session::ownsTrack(entry, t))
            for (StringId id : t.slices.names())
                if (id < used.size())
                    used[id] = true;
    std::set<QString> names;
    for (StringId id = 0; id < used.size(); ++id)
        if (used[id])
            if (const std::string_view name = entry.report->strings.view(id); isProfilerStep(name))
                names.insert(QString::fromUtf8(name.data(), qsizetype(name.size())));
    return names;
}

// HTA's "CPU events" for its step window: every row that is not a GPU
// kernel (a row with a stream and a correlation). CPU ranges and CUDA calls,
// runtime and driver alike, and the GPU-side copies of record_function
// scopes (gpu_user_annotation), which carry no correlation.
bool isStepWindowCpuRow(TrackKind kind)
{
    return isHostRange(kind) || kind == TrackKind::CudaApi || kind == TrackKind::NvtxGpuProjection;
}

// The step window of one rank, on its CPU side: the correlation ids of the
// launches (runtime or driver calls) that start before the latest start of
// a CPU row named ProfilerStep#N. PyTorch 2.x writes a GPU-side copy of each
// step that starts just before the step's CPU range ends, so with those
// traces the window reaches nearly the end of the last step, as in HTA.
// GPU work is kept when its launch is. Sorted, each id once: 4 bytes a
// launch, not a hash node's 16 and its bucket (10^7 launches: 44 MB, not 270).
std::vector<std::uint32_t> launchesInStepWindow(const RankEntry &entry, const TimeRounding &round)
{
    const Report &r = *entry.report;
    TimeNs lastStepStart = kTimeMin, firstCpu = kTimeMax;
    for (const Track &t : r.tracks)
        if (Session::ownsTrack(entry, t) && isStepWindowCpuRow(t.kind))
            for (std::size_t i = 0; i < t.slices.size(); ++i) {
                firstCpu = std::min(firstCpu, round.start(t.slices.start(i)));
                if (t.kind != TrackKind::CudaApi && isProfilerStep(r.strings.view(t.slices.name(i))))
                    lastStepStart = std::max(lastStepStart, round.start(t.slices.start(i)));
            }
    if (lastStepStart == kTimeMin)
        lastStepStart = firstCpu; // as HTA: no step on this rank keeps nothing
    std::vector<std::uint32_t> kept;
    for (const Track &t : r.tracks) {
        if (t.kind != TrackKind::CudaApi || !Session::ownsTrack(entry, t))
            continue;
        for (std::size_t i = 0; i < t.slices.size(); ++i)
            if (round.start(t.slices.start(i)) < lastStepStart)
                if (const std::uint32_t id = r.apiCalls[t.slices.payload(i)].correlationId; id != 0) // 0: none recorded
                    kept.push_back(id);
    }
    std::sort(kept.begin(), kept.end());
    kept.erase(std::unique(kept.begin(), kept.end()), kept.end());
    return kept;
}

// A rank's GPU work as intervals, all of it and by kernel class.
struct GpuIntervals {
    std::vector<Interval> all, compute, communication;
};

GpuIntervals gpuIntervals(const RankEntry &entry, const TimeRounding &round, bool stepWindow, const std::vector<std::uint32_t> &keptLaunches,
                          const KernelClassifier &classes)
{
    const Report &r = *entry.report;
    GpuIntervals out;
    std::map<StringId, KernelClass> classOf;
    for (const Track &t : r.tracks) {
        if (!Session::ownsTrack(entry, t))
            continue;
        const bool op = t.kind == TrackKind::Kernel || t.kind == TrackKind::Memcpy || t.kind == TrackKind::Memset;
        // cuda_sync rows count as busy in HTA (they carry a stream); in the
        // step window they are GPU rows, kept with their launching call like
        // a kernel. Nsight Systems' sync rows are waits, not work, and never count.
        const bool sync = t.kind == TrackKind::Sync && r.meta.source == TraceSource::Kineto;
        if (!op && !sync)
            continue;
        for (std::size_t i = 0; i < t.slices.size(); ++i) {
            if (stepWindow && !std::binary_search(keptLaunches.begin(), keptLaunches.end(), r.correlationIdOf(t, i)))
                continue;
            const TimeNs s = round.start(t.slices.start(i));
            const TimeNs e = round.end(t.slices.start(i), t.slices.end(i));
            out.all.emplace_back(s, e);
            KernelClass cls = t.kind == TrackKind::Kernel ? KernelClass::Computation : KernelClass::Memory;
            if (t.kind == TrackKind::Kernel) {
                auto [it, added] = classOf.try_emplace(t.slices.name(i));
                if (added)
                    it->second = classes.classify(r.strings.view(t.slices.name(i)));
                cls = it->second;
            } else if (t.kind == TrackKind::Sync) {
                cls = classes.classify(r.strings.view(t.slices.name(i)));
            }
            if (cls == KernelClass::Computation)
                out.compute.emplace_back(s, e);
            else if (cls == KernelClass::Communication)
                out.communication.emplace_back(s, e);
        }
    }
    return out;
}

// HTA's arithmetic: the span from first to last GPU work, idle = span - busy,
// compute = union of compute kernels, the rest non-compute; overlap is the
// share of communication time under compute.
void fillBreakdown(RankBreakdown &b, const GpuIntervals &gpu)
{
    const std::vector<Interval> busy = unionOf(gpu.all);
    if (busy.empty())
        return;
    b.kernelTime = busy.back().second - busy.front().first;
    b.idle = b.kernelTime - lengthOf(busy);
    const std::vector<Interval> computeRuns = unionOf(gpu.compute);
    b.compute = lengthOf(computeRuns);
    b.nonCompute = b.kernelTime - b.compute - b.idle;
    if (b.kernelTime > 0) {
        b.idlePercent = 100.0 * (double(b.idle) / double(b.kernelTime));
        b.computePercent = 100.0 * (double(b.compute) / double(b.kernelTime));
        b.nonComputePercent = 100.0 * (double(b.nonCompute) / double(b.kernelTime));
    }
    const std::vector<Interval> commRuns = unionOf(gpu.communication);
    if (const TimeNs comm = lengthOf(commRuns); comm > 0)
        b.commCompOverlapPercent = 100.0 * (double(overlapOf(commRuns, computeRuns)) / double(comm));
}

RankBreakdown breakdownOf(const RankEntry &entry, bool stepWindow, const KernelClassifier &classes)
{
    const TimeRounding round{entry.report->meta.microsecondTimestamps, entry.report->meta.rawTimeOrigin};
    const std::vector<std::uint32_t> kept = stepWindow ? launchesInStepWindow(entry, round) : std::vector<std::uint32_t>{};
    RankBreakdown b;
    b.rank = entry.rank;
    b.stepWindow = stepWindow;
    fillBreakdown(b, gpuIntervals(entry, round, stepWindow, kept, classes));
    return b;
}

} // namespace

RankBreakdownParts rankBreakdownParts(const Session &session, int rankIndex, const KernelClassifier &classes)
{
    const RankEntry &entry = session.ranks()[std::size_t(rankIndex)];
    RankBreakdownParts parts;
    for (const QString &name : stepNamesOf(entry))
        parts.stepNames << name;
    parts.whole = breakdownOf(entry, false, classes);
    if (!parts.stepNames.isEmpty())
        parts.windowed = breakdownOf(entry, true, classes);
    return parts;
}

QDataStream &operator<<(QDataStream &out, const RankBreakdownParts &parts)
{
    auto write = [&](const RankBreakdown &b) {
        out << qint32(b.rank) << qint64(b.idle) << qint64(b.compute) << qint64(b.nonCompute) << qint64(b.kernelTime) << b.idlePercent
            << b.computePercent << b.nonComputePercent << b.commCompOverlapPercent.has_value() << b.commCompOverlapPercent.value_or(0.0)
            << b.stepWindow;
    };
    out << parts.stepNames;
    write(parts.whole);
    out << parts.windowed.has_value();
    if (parts.windowed)
        write(*parts.windowed);
    return out;
}

QDataStream &operator>>(QDataStream &in, RankBreakdownParts &parts)
{
    auto read = [&](RankBreakdown &b) {
        qint32 rank = 0;
        qint64 idle = 0, compute = 0, nonCompute = 0, kernelTime = 0;
        bool hasOverlap = false;
        double overlap = 0;
        in >> rank >> idle >> compute >> nonCompute >> kernelTime >> b.idlePercent >> b.computePercent >> b.nonComputePercent >> hasOverlap >> overlap
            >> b.stepWindow;
        b.rank = rank;
        b.idle = idle;
        b.compute = compute;
        b.nonCompute = nonCompute;
        b.kernelTime = kernelTime;
        b.commCompOverlapPercent = hasOverlap ? std::optional(overlap) : std::nullopt;
    };
    parts = {};
    in >> parts.stepNames;
    read(parts.whole);
    bool windowed = false;
    in >> windowed;
    if (windowed)
        read(parts.windowed.emplace());
    return in;
}

std::vector<RankBreakdown> temporalBreakdown(const Session &session, const KernelClassifier &classes, const GatheredBreakdowns *gathered)
{
    auto partsOf = [&](std::size_t ri) -> const RankBreakdownParts * {
        return gathered && ri < gathered->size() && (*gathered)[ri] ? &*(*gathered)[ri] : nullptr;
    };
    std::set<QString> stepNames;
    RankPass rankPass(session.ranks().size());
    for (std::size_t ri = 0; ri < session.ranks().size(); ++ri) {
        rankPass.next(); // gives up if a newer request replaced this one (core/cancellation.h)
        if (const RankBreakdownParts *parts = partsOf(ri))
            stepNames.insert(parts->stepNames.begin(), parts->stepNames.end());
        else
            stepNames.merge(stepNamesOf(session.ranks()[ri]));
    }
    const bool stepWindow = stepNames.size() >= 2;
    std::vector<RankBreakdown> result;
    RankPass breakdownPass(session.ranks().size());
    for (std::size_t ri = 0; ri < session.ranks().size(); ++ri) {
        breakdownPass.next(); // gives up if a newer request replaced this one (core/cancellation.h)
        const RankEntry &entry = session.ranks()[ri];
        const RankBreakdownParts *parts = partsOf(ri);
        if (!parts) {
            result.push_back(breakdownOf(entry, stepWindow, classes));
            continue;
        }
        // A rank without a step keeps nothing in a window (launchesInStepWindow).
        RankBreakdown b = !stepWindow ? parts->whole : parts->windowed ? *parts->windowed : RankBreakdown{};
        b.rank = entry.rank; // as this session numbers it
        b.stepWindow = stepWindow;
        result.push_back(b);
    }
    std::stable_sort(result.begin(), result.end(), [](const RankBreakdown &a, const RankBreakdown &b) { return a.rank < b.rank; });
    return result;
}

ResultTable rankSummary(const Session &session, const KernelClassifier &classes, const GatheredBreakdowns *gathered)
{
    ResultTable t = declaredTable(QStringLiteral("rank_summary"));
    t.headers = QStringList{QStringLiteral("Rank"),
                            QStringLiteral("Idle Time (ns)"),
                            QStringLiteral("Compute Time (ns)"),
                            QStringLiteral("Non-compute Time (ns)"),
                            QStringLiteral("Kernel Time (ns)"),
                            QStringLiteral("Idle (%)"),
                            QStringLiteral("Compute (%)"),
                            QStringLiteral("Non-compute (%)"),
                            QStringLiteral("Comm-Comp Overlap (%)")};
    for (const RankBreakdown &b : temporalBreakdown(session, classes, gathered))
        t.addRow({Cell::ofInteger(b.rank), Cell::ofInteger(b.idle), Cell::ofInteger(b.compute), Cell::ofInteger(b.nonCompute),
                  Cell::ofInteger(b.kernelTime), Cell::ofPythonDecimal(b.idlePercent, 2), Cell::ofPythonDecimal(b.computePercent, 2),
                  Cell::ofPythonDecimal(b.nonComputePercent, 2),
                  b.commCompOverlapPercent ? Cell::ofPythonDecimal(*b.commCompOverlapPercent, 2) : Cell()});
    return t;
}

} // namespace rankscope::stats
