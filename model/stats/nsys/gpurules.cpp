#include "stats/nsys/gpurules.h"
#include "stats/reportcatalog.h"

#include <algorithm>
#include <map>

namespace rankscope::stats {

namespace {

struct DeviceOps {
    std::uint32_t contextId = 0;
    std::vector<TimeNs> starts;
    std::vector<TimeNs> ends;
};

// All kernels, memcpys and memsets per (pid, device), each list sorted.
std::map<std::pair<std::uint32_t, int>, DeviceOps> opsByProcessAndDevice(const Report &report)
{
    std::map<std::pair<std::uint32_t, int>, DeviceOps> ops;
    for (const Track &track : report.tracks) {
        if (!isGpuOperation(track.kind))
            continue;
        auto [it, added] = ops.try_emplace({track.pid, track.deviceId});
        if (added)
            it->second.contextId = track.contextId;
        it->second.starts.insert(it->second.starts.end(), track.slices.starts().begin(), track.slices.starts().end());
        it->second.ends.insert(it->second.ends.end(), track.slices.ends().begin(), track.slices.ends().end());
    }
    for (auto &[key, d] : ops) {
        std::sort(d.starts.begin(), d.starts.end());
        std::sort(d.ends.begin(), d.ends.end());
    }
    return ops;
}

} // namespace

std::vector<GpuGap> findGpuGaps(const Report &report, TimeNs minimumNs)
{
    std::vector<GpuGap> gaps;
    for (const auto &[key, d] : opsByProcessAndDevice(report)) {
        // After the k-th end (sorted) and before the (k+1)-th start, every op
        // that started has ended: the device is idle.
        for (std::size_t k = 0; k + 1 < d.starts.size(); ++k) {
            const TimeNs idle = d.starts[k + 1] - d.ends[k];
            if (idle > 0 && idle >= minimumNs)
                gaps.push_back({key.first, key.second, d.contextId, d.ends[k], idle});
        }
    }
    std::stable_sort(gaps.begin(), gaps.end(),
                     [](const GpuGap &a, const GpuGap &b) { return a.duration != b.duration ? a.duration > b.duration : a.start < b.start; });
    return gaps;
}

ResultTable gpuGaps(const Report &report, double thresholdMs)
{
    ResultTable t = declaredTable(QStringLiteral("gpu_gaps"));
    t.headers = QStringList{QStringLiteral("Row#"), QStringLiteral("Duration (ns)"), QStringLiteral("Start (ns)"),
                            QStringLiteral("PID"),  QStringLiteral("Device ID"),     QStringLiteral("Context ID")};
    std::int64_t row = 0;
    for (const GpuGap &g : findGpuGaps(report, TimeNs(thresholdMs * 1e6)))
        t.addRow({Cell::ofInteger(++row), Cell::ofInteger(g.duration), Cell::ofInteger(g.start), Cell::ofInteger(g.pid), Cell::ofInteger(g.deviceId),
                  Cell::ofInteger(g.contextId)});
    return t;
}

namespace {

// Σ over points p < x of (x - p). With the sorted op starts S and ends E,
// busy(-inf, x] = covered(x, S) - covered(x, E): the total op time before
// x, where concurrent ops add up.
TimeNs coveredBefore(TimeNs x, const std::vector<TimeNs> &sortedPoints)
{
    TimeNs sum = 0;
    for (TimeNs p : sortedPoints) {
        if (p >= x)
            break;
        sum += x - p;
    }
    return sum;
}

} // namespace

ResultTable gpuTimeUtil(const Report &report, double thresholdPercent, int chunks)
{
    ResultTable t = declaredTable(QStringLiteral("gpu_time_util"));
    t.headers = QStringList{QStringLiteral("Row#"), QStringLiteral("In-Use (%)"), QStringLiteral("Duration (ns)"), QStringLiteral("Start (ns)"),
                            QStringLiteral("PID"),  QStringLiteral("Device ID"),  QStringLiteral("Context ID")};
    std::int64_t rowNumber = 0;
    for (const auto &[key, d] : opsByProcessAndDevice(report)) {
        if (d.starts.empty() || chunks <= 0)
            continue;
        const TimeNs first = d.starts.front();
        const TimeNs last = d.ends.back();
        if (last <= first)
            continue;
        const TimeNs chunk = (last - first + chunks - 1) / chunks; // ceil; the last chunk is clipped
        struct Run {
            TimeNs start = 0, duration = 0;
            double weightedPercent = 0.0;
        };
        std::vector<Run> runs;
        bool inRun = false;
        TimeNs busyBefore = 0; // op time before the current chunk's start
        for (int c = 0; c < chunks; ++c) {
            const TimeNs chunkStart = first + TimeNs(c) * chunk;
            const TimeNs chunkEnd = std::min(chunkStart + chunk, last);
            if (chunkEnd <= chunkStart)
                break;
            const TimeNs busyAtEnd = coveredBefore(chunkEnd, d.starts) - coveredBefore(chunkEnd, d.ends);
            const TimeNs length = chunkEnd - chunkStart;
            const double percent = 100.0 * double(busyAtEnd - busyBefore) / double(length);
            busyBefore = busyAtEnd;
            if (percent >= thresholdPercent) {
                inRun = false;
                continue;
            }
            if (!inRun)
                runs.push_back({chunkStart, 0, 0.0});
            runs.back().duration += length;
            runs.back().weightedPercent += percent * double(length);
            inRun = true;
        }
        for (const Run &r : runs)
            t.addRow({Cell::ofInteger(++rowNumber), Cell::ofDecimal(r.weightedPercent / double(r.duration), 1), Cell::ofInteger(r.duration),
                      Cell::ofInteger(r.start), Cell::ofInteger(key.first), Cell::ofInteger(key.second), Cell::ofInteger(d.contextId)});
    }
    return t;
}

} // namespace rankscope::stats
