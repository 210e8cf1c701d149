#include "stats/gapanalysis.h"

#include "core/intervals.h"
#include "session/residentbudget.h"
#include "stats/rankcomparison.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

namespace rankscope::stats {

namespace {

struct DeviceOps {
    int rankIndex = 0;
    TimeNs offset = 0;
    std::vector<TimeNs> starts, ends; // report time, each sorted
    std::vector<std::size_t> pieces;  // where each track's begin, as they were read
};

// One slice's kernels, memcpys and memsets per (rank, pid, device) that
// start in it.
std::map<std::tuple<int, std::uint32_t, int>, DeviceOps> deviceOps(const Session &session, const ReportSlice &slice)
{
    std::map<std::tuple<int, std::uint32_t, int>, DeviceOps> ops;
    for (const Track &t : slice.report->tracks) {
        if ((t.kind != TrackKind::Kernel && t.kind != TrackKind::Memcpy && t.kind != TrackKind::Memset) || !slice.acceptsTrack(t))
            continue;
        DeviceOps &d = ops[{slice.rankIndex, t.pid, t.deviceId}];
        d.rankIndex = slice.rankIndex;
        d.offset = session.ranks()[std::size_t(slice.rankIndex)].sessionOffset;
        const auto [first, last] = slice.eventsIn(t);
        d.pieces.push_back(d.starts.size());
        for (std::size_t i = first; i < last; ++i) {
            d.starts.push_back(t.slices.start(i));
            d.ends.push_back(t.slices.end(i));
        }
    }
    // A track's starts are in order, and a stream's ends too.
    for (auto &[key, d] : ops) {
        sortPieces(d.starts, d.pieces);
        sortPieces(d.ends, d.pieces);
    }
    return ops;
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

// What the process's threads did during [lo, hi] (report time): per NVTX
// range name and OS runtime call name, on the training thread or another,
// the time of the gap they cover.
std::vector<CpuActivity> activityDuring(const Report &r, std::uint32_t pid, TimeNs lo, TimeNs hi)
{
    struct Coverage {
        std::vector<std::pair<TimeNs, TimeNs>> pieces;
        int depth = 0;
    };
    const std::uint32_t training = trainingThread(r, pid);
    std::map<std::tuple<bool, bool, StringId>, Coverage> byName; // (NVTX, training thread, name)
    for (const Track &t : r.tracks) {
        if (t.pid != pid || (t.kind != TrackKind::Nvtx && t.kind != TrackKind::OsRuntime))
            continue;
        const bool nvtx = t.kind == TrackKind::Nvtx;
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
        out.push_back({r.strings.string(name), nvtx ? QStringLiteral("NVTX") : QStringLiteral("OS runtime"), covered,
                       double(covered) / length, c.depth, main});
    }
    std::sort(out.begin(), out.end(), [](const CpuActivity &a, const CpuActivity &b) {
        if (a.covered != b.covered)
            return a.covered > b.covered;
        return a.mainThread != b.mainThread ? a.mainThread : a.name < b.name;
    });
    return out;
}


// Where and how long a gap must be to count, per rank.
struct GapWindow {
    TimeRange within{kTimeMin, kTimeMax}; // report time; gaps are clipped to it
    TimeNs minimum = 0;
    TimeNs medianStep = 0;
};

template<class WindowOf>
std::vector<GpuGapInfo> gapsWhere(const Session &session, const StatsScope &scope, WindowOf &&windowOf,
                                  bool withActivity, std::size_t activityLimit, GapSelection selection)
{
    std::vector<GpuGapInfo> gaps;
    std::map<int, GapWindow> windows;
    // Rank after rank, each rank's mapped pages given back once read
    // (session/residentbudget.h).
    for (const ReportSlice &slice : slicesOf(session, scope)) {
        for (const auto &[key, d] : deviceOps(session, slice)) {
            const auto &[rankIndex, pid, device] = key;
            auto found = windows.find(rankIndex);
            if (found == windows.end())
                found = windows.emplace(rankIndex, windowOf(rankIndex)).first;
            const GapWindow &w = found->second;
            for (std::size_t k = 0; k + 1 < d.starts.size(); ++k) {
                const TimeNs from = std::max(d.ends[k], w.within.start), to = std::min(d.starts[k + 1], w.within.end);
                const TimeNs idle = to - from;
                if (idle <= 0 || idle < w.minimum)
                    continue;
                GpuGapInfo g;
                g.rankIndex = rankIndex;
                g.rank = session.ranks()[std::size_t(rankIndex)].rank;
                g.pid = pid;
                g.deviceId = device;
                g.time = {from + d.offset, to + d.offset};
                g.medianStep = w.medianStep;
                gaps.push_back(std::move(g));
            }
        }
        ResidentBudget::process().doneReading(*slice.report);
    }
    std::stable_sort(gaps.begin(), gaps.end(), [](const GpuGapInfo &a, const GpuGapInfo &b) {
        return a.time.duration() != b.time.duration() ? a.time.duration() > b.time.duration() : a.time.start < b.time.start;
    });
    if (selection.found)
        *selection.found = gaps.size();
    if (gaps.size() > selection.longest)
        gaps.resize(selection.longest);
    if (withActivity)
        for (GpuGapInfo &g : gaps) {
            const RankEntry &entry = session.ranks()[std::size_t(g.rankIndex)];
            g.activity = activityDuring(*entry.report, g.pid, g.time.start - entry.sessionOffset, g.time.end - entry.sessionOffset);
            if (g.activity.size() > activityLimit)
                g.activity.resize(activityLimit);
        }
    return gaps;
}

} // namespace

const CpuActivity *GpuGapInfo::mainActivity() const
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

std::vector<GpuGapInfo> findGaps(const Session &session, const StatsScope &scope, TimeNs minimum, bool withActivity,
                                 std::size_t activityLimit, GapSelection selection)
{
    return gapsWhere(session, scope, [minimum](int) { return GapWindow{{kTimeMin, kTimeMax}, minimum, 0}; }, withActivity, activityLimit,
                     selection);
}

std::vector<GpuGapInfo> findInLoopGaps(const Session &session, const StatsScope &scope, double shareOfStep,
                                       TimeNs withoutSteps, std::size_t activityLimit, GapSelection selection)
{
    auto windowOf = [&](int rankIndex) {
        const std::vector<TimeRange> steps = annotatedSteps(session.ranks()[std::size_t(rankIndex)]);
        if (steps.empty())
            return GapWindow{{kTimeMin, kTimeMax}, withoutSteps, 0};
        std::vector<TimeNs> lengths;
        TimeNs loopEnd = kTimeMin;
        for (const TimeRange &st : steps) {
            lengths.push_back(st.duration());
            loopEnd = std::max(loopEnd, st.end);
        }
        std::nth_element(lengths.begin(), lengths.begin() + std::ptrdiff_t(lengths.size() / 2), lengths.end());
        const TimeNs median = lengths[lengths.size() / 2];
        return GapWindow{{steps.front().start, loopEnd}, std::max<TimeNs>(TimeNs(double(median) * shareOfStep), 1), median};
    };
    return gapsWhere(session, scope, windowOf, true, activityLimit, selection);
}

std::vector<UtilizationSeries> utilizationOverTime(const Session &session, const StatsScope &scope, int chunks)
{
    std::vector<UtilizationSeries> out;
    const TimeRange range = scope.range.value_or(session.extent());
    if (chunks <= 0 || range.duration() <= 0)
        return out;
    const TimeNs chunk = (range.duration() + chunks - 1) / chunks;
    for (const ReportSlice &slice : slicesOf(session, scope)) {
        std::map<int, UtilizationSeries> byDevice;
        const TimeNs offset = session.ranks()[std::size_t(slice.rankIndex)].sessionOffset;
        for (const Track &t : slice.report->tracks) {
            if ((t.kind != TrackKind::Kernel && t.kind != TrackKind::Memcpy && t.kind != TrackKind::Memset) || !slice.acceptsTrack(t))
                continue;
            UtilizationSeries &u = byDevice[t.deviceId];
            if (u.start.empty()) {
                u.rankIndex = slice.rankIndex;
                u.deviceId = t.deviceId;
                u.chunk = chunk;
                for (int c = 0; c < chunks; ++c) {
                    u.start.push_back(range.start + TimeNs(c) * chunk);
                    u.percent.push_back(0.0);
                }
            }
            // Each op's time, clipped to the range, spread over its chunks.
            t.slices.forEachOverlapping(range.start - offset, range.end - offset, [&](std::uint32_t i) {
                TimeNs s = std::max(range.start, t.slices.start(i) + offset);
                const TimeNs e = std::min(range.end, t.slices.end(i) + offset);
                while (s < e) {
                    const auto c = std::size_t((s - range.start) / chunk);
                    if (c >= u.percent.size())
                        break;
                    const TimeNs chunkEnd = range.start + TimeNs(c + 1) * chunk;
                    const TimeNs piece = std::min(e, chunkEnd) - s;
                    u.percent[c] += 100.0 * double(piece) / double(chunk);
                    s += piece;
                }
            });
        }
        for (auto &[device, series] : byDevice)
            out.push_back(std::move(series));
        ResidentBudget::process().doneReading(*slice.report);
    }
    return out;
}

std::vector<GapHistogramBin> gapHistogram(const Session &session, const StatsScope &scope)
{
    std::vector<GapHistogramBin> bins;
    for (TimeNs from = 1000; from <= TimeNs(100) * 1000000000; from *= 10)
        bins.push_back({from, from * 10, 0, 0});
    for (const GpuGapInfo &g : findGaps(session, scope, 1000, false)) {
        for (GapHistogramBin &b : bins)
            if (g.time.duration() >= b.from && g.time.duration() < b.to) {
                ++b.count;
                b.total += g.time.duration();
                break;
            }
    }
    while (!bins.empty() && bins.back().count == 0)
        bins.pop_back();
    return bins;
}

} // namespace rankscope::stats
