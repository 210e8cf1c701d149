#include "stats/diagnosis/gapanalysis.h"

#include "core/cancellation.h"
#include "core/intervals.h"
#include "session/residentbudget.h"
#include "stats/ranks/rankcomparison.h"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>
#include <unordered_map>

namespace rankscope::stats {

namespace {

using DeviceKey = std::tuple<int, std::uint32_t, int>; // rank index, process, device

struct DeviceOps {
    TimeNs offset = 0;
    std::vector<TimeNs> starts, ends; // report time, each sorted
    std::vector<std::size_t> pieces;  // where each track's begin, as they were read
};

// One slice's kernels, memcpys and memsets per (rank, pid, device) that
// start in it.
std::map<DeviceKey, DeviceOps> deviceOps(const Session &session, const ReportSlice &slice)
{
    std::map<DeviceKey, DeviceOps> ops;
    const auto isGpuOp = [&](const Track &t) { return isGpuOperation(t.kind) && slice.acceptsTrack(t); };
    // Sized first: the columns are copied once, not grown (a rank's GPU
    // operations run to millions).
    std::map<DeviceKey, std::size_t> sizes;
    for (const Track &t : slice.report->tracks)
        if (isGpuOp(t)) {
            const auto [first, last] = slice.eventsIn(t);
            sizes[{slice.rankIndex, t.pid, t.deviceId}] += last - first;
        }
    for (const auto &[key, n] : sizes) {
        DeviceOps &d = ops[key];
        d.offset = session.ranks()[std::size_t(slice.rankIndex)].sessionOffset;
        d.starts.reserve(n);
        d.ends.reserve(n);
    }
    for (const Track &t : slice.report->tracks) {
        if (!isGpuOp(t))
            continue;
        DeviceOps &d = ops[{slice.rankIndex, t.pid, t.deviceId}];
        const auto [first, last] = slice.eventsIn(t);
        d.pieces.push_back(d.starts.size());
        const auto from = std::ptrdiff_t(first), to = std::ptrdiff_t(last);
        d.starts.insert(d.starts.end(), t.slices.starts().begin() + from, t.slices.starts().begin() + to);
        d.ends.insert(d.ends.end(), t.slices.ends().begin() + from, t.slices.ends().begin() + to);
    }
    // A track's starts are in order, and a stream's ends too.
    for (auto &[key, d] : ops) {
        sortPieces(d.starts, d.pieces);
        sortPieces(d.ends, d.pieces);
    }
    return ops;
}

// One device's idle gaps in time order, report time: nsys' gpu_gaps pairing
// of its operations' sorted starts and ends, every gap however short.
struct DeviceGaps {
    TimeNs offset = 0; // the rank's session offset
    std::vector<Interval> gaps;
};

std::map<DeviceKey, DeviceGaps> deviceGaps(const Session &session, const ReportSlice &slice)
{
    const Report &r = *slice.report;
    std::map<DeviceKey, DeviceGaps> out;
    // Over the whole report they are the spaces between the runs of its
    // GPU busy summaries (core/busyruns.h), a few pages instead of every
    // operation; over a range, the operations that start in it are paired.
    if (slice.range == TimeRange::everything() && !r.gpuBusy.empty()) {
        const TimeNs offset = session.ranks()[std::size_t(slice.rankIndex)].sessionOffset;
        for (const BusySummary &g : r.gpuBusy) {
            if (!slice.acceptsProcess(g.pid))
                continue;
            DeviceGaps &d = out[{slice.rankIndex, g.pid, g.deviceId}];
            d.offset = offset;
            const SliceTrack &runs = g.runs;
            d.gaps.reserve(runs.size());
            for (std::size_t i = 0; i + 1 < runs.size(); ++i)
                if (runs.end(i) < runs.start(i + 1))
                    d.gaps.push_back({runs.end(i), runs.start(i + 1)});
        }
        return out;
    }
    for (const auto &[key, ops] : deviceOps(session, slice)) {
        DeviceGaps &d = out[key];
        d.offset = ops.offset;
        for (std::size_t k = 0; k + 1 < ops.starts.size(); ++k)
            if (ops.ends[k] < ops.starts[k + 1])
                d.gaps.push_back({ops.ends[k], ops.starts[k + 1]});
    }
    return out;
}

// The thread of `pid` that made the most CUDA API calls (the training
// thread); the process's main thread when none did.
std::uint32_t trainingThread(const Report &r, std::uint32_t pid)
{
    std::map<std::uint32_t, std::size_t> calls;
    for (const Track &t : r.tracks)
        if (t.pid == pid && t.kind == TrackKind::CudaApi)
            calls[t.tid] += t.slices.size();
    std::uint32_t best = pid;
    std::size_t most = 0;
    for (const auto &[tid, n] : calls)
        if (n > most) {
            most = n;
            best = tid;
        }
    return best;
}

// Where and how long a gap must be to count, per rank.
struct GapWindow {
    TimeRange within{kTimeMin, kTimeMax}; // report time; gaps are clipped to it
    TimeNs minimum = 0;
    TimeNs medianStep = 0;
};

// One device's gaps clipped to the window, at least its minimum long:
// (from, to) in report time.
template <class Visit>
void forEachGap(const DeviceGaps &d, const GapWindow &w, Visit &&visit)
{
    for (const auto &[start, end] : d.gaps) {
        const TimeNs from = std::max(start, w.within.start), to = std::min(end, w.within.end);
        const TimeNs idle = to - from;
        if (idle > 0 && idle >= w.minimum)
            visit(from, to);
    }
}

GapWindow everyGapOf(TimeNs minimum)
{
    return GapWindow{{kTimeMin, kTimeMax}, minimum, 0};
}

// The loop's stalls (findInLoopGaps): the window of the rank's annotated
// loop and a share of its median step.
GapWindow inLoopWindowOf(const RankEntry &entry, double shareOfStep, TimeNs withoutSteps)
{
    const std::vector<TimeRange> steps = annotatedSteps(entry);
    if (steps.empty())
        return everyGapOf(withoutSteps);
    std::vector<TimeNs> lengths;
    TimeNs loopEnd = kTimeMin;
    for (const TimeRange &st : steps) {
        lengths.push_back(st.duration());
        loopEnd = std::max(loopEnd, st.end);
    }
    std::nth_element(lengths.begin(), lengths.begin() + std::ptrdiff_t(lengths.size() / 2), lengths.end());
    const TimeNs median = lengths[lengths.size() / 2];
    return GapWindow{{steps.front().start, loopEnd}, std::max<TimeNs>(TimeNs(double(median) * shareOfStep), 1), median};
}

// The longest of the gaps offered, in the order the list shows them, and
// how many were offered. A busy set of ranks has millions of gaps: only
// the kept ones are held (each pass trims back to them once twice as many
// are waiting), and a gap that cannot be among them is only counted.
class LongestGaps {
public:
    explicit LongestGaps(std::size_t keep) : m_keep(keep) { }

