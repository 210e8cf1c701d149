#include "stats/gapanalysis.h"

#include "core/intervals.h"

#include <algorithm>
#include <map>

namespace rankscope::stats {

namespace {

struct DeviceOps {
    int rankIndex = 0;
    const Report *report = nullptr;
    TimeNs offset = 0;
    std::vector<TimeNs> starts, ends; // report time, each sorted
};

// Kernels, memcpys and memsets per (rank, pid, device) that start in scope.
std::map<std::tuple<int, std::uint32_t, int>, DeviceOps> deviceOps(const Session &session, const StatsScope &scope)
{
    std::map<std::tuple<int, std::uint32_t, int>, DeviceOps> ops;
    for (const ReportSlice &slice : slicesOf(session, scope))
        for (const Track &t : slice.report->tracks) {
            if ((t.kind != TrackKind::Kernel && t.kind != TrackKind::Memcpy && t.kind != TrackKind::Memset) || !slice.acceptsTrack(t))
                continue;
            DeviceOps &d = ops[{slice.rankIndex, t.pid, t.deviceId}];
            d.rankIndex = slice.rankIndex;
            d.report = slice.report;
            d.offset = session.ranks()[std::size_t(slice.rankIndex)].sessionOffset;
            const auto [first, last] = slice.eventsIn(t);
            for (std::size_t i = first; i < last; ++i) {
                d.starts.push_back(t.slices.start(i));
                d.ends.push_back(t.slices.end(i));
            }
        }
    for (auto &[key, d] : ops) {
        std::sort(d.starts.begin(), d.starts.end());
        std::sort(d.ends.begin(), d.ends.end());
    }
    return ops;
}

// What the process's threads did during [lo, hi] (report time): per NVTX
// range name and OS runtime call name, the time of the gap they cover.
std::vector<CpuActivity> activityDuring(const Report &r, std::uint32_t pid, TimeNs lo, TimeNs hi)
{
    struct Coverage {
        std::vector<std::pair<TimeNs, TimeNs>> pieces;
        int depth = 0;
        bool nvtx = false;
    };
    std::map<std::pair<bool, StringId>, Coverage> byName;
    for (const Track &t : r.tracks) {
        if (t.pid != pid || (t.kind != TrackKind::Nvtx && t.kind != TrackKind::OsRuntime))
            continue;
        const bool nvtx = t.kind == TrackKind::Nvtx;
        t.slices.forEachOverlapping(lo, hi, [&](std::uint32_t i) {
            const TimeNs s = std::max(lo, t.slices.start(i)), e = std::min(hi, t.slices.end(i));
            if (e <= s)
                return;
            Coverage &c = byName[{nvtx, t.slices.name(i)}];
            c.pieces.emplace_back(s, e);
            c.depth = std::max<int>(c.depth, t.slices.depth(i));
            c.nvtx = nvtx;
        });
    }
    std::vector<CpuActivity> out;
    const double length = double(std::max<TimeNs>(hi - lo, 1));
    for (auto &[key, c] : byName) {
        const TimeNs covered = lengthOf(unionOf(std::move(c.pieces)));
        out.push_back({r.strings.string(key.second), c.nvtx ? QStringLiteral("NVTX") : QStringLiteral("OS runtime"), covered,
                       double(covered) / length, c.depth});
    }
    std::sort(out.begin(), out.end(), [](const CpuActivity &a, const CpuActivity &b) {
        return a.covered != b.covered ? a.covered > b.covered : a.name < b.name;
    });
    return out;
}

} // namespace

const CpuActivity *GpuGapInfo::mainActivity() const
{
    const CpuActivity *best = nullptr;
    for (const CpuActivity &a : activity)
        if (a.source == QLatin1String("NVTX") && a.share >= 0.5 && (!best || a.depth > best->depth))
            best = &a;
    if (best)
        return best;
    for (const CpuActivity &a : activity)
        if (a.source == QLatin1String("OS runtime"))
            return &a;
    return activity.empty() ? nullptr : &activity.front();
}

std::vector<GpuGapInfo> findGaps(const Session &session, const StatsScope &scope, TimeNs minimum, bool withActivity,
                                 std::size_t activityLimit)
{
    std::vector<GpuGapInfo> gaps;
    for (const auto &[key, d] : deviceOps(session, scope)) {
        const auto &[rankIndex, pid, device] = key;
        for (std::size_t k = 0; k + 1 < d.starts.size(); ++k) {
            const TimeNs idle = d.starts[k + 1] - d.ends[k];
            if (idle <= 0 || idle < minimum)
                continue;
            GpuGapInfo g;
            g.rankIndex = rankIndex;
            g.rank = session.ranks()[std::size_t(rankIndex)].rank;
            g.pid = pid;
            g.deviceId = device;
            g.time = {d.ends[k] + d.offset, d.starts[k + 1] + d.offset};
            if (withActivity) {
                g.activity = activityDuring(*d.report, pid, d.ends[k], d.starts[k + 1]);
                if (g.activity.size() > activityLimit)
                    g.activity.resize(activityLimit);
            }
            gaps.push_back(std::move(g));
        }
    }
    std::stable_sort(gaps.begin(), gaps.end(), [](const GpuGapInfo &a, const GpuGapInfo &b) {
        return a.time.duration() != b.time.duration() ? a.time.duration() > b.time.duration() : a.time.start < b.time.start;
    });
    return gaps;
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