    // Longest first, then earliest, then by rank, process and device: the
    // order a stable sort by length and start of the gaps found rank after
    // rank, device after device, gives.
    static bool before(const GpuGapInfo &a, const GpuGapInfo &b)
    {
        return std::tuple(b.time.duration(), a.time.start, a.rankIndex, a.pid, a.deviceId)
               < std::tuple(a.time.duration(), b.time.start, b.rankIndex, b.pid, b.deviceId);
    }

    void offer(GpuGapInfo gap)
    {
        ++m_offered;
        if (m_keep == 0 || (m_cutoff && !before(gap, *m_cutoff)))
            return;
        m_gaps.push_back(std::move(gap));
        if (m_gaps.size() > m_keep && m_gaps.size() - m_keep >= std::max<std::size_t>(m_keep, 4096))
            trim();
    }

    std::size_t offered() const { return m_offered; }

    std::vector<GpuGapInfo> take()
    {
        trim();
        std::sort(m_gaps.begin(), m_gaps.end(), before);
        return std::move(m_gaps);
    }

private:
    void trim()
    {
        if (m_gaps.size() <= m_keep)
            return;
        std::nth_element(m_gaps.begin(), m_gaps.begin() + std::ptrdiff_t(m_keep - 1), m_gaps.end(), before);
        m_gaps.resize(m_keep);
        m_cutoff = *std::max_element(m_gaps.begin(), m_gaps.end(), before);
    }

    std::size_t m_keep = 0;
    std::size_t m_offered = 0;
    std::vector<GpuGapInfo> m_gaps;
    std::optional<GpuGapInfo> m_cutoff; // the last kept once trimmed: what comes after it is only counted
};

// The gaps of one slice's devices the window of their rank lets through.
void collectGaps(const Session &session, const std::map<DeviceKey, DeviceGaps> &devices, const GapWindow &w, LongestGaps &gaps)
{
    for (const auto &[key, device] : devices) {
        // Named copies: a lambda may not capture structured bindings (C++17).
        const int rankIndex = std::get<0>(key), deviceId = std::get<2>(key);
        const std::uint32_t pid = std::get<1>(key);
        const TimeNs offset = device.offset;
        forEachGap(device, w, [&](TimeNs from, TimeNs to) {
            GpuGapInfo g;
            g.rankIndex = rankIndex;
            g.rank = session.ranks()[std::size_t(rankIndex)].rank;
            g.pid = pid;
            g.deviceId = deviceId;
            g.time = {from + offset, to + offset};
            g.medianStep = w.medianStep;
            gaps.offer(std::move(g));
        });
    }
}

// The selection's longest with the CPU activity of each, and how many
// there were.
std::vector<GpuGapInfo> selectLongest(const Session &session, LongestGaps &found, bool withActivity, std::size_t activityLimit,
                                      GapSelection selection)
{
    if (selection.found)
        *selection.found = found.offered();
    std::vector<GpuGapInfo> gaps = found.take();
    if (withActivity)
        for (GpuGapInfo &g : gaps) {
            const RankEntry &entry = session.ranks()[std::size_t(g.rankIndex)];
            g.activity = cpuActivityDuring(*entry.report, g.pid, g.time.start - entry.sessionOffset, g.time.end - entry.sessionOffset);
            if (g.activity.size() > activityLimit)
                g.activity.resize(activityLimit);
            g.sampled = topSampledFunctions(*entry.report, entry.pid, {g.time.start - entry.sessionOffset, g.time.end - entry.sessionOffset});
        }
    return gaps;
}

template <class WindowOf>
std::vector<GpuGapInfo> gapsWhere(const Session &session, const StatsScope &scope, WindowOf &&windowOf, bool withActivity, std::size_t activityLimit,
                                  GapSelection selection)
{
    LongestGaps gaps(selection.longest);
    // Rank after rank, each rank's mapped pages given back once read
    // (session/residentbudget.h).
    const std::vector<ReportSlice> rankSlices = slicesOf(session, scope);
    RankPass rankPass(rankSlices.size());
    for (const ReportSlice &slice : rankSlices) {
        rankPass.next(); // gives up if a newer request replaced this one (core/cancellation.h)
        if (const auto devices = deviceGaps(session, slice); !devices.empty())
            collectGaps(session, devices, windowOf(slice.rankIndex), gaps);
        ResidentBudget::process().doneReading(*slice.report);
    }
    return selectLongest(session, gaps, withActivity, activityLimit, selection);
}

// The histogram's bins: decades from 1 µs, the gaps counted in them being
// those of at least 1 µs anywhere (gpu_gaps' pairing).
constexpr TimeNs kHistogramFloor = 1000;

std::vector<GapHistogramBin> emptyHistogram()
{
    std::vector<GapHistogramBin> bins;
    for (TimeNs from = kHistogramFloor; from <= TimeNs(100) * 1000000000; from *= 10)
        bins.push_back({from, from * 10, 0, 0});
    return bins;
}

void countInHistogram(const std::map<DeviceKey, DeviceGaps> &devices, std::vector<GapHistogramBin> &bins)
{
    for (const auto &[key, d] : devices)
        forEachGap(d, everyGapOf(kHistogramFloor), [&](TimeNs from, TimeNs to) {
            for (GapHistogramBin &b : bins)
                if (to - from >= b.from && to - from < b.to) {
                    ++b.count;
                    b.total += to - from;
                    break;
                }
        });
}

void dropEmptyTail(std::vector<GapHistogramBin> &bins)
{
    while (!bins.empty() && bins.back().count == 0)
        bins.pop_back();
}

// Fixed chunks across a range, in session time.
struct UtilizationChunks {
    TimeRange range;
    TimeNs chunk = 0;
    int count = 0;
};

std::optional<UtilizationChunks> utilizationChunksOf(const Session &session, const StatsScope &scope, int chunks)
{
    const TimeRange range = scope.range.value_or(session.extent());
    if (chunks <= 0 || range.duration() <= 0)
        return std::nullopt;
    return UtilizationChunks{range, (range.duration() + chunks - 1) / chunks, chunks};
}

// One slice's devices' series: each op's time, clipped to the range, spread
// over its chunks.
void addUtilization(const Session &session, const ReportSlice &slice, const UtilizationChunks &c, std::vector<UtilizationSeries> &out)
{
    std::map<int, UtilizationSeries> byDevice;
    const TimeRange range = c.range;
    const TimeNs chunk = c.chunk;
    const TimeNs offset = session.ranks()[std::size_t(slice.rankIndex)].sessionOffset;
    for (const Track &t : slice.report->tracks) {
        if ((t.kind != TrackKind::Kernel && t.kind != TrackKind::Memcpy && t.kind != TrackKind::Memset) || !slice.acceptsTrack(t))
            continue;
        UtilizationSeries &u = byDevice[t.deviceId];
        if (u.start.empty()) {
            u.rankIndex = slice.rankIndex;
            u.deviceId = t.deviceId;
            u.chunk = chunk;
            for (int k = 0; k < c.count; ++k) {
                u.start.push_back(range.start + TimeNs(k) * chunk);
                u.percent.push_back(0.0);
            }
        }
        t.slices.forEachOverlapping(range.start - offset, range.end - offset, [&](std::uint32_t i) {
            TimeNs s = std::max(range.start, t.slices.start(i) + offset);
            const TimeNs e = std::min(range.end, t.slices.end(i) + offset);
            while (s < e) {
                const auto k = std::size_t((s - range.start) / chunk);
                if (k >= u.percent.size())
                    break;
                const TimeNs chunkEnd = range.start + TimeNs(k + 1) * chunk;
                const TimeNs piece = std::min(e, chunkEnd) - s;
                u.percent[k] += 100.0 * double(piece) / double(chunk);
                s += piece;
            }
        });
    }
    for (auto &[device, series] : byDevice)
        out.push_back(std::move(series));
}

} // namespace

std::vector<CpuActivity> cpuActivityDuring(const Report &r, std::uint32_t pid, TimeNs lo, TimeNs hi)
{
    struct Coverage {
        std::vector<std::pair<TimeNs, TimeNs>> pieces;
        int depth = 0;
    };
    const std::uint32_t training = trainingThread(r, pid);
    std::map<std::tuple<bool, bool, StringId>, Coverage> byName; // (NVTX, training thread, name)
    for (const Track &t : r.tracks) {
        if (t.pid != pid || (!isHostRange(t.kind) && t.kind != TrackKind::OsRuntime))
            continue;
        const bool nvtx = isHostRange(t.kind);
        t.slices.forEachOverlapping(lo, hi, [&](std::uint32_t i) {
            const TimeNs s = std::max(lo, t.slices.start(i)), e = std::min(hi, t.slices.end(i));
            if (e <= s)
                return;
            Coverage &c = byName[{nvtx, t.tid == training, t.slices.name(i)}];
            c.pieces.emplace_back(s, e);
            c.depth = std::max<int>(c.depth, t.slices.depth(i));
        });
    }
    std::vector<CpuActivity> out;
    const double length = double(std::max<TimeNs>(hi - lo, 1));
    for (auto &[key, c] : byName) {
        const auto &[nvtx, main, name] = key;
        const TimeNs covered = lengthOf(unionOf(std::move(c.pieces)));
        out.push_back(
            {r.strings.string(name), nvtx ? QStringLiteral("NVTX") : QStringLiteral("OS runtime"), covered, double(covered) / length, c.depth, main});
    }
    std::sort(out.begin(), out.end(), [](const CpuActivity &a, const CpuActivity &b) {
        if (a.covered != b.covered)
            return a.covered > b.covered;
        return a.mainThread != b.mainThread ? a.mainThread : a.name < b.name;
    });
    return out;
}

const CpuActivity *GpuGapInfo::mainActivity() const
{
    return mainActivityOf(activity);
}

const CpuActivity *mainActivityOf(const std::vector<CpuActivity> &activity)
{
    for (const bool onMain : {true, false}) {
        const CpuActivity *best = nullptr;
        for (const CpuActivity &a : activity)
            if (a.mainThread == onMain && a.source == QLatin1String("NVTX") && a.share >= 0.5 && (!best || a.depth > best->depth))
                best = &a;
        if (best)
            return best;
    }
    for (const bool onMain : {true, false})
        for (const CpuActivity &a : activity) // most covering first
            if (a.mainThread == onMain && a.source == QLatin1String("OS runtime"))
                return &a;
    return activity.empty() ? nullptr : &activity.front();
}

std::vector<GpuGapInfo> findGaps(const Session &session, const StatsScope &scope, TimeNs minimum, bool withActivity, std::size_t activityLimit,
                                 GapSelection selection)
{
    return gapsWhere(
        session, scope, [minimum](int) { return everyGapOf(minimum); }, withActivity, activityLimit, selection);
}

std::vector<GpuGapInfo> findInLoopGaps(const Session &session, const StatsScope &scope, double shareOfStep, TimeNs withoutSteps,
                                       std::size_t activityLimit, GapSelection selection)
{
    auto windowOf = [&](int rankIndex) { return inLoopWindowOf(session.ranks()[std::size_t(rankIndex)], shareOfStep, withoutSteps); };
    return gapsWhere(session, scope, windowOf, true, activityLimit, selection);
}

std::vector<UtilizationSeries> utilizationOverTime(const Session &session, const StatsScope &scope, int chunks)
{
    std::vector<UtilizationSeries> out;
    const std::optional<UtilizationChunks> c = utilizationChunksOf(session, scope, chunks);
    if (!c)
        return out;
    const std::vector<ReportSlice> rankSlices = slicesOf(session, scope);
    RankPass rankPass(rankSlices.size());
    for (const ReportSlice &slice : rankSlices) {
        rankPass.next(); // gives up if a newer request replaced this one (core/cancellation.h)
        addUtilization(session, slice, *c, out);
        ResidentBudget::process().doneReading(*slice.report);
    }
    return out;
}

std::vector<GapHistogramBin> gapHistogram(const Session &session, const StatsScope &scope)
{
    std::vector<GapHistogramBin> bins = emptyHistogram();
    const std::vector<ReportSlice> rankSlices = slicesOf(session, scope);
    RankPass rankPass(rankSlices.size());
    for (const ReportSlice &slice : rankSlices) {
        rankPass.next(); // gives up if a newer request replaced this one (core/cancellation.h)
        countInHistogram(deviceGaps(session, slice), bins);
        ResidentBudget::process().doneReading(*slice.report);
    }
    dropEmptyTail(bins);
    return bins;
}

GapsOverview gapsOverview(const Session &session, const StatsScope &scope, const GapRule &rule, std::size_t activityLimit, std::size_t listed,
                          int chunks)
{
    GapsOverview out;
    LongestGaps gaps(listed);
    out.histogram = emptyHistogram();
    const std::optional<UtilizationChunks> c = utilizationChunksOf(session, scope, chunks);
    const std::vector<ReportSlice> rankSlices = slicesOf(session, scope);
    RankPass rankPass(rankSlices.size());
    for (const ReportSlice &slice : rankSlices) {
        rankPass.next(); // gives up if a newer request replaced this one (core/cancellation.h)
        const auto devices = deviceGaps(session, slice);
        if (!devices.empty()) // the in-loop window reads the rank's steps
            collectGaps(session, devices,
                        rule.inLoop ? inLoopWindowOf(session.ranks()[std::size_t(slice.rankIndex)], rule.shareOfStep, rule.withoutSteps)
                                    : everyGapOf(rule.minimum),
                        gaps);
        countInHistogram(devices, out.histogram);
        if (c)
            addUtilization(session, slice, *c, out.utilization);
        ResidentBudget::process().doneReading(*slice.report);
    }
    out.gaps = selectLongest(session, gaps, true, activityLimit, {listed, &out.found});
    dropEmptyTail(out.histogram);
    return out;
}

} // namespace rankscope::stats
